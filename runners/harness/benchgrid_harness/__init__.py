"""benchgrid's cell harness: executes one cell of a benchmark grid in a fresh process (docs/protocol.md)."""

PROTOCOL = 1
