"""The switch's estimates of the anchors' time (``sftwave.patch.work``) and the size gate.

Each route's estimate must evaluate on every in-scope call of the routes' own tests (an
estimate that raised would leave its route to the predicate alone), grow with the input,
and follow the anchor's own kernel sizes.  In a fresh process, a script of small calls
must run on the anchor alone, without numba ever imported; one large call must be routed.
How close the estimates are to the anchors' clocks is measured in
``benchmarks/patch_work.py``, not here.
"""

from __future__ import annotations

import inspect
import math
import subprocess
import sys

import numpy as np
import pytest

from sftwave.patch import work
from sftwave.patch.route import load

pytest.importorskip("skimage")


def _estimate(route, args, kwargs):
    module = __import__(route.where[0], fromlist=["_"])
    original = getattr(module, route.name)
    original = getattr(original, "__sftwave_original__", original)
    bound = inspect.signature(original).bind(*args, **kwargs)
    bound.apply_defaults()
    return load(route.work)(bound.arguments)


def _tables():
    """(route, args, kwargs) of every in-scope call the routes' own tests make."""
    import test_pycwt_routes
    import test_skimage_routes

    from sftwave.patch.routes import mne, pycwt, scipy, skimage

    out = []
    for route in skimage.routes():
        calls, _ = test_skimage_routes.IN_SCOPE.get(route.name, ([], None))
        out += [(route, a, k) for a, k in calls]
    for route in pycwt.routes():
        out += [(route, a, k) for a, k in test_pycwt_routes.IN_SCOPE.get(route.name, [])]
    img = np.ones((40, 48))
    scipy_calls = {
        "gaussian_filter": ((img, 3.0), {}),
        "gaussian_filter1d": ((img, 2.5, 0), {}),
        "gaussian_laplace": ((img, 2.0), {"truncate": 3.0}),
        "gaussian_gradient_magnitude": ((img, (1.5, 3.0)), {}),
    }
    out += [(r, *scipy_calls[r.name]) for r in scipy.routes()]
    x = np.zeros((4, 3, 600))
    mne_calls = {
        "tfr_array_morlet": ((x, 250.0, [6.0, 12.0]), {}),
        "_compute_tfr": ((x, [6.0, 12.0], 250.0), {}),
        "csd_array_morlet": ((x, 250.0, [6.0, 12.0]), {}),
    }
    pytest.importorskip("mne")
    out += [(r, *mne_calls[r.name]) for r in mne.routes()]
    return out


def test_every_estimate_evaluates_on_in_scope_calls():
    seen = set()
    for route, args, kwargs in _tables():
        if route.work is None:
            continue
        seconds = _estimate(route, args, kwargs)
        assert math.isfinite(seconds) and seconds > 0, (route.name, seconds)
        seen.add(route.name)
    from sftwave.patch.routes import mne, pycwt, scipy, skimage

    with_work = {r.name for m in (scipy, skimage, pycwt, mne) for r in m.routes() if r.work}
    assert with_work <= seen  # no estimate left unexercised


@pytest.mark.parametrize(
    "name, small, large",
    [
        ("gaussian_filter", ((np.ones((64, 64)), 2.0), {}), ((np.ones((256, 256)), 2.0), {})),
        ("gaussian_filter", ((np.ones((64, 64)), 2.0), {}), ((np.ones((64, 64)), 20.0), {})),
        ("gaussian_filter1d", ((np.ones(1000), 2.0), {}), ((np.ones(1000), 2.0), {"truncate": 8.0})),
        ("gaussian_filter", ((np.ones((64, 64)), 20.0), {}), ((np.ones((64, 64)), 20.0), {"radius": 200})),
    ],
)
def test_scipy_estimates_grow_with_size_and_width(name, small, large):
    from sftwave.patch.routes import scipy

    route = next(r for r in scipy.routes() if r.name == name)
    assert _estimate(route, *small) < _estimate(route, *large)


def test_the_gaussian_passes_follow_scipys_radius():
    # scipy.ndimage: radius = int(truncate * sigma + 0.5); an axis of sigma 0 is skipped
    for sigma, truncate in [(0.3, 4.0), (2.0, 4.0), (2.6, 3.0), (100.0, 4.0)]:
        taps = 2 * int(truncate * sigma + 0.5) + 1
        expect = 1000 * (work.PASS_S + work.TAP_S * taps)
        assert work.gaussian_passes((1000,), (sigma,), truncate) == pytest.approx(expect, rel=1e-12)
    assert work.gaussian_passes((10, 10), (0.0, 2.0)) == work.gaussian_passes((100,), (2.0,))
    assert work.gaussian_passes((10, 10), (2.0, 2.0), radii=(3, 3)) == pytest.approx(
        200 * (work.PASS_S + 7 * work.TAP_S)
    )


def test_the_start_up_is_paid_once_the_calls_kept_from_it_add_up(monkeypatch):
    monkeypatch.setattr(work, "_WAITING", [0.0])
    monkeypatch.setattr(work, "engine_loaded", lambda: False)
    assert [work.pays_start_up(0.3 * work.START_UP_S) for _ in range(4)] == [False, False, False, True]
    monkeypatch.setattr(work, "engine_loaded", lambda: True)
    assert work.pays_start_up(1e-9)


_SCRIPT = """
import sys, warnings, numpy as np
from scipy.ndimage import gaussian_filter, gaussian_filter1d
import sftwave.patch as switch
warnings.simplefilter("ignore", switch.RoutedWarning)
x = np.random.default_rng(0).standard_normal(SIZE)
y = gaussian_filter1d(x, SIGMA)
for _ in range(REPEAT):
    gaussian_filter(np.ones((512, 512)), 2.0)  # about 10 ms in scipy
print(sum(switch._CALLS.values()), "numba" in sys.modules)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "size, sigma, repeat, expect, numba",
    [
        (1000, 4.0, 1, (0, 0), "False"),  # the calls do not add up to the start-up: all scipy's
        (1_000_000, 400.0, 1, (2, 2), "True"),  # 1.6 s in scipy: routed (a bank plan: numba)
        # scipy's until their 10 ms add up to the start-up; the routed 512 x 512 FIRs run in
        # numpy until they have cost what loading numba does (sftwave.engines.numba.small_fir),
        # so numba may or may not be loaded by the end
        (1000, 4.0, 150, (40, 60), None),
    ],
)
def test_a_fresh_process_routes_only_what_wins_back_the_start_up(tmp_path, size, sigma, repeat, expect,
                                                                  numba):
    script = tmp_path / "script.py"
    script.write_text(
        _SCRIPT.replace("SIZE", str(size)).replace("SIGMA", str(sigma)).replace("REPEAT", str(repeat))
    )
    proc = subprocess.run(
        [sys.executable, "-m", "sftwave.patch", "--only", "scipy", str(script)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    calls, loaded = proc.stdout.split()
    assert expect[0] <= int(calls) <= expect[1]
    if numba is not None:  # numba never imported where no call was routed
        assert loaded == numba
