"""sftwave.skimage against scikit-image, timed in the same run: the ratio of their times.

Run: ``PYTHONPATH=src python benchmarks/skimage_speed.py [repeats]``.  Each case is timed
alternately (scikit-image, sftwave) ``repeats`` times (default 5) after one warm-up call of
each; the table gives the medians and scikit-image's time over sftwave's (above 1: sftwave is
faster).  Threads: whatever both libraries use by default (scipy single-threaded).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import skimage.feature as skf
import skimage.filters as skfl
from skimage import data

import sftwave.skimage as ski


def cases():
    camera = data.camera()
    cam32 = camera.astype(np.float32) / 255
    rgb = data.astronaut()
    rgb32 = rgb.astype(np.float32) / 255
    for sigma in (2.0, 8.0, 16.0):
        yield f"gaussian gray uint8 sigma={sigma:g}", "gaussian", (camera, sigma), {}
        yield f"gaussian gray float32 sigma={sigma:g}", "gaussian", (cam32, sigma), {}
        yield (f"gaussian RGB uint8 sigma={sigma:g}", "gaussian", (rgb, sigma), dict(channel_axis=-1))
        yield (f"gaussian RGB float32 sigma={sigma:g}", "gaussian", (rgb32, sigma), dict(channel_axis=-1))
    f64 = camera / 255.0
    yield "hessian_matrix_det approximate sigma=8", "hessian_matrix_det", (f64, 8.0), {}
    yield ("hessian_matrix_det exact sigma=8", "hessian_matrix_det", (f64, 8.0), dict(approximate=False))
    yield "shape_index sigma=8", "shape_index", (f64, 8.0), {}
    yield "filters.hessian sigmas=1..9", "hessian", (f64,), {}
    yield "gabor_kernel f=0.05", "gabor_kernel", (0.05,), {}
    line = np.random.default_rng(0).random(100_000)
    yield "blob_log 1-D, 100k samples", "blob_log", (line,), dict(max_sigma=20, threshold=0.05)


def function(name):
    for mod in (skfl, skf):
        if hasattr(mod, name):
            theirs = getattr(mod, name)
            break
    mine = getattr(ski.filters, name, None) or getattr(ski.feature, name)
    return theirs, mine


def timed(fn, args, kwargs) -> float:
    t0 = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t0


def main(repeats: int = 5) -> None:
    print("| case | scikit-image (ms) | sftwave (ms) | ratio |")
    print("|---|---|---|---|")
    for label, name, args, kwargs in cases():
        theirs, mine = function(name)
        theirs(*args, **kwargs)
        mine(*args, **kwargs)
        t_theirs, t_mine = [], []
        for _ in range(repeats):
            t_theirs.append(timed(theirs, args, kwargs))
            t_mine.append(timed(mine, args, kwargs))
        a, b = statistics.median(t_theirs), statistics.median(t_mine)
        print(f"| {label} | {1e3 * a:.1f} | {1e3 * b:.1f} | {a / b:.2f} |", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
