#!/usr/bin/env bash
# Runs every built libFuzzer target for a bounded time, JOBS targets at a time.
# usage: fuzz/run_all.sh BUILD_DIR SECONDS JOBS
# Each target fuzzes its persistent corpus (BUILD_DIR/corpus/<name>) plus the seeds written by
# our own writers (BUILD_DIR/seeds/<name>) and the kept corpus of the repository
# (fuzz/corpus/<name>, refreshed by `make fuzz-long`; read only here), with fuzz/dict/<name>.dict; crashes land in BUILD_DIR/artifacts/<name>/.
# Prints each target's final stats; exits 1 if any target found a crash, leak or timeout.
set -uo pipefail
build=${1:?build dir}
seconds=${2:-15}
jobs=${3:-2}
mkdir -p "$build/logs"
FUZZ_DIR=$(cd "$(dirname "$0")" && pwd)
export FUZZ_DIR
rm -f "$build/logs/failed.txt"

run_one() {
  local f=$1 build=$2 seconds=$3
  local name
  name=$(basename "$f"); name=${name#fuzz_}
  mkdir -p "$build/corpus/$name" "$build/seeds/$name" "$build/artifacts/$name"
  local kept dict=()
  kept="$FUZZ_DIR/corpus/$name"
  [ -d "$kept" ] || kept="$build/seeds/$name"
  [ -f "$FUZZ_DIR/dict/$name.dict" ] && dict=(-dict="$FUZZ_DIR/dict/$name.dict")
  "$f" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$build/artifacts/$name/" "$build/corpus/$name" "$build/seeds/$name" "$kept" \
    > "$build/logs/$name.log" 2>&1
  local rc=$?
  echo "== fuzz $name (${seconds}s): exit $rc"
  [ $rc -ne 0 ] && echo "$name $rc" >> "$build/logs/failed.txt"
  if [ $rc -ne 0 ]; then tail -n 40 "$build/logs/$name.log"; else grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$build/logs/$name.log"; fi
  return $rc
}
export -f run_one

targets=()
for f in "$build"/fuzz/fuzz_*; do
  [ "$(basename "$f")" = fuzz_seeds ] && continue
  [ -x "$f" ] && targets+=("$f")
done
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets in $build/fuzz" >&2; exit 2; }
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$build" "$seconds"
rc=$?
if [ $rc -ne 0 ]; then
  # Repeated at the end, so a log that keeps only its tail still names what failed and why.
  if [ -f "$build/logs/failed.txt" ]; then
    while read -r name code; do
      echo "== FAILED: fuzz $name (exit $code); last lines of $build/logs/$name.log:"
      grep -E 'ERROR|SUMMARY|Test unit written|#0 |#1 |#2 |#3 |#4 |#5 ' "$build/logs/$name.log" | head -n 14
    done < "$build/logs/failed.txt"
  fi
  echo "fuzz: a target failed; artifacts in $build/artifacts/" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets clean"
