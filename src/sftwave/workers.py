"""How many threads sftwave's CPU engine uses: scipy.fft's ``set_workers``/``get_workers``.

The default is every CPU the process may use, or ``SFTWAVE_NUM_THREADS``.
:func:`set_workers` changes it for the calling thread, inside a ``with``
block, for every call there (also the Gaussian filters, which take no
``workers=``); a call's own ``workers=`` wins over it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ._checks import check_workers

__all__ = ["get_workers", "set_workers"]


def get_workers() -> int:
    """The number of threads the CPU engine runs on here (in this thread, now).

    Examples
    --------
    >>> get_workers() >= 1
    True
    """
    from .engines.numba import pool

    return pool.threads()


@contextlib.contextmanager
def set_workers(workers: int) -> Iterator[None]:
    """Use ``workers`` threads (-1: all cores) for the calls in this ``with`` block, in this thread.

    Examples
    --------
    >>> with set_workers(1):
    ...     get_workers()
    1
    """
    workers = check_workers(workers)
    from .engines.numba import pool

    with pool.limit(workers):
        yield
