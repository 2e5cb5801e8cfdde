#!/usr/bin/env bash
# The GPU check in three steps (docs/gpu.md):
#   prepare  here, with Node: export the check's spec as a bundle with a wheelhouse of what the GPU machine lacks
#   there    on the GPU machine, Python only: build the environment from the wheelhouse, run every cell, pack the run
#   finish   here: unpack what came back, `benchgrid ingest`, and the ratio table beside the seed's
# `--device cpu` runs the same steps on this machine as a dry run (test/scripts/gpu-check.test.ts).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUNDLE="$ROOT/.gpu-check/bundle"
PACK="gpu-check-run.tar.gz"

usage() {
  cat >&2 <<'EOF'
usage: scripts/gpu-check.sh prepare [--device cuda|cpu] [--spec FILE] [--bundle DIR]
                                    [--machine LIST | --machine-python PY] [--environment ENV]
                                    [--only GLOBS] [--processes N] [--samples N]
       scripts/gpu-check.sh there   [--bundle DIR] [--out DIR] [--python PY] [--stop-after-s S] [--hard-limit-s S]
       scripts/gpu-check.sh finish  DIR [--bundle DIR] [--results DIR] [--seed FILE] [--label TEXT]
EOF
  exit 2
}

fail() { echo "gpu-check: $1" >&2; exit "${2:-2}"; }
need_value() { [[ $# -ge 2 && -n "$2" ]] || fail "$1 needs a value. See scripts/gpu-check.sh --help."; }
benchgrid() { node "$ROOT/bin/benchgrid.js" "$@"; }

# Reads `--option value` pairs into the variables MAP names (`--spec=spec --bundle=BUNDLE`; `=+list` appends the
# option and its value to the array `list`), the caller's locals included; any other word shows the usage.
read_options() {
  local map=" ${1//$'\n'/ } " target; shift
  while [[ $# -gt 0 ]]; do
    target="${map#* "$1"=}"
    [[ "$target" != "$map" ]] || usage
    target="${target%% *}"
    need_value "$@"
    if [[ "$target" == +* ]]; then
      local -n _into="${target#+}"
      _into+=("$1" "$2")
    else
      printf -v "$target" '%s' "$2"
    fi
    shift 2
  done
}

prepare() {
  local device=cuda spec="$ROOT/specs/resnet18_gpu_check.yaml" machine="$ROOT/scripts/gpu-check/h200-packages.txt"
  local machine_python="" environment=main export_args=()
  read_options "--device=device --spec=spec --bundle=BUNDLE --machine=machine --machine-python=machine_python
    --environment=environment --only=+export_args --processes=+export_args --samples=+export_args" "$@"
  [[ "$device" == cuda || "$device" == cpu ]] || fail "--device must be cuda or cpu (got '$device')."
  # A bundle's results must not mix with another's: the previous one goes.
  rm -rf "$BUNDLE"
  benchgrid export "$spec" --out "$BUNDLE" --device "$device" ${export_args[@]+"${export_args[@]}"}
  local where=(--machine "$machine")
  [[ -n "$machine_python" ]] && where=(--machine-python "$machine_python")
  python3 "$ROOT/scripts/gpu-check/wheelhouse.py" "$BUNDLE" "${where[@]}" --environment "$environment" || exit $?
  local size
  size="$(du -sm "$BUNDLE" | cut -f1)"
  echo "gpu-check: bundle $BUNDLE ready: ${size} MiB with its wheelhouse (the device tool carries at most 64 MiB)." >&2
  [[ "$size" -lt 64 ]] || fail "the bundle is ${size} MiB, over what can be carried; select fewer cells." 3
}

there() {
  local out="${OUT:-}" python=python3 stop=360 hard=""
  read_options "--bundle=BUNDLE --out=out --python=python --stop-after-s=stop --hard-limit-s=hard" "$@"
  [[ -f "$BUNDLE/bundle.json" ]] || fail "$BUNDLE has no bundle.json: run 'scripts/gpu-check.sh prepare' here first and carry the bundle."
  [[ -n "$out" ]] || out="$BUNDLE/out"
  mkdir -p "$out"
  [[ "$stop" =~ ^[0-9]+$ ]] || fail "--stop-after-s must be a whole number of seconds (got '$stop')."
  [[ -n "$hard" ]] || hard=$(( stop + 120 ))
  [[ "$hard" =~ ^[0-9]+$ ]] || fail "--hard-limit-s must be a whole number of seconds (got '$hard')."
  local venv
  venv="$(mktemp -d "${TMPDIR:-/tmp}/benchgrid-gpu-venv.XXXXXX")"
  # What the machine is, for the notes: the GPU as the driver reports it (absent on a CPU dry run).
  if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true; fi
  local code=0
  # The export's interleaved schedule runs round by round (process 0 of every cell, then process 1, then
  # memory), so the time box cuts repeats, not cells. The hard limit (SIGTERM: the driver kills its running
  # process and keeps what finished) makes sure the archive below is written before the device tool's own
  # limit ends the command.
  PYTHONUNBUFFERED=1 timeout --signal=TERM --kill-after=20 "$hard" python3 "$BUNDLE/driver.py" "$BUNDLE" \
    --python "$python" --setup-env "$venv" --stop-after-s "$stop" 2>&1 | tee "$out/driver.log" || code=$?
  rm -rf "$venv"
  # Files come back from the device machine only two folders deep and at most eight: one archive.
  local parts=() part
  for part in journal.jsonl results logs; do
    if [[ -e "$BUNDLE/$part" ]]; then parts+=("$part"); fi
  done
  [[ ${#parts[@]} -gt 0 ]] || fail "the driver ran nothing (exit $code); see $out/driver.log." "$(( code == 0 ? 3 : code ))"
  tar -czf "$out/$PACK" -C "$BUNDLE" "${parts[@]}" || { [[ $code -ne 0 ]] || code=3; }
  echo "gpu-check: run packed into $out/$PACK ($(du -k "$out/$PACK" | cut -f1) KiB); driver exit $code" >&2
  return "$code"
}

finish() {
  [[ $# -ge 1 ]] || usage
  local from="$1"; shift
  local results="" seed="$ROOT/reference/resnet18_gpu.results.json" label="this run"
  read_options "--bundle=BUNDLE --results=results --seed=seed --label=label" "$@"
  [[ -f "$from/$PACK" ]] || fail "$from has no $PACK: give the folder the 'there' step's files came back to."
  [[ -f "$BUNDLE/bundle.json" ]] || fail "$BUNDLE has no bundle.json: the bundle that was carried must still be here."
  local stamp ran
  stamp="$(date -u +%Y-%m-%dT%H-%M-%S)"
  [[ -n "$results" ]] || results="$ROOT/bench/results/gpu/$stamp"
  # The prepared bundle stays as it was carried; the run is unpacked into a copy of it.
  ran="$(dirname "$BUNDLE")/ran-$stamp"
  cp -R "$BUNDLE" "$ran"
  rm -rf "$ran/wheelhouse" "$ran/out"
  tar -xzf "$from/$PACK" -C "$ran"
  # --partial: a time-boxed run may leave processes unstarted; they are listed in the results.
  benchgrid ingest "$ran" --out "$results" --partial
  benchgrid ratios "$seed" "$results/results.json" --label seed --label "$label" --format markdown --out "$results/ratios.md"
  cat "$results/ratios.md"
}

[[ $# -ge 1 ]] || usage
step="$1"; shift
case "$step" in
  prepare) prepare "$@" ;;
  there) there "$@" ;;
  finish) finish "$@" ;;
  -h|--help) usage ;;
  *) usage ;;
esac
