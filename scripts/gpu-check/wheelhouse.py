"""Put into BUNDLE/wheelhouse the wheels a bundle's cells need beyond what the target machine already has.

Usage: python3 wheelhouse.py BUNDLE (--machine FILE | --machine-python PY) [--environment ENV ...]
                             [--python-version 3.12] [--platform TAG ...]

The libraries come from the bundle itself: every request's `tool.library`, pinned by the requirement of
the same name in its environment (bundle.json). Their dependencies are followed through each wheel's
METADATA (extras off, markers evaluated for the target); a requirement is not followed when the machine
already has that name at a version that satisfies it (or at an unknown version: the machine's list names
no version). Each missing one is fetched with `pip download --no-deps` for the target's Python and
platform: no resolver runs over the machine's torch, which pip could not fetch for another platform.
The driver's --setup-env then installs BUNDLE/wheelhouse/requirements.txt with pip's full resolver and
`--no-index`, so a wrong guess here is caught there and recorded (docs/gpu.md).

Writes wheelhouse/requirements.txt, wheelhouse/*.whl and wheelhouse/wheelhouse.json (what was carried,
what was taken as present, sizes). Needs pip and network here; exit 2 on bad input, 3 when pip fails.
"""

import argparse
import json
import os
import re
import subprocess
import sys

try:
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.version import InvalidVersion, Version
except ImportError:  # pip always vendors it
    from pip._vendor.packaging.markers import default_environment
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.version import InvalidVersion, Version

# The wheels themselves: fetched for the target, read for their dependencies (wheels.py, beside this file).
from wheels import PLATFORMS, canonical, download, metadata

# The machine's own PyTorch stack is what the check measures: a requirement on these names is met by
# whatever version the machine has (the harness records that version in each cell's runtime), never carried.
MACHINE_STACK = {"torch", "torchvision", "triton"}
# Spares larger than this stay behind (the whole bundle must stay well under the 64 MiB a call carries).
SPARE_BYTES = 2 * 2**20


class Refused(Exception):
    """Bad input (exit 2)."""


def read_inventory(path):
    """name -> version (None when only the name is known) from a NAME or NAME==VERSION list."""
    have = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                name, _, version = line.partition("==")
                if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name.strip()):
                    raise Refused(f"{path}:{n}: {line!r} is not NAME or NAME==VERSION. Fix that line.")
                have[canonical(name)] = version.strip() or None
    except OSError as exc:
        raise Refused(f"{path}: cannot read the machine's package list ({exc.strerror}).")
    return have


def inventory_of(python):
    """What an interpreter has: `pip list` (used for the CPU dry run, where the target is this machine)."""
    r = subprocess.run([python, "-m", "pip", "list", "--format=json"], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise Refused(f"{python} -m pip list failed: {r.stderr.strip()[-500:]}")
    return {canonical(p["name"]): p["version"] for p in json.loads(r.stdout)}


def target_environment(python_version):
    """Marker values of the device machine: CPython on x86-64 Linux."""
    env = default_environment()
    env.update(
        {
            "python_version": python_version,
            "python_full_version": python_version + ".0",
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": "x86_64",
            "os_name": "posix",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "extra": "",
        }
    )
    return env


def top_requirements(bundle, manifest, environments):
    """The libraries the selected environments' cells import, pinned as their environment pins them."""
    libs = {}
    for job in manifest["jobs"]:
        if environments and job["environment"] not in environments:
            continue
        with open(os.path.join(bundle, job["request"]), encoding="utf-8") as f:
            library = (json.load(f).get("tool") or {}).get("library")
        if library:
            libs.setdefault(canonical(library), job["environment"])
    tops = []
    for lib, env in sorted(libs.items()):
        pinned = [
            r
            for r in manifest["environments"].get(env, {}).get("requirements", [])
            if canonical(Requirement(r).name) == lib
        ]
        tops.append(Requirement(pinned[0] if pinned else lib))
    return tops


def satisfied(req, have):
    """True when the machine has req's name at a version that meets it (an unknown version counts)."""
    name = canonical(req.name)
    if name not in have:
        return False
    version = have[name]
    if version is None or not str(req.specifier) or name in MACHINE_STACK or name.startswith("nvidia-"):
        return True
    try:
        return req.specifier.contains(Version(version), prereleases=True)
    except InvalidVersion:
        return True


def carry_spares(present, carried, dest, python_version):
    """Small wheels of requirements taken as present at an unknown version with a bound on it: pip there
    keeps the machine's copy when it meets the bound and takes the spare only when it does not."""
    spares = {}
    for name, info in sorted(present.items()):
        if info["version"] is not None or name in MACHINE_STACK or name.startswith("nvidia-") or name in carried:
            continue
        bounds = [Requirement(r) for r in info["required"] if str(Requirement(r).specifier)]
        if not bounds:
            continue
        try:
            wheel = download(Requirement(name + ",".join(str(b.specifier) for b in bounds)), dest, python_version)
        except RuntimeError:
            continue  # no wheel meets every bound for the target: pip there will say so, if it matters
        size = os.path.getsize(wheel)
        if size > SPARE_BYTES:
            os.unlink(wheel)
            continue
        spares[name] = {"version": metadata(wheel)[1], "wheel": os.path.basename(wheel), "bytes": size}
    return spares


def build(bundle, have, environments, python_version):
    """Follows the tops' dependencies; returns the summary written to wheelhouse.json."""
    with open(os.path.join(bundle, "bundle.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    dest = os.path.join(bundle, "wheelhouse")
    os.makedirs(dest, exist_ok=True)
    unknown = sorted(set(environments) - set(manifest["environments"]))
    if unknown:
        raise Refused(
            f"environment(s) {', '.join(unknown)} not in this bundle (it has "
            f"{', '.join(sorted(manifest['environments']))}); give one of those to --environment."
        )
    marker_env = target_environment(python_version)
    tops = top_requirements(bundle, manifest, environments)
    queue, carried, present = list(tops), {}, {}
    while queue:
        req = queue.pop(0)
        name = canonical(req.name)
        if req.marker is not None and not req.marker.evaluate(marker_env):
            continue
        if satisfied(req, have):
            present.setdefault(name, {"version": have[name], "required": []})["required"].append(str(req))
            continue
        if name in carried:
            if str(req.specifier) and not req.specifier.contains(Version(carried[name]["version"]), prereleases=True):
                raise RuntimeError(f"{req} conflicts with {name} {carried[name]['version']} already carried")
            continue
        wheel = download(req, dest, python_version)
        _, version, requires = metadata(wheel)
        carried[name] = {"version": version, "wheel": os.path.basename(wheel), "bytes": os.path.getsize(wheel)}
        print(f"wheelhouse: {name} {version} ({carried[name]['bytes'] / 2**20:.1f} MiB)", file=sys.stderr, flush=True)
        queue.extend(Requirement(r) for r in requires)
    spares = carry_spares(present, carried, dest, python_version)
    lines = [str(t) for t in tops if canonical(t.name) in carried]
    with open(os.path.join(dest, "requirements.txt"), "w", encoding="utf-8") as f:
        f.write(
            "# The libraries this bundle's cells import that the target machine lacks (scripts/gpu-check/wheelhouse.py).\n"
        )
        f.write("".join(line + "\n" for line in lines))
    summary = {
        "python_version": python_version,
        "platforms": PLATFORMS,
        "requirements": lines,
        "carried": carried,
        "spares": spares,
        "present": present,
        "bytes": sum(c["bytes"] for c in list(carried.values()) + list(spares.values())),
    }
    with open(os.path.join(dest, "wheelhouse.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wheelhouse.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--machine", help="the target's package list: NAME or NAME==VERSION per line")
    where.add_argument("--machine-python", help="the target is this interpreter (CPU dry run): its pip list")
    parser.add_argument(
        "--environment", action="append", default=[], help="only these environments' cells (repeatable)"
    )
    parser.add_argument(
        "--python-version", default=None, help="the target's Python X.Y (default: --machine-python's, else 3.12)"
    )
    args = parser.parse_args(argv)
    try:
        if not os.path.isfile(os.path.join(args.bundle, "bundle.json")):
            raise Refused(f"{args.bundle}: no bundle.json; give a directory `benchgrid export` wrote.")
        if args.machine:
            have, version = read_inventory(args.machine), args.python_version or "3.12"
        else:
            have = inventory_of(args.machine_python)
            probe = subprocess.run(
                [args.machine_python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            version = args.python_version or probe.stdout.strip()
        summary = build(args.bundle, have, set(args.environment), version)
    except Refused as exc:
        print(f"wheelhouse: {exc}", file=sys.stderr)
        return 2
    except (RuntimeError, subprocess.SubprocessError, OSError) as exc:
        print(f"wheelhouse: {exc}", file=sys.stderr)
        return 3
    print(
        f"wheelhouse: {len(summary['carried'])} wheel(s) and {len(summary['spares'])} spare(s), "
        f"{summary['bytes'] / 2**20:.1f} MiB, for Python "
        f"{summary['python_version']}; {len(summary['present'])} requirement(s) taken as present on the machine",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
