"""sftwave's own thread pool: serial ``nogil`` numba kernels run side by side.

No kernel of sftwave uses numba's ``parallel=True``.  Each parallel loop is a
serial kernel over a range of independent tasks, ``kernel(lo, hi, *args)``,
compiled with ``nogil=True`` and ``cache=True``; :func:`parallel_for` splits
the tasks into chunks that the calling thread and the pool's threads take one
at a time (dynamic balancing: a thread that finishes early takes the next chunk).

Why not numba's threading layers (measured on numba 0.68):

* **fork**: after one parallel region on the GNU OpenMP layer, a forked child
  (``multiprocessing`` and ``concurrent.futures`` with fork, joblib) hung or
  broke; a Python thread pool is simply recreated in the child
  (``os.register_at_fork``).
* **calls from many user threads**: first calls to parallel kernels from 2 to 8
  threads at once crashed the process in most runs; here each user thread runs
  its own chunks and shares the helper threads, and the kernels are plain
  compiled functions.
* **spin-waiting**: OpenMP's workers spin after each region, which cost
  milliseconds per call when the other core was busy (docs/performance.md,
  *Threads* and *Figures behind the code's choices*); idle pool threads sleep.
* **disk cache**: parallel kernels loaded from numba's cache crashed a second
  process; serial kernels are cached like every other.

How many threads.  :func:`threads` is what a parallel loop of the calling
thread runs on; the first of these that is set decides:

1. a call's ``workers=`` argument, then :func:`sftwave.set_workers` (both
   :class:`limit`: the calling thread only, so concurrent callers with
   different ``workers=`` do not disturb each other);
2. the process-wide default, :func:`default_threads`, which is, in turn,

   a. what :func:`set_default_threads` set last: ``threadpoolctl``'s
      ``threadpool_limits`` sets it (and restores it) as it does the BLAS
      libraries' (see :func:`register_with_threadpoolctl`);
   b. the environment variable ``SFTWAVE_NUM_THREADS`` (a positive integer);
   c. ``OMP_NUM_THREADS`` (its first entry, a positive integer): the budget
      that dask's nanny, joblib's loky workers and many HPC schedulers give a
      process (often 1);
   d. the CPUs this process may run on (its affinity mask).

The environment is read once, at import.  A kernel running inside the pool
that asks for parallel work runs it serially (no nested waits, hence no
deadlock).

The thread count never changes the numbers: the plans do not depend on it,
and every kernel's work is cut into pieces by the data's shape alone (a
recursion restarted at a piece's start rounds differently from one run
through), so :func:`parallel_for` only deals fixed pieces out.  A result is the
same bits on one thread or sixty-four (``tests/suites/test_determinism.py``).
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

__all__ = ["threads", "limit", "parallel_for", "default_threads", "set_default_threads",
           "register_with_threadpoolctl", "watch_threadpoolctl", "SERIAL_WORK", "prepared_for"]

#: Below this much work (in the caller's units, about one multiply-add each) a
#: loop runs on the calling thread alone: handing chunks to other threads costs
#: some tens of microseconds, as much as about 1e5 multiply-adds.
SERIAL_WORK = 200_000

#: A loop whose ``work`` is known is dealt out in chunks of at most about this
#: many multiply-adds (some tens of milliseconds on one core; handing out a
#: chunk costs some microseconds): Ctrl-C, which stops a loop between chunks,
#: then ends even a long call within a fraction of a second.
CHUNK_WORK = 20_000_000

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_local = threading.local()


def _available_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _env_threads(name: str) -> int | None:
    """A positive thread count from the environment variable ``name`` (None: unset or not one).

    ``OMP_NUM_THREADS`` may list one count per nesting level (``"4,2"``): the
    first is the process's.
    """
    text = os.environ.get(name, "").split(",")[0].strip()
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value >= 1 else None


def _default_threads() -> int:
    for name in ("SFTWAVE_NUM_THREADS", "OMP_NUM_THREADS"):
        value = _env_threads(name)
        if value is not None:
            return value
    return _available_cpus()


_DEFAULT = _default_threads()


def default_threads() -> int:
    """The process-wide default thread count (what :func:`threads` is outside any :class:`limit`).

    Examples
    --------
    >>> default_threads() >= 1
    True
    """
    return _DEFAULT


def set_default_threads(n: int) -> None:
    """Set the process-wide default thread count (at least 1); :class:`limit` still wins over it.

    What threadpoolctl's ``threadpool_limits`` calls for sftwave (and calls
    again with the previous value when its limit ends).

    Examples
    --------
    >>> before = default_threads()
    >>> set_default_threads(3); default_threads()
    3
    >>> set_default_threads(before)
    """
    global _DEFAULT
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be a positive integer; got {n!r}")
    if n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}")
    _DEFAULT = int(n)


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

    def __exit__(self, *exc: object) -> Literal[False]:
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


def prepared_for(kernel: Callable, ntasks: int, *, work: float) -> Callable[..., None]:
    """:func:`parallel_for` of ``kernel`` over ``ntasks`` with this ``work``, decided once:
    ``go(*args)``.

    Below :data:`SERIAL_WORK`, ``go`` calls ``kernel(0, ntasks, *args)`` itself, as
    :func:`parallel_for` would, without its per-call Python (what a repeated small call
    saves); otherwise it calls :func:`parallel_for`.

    Examples
    --------
    >>> calls = []
    >>> go = prepared_for(lambda lo, hi, tag: calls.append((lo, hi, tag)), 4, work=10.0)
    >>> go("a"); calls
    [(0, 4, 'a')]
    """
    ntasks = int(ntasks)
    if work < SERIAL_WORK:
        if ntasks <= 0:
            return lambda *args: None
        return lambda *args: kernel(0, ntasks, *args)
    return lambda *args: parallel_for(kernel, ntasks, *args, work=work)


def parallel_for(kernel: Callable, ntasks: int, *args, work: float | None = None,
                 chunks: int | None = None) -> None:
    """Run ``kernel(lo, hi, *args)`` over chunks ``[lo, hi)`` of ``range(ntasks)``, on all threads.

    The chunks partition ``range(ntasks)``; the kernel must treat its tasks
    independently (each writes its own outputs), so the result does not depend
    on which thread ran which chunk.  ``work`` (about one multiply-add per
    unit), if given and below :data:`SERIAL_WORK`, keeps the loop on the calling
    thread.  ``chunks`` (default four per thread, and more where ``work``
    exceeds :data:`CHUNK_WORK` per chunk) sets how finely the tasks are dealt
    out: few heavy tasks balance best one per chunk.  Exceptions raised by the
    kernel on any thread are re-raised here after every chunk has finished.

    An exception in the calling thread (``KeyboardInterrupt`` from Ctrl-C,
    which Python delivers when a chunk's kernel returns) stops the loop: no
    thread starts another chunk, so the call ends within about one chunk's
    time (at most :data:`CHUNK_WORK` multiply-adds where ``work`` is known).
    """
    ntasks = int(ntasks)
    if ntasks <= 0:
        return
    nthreads = min(threads(), ntasks)
    if (nthreads <= 1 or getattr(_local, "in_pool", False)
            or (work is not None and work < SERIAL_WORK)):
        kernel(0, ntasks, *args)
        return
    if chunks is None:
        chunks = 4 * nthreads
        if work is not None:
            chunks = max(chunks, math.ceil(work / CHUNK_WORK))
    nchunks = min(ntasks, max(1, int(chunks)))
    bounds = [ntasks * i // nchunks for i in range(nchunks + 1)]
    counter = itertools.count()  # next() on it is atomic under the GIL
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            i = next(counter)
            if i >= nchunks:
                return
            kernel(bounds[i], bounds[i + 1], *args)

    pool = _get_pool()
    helpers = [pool.submit(drain) for _ in range(nthreads - 1)]
    try:
        drain()
    except BaseException:
        stop.set()          # Ctrl-C or an error here: the other threads take no more chunks
        raise
    finally:
        errors = [f.exception() for f in helpers]
    for err in errors:
        if err is not None:
            raise err


# ----------------------------------------------------------------------------- threadpoolctl

#: threadpoolctl finds a library's controller through a shared library loaded in
#: the process whose file name starts with one of the controller's prefixes.
#: sftwave's pool is Python threads, with no library of its own, so its
#: controller is found through numpy's core extension module, which every
#: process that imports sftwave has loaded (its ``filepath`` in
#: ``threadpool_info()`` is that module's).
THREADPOOLCTL_ANCHOR = "_multiarray_umath"

_registered = False


@functools.lru_cache(maxsize=1)
def _version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sftwave")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return None


def register_with_threadpoolctl() -> bool:
    """Register sftwave's pool with threadpoolctl (once): it is then listed and limited as BLAS is.

    ``threadpoolctl.threadpool_info()`` lists it (``user_api`` and
    ``internal_api`` ``'sftwave'``, ``num_threads`` :func:`default_threads`),
    and ``threadpool_limits(n)`` sets the process-wide default
    (:func:`set_default_threads`), restoring it when the limit ends; a call's
    ``workers=`` and :func:`sftwave.set_workers` still win over it.  Needs
    threadpoolctl 3.2 or later (custom controllers); returns whether sftwave is
    registered.  ``import sftwave`` arranges for this to run when threadpoolctl
    is first imported (:func:`watch_threadpoolctl`), so user code never calls it.

    Examples
    --------
    >>> import sftwave
    >>> from threadpoolctl import threadpool_info, threadpool_limits
    >>> [p["internal_api"] for p in threadpool_info() if p["user_api"] == "sftwave"]
    ['sftwave']
    >>> with threadpool_limits(1):
    ...     sftwave.get_workers()
    1
    """
    global _registered
    import threadpoolctl

    with _lock:
        if _registered:
            return True
        base: Any = getattr(threadpoolctl, "LibController", None)
        register = getattr(threadpoolctl, "register", None)
        if base is None or register is None:   # threadpoolctl < 3.2
            return False

        class SftwaveController(base):
            """sftwave's thread pool: its process-wide default thread count."""

            user_api = "sftwave"
            internal_api = "sftwave"
            filename_prefixes = (THREADPOOLCTL_ANCHOR,)

            def get_num_threads(self) -> int:
                return default_threads()

            def set_num_threads(self, num_threads: int) -> None:
                set_default_threads(max(1, int(num_threads)))

            def get_version(self) -> str | None:
                return _version()

        register(SftwaveController)
        _registered = True
        return True


def watch_threadpoolctl() -> None:
    """Register with threadpoolctl if it is imported (else nothing: ``import sftwave``
    left a finder that registers when it is, without importing it).

    threadpoolctl must know sftwave's controller before a ``threadpool_limits``
    block starts (it looks for libraries when a limit is entered), and importing
    it with sftwave would slow ``import sftwave`` measurably (docs/performance.md,
    *Figures behind the code's choices*).
    """
    if "threadpoolctl" in sys.modules:
        try:
            register_with_threadpoolctl()
        except Exception:  # pragma: no cover - a broken threadpoolctl: nothing to control
            pass
