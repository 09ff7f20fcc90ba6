"""The rule of the float32 FIR over blocks of rows (``.fir_rows``), without numba: its
dtypes and its cost figure, which the plan selection reads before any kernel is loaded."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

import numpy as np

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


#: False within :func:`scipy_arithmetic`: the FIRs then run in scipy's arithmetic.
_ROWS_ALLOWED: contextvars.ContextVar[bool] = contextvars.ContextVar("sftwave_rows_allowed",
                                                                    default=True)


@contextlib.contextmanager
def scipy_arithmetic(on: bool = True) -> Iterator[None]:
    """Within (where ``on``): every FIR runs in scipy's arithmetic (float64, scipy's bits),
    never the float32 FIR over blocks of rows; the caller's own context, any thread.

    What :func:`sftwave.gaussian_filter` does where the user asks for scipy's kernel
    itself (``method='fir'`` or ``radius=``).

    Examples
    --------
    >>> rows_allowed()
    True
    >>> with scipy_arithmetic():
    ...     rows_allowed()
    False
    """
    if not on:
        yield
        return
    token = _ROWS_ALLOWED.set(False)
    try:
        yield
    finally:
        _ROWS_ALLOWED.reset(token)


def rows_allowed() -> bool:
    """Whether the float32 FIR over blocks of rows may run here (not within :func:`scipy_arithmetic`)."""
    return _ROWS_ALLOWED.get()
