#!/usr/bin/env bash
# Long fuzzing with kept corpora (issue #21 part 1): every target (or the ones named) for
# SECONDS each under ASan + UBSan, one target at a time with JOBS worker processes
# (libFuzzer -fork), starting from the kept corpus fuzz/corpus/<name>/ and the seeds our own
# writers make; afterwards the kept corpus is replaced by the minimised union (-merge=1) of what
# it had and what was found, inputs over MAX_LEN bytes left out so the repository stays small.
# Reports per target: executions, exec/s, edges (cov), features, corpus files and bytes,
# findings (crash/leak/timeout/oom files) in BUILD/long/report.md and report.json. Each target's
# figures are kept in BUILD/long/results/<name>.json and the report lists every target run so far,
# so the whole set can be run in pieces (FUZZ_TARGETS=...) and still give one table.
#   usage: fuzz/run_long.sh BUILD_DIR SECONDS JOBS [TARGET...]
# `make fuzz-long` runs it (FUZZ_LONG_SECONDS, default 600; FUZZ_TARGETS to choose).
set -uo pipefail
build=${1:?build dir}
seconds=${2:-600}
jobs=${3:-2}
shift 3 || true
max_len=${MAX_LEN:-8192}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$build/long"
mkdir -p "$out"
targets=()
if [ $# -gt 0 ]; then
  for t in "$@"; do targets+=("$build/fuzz/fuzz_$t"); done
else
  for f in "$build"/fuzz/fuzz_*; do
    [ "$(basename "$f")" = fuzz_seeds ] && continue
    [ -x "$f" ] && targets+=("$f")
  done
fi
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets in $build/fuzz" >&2; exit 2; }
mkdir -p "$out/results"
found_any=0
for f in "${targets[@]}"; do
  name=$(basename "$f"); name=${name#fuzz_}
  kept="$root/fuzz/corpus/$name"
  work="$out/work/$name"
  artifacts="$out/artifacts/$name"
  rm -rf "$work"; mkdir -p "$work" "$kept" "$build/seeds/$name"
  # Findings of an earlier run stay for whoever fixes them, but are not this run's: move them aside.
  if [ -d "$artifacts" ] && [ -n "$(ls -A "$artifacts")" ]; then
    mkdir -p "$out/artifacts-earlier/$name"; mv "$artifacts"/* "$out/artifacts-earlier/$name/"
  fi
  mkdir -p "$artifacts"
  dict=()
  [ -f "$root/fuzz/dict/$name.dict" ] && dict=(-dict="$root/fuzz/dict/$name.dict")
  log="$out/$name.log"
  echo "== fuzz-long $name (${seconds}s, $jobs jobs)"
  "$f" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$artifacts/" "$work" "$kept" "$build/seeds/$name" > "$log" 2>&1
  rc=$?
  # The last status line of the fork driver: "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: ..."
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
  execs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/'); execs=${execs:-0}
  cov=$(echo "$last" | sed -nE 's/.* cov: ([0-9]+).*/\1/p'); cov=${cov:-0}
  ft=$(echo "$last" | sed -nE 's/.* ft: ([0-9]+).*/\1/p'); ft=${ft:-0}
  eps=$(echo "$last" | sed -nE 's/.* exec\/s:? ([0-9]+).*/\1/p'); eps=${eps:-0}
  # Minimise the union into a fresh kept corpus.
  merged="$out/merged/$name"
  rm -rf "$merged"; mkdir -p "$merged"
  "$f" -merge=1 -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 "$merged" "$kept" "$work" > "$out/$name.merge.log" 2>&1
  if [ -n "$(ls -A "$merged")" ]; then rm -rf "$kept"; mv "$merged" "$kept"; fi
  files=$(find "$kept" -type f | wc -l)
  bytes=$(du -sb "$kept" | cut -f1)
  findings=$(find "$artifacts" -type f | wc -l)
  [ "$findings" -gt 0 ] && found_any=1
  echo "   exit $rc: $execs executions ($eps/s), cov $cov, ft $ft, kept $files files ($bytes bytes), findings $findings"
  when=$(date -u +%Y-%m-%dT%H:%MZ)
  echo "{\"target\":\"$name\",\"seconds\":$seconds,\"jobs\":$jobs,\"executions\":$execs,\"exec_per_second\":$eps,\"edges\":$cov,\"features\":$ft,\"corpus_files\":$files,\"corpus_bytes\":$bytes,\"findings\":$findings,\"exit\":$rc,\"when\":\"$when\"}" \
    > "$out/results/$name.json"
  echo "| $name | $seconds | $jobs | $execs | $eps | $cov | $ft | $files, $bytes | $findings | $when |" > "$out/results/$name.md"
done
# The report covers every target that has results, this run's and earlier pieces'.
json="["
table="| target | seconds | jobs | executions | exec/s | edges | features | kept corpus (files, bytes) | findings | when |\n|---|---|---|---|---|---|---|---|---|---|\n"
for r in "$out"/results/*.json; do
  json+="$(cat "$r"),"
  table+="$(cat "${r%.json}.md")\n"
done
json="${json%,}]"
echo "$json" > "$out/report.json"
printf "%b" "$table" > "$out/report.md"
echo "== report: $out/report.md"
cat "$out/report.md"
total=$(du -sb "$root/fuzz/corpus" | cut -f1)
echo "== kept corpora: $total bytes in fuzz/corpus/"
exit $found_any
