#!/usr/bin/env bash
# The paired-measurement campaign (docs/performance.md, "Pairing"), shaped to fit about an hour of a shared
# 2-core machine, of which about 10 minutes alone on it. Runs of specs/resnet18_cpu.yaml at its default
# protocol plus a `probe` tool in group A (bench/noise.ts):
#   N1  group A, this code, probe = the hooks reference again (the main run: paired and unpaired widths,
#       no-bias check, import taxes, order effects); shares the machine with whatever else runs
#   N2  this code, probe slowed 5% on purpose, on SUB (two contracts of group A), alone on the machine
#   M1  the code of git revision BEFORE (default main), probe = the copy, on SUB, side by side with N3:
#       today's wall time, statuses and exactness on the same cells under the same load
#   N3  this code, probe = the copy, on SUB, beside M1, F and G (other benchgrid runs, as a user's machine
#       would have them)
#   F   the pairing fixtures (a tool that is exactly raw, one that slows torch 25% on import, a known extra
#       matrix product) on resnet18_cpu's subject and protocol, one contract, beside N3
#   G   specs/gpt2_tiny_cpu.yaml, one cell per tool (its import tax table), beside N3
# Pairs: N1 -> N2 (probe slowed: slower expected; every other cell an A/A, N1 loaded, N2 alone), N2 -> N3
# (probe back to the copy: faster expected; A/A of every other cell, N3 beside another run), N1 -> N3 (A/A
# of every cell, both loaded). bench/pairing.ts summary DIR reads them (DIR/walls.json) and the load of DIR/load.log.
# Steps marked `measure` run through the machine's exclusive timing lock when MEASURE names it (e.g.
# MEASURE=/work/tools/measure), the others through HEAVY (shared): on a machine of your own leave both unset.
# Usage: bench/pairing.sh DIR [BEFORE]     (a DIR/N1 from an interrupted run is resumed, not restarted;
# runs with results are kept)
set -euo pipefail
dir=$(mkdir -p "${1:?usage: bench/pairing.sh DIR [BEFORE]}" && cd "$1" && pwd)
before=${2:-main}
here=$(cd "$(dirname "$0")/.." && pwd)
measure=${MEASURE:-}
heavy=${HEAVY:-}
SUB='A/single_module_output/*/*,A/replacement_edit/*/*'
noise() { node "$here/bin/node-ts.js" "$here/bench/noise.ts" "$@"; }
(while true; do echo "$(date +%s) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done) >> "$dir/load.log" &
sampler=$!
trap 'kill $sampler' EXIT

# Today's code, as a plain tree beside the runs (no checkout: the repository is not touched).
old="$dir/before-src"
if [ ! -d "$old" ]; then
  mkdir -p "$old"
  # From the repository's top (git archive refuses an untracked working directory, as a snapshot of this
  # tree inside a checkout is).
  git -C "$(git -C "$here" rev-parse --show-toplevel)" archive "$before" | tar -x -C "$old"
  ln -s "$here/node_modules" "$old/node_modules"
fi
# N1_SRC: the tree an interrupted N1 was started from (its spec names that tree's probe runner).
n1_src=${N1_SRC:-$here}
export BENCHGRID_ALLOW_DIRS="$here/test/fixtures/runners:$n1_src/test/fixtures/runners:$dir"

noise="node $here/bin/node-ts.js $here/bench/noise.ts"
old_noise="cd $old && node bin/node-ts.js bench/noise.ts"
# One step: a shell line run through the lock the step asks for ($measure or $heavy; none when unset).
step() { local lock=$1; shift; $lock bash -c "set -e; $*" || echo "pairing.sh: step failed: $*" >&2; }

if [ -f "$dir/N1/results.json" ]; then
  : # kept as it is, complete or not (its results say `partial`)
elif [ -f "$dir/N1/journal.jsonl" ]; then
  step "$heavy" "node $n1_src/bin/benchgrid.js run --resume $dir/N1 || true"
else
  step "$heavy" "$noise run $dir N1 --probe copy --only 'A/*/*/*'"
fi
[ -f "$dir/N2/results.json" ] || step "$measure" "$noise run $dir N2 --probe slowed5 --only '$SUB'"
# M1 and N3 side by side on the same cells (and the fixtures' and gpt2's runs beside them): the same load
# reaches both, so their wall times compare; N3 is the A/A run that shares the machine with another run.
step "$heavy" "$old_noise run $dir M1 --probe copy --only '$SUB'" &
m1=$!
step "$heavy" "$noise run $dir N3 --probe copy --only '$SUB'" &
n3=$!
step "$heavy" "$noise run $dir F --spec fixtures --only 'A/single_module_output/*/*'; $noise run $dir G --spec gpt2 --only 'A/single_module_output/*/*,A/replacement_edit/tl_bind/*'"
wait "$m1" "$n3"
node "$here/bin/node-ts.js" "$here/bench/pairing.ts" summary "$dir"
