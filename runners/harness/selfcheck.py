"""End-to-end self-check of the harness: run every reference and faulty adapter as real cell processes.

Usage: <python with torch> runners/harness/selfcheck.py [--jobs 2] [--keep DIR]
Writes request files to a temp dir, runs `python -m benchgrid_harness` once per cell (argument lists, no shell),
prints one table row per cell and exits 1 if any outcome differs from what is expected.
Results are validated against schemas/result.schema.json when `jsonschema` is importable.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TORCH_RUNNER = REPO / "runners" / "torch"
FAULTY_RUNNER = REPO / "test" / "fixtures" / "runners" / "faulty"
# The wire facts `benchgrid run` uses too (src/wire.ts): the request version and the environment allow-list.
sys.path.insert(0, str(REPO / "runners" / "harness"))
from benchgrid_harness import WIRE, launch  # noqa: E402 - the harness package of this checkout, found above
from selfcheck_results import outcome, print_table, validator  # noqa: E402 - beside this file, as above

# Contract facts come from the one data file TypeScript reads too (runners/harness/contracts.json).
CONTRACTS = json.loads((REPO / "runners" / "harness" / "contracts.json").read_text(encoding="utf-8"))["kinds"]
A_CONTRACTS = [
    "single_module_output",
    "matched_retained",
    "replacement_edit",
    "repeated_steering",
    "same_site_gradient",
    "ordered_dataset_features",
]
HOOKS = {"tool": "hooks", "module": "benchgrid_torch.adapters.hooks"}
RESNET = {
    "id": "resnet18",
    "model": {"builder": "torchvision", "name": "resnet18", "seed": 0, "config": {}},
    "inputs": {"kind": "image", "shape": [1, 3, 32, 32], "dtype": "float32", "seed": 0, "stimuli": 8, "batch_size": 4},
    "sites": {"layer2": "layer2"},
}
GPT2 = {
    "id": "gpt2_tiny",
    "model": {
        "builder": "gpt2",
        "name": "gpt2_tiny",
        "seed": 0,
        "config": {
            "n_layer": 2,
            "n_embd": 64,
            "n_head": 4,
            "vocab_size": 1000,
            "n_positions": 64,
            "bos_token_id": 0,
            "eos_token_id": 0,
        },
    },
    "inputs": {"kind": "tokens", "shape": [1, 16], "vocab": 1000, "seed": 0, "stimuli": 8, "batch_size": 4},
    "sites": {"block0": "transformer.h.0"},
}
# A throwaway adapter whose library is missing, to show the `unsupported` reason for it.
MISSING_ADAPTER = "import benchgrid_no_such_library  # noqa: F401\n\n\ndef single_module_output(ctx):\n    pass\n"


def request(
    kind, tool, module, library=None, reference=None, mode="time", device="cpu", subject=RESNET, runner="torch"
):
    """A request for one cell; small settings so the whole check runs in a few minutes."""
    site = next(iter(subject["sites"]))
    values = {"site": site, "strengths": [0.0, 0.5, 1.0, 2.0], "direction_seed": 1, "target": 3}
    facts = CONTRACTS[kind]
    params = {name: values[name] for name in facts["params"]}
    group = "A" if kind in A_CONTRACTS else "B"
    return {
        "protocol": WIRE["wire_version"],
        "spec": {"name": "selfcheck", "digest": "0" * 64},
        "cell": {
            "id": f"{group}/{kind}/{tool}/{subject['id']}",
            "group": group,
            "contract": kind,
            "tool": tool,
            "subject": subject["id"],
        },
        "contract": {"kind": kind, "params": params, "grad": facts["grad"], "work": facts["work"]},
        "subject": subject,
        "tool": {"id": tool, "runner": runner, "adapter": tool, "module": module, "library": library},
        "reference": reference,
        "device": device,
        "mode": mode,
        "process_index": 0,
        "settings": {
            "warmups": 1,
            "samples": 5,
            "min_samples": 2,
            "sampling_budget_s": 2.0,
            "threads": 1,
            "rtol": 1e-5,
            "atol": 1e-6,
            "memory_calls": 1,
        },
    }


def torch_cases():
    """The reference and tv_fx adapters of the torch runner, each on the contracts it has."""
    out = []
    for kind in A_CONTRACTS:
        out.append((f"raw {kind}", request(kind, "raw", "benchgrid_torch.adapters.raw"), [], "ok", 180))
        out.append((f"hooks {kind}", request(kind, "hooks", HOOKS["module"]), [], "ok", 180))
    for kind in ["single_module_output", "matched_retained", "same_site_gradient", "ordered_dataset_features"]:
        out.append(
            (
                f"tv_fx {kind}",
                request(kind, "tv_fx", "benchgrid_torch.adapters.tv_fx", "torchvision", HOOKS),
                [],
                "ok bit",
                180,
            )
        )
    out.append(
        (
            "tv_fx replacement_edit",
            request("replacement_edit", "tv_fx", "benchgrid_torch.adapters.tv_fx", "torchvision", HOOKS),
            [],
            "unsupported",
            180,
        )
    )
    for kind in ["raw_forward", "hooks_all_modules"]:
        out.append(
            (f"reference {kind}", request(kind, "reference", "benchgrid_torch.adapters.reference"), [], "ok", 180)
        )
    return out


def edge_cases():
    """Memory mode, a device the machine lacks, a missing library and a request the harness refuses."""
    out = [
        (
            "hooks single_module_output memory",
            request("single_module_output", "hooks", HOOKS["module"], mode="memory"),
            [],
            "ok memory",
            180,
        ),
        (
            "tv_fx ordered_dataset_features memory",
            request(
                "ordered_dataset_features", "tv_fx", "benchgrid_torch.adapters.tv_fx", "torchvision", mode="memory"
            ),
            [],
            "ok memory",
            180,
        ),
        (
            "hooks on cuda",
            request("single_module_output", "hooks", HOOKS["module"], device="cuda"),
            [],
            "unsupported",
            180,
        ),
        (
            "missing library",
            request("single_module_output", "missing", "selfcheck_missing", "benchgrid-missing", HOOKS),
            ["TMP"],
            "unsupported",
            180,
        ),
    ]
    broken = request("single_module_output", "hooks", HOOKS["module"])
    broken["settings"]["min_samples"] = 99
    out.append(("broken request", broken, [], "error", 180))
    return out


def faulty_cases():
    """Each faulty adapter (test/fixtures/runners/faulty) and the outcome its fault must become."""
    faulty = {
        "crash": "exit 3",
        "signal": "signal 9",
        "hang": "timeout",
        "garbage": "not json",
        "badschema": "invalid",
        "chatty": "ok bit",
        "raises": "error",
        "unsupported": "unsupported",
        "mismatch": "ok mismatch",
        "close": "ok close",
        "spawns": "timeout",
    }
    out = []
    for name, expected in faulty.items():
        req = request("single_module_output", name, f"faulty_adapters.{name}", None, HOOKS, runner="faulty")
        out.append((f"faulty {name}", req, [str(FAULTY_RUNNER)], expected, 25 if expected == "timeout" else 180))
    return out


def cases(has_transformers):
    """(label, request, extra PYTHONPATH dirs, expected outcome, timeout s) for every cell checked."""
    out = torch_cases() + edge_cases()
    if has_transformers:
        for kind in ["single_module_output", "repeated_steering", "same_site_gradient"]:
            out.append((f"gpt2 hooks {kind}", request(kind, "hooks", HOOKS["module"], subject=GPT2), [], "ok", 180))
    return out + faulty_cases()


def group_gone(pgid, wait_s=5.0):
    """True once no process of the group is left (orphans stay visible as zombies until init reaps them)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def cell_env(paths, scratch):
    """The cell process's environment, as every launcher builds it (launch.py; one thread, its own TMPDIR)."""
    return launch.cell_env(os.environ, paths, 1, str(scratch))


def run_cell(python, workdir, index, case, check_result):
    """Run one cell process; returns (label, expected, got, median ms, samples, note)."""
    label, req, extra_path, expected, timeout = case
    req_path, res_path = workdir / f"{index:02d}.request.json", workdir / f"{index:02d}.result.json"
    req_path.write_text(json.dumps(req, indent=1) + "\n", encoding="utf-8")
    paths = [str(REPO / "runners" / "harness"), str(TORCH_RUNNER)]
    paths += [str(workdir) if p == "TMP" else p for p in extra_path]
    scratch = workdir / "tmp"  # crashed cells leave their scratch dirs here, not in the system's temp dir
    scratch.mkdir(exist_ok=True)
    env = cell_env(paths, scratch)
    cmd = [python, "-m", "benchgrid_harness", "--request", str(req_path), "--result", str(res_path)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole tree: `spawns` leaves a sleeping child behind
        _out, err = proc.communicate()
        return label, expected, "timeout", "", "", "tree killed" if group_gone(proc.pid) else "group still alive"
    if proc.returncode < 0:
        return label, expected, f"signal {-proc.returncode}", "", "", ""
    if not res_path.exists():
        return label, expected, f"exit {proc.returncode}", "", "", err.decode(errors="replace")[-120:]
    try:
        result = json.loads(res_path.read_text(encoding="utf-8"))
    except ValueError:
        return label, expected, "not json", "", "", ""
    problems = check_result(result) if check_result else [k for k in ("status", "versions") if k not in result]
    if problems:
        return label, expected, "invalid", "", "", "; ".join(problems)[:120]
    return label, expected, *outcome(result)


def main():
    """Run all cases and print the table; exit status 1 when any cell did not behave as expected."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter with torch (default: this one)")
    parser.add_argument("--jobs", type=int, default=2, help="cell processes run at once")
    parser.add_argument("--keep", help="write requests and results here instead of a temp dir")
    args = parser.parse_args()
    has_transformers = (
        subprocess.run(
            [
                args.python,
                "-c",
                "import importlib.util, sys; sys.exit(importlib.util.find_spec('transformers') is None)",
            ],
            check=False,
        ).returncode
        == 0
    )
    workdir = Path(args.keep or tempfile.mkdtemp(prefix="benchgrid-selfcheck-"))
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "selfcheck_missing.py").write_text(MISSING_ADAPTER, encoding="utf-8")
    all_cases = cases(has_transformers)
    check_request, check_result = validator("request.schema.json"), validator("result.schema.json")
    for label, req, *_ in all_cases:
        for problem in check_request(req) if check_request and label != "broken request" else []:
            print(f"request of {label!r} breaks the schema: {problem}")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(
            pool.map(lambda ic: run_cell(args.python, workdir, ic[0], ic[1], check_result), enumerate(all_cases))
        )
    failed = print_table(rows)
    print(
        f"{len(rows) - failed} passed, {failed} failed  (files in {workdir}; "
        f"schema validation {'on' if check_result else 'off: jsonschema not importable'})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
