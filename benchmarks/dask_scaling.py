"""sftwave.dask on a local cluster: a 1e8-sample float32 scalogram and a 3-D volume.

Run: ``.venv/bin/python benchmarks/dask_scaling.py`` (writes
``benchmarks/results/dask_scaling.json``).  A ``distributed.LocalCluster`` of 2
worker processes (1 thread each); inputs made on the workers by dask's random
generator (nothing of that size on the client):

* ``cwt``: 1e8 float32 samples in chunks of 1e7, 20 frequencies from 0.001 to
  0.4 cycles per sample, power, ``decim=100`` (the (20, 1e6) result comes back
  to the client);
* ``gaussian_filter``: a 512 x 512 x 256 float32 volume in chunks of 128^3,
  sigma 10 along every axis (the mean of the result comes back).

Wall time of ``compute()`` (one run after a warm-up on a small array, which
compiles the kernels on the workers), and the largest resident memory of each
worker process sampled every 0.2 s during it.  For scale, the in-memory
function on the same data in this process (the scalogram's input made with
numpy first: 400 MB).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402
from workloads import load_average  # noqa: E402


def _rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def _run(client, make, label):
    peaks: dict = {}
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            for addr, rss in client.run(_rss).items():
                peaks[addr] = max(peaks.get(addr, 0), rss)
            time.sleep(0.2)

    before = {a: r for a, r in client.run(_rss).items()}
    t = threading.Thread(target=sample, daemon=True)
    t.start()
    t0 = time.perf_counter()
    result = make().compute()
    seconds = time.perf_counter() - t0
    stop.set()
    t.join()
    row = {"case": label, "seconds": seconds,
           "peak_rss_mb_per_worker": sorted(round(v / 2**20) for v in peaks.values()),
           "idle_rss_mb_per_worker": sorted(round(v / 2**20) for v in before.values())}
    print(row)
    return row, result


def main() -> None:
    import dask.array as da
    import distributed

    import sftwave
    import sftwave.dask as sd

    freqs = np.geomspace(0.001, 0.4, 20)
    res = {"command": "python benchmarks/dask_scaling.py", "machine": machine(),
           "load_start": load_average(), "cases": []}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        small = da.random.default_rng(9).standard_normal(200_000, chunks=50_000,
                                                         dtype=np.float32)
        sd.cwt(small, freqs, output="power", decim=100).compute()           # warm-up
        sd.gaussian_filter(da.ones((64, 64, 64), chunks=32, dtype=np.float32), 3.0).compute()

        def scalogram():
            x = da.random.default_rng(0).standard_normal(100_000_000, chunks=10_000_000,
                                                         dtype=np.float32)
            return sd.cwt(x, freqs, output="power", decim=100)

        def volume():
            v = da.random.default_rng(1).standard_normal((512, 512, 256), chunks=128,
                                                         dtype=np.float32)
            return sd.gaussian_filter(v, 10.0).mean()

        row, power = _run(client, scalogram, "cwt 1e8 float32, 20 freqs, power, decim 100")
        row["result_shape"] = list(power.shape)
        res["cases"].append(row)
        row, _ = _run(client, volume, "gaussian_filter 512x512x256 float32, sigma 10")
        res["cases"].append(row)
    # in memory, this process, for scale
    x = np.random.default_rng(0).standard_normal(100_000_000, dtype=np.float32)
    t0 = time.perf_counter()
    sftwave.cwt(x, freqs, output="power", decim=100)
    res["in_memory_cwt_seconds"] = time.perf_counter() - t0
    del x
    v = np.random.default_rng(1).standard_normal((512, 512, 256), dtype=np.float32)
    t0 = time.perf_counter()
    sftwave.gaussian_filter(v, 10.0)
    res["in_memory_gaussian_seconds"] = time.perf_counter() - t0
    print(res["in_memory_cwt_seconds"], res["in_memory_gaussian_seconds"])
    res["load_end"] = load_average()
    (HERE / "results" / "dask_scaling.json").write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
