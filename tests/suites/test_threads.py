"""Calls from many threads and forked processes, the thread pool, and the process's thread budget.

sftwave runs its parallel loops on a pool of its own (``sftwave.engines.numba.pool``), not
on numba's OpenMP layer, which crashed when several user threads made the
first calls and broke forked children.  These tests run in fresh processes:
the first calls, numba's compilation and the plan design must happen in the
threads themselves, and a fork must follow real parallel work.
"""

from __future__ import annotations

import json
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


@pytest.fixture(scope="module")
def first_calls(tmp_path_factory) -> list[dict]:
    """Two fresh processes of 8 threads making every public call's first calls, one after the
    other on the same new numba and plan caches; each one's numba counters
    (``threads_child.py --counters``).  The first compiles and designs in its threads, the second
    loads what the first stored: one empty-cache compile serves the tests below."""
    env = _fresh_env(tmp_path_factory.mktemp("first_calls"))
    reports = []
    for _ in ("empty caches", "filled caches"):
        proc = subprocess.run([sys.executable, str(HERE / "threads_child.py"), "8", "--counters"],
                              env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
        assert proc.stdout.startswith("OK"), proc.stdout
        reports.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return reports


@pytest.mark.slow
def test_eight_threads_first_calls_match_sequential(first_calls):
    """8 threads call every public function at once in fresh processes: no crash, same bits.

    Twice: with empty numba and plan caches (compilation and design in the
    threads), then with the caches the first run filled (loading in the
    threads; the old OpenMP kernels crashed here in 3 of 5 runs).  Each run
    printed ``OK`` (every threaded result equal to the sequential one).
    """
    assert len(first_calls) == 2


@pytest.mark.slow
def test_second_process_loads_every_kernel(first_calls):
    """No compile in any process but the first: every CPU kernel is loaded from numba's cache.

    The two processes above share a new, empty ``NUMBA_CACHE_DIR`` and make the same calls
    (scalograms in float64 and float32, complex and power, decimated or not, several xi, with
    bank and FIR rows; Gaussian filters of orders 0..2 in 1-D, 2-D and 3-D, float64, float32
    and uint8).  numba's counters per dispatcher (a miss is a compile): the first process
    compiled, the second compiled nothing and loaded only what the first compiled.
    """
    first, second = first_calls
    compiled = {name: misses for name, (hits, misses) in first.items() if misses}
    assert compiled, "the first process compiled nothing: the counters are not read"
    recompiled = {name: misses for name, (hits, misses) in second.items() if misses}
    assert not recompiled, f"compiled again in the second process: {recompiled}"
    # what Python calls is loaded; a kernel called only from other kernels (compiled
    # into them) is neither loaded nor compiled in the second process
    loaded = {name for name, (hits, misses) in second.items() if hits}
    assert loaded, "the second process loaded nothing"
    assert loaded <= set(compiled)


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


def test_ctrl_c_in_the_calling_thread_stops_the_other_threads_taking_chunks():
    """KeyboardInterrupt (Ctrl-C) raised in the calling thread's chunk: the pool's threads
    finish the chunk they hold and take no other, so the call ends within about a chunk
    (before, they drained every remaining chunk first: here all 200)."""
    import time

    main = threading.current_thread()
    ran = []

    def kernel(lo, hi):
        if threading.current_thread() is main:
            time.sleep(0.02)           # let the helper start its first chunk
            raise KeyboardInterrupt
        ran.append(lo)
        time.sleep(0.005)

    with _pool.limit(2), pytest.raises(KeyboardInterrupt):
        _pool.parallel_for(kernel, 200, chunks=200)
    assert 1 <= len(ran) <= 10, len(ran)


def test_known_work_is_dealt_in_chunks_of_bounded_work():
    """A loop of much work is cut into chunks of at most about CHUNK_WORK, so that Ctrl-C,
    delivered between chunks, ends it soon; the tasks are still each run once."""
    calls = []

    def kernel(lo, hi):
        calls.append((lo, hi))

    ntasks, work = 10_000, 100 * _pool.CHUNK_WORK
    with _pool.limit(2):
        _pool.parallel_for(kernel, ntasks, work=work)
    assert len(calls) >= 100
    assert sorted(t for lo, hi in calls for t in range(lo, hi)) == list(range(ntasks))


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


@pytest.mark.parametrize("value,omp,expect", [
    ("1", None, 1), ("3", None, 3), ("0", None, None), ("many", None, None),
    (None, "1", 1), (None, "3", 3), (None, "3,2", 3), (None, "0", None), (None, "x", None),
    ("2", "1", 2), ("0", "1", 1), ("many", "5", 5)])
def test_thread_count_from_the_environment(value, omp, expect, monkeypatch):
    """SFTWAVE_NUM_THREADS sets the default thread count, else OMP_NUM_THREADS (its first level),
    else the CPUs; a value that is not a positive integer is ignored.  The rule that the pool
    applies at import, applied here to each environment (the import itself: the test below)."""
    for name, v in (("SFTWAVE_NUM_THREADS", value), ("OMP_NUM_THREADS", omp)):
        if v is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, v)
    expected = _pool._available_cpus() if expect is None else expect
    assert _pool._default_threads() == expected


def test_thread_count_is_read_from_the_environment_at_import():
    """A fresh process: the count its environment names is the default get_workers reports
    (SFTWAVE_NUM_THREADS not a count, so OMP_NUM_THREADS's first level)."""
    code = "import sftwave\nprint(sftwave.get_workers())"
    env = dict(os.environ, SFTWAVE_NUM_THREADS="many", OMP_NUM_THREADS="5,2")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout) == 5


_THREADPOOLCTL = r"""
import json, sys, threading
first = sys.argv[1]
if first == "threadpoolctl":
    import threadpoolctl
import sftwave
from sftwave.engines.numba import pool
from threadpoolctl import threadpool_info, threadpool_limits


def threads_used():
    names = set()
    pool.parallel_for(lambda lo, hi: names.add(threading.current_thread().name), 64)
    return len(names)


out = {"info": [p for p in threadpool_info() if p["user_api"] == "sftwave"],
       "before": sftwave.get_workers()}
with threadpool_limits(1):
    out["limited"] = sftwave.get_workers()
    out["used_limited"] = threads_used()         # the loop ran on the calling thread alone
    out["info_limited"] = [p["num_threads"] for p in threadpool_info()
                           if p["user_api"] == "sftwave"]
    with sftwave.set_workers(3):
        out["explicit"] = sftwave.get_workers()
    seen = []
    t = threading.Thread(target=lambda: seen.append(sftwave.get_workers()))
    t.start(); t.join()
    out["other_thread"] = seen[0]
with threadpool_limits({"sftwave": 2}):
    out["by_api"] = sftwave.get_workers()
out["after"] = sftwave.get_workers()
out["hooked"] = [type(f).__name__ for f in sys.meta_path
                 if "RegisterWhenImported" in type(f).__name__]
out["numba"] = "numba" in sys.modules
print(json.dumps(out))
"""


@pytest.mark.parametrize("first", ["sftwave", "threadpoolctl"])
def test_threadpoolctl_lists_and_limits_sftwave(first):
    """threadpoolctl lists sftwave's pool and threadpool_limits limits it process-wide (every
    thread's default, restored after), as it limits BLAS; set_workers still wins inside.  Either
    import order (sftwave registers when threadpoolctl is imported, without importing it); the
    listing does not load the engine (numba)."""
    env = dict(os.environ, SFTWAVE_NUM_THREADS="4")
    proc = subprocess.run([sys.executable, "-c", _THREADPOOLCTL, first], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert [(p["internal_api"], p["num_threads"]) for p in out["info"]] == [("sftwave", 4)]
    assert out["before"] == 4
    assert out["limited"] == 1 and out["used_limited"] == 1 and out["info_limited"] == [1]
    assert out["explicit"] == 3 and out["other_thread"] == 1
    assert out["by_api"] == 2 and out["after"] == 4
    assert out["hooked"] == [] and out["numba"] is False


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


@pytest.mark.parametrize("bad,error", [(0, ValueError), (-2, ValueError), (2.0, TypeError),
                                       (True, TypeError), ("4", TypeError)])
def test_set_default_threads_rejects_what_is_not_a_positive_integer(bad, error):
    before = _pool.default_threads()
    with pytest.raises(error, match=f"n must be a positive integer; got {bad!r}"):
        _pool.set_default_threads(bad)
    assert _pool.default_threads() == before
