"""Thread control for the plans' small linear-algebra problems (one design at a time, BLAS on one thread)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


#: Plan design runs one at a time in a process (see :func:`single_threaded_blas`).
DESIGN_LOCK = threading.RLock()


@functools.lru_cache(maxsize=1)
def _controller():
    """threadpoolctl's view of the loaded BLAS libraries, found once per process.

    ``threadpool_limits`` searches the process's loaded libraries at every
    call (0.3 to 0.8 ms, measured: 0.15 s of a 200-frequency design); the
    designs solve with numpy's LAPACK, which is loaded before any design runs,
    so one search suffices.
    """
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def single_threaded_blas(func: F) -> F:
    """Run ``func`` with the BLAS/LAPACK libraries on one thread, one design at a time.

    The design layer solves many least-squares problems of a few hundred to a
    few thousand rows.  A multi-threaded OpenBLAS spends longer synchronising
    its threads on such problems than computing: three times slower on an
    idle 2-core machine, 8 to 100 times slower when the cores are busy
    (measured).  Uses threadpoolctl; restores the previous limits on return.
    Wrap the function beneath any cache, so cache hits pay nothing.

    threadpoolctl's limit is process-wide: a design finishing in one thread
    restored the BLAS thread count while another thread's design was still
    solving, whose fits then rounded differently (threaded scalograms differed
    from sequential ones in the last bits in 2 of 3 runs with empty caches).
    So designs hold one re-entrant lock: they run one at a time, each under
    the same one-thread limit, and give the same bits whichever thread runs them.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with DESIGN_LOCK, _controller().limit(limits=1, user_api="blas"):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]

