"""Child script of tests/test_threads.py and benchmarks/threads_stress.py: many threads, first calls.

Run as ``python tests/threads_child.py THREADS``.  Every public function is
called from ``THREADS`` threads at once (each thread starting at a different
function, all released together by a barrier, so the first calls - numba's
compilation or cache loading, plan design - happen concurrently), then once
more sequentially; the script prints ``OK`` when every threaded result equals
the sequential one bit for bit, and exits non-zero otherwise.  A crash of the
process is what the callers watch for.
"""

from __future__ import annotations

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
        ("scales", lambda: sftwave.frequency_to_scale(freqs, 1.0, xi=6.0)),
    ]


def main(nthreads: int) -> int:
    work = calls()
    barrier = threading.Barrier(nthreads)
    results: dict[tuple[int, str], np.ndarray] = {}
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            barrier.wait()
            for j in range(len(work)):
                name, fn = work[(i + j) % len(work)]
                results[(i, name)] = np.asarray(fn())
        except BaseException as exc:  # reported below
            errors.append(exc)

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
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 8))
