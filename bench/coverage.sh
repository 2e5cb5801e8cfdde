#!/usr/bin/env bash
# The coverage campaign (docs/performance.md, "Run to run"): the read and replacement rows of
# specs/resnet18_cpu.yaml at its default protocol, RUNS times on the same code in one directory, so that each
# run after the first reads the earlier ones as its history (src/results/earlier.ts) as a user's runs would;
# the runs named in BUSY share the machine with one busy CPU process (a shell loop). Then one run of the code
# of git revision BEFORE (default HEAD) on the same rows, for the wall time of the protocol it replaces.
# bench/coverage.ts summary DIR reads the runs (DIR/walls.jsonl) and the load of DIR/load.log.
# Usage: bench/coverage.sh DIR [BEFORE]      env: RUNS (6), BUSY ("3 6"), ONLY (the two rows)
# A run with results is kept, so an interrupted campaign resumes where it stopped.
set -euo pipefail
dir=$(mkdir -p "${1:?usage: bench/coverage.sh DIR [BEFORE]}" && cd "$1" && pwd)
before=${2:-HEAD}
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-6}
busy=" ${BUSY:-3 6} "
only=${ONLY:-A/single_module_output/*/*,A/replacement_edit/*/*}
(while true; do echo "$(date +%s) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 10; done) >> "$dir/load.log" &
sampler=$!
burner=
trap 'kill $sampler ${burner:-} 2>/dev/null || true' EXIT

# One run: NAME, the tree to run, whether a busy process shares the machine.
one() {
  local name=$1 tree=$2 loaded=$3
  [ -f "$dir/$name/results.json" ] && return 0
  if [ "$loaded" = yes ]; then (while :; do :; done) & burner=$!; fi
  local start; start=$(date +%s.%N)
  node "$tree/bin/benchgrid.js" run "$tree/specs/resnet18_cpu.yaml" --only "$only" --out "$dir/$name" > "$dir/$name.log" 2>&1 || echo "coverage.sh: $name exited $?" >&2
  local end; end=$(date +%s.%N)
  if [ -n "$burner" ]; then kill "$burner"; wait "$burner" 2>/dev/null || true; burner=; fi
  printf '{"name":"%s","tree":"%s","busy":%s,"started":%s,"wall_s":%s}\n' "$name" "$tree" "$([ "$loaded" = yes ] && echo true || echo false)" "$start" "$(awk "BEGIN{print $end - $start}")" >> "$dir/walls.jsonl"
}

for i in $(seq 1 "$runs"); do
  case "$busy" in *" $i "*) one "run$i" "$here" yes ;; *) one "run$i" "$here" no ;; esac
done

# The protocol this campaign replaces, as a plain tree beside the runs (the repository is not touched), in a
# directory of its own so that its results are no history of the others.
old="$dir/before-src"
if [ ! -d "$old" ]; then
  mkdir -p "$old"
  git -C "$here" archive "$before" | tar -x -C "$old"
  ln -s "$here/node_modules" "$old/node_modules"
fi
mkdir -p "$dir/before"
dir_main=$dir; dir="$dir/before"; one old "$old" no; dir=$dir_main
node "$here/bin/node-ts.js" "$here/bench/coverage.ts" summary "$dir"
