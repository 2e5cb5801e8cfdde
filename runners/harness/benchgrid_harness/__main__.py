"""`python -m benchgrid_harness --request REQ.json --result RES.json`: the one error boundary of a cell process."""

import argparse
import sys

# Only the standard library is imported up to here, so the startup and import phases are measured apart.
from .environment import environment, versions
from .errors import Unsupported
from .phases import Phases, process_age_s
from .request import load_request, peek
from .result import build, error_object, write_atomically


def _parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m benchgrid_harness", description="Execute one benchgrid cell and write its result file."
    )
    parser.add_argument("--request", required=True, help="request file (schemas/request.schema.json)")
    parser.add_argument("--result", required=True, help="where to write the result (schemas/result.schema.json)")
    return parser.parse_args(argv)


def _execute(request_path, phases, state):
    """Load the request, import the torch stack, and run the cell; returns its outcome."""
    request = load_request(request_path)
    state.update(
        cell_id=request["cell"]["id"],
        process_index=request["process_index"],
        mode=request["mode"],
        device=request["device"],
        library=request["tool"]["library"],
    )
    with phases("imports"):
        import torch  # noqa: F401 - imported here so its cost is the `imports` phase
        import torchvision  # noqa: F401

        try:
            import numpy  # noqa: F401
        except ImportError:
            pass
        if request["subject"]["model"]["builder"] in ("gpt2", "transformers"):
            import transformers  # noqa: F401 - the subject's own library, so its import is not counted as build

        from .cell import run_cell
    return run_cell(request, phases, state)


def main(argv=None):
    """Run one cell; always writes exactly one result and returns 0 once it is written (2 if it cannot be)."""
    phases = Phases()
    phases.set("startup", process_age_s())
    args = _parse(argv)
    # `paired` holds the baseline's block before the tool's import once it is timed (cell.py), so that a
    # process whose tool then fails still reports it.
    state = {
        "cell_id": None,
        "process_index": None,
        "mode": None,
        "device": None,
        "library": None,
        "paired": None,
        "subject": None,
    }
    try:
        outcome = _execute(args.request, phases, state)
    except Unsupported as exc:
        outcome = {
            "status": "unsupported",
            "reason": exc.reason or "unsupported (no reason given)",
            "paired": state["paired"],
        }
    except BaseException as exc:  # noqa: BLE001 - the boundary: anything else, even SystemExit, is an error result
        outcome = {"status": "error", "error": error_object(exc), "paired": state["paired"]}
    if state["cell_id"] is None:
        # The request did not load: name the result as well as the broken file allows. A request that
        # loads is read once, by load_request.
        state.update(zip(("cell_id", "process_index", "mode"), peek(args.request)))
    result = build(
        outcome,
        state["cell_id"],
        state["process_index"],
        state["mode"],
        versions(state["library"]),
        environment(state["device"]),
        dict(phases.seconds),
        state["subject"],
    )
    try:
        write_atomically(args.result, result)
    except Exception as exc:  # noqa: BLE001 - nothing else can report it
        print(f"benchgrid_harness: cannot write result {args.result}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
