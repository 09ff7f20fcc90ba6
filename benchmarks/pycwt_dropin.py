"""sftwave.pycwt against pycwt, every function, in the same run: Nino3's size and 20,000 samples.

    .venv/bin/python benchmarks/pycwt_dropin.py            # ~3 min on 2 cores
    .venv/bin/python benchmarks/pycwt_dropin.py --quick    # Nino3's size only

Each call of pycwt and of sftwave.pycwt on the same AR(1) series (0.7; Nino3's own
series at its size), at pycwt's defaults (``dj = 1/12``, ``s0 = 2 dt``, ``J`` to the
length), the two calls alternating round by round (a disturbance of the shared machine
hits both), the median of the rounds after one untimed warm-up.  ``wct_significance`` is
timed once each (cache off, 20 surrogate pairs, Nino3's size only: pycwt's loop runs
for hours at 20,000 samples; ``compare.py --only coherence`` estimates that case).
Ratio: pycwt's time over sftwave's (above 1: sftwave is faster).  Writes
``benchmarks/results/pycwt_dropin.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _series(n: int) -> np.ndarray:
    from scipy.signal import lfilter

    return lfilter([1.0], [1.0, -0.7], np.random.default_rng(n).standard_normal(n))


def _alternate(calls: dict, rounds: int) -> dict:
    for f in calls.values():
        f()
    times: dict = {k: [] for k in calls}
    for _ in range(rounds):
        for k, f in calls.items():
            t = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def _cases(lib, x, y, dt):
    W, sj, *_ = lib.cwt(x, dt)
    return {
        "cwt": lambda: lib.cwt(x, dt),
        "cwt (Paul)": lambda: lib.cwt(x, dt, wavelet="paul"),
        "cwt (DOG 2)": lambda: lib.cwt(x, dt, wavelet="dog"),
        "icwt": lambda: lib.icwt(W, sj, dt),
        "significance (global)": lambda: lib.significance(1.0, dt, sj, 1, 0.7, dof=x.size - sj),
        "xwt": lambda: lib.xwt(x, y, dt),
        "wct, sig=False": lambda: lib.wct(x, y, dt, sig=False),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    import pycwt

    import sftwave.pycwt as sp

    nino3 = np.loadtxt(Path(pycwt.__file__).parent / "sample" / "sst_nino3.dat")
    sizes = [(nino3, 0.25, 15)] + ([] if args.quick else [(_series(20000), 1.0, 3)])
    out: dict = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_start": list(np.round(os.getloadavg(), 2)),
        "pycwt": pycwt.__version__,
        "rows": [],
    }
    for x, dt, rounds in sizes:
        y = 0.5 * x + _series(x.size + 1)[1:]
        ours, theirs = _cases(sp, x, y, dt), _cases(pycwt, x, y, dt)
        for name in ours:
            with np.errstate(over="ignore", invalid="ignore"):  # pycwt's Paul overflows
                t = _alternate({"pycwt": theirs[name], "sftwave": ours[name]}, rounds)
            row = {
                "n": x.size,
                "call": name,
                "pycwt_ms": 1e3 * t["pycwt"],
                "sftwave_ms": 1e3 * t["sftwave"],
                "ratio": t["pycwt"] / t["sftwave"],
            }
            out["rows"].append(row)
            print(
                f"N={x.size:6d} {name:24s} pycwt {row['pycwt_ms']:9.2f} ms  sftwave "
                f"{row['sftwave_ms']:9.2f} ms  ratio {row['ratio']:5.2f}",
                flush=True,
            )
    x = nino3
    n_j = int(np.round(np.log2(x.size * 0.25 / (2 * 0.25 / sp.Morlet().flambda())) / (1 / 12)))
    s0 = 2 * 0.25 / sp.Morlet().flambda()
    t0 = time.perf_counter()
    pycwt.wct_significance(
        0.7, 0.5, 0.25, 1 / 12, s0, n_j, wavelet=pycwt.Morlet(6), mc_count=20, progress=False, cache=False
    )
    t1 = time.perf_counter()
    sp.wct_significance(0.7, 0.5, 0.25, 1 / 12, s0, n_j, mc_count=20, cache=False)
    t2 = time.perf_counter()
    row = {
        "n": x.size,
        "call": "wct_significance (20 pairs)",
        "pycwt_ms": 1e3 * (t1 - t0),
        "sftwave_ms": 1e3 * (t2 - t1),
        "ratio": (t1 - t0) / (t2 - t1),
    }
    out["rows"].append(row)
    print(
        f"N={x.size:6d} {row['call']:24s} pycwt {row['pycwt_ms']:9.2f} ms  sftwave "
        f"{row['sftwave_ms']:9.2f} ms  ratio {row['ratio']:5.2f}",
        flush=True,
    )
    out["load_average_end"] = list(np.round(os.getloadavg(), 2))
    folder = HERE / "results"
    folder.mkdir(exist_ok=True)
    (folder / "pycwt_dropin.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
