#!/usr/bin/env python3
"""The log-archive benchmark: outcomes over an archive against outcomes over the same entries as
ndjson text, logs --json in MB/s of tracev3 against `gzip -dc` of the same bytes (a floor
reference), and memory above `ditto-recover --version`. Writes Benchmarks/log-results.md.

With --real-tracev3 FILE (a real Apple tracev3; scripts/bench passes the test kit's iOS file when
../shared/unified-logging is beside the clone), a second table side by side: 140 copies of it in one
.logarchive (logs --json and a read of every entry against `gzip -dc` of the same bytes gzipped), and
outcomes over a sysdiagnose .tar.gz against the same archive as a folder, for that archive and for
the synthetic 1,000,000-entry one.

Usage: Benchmarks/bench_logs.py --tool PATH --log-bench PATH [--entries 100000] [--large 1000000]
       [--runs 3] [--real-tracev3 FILE]
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def measure(command, runs, stdout=subprocess.DEVNULL):
    """Median wall time (s) and max RSS (KB) of `command` over `runs` runs (GNU time)."""
    times, rss = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as report:
            subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", report.name] + command,
                           stdout=stdout, stderr=subprocess.DEVNULL, check=False)
            seconds, kilobytes = report.read().split()[-2:]
            times.append(float(seconds))
            rss.append(int(kilobytes))
    return statistics.median(times), max(rss)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--log-bench", required=True)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--real-tracev3")
    args = parser.parse_args()
    cache = ROOT / ".bench" / "logs"
    rows = []
    _, base_rss = measure([args.tool, "--version"], args.runs)
    for count in [args.entries, args.large]:
        folder = cache / str(count)
        folder.mkdir(parents=True, exist_ok=True)
        archive = folder / "bench.logarchive"
        if not archive.exists():
            subprocess.run([args.log_bench, str(folder), "--entries", str(count)], check=True,
                           stdout=subprocess.DEVNULL)
        traces = sorted((archive / "Persist").glob("*.tracev3"))
        trace_bytes = sum(path.stat().st_size for path in traces)
        ndjson = folder / "bench.ndjson"
        if not ndjson.exists():
            with open(ndjson, "wb") as out:
                subprocess.run([args.tool, "logs", "--json", str(archive)], stdout=out,
                               stderr=subprocess.DEVNULL, check=False)
        joined = folder / "tracev3.gz"
        if not joined.exists():
            with open(joined, "wb") as out:
                subprocess.run(["gzip", "-c"] + [str(path) for path in traces], stdout=out, check=True)
        archive_time, archive_rss = measure([args.tool, "outcomes", str(archive)], args.runs)
        text_time, text_rss = measure([args.tool, "outcomes", str(ndjson)], args.runs)
        logs_time, logs_rss = measure([args.tool, "logs", "--json", str(archive)], args.runs)
        gzip_time, _ = measure(["gzip", "-dc", str(joined)], args.runs)
        read_time, read_rss = measure(
            [args.tool, "logs", "--subsystem", "none.such", str(archive)], args.runs)
        megabytes = trace_bytes / 1e6
        rows.append((count, megabytes, archive_time, archive_rss, text_time, text_rss, logs_time,
                     logs_rss, gzip_time, read_time, read_rss))
    lines = [
        "| entries | tracev3 | outcomes, archive | outcomes, same entries as ndjson | ratio | "
        "memory above --version | logs --json | logs MB/s | read only MB/s | gzip -dc MB/s (floor) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for count, megabytes, archive_time, archive_rss, text_time, text_rss, logs_time, logs_rss, \
            gzip_time, read_time, read_rss in rows:
        ratio = archive_time / text_time if text_time else float("nan")
        lines.append(
            f"| {count:,} | {megabytes:.1f} MB | {archive_time:.2f} s | {text_time:.2f} s | "
            f"{ratio:.2f}× | {(archive_rss - base_rss) / 1024:.1f} MB (logs: "
            f"{(logs_rss - base_rss) / 1024:.1f} MB) | {logs_time:.2f} s | "
            f"{megabytes / logs_time:.1f} | {megabytes / max(read_time, 0.005):.1f} | "
            f"{megabytes / max(gzip_time, 0.005):.1f} |")
    lines.append("")
    lines.append(
        f"`ditto-recover --version` peaks at {base_rss / 1024:.1f} MB. Archives written by "
        "`log-bench` (Benchmarks/LogBench): one entry in ten a Ditto tag, LZ4 ChunkSets of 64 "
        "entries, Persist files of 20,000 entries. The ndjson is `logs --json` of the same "
        f"archive. \"read only\" reads every entry and composes none (`logs --subsystem none.such`). "
        f"Median of {args.runs} runs; memory is the peak RSS (GNU time).")
    if args.real_tracev3:
        lines += [""] + side_by_side(args, cache)
    table = "\n".join(lines) + "\n"
    (ROOT / "Benchmarks" / "log-results.md").write_text(table)
    print(table, end="")


SYSDIAGNOSE = "sysdiagnose_2026.12.01_09-00-00-0800_iPhone-OS_iPhone_22B83"


def sysdiagnose_of(archive, folder):
    """`folder`/sysdiagnose.tar.gz holding `archive` as a sysdiagnose holds its logs (made once)."""
    tarball = folder / "sysdiagnose.tar.gz"
    if not tarball.exists():
        staging = folder / "staging"
        shutil.rmtree(staging, ignore_errors=True)
        (staging / SYSDIAGNOSE).mkdir(parents=True)
        shutil.copytree(archive, staging / SYSDIAGNOSE / "system_logs.logarchive")
        subprocess.run(["tar", "czf", str(tarball), "-C", str(staging), SYSDIAGNOSE], check=True)
        shutil.rmtree(staging)
    return tarball


def side_by_side(args, cache):
    """The real-file table: logs against gzip -dc, outcomes over a tarball against a folder."""
    folder = cache / "real"
    archive = folder / "big.logarchive"
    if not archive.exists():
        (archive / "Persist").mkdir(parents=True)
        for index in range(1, 141):
            shutil.copyfile(args.real_tracev3, archive / "Persist" / f"{index:016x}.tracev3")
    traces = sorted((archive / "Persist").glob("*.tracev3"))
    megabytes = sum(path.stat().st_size for path in traces) / 1e6
    joined = folder / "big.gz"
    if not joined.exists():
        with open(joined, "wb") as out:
            subprocess.run(["gzip", "-c"] + [str(path) for path in traces], stdout=out, check=True)
    gzip_time, _ = measure(["gzip", "-dc", str(joined)], args.runs)
    json_time, _ = measure([args.tool, "logs", "--json", str(archive)], args.runs)
    read_time, _ = measure([args.tool, "logs", "--subsystem", "none.such", str(archive)], args.runs)
    rows = [
        "| run | time | ratio |",
        "|---|---|---|",
        f"| `gzip -dc` of the same tracev3 bytes gzipped (reference) | {gzip_time:.2f} s | 1× |",
        f"| `logs --json` | {json_time:.2f} s | {json_time / gzip_time:.1f}× `gzip -dc` (bound: 3×) |",
        f"| `logs --subsystem none.such` (every entry read, none composed) | {read_time:.2f} s | "
        f"{read_time / gzip_time:.1f}× `gzip -dc` (bound: 2×) |",
    ]
    synthetic = cache / str(args.large) / "bench.logarchive"
    for name, source, where in [("real", archive, folder),
                                (f"synthetic {args.large:,}", synthetic, cache / str(args.large))]:
        if not source.exists():
            continue
        tarball = sysdiagnose_of(source, where)
        as_folder, _ = measure([args.tool, "outcomes", str(source)], args.runs)
        as_tarball, _ = measure([args.tool, "outcomes", str(tarball)], args.runs)
        rows.append(f"| `outcomes` over the {name} archive as a folder (reference) | "
                    f"{as_folder:.2f} s | 1× |")
        rows.append(f"| `outcomes` over it in a sysdiagnose `.tar.gz` | {as_tarball:.2f} s | "
                    f"{as_tarball / as_folder:.2f}× the folder (bound: 1.5×) |")
    return [
        f"Real files ({megabytes:.1f} MB: 140 copies of {pathlib.Path(args.real_tracev3).name} in "
        f"one `.logarchive`), side by side in the same run, median of {args.runs}:",
        "",
    ] + rows


if __name__ == "__main__":
    main()
