"""How close the switch's estimates of the anchors' time are to the anchors' clocks.

``python benchmarks/patch_work.py [--repeats 5]``: for calls of each routed anchor at
sizes around the crossovers (``sftwave.patch.work``), the anchor's measured time
(median of ``--repeats`` after one untimed call) beside the switch's estimate, and
whether the switch would route the call in a fresh process and once sftwave's engine
is loaded.  An estimate within a factor of about two of the clock moves the crossover
by as much; at the crossover the two tools' times are equal, so the cost of the error
is small either way.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time
import warnings

import numpy as np

from sftwave.patch import work
from sftwave.patch.route import load


def _route(target: str, name: str):
    module = __import__(f"sftwave.patch.routes.{target}", fromlist=["routes"])
    return next(r for r in module.routes() if r.name == name)


def _calls():
    """(label, target, route name, the anchor's function, args, kwargs)."""
    import scipy.ndimage as ndi

    rng = np.random.default_rng(0)
    out = []
    for n in (1_000, 100_000, 1_000_000):
        for sigma in (4.0, 64.0):
            x = rng.standard_normal(n)
            out.append((f"gaussian_filter1d {n} samples, sigma {sigma:g}", "scipy", "gaussian_filter1d",
                        ndi.gaussian_filter1d, (x, sigma), {}))
    for side in (64, 256, 1024, 2048):
        img = rng.random((side, side)).astype(np.float32)
        out.append((f"gaussian_filter {side}^2 float32, sigma 2", "scipy", "gaussian_filter",
                    ndi.gaussian_filter, (img, 2.0), {}))
    try:
        from skimage import data, feature, filters
    except ImportError:
        pass
    else:
        coins, photo = data.coins(), data.astronaut()
        out += [
            ("skimage gaussian, astronaut RGB, sigma 8", "skimage", "gaussian", filters.gaussian,
             (photo,), dict(sigma=8, channel_axis=-1)),
            ("skimage hessian_matrix, coins, sigma 3", "skimage", "hessian_matrix",
             feature.hessian_matrix, (coins,), dict(sigma=3, use_gaussian_derivatives=False)),
            ("skimage blob_log, coins, 10 sigmas 3-20", "skimage", "blob_log", feature.blob_log,
             (coins,), dict(min_sigma=3, max_sigma=20, num_sigma=10, threshold=0.05)),
            ("skimage multiscale_basic_features, coins", "skimage", "multiscale_basic_features",
             feature.multiscale_basic_features, (coins,), {}),
            ("skimage frangi, coins", "skimage", "frangi", filters.frangi, (coins,), {}),
        ]
    try:
        import pycwt
    except ImportError:
        pass
    else:
        for n in (504, 2_520, 20_000):
            x = rng.standard_normal(n)
            out.append((f"pycwt cwt {n} samples", "pycwt", "cwt", pycwt.cwt, (x, 0.25), {}))
        x, y = rng.standard_normal(2_520), rng.standard_normal(2_520)
        out.append(("pycwt wct 2520 samples, sig=False", "pycwt", "wct", pycwt.wct, (x, y, 0.25),
                    dict(sig=False)))
    try:
        import mne
    except ImportError:
        pass
    else:
        freqs = np.linspace(5, 40, 10)
        for shape in ((1, 1, 500), (1, 4, 500), (16, 32, 1000)):
            d = rng.standard_normal(shape)
            out.append((f"MNE tfr_array_morlet {'x'.join(map(str, shape))}, 10 freqs", "mne",
                        "tfr_array_morlet", mne.time_frequency.tfr_array_morlet, (d, 250.0, freqs),
                        dict(n_cycles=freqs / 2, output="power")))
    return out


def _estimate(route, function, args, kwargs) -> float:
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    return load(route.work)(bound.arguments)


def _clock(function, args, kwargs, repeats: int) -> float:
    function(*args, **kwargs)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        function(*args, **kwargs)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    warnings.simplefilter("ignore")
    print(f"{'call':58s} {'anchor ms':>10s} {'estimate ms':>12s} {'est/clock':>9s} {'fresh':>6s} {'warm':>5s}")
    for label, target, name, function, args, kwargs in _calls():
        route = _route(target, name)
        clock = _clock(function, args, kwargs, repeats)
        est = _estimate(route, function, args, kwargs)
        fresh = est >= max(route.crossover, work.START_UP_S)
        warm = est >= route.crossover
        print(f"{label:58s} {clock * 1e3:10.2f} {est * 1e3:12.2f} {est / clock:9.2f} "
              f"{'yes' if fresh else 'no':>6s} {'yes' if warm else 'no':>5s}")


if __name__ == "__main__":
    main()
