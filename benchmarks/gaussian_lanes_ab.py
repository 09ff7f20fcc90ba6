"""A/B: the Gaussian filters' last axis on the lane engine against the scalar bank, in one run.

Run: ``.venv/bin/python benchmarks/gaussian_lanes_ab.py`` (writes
``benchmarks/results/gaussian_lanes_ab.json``).  The same calls with the lane
path allowed (sftwave's default) and with it switched off
(``filters._lanes_pay`` patched to refuse), alternating over 7 rounds, medians
after one untimed call each; all threads.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from sftwave import ndimage as snd
from sftwave.engines.numba import filters

HERE = Path(__file__).resolve().parent


def main() -> None:
    lanes_pay = filters._lanes_pay
    rng = np.random.default_rng(0)
    vol = rng.standard_normal((64, 256, 256)).astype(np.float32)
    img = rng.standard_normal((1024, 1024)).astype(np.float32)
    line = rng.standard_normal(10**6)
    cases = {
        "1-D float64, N=1e6, sigma 128": lambda: snd.gaussian_filter1d(line, 128.0),
        "1-D float64, N=1e6, sigma 8": lambda: snd.gaussian_filter1d(line, 8.0),
        "2-D float32 1024x1024, sigma 8, last axis": lambda: snd.gaussian_filter1d(img, 8.0),
        "3-D float32 64x256x256, sigma 3, last axis": lambda: snd.gaussian_filter1d(vol, 3.0),
    }
    times: dict = {k: {"bank": [], "lanes": []} for k in cases}
    try:
        for _ in range(7):
            for path in ("bank", "lanes"):
                filters._lanes_pay = (lambda x2d, plan: False) if path == "bank" else lanes_pay
                for name, call in cases.items():
                    call()
                    t0 = time.perf_counter()
                    call()
                    times[name][path].append(time.perf_counter() - t0)
    finally:
        filters._lanes_pay = lanes_pay
    res = {}
    for name, t in times.items():
        bank, lanes = float(np.median(t["bank"])), float(np.median(t["lanes"]))
        res[name] = {"bank_ms": 1e3 * bank, "lanes_ms": 1e3 * lanes, "bank_over_lanes": bank / lanes}
        print(f"{name:45s} bank {1e3 * bank:7.2f} ms  lanes {1e3 * lanes:7.2f} ms  "
              f"bank / lanes {bank / lanes:.2f}")
    (HERE / "results" / "gaussian_lanes_ab.json").write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
