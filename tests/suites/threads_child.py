"""Child script of tests/suites/test_threads.py and benchmarks/probes/threads_stress.py: many threads, first calls.

Run as ``python tests/suites/threads_child.py THREADS``.  First, for each public
function in turn, ``THREADS`` threads released together by a barrier make the
same call at once (the crash this guards against: concurrent first calls of
one kernel, whether numba compiles it or loads it from its cache, and
concurrent plan design); then every thread runs all the calls, each starting
at a different one.  Finally each call runs once sequentially; the script
prints ``OK`` when every threaded result equals the sequential one bit for
bit, and exits non-zero otherwise.  A crash of the process is what the
callers watch for.

With ``--counters`` it then prints, as one JSON line, numba's own counters for
every CPU-engine dispatcher (``dispatcher.stats.cache_hits`` and
``cache_misses``, summed over signatures: a miss is a compile), for
tests/suites/test_threads.py's check that a second process compiles nothing.
"""

from __future__ import annotations

import json
import sys
import threading

import numpy as np

import sftwave


def calls() -> list[tuple[str, object]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(50_000)
    short = rng.standard_normal(3_000)
    img = rng.standard_normal((96, 120)).astype(np.float32)
    vol = rng.standard_normal((6, 40, 50))
    epochs = rng.standard_normal((3, 4, 1_000)).astype(np.float32)
    freqs = np.geomspace(0.003, 0.45, 20)
    return [
        ("cwt", lambda: sftwave.cwt(x, freqs)),
        ("cwt_power_f32", lambda: sftwave.cwt(epochs, np.linspace(4, 40, 10), 250.0,
                                              output="power", decim=4)),
        ("cwt_direct", lambda: sftwave.cwt(short, [0.05, 0.2], method="direct", bank_method="iir2")),
        ("morlet", lambda: sftwave.morlet_transform(short, 25.0, xi=6.0)),
        ("g1d_bank", lambda: sftwave.gaussian_filter1d(x, 64.0)),
        ("g1d_fir", lambda: sftwave.gaussian_filter1d(x, 2.0, order=1)),
        ("g1d_order2", lambda: sftwave.gaussian_filter1d(short, 30.0, order=2, mode="nearest")),
        ("g1d_wide", lambda: sftwave.gaussian_filter1d(short[:200], 1e6, mode="constant")),
        ("g2d", lambda: sftwave.gaussian_filter(img, (1.5, 24.0))),
        ("g3d", lambda: sftwave.gaussian_filter(vol, 12.0, axes=(1, 2))),
        ("cwt_xis", lambda: sftwave.cwt(short, [5.0, 50.0], 500.0, xi=[5.0, 7.0])),
        ("g2d_order1", lambda: sftwave.gaussian_filter(img, 6.0, order=1)),
        ("g2d_uint8", lambda: sftwave.gaussian_filter((img * 40).astype(np.uint8), 2.0)),
        ("scales", lambda: sftwave.frequency_to_scale(freqs, 1.0, xi=6.0)),
    ]


def numba_counters() -> dict[str, list[int]]:
    """``{dispatcher: [cache hits, cache misses]}`` for every numba CPU dispatcher held by a
    module of the CPU engine (at module level, or in a module-level dict, list or tuple)."""
    from numba.core.registry import CPUDispatcher

    report: dict[str, list[int]] = {}
    seen: set[int] = set()
    for modname, mod in sorted(sys.modules.items()):
        if not modname.startswith("sftwave.engines.numba"):
            continue
        for name, obj in list(vars(mod).items()):
            held = (obj.items() if isinstance(obj, dict) else enumerate(obj)
                    if isinstance(obj, (list, tuple)) else [(None, obj)])
            for key, d in held:
                if isinstance(d, CPUDispatcher) and id(d) not in seen:
                    seen.add(id(d))
                    s = d.stats
                    label = f"{modname}.{name}" + ("" if key is None else f"[{key!r}]")
                    report[label] = [sum(s.cache_hits.values()), sum(s.cache_misses.values())]
    return report


def main(nthreads: int) -> int:
    work = calls()
    barrier = threading.Barrier(nthreads)
    results: dict[tuple[int, str], np.ndarray] = {}
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            for name, fn in work:          # all threads on the same call at once
                barrier.wait()
                results[(i, name)] = np.asarray(fn())
            barrier.wait()
            for j in range(len(work)):     # then all calls, each thread starting elsewhere
                name, fn = work[(i + j) % len(work)]
                results[(i + nthreads, name)] = np.asarray(fn())
        except BaseException as exc:  # reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        print("ERROR", repr(errors[0]))
        return 1
    sequential = {name: np.asarray(fn()) for name, fn in work}
    bad = [(i, name) for (i, name), r in results.items()
           if not np.array_equal(r, sequential[name], equal_nan=True)]
    if bad:
        print("DIFFER", bad)
        return 1
    print("OK", len(results))
    if "--counters" in sys.argv:
        print(json.dumps(numba_counters()))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 8))
