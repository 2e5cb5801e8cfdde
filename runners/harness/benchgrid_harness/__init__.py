"""benchgrid's cell harness: executes one cell of a benchmark grid in a fresh process (docs/protocol.md)."""

import json
import os

# The wire facts live in one data file that the TypeScript side reads too (src/wire.ts): the
# version of request/result files and the cell process's environment allow-list.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "wire.json"), encoding="utf-8") as _f:
    WIRE = json.load(_f)

WIRE_VERSION = WIRE["wire_version"]
