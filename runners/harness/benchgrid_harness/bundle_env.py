"""The bundle driver's --setup-env (docs/gpu.md): an environment from the bundle's wheelhouse.

A GPU machine lent for minutes has Python with torch but no network and not the tool libraries. The
bundle carries them as wheels (scripts/gpu-check/wheelhouse.py); here they are installed into a fresh
virtual environment that also sees the base interpreter's packages (a .pth file, which works where
the base is itself a venv, unlike --system-site-packages), so the machine's own torch is used as is.
The bundle's driver.py loads this module from the bundle's harness. Standard library only, Python >= 3.8.
"""

import json
import os
import subprocess
import sys

TAIL_BYTES = 4000


class SetupError(Exception):
    """The environment cannot be set up as asked (the driver exits 2, as for a bundle it cannot run)."""


def pip_env():
    """pip without the caller's configuration: no config files, no PIP_* variables, no index."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update({"PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"})
    return env


def run_quiet(argv, timeout=900):
    """Runs a set-up step; returns (exit code, output tail)."""
    try:
        r = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=pip_env(),
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return -1, str(exc)
    return r.returncode, r.stdout.decode("utf-8", errors="replace")[-TAIL_BYTES:]


def base_site_dirs(python):
    """The site directories of the interpreter that holds torch."""
    code = (
        "import json, site, sys; dirs = [p for p in sys.path if p.endswith(('site-packages', 'dist-packages'))]; "
        "print(json.dumps(dirs))"
    )
    code_, out = run_quiet([python, "-c", code], timeout=120)
    if code_ != 0:
        raise SetupError(f"{python} cannot be asked for its site directories: {out.strip()[-500:]}")
    return json.loads(out.strip().splitlines()[-1])


def wheel_requirements(bundle):
    """wheelhouse/requirements.txt: the libraries the bundle's cells import that the base may lack."""
    wheelhouse = os.path.join(bundle, "wheelhouse")
    reqs = os.path.join(wheelhouse, "requirements.txt")
    if not os.path.isfile(reqs):
        raise SetupError(
            f"{reqs}: no such file; --setup-env needs a bundle prepared with a wheelhouse "
            "(scripts/gpu-check.sh prepare), or drop --setup-env and give --python"
        )
    with open(reqs, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
    return wheelhouse, reqs, lines


def installed_in(python, site_dir):
    """name -> version of what the set-up installed into the venv itself (not the base's packages)."""
    code, out = run_quiet([python, "-m", "pip", "list", "--format=json", "--path", site_dir], timeout=120)
    try:
        return {p["name"]: p["version"] for p in json.loads(out.strip().splitlines()[-1])} if code == 0 else {}
    except (ValueError, IndexError, KeyError, TypeError):
        return {}


def setup_environment(bundle, base_python, venv_dir):
    """Creates venv_dir over base_python's packages, installs the wheelhouse; returns (python, record)."""
    wheelhouse, reqs, lines = wheel_requirements(bundle)
    sites = base_site_dirs(base_python)
    code, out = run_quiet([base_python, "-m", "venv", "--without-pip", "--clear", venv_dir], timeout=300)
    if code != 0:
        raise SetupError(f"cannot create a virtual environment in {venv_dir} with {base_python}: {out.strip()[-500:]}")
    python = os.path.join(venv_dir, "bin", "python")
    code, out = run_quiet([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], timeout=120)
    site_dir = out.strip().splitlines()[-1] if code == 0 and out.strip() else None
    if site_dir is None:
        raise SetupError(f"{python} does not start: {out.strip()[-500:]}")
    os.makedirs(site_dir, exist_ok=True)
    with open(os.path.join(site_dir, "_benchgrid_base.pth"), "w", encoding="utf-8") as f:
        f.write("".join(d + "\n" for d in sites))
    wheels = sorted(n for n in os.listdir(wheelhouse) if n.endswith(".whl"))
    install = [
        python,
        "-m",
        "pip",
        "install",
        "--no-index",
        "--find-links",
        wheelhouse,
        "--no-cache-dir",
        "--no-compile",
    ]
    code, out = run_quiet(install + ["-r", reqs]) if lines else (0, "nothing to install")
    fallback = None
    if code != 0:
        # The machine's own packages may not meet a requirement the wheelhouse could not foresee: install
        # the wheels as they are rather than lose the lease, and record what pip said (pip check below).
        fallback = out[-2000:]
        code, out = run_quiet(install + ["--no-deps"] + [os.path.join(wheelhouse, w) for w in wheels])
        if code != 0:
            raise SetupError(f"cannot install the wheelhouse into {venv_dir}: {out.strip()[-1500:]}")
    _, check = run_quiet([python, "-m", "pip", "check"], timeout=300)
    record = {
        "venv": venv_dir,
        "base_python": base_python,
        "base_site_dirs": sites,
        "requirements": lines,
        "wheels": wheels,
        "installed": installed_in(python, site_dir),
        "resolved_failed": fallback,
        "pip_check": check.strip()[-2000:],
    }
    return python, record


def set_up_interpreters(bundle, args, interpreters):
    """--setup-env: every environment without its own --env-python runs with the new venv's python."""
    base = args.python or sys.executable
    print(
        f"driver: setting up {args.setup_env} from {os.path.join(bundle, 'wheelhouse')} over {base}",
        file=sys.stderr,
        flush=True,
    )
    python, record = setup_environment(bundle, base, os.path.abspath(args.setup_env))
    given = {item.partition("=")[0] for item in args.env_python}
    print(
        f"driver: environment ready: {python} (installed: "
        f"{', '.join(f'{k} {v}' for k, v in sorted(record['installed'].items())) or 'nothing'})",
        file=sys.stderr,
        flush=True,
    )
    return {env: (path if env in given else python) for env, path in interpreters.items()}, record
