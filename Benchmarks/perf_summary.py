#!/usr/bin/env python3
"""Summarizes a `perf record -g` profile of ditto-recover: where the time goes, by layer.

Usage: perf script -i FILE -F ip,sym,dso | perf_summary.py [--top N] | swift demangle --simplified

Each sample is put in one bucket, looking at its whole call chain:

    snapshot copy      any frame in StoreSnapshot / ReadOnlyFile (copying the store before opening it)
    process start      the dynamic loader (ld-linux), before main
    kernel: <syscall>  kernel time of SQLite's (or our) system calls: pread64, pwrite64, fsync, write, …
    kernel: page fault page faults (heap growth, first touch of mapped libraries)
    SQLite             user-space time in libsqlite3
    Swift              user-space time in ditto-recover, libswiftCore, Foundation (ours and the runtime)
    libc               user-space time in libc (memmove, malloc, …) whatever called it
Then it lists the top user-space symbols.
"""

import argparse
import collections
import re
import sys

SWIFT_DSOS = ("ditto-recover", "libswiftCore", "libFoundation", "libswift", "libdispatch", "libBlocksRuntime")


def samples(stream):
    frames = []
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip():
            if frames:
                yield frames
            frames = []
            continue
        match = re.match(r"\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$", line)
        if match:
            frames.append((match.group(2), match.group(3)))
    if frames:
        yield frames


def bucket(frames):
    syms = [s for s, _ in frames]
    dsos = [d for _, d in frames]
    joined = " ".join(syms)
    if "Snapshot" in joined or "ReadOnlyFile" in joined:
        return "snapshot copy (StoreSnapshot)"
    if any("ld-linux" in d for d in dsos):
        return "process start (dynamic loader)"
    leaf_sym, leaf_dso = frames[0]
    if "kernel" in leaf_dso:
        for sym in syms:
            match = re.match(r"__x64_sys_(\w+)", sym)
            if match:
                return f"kernel: {match.group(1)}"
            if sym in ("exc_page_fault", "asm_exc_page_fault"):
                return "kernel: page fault"
        return "kernel: other"
    if "libsqlite3" in leaf_dso:
        return "SQLite (user space)"
    if any(name in leaf_dso for name in SWIFT_DSOS):
        return "Swift (ours + runtime)"
    if "libc" in leaf_dso:
        return "libc (memmove, malloc, …)"
    return f"other ({leaf_dso})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    buckets = collections.Counter()
    leaves = collections.Counter()
    total = 0
    for frames in samples(sys.stdin):
        total += 1
        buckets[bucket(frames)] += 1
        sym, dso = frames[0]
        if "kernel" not in dso:
            short = dso.rsplit("/", 1)[-1]
            leaves[(sym if sym != "[unknown]" else "?", short)] += 1
    if not total:
        sys.exit("no samples")
    print(f"{total} samples\n")
    print("| where | share |")
    print("|---|---:|")
    for name, count in buckets.most_common():
        print(f"| {name} | {100 * count / total:.1f}% |")
    print("\n| top user-space symbols (self) | library | share |")
    print("|---|---|---:|")
    for (sym, dso), count in leaves.most_common(args.top):
        print(f"| `{sym}` | {dso} | {100 * count / total:.1f}% |")


if __name__ == "__main__":
    main()
