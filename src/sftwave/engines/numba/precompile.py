"""Fill numba's disk cache ahead of time: run warm-up calls and count what each compiled.

A kernel is compiled the first time a process calls it with new argument
types, and stored in numba's disk cache (``_jit``); later processes load it.
:func:`precompile` runs the calls it is given (the command line's ``sftwave
compile`` gives the common calls of each family) and reports, for each, how
many of this engine's kernel specialisations it compiled and loaded, with
numba's own counters (``dispatcher.stats``).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from collections.abc import Callable, Iterable

__all__ = ["precompile", "kernel_counts"]


def _dispatchers() -> list:
    """Every numba dispatcher defined in this engine's modules (each module imported now)."""
    from numba.core.registry import CPUDispatcher

    package = __name__.rpartition(".")[0]
    found = []
    for info in pkgutil.iter_modules(sys.modules[package].__path__):
        module = importlib.import_module(f"{package}.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                found.append(obj)
    return found


def kernel_counts() -> tuple[int, int]:
    """``(compiled, loaded)``: kernel specialisations compiled and loaded from disk in this process.

    Examples
    --------
    >>> compiled, loaded = kernel_counts()
    >>> compiled >= 0 and loaded >= 0
    True
    """
    compiled = loaded = 0
    for dispatcher in _dispatchers():
        stats = dispatcher.stats
        compiled += sum(stats.cache_misses.values())
        loaded += sum(stats.cache_hits.values())
    return compiled, loaded


def precompile(calls: Iterable[tuple[str, Callable[[], object]]],
               progress: Callable[[str], None] | None = None) -> list[dict]:
    """Run each ``(label, call)``, so that the kernels it needs are compiled and cached on disk.

    Returns one record per call: its label, the seconds it took, and the
    kernel specialisations it compiled and loaded from the cache.  ``progress``
    receives a line before and after each call.

    Examples
    --------
    >>> import numpy as np
    >>> records = precompile([("sum", lambda: np.ones(3).sum())])
    >>> records[0]["label"], records[0]["compiled"]
    ('sum', 0)
    """
    calls = list(calls)
    records = []
    before = kernel_counts()
    for i, (label, call) in enumerate(calls, 1):
        if progress is not None:
            progress(f"[{i}/{len(calls)}] {label} ...")
        t0 = time.perf_counter()
        call()
        seconds = time.perf_counter() - t0
        after = kernel_counts()
        record = {"label": label, "seconds": seconds, "compiled": after[0] - before[0],
                  "loaded": after[1] - before[1]}
        records.append(record)
        before = after
        if progress is not None:
            progress(f"[{i}/{len(calls)}] {label}: {record['compiled']} kernels compiled, "
                     f"{record['loaded']} loaded from the cache, {seconds:.1f} s")
    return records
