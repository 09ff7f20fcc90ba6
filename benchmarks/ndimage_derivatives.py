"""gaussian_laplace and gaussian_gradient_magnitude against scipy.ndimage, in one run.

Run: ``.venv/bin/python benchmarks/ndimage_derivatives.py`` (writes
``benchmarks/results/ndimage_derivatives.json``; ``benchmarks/report.py`` puts
the section into docs/benchmarks.md).  A 1411 x 1411 float64 image (about two
megapixels) and a 64 x 256 x 256 float32 volume; sftwave and scipy
alternate, medians after one untimed call; errors against scipy's own function
at ``truncate=12``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402
from workloads import alternate, load_average  # noqa: E402


def main() -> None:
    import scipy.ndimage as ndi

    import sftwave

    rng = np.random.default_rng(0)
    img = np.cumsum(np.cumsum(rng.standard_normal((1411, 1411)), 0), 1) / 50.0
    vol = rng.standard_normal((64, 256, 256)).astype(np.float32)
    res = {"command": "python benchmarks/ndimage_derivatives.py", "machine": machine(),
           "load_start": load_average(), "cases": []}
    for func in ("gaussian_laplace", "gaussian_gradient_magnitude"):
        for label, x, sigmas in (("1411 x 1411 float64", img, (2.0, 20.0, 80.0)),
                                 ("64 x 256 x 256 float32", vol, (3.0, 12.0))):
            for sigma in sigmas:
                ours, theirs = getattr(sftwave, func), getattr(ndi, func)
                t = alternate({"sftwave": lambda: ours(x, sigma), "scipy": lambda: theirs(x, sigma)},
                              5 if x.size < 3e6 else 3)
                exact = theirs(x.astype(np.float64), sigma, truncate=12.0)

                def err(y):
                    y = np.asarray(y, np.float64)
                    return float(np.sqrt(np.mean((y - exact) ** 2) / np.mean(exact ** 2)))

                res["cases"].append({
                    "function": func, "input": label, "sigma": sigma, "times": t,
                    "scipy_over_sftwave": t["scipy"]["median_s"] / t["sftwave"]["median_s"],
                    "error_sftwave": err(ours(x, sigma)), "error_scipy": err(theirs(x, sigma))})
                c = res["cases"][-1]
                print(f"{func:28s} {label:24s} sigma {sigma:5.1f}: sftwave "
                      f"{1e3 * t['sftwave']['median_s']:8.1f} ms, scipy {1e3 * t['scipy']['median_s']:8.1f} ms, "
                      f"{c['scipy_over_sftwave']:.2f}x; errors {c['error_sftwave']:.1e} / {c['error_scipy']:.1e}",
                      flush=True)
    res["load_end"] = load_average()
    (HERE / "results" / "ndimage_derivatives.json").write_text(json.dumps(res, indent=1))
    from report import main as report_main
    report_main([])


if __name__ == "__main__":
    main()
