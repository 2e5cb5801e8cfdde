"""The spec's timing settings as one table (protocol.json, which the TypeScript side reads too:
src/protocol-table.ts): the request's settings the harness checks, each with the bounds the spec's schema
gives it, so a key added to the table is checked here without a line of its own."""

import json
import math
import os

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "protocol.json"), encoding="utf-8") as _f:
    TABLE = json.load(_f)


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    """A finite int or float (JSON's 1e999 loads as infinity, NaN as nan: neither is a setting)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _fmt(n):
    return str(int(n)) if float(n).is_integer() else str(n)


def _expected(row, nullable):
    """What the rule expects, in words: 'an integer from 1 to 100000', 'null or a number between 0 and 1'."""
    low, high = row.get("minimum"), row.get("maximum")
    if row["type"] == "integer":
        words = f"an integer from {_fmt(low)} to {_fmt(high)}"
    elif "exclusiveMinimum" in row and "exclusiveMaximum" in row:
        words = f"a number between {_fmt(row['exclusiveMinimum'])} and {_fmt(row['exclusiveMaximum'])}"
    elif low == 0 and high is None:
        words = "a non-negative finite number"
    else:
        unit = "a number of seconds" if row["key"].endswith("_s") or "seconds" in row["key"] else "a number"
        span = f"from {_fmt(low)} to" if low is not None else f"above {_fmt(row['exclusiveMinimum'])}, at most"
        words = f"{unit} {span} {_fmt(high)}"
    return f"null or {words}" if nullable else words


def _fits(row, nullable, value):
    """Whether `value` is a setting of the row's type within its bounds (None too where the row may be null)."""
    if nullable and value is None:
        return True
    return (
        (is_int(value) if row["type"] == "integer" else is_number(value))
        and ("minimum" not in row or value >= row["minimum"])
        and ("maximum" not in row or value <= row["maximum"])
        and ("exclusiveMinimum" not in row or value > row["exclusiveMinimum"])
        and ("exclusiveMaximum" not in row or value < row["exclusiveMaximum"])
    )


def _checked_rows():
    """(row, nullable, required) of each request setting the table bounds: the keys the harness receives (a
    key whose default is null may be absent, meaning null), then the derived ones; an object setting
    (float32_tolerance) is request.py's to check."""
    rows = [(r, r.get("default", 0) is None, r.get("default", 0) is not None) for r in TABLE["keys"] if r["harness"]]
    return rows + [(r, False, r["required"]) for r in TABLE["request"] if r["type"] != "object"]


def expected(key):
    """What a setting's rule expects, in words (as a problem line says it)."""
    return next(_expected(row, nullable) for row, nullable, _ in _checked_rows() if row["key"] == key)


def settings_problems(settings):
    """Every bound of the table that the request's `settings` (a dict) break, as 'settings.KEY: ...' lines."""
    problems = []
    for row, nullable, required in _checked_rows():
        path = f"settings.{row['key']}"
        if row["key"] not in settings:
            if required:
                problems.append(f"{path}: missing (expected {_expected(row, nullable)})")
        elif not _fits(row, nullable, settings[row["key"]]):
            problems.append(
                f"{path}: expected {_expected(row, nullable)} (got {json.dumps(settings[row['key']])[:80]})"
            )
    return problems


def maximum(key):
    """The table's largest value of `key` (e.g. samples: the bound of every count the harness loops over)."""
    return next(row["maximum"] for row in TABLE["keys"] if row["key"] == key)
