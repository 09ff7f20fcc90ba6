"""sftwave.mne.tfr_array_morlet against MNE's own, on EEG epochs, every output.

Run: ``.venv/bin/python benchmarks/mne_dropin.py`` (writes
``benchmarks/results/mne_dropin.json``).  Epochs 60 x 32 x 1000 float64 at
250 Hz, 37 frequencies 4-40 Hz, ``n_cycles = freqs / 2`` (MNE's idiom),
``decim=4``; each call alternates with MNE's (``n_jobs=1``, ``verbose=False``)
over 3 rounds after one untimed call each; medians.  Also the largest
per-row relative RMS difference between the two (for 'phase': radians RMS
weighted by the power).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402
from workloads import load_average  # noqa: E402

from sftwave_paper.timer import measure  # noqa: E402
from sftwave.mne import tfr_array_morlet  # noqa: E402

OUTPUTS = ("complex", "power", "phase", "avg_power", "itc", "avg_power_itc")


def _row_difference(a, b, output, weight=None):
    if output == "phase":        # radians, RMS weighted by the power (as tests/test_mne_dropin.py)
        d = np.angle(np.exp(1j * (a - b)))
        return float(np.sqrt(np.sum(weight * d ** 2, axis=-1) / np.sum(weight, axis=-1)).max())
    num = np.sqrt(np.mean(np.abs(a - b) ** 2, axis=-1))
    return float((num / np.sqrt(np.mean(np.abs(b) ** 2, axis=-1))).max())


def main() -> None:
    from mne.time_frequency import tfr_array_morlet as mne_tfr

    rng = np.random.default_rng(0)
    data = np.cumsum(rng.standard_normal((60, 32, 1000)), axis=-1) * 0.1 + rng.standard_normal(
        (60, 32, 1000))
    freqs = np.geomspace(4.0, 40.0, 37)
    kw = dict(sfreq=250.0, freqs=freqs, n_cycles=freqs / 2, decim=4)
    res = {"command": "python benchmarks/mne_dropin.py", "machine": machine(),
           "load_start": load_average(), "cases": []}
    for output in OUTPUTS:
        ours = lambda: tfr_array_morlet(data, output=output, **kw)  # noqa: E731
        theirs = lambda: mne_tfr(data, output=output, n_jobs=1, verbose=False, **kw)  # noqa: E731
        t_ours, t_mne = [], []
        for _ in range(3):
            t_ours.append(measure(ours, repeats=1)["median_s"])
            t_mne.append(measure(theirs, repeats=1)["median_s"])
        weight = (mne_tfr(data, output="power", n_jobs=1, verbose=False, **kw)
                  if output == "phase" else None)
        diff = _row_difference(ours(), theirs(), output, weight)
        case = {"output": output, "sftwave_s": float(np.median(t_ours)),
                "mne_s": float(np.median(t_mne)), "row_difference": diff}
        case["mne_over_sftwave"] = case["mne_s"] / case["sftwave_s"]
        res["cases"].append(case)
        print(f"{output:14s} sftwave {case['sftwave_s']:.3f} s  MNE {case['mne_s']:.3f} s  "
              f"MNE / sftwave {case['mne_over_sftwave']:.2f}  row difference {diff:.1e}")
    res["load_end"] = load_average()
    (HERE / "results" / "mne_dropin.json").write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
