"""The one timing helper of the experiments and of ``benchmarks/``.

:func:`time_calls` times a first call and then repeats by a :class:`Policy`
(the paper's timing sweeps, where one point may take from microseconds to
seconds); :func:`measure` is its fixed-count form (a warm-up, then the median
of ``repeats`` calls), which the benchmark scripts use.  Both time with
``time.perf_counter``, with the garbage collector off during the calls (no
collection pause inside a timed call), and report medians.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Policy", "FULL_POLICY", "QUICK_POLICY", "time_calls", "measure"]


@dataclass(frozen=True)
class Policy:
    """How often each call is repeated after its first.

    Attributes
    ----------
    max_reps : int
        At most this many timed repeats.
    min_reps : int
        At least this many, unless one repeat takes longer than ``slow_s``.
    budget_s : float
        Stop once the repeats took this long in total (and ``min_reps`` ran).
    slow_s : float
        After one repeat longer than this, stop.
    """

    max_reps: int = 15
    min_reps: int = 3
    budget_s: float = 0.3
    slow_s: float = 1.5


FULL_POLICY = Policy()
QUICK_POLICY = Policy(max_reps=3, min_reps=2, budget_s=0.02, slow_s=0.2)


def _noop() -> None:
    return None


class _gc_off:
    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: Any) -> bool:
        if self.enabled:
            gc.enable()
        return False


def time_calls(fn: Callable, arg: Any, *, sync: Callable[[], None] = _noop,
               policy: Policy = FULL_POLICY) -> dict:
    """The first call of ``fn(arg)`` and its repeats by ``policy``; ``sync()`` after each call.

    Returns ``first_s``, ``median_s``, ``min_s``, ``reps`` and the first call's
    result under ``'output'``.

    Examples
    --------
    >>> r = time_calls(sum, [1, 2, 3], policy=QUICK_POLICY)
    >>> r["output"], 2 <= r["reps"] <= 3, r["median_s"] >= 0
    (6, True, True)
    """
    with _gc_off():
        t0 = time.perf_counter()
        y = fn(arg)
        sync()
        first = time.perf_counter() - t0
        reps: list[float] = []
        while len(reps) < policy.max_reps:
            t0 = time.perf_counter()
            fn(arg)
            sync()
            reps.append(time.perf_counter() - t0)
            total = sum(reps)
            if reps[-1] > policy.slow_s or (total >= policy.budget_s and len(reps) >= policy.min_reps):
                break
    return {"first_s": first, "median_s": statistics.median(reps), "min_s": min(reps),
            "reps": len(reps), "output": y}


def measure(fn: Callable[[], Any], *, repeats: int, warmup: bool = True) -> dict:
    """Median wall time of ``fn()`` over ``repeats`` calls, after one untimed warm-up.

    Returns ``median_s``, ``min_s``, ``repeats``, ``warmup`` and the last
    result under ``'result'`` (pop it before the dict goes to JSON).

    Examples
    --------
    >>> m = measure(lambda: 2 + 2, repeats=3)
    >>> m["result"], m["repeats"], m["median_s"] >= m["min_s"] >= 0
    (4, 3, True)
    """
    result = fn() if warmup else None
    times = []
    with _gc_off():
        for _ in range(repeats):
            t0 = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "repeats": repeats,
            "warmup": warmup, "result": result}
