"""How precise a process's median is: the distribution-free 95% interval of a median, as a relative half-width.

The same rule as src/sampling/precision.ts's `medianHalfWidth`, so a process stops by precision exactly when
the orchestrator would judge its samples precise.
"""

import math


def median_half_width(values):
    """Relative half-width of the 95% order-statistic interval of the median of `values` (inf below 6 values).

    The interval is [x(j), x(k)] with j = floor(n/2 - 0.98 sqrt(n)) and k = ceil(n/2 + 1 + 0.98 sqrt(n))
    (1-based order statistics; the normal approximation of the binomial(n, 1/2) bounds). Below 6 values
    the interval would be the whole range or wider, which proves nothing, so the answer is infinity.
    """
    n = len(values)
    if n < 6:
        return math.inf
    ordered = sorted(values)
    spread = 0.98 * math.sqrt(n)
    low = max(1, math.floor(n / 2 - spread))
    high = min(n, math.ceil(n / 2 + 1 + spread))
    middle = n // 2
    med = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    if med <= 0:
        return math.inf
    return (ordered[high - 1] - ordered[low - 1]) / 2 / med
