"""Adapters of the torchextractor runner (docs/adding-a-tool.md walks through them)."""
