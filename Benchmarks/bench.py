#!/usr/bin/env python3
"""The performance benchmark of ditto-recover against the sqlite3 shell (run it with scripts/bench).

For each store size it measures, in one run and interleaved (ours and the reference alternate in a
shuffled order every round, on the same files):

    OPERATION   OURS                                         REFERENCE
    export      ditto-recover export --legacy S --format csv  sqlite3 -csv -header -readonly S "SELECT … ORDER BY …"
                                                              (our CSV uses CRLF, the shell's LF: compared parsed)
    migrate     ditto-recover migrate --container C           sqlite3 L (L a copy of the same empty Ditto.store):
                (C/Ditto.store: a copy of the empty store       BEGIN IMMEDIATE; ATTACH S read-only; INSERT … SELECT
                the app creates, Tests/Fixtures/ditto-3x/empty)   the Profile, categories and items (Z_PK from Z_MAX),
                                                                Z_PRIMARYKEY history rows, Z_MAX, one ATRANSACTION +
                                                                author string, one ACHANGE per row; COMMIT
    recover     ditto-recover recover --container C           sqlite3 L: the (category title, text) pairs of S
                (library already holds every ditto)             EXCEPT those of the full library, counted (for scale;
                                                                the target is ours ÷ our migrate)
    status,     ditto-recover status|inventory --container C  find C -printf '%s %P\\n' (for scale; no target)
    inventory   (a container with 10,000 files)

Times are wall-clock medians of `--runs` runs, process start included, spawned with posix_spawn
(stdout to /dev/null). Peak memory comes from separate runs under `/usr/bin/time -v` ("Maximum resident
set size"), so the timed runs carry no wrapper; "beyond baseline" subtracts the peak RSS of
`ditto-recover --version` measured the same way. Every run gets a fresh folder holding a hard link to the
generated store, so no run sees another's -wal/-shm, library or flag; the store's hash is checked at the
end (nothing may write to it).

Before timing, each size is verified: our CSV and sqlite3's CSV parse to the same rows; our library and
the reference library hold the same categories and dittos in the same order (the first Profile's
categories by ZSORTORDER, Z_PK; each one's items likewise: title, sort order, text, use count) and the
same history (transactions, changes per entity); `recover` into the full library skips every ditto
(no_new_data); the 2.x store is unchanged.
"""

import argparse
import csv
import hashlib
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {400: 8, 10_000: 20, 100_000: 50, 1_000_000: 100}  # dittos: categories
DEFAULT_RUNS = {400: 15, 10_000: 11, 100_000: 7, 1_000_000: 5}
CONTAINER_FILES = 10_000
MEMORY_OPS = ("migrate", "recover", "extract", "status")
SEED = 302

# Categories by Z_FOK_PROFILE, dittos by Z_FOK_CATEGORY (unique in the generated stores, so no tie-breaker
# is needed). Written this way SQLite scans ZDITTO in rowid order and sorts; adding `c.Z_PK, d.Z_PK`
# tie-breakers makes its planner walk ZDITTO_ZCATEGORY_INDEX and fetch rows in random order instead, about
# 2× slower at 100,000 dittos. The reference is the fastest plan: it matches the 0.31 s figure.
EXPORT_SQL = (
    "SELECT c.ZTITLE AS Category, d.ZTEXT AS Ditto FROM ZDITTO d JOIN ZCATEGORY c ON c.Z_PK = d.ZCATEGORY "
    "ORDER BY c.Z_FOK_PROFILE, d.Z_FOK_CATEGORY"
)

# Cocoa seconds (since 2001-01-01 UTC), as the library stores dates.
NOW = "((julianday('now') - 2451910.5) * 86400.0)"
EMPTY_LIBRARY = os.path.join(ROOT, "Tests", "Fixtures", "ditto-3x", "empty")
LIBRARY_FILES = ("Ditto.store", "Ditto.store-wal", "Ditto.store-shm")
AUTHOR = "ditto-recover"  # also the process name
BUNDLE = "io.kern.ditto-recover"

# The SQL-only copy into a copy of the same empty Ditto.store, written the way our migrate writes it
# (StoreLayout / DittoStoreDestination, and the store format reference §6): one BEGIN IMMEDIATE
# transaction; entity numbers by Z_NAME; keys from Z_MAX; the Profile, then the categories in walk order
# (Z_FOK_PROFILE) with sort orders 0…, then the items in walk order (category, then Z_FOK_CATEGORY) with
# sort orders 0… per category and their use counts; the history entities (INSERT OR IGNORE), the author
# (= process) and bundle strings, one ATRANSACTION (timestamp never before the latest) and one ACHANGE insert row per inserted object (one INSERT … SELECT per entity
# over its new Z_PK range); Z_MAX raised; COMMIT. The generated stores have one profile, unique titles and
# no empty texts, so no merge rule is exercised. The walk's category ranks go to a TEMP table keyed by the
# 2.x Z_PK. `NOT INDEXED … CROSS JOIN c` makes SQLite read ZDITTO once in rowid order, look each row's
# category up by key and sort, rather than walk ZDITTO_ZCATEGORY_INDEX with a random row fetch per ditto,
# or (its own choice with a CTE for the ranks) scan every ditto once per category: the fastest plan.
COPY_SQL = """\
ATTACH 'file:{store}?mode=ro' AS legacy;
BEGIN IMMEDIATE;
INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES
  (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
INSERT INTO ZPROFILE (Z_PK, Z_ENT, Z_OPT)
  SELECT Z_MAX + 1, Z_ENT, 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Profile';
CREATE TEMP TABLE c (old INTEGER PRIMARY KEY, rank INTEGER, title TEXT);
INSERT INTO c SELECT Z_PK, row_number() OVER (ORDER BY Z_FOK_PROFILE, Z_PK), coalesce(ZTITLE, 'Untitled')
  FROM legacy.ZCATEGORY WHERE ZPROFILE = 1;
INSERT INTO ZDITTOCATEGORY (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZPROFILE, ZMODIFIEDAT, ZTITLE)
  SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoCategory') + rank,
    (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoCategory'), 1, rank - 1,
    (SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Profile'), {now}, title
  FROM c ORDER BY rank;
INSERT INTO ZDITTOITEM (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZUSECOUNT, ZCATEGORY, ZMODIFIEDAT, ZTEXT)
  SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoItem')
      + row_number() OVER (ORDER BY c.rank, d.Z_FOK_CATEGORY, d.Z_PK),
    (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoItem'), 1,
    row_number() OVER (PARTITION BY c.rank ORDER BY d.Z_FOK_CATEGORY, d.Z_PK) - 1,
    coalesce(d.ZUSE_COUNT, 0),
    (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoCategory') + c.rank, {now}, d.ZTEXT
  FROM legacy.ZDITTO AS d NOT INDEXED CROSS JOIN c ON c.old = d.ZCATEGORY
  WHERE d.ZTEXT <> ''
  ORDER BY c.rank, d.Z_FOK_CATEGORY, d.Z_PK;
INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME)
  SELECT max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ATRANSACTIONSTRING)) + 1, Z_ENT, NULL, '{author}'
  FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTIONSTRING'
  AND NOT EXISTS (SELECT 1 FROM ATRANSACTIONSTRING WHERE ZNAME = '{author}');
INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME)
  SELECT max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ATRANSACTIONSTRING)) + 1, Z_ENT, NULL, '{bundle}'
  FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTIONSTRING'
  AND NOT EXISTS (SELECT 1 FROM ATRANSACTIONSTRING WHERE ZNAME = '{bundle}');
INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZPROCESSIDTS, ZTIMESTAMP)
  SELECT max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ATRANSACTION)) + 1, Z_ENT, NULL,
    (SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = '{author}'),
    (SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = '{bundle}'),
    (SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = '{author}'),
    max({now}, coalesce((SELECT max(ZTIMESTAMP) FROM ATRANSACTION), 0) + 0.001)
  FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTION';
{changes}
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ZPROFILE)) WHERE Z_NAME = 'Profile';
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ZDITTOCATEGORY)) WHERE Z_NAME = 'DittoCategory';
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ZDITTOITEM)) WHERE Z_NAME = 'DittoItem';
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ATRANSACTIONSTRING)) WHERE Z_NAME = 'TRANSACTIONSTRING';
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ATRANSACTION)) WHERE Z_NAME = 'TRANSACTION';
UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ACHANGE)) WHERE Z_NAME = 'CHANGE';
COMMIT;
"""

# One ACHANGE insert row per new object of one entity: its Z_PK range is above the entity's Z_MAX, which
# is raised only after the history is written.
CHANGE_SQL = """\
INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
  SELECT (SELECT max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM ACHANGE)) FROM Z_PRIMARYKEY WHERE Z_NAME = 'CHANGE')
      + row_number() OVER (ORDER BY Z_PK),
    (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'CHANGE'), NULL, 0,
    (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '{entity}'), Z_PK, (SELECT max(Z_PK) FROM ATRANSACTION)
  FROM {table} WHERE Z_PK > (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = '{entity}') ORDER BY Z_PK;"""

# recover's reference, for scale: which (category title, text) pairs of the 2.x store the full library
# lacks, as one set difference (nothing is new, so nothing is written).
DEDUPE_SQL = """\
ATTACH 'file:{store}?mode=ro' AS legacy;
SELECT count(*) FROM (
  SELECT coalesce(c.ZTITLE, 'Untitled'), d.ZTEXT FROM legacy.ZDITTO AS d NOT INDEXED
    JOIN legacy.ZCATEGORY c ON c.Z_PK = d.ZCATEGORY WHERE c.ZPROFILE = 1 AND d.ZTEXT <> ''
  EXCEPT
  SELECT c.ZTITLE, i.ZTEXT FROM ZDITTOITEM AS i NOT INDEXED JOIN ZDITTOCATEGORY c ON c.Z_PK = i.ZCATEGORY
    WHERE c.ZPROFILE = (SELECT min(Z_PK) FROM ZPROFILE));
"""


def log(message):
    print(message, file=sys.stderr, flush=True)


def human_seconds(seconds):
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


class Runner:
    """Spawns commands, times them, measures peak RSS under /usr/bin/time -v."""

    def __init__(self, work, tool, cache):
        self.work = work
        self.tool = tool
        self.cache = cache
        self.devnull = os.open(os.devnull, os.O_WRONLY)
        self.stderr_path = os.path.join(work, "stderr.log")
        self.env = dict(os.environ)
        # Our snapshot copies and sqlite3's temporary files land in the bench folder.
        self.env["TMPDIR"] = os.path.join(work, "tmp")
        os.makedirs(self.env["TMPDIR"], exist_ok=True)
        self.counter = 0

    def _spawn(self, argv, stdout_fd):
        err = os.open(self.stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        actions = [(os.POSIX_SPAWN_DUP2, stdout_fd, 1), (os.POSIX_SPAWN_DUP2, err, 2)]
        start = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, self.env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        elapsed = (time.perf_counter_ns() - start) / 1e9
        os.close(err)
        self.last_cpu = usage.ru_utime + usage.ru_stime
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            with open(self.stderr_path, errors="replace") as f:
                detail = f.read()[-2000:]
            raise SystemExit(f"bench: exit {code} from {' '.join(argv)}\n{detail}")
        return elapsed

    def time(self, argv):
        return self._spawn(argv, self.devnull)

    def peak_rss_kb(self, argv):
        report = os.path.join(self.work, "time-v.txt")
        self._spawn(["/usr/bin/time", "-v", "-o", report, "--"] + argv, self.devnull)
        with open(report) as f:
            text = f.read()
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        if not match:
            raise SystemExit(f"bench: no RSS in /usr/bin/time -v output:\n{text}")
        return int(match.group(1))

    def output(self, argv, path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            return self._spawn(argv, fd)
        finally:
            os.close(fd)

    def fresh_dir(self, label):
        self.counter += 1
        path = os.path.join(self.work, "runs", f"{self.counter:05d}-{label}")
        os.makedirs(path)
        return path


class Command:
    """One side of a comparison: `prepare()` (untimed) returns (argv, cleanup)."""

    def __init__(self, label, prepare):
        self.label = label
        self.prepare = prepare


def measure(runner, name, commands, runs, mem_runs, rnd):
    """Runs every command `runs` times for time and `mem_runs` times for memory, interleaved."""
    result = {c.label: {"seconds": [], "cpu_seconds": [], "rss_kb": []} for c in commands}
    plan = [("seconds", i) for i in range(runs)] + [("rss_kb", i) for i in range(mem_runs)]
    for kind, _ in plan:
        order = list(commands)
        rnd.shuffle(order)
        for command in order:
            argv, cleanup = command.prepare()
            if kind == "seconds":
                value = runner.time(argv)
                result[command.label]["cpu_seconds"].append(runner.last_cpu)
            else:
                value = runner.peak_rss_kb(argv)
            result[command.label][kind].append(value)
            if cleanup:
                cleanup()
    for label, samples in result.items():
        samples["median_seconds"] = statistics.median(samples["seconds"])
        samples["median_cpu_seconds"] = statistics.median(samples["cpu_seconds"])
        samples["peak_rss_kb"] = max(samples["rss_kb"]) if samples["rss_kb"] else None
        log(
            f"  {name:<9} {label:<5} median {human_seconds(samples['median_seconds']):>10}"
            f"  (min {human_seconds(min(samples['seconds']))}, max {human_seconds(max(samples['seconds']))})"
            f"  CPU {human_seconds(samples['median_cpu_seconds'])}"
            f"  peak RSS {samples['peak_rss_kb'] / 1024:.1f} MB"
        )
    return result


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_store(cache, dittos, categories):
    path = os.path.join(cache, "stores", f"ditto-{dittos}-c{categories}-s{SEED}.sqlite")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        log(f"generating {dittos} dittos in {categories} categories → {path}")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "Benchmarks", "generate_store.py"), "--out", path,
             "--dittos", str(dittos), "--categories", str(categories), "--seed", str(SEED)],
            check=True,
        )
    return path


def ensure_container(cache, store):
    """A container with CONTAINER_FILES files: the store plus small files in nested folders."""
    path = os.path.join(cache, f"container-{CONTAINER_FILES}")
    marker = path + ".complete"
    if os.path.exists(marker):
        return path
    shutil.rmtree(path, ignore_errors=True)
    rnd = random.Random(SEED)
    os.makedirs(path)
    shutil.copyfile(store, os.path.join(path, "Ditto.sqlite"))
    made = 1
    folders = ["Library/Caches/com.apple.keyboard", "Library/Caches/images", "Library/Application Support",
               "Library/Preferences", "Documents/exports", "tmp/uploads", "Library/Logs"]
    while made < CONTAINER_FILES:
        folder = os.path.join(path, rnd.choice(folders), f"d{made // 100:03d}")
        os.makedirs(folder, exist_ok=True)
        for _ in range(min(100, CONTAINER_FILES - made)):
            with open(os.path.join(folder, f"file-{made:05d}.dat"), "wb") as f:
                f.write(b"x" * rnd.randint(0, 1024))
            made += 1
    open(marker, "w").close()
    return path


def copy_script(store):
    changes = "\n".join(CHANGE_SQL.format(entity=entity, table=table) for entity, table in
                        (("Profile", "ZPROFILE"), ("DittoCategory", "ZDITTOCATEGORY"), ("DittoItem", "ZDITTOITEM")))
    return COPY_SQL.format(store=store.replace("'", "''"), now=NOW, author=AUTHOR, bundle=BUNDLE, changes=changes)


def dedupe_script(store):
    return DEDUPE_SQL.format(store=store.replace("'", "''"))


def copy_empty_library(folder):
    """Puts a copy of the empty Ditto.store the app creates (with its -wal and -shm) in `folder`."""
    for name in LIBRARY_FILES:
        shutil.copyfile(os.path.join(EMPTY_LIBRARY, name), os.path.join(folder, name))
    return os.path.join(folder, "Ditto.store")


def library_rows(path):
    """What the app shows (the first Profile's categories by ZSORTORDER, Z_PK; items likewise) and the
    history's shape (transactions; insert changes per entity name)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    profile = db.execute("SELECT min(Z_PK) FROM ZPROFILE").fetchone()[0]
    categories = db.execute(
        "SELECT Z_PK, ZTITLE, ZSORTORDER FROM ZDITTOCATEGORY WHERE ZPROFILE = ? ORDER BY ZSORTORDER, Z_PK",
        (profile,)).fetchall()
    digest = hashlib.sha256()
    count = 0
    for pk, _, _ in categories:
        for row in db.execute(
                "SELECT ZTEXT, ZUSECOUNT, ZSORTORDER FROM ZDITTOITEM WHERE ZCATEGORY = ? "
                "ORDER BY ZSORTORDER, Z_PK", (pk,)):
            digest.update(repr(row).encode())
            count += 1
    history = db.execute(
        "SELECT (SELECT count(*) FROM ATRANSACTION), k.Z_NAME, count(*) FROM ACHANGE a "
        "JOIN Z_PRIMARYKEY k ON k.Z_ENT = a.ZENTITY WHERE a.ZCHANGETYPE = 0 GROUP BY k.Z_NAME ORDER BY k.Z_NAME"
    ).fetchall()
    zmax = db.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").fetchall()
    check = db.execute("PRAGMA integrity_check").fetchone()[0]
    db.close()
    return {"categories": [(t, o) for _, t, o in categories], "dittos": count, "digest": digest.hexdigest(),
            "history": history, "z_max": zmax, "integrity_check": check}


def csv_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def bench_size(runner, dittos, categories, runs, mem_runs, rnd):
    store = ensure_store(runner.cache, dittos, categories)
    store_hash = sha256(store)
    tool = runner.tool
    log(f"\n== {dittos} dittos in {categories} categories ({os.path.getsize(store) / 1e6:.1f} MB), {runs} runs")

    def linked(label, library=False):
        folder = runner.fresh_dir(label)
        target = os.path.join(folder, "Ditto.sqlite")
        os.link(store, target)
        if library:
            copy_empty_library(folder)
        return folder, target

    def cleanup(folder):
        return lambda: shutil.rmtree(folder)

    # -- Verification (untimed): the reference computes the same thing as ours.
    folder, linked_store = linked("verify")
    runner.output([tool, "export", "--legacy", linked_store, "--format", "csv"], os.path.join(folder, "ours.csv"))
    runner.output(["sqlite3", "-csv", "-header", "-readonly", linked_store, EXPORT_SQL], os.path.join(folder, "ref.csv"))
    ours_csv, ref_csv = csv_rows(os.path.join(folder, "ours.csv")), csv_rows(os.path.join(folder, "ref.csv"))
    if ours_csv != ref_csv or len(ours_csv) != dittos + 1:
        raise SystemExit(f"bench: export differs from sqlite3 ({len(ours_csv)} vs {len(ref_csv)} rows) in {folder}")
    with open(os.path.join(folder, "ours.csv"), "rb") as f:
        crlf = f.read(64).startswith(b"Category,Ditto\r\n")
    del ours_csv, ref_csv
    shutil.rmtree(folder)

    # Full libraries for `recover` (made once, also compared with each other).
    full, full_store = linked("full", library=True)
    runner.time([tool, "migrate", "--container", full])
    ours_library = os.path.join(full, "Ditto.store")
    ref_folder = os.path.join(full, "reference")
    os.makedirs(ref_folder)
    ref_library = copy_empty_library(ref_folder)
    copy_path = os.path.join(full, "copy.sql")
    with open(copy_path, "w") as f:
        f.write(copy_script(full_store))
    dedupe_path = os.path.join(full, "dedupe.sql")
    with open(dedupe_path, "w") as f:
        f.write(dedupe_script(full_store))
    runner.time(["sqlite3", "-bail", ref_library, f".read {copy_path}"])
    ours_rows, ref_rows = library_rows(ours_library), library_rows(ref_library)
    expected_history = [(1, "DittoCategory", categories), (1, "DittoItem", dittos), (1, "Profile", 1)]
    if ours_rows != ref_rows or ours_rows["dittos"] != dittos or ours_rows["history"] != expected_history \
            or ours_rows["integrity_check"] != "ok":
        diff = {k: (ours_rows[k], ref_rows[k]) for k in ours_rows if ours_rows[k] != ref_rows[k]}
        raise SystemExit(f"bench: library content differs from the SQL-only copy in {full}: {str(diff)[:2000]}")
    runner.output([tool, "recover", "--container", full, "--json"], os.path.join(full, "recover.json"))
    with open(os.path.join(full, "recover.json")) as f:
        report = json.load(f)
    if report.get("outcome") != "no_new_data" or report.get("skipped") != dittos:
        raise SystemExit(f"bench: recover into a full library did not skip everything: {report}")
    if library_rows(ours_library) != ours_rows:
        raise SystemExit(f"bench: recover into a full library changed it in {full}")
    runner.output(["sqlite3", "-bail", ref_library, f".read {dedupe_path}"], os.path.join(full, "dedupe.txt"))
    with open(os.path.join(full, "dedupe.txt")) as f:
        if f.read().strip() != "0":
            raise SystemExit(f"bench: the reference recover finds new rows in {full}")
    if sha256(store) != store_hash:
        raise SystemExit(f"bench: {store} changed during the verification")
    log(f"  verified: CSV rows equal ({dittos}), libraries equal (same order, history "
        f"{ours_rows['history']}), recover skips {dittos}, store unchanged")

    # -- Timed commands.
    def ours_export():
        folder, path = linked("export-ours")
        return [tool, "export", "--legacy", path, "--format", "csv"], cleanup(folder)

    def ref_export():
        folder, path = linked("export-ref")
        return ["sqlite3", "-csv", "-header", "-readonly", path, EXPORT_SQL], cleanup(folder)

    def ours_migrate():
        folder, _ = linked("migrate-ours", library=True)
        return [tool, "migrate", "--container", folder], cleanup(folder)

    def ref_migrate():
        folder, path = linked("migrate-ref", library=True)
        script = os.path.join(folder, "copy.sql")
        with open(script, "w") as f:
            f.write(copy_script(path))
        return ["sqlite3", "-bail", os.path.join(folder, "Ditto.store"), f".read {script}"], cleanup(folder)

    def ours_recover():
        return [tool, "recover", "--container", full], None

    def ref_recover():
        return ["sqlite3", "-bail", ref_library, f".read {dedupe_path}"], None

    result = {"categories": categories, "store_bytes": os.path.getsize(store), "csv_crlf": crlf, "operations": {}}
    ops = result["operations"]
    ops["export"] = measure(runner, "export", [Command("ours", ours_export), Command("ref", ref_export)], runs, mem_runs, rnd)
    ops["migrate"] = measure(runner, "migrate", [Command("ours", ours_migrate), Command("ref", ref_migrate)], runs, mem_runs, rnd)
    ops["recover"] = measure(runner, "recover", [Command("ours", ours_recover), Command("ref", ref_recover)], runs, mem_runs, rnd)

    # Issue 17's memory targets also cover extract (container -> recovery file) and status (the
    # survey: every store read to its end and counted); neither has a reference.
    def ours_extract():
        folder = runner.fresh_dir("extract-ours")
        return [tool, "extract", "--container", full, "--out", os.path.join(folder, "out.dittorecovery")], cleanup(folder)

    def ours_status():
        return [tool, "status", "--container", full, "--json"], None

    quick = max(1, min(3, runs))
    # What the checks cost, each alone, on the library migrate made: PRAGMA quick_check is what migrate
    # runs after its inserts (inside its transaction; the SQL-only copy it is compared with does not);
    # PRAGMA integrity_check is what an import into a library of this size runs before its first write
    # (migrate into a new library runs it on an empty one).
    def quick_check():
        return ["sqlite3", "-readonly", ours_library, "PRAGMA quick_check(5)"], None

    def integrity_check():
        return ["sqlite3", "-readonly", ours_library, "PRAGMA integrity_check(5)"], None

    ops["quick_check"] = measure(runner, "quick_chk", [Command("ours", quick_check)], quick, 1, rnd)
    ops["integrity_check"] = measure(runner, "integrity", [Command("ours", integrity_check)], quick, 1, rnd)
    ops["extract"] = measure(runner, "extract", [Command("ours", ours_extract)], quick, mem_runs, rnd)
    ops["status"] = measure(runner, "status", [Command("ours", ours_status)], quick, mem_runs, rnd)
    shutil.rmtree(full)
    if sha256(store) != store_hash:
        raise SystemExit(f"bench: {store} changed during the run")
    result["store_sha256"] = store_hash
    return result


def bench_container(runner, store_10k, runs, mem_runs, rnd):
    container = ensure_container(runner.cache, store_10k)
    count = sum(len(files) for _, _, files in os.walk(container))
    log(f"\n== status and inventory on a container with {count} files, {runs} runs")
    tool = runner.tool
    find = ["find", container, "-printf", "%s %P\\n"]
    result = {"files": count, "operations": {}}
    for op in ("status", "inventory"):
        result["operations"][op] = measure(
            runner, op,
            [Command("ours", lambda op=op: ([tool, op, "--container", container], None)),
             Command("ref", lambda: (find, None))],
            runs, mem_runs, rnd)
    return result


def baselines(runner, runs, rnd):
    log("\n== process baselines")
    return measure(
        runner, "baseline",
        [Command("ours", lambda: ([runner.tool, "--version"], None)),
         Command("ref", lambda: (["sqlite3", "-version"], None)),
         Command("spawn", lambda: (["/bin/true"], None))],
        runs, 3, rnd)


def bench_linking(runner, dynamic_tool, runs, mem_runs, rnd):
    """The shipped build (Swift runtime and Foundation linked in) beside the dynamically linked one:
    process start (--version) and the 400-ditto migrate."""
    log("\n== static (shipped) vs dynamic build")
    store = ensure_store(runner.cache, 400, SIZES[400])
    result = {}
    result["version"] = measure(
        runner, "start",
        [Command("static", lambda: ([runner.tool, "--version"], None)),
         Command("dynamic", lambda: ([dynamic_tool, "--version"], None))],
        runs, mem_runs, rnd)

    def migrate(tool, label):
        def prepare():
            folder = runner.fresh_dir(label)
            os.link(store, os.path.join(folder, "Ditto.sqlite"))
            copy_empty_library(folder)
            return [tool, "migrate", "--container", folder], lambda: shutil.rmtree(folder)
        return prepare

    result["migrate"] = measure(
        runner, "migrate",
        [Command("static", migrate(runner.tool, "static")),
         Command("dynamic", migrate(dynamic_tool, "dynamic"))],
        runs, mem_runs, rnd)
    return result


# -- Report ---------------------------------------------------------------------------------------

TARGETS = {
    # (operation, size) -> (description, limit, what is compared)
    ("export", 100_000): ("≤ 1.1× sqlite3", 1.1, "ref"),
    ("export", 1_000_000): ("≤ 1.1× sqlite3", 1.1, "ref"),
    ("migrate", 400): ("≤ 3× SQL copy", 3.0, "ref"),
    ("migrate", 10_000): ("≤ 1.2× SQL copy", 1.2, "ref"),
    ("migrate", 100_000): ("≤ 1.2× SQL copy", 1.2, "ref"),
    ("migrate", 1_000_000): ("≤ 1.2× SQL copy", 1.2, "ref"),
}


def fmt_mb(kb):
    return f"{kb / 1024:.1f}"


def cpu(samples):
    return human_seconds(samples["median_cpu_seconds"])


def cpu_ratio(ours, ref):
    return f"{ours['median_cpu_seconds'] / max(ref['median_cpu_seconds'], 1e-4):.2f}"


def build_report(data):
    base = data["baseline"]
    base_ours_kb = base["ours"]["peak_rss_kb"]
    base_ref_kb = base["ref"]["peak_rss_kb"]
    lines = []
    lines.append(f"Run {data['started']} on {data['machine']}; ditto-recover {data['version']}, "
                 f"sqlite3 {data['sqlite_version']}; medians of {data['runs_note']}.")
    lines.append("")
    lines.append(f"Process baselines (median, peak RSS): `ditto-recover --version` "
                 f"{human_seconds(base['ours']['median_seconds'])}, {fmt_mb(base_ours_kb)} MB; "
                 f"`sqlite3 -version` {human_seconds(base['ref']['median_seconds'])}, {fmt_mb(base_ref_kb)} MB; "
                 f"spawning `/bin/true` {human_seconds(base['spawn']['median_seconds'])}.")
    lines.append("")
    lines.append("Wall-clock medians decide the targets; CPU time (user + sys of the process, median) is shown "
                 "because it is far less disturbed by other load on the machine (load average "
                 f"{data['load_before']} before the run, {data.get('load_after', '?')} after).")
    lines.append("")
    lines.append("| dittos | operation | ours | reference | ours ÷ ref | target | met? | CPU ours / ref | CPU ÷ | peak RSS ours / ref (MB) | ours beyond baseline (MB) | ours µs/ditto |")
    lines.append("|---:|---|---:|---:|---:|---|:-:|---:|---:|---:|---:|---:|")
    verdicts = []
    sizes = sorted(int(s) for s in data["sizes"])
    for size in sizes:
        entry = data["sizes"][str(size)]
        ops = entry["operations"]
        migrate_ours = ops["migrate"]["ours"]["median_seconds"]
        for op in ("export", "migrate", "recover"):
            ours, ref = ops[op]["ours"], ops[op]["ref"]
            ratio = ours["median_seconds"] / ref["median_seconds"]
            target, met = "", ""
            if (op, size) in TARGETS:
                description, limit, _ = TARGETS[(op, size)]
                target = description
                met = "yes" if ratio <= limit else "**no**"
                verdicts.append((f"{op} at {size:,}", f"{ratio:.2f}×", description, ratio <= limit))
            if op == "recover":
                recover_ratio = ours["median_seconds"] / migrate_ours
                target = f"≤ 0.5× our migrate: {recover_ratio:.2f}×"
                met = "yes" if recover_ratio <= 0.5 else "**no**"
                verdicts.append((f"recover ÷ migrate at {size:,}", f"{recover_ratio:.2f}×", "≤ 0.5×", recover_ratio <= 0.5))
            beyond = ours["peak_rss_kb"] - base_ours_kb
            lines.append(
                f"| {size:,} | {op} | {human_seconds(ours['median_seconds'])} | {human_seconds(ref['median_seconds'])} "
                f"| {ratio:.2f} | {target} | {met} | {cpu(ours)} / {cpu(ref)} | {cpu_ratio(ours, ref)} "
                f"| {fmt_mb(ours['peak_rss_kb'])} / {fmt_mb(ref['peak_rss_kb'])} "
                f"| {fmt_mb(beyond)} | {ours['median_seconds'] / size * 1e6:.2f} |")
    if "container" in data:
        entry = data["container"]
        for op in ("status", "inventory"):
            ours, ref = entry["operations"][op]["ours"], entry["operations"][op]["ref"]
            lines.append(
                f"| {entry['files']:,} files | {op} | {human_seconds(ours['median_seconds'])} "
                f"| {human_seconds(ref['median_seconds'])} (find) | {ours['median_seconds'] / ref['median_seconds']:.2f} "
                f"| (none) | | {cpu(ours)} / {cpu(ref)} | {cpu_ratio(ours, ref)} "
                f"| {fmt_mb(ours['peak_rss_kb'])} / {fmt_mb(ref['peak_rss_kb'])} "
                f"| {fmt_mb(ours['peak_rss_kb'] - base_ours_kb)} | |")
    # Memory: every command that reads a whole store stays under 64 MB beyond the process baseline.
    lines.append("")
    lines.append("Peak memory beyond `ditto-recover --version` (target < 64 MB from 10,000 dittos on; "
                 "extract writes a recovery file, status surveys the container; neither has a reference):")
    lines.append("")
    lines.append("| dittos | " + " | ".join(MEMORY_OPS) + " | extract time | status time |")
    lines.append("|---:|" + "---:|" * (len(MEMORY_OPS) + 2))
    for size in sizes:
        ops = data["sizes"][str(size)]["operations"]
        cells = []
        for op in MEMORY_OPS:
            if op not in ops:
                cells.append("–")
                continue
            beyond = ops[op]["ours"]["peak_rss_kb"] - base_ours_kb
            cell = f"{fmt_mb(beyond)} MB"
            if size >= 10_000:
                ok = beyond < 64 * 1024
                cell += "" if ok else " **over**"
                verdicts.append((f"{op} peak RSS beyond baseline at {size:,}", f"{fmt_mb(beyond)} MB", "< 64 MB", ok))
            cells.append(cell)
        times = [human_seconds(ops[op]["ours"]["median_seconds"]) if op in ops else "–" for op in ("extract", "status")]
        lines.append(f"| {size:,} | " + " | ".join(cells + times) + " |")
    # Growth: time ratio between consecutive sizes (10× the dittos must cost at most 11× the time).
    lines.append("")
    lines.append("Growth (median time at the larger size ÷ at the smaller; for 10× the dittos the target is ≤ 11×; "
                 "the reference's growth, on the same files, for comparison):")
    lines.append("")
    lines.append("| operation | " + " | ".join(f"{a:,} → {b:,} ({b // a}× dittos)" for a, b in zip(sizes, sizes[1:])) + " |")
    lines.append("|---|" + "---:|" * (len(sizes) - 1))
    for op in ("export", "migrate", "recover"):
        for who in ("ours", "ref"):
            cells = []
            for a, b in zip(sizes, sizes[1:]):
                ta = data["sizes"][str(a)]["operations"][op][who]["median_seconds"]
                tb = data["sizes"][str(b)]["operations"][op][who]["median_seconds"]
                growth = tb / ta
                cell = f"{growth:.2f}×"
                if b == 10 * a and who == "ours":
                    ok = growth <= 11
                    cell += " ok" if ok else " **over**"
                    verdicts.append((f"{op} growth {a:,} → {b:,}", f"{growth:.2f}×", "≤ 11×", ok))
                cells.append(cell)
            lines.append(f"| {op} ({'ours' if who == 'ours' else 'reference'}) | " + " | ".join(cells) + " |")
    if "linking" in data:
        lines.append("")
        lines.append("The shipped build (`scripts/release`: Swift runtime and Foundation linked in) beside the "
                     "dynamically linked one (medians; peak RSS):")
        lines.append("")
        lines.append("| | static (shipped) | dynamic | static ÷ dynamic |")
        lines.append("|---|---:|---:|---:|")
        for key, name in (("version", "process start (`--version`)"), ("migrate", "migrate, 400 dittos")):
            st, dy = data["linking"][key]["static"], data["linking"][key]["dynamic"]
            lines.append(f"| {name} | {human_seconds(st['median_seconds'])}, {fmt_mb(st['peak_rss_kb'])} MB "
                         f"| {human_seconds(dy['median_seconds'])}, {fmt_mb(dy['peak_rss_kb'])} MB "
                         f"| {st['median_seconds'] / dy['median_seconds']:.2f} |")
    checks = [(size, data["sizes"][str(size)]["operations"]) for size in sizes]
    checks = [(size, ops) for size, ops in checks if "integrity_check" in ops and "quick_check" in ops]
    if checks:
        def share(ops, key):
            seconds = ops[key]["ours"]["median_seconds"]
            return f"{human_seconds(seconds)} ({seconds / ops['migrate']['ours']['median_seconds'] * 100:.0f}% of migrate)"
        lines.append("")
        lines.append("The library checks, each timed alone on the library migrate made: `PRAGMA quick_check` "
                     "(migrate runs it after its inserts, inside its transaction) and `PRAGMA integrity_check` "
                     "(an import runs it on the library before its first write; for migrate that library "
                     "is still empty): " + "; ".join(
                         f"{size:,} dittos {share(ops, 'quick_check')} and {share(ops, 'integrity_check')}"
                         for size, ops in checks) + ".")
    if "100000" in data["sizes"]:
        ops = data["sizes"]["100000"]["operations"]
        lines.append("")
        lines.append(
            "For scale, the issue's reference figures for 100,000 dittos (measured on this kind of machine "
            "before the project had code): ordered CSV export by the sqlite3 shell about 0.31 s, SQL-only "
            f"copy about 0.61 s; in this run: {human_seconds(ops['export']['ref']['median_seconds'])} and "
            f"{human_seconds(ops['migrate']['ref']['median_seconds'])}.")
    lines.append("")
    lines.append("Targets:")
    lines.append("")
    for name, measured, target, ok in verdicts:
        lines.append(f"- {'met' if ok else '**missed**'}: {name}: {measured} (target {target})")
    return "\n".join(lines) + "\n", verdicts


README_BEGIN = "<!-- bench:begin -->"
README_END = "<!-- bench:end -->"


def update_readme(table):
    path = os.path.join(ROOT, "Benchmarks", "README.md")
    with open(path) as f:
        text = f.read()
    if README_BEGIN not in text or README_END not in text:
        log("Benchmarks/README.md has no bench markers; not updated")
        return
    head, rest = text.split(README_BEGIN, 1)
    _, tail = rest.split(README_END, 1)
    with open(path, "w") as f:
        f.write(head + README_BEGIN + "\n" + table + README_END + tail)


def main():
    parser = argparse.ArgumentParser(description="ditto-recover performance benchmark (see scripts/bench)")
    parser.add_argument("--sizes", default="400,10000,100000,1000000",
                        help="comma-separated ditto counts out of 400,10000,100000,1000000")
    parser.add_argument("--runs", type=int, help="timed runs per command (default: 15/11/7/5 by size)")
    parser.add_argument("--mem-runs", type=int, default=2, help="runs per command under /usr/bin/time -v")
    parser.add_argument("--tool", required=True, help="the ditto-recover binary (release build)")
    parser.add_argument("--dynamic-tool", help="the same, dynamically linked (compared with --tool)")
    parser.add_argument("--cache", default=os.path.join(ROOT, ".bench"))
    parser.add_argument("--out", default=os.path.join(ROOT, "Benchmarks", "results.md"))
    parser.add_argument("--json", default=os.path.join(ROOT, "Benchmarks", "results.json"))
    parser.add_argument("--no-container", action="store_true", help="skip status/inventory")
    parser.add_argument("--readme", choices=("auto", "yes", "no"), default="auto",
                        help="put the table in Benchmarks/README.md (auto: only when all sizes ran)")
    parser.add_argument("--print-sql", metavar="STORE",
                        help="print the reference scripts for STORE (export query, then copy script) and exit")
    parser.add_argument("--report-only", action="store_true",
                        help="print the table of the results in --json again (no measuring)")
    args = parser.parse_args()

    if args.report_only:
        with open(args.json) as f:
            data = json.load(f)
        write_outputs(data, args, [int(size) for size in data["sizes"]])
        return

    if args.print_sql:
        print(EXPORT_SQL)
        print(copy_script(os.path.abspath(args.print_sql)))
        return

    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s]
    for size in sizes:
        if size not in SIZES:
            raise SystemExit(f"bench: size {size} is not one of {sorted(SIZES)}")
    if not shutil.which("sqlite3"):
        raise SystemExit("bench: needs the sqlite3 command-line shell (apt-get install sqlite3)")
    if not os.path.exists("/usr/bin/time"):
        raise SystemExit("bench: needs GNU time (apt-get install time)")

    work = os.path.join(args.cache, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "runs"))
    runner = Runner(work, os.path.abspath(args.tool), args.cache)
    rnd = random.Random(SEED)

    version = subprocess.run([runner.tool, "--version"], capture_output=True, text=True).stdout.strip()
    sqlite_version = subprocess.run(["sqlite3", "-version"], capture_output=True, text=True).stdout.split()[0]
    data = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}",
        "version": version,
        "sqlite_version": sqlite_version,
        "export_sql": EXPORT_SQL,
        "load_before": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "sizes": {},
    }
    runs_used = {}
    data["baseline"] = baselines(runner, args.runs or 15, rnd)
    for size in sorted(sizes):
        runs = args.runs or DEFAULT_RUNS[size]
        runs_used[size] = runs
        data["sizes"][str(size)] = bench_size(runner, size, SIZES[size], runs, args.mem_runs, rnd)
    if args.dynamic_tool:
        data["linking"] = bench_linking(runner, os.path.abspath(args.dynamic_tool), args.runs or 15,
                                        args.mem_runs, rnd)
    if not args.no_container:
        store_10k = ensure_store(args.cache, 10_000, SIZES[10_000])
        data["container"] = bench_container(runner, store_10k, args.runs or 11, args.mem_runs, rnd)
    data["runs_note"] = ", ".join(f"{runs} runs at {size:,}" for size, runs in runs_used.items()) + \
        f" (timed runs interleaved with the reference; peak RSS from {args.mem_runs} more runs each under /usr/bin/time -v)"
    data["copy_sql_template"] = COPY_SQL
    data["change_sql_template"] = CHANGE_SQL
    data["dedupe_sql_template"] = DEDUPE_SQL
    data["load_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())

    write_outputs(data, args, sizes)
    shutil.rmtree(work, ignore_errors=True)


def write_outputs(data, args, sizes):
    """Writes results.md and results.json, prints the table, and updates README.md when asked."""
    table, verdicts = build_report(data)
    data["verdicts"] = [{"name": n, "measured": m, "target": t, "met": ok} for n, m, t, ok in verdicts]
    with open(args.json, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    with open(args.out, "w") as f:
        f.write("# Benchmark results\n\nWritten by `scripts/bench` (see README.md, \"Performance\").\n\n" + table)
    print(table)
    if args.readme == "yes" or (args.readme == "auto" and set(sizes) == set(SIZES)):
        update_readme(table)


if __name__ == "__main__":
    main()
