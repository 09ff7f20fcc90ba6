"""sftwave's own thread pool: serial ``nogil`` numba kernels run side by side.

No kernel of sftwave uses numba's ``parallel=True``.  Each parallel loop is a
serial kernel over a range of independent tasks, ``kernel(lo, hi, *args)``,
compiled with ``nogil=True`` and ``cache=True``; :func:`parallel_for` splits
the tasks into chunks that the calling thread and the pool's threads take one
at a time (dynamic balancing: a thread that finishes early takes the next chunk).

Why not numba's threading layers (measured on numba 0.68, issue 9):

* **fork**: after one parallel region on the GNU OpenMP layer, a forked child
  (``multiprocessing`` and ``concurrent.futures`` with fork, joblib) hung or
  broke; a Python thread pool is simply recreated in the child
  (``os.register_at_fork``).
* **calls from many user threads**: first calls to parallel kernels from 2 to 8
  threads at once crashed the process in most runs; here each user thread runs
  its own chunks and shares the helper threads, and the kernels are plain
  compiled functions.
* **spin-waiting**: OpenMP's workers spin after each region, which cost about
  8 ms per call when the other core was busy; idle pool threads sleep.
* **disk cache**: parallel kernels loaded from numba's cache crashed a second
  process; serial kernels are cached like every other.

The thread count is :func:`threads` (the CPUs this process may run on, or
``SFTWAVE_NUM_THREADS``), and :class:`limit` changes it for the calling thread
only, so concurrent callers with different ``workers=`` do not disturb each
other.  A kernel running inside the pool that asks for parallel work runs it
serially (no nested waits, hence no deadlock).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["threads", "limit", "parallel_for", "SERIAL_WORK"]

#: Below this much work (in the caller's units, about one multiply-add each) a
#: loop runs on the calling thread alone: handing chunks to other threads costs
#: some tens of microseconds, as much as about 1e5 multiply-adds.
SERIAL_WORK = 200_000

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_local = threading.local()


def _available_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _default_threads() -> int:
    env = os.environ.get("SFTWAVE_NUM_THREADS", "").strip()
    if env:
        try:
            value = int(env)
        except ValueError:
            value = 0
        if value >= 1:
            return value
    return _available_cpus()


_DEFAULT = _default_threads()


def threads() -> int:
    """Threads a parallel loop of the calling thread runs on.

    Examples
    --------
    >>> with limit(1):
    ...     threads()
    1
    """
    n = getattr(_local, "limit", None)
    return _DEFAULT if n is None else n


class limit:
    """Context manager: the calling thread's loops use ``workers`` threads (None: as is)."""

    def __init__(self, workers: int | None):
        self.workers = workers
        self.previous = None

    def __enter__(self) -> limit:
        self.previous = getattr(_local, "limit", None)
        if self.workers is not None:
            _local.limit = max(1, int(self.workers))
        return self

    def __exit__(self, *exc) -> bool:
        _local.limit = self.previous
        return False


def _mark_worker() -> None:
    _local.in_pool = True


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    pool = _pool
    if pool is None:
        with _lock:
            if _pool is None:
                # helper threads: at most one per available CPU (the callers are the others)
                _pool = ThreadPoolExecutor(max_workers=max(1, _available_cpus()),
                                           thread_name_prefix="sftwave",
                                           initializer=_mark_worker)
            pool = _pool
    return pool


def _forget_pool_after_fork() -> None:
    """In a forked child the pool's threads do not exist: start afresh (and unlock)."""
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def parallel_for(kernel: Callable, ntasks: int, *args, work: float | None = None,
                 chunks: int | None = None) -> None:
    """Run ``kernel(lo, hi, *args)`` over chunks ``[lo, hi)`` of ``range(ntasks)``, on all threads.

    The chunks partition ``range(ntasks)``; the kernel must treat its tasks
    independently (each writes its own outputs), so the result does not depend
    on which thread ran which chunk.  ``work`` (about one multiply-add per
    unit), if given and below :data:`SERIAL_WORK`, keeps the loop on the calling
    thread.  ``chunks`` (default four per thread) sets how finely the tasks
    are dealt out: few heavy tasks balance best one per chunk.  Exceptions raised by the kernel on any thread are re-raised here
    after every chunk has finished.
    """
    ntasks = int(ntasks)
    if ntasks <= 0:
        return
    nthreads = min(threads(), ntasks)
    if (nthreads <= 1 or getattr(_local, "in_pool", False)
            or (work is not None and work < SERIAL_WORK)):
        kernel(0, ntasks, *args)
        return
    nchunks = min(ntasks, 4 * nthreads if chunks is None else max(1, int(chunks)))
    bounds = [ntasks * i // nchunks for i in range(nchunks + 1)]
    counter = itertools.count()  # next() on it is atomic under the GIL

    def drain() -> None:
        while True:
            i = next(counter)
            if i >= nchunks:
                return
            kernel(bounds[i], bounds[i + 1], *args)

    pool = _get_pool()
    helpers = [pool.submit(drain) for _ in range(nthreads - 1)]
    try:
        drain()
    finally:
        errors = [f.exception() for f in helpers]
    for err in errors:
        if err is not None:
            raise err
