"""The wheels wheelhouse.py carries: each fetched for the target machine with `pip download --no-deps`
(its Python and platforms, binary only), and read for its name, version and Requires-Dist.
Standard library only; run from wheelhouse.py, which finds it beside itself.
"""

import glob
import os
import re
import subprocess
import sys
import zipfile

# The device machine's platform (x86-64 Linux, glibc new enough for manylinux_2_28) and pure wheels.
PLATFORMS = [
    "manylinux_2_28_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux2014_x86_64",
    "manylinux1_x86_64",
    "manylinux_2_5_x86_64",
    "linux_x86_64",
    "any",
]


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def download(req, dest, python_version):
    """pip download --no-deps of one requirement for the target; returns the wheel's path."""
    before = set(glob.glob(os.path.join(dest, "*.whl")))
    argv = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--python-version",
        python_version,
        "--implementation",
        "cp",
        "-d",
        dest,
        "--disable-pip-version-check",
        "-q",
        str(req),
    ]
    for p in PLATFORMS:
        argv[5:5] = ["--platform", p]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"pip download {req}: {r.stderr.strip()[-800:]}")
    new = set(glob.glob(os.path.join(dest, "*.whl"))) - before
    candidates = new or {w for w in before if canonical(os.path.basename(w).split("-")[0]) == canonical(req.name)}
    if len(candidates) != 1:
        raise RuntimeError(f"pip download {req}: expected one wheel, found {sorted(candidates)}")
    return candidates.pop()


def metadata(wheel):
    """(name, version, Requires-Dist lines) from a wheel's METADATA."""
    with zipfile.ZipFile(wheel) as z:
        meta = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        text = z.read(meta[0]).decode("utf-8", errors="replace")
    head = text.split("\n\n", 1)[0]

    def field(key):
        return [line.split(":", 1)[1].strip() for line in head.splitlines() if line.startswith(key + ":")]

    return field("Name")[0], field("Version")[0], field("Requires-Dist")
