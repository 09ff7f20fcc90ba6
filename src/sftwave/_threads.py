"""Thread control for the design layer's small linear-algebra problems."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


def single_threaded_blas(func: F) -> F:
    """Run ``func`` with the BLAS/LAPACK libraries on one thread.

    The design layer solves many least-squares problems of a few hundred to a
    few thousand rows.  A multi-threaded OpenBLAS spends longer synchronising
    its threads on such problems than computing: three times slower on an
    idle 2-core machine, 8 to 100 times slower when the cores are busy
    (measured).  Uses threadpoolctl; restores the previous limits on return.
    Wrap the function beneath any cache, so cache hits pay nothing.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def check_workers(workers, name: str = "workers") -> int | None:
    """scipy.fft's convention: None (all threads), a positive count, or -1 for all cores."""
    import numbers
    import os

    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral):
        raise TypeError(f"{name} must be None or an integer; got {workers!r}")
    workers = int(workers)
    cores = os.cpu_count() or 1
    if workers == -1:
        return cores
    if workers < 1:
        raise ValueError(f"{name} must be a positive integer or -1; got {workers!r}")
    return workers
