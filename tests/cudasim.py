"""How the test processes that run CUDA kernels on numba-cuda's simulator set themselves up.

The simulator (``NUMBA_ENABLE_CUDASIM=1``) runs each thread of a block as a
Python thread, and its block manager polls them in a loop that keeps the
interpreter lock for a whole switch interval (Python's default, 5 ms) each
time.  At :data:`SWITCH_INTERVAL` the simulated threads get the lock back
sooner: ``tests/engines/cuda/cuda_checks.py`` runs in 42 s instead of 94 s
on a 2-core machine, with the same results (the interval changes only when
the interpreter switches threads, and the kernels' threads meet at their
barriers whatever the order).  tests/conftest.py sets it in every pytest
process started with the simulator on; a ``python -c`` child runs
:data:`PRELUDE` first.
"""

from __future__ import annotations

import os
import sys

#: The thread switch interval, seconds, of a process that runs the simulator.
SWITCH_INTERVAL = 5e-4

#: The line a ``python -c`` child runs first when it runs the simulator.
PRELUDE = f"import sys as _sys; _sys.setswitchinterval({SWITCH_INTERVAL!r})\n"


def simulator_on(environ=os.environ) -> bool:
    """Whether ``environ`` switches numba-cuda's simulator on."""
    return environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def set_up(environ=os.environ) -> None:
    """Set this process's switch interval if ``environ`` switches the simulator on."""
    if simulator_on(environ):
        sys.setswitchinterval(SWITCH_INTERVAL)
