"""`python -m benchgrid_harness.probe --request P.json --result R.json`: build each subject once, check its sites.

A site whose module path is not in the model fails every process of every cell that reads it, so the
orchestrator runs this before a run's first cell (and `benchgrid validate --probe` runs it alone). The
subjects are built by the harness's own builders (subjects.py) from the data the request carries, as a
cell process builds them: nothing of the spec is executed. Every site is looked up with
`get_submodule`, and one forward pass (no gradients) with a hook on each site found says whether the
forward calls it. A missing path comes back with the nearest module paths the model has.
"""

import argparse
import difflib
import json
import sys

from .hooked import with_hooks
from .result import write_atomically

PROBE_VERSION = 1
NEAREST = 5


def nearest(path, names):
    """Up to NEAREST module paths close to `path`: by spelling first, else the children of its deepest existing prefix."""
    close = difflib.get_close_matches(path, names, n=NEAREST, cutoff=0.6)
    if close:
        return close
    parts = path.split(".")
    for k in range(len(parts) - 1, -1, -1):
        prefix = ".".join(parts[:k])
        if k == 0 or prefix in names:
            start = f"{prefix}." if prefix else ""
            children = [n for n in names if n.startswith(start) and n != prefix and "." not in n[len(start) :]]
            if children:
                return children[:NEAREST]
    return []


def _calls(model, inputs, modules):
    """Which of `modules` (path -> module) one forward pass calls."""
    import torch

    seen = set()
    handles = []
    for p, m in modules.items():
        # A ModuleList or ModuleDict is never called itself: its children are (a residual_cache site names
        # the list of blocks). It counts as called when any of its children is.
        targets = list(m.children()) if isinstance(m, (torch.nn.ModuleList, torch.nn.ModuleDict)) else [m]
        handles += [t.register_forward_hook(lambda _m, _a, _o, p=p: seen.add(p)) for t in targets]
    with torch.no_grad():
        with_hooks(handles, model, inputs)
    return seen


def probe_subject(subject):
    """The probe of one subject: built or not, and each declared site found, called, or the nearest paths."""
    from .subjects import build_subject

    import torch

    out = {"id": subject["id"], "built": False, "error": None, "modules": 0, "sites": []}
    try:
        built = build_subject(subject, torch.device("cpu"))
    except Exception as exc:  # noqa: BLE001 - the report says why the subject cannot be built
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out
    out["built"] = True
    names = [name for name, _ in built.model.named_modules() if name]
    out["modules"] = len(names)
    found = {}
    for name, path in sorted(subject["sites"].items()):
        try:
            found[path] = built.model.get_submodule(path)
            out["sites"].append({"name": name, "path": path, "found": True, "called": None, "nearest": []})
        except AttributeError:
            out["sites"].append(
                {"name": name, "path": path, "found": False, "called": None, "nearest": nearest(path, names)}
            )
    try:
        called = _calls(built.model, built.inputs, found)
    except Exception as exc:  # noqa: BLE001 - a forward that fails is reported, not raised
        out["error"] = f"the forward pass failed: {type(exc).__name__}: {exc}"
        return out
    for site in out["sites"]:
        if site["found"]:
            site["called"] = site["path"] in called
    return out


def main(argv=None):
    """Probe every subject of the request; always writes one result (0), 2 when it cannot be written."""
    parser = argparse.ArgumentParser(prog="python -m benchgrid_harness.probe", description=__doc__.splitlines()[0])
    parser.add_argument("--request", required=True)
    parser.add_argument("--result", required=True)
    args = parser.parse_args(argv)
    result = {"probe": PROBE_VERSION, "error": None, "subjects": [], "versions": {}}
    try:
        with open(args.request, encoding="utf-8") as f:
            request = json.load(f)
        if request.get("probe") != PROBE_VERSION or not isinstance(request.get("subjects"), list):
            raise ValueError(f"not a probe request of version {PROBE_VERSION}")
        import torch
        import torchvision

        result["versions"] = {
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "torchvision": torchvision.__version__,
        }
        result["subjects"] = [probe_subject(s) for s in request["subjects"]]
    except BaseException as exc:  # noqa: BLE001 - the boundary: the orchestrator reads the reason
        result["error"] = f"{type(exc).__name__}: {exc}"
    try:
        write_atomically(args.result, result)
    except Exception as exc:  # noqa: BLE001
        print(f"benchgrid_harness.probe: cannot write {args.result}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
