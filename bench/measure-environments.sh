#!/bin/bash
# Measures uv (hard-linked cache) for docs/performance.md "Environments across releases": a full environment,
# then a second one differing only in torchlens, and their disk use counted once (du). The layered
# environments are measured with `benchgrid env build|list specs/versions_cpu.yaml`.
# Usage: bench/measure-environments.sh [WORKDIR]   (needs ~6 GB free; remove WORKDIR afterwards)
# The indexes are this machine's (torch from a local directory, see /etc/xdg/pip): adjust IDX elsewhere.
set -x
mkdir -p "${1:-/tmp/uvm}" && cd "${1:-/tmp/uvm}"
python3 -m venv tool && tool/bin/pip install -q uv
UV="$PWD/tool/bin/uv"
export UV_CACHE_DIR="$PWD/cache"
PY="$(command -v python3)"
IDX="--default-index https://pypi.org/simple --index file:///opt/pypi-more/simple --index file:///opt/pypi/simple --link-mode hardlink"
REQ="torch==2.14.1 torchvision==0.29.1 nnsight==0.8.1 captum==0.9.0 transformer-lens==4.3.0"
$UV venv -q env1 --python $PY
/usr/bin/time -f "env1 %e s" $UV pip install -q --python env1/bin/python $IDX $REQ torchlens==2.36.1
$UV venv -q env2 --python $PY
/usr/bin/time -f "env2 %e s" $UV pip install -q --python env2/bin/python $IDX $REQ torchlens==2.34.1
du -sh cache env1 env2
du -sh env2
du -sh cache
du -shc env1 env2 cache
