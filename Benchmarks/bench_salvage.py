#!/usr/bin/env python3
"""Salvage benchmark: ditto-recover's decoder against sqlite3 .recover and sqlite-dissect.

Builds Ditto-shaped Core Data stores with Python's sqlite3 (seeded), damages copies of them in the
states the salvage issue names, runs every tool on its own copy of each state, and writes a
markdown table (recall, full-row recall, false positives, time) to the --out file.

Definitions (per state, summed over seeds):
  present     live ditto texts that survive the damage. Damaged main file: the row's cell survives
              byte-identical where the intact store had it (its leaf page's header and cell pointer
              array, the cell's bytes, every page of its overflow chain), as found from the intact
              store's dbstat table; stale copies of a row left elsewhere in the file do not count.
              Orphaned -wal: the text (its on-page part and every overflow chunk) occurs in the -wal.
  recall      present texts the tool gives back exactly (anywhere in its output).
  full-row    present texts given back in a category with the right title, with the right use
              count, and in the right order (inside the longest run of that category whose
              original positions increase).
  FP          texts the tool imports as live dittos that are not live dittos of the original
              (deleted rows brought back as live, or garbage). For .recover: ZTEXT values of its
              rebuilt ZDITTO table. sqlite-dissect has no notion of import: not counted.
  deleted     (deleted-rows state) deleted texts still present in the file, and how many of them the
              tool lists (ours: the separate `deleted` list; peers: anywhere in their output).
  time        wall-clock seconds of the tool's process on the state (ours: the release binary; for
              ours and .recover the median of 3 runs, each on a fresh copy; sqlite-dissect runs once).
"""

import argparse
import csv
import struct
import hashlib
import json
import os
import plistlib
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid

PAGE = 4096
DDL = [
    "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPROFILE INTEGER, Z_FOK_PROFILE INTEGER, ZTITLE VARCHAR )",
    "CREATE INDEX ZCATEGORY_ZPROFILE_INDEX ON ZCATEGORY (ZPROFILE)",
    "CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSE_COUNT INTEGER, ZCATEGORY INTEGER, Z_FOK_CATEGORY INTEGER, ZTEXT VARCHAR )",
    "CREATE INDEX ZDITTO_ZCATEGORY_INDEX ON ZDITTO (ZCATEGORY)",
    "CREATE TABLE ZPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
]
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zu", "pe", "da", "gor", "lin", "max", "qua", "ber"]
EXTRAS = ["café", "naïve", "🚗", "❤️", "—", "“quoted”", "ß", "日本"]
STATES = [
    ("wal-no-main", "orphaned -wal, no main file"),
    ("wal-empty-main", "orphaned -wal, zero-length main"),
    ("deleted", "deleted rows (live store)"),
    ("truncated-60", "main truncated to 60%"),
    ("header-zeroed", "first 100 bytes zeroed"),
    ("pages-overwritten", "5% of pages overwritten"),
    ("root-overwritten", "ZDITTO root page overwritten"),
]


# MARK: - Building stores

def word(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))


def make_text(rng, serial, long):
    count = rng.randint(900, 1600) if long else rng.randint(2, 16)
    words = [word(rng) for _ in range(count)]
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words) + 1), rng.choice(EXTRAS))
    text = " ".join(words)
    if rng.random() < 0.1:
        text = text.replace(" ", "\n", 1)
    return f"{text} #{serial}"  # unique, so a text names one row


def build(folder, categories, per_category, seed):
    """Writes Ditto.sqlite in WAL mode, never checkpointed; returns (open connection, texts)."""
    rng = random.Random(seed)
    path = os.path.join(folder, "Ditto.sqlite")
    con = sqlite3.connect(path, isolation_level=None)
    for pragma in ("page_size=4096", "auto_vacuum=2", "journal_mode=WAL", "wal_autocheckpoint=0", "secure_delete=0"):
        con.execute("PRAGMA " + pragma)
    con.execute("BEGIN")
    for statement in DDL:
        con.execute(statement)
    total = categories * per_category
    con.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?,?,?,?)",
                    [(1, "Category", 0, categories), (2, "Ditto", 0, total), (3, "Profile", 0, 1)])
    plist = plistlib.dumps({"NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 641,
                            "NSStoreModelVersionHashesVersion": 3, "_NSAutoVacuumLevel": "2"},
                           fmt=plistlib.FMT_BINARY)
    con.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (str(uuid.UUID(int=rng.getrandbits(128))).upper(), plist))
    con.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (bytes(rng.getrandbits(8) for _ in range(3000)),))
    con.execute("INSERT INTO ZPROFILE VALUES (1, 3, 1)")
    order = list(range(categories))
    rng.shuffle(order)
    for pk in range(1, categories + 1):
        con.execute("INSERT INTO ZCATEGORY VALUES (?,1,1,1,?,?)",
                    (pk, 2048 + 1024 * order[pk - 1], f"{word(rng).title()} {pk}"))
    con.execute("COMMIT")
    slots = [(c, p) for c in range(1, categories + 1) for p in range(per_category)]
    rng.shuffle(slots)  # key order differs from list order
    rows = []
    for pk, (category, position) in enumerate(slots, start=1):
        long = rng.random() < 0.05
        use = None if rng.random() < 0.03 else rng.randint(0, 60)
        rows.append((pk, 2, 1, use, category, 2048 + 1024 * position, make_text(rng, pk, long)))
    for start in range(0, len(rows), 50):
        con.execute("BEGIN")
        con.executemany("INSERT INTO ZDITTO VALUES (?,?,?,?,?,?,?)", rows[start:start + 50])
        con.execute("COMMIT")
    for _ in range(20):  # later sessions: use counts change, so the WAL holds older page images
        con.execute("BEGIN")
        for pk in rng.sample(range(1, total + 1), min(10, total)):
            con.execute("UPDATE ZDITTO SET ZUSE_COUNT = coalesce(ZUSE_COUNT, 0) + 1, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", (pk,))
        con.execute("COMMIT")
    return con


def reader_library(con):
    """The reader's walk in SQL (profiles → categories → dittos → Recovered), or None."""
    tables = {r[0].upper() for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"ZDITTO", "ZCATEGORY"} <= tables:
        return None
    library, visited = [], set()

    def dittos(sql, args=()):
        out = []
        for text, use in con.execute(sql, args):
            if isinstance(text, str) and text:
                out.append((text, use if isinstance(use, int) else 0))
        return out

    def emit(pk, title):
        if pk in visited:
            return
        visited.add(pk)
        library.append((title if isinstance(title, str) else "Untitled", dittos(
            "SELECT ZTEXT, ZUSE_COUNT FROM ZDITTO WHERE ZCATEGORY = ? ORDER BY (Z_FOK_CATEGORY IS NULL), Z_FOK_CATEGORY, Z_PK", (pk,))))

    profiles = [r[0] for r in con.execute("SELECT DISTINCT Z_PK FROM ZPROFILE WHERE Z_PK IS NOT NULL ORDER BY Z_PK")] if "ZPROFILE" in tables else []
    for profile in profiles:
        for pk, title in con.execute("SELECT Z_PK, ZTITLE FROM ZCATEGORY WHERE ZPROFILE = ? ORDER BY (Z_FOK_PROFILE IS NULL), Z_FOK_PROFILE, Z_PK", (profile,)).fetchall():
            emit(pk, title)
    known = "(SELECT Z_PK FROM ZPROFILE)" if "ZPROFILE" in tables else "(SELECT NULL)"
    for pk, title in con.execute(f"SELECT Z_PK, ZTITLE FROM ZCATEGORY WHERE ZPROFILE IS NULL OR ZPROFILE NOT IN {known} ORDER BY Z_PK").fetchall():
        emit(pk, title)
    orphans = dittos("SELECT ZTEXT, ZUSE_COUNT FROM ZDITTO WHERE ZCATEGORY IS NULL OR ZCATEGORY NOT IN (SELECT Z_PK FROM ZCATEGORY) ORDER BY Z_PK")
    if orphans:
        library.append(("Recovered", orphans))
    return library


def read_library(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return reader_library(con)
    finally:
        con.close()


# MARK: - Presence in the surviving bytes

def int_size(value):
    if value is None or value in (0, 1):
        return 0
    for size in (1, 2, 3, 4, 6, 8):
        if -(1 << (8 * size - 1)) <= value < (1 << (8 * size - 1)):
            return size
    return 8


def serial_type(value):
    if value is None:
        return 0
    if value in (0, 1):
        return 8 + value
    return {1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 8: 6}[int_size(value)]


def varint_len(value):
    length = 1
    while value >= 0x80 and length < 9:
        value >>= 7
        length += 1
    return length


def pieces(row):
    """The byte runs of a ZDITTO row's text as they lie in the file (on-page part, overflow chunks)."""
    _, ent, opt, use, category, order, text = row
    data = text.encode()
    ints = [ent, opt, use, category, order]
    types = [0] + [serial_type(v) for v in ints] + [len(data) * 2 + 13]
    header = sum(varint_len(t) for t in types) + 1
    body = sum(int_size(v) for v in ints)
    payload = header + body + len(data)
    usable = PAGE
    max_local = usable - 35
    if payload <= max_local:
        return [data]
    min_local = ((usable - 12) * 32 // 255) - 23
    surplus = min_local + (payload - min_local) % (usable - 4)
    local = surplus if surplus <= max_local else min_local
    first = local - header - body
    runs = [data[:first]]
    for start in range(first, len(data), usable - 4):
        runs.append(data[start:start + usable - 4])
    return [run for run in runs if run]


def present_texts(rows, blobs):
    return {row[6] for row in rows if all(any(run in blob for blob in blobs) for run in pieces(row))}


def surviving_cells(intact_path, damaged, rows):
    """Texts of the ZDITTO rows whose cell survives byte-identical at its place in the intact store."""
    data = open(intact_path, "rb").read()
    con = sqlite3.connect(intact_path)
    leaves = [r[0] for r in con.execute("SELECT pageno FROM dbstat WHERE name = 'ZDITTO' AND pagetype = 'leaf'")]
    con.close()
    text_of = {row[0]: row[6] for row in rows}

    def same(start, end):
        return end <= len(damaged) and damaged[start:end] == data[start:end]

    def varint(page, offset):
        value = 0
        for index in range(8):
            byte = page[offset + index]
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                return value, index + 1
        return (value << 8) | page[offset + 8], 9

    present = set()
    for number in leaves:
        base = (number - 1) * PAGE
        page = data[base:base + PAGE]
        cells = struct.unpack(">H", page[3:5])[0]
        if not same(base, base + 8 + 2 * cells):
            continue
        for index in range(cells):
            offset = struct.unpack(">H", page[8 + 2 * index:10 + 2 * index])[0]
            size, first = varint(page, offset)
            rowid, second = varint(page, offset + first)
            max_local, min_local = PAGE - 35, ((PAGE - 12) * 32 // 255) - 23
            local = size
            if size > max_local:
                surplus = min_local + (size - min_local) % (PAGE - 4)
                local = surplus if surplus <= max_local else min_local
            end = offset + first + second + local + (4 if local < size else 0)
            ok = same(base + offset, base + end)
            if ok and local < size:
                following, remaining = struct.unpack(">I", page[end - 4:end])[0], size - local
                while ok and remaining > 0 and following:
                    ok = same((following - 1) * PAGE, following * PAGE)
                    overflow = data[(following - 1) * PAGE:following * PAGE]
                    remaining -= PAGE - 4
                    following = struct.unpack(">I", overflow[:4])[0]
            if ok and rowid in text_of:
                present.add(text_of[rowid])
    return present


# MARK: - States

def hashes(folder):
    return {name: hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest() for name in sorted(os.listdir(folder))}


def make_states(base, categories, per_category, seed):
    """Creates one folder per state under base; returns {state: info}."""
    rng = random.Random(seed * 7919 + categories)
    build_dir = os.path.join(base, "build")
    os.makedirs(build_dir)
    con = build(build_dir, categories, per_category, seed)
    wal_dir = os.path.join(base, "wal-copy")
    os.makedirs(wal_dir)
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(os.path.join(build_dir, "Ditto.sqlite" + suffix), os.path.join(wal_dir, "Ditto.sqlite" + suffix))
    con.close()  # checkpoints: build/Ditto.sqlite is now the intact store
    intact = os.path.join(build_dir, "Ditto.sqlite")
    truth = read_library(intact)
    icon = sqlite3.connect(intact)
    all_rows = icon.execute("SELECT Z_PK, Z_ENT, Z_OPT, ZUSE_COUNT, ZCATEGORY, Z_FOK_CATEGORY, ZTEXT FROM ZDITTO").fetchall()
    root = icon.execute("SELECT rootpage FROM sqlite_master WHERE name = 'ZDITTO'").fetchone()[0]
    icon.close()
    wal_bytes = open(os.path.join(wal_dir, "Ditto.sqlite-wal"), "rb").read()
    states = {}

    def folder(name):
        path = os.path.join(base, name)
        os.makedirs(path)
        return path

    for name in ("wal-no-main", "wal-empty-main"):
        path = folder(name)
        shutil.copyfile(os.path.join(wal_dir, "Ditto.sqlite-wal"), os.path.join(path, "Ditto.sqlite-wal"))
        if name == "wal-empty-main":
            open(os.path.join(path, "Ditto.sqlite"), "wb").close()
        states[name] = dict(path=path, truth=truth, rows=all_rows, present=present_texts(all_rows, [wal_bytes]))

    # Deleted rows: one whole category (as Core Data's cascade does) and 20% of the others.
    path = folder("deleted")
    db = os.path.join(path, "Ditto.sqlite")
    shutil.copyfile(intact, db)
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA secure_delete = 0")
    gone_category = rng.randint(1, categories)
    doomed = [r[0] for r in all_rows if r[4] == gone_category or rng.random() < 0.2]
    con.execute("BEGIN")
    con.execute("DELETE FROM ZCATEGORY WHERE Z_PK = ?", (gone_category,))
    con.executemany("DELETE FROM ZDITTO WHERE Z_PK = ?", [(pk,) for pk in doomed])
    con.execute("COMMIT")
    con.close()
    deleted_rows = [r for r in all_rows if r[0] in set(doomed)]
    live_rows = [r for r in all_rows if r[0] not in set(doomed)]
    main_bytes = open(db, "rb").read()
    states["deleted"] = dict(path=path, truth=read_library(db), rows=live_rows, present=present_texts(live_rows, [main_bytes]),
                             deleted_present=present_texts(deleted_rows, [main_bytes]), deleted_all={r[6] for r in deleted_rows})

    data = open(intact, "rb").read()
    pages = len(data) // PAGE
    damaged = {
        "truncated-60": data[: int(len(data) * 0.6)],
        "header-zeroed": bytes(100) + data[100:],
    }
    overwritten = bytearray(data)
    for page in rng.sample(range(2, pages + 1), max(1, pages // 20)):
        overwritten[(page - 1) * PAGE: page * PAGE] = bytes(rng.getrandbits(8) for _ in range(PAGE))
    damaged["pages-overwritten"] = bytes(overwritten)
    rooted = bytearray(data)
    rooted[(root - 1) * PAGE: root * PAGE] = bytes(rng.getrandbits(8) for _ in range(PAGE))
    damaged["root-overwritten"] = bytes(rooted)
    for name, content in damaged.items():
        path = folder(name)
        with open(os.path.join(path, "Ditto.sqlite"), "wb") as handle:
            handle.write(content)
        states[name] = dict(path=path, truth=truth, rows=all_rows, present=surviving_cells(intact, content, all_rows))
    return states


# MARK: - Tools

def copy_state(state_path, scratch):
    target = tempfile.mkdtemp(dir=scratch)
    for name in os.listdir(state_path):
        shutil.copyfile(os.path.join(state_path, name), os.path.join(target, name))
    return target


def median_run(args, state, scratch, runs=3, **kwargs):
    """Runs `args(folder)` on `runs` fresh copies of the state; returns (first result, median seconds, folder)."""
    results, times = [], []
    for _ in range(runs):
        folder = copy_state(state["path"], scratch)
        start = time.perf_counter()
        done = subprocess.run(args(folder), capture_output=True, **kwargs)
        times.append(time.perf_counter() - start)
        results.append((done, folder))
    return results[0][0], sorted(times)[len(times) // 2], results[0][1]


def run_ours(binary, state, scratch, include_deleted):
    before = hashes(state["path"])
    done, elapsed, folder = median_run(
        lambda f: [binary, os.path.join(f, "Ditto.sqlite")] + (["--include-deleted"] if include_deleted else []),
        state, scratch, text=True)
    if hashes(folder) != before:
        sys.exit(f"salvage changed its input in {folder}")
    result = json.loads(done.stdout or "{}")
    library = [(c["title"], [(d["text"], d["useCount"]) for d in c["dittos"]]) for c in result.get("categories", [])]
    deleted = {d["text"] for d in result.get("deleted", [])}
    texts = {t for _, ds in library for t, _ in ds}
    return dict(library=library, texts=texts, imported=texts, deleted=deleted, seconds=elapsed, error=result.get("error"))


def all_text_values(db):
    con = sqlite3.connect(db)
    values = set()
    for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        try:
            for row in con.execute(f'SELECT * FROM "{table}"'):
                values.update(v for v in row if isinstance(v, str))
        except sqlite3.Error:
            pass
    con.close()
    return values


def run_recover(shell, state, scratch):
    dump, elapsed, folder = median_run(lambda f: [shell, os.path.join(f, "Ditto.sqlite"), ".recover"], state, scratch)
    out = os.path.join(folder, "recovered.db")
    subprocess.run([shell, out], input=dump.stdout, capture_output=True)
    library, imported, texts = [], set(), set()
    if os.path.exists(out):
        texts = all_text_values(out)
        try:
            con = sqlite3.connect(out)
            library = reader_library(con) or []
            imported = {r[0] for r in con.execute("SELECT ZTEXT FROM ZDITTO") if isinstance(r[0], str)}
            con.close()
        except sqlite3.Error:
            pass
    return dict(library=library, texts=texts, imported=imported, deleted=texts, seconds=elapsed, error=None)


def run_dissect(state, scratch):
    if shutil.which("sqlite_dissect") is None:
        return None
    folder = copy_state(state["path"], scratch)
    out = os.path.join(folder, "dissect-out")
    os.makedirs(out)
    start = time.perf_counter()
    subprocess.run(["sqlite_dissect", os.path.join(folder, "Ditto.sqlite"), "-d", out, "-e", "csv", "-k", "-c", "-f", "-l", "off"],
                   capture_output=True, timeout=3600)
    elapsed = time.perf_counter() - start
    texts = set()
    csv.field_size_limit(1 << 30)
    for name in os.listdir(out):
        if name.endswith(".csv"):
            with open(os.path.join(out, name), newline="", encoding="utf-8", errors="replace") as handle:
                for row in csv.reader(handle):
                    texts.update(row)
    return dict(library=None, texts=texts, imported=None, deleted=texts, seconds=elapsed, error=None)


# MARK: - Scoring

def longest_increasing(positions):
    """Indexes of one longest strictly increasing subsequence."""
    tails, links, best = [], [-1] * len(positions), []
    import bisect
    tail_values = []
    for index, value in enumerate(positions):
        slot = bisect.bisect_left(tail_values, value)
        if slot == len(tail_values):
            tail_values.append(value)
            tails.append(index)
        else:
            tail_values[slot] = value
            tails[slot] = index
        links[index] = tails[slot - 1] if slot > 0 else -1
    index = tails[-1] if tails else -1
    while index != -1:
        best.append(index)
        index = links[index]
    return set(best)


def score(output, state):
    truth = state["truth"] or []
    present = state["present"]
    where = {text: (title, position, use) for title, dittos in truth for position, (text, use) in enumerate(dittos)}
    live = set(where)
    found = output["texts"] & present
    full = None
    if output["library"] is not None:
        full = 0
        for title, dittos in output["library"]:
            candidates = [(where[t][1], t) for t, use in dittos if t in where and t in present and where[t][0] == title and where[t][2] == use]
            keep = longest_increasing([p for p, _ in candidates])
            full += len(keep)
    fp = None if output["imported"] is None else len(output["imported"] - live)
    result = dict(recall=len(found), full=full, fp=fp, seconds=output["seconds"], present=len(present))
    if "deleted_present" in state:
        result["deleted"] = len(output["deleted"] & state["deleted_present"])
        result["deleted_present"] = len(state["deleted_present"])
        result["deleted_all"] = len(state["deleted_all"])
    return result


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="the salvage-bench binary")
    parser.add_argument("--out", required=True, help="markdown file to write")
    parser.add_argument("--sizes", default="8x40,40x250")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--no-dissect", action="store_true")
    parser.add_argument("--sqlite3", default="sqlite3", help="an sqlite3 shell whose .recover works")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    seeds = [int(seed) for seed in args.seeds.split(",")]
    totals = {}
    scratch = tempfile.mkdtemp(prefix="bench-salvage-")
    try:
        for categories, per_category in sizes:
            for seed in seeds:
                base = os.path.join(scratch, f"{categories}x{per_category}-{seed}")
                os.makedirs(base)
                states = make_states(base, categories, per_category, seed)
                for name, _ in STATES:
                    state = states[name]
                    before = hashes(state["path"])
                    tools = [("ditto-recover salvage", run_ours(args.bench, state, scratch, name == "deleted")),
                             ("sqlite3 .recover", run_recover(args.sqlite3, state, scratch))]
                    if not args.no_dissect:
                        tools.append(("sqlite-dissect -k -c -f", run_dissect(state, scratch)))
                    if hashes(state["path"]) != before:
                        sys.exit(f"state {name} changed")
                    for tool, output in tools:
                        if output is None:
                            continue
                        key = (name, f"{categories}×{per_category}", tool)
                        got = score(output, state)
                        total = totals.setdefault(key, {})
                        for field, value in got.items():
                            if value is None:
                                total[field] = None
                            elif field not in total or total[field] is not None:
                                total[field] = total.get(field, 0) + value
                        print(key, got, file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    write_table(args.out, totals, sizes, seeds)


def write_table(path, totals, sizes, seeds):
    def cell(value, of=None):
        if value is None:
            return "—"
        if of is None:
            return str(value)
        percent = 100.0 * value / of if of else 100.0
        return f"{value}/{of} ({percent:.1f}%)"

    lines = [
        "# Salvage benchmark",
        "",
        f"Generated by `scripts/bench-salvage` ({time.strftime('%Y-%m-%d')}, SQLite {sqlite3.sqlite_version}). "
        f"Stores of {', '.join(f'{c}×{p}' for c, p in sizes)} (categories × dittos), seeds {', '.join(map(str, seeds))} "
        "(counts summed over seeds); 5% of texts spill to overflow pages. Definitions are in the script's docstring: "
        "*recall* counts exact texts among those still present in the damaged bytes, *full-row* also needs the right "
        "category, use count and order, *FP* counts texts imported as live that are not live dittos of the original.",
        "",
        "| state | size | tool | recall | full-row recall | FP | deleted found | time (s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    labels = dict(STATES)
    for name, _ in STATES:
        for categories, per_category in sizes:
            size = f"{categories}×{per_category}"
            for key, total in totals.items():
                if key[0] != name or key[1] != size:
                    continue
                deleted = cell(total.get("deleted"), total.get("deleted_present")) if "deleted" in total else ""
                lines.append(f"| {labels[name]} | {size} | {key[2]} | {cell(total['recall'], total['present'])} | "
                             f"{cell(total['full'], total['present'])} | {cell(total['fp'])} | {deleted} | {total['seconds']:.2f} |")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
