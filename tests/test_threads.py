"""Calls from many threads and forked processes (issue 9, items 2 and 3), and the thread pool.

sftwave runs its parallel loops on a pool of its own (``sftwave.engines.numba.pool``), not
on numba's OpenMP layer, which crashed when several user threads made the
first calls and broke forked children.  These tests run in fresh processes:
the first calls, numba's compilation and the plan design must happen in the
threads themselves, and a fork must follow real parallel work.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from sftwave.engines.numba import pool as _pool

HERE = Path(__file__).resolve().parent


def _fresh_env(tmp_path: Path) -> dict:
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")        # empty: compile in the threads
    env["SFTWAVE_CACHE_DIR"] = str(tmp_path / "plans")      # empty: design in the threads
    env.pop("SFTWAVE_NUM_THREADS", None)
    return env


@pytest.mark.slow
def test_eight_threads_first_calls_match_sequential(tmp_path):
    """8 threads call every public function at once in fresh processes: no crash, same bits.

    Twice: with empty numba and plan caches (compilation and design in the
    threads), then with the caches the first run filled (loading in the
    threads; the old OpenMP kernels crashed here in 3 of 5 runs).
    """
    env = _fresh_env(tmp_path)
    for _ in ("empty caches", "filled caches"):
        proc = subprocess.run([sys.executable, str(HERE / "threads_child.py"), "8"],
                              env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
        assert proc.stdout.startswith("OK"), proc.stdout


_FORK = r"""
import multiprocessing as mp
import sys
from concurrent.futures import ProcessPoolExecutor
import numpy as np
import sftwave

x = np.random.default_rng(1).standard_normal((4, 20_000))
freqs = np.geomspace(0.003, 0.45, 12)

def job(i):
    return (sftwave.cwt(x[i], freqs, output="power"), sftwave.gaussian_filter1d(x[i], 50.0),
            sftwave.gaussian_filter(x, (0.0, 2.0))[i])

# parallel work in the parent first (the pool's threads exist when it forks)
parent = [job(i) for i in range(4)]
ctx = mp.get_context("fork")
with ProcessPoolExecutor(2, mp_context=ctx) as ex:
    children = list(ex.map(job, range(4)))
with ctx.Pool(2) as pool:
    children2 = pool.map(job, range(4))
for got in (children, children2):
    for a, b in zip(got, parent):
        for u, v in zip(a, b):
            assert np.array_equal(u, v)
print("OK")
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_fork_pools_after_a_call(tmp_path):
    """ProcessPoolExecutor and multiprocessing.Pool with fork work after sftwave has run."""
    proc = subprocess.run([sys.executable, "-c", _FORK], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONWARNINGS="ignore"))
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-2000:])
    assert proc.stdout.strip() == "OK"
    assert "OpenMP" not in proc.stderr


def test_no_numba_threading_layer_is_started():
    """No kernel uses numba's parallel=True, so numba never starts a threading layer."""
    code = ("import numpy as np, numba, sftwave\n"
            "sftwave.cwt(np.random.default_rng(0).standard_normal(30_000), [0.01, 0.1, 0.3])\n"
            "sftwave.gaussian_filter(np.ones((300, 300)), 40.0)\n"
            "try:\n    print(numba.threading_layer())\n"
            "except ValueError:\n    print('none')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "none"


# ----------------------------------------------------------------------------- the pool


def _record(lo, hi, seen, lock):
    with lock:
        seen.extend(range(lo, hi))


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
@pytest.mark.parametrize("ntasks", [1, 2, 7, 100])
def test_parallel_for_covers_each_task_once(workers, ntasks):
    seen: list[int] = []
    lock = threading.Lock()
    with _pool.limit(workers):
        _pool.parallel_for(_record, ntasks, seen, lock)
    assert sorted(seen) == list(range(ntasks))


def test_parallel_for_small_work_stays_on_the_calling_thread():
    names = set()

    def kernel(lo, hi):
        names.add(threading.current_thread().name)

    with _pool.limit(4):
        _pool.parallel_for(kernel, 16, work=_pool.SERIAL_WORK - 1)
    assert names == {threading.current_thread().name}


def test_parallel_for_reraises_a_kernel_error():
    def kernel(lo, hi):
        if lo <= 5 < hi:
            raise ZeroDivisionError("task 5")

    with _pool.limit(3), pytest.raises(ZeroDivisionError, match="task 5"):
        _pool.parallel_for(kernel, 12)


def test_limit_is_per_thread():
    """workers= of one caller does not change the thread count another caller sees."""
    inside = threading.Event()
    release = threading.Event()
    seen = []

    def other():
        with _pool.limit(1):
            inside.set()
            release.wait(10)

    t = threading.Thread(target=other)
    t.start()
    inside.wait(10)
    seen.append(_pool.threads())
    release.set()
    t.join()
    assert seen == [_pool._DEFAULT]
    with _pool.limit(5):
        assert _pool.threads() == 5
    assert _pool.threads() == _pool._DEFAULT


def test_nested_parallel_for_runs_inline():
    """A kernel on a pool thread that asks for parallel work runs it itself (no deadlock)."""
    seen: list[int] = []
    lock = threading.Lock()

    def outer(lo, hi):
        for _ in range(lo, hi):
            _pool.parallel_for(_record, 10, seen, lock)

    with _pool.limit(4):
        _pool.parallel_for(outer, 8)
    assert sorted(seen) == sorted(list(range(10)) * 8)


def test_results_do_not_depend_on_which_thread_ran_a_chunk():
    import sftwave

    x = np.random.default_rng(3).standard_normal((7, 30_000))
    ref = sftwave.cwt(x, [0.01, 0.05, 0.2], output="power")
    for _ in range(3):
        assert np.array_equal(sftwave.cwt(x, [0.01, 0.05, 0.2], output="power"), ref)


def test_plan_designs_run_one_at_a_time_with_one_blas_thread():
    """Designs in several threads never overlap, and each sees BLAS limited to one thread.

    threadpoolctl's limit is process-wide: overlapping designs used to restore
    each other's BLAS thread count mid-fit, and threaded scalograms then
    differed from sequential ones in the last bits.
    """
    import time

    from threadpoolctl import threadpool_info

    from sftwave.plans.blas import single_threaded_blas

    state = {"active": 0, "most": 0, "blas": set()}
    lock = threading.Lock()

    @single_threaded_blas
    def design(i):
        with lock:
            state["active"] += 1
            state["most"] = max(state["most"], state["active"])
        state["blas"].update(p["num_threads"] for p in threadpool_info()
                             if p["user_api"] == "blas")
        time.sleep(0.005)
        with lock:
            state["active"] -= 1
        return i

    threads = [threading.Thread(target=design, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["most"] == 1
    assert state["blas"] <= {1}


@pytest.mark.parametrize("value,expect", [("1", 1), ("3", 3), ("0", None), ("many", None)])
def test_thread_count_from_the_environment(value, expect):
    """SFTWAVE_NUM_THREADS sets the default thread count; not a positive integer: ignored."""
    code = "from sftwave.engines.numba import pool as _pool; print(_pool.threads(), _pool._available_cpus())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, SFTWAVE_NUM_THREADS=value))
    assert proc.returncode == 0, proc.stderr[-2000:]
    threads, cpus = map(int, proc.stdout.split())
    assert threads == (cpus if expect is None else expect)


def test_one_blas_thread_sets_the_limit_once_for_many_designs(monkeypatch):
    """Inside ``one_blas_thread`` the limit is set at the first design only, held until the
    context ends (designs see one BLAS thread and hold the design lock), and not set at all
    when nothing is designed (every plan from a cache)."""
    import threadpoolctl
    from threadpoolctl import threadpool_info

    from sftwave.plans import blas

    calls = []
    real = threadpoolctl.threadpool_limits

    def counting(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(threadpoolctl, "threadpool_limits", counting)

    @blas.single_threaded_blas
    def design():
        return ({p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"},
                blas.DESIGN_LOCK._is_owned())

    with blas.one_blas_thread():
        pass
    assert calls == []
    with blas.one_blas_thread():
        first, second = design(), design()
        assert blas.DESIGN_LOCK._is_owned()
    assert len(calls) == 1
    assert first == second == ({1}, True)
    assert not blas.DESIGN_LOCK._is_owned()
    design()
    assert len(calls) == 2
