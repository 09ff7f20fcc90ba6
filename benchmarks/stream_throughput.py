"""Streaming throughput and long-run drift.

Run: ``.venv/bin/python benchmarks/stream_throughput.py [--samples N]`` (writes
``benchmarks/results/stream_throughput.json``).

* Throughput: nanoseconds per sample of ``GaussianFilter1D(32)`` (one channel)
  and of ``CWT`` (16 frequencies, power, one channel) fed in chunks of 1, 64
  and 4096 samples, against the batch function on the whole signal in the same
  run (medians of 3 runs after a warm-up).
* Drift: a float32 signal of ``N`` samples (default 1e8) streamed in chunks of
  65 536 through ``GaussianFilter1D(32)`` with the SFT and with the ASFT; the
  outputs of the last 10 000 samples against the batch function on the last
  100 000 input samples (whose outputs there do not reach its borders),
  relative to their RMS.  The state is float64 in both, so neither drifts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402
from workloads import load_average  # noqa: E402

import sftwave  # noqa: E402
from sftwave.stream import CWT, GaussianFilter1D  # noqa: E402

FREQS = np.geomspace(0.002, 0.4, 16)


def _rate(make, x, chunk):
    """ns per sample streaming ``x`` through a fresh ``make()`` in chunks of ``chunk``."""
    times = []
    for _ in range(3):
        s = make()
        t0 = time.perf_counter()
        for i in range(0, x.size, chunk):
            s.process(x[i:i + chunk])
        s.flush()
        times.append(time.perf_counter() - t0)
    return 1e9 * float(np.median(times)) / x.size


def _batch_rate(call, x):
    call(x[:1000])
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        call(x)
        times.append(time.perf_counter() - t0)
    return 1e9 * float(np.median(times)) / x.size


def throughput() -> list[dict]:
    rng = np.random.default_rng(0)
    rows = []
    for name, make, batch in (
            ("GaussianFilter1D(32)", lambda: GaussianFilter1D(32.0),
             lambda v: sftwave.gaussian_filter1d(v, 32.0)),
            ("CWT, 16 freqs, power", lambda: CWT(FREQS, output="power"),
             lambda v: sftwave.cwt(v, FREQS, output="power"))):
        for chunk, n in ((1, 20_000), (64, 400_000), (4096, 2_000_000)):
            x = rng.standard_normal(n)
            make().process(x[:5000])                     # compile
            rows.append({"filter": name, "chunk": chunk, "samples": n,
                         "stream_ns_per_sample": _rate(make, x, chunk),
                         "batch_ns_per_sample": _batch_rate(batch, x)})
            print(rows[-1])
    return rows


def drift(total: int) -> list[dict]:
    rows = []
    chunk = 1 << 16
    for transform in ("sft", "asft"):
        s = GaussianFilter1D(32.0, transform=transform)
        rng = np.random.default_rng(1)
        tail = np.zeros(0, np.float32)
        outs = []
        done = 0
        t0 = time.perf_counter()
        while done < total:
            k = min(chunk, total - done)
            x = (rng.standard_normal(k) + 5.0).astype(np.float32)
            y = s.process(x)
            tail = np.concatenate([tail, x])[-100_000:]
            outs.append(y)
            outs = outs[-4:]
            done += k
        y_end = np.concatenate(outs + [s.flush()])[-10_000:]
        seconds = time.perf_counter() - t0
        ref = sftwave.gaussian_filter1d(tail.astype(np.float64), 32.0, transform=transform)[-10_000:]
        err = float(np.sqrt(np.mean((y_end - ref) ** 2) / np.mean(ref ** 2)))
        rows.append({"transform": transform, "samples": total, "seconds": seconds,
                     "ns_per_sample": 1e9 * seconds / total, "end_rel_rms_vs_batch": err})
        print(rows[-1])
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=100_000_000)
    args = parser.parse_args(argv)
    res = {"command": "python benchmarks/stream_throughput.py", "machine": machine(),
           "load_start": load_average(), "throughput": throughput(),
           "drift": drift(args.samples)}
    res["load_end"] = load_average()
    (HERE / "results" / "stream_throughput.json").write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
