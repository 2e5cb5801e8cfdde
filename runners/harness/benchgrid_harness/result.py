"""Assemble the result object and write it exactly once, atomically."""

import json
import os
import traceback

from . import WIRE_VERSION

TRACEBACK_LINES = 15


def error_object(exc):
    """The result's `error` object: class name, message and the last lines of the traceback."""
    lines = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).splitlines()
    return {"type": type(exc).__name__, "message": str(exc), "traceback_tail": "\n".join(lines[-TRACEBACK_LINES:])}


def build(outcome, cell_id, process_index, mode, versions, environment, phases, subject=None):
    """A complete result; `outcome` holds status, reason, error, timing, exact, memory, work and paired;
    `subject` what was built (its dtype and weights), once it was."""
    return {
        "protocol": WIRE_VERSION,
        "cell_id": cell_id,
        "process_index": process_index,
        "mode": mode,
        "status": outcome["status"],
        "reason": outcome.get("reason"),
        "error": outcome.get("error"),
        "timing": outcome.get("timing"),
        "exact": outcome.get("exact"),
        "memory": outcome.get("memory"),
        "work": outcome.get("work"),
        "notes": outcome.get("notes") or [],
        "paired": outcome.get("paired"),
        "versions": versions,
        "environment": environment,
        "phases_s": phases,
        "subject": subject,
    }


def write_atomically(path, result):
    """Write RES.json via a temporary file in the same directory and os.replace, so readers never see half a file."""
    text = json.dumps(result, indent=1, sort_keys=True, allow_nan=False) + "\n"
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
