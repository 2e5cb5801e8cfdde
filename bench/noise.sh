#!/usr/bin/env bash
# The noise campaign (about 100 minutes; run it on a quiet machine, nothing else running):
# five runs of specs/resnet18_cpu.yaml (plus a probe tool, see bench/noise.ts), sides alternating, then the
# summary in bench/results/noise-<date>.json.
#   I1  interleaved, probe = the hooks reference again
#   S1  sequential,  probe = the same
#   P   interleaved, protocol.precision = PRECISION, else the precision I1 achieved (the median over its cells
#       of their median's 95% half-width), min_processes = MIN_PROCESSES (2); probe = the same
#   I2  interleaved, probe slowed by 10% on purpose; at least GAP_MIN minutes after I1 ended
#   S2  sequential,  probe slowed by 10%
# Usage: bench/noise.sh DIR
set -euo pipefail
dir=${1:?usage: bench/noise.sh DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
noise() { node "$here/bin/node-ts.js" "$here/bench/noise.ts" "$@"; }
gap_s=$(( ${GAP_MIN:-30} * 60 ))
noise run "$dir" I1 --schedule interleaved --probe copy
i1_end=$(date +%s)
noise run "$dir" S1 --schedule sequential --probe copy
precision=${PRECISION:-$(noise achieved "$dir" I1)}
echo "bench noise: the precision run asks for ${precision}" >&2
noise run "$dir" P --schedule interleaved --probe copy --precision "$precision" --min-processes "${MIN_PROCESSES:-2}"
wait_s=$(( i1_end + gap_s - $(date +%s) ))
if (( wait_s > 0 )); then echo "bench noise: waiting ${wait_s} s so that I2 starts ${GAP_MIN:-30} min after I1 ended" >&2; sleep "$wait_s"; fi
noise run "$dir" I2 --schedule interleaved --probe slowed10
noise run "$dir" S2 --schedule sequential --probe slowed10
noise summary "$dir"
