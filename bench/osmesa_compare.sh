#!/bin/bash
# libs/render against OSMesa (llvmpipe) on bench_render's three workloads, at one thread each
# (both pinned to one core) and at two threads each (both on two cores, LP_NUM_THREADS=2). Mesa
# reads LP_NUM_THREADS once per process, so each thread count is its own run. Prints frame times
# (median of REPS repetitions, the two renderers' runs interleaved in random order so that a
# machine whose speed drifts during the run does not favour either) and how many times faster
# libs/render is. libs/render draws with the widest kernels the CPU has (SORTIE_BENCH_ISA=avx2
# or baseline in the environment chooses narrower ones; the last line names them).
#   bench/osmesa_compare.sh [build/release] [REPS]
set -euo pipefail
BUILD=${1:-build/release}
REPS=${2:-5}
BIN="$BUILD/bench/bench_render"
[[ "$REPS" =~ ^[0-9]+$ ]] && [ "$REPS" -ge 2 ] || { echo "osmesa_compare: REPS must be a number >= 2 (the medians need repetitions)" >&2; exit 2; }
[ -x "$BIN" ] || { echo "osmesa_compare: $BIN not built (cmake --build $BUILD --target bench_render)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
run() {  # threads cpus file
  LP_NUM_THREADS=$1 taskset -c "$2" "$BIN" --benchmark_filter="BM_Sortie/case:[0-9]/threads:$1|BM_OSMesa" \
    --benchmark_repetitions="$REPS" --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_format=json \
    > "$OUT/$3" 2> "$OUT/$3.err" || { cat "$OUT/$3.err" >&2; exit 1; }
}
run 1 0 one.json
if [ "$(nproc)" -ge 2 ]; then run 2 0,1 two.json; fi
python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
names = {0: "a_sample_bilinear", 1: "b_sample_trilinear", 2: "c_dense_bilinear"}
kernels = set()
def medians(path):
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        m = re.match(r"BM_(Sortie|OSMesa)/case:(\d)", b["name"])
        if m:
            rows[(m.group(1), int(m.group(2)))] = b["real_time"]
            if m.group(1) == "Sortie" and " " in b.get("label", ""):
                kernels.add(b["label"].split(" ")[-1])
    return rows
if not any(os.path.exists(os.path.join(out, f)) for f in ("one.json",)):
    sys.exit("osmesa_compare: no results")
print(f"{'workload':20} {'threads':>7} {'sortie ms':>10} {'OSMesa ms':>10} {'ratio':>6}")
worst = {}
for f, t in (("one.json", 1), ("two.json", 2)):
    p = os.path.join(out, f)
    if not os.path.exists(p):
        print(f"(two-thread run skipped: one CPU)")
        continue
    r = medians(p)
    for c, n in names.items():
        s, o = r.get(("Sortie", c)), r.get(("OSMesa", c))
        if s is None or o is None:
            sys.exit(f"osmesa_compare: missing rows for {n} at {t} thread(s) (built without OSMesa?)")
        ratio = o / s
        worst[t] = min(worst.get(t, ratio), ratio)
        print(f"{n:20} {t:>7} {s:>10.2f} {o:>10.2f} {ratio:>5.2f}x")
# The target (#19) is the one-thread margin; the two-thread one is reported beside it.
margins = ", ".join(f"{m:.2f}x at {t} thread{'s' if t > 1 else ''}" for t, m in sorted(worst.items()))
print(f"smallest margin: {margins} (libs/render kernels: {', '.join(sorted(kernels)) or '?'})")
PY
