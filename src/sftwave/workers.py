"""How many threads sftwave's CPU engine uses: scipy.fft's ``set_workers``/``get_workers``.

The first of these that is set decides, for a call in a given thread:

1. the call's own ``workers=`` argument;
2. :func:`set_workers` around it, in this thread (also for the Gaussian
   filters, which take no ``workers=``);
3. the process-wide default, in turn:

   a. a ``threadpoolctl.threadpool_limits`` block (sftwave is registered with
      threadpoolctl, which lists it in ``threadpool_info()`` with
      ``user_api='sftwave'`` and limits it as it limits BLAS);
   b. the environment variable ``SFTWAVE_NUM_THREADS`` (a positive integer);
   c. ``OMP_NUM_THREADS``: the budget that dask's nanny, joblib's workers and
      many HPC schedulers give a process;
   d. every CPU the process may run on.

The environment is read when sftwave is imported.  The thread count changes
only the speed, never the numbers: the result is the same bits whatever it is.
:mod:`sftwave.dask` gives each block its share of a worker's threads.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from . import engines
from ._checks import check_workers

__all__ = ["get_workers", "set_workers"]


def _pool_engine() -> str:
    """The engine whose thread pool these count: the registered one that takes ``workers=``."""
    return next(name for name, caps in engines.CAPABILITIES.items() if caps.workers)


def register_pool() -> None:
    """Register the engine's pool with threadpoolctl if threadpoolctl is imported.

    ``import sftwave`` arranges for this to run when threadpoolctl is imported (it
    must know sftwave's pool before a ``threadpool_limits`` block starts), without
    importing threadpoolctl itself.
    """
    engines.operation(_pool_engine(), "watch_threadpoolctl")()


register_pool()


def get_workers() -> int:
    """The number of threads the CPU engine runs on here (in this thread, now).

    Returns
    -------
    int
        The thread count, at least 1.

    See Also
    --------
    set_workers : Set the count for the calling thread.

    Examples
    --------
    >>> get_workers() >= 1
    True
    """
    return engines.operation(_pool_engine(), "threads")()


@contextlib.contextmanager
def set_workers(workers: int) -> Iterator[None]:
    """Use ``workers`` threads (-1: all cores) for the calls in this ``with`` block, in this thread.

    Parameters
    ----------
    workers : int or None
        The thread count (positive), -1 for all cores, or None for all threads
        (scipy.fft's convention).

    Returns
    -------
    context manager
        Sets the count on entry and restores it on exit.

    See Also
    --------
    get_workers : The count in effect.

    Examples
    --------
    >>> with set_workers(1):
    ...     get_workers()
    1
    """
    with engines.operation(_pool_engine(), "thread_limit")(check_workers(workers)):
        yield
