"""The rule of the float32 FIR over blocks of rows (``.fir_rows``), without numba: its
dtypes, its cost figure, which the plan selection reads before any kernel is loaded, its
kernels' halves and its passes (which ``.rows_sums`` repeats in numpy)."""

from __future__ import annotations

import sys

import numpy as np

from ._env import env_disables_internals
from ._scipy_sums import SYMMETRIC, symmetry

#: The figure where the float32 FIR over blocks of rows (``.fir_rows``) runs the
#: smoothing: float32 and 8/16-bit input, every axis a FIR.  It is set below the
#: measured break-even against the bank (docs/performance.md, *Small-sigma images*
#: and *Figures behind the code's choices*), to keep the choice on the faster side
#: of it (the FIR up to sigma 20 for those plans).
ROWS_TAPS_PER_ORDER = 20.0

#: Input and output dtypes of ``.fir_rows`` (kept here: importing it loads numba).
ROWS_INPUT_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.uint8, np.int8, np.uint16,
                                                     np.int16, np.bool_))
ROWS_OUTPUT_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.uint8, np.int8, np.uint16,
                                                      np.int16))

def vectors_expected() -> bool:
    """Whether the float32 FIR over rows runs: its explicit vectors are usable.

    Probed (``.vectors.usable``) where numba is loaded; in a process without it,
    expected unless ``SFTWAVE_DISABLE_NUMBA_INTERNALS`` turns them off (the probe
    fails only under a numba whose extension API changed), so that choosing a
    plan does not load numba.

    Examples
    --------
    >>> isinstance(vectors_expected(), bool)
    True
    """
    if "numba" in sys.modules:
        from .vectors import usable

        return usable(np.float32)
    return not env_disables_internals()


#: Elements of a row after the last filtered axis up to which they are its "channels"
#: (taps that many apart along a row); beyond, the axis is filtered as a vertical one.
MAX_CHANNELS = 16


def half_kernel(weights: np.ndarray) -> np.ndarray | None:
    """The centre-first half of a smoothing kernel, each tap repeated 16 times, in float32.

    None where the kernel is not one: fewer than 3 taps (a single tap is a
    scaling, and this module's "no pass" is a single 1), a tap not positive
    (a derivative: float32 sums of terms that cancel would lose the accuracy
    that the float64 path keeps), or not symmetric (scipy's test,
    :func:`._scipy_sums.symmetry`).  With positive taps the float32 sums
    round to a few units of 6e-8 of the data's largest magnitude.

    Examples
    --------
    >>> half_kernel(np.array([0.25, 0.5, 0.25]))[::16].tolist()
    [0.5, 0.25]
    >>> half_kernel(np.array([-1.0, 0.0, 1.0])) is None
    True
    """
    w = np.asarray(weights, dtype=np.float64)
    if (w.ndim != 1 or w.size < 3 or w.size % 2 == 0 or not np.all(w > 0)
            or symmetry(w) != SYMMETRIC):
        return None
    return np.repeat(w[w.size // 2:].astype(np.float32), 16)


def product(t) -> int:
    """The product of the integers in ``t`` (1 for none), as a Python int."""
    return int(np.prod(t, dtype=np.int64))


def plan_passes(shape: tuple[int, ...], axes: list[int]) -> list[tuple[int | None, int | None]]:
    """The passes as ``(vertical axis, horizontal axis)`` pairs (None: no such part).

    The last filtered axis is horizontal where at most :data:`MAX_CHANNELS`
    elements follow it, fused with the axis before it if that one is filtered
    too; every other filtered axis is a vertical pass of its own.  The axes
    are filtered in increasing order, as scipy and :func:`sftwave.dask.gaussian_filter`
    (one axis at a time, in float32 where this path runs) filter them: the
    same roundings in the same order, so the same bits.

    Examples
    --------
    >>> plan_passes((2000, 3000, 3), [0, 1])        # an RGB photo
    [(0, 1)]
    >>> plan_passes((128, 512, 512), [0, 1, 2])     # a volume
    [(0, None), (1, 2)]
    >>> plan_passes((512, 512), [0])
    [(0, None)]
    """
    axes = sorted(axes)
    b = axes[-1]
    last: list[tuple[int | None, int | None]] = []
    rest = axes
    if product(shape[b + 1:]) <= MAX_CHANNELS:
        a = b - 1 if (len(axes) > 1 and axes[-2] == b - 1) else None
        last = [(a, b)]
        rest = [k for k in axes if k not in (a, b)]
    passes: list[tuple[int | None, int | None]] = [(k, None) for k in rest]
    return passes + last


def pass_views(shape: tuple[int, ...], passes) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Each pass's view of the array, ``(outer, H, L)`` (``H`` the vertical axis, 1 without
    one; ``L`` the row: the horizontal axis and the channels after it, or every axis after
    the vertical one), and its step (the channels: taps that many elements apart).

    Examples
    --------
    >>> pass_views((20, 30, 3), plan_passes((20, 30, 3), [0, 1]))
    ([(1, 20, 90)], [3])
    """
    views: list[tuple[int, int, int]] = []
    steps: list[int] = []
    for va, ha in passes:
        if ha is not None:
            lead = va if va is not None else ha
            views.append((product(shape[:lead]), shape[va] if va is not None else 1, product(shape[ha:])))
            steps.append(product(shape[ha + 1:]))
        else:
            assert va is not None      # a pass filters at least one axis
            views.append((product(shape[:va]), shape[va], product(shape[va + 1:])))
            steps.append(1)
    return views, steps
