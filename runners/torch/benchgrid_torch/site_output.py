"""A site's output as the contracts read and edit it: the module's output, or the first tensor of a tuple output
(`nn.MultiheadAttention` returns `(output, weights)`; weights are None unless asked for)."""


def first(output):
    """The site's tensor: the output itself, or the first element of a tuple output."""
    return output[0] if isinstance(output, tuple) else output


def replace_first(output, value):
    """`output` with its tensor (or the first element of a tuple output) replaced by `value`."""
    if isinstance(output, tuple):
        return (value,) + output[1:]
    return value
