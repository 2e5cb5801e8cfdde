#!/bin/bash
# torchlens 2.36.1 built from its PyPI sdist with benchgrid's source builds, against the PyPI wheel of
# 2.36.1 that specs/resnet18_cpu.yaml pins, in one interleaved bench-change run: the same code, so the
# same cells, bit-exact, and no verdict of change. The figures of a run are in docs/ci.md.
# It needs the network once: the sdist (5.4 MB, kept in WORKDIR) and setuptools for its build (pip's
# build isolation), so it is a bench script, not a test.
# Usage: bench/tool-source-torchlens.sh [WORKDIR] [bench-change options, e.g. --processes 5]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-${TMPDIR:-/tmp}/benchgrid-torchlens-sdist}
shift || true
mkdir -p "$WORK"
if [ ! -d "$WORK/torchlens-2.36.1" ]; then
  python3 -m pip download --no-binary :all: --no-deps torchlens==2.36.1 -d "$WORK"
  tar -xzf "$WORK/torchlens-2.36.1.tar.gz" -C "$WORK"
fi
# The read and edit contracts of the peer matrix: nine torchlens cells per side (tl.trace and tl.record
# three each, so each gets a tool verdict), and the raw forward of each contract.
ONLY='A/single_module_output/*/*,A/matched_retained/*/*,A/replacement_edit/*/*'
OUT="$WORK/run-$(date -u +%Y-%m-%dT%H-%M-%S)"
cd "$WORK"
status=0
/usr/bin/time -f 'bench-change wall time: %e s' node "$ROOT/bin/benchgrid.js" bench-change "$ROOT/specs/resnet18_cpu.yaml" \
  --tool torchlens --base pinned --head "$WORK/torchlens-2.36.1" --only "$ONLY" --out "$OUT" "$@" || status=$?
echo "run directory: $OUT (change.md, change.json); bench-change exit status $status"
exit $status
