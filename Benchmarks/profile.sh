#!/usr/bin/env bash
# Profiles `export` and `migrate` of ditto-recover and of the sqlite3 references on one store
# (default: the 100,000-ditto store of scripts/bench), three ways:
#   perf record -g (cpu-clock, user + kernel) summarized by layer with perf_summary.py;
#   valgrind --tool=callgrind on a copy without DWARF (valgrind chokes on Swift's debug info),
#     instructions per library, ours beside the sqlite3 shell doing the same work;
#   strace -c: system calls (count and time), ours beside the sqlite3 shell.
# Output: .bench/profile/ (raw files) and a summary on stdout, used to write Benchmarks/PROFILE.md.
#
#   Benchmarks/profile.sh [DITTOS]       # DITTOS: 400, 10000, 100000 (default) or 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
dittos="${1:-100000}"
declare -A categories=([400]=8 [10000]=20 [100000]=50 [1000000]=100)
cats="${categories[$dittos]:?size must be 400, 10000, 100000 or 1000000}"
for tool in perf valgrind strace sqlite3; do
  command -v "$tool" >/dev/null || { echo "profile: needs $tool" >&2; exit 1; }
done

swift build -c release --product ditto-recover >&2
bin="$(swift build -c release --show-bin-path)/ditto-recover"
store=".bench/stores/ditto-$dittos-c$cats-s302.sqlite"
[ -f "$store" ] || python3 Benchmarks/generate_store.py --out "$store" --dittos "$dittos" --categories "$cats"
out="$PWD/.bench/profile"
rm -rf "$out" && mkdir -p "$out/tmp"
export TMPDIR="$out/tmp"
strip --strip-debug -o "$out/ditto-recover" "$bin"

# The reference scripts, exactly as scripts/bench runs them: line 1 the export query, then the copy.
sql_for() { python3 Benchmarks/bench.py --tool "$bin" --cache "$out" --print-sql "$1"; }
scripts_for_store="$(sql_for "$store")"
export_sql="${scripts_for_store%%$'\n'*}"

fresh() { # name → a fresh folder holding a hard link to the store
  local dir="$out/run-$1"
  rm -rf "$dir" && mkdir -p "$dir" && ln "$PWD/$store" "$dir/Ditto.sqlite"
  for f in Ditto.store Ditto.store-wal Ditto.store-shm; do cp "Tests/Fixtures/ditto-3x/empty/$f" "$dir/$f"; done
  echo "$dir"
}

# prepare OP WHO TOOL: a fresh folder for one run; sets CMD to the command line to profile.
prepare() {
  local dir
  dir="$(fresh "$1-$2-$RANDOM")"
  case "$1-$2" in
    export-ours) CMD=("$3" export --legacy "$dir/Ditto.sqlite" --format csv) ;;
    export-ref) CMD=(sqlite3 -csv -header -readonly "$dir/Ditto.sqlite" "$export_sql") ;;
    migrate-ours) CMD=("$3" migrate --container "$dir") ;;
    migrate-ref)
      scripts="$(sql_for "$dir/Ditto.sqlite")"
      printf '%s\n' "${scripts#*$'\n'}" >"$dir/copy.sql"
      CMD=(sqlite3 -bail "$dir/Ditto.store" ".read $dir/copy.sql") ;;
  esac
}

echo "# perf record -e cpu-clock -g, $dittos dittos"
for op in export migrate; do
  for who in ours ref; do
    prepare "$op" "$who" "$bin"
    perf record -q -e cpu-clock -F 4000 -g -o "$out/perf-$op-$who.data" -- "${CMD[@]}" >/dev/null 2>&1
    echo; echo "## perf: $op, $who"
    perf script -i "$out/perf-$op-$who.data" -F ip,sym,dso 2>/dev/null \
      | python3 Benchmarks/perf_summary.py --top 20 | swift demangle --simplified
  done
done

echo; echo "# strace -c -f, $dittos dittos"
for op in export migrate; do
  for who in ours ref; do
    prepare "$op" "$who" "$bin"
    strace -f -c -o "$out/strace-$op-$who.txt" "${CMD[@]}" >/dev/null 2>&1
    echo; echo "## strace: $op, $who"
    head -16 "$out/strace-$op-$who.txt"
  done
done

echo; echo "# valgrind --tool=callgrind, $dittos dittos"
for op in export migrate; do
  for who in ours ref; do
    prepare "$op" "$who" "$out/ditto-recover"
    cg="$out/callgrind-$op-$who.out"
    valgrind -q --tool=callgrind --callgrind-out-file="$cg" "${CMD[@]}" >/dev/null 2>"$cg.log"
    echo; echo "## callgrind: $op, $who"
    python3 Benchmarks/callgrind_by_library.py "$cg" --top 25 | swift demangle --simplified
  done
done
