"""What non-finite input costs: the finite check on every call, and the confined and omit paths.

Run: ``.venv/bin/python benchmarks/nonfinite_cost.py`` (writes
``benchmarks/results/nonfinite_cost.json``).  In one run, alternating over 7
rounds, medians after one untimed call each, all threads:

* ``finite``: the public function on finite input (the check, then the engine);
* ``unchecked``: the same with the engine's ``all_finite`` patched to answer
  True without reading (the cost of the filter alone): ``finite / unchecked``
  is the check's overhead, within the noise of two timings; ``check`` times
  the check alone (median of 21 calls), ``check / finite`` its share;
* ``one NaN``: one NaN in the input (the confined path: fill, filter, mark);
* ``omit 1 %``: 1 % NaN with ``nan_policy='omit'``;
* scipy.ndimage on the input with one NaN, the anchor (its convolution confines
  NaN by itself), where scipy has the function.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import scipy.ndimage as ndi

import sftwave
from sftwave import engines
from sftwave_paper.timer import measure

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402
from workloads import load_average  # noqa: E402


def _cases():
    rng = np.random.default_rng(0)
    line = rng.standard_normal(10**6)
    img = rng.standard_normal((2048, 2048)).astype(np.float32)
    eeg = rng.standard_normal((10, 32, 2000))
    freqs = np.geomspace(4.0, 40.0, 30)

    def with_nan(a, frac=None):
        b = a.copy()
        flat = b.reshape(-1)
        if frac is None:
            flat[flat.size // 2] = np.nan
        else:
            flat[rng.random(flat.size) < frac] = np.nan
        return b

    yield ("1-D float64 N=1e6, sigma 128", line, with_nan(line), with_nan(line, 0.01),
           lambda a, **k: sftwave.gaussian_filter1d(a, 128.0, **k),
           lambda a: ndi.gaussian_filter1d(a, 128.0))
    yield ("2-D float32 2048x2048, sigma 8", img, with_nan(img), with_nan(img, 0.01),
           lambda a, **k: sftwave.gaussian_filter(a, 8.0, **k),
           lambda a: ndi.gaussian_filter(a, 8.0))
    yield ("EEG cwt 10x32x2000 float64, 30 freqs, power, decim 4", eeg, with_nan(eeg),
           with_nan(eeg, 0.01),
           lambda a, **k: sftwave.cwt(a, freqs, 500.0, output="power", decim=4, **k), None)


def main() -> None:
    numba_engine = engines.get("numba")
    real_check = numba_engine.all_finite
    results = {"command": "python benchmarks/nonfinite_cost.py", "machine": machine(),
               "load_start": load_average(), "cases": {}}
    for name, x, one_nan, gappy, ours, scipy_call in _cases():
        calls = {
            "finite": lambda: ours(x),
            "one NaN": lambda: ours(one_nan),
            "omit 1 %": lambda: ours(gappy, nan_policy="omit"),
        }
        if scipy_call is not None:
            calls["scipy, one NaN"] = lambda: scipy_call(one_nan)
        t = {k: [] for k in [*calls, "unchecked"]}
        for _ in range(7):
            for key, call in calls.items():
                t[key].append(measure(call, repeats=1)["median_s"])
            numba_engine.all_finite = lambda a: True
            try:
                t["unchecked"].append(measure(calls["finite"], repeats=1)["median_s"])
            finally:
                numba_engine.all_finite = real_check
        med = {k: float(np.median(v)) for k, v in t.items()}
        med["check"] = measure(lambda: real_check(x), repeats=21)["median_s"]
        res = {f"{k}_ms": 1e3 * v for k, v in med.items()}
        res["check_overhead"] = med["finite"] / med["unchecked"] - 1.0
        res["check_share"] = med["check"] / med["finite"]
        res["one_nan_over_finite"] = med["one NaN"] / med["finite"]
        res["omit_over_finite"] = med["omit 1 %"] / med["finite"]
        if "scipy, one NaN" in med:
            res["scipy_over_ours_one_nan"] = med["scipy, one NaN"] / med["one NaN"]
        results["cases"][name] = res
        print(name)
        for k, v in res.items():
            print(f"    {k:28s} {v:9.3f}")
    results["load_end"] = load_average()
    (HERE / "results" / "nonfinite_cost.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
