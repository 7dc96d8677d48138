#!/usr/bin/env python3
"""The log-archive benchmark: outcomes over an archive against outcomes over the same entries as
ndjson text, logs --json in MB/s of tracev3 against `gzip -dc` of the same bytes (a floor
reference), and memory above `ditto-recover --version`. Writes Benchmarks/log-results.md.

Usage: Benchmarks/bench_logs.py --tool PATH --log-bench PATH [--entries 100000] [--large 1000000]
       [--runs 3]
"""
import argparse
import os
import pathlib
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
    table = "\n".join(lines) + "\n"
    (ROOT / "Benchmarks" / "log-results.md").write_text(table)
    print(table, end="")


if __name__ == "__main__":
    main()
