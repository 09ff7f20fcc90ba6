"""The rule of the float32 FIR over blocks of rows (``.fir_rows``), without numba: its
dtypes and its cost figure, which the plan selection reads before any kernel is loaded."""

from __future__ import annotations

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
