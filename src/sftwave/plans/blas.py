"""Thread control for the plans' small linear-algebra problems (one design at a time, BLAS on one thread)."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


#: Plan design runs one at a time in a process (see :func:`single_threaded_blas`).
DESIGN_LOCK = threading.RLock()


def single_threaded_blas(func: F) -> F:
    """Run ``func`` with the BLAS/LAPACK libraries on one thread, one design at a time.

    The design layer solves many least-squares problems of a few hundred to a
    few thousand rows.  A multi-threaded OpenBLAS spends longer synchronising
    its threads on such problems than computing: several times slower than
    one thread on an idle machine, and far slower again when the cores are
    busy (measured: docs/performance.md, *Figures behind the code's choices*).
    Uses threadpoolctl; restores the previous limits on return.
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
        with _limited():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


_held = threading.local()


@contextlib.contextmanager
def one_blas_thread():
    """Hold the limit of :func:`single_threaded_blas` across many designs in this thread.

    Setting the limit searches the process's loaded libraries (threadpoolctl:
    a cost that adds up over a scalogram's designs, docs/performance.md), so a caller that may design many plans (a
    scalogram's frequencies) wraps them in this: the first design inside sets
    the limit and it is kept until the context ends; the later designs pay
    nothing for it, and if every plan comes from a cache nothing is set at all.
    (A controller kept from one search would miss BLAS libraries loaded
    later, scipy's own for one.)

    Examples
    --------
    >>> with one_blas_thread():
    ...     with one_blas_thread():   # nested: the outer context keeps the limit
    ...         pass
    """
    if getattr(_held, "batch", None) is not None:
        yield
        return
    _held.batch = contextlib.ExitStack()
    try:
        with _held.batch:
            yield
    finally:
        _held.batch = None


@contextlib.contextmanager
def _limited():
    """DESIGN_LOCK and one BLAS thread: for this call, or kept by an enclosing :func:`one_blas_thread`."""
    batch = getattr(_held, "batch", None)
    if batch is not None:
        if not getattr(_held, "set", False):
            batch.enter_context(_lock_and_limit())
        yield
        return
    with _lock_and_limit():
        yield


@contextlib.contextmanager
def _lock_and_limit():
    from threadpoolctl import threadpool_limits

    with DESIGN_LOCK, threadpool_limits(limits=1, user_api="blas"):
        _held.set = True
        try:
            yield
        finally:
            _held.set = False
