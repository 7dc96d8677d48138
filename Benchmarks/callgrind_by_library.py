#!/usr/bin/env python3
"""Self instructions (Ir) per library and per function from a callgrind output file.

Usage: callgrind_by_library.py FILE [--top N]

Reads the raw callgrind format: `ob=`/`fn=` set the current object and function (with name
compression: `(id) name` defines, `(id)` refers); a cost line after `calls=` is the inclusive cost of
that call and is not self cost. Prints markdown tables (pipe through `swift demangle --simplified`).
"""

import argparse
import collections
import re


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    names = {"ob": {}, "fn": {}}
    current = {"ob": "?", "fn": "?"}
    per_object = collections.Counter()
    per_function = collections.Counter()
    skip_next_cost = False
    positions = 1
    with open(args.file, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("positions:"):
                positions = len(line.split()[1:])
                continue
            match = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line)
            if match:
                called, kind, ident, name = match.groups()
                if name is not None:
                    names[kind][ident] = name
                if not called:
                    current[kind] = names[kind].get(ident, ident)
                continue
            if line.startswith("calls="):
                skip_next_cost = True
                continue
            if line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if len(parts) > positions:
                    cost = int(parts[positions])
                    if skip_next_cost:
                        skip_next_cost = False
                        continue
                    per_object[current["ob"].rsplit("/", 1)[-1]] += cost
                    per_function[(current["fn"], current["ob"].rsplit("/", 1)[-1])] += cost
                continue
    total = sum(per_object.values())
    print(f"total {total / 1e6:.1f} M instructions\n")
    print("| library | self Ir (M) | share |")
    print("|---|---:|---:|")
    for name, cost in per_object.most_common(8):
        print(f"| {name} | {cost / 1e6:.1f} | {100 * cost / total:.1f}% |")
    print("\n| function (self) | library | Ir (M) | share |")
    print("|---|---|---:|---:|")
    for (fn, ob), cost in per_function.most_common(args.top):
        print(f"| `{fn}` | {ob} | {cost / 1e6:.1f} | {100 * cost / total:.1f}% |")


if __name__ == "__main__":
    main()
