"""What selfcheck.py makes of its cells' results: schema checks, one table row per cell, and the table.

A row is (label, expected, got, median ms, samples, note); a cell passes when what it got is what was
expected (and a timed-out one had its whole process tree killed).
"""

import json
import statistics
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def validator(schema_name):
    """A function returning a list of schema errors, or None when jsonschema is not importable."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.loads((REPO / "schemas" / schema_name).read_text(encoding="utf-8"))
    checker = jsonschema.Draft202012Validator(schema)
    return lambda data: [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in checker.iter_errors(data)]


def outcome(result):
    """(got, median ms, samples, note) of a result file that parsed and has the fields the table reads."""
    got, median, count, note = result["status"], "", "", ""
    if result["status"] == "ok" and result["mode"] == "memory":
        got += " memory"
        note = f"peak RSS {result['memory']['peak_rss_bytes'] / 2**20:.0f} MiB"
    elif result["status"] == "ok":
        samples = result["timing"]["samples_ms"]
        median, count = f"{statistics.median(samples):.2f}", str(len(samples))
        exact = result["exact"]
        if exact is not None:
            got += f" {exact['verdict']}"
            note = f"max_abs_diff {exact['max_abs_diff']}"
        else:
            note = "reference null"
    elif result["status"] == "unsupported":
        note = result["reason"]
    else:
        note = f"{result['error']['type']}: {result['error']['message']}".replace("\n", " ")
    return got, median, count, note[:110]


def print_table(rows):
    """Prints the rows under a header, FAIL before each cell that did not behave; returns how many did not."""
    header = ("cell", "expected", "got", "median ms", "n", "note")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(5)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)) + "  note")
    failed = 0
    for row in rows:
        ok = row[2] == row[1] and not (row[1] == "timeout" and row[5] != "tree killed")
        failed += not ok
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)) + f"  {'' if ok else 'FAIL '}{row[5]}")
    return failed
