"""The Wilson score interval, with the standard library only (``statistics.NormalDist``),
so that the live chance needs nothing beyond the default install."""

from __future__ import annotations

import math
from statistics import NormalDist


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (trials > 0), without
    continuity correction (Wilson 1927; Newcombe 1998, method 3)."""
    if trials <= 0:
        raise ValueError("trials must be > 0")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be 0…{trials}, not {successes}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    n = int(trials)
    p = int(successes) / n
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The exact ends: no successes, no interval below 0; all successes, none above 1.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high
