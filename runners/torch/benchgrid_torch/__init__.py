"""benchgrid's plain-PyTorch runner: the reference tools (raw forward, forward hooks, torchvision FX)."""
