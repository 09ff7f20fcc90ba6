"""The planning of :func:`sftwave.synchrosqueeze.ssq_cwt`: what each plan reads, the blocks of
columns and the groups of scales worked on at once, and the scales' weights; pure numpy, from
the plans and the request's numbers (never the threads).

Examples
--------
>>> import numpy as np
>>> reach = np.array([[10, 10], [40, 40], [90, 90]])
>>> block_length(10**6, reach, "reflect", None), squeeze_groups(reach, 1000, 1)
(65536, [(0, 3)])
"""

from __future__ import annotations

import numpy as np

from .fit import FIRPlan, SFTPlan
from .spectral import FFTPlan

__all__ = ["GROUP_BYTES", "MIN_BLOCK", "log_scale_steps", "plan_reach", "block_length",
           "squeeze_groups"]

#: Working memory (bytes) of one group of scales' transform and derivative over a block.
GROUP_BYTES = 64 << 20
#: The least default block (columns): the margins of the small scales then cost little.
MIN_BLOCK = 1 << 16


def log_scale_steps(sigma: np.ndarray) -> np.ndarray:
    """``|d log sigma|`` at each scale (``np.gradient``: one-sided at the ends)."""
    return np.abs(np.gradient(np.log(sigma)))


def plan_reach(plan: SFTPlan | FIRPlan | FFTPlan) -> tuple[int, int]:
    """Samples before and after an output that the plan reads (at least 3: the differences)."""
    if isinstance(plan, SFTPlan):
        return max(plan.pad_before, 3), max(plan.lag, 3)
    return max(plan.radius, 3), max(plan.radius, 3)


def block_length(n: int, reach: np.ndarray, mode: str, block: int | None) -> int:
    """The columns of one block of a signal of ``n`` samples whose scales read ``reach``
    (``(scales, 2)``: samples before and after): the whole signal for ``mode='wrap'``; else
    ``block`` (None: at least :data:`MIN_BLOCK` and twice the widest reach), at least the
    widest reach (the margins then cost at most twice the block's own work), at most ``n``."""
    widest = int(reach.sum(axis=1).max())
    if mode in ("wrap", "grid-wrap"):
        return n
    if block is None:
        return min(n, max(MIN_BLOCK, 2 * widest))
    return min(n, max(block, widest))


def squeeze_groups(reach: np.ndarray, block: int, rows: int, itemsize: int = 16,
            lanes: np.ndarray | None = None, lane_multiple: int = 1) -> list[tuple[int, int]]:
    """Consecutive ranges of scales whose transform and derivative over a block fit the budget.

    ``itemsize``: bytes per coefficient of the working rows (16 complex128, 8
    complex64).  ``lanes``: the bank's lanes of each scale (its transform, and
    its derivative's where that is a transform; 0 for scales the FFT or FIR
    runs); a group ends, where it can, after a multiple of ``lane_multiple``
    lanes (the lane engine runs them in groups side by side, whose empty
    places cost as much as full ones), else where the budget ends it.  The
    ranges depend on the arguments alone (never on the threads).
    """
    S = reach.shape[0]
    per = np.zeros(S, np.int64) if lanes is None else np.asarray(lanes, np.int64)
    out: list[tuple[int, int]] = []
    s0 = 0
    while s0 < S:
        s1 = s0 + 1
        while s1 < S:
            width = block + int(reach[s0:s1 + 1].sum(axis=1).max())
            if 2 * (s1 + 1 - s0) * rows * width * itemsize > GROUP_BYTES:
                break
            s1 += 1
        if s1 < S and lane_multiple > 1:
            count = np.cumsum(per[s0:s1]) * rows          # lanes of the groups s0 .. s0 + i + 1
            whole = np.flatnonzero((count % lane_multiple == 0) & (count > 0))
            if whole.size:
                s1 = s0 + int(whole[-1]) + 1
        out.append((s0, s1))
        s0 = s1
    return out
