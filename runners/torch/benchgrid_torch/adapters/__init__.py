"""One module per tool; each has one function per contract it implements (see ../../manifest.json)."""
