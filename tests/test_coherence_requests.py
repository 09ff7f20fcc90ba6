"""sftwave.coherence on the skeleton: its requests (sftwave._checks.coherence) and ``engine=``."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sftwave import engines
from sftwave._checks.coherence import significance_request, wct_request
from sftwave.coherence import smooth, wct, wct_significance, xwt

X = np.sin(2 * np.pi * np.arange(400) / 25)
Y = np.roll(X, 3)
F = [0.02, 0.04]


def _wct_args(**kw):
    args = dict(fs=1.0, xi=6.0, smoothing="grinsted", scale_width=0.6, axis=-1, mode="reflect",
                cval=0.0, tol=None, workers=None, nan_policy="propagate", engine="numba")
    return {**args, **kw}


def test_wct_request_is_frozen_and_normalised():
    r = wct_request(0.1, **_wct_args(fs=2, xi=7))
    assert r.fs == 2.0 and r.xi == 7.0 and r.freqs.tolist() == [0.1]
    np.testing.assert_allclose(r.sigmas, 7.0 * 2.0 / (2 * np.pi * 0.1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.fs = 3.0


@pytest.mark.parametrize("kw, err, msg", [
    (dict(smoothing="box"), ValueError, "smoothing must be one of"),
    (dict(scale_width=-1), ValueError, "scale_width"),
    (dict(xi=[6.0, 7.0]), ValueError, "xi must be one number for coherence"),
    (dict(fs=0), ValueError, "fs"),
])
def test_wct_request_refuses_naming_the_parameter(kw, err, msg):
    with pytest.raises(err, match=msg):
        wct_request([0.1, 0.2], **_wct_args(**kw))


def test_pycwt_rows_checked_in_the_request():
    with pytest.raises(ValueError, match="smoothing='pycwt' needs rows uniformly spaced"):
        wct_request([0.1, 0.15, 0.4], **_wct_args(smoothing="pycwt"))


def test_significance_request_resolves_n_and_keeps_mode_as_spelled():
    kw = dict(fs=1.0, xi=6.0, n=None, level=0.9, mc_count=3, seed=1, smoothing="grinsted",
              scale_width=0.6, mode="grid-constant", nbins=10, cache=False, engine="numba")
    r = significance_request(0.3, 0.0, [0.1, 0.2], **kw)
    assert r.n == int(np.ceil(6 * r.sigmas.max())) and r.mode == "grid-constant"
    assert r.alphas == (0.3, 0.0) and r.level == 0.9
    with pytest.raises(ValueError, match=r"alpha_y must be a lag-1 coefficient in \(-1, 1\)"):
        significance_request(0.3, 1.0, [0.1], **kw)
    with pytest.raises(TypeError, match="mc_count must be an integer; got 2.0"):
        significance_request(0.3, 0.0, [0.1], **{**kw, "mc_count": 2.0})


def test_numba_engine_is_the_default():
    assert np.array_equal(xwt(X, Y, F, engine="numba"), xwt(X, Y, F))
    a, b = wct(X, Y, F, engine="numba"), wct(X, Y, F, engine="auto")
    assert np.array_equal(a.coherence, b.coherence) and np.array_equal(a.cross, b.cross)
    v = np.abs(xwt(X, Y, F))
    assert np.array_equal(smooth(v, F, engine="numba"), smooth(v, F))
    kw = dict(mc_count=2, cache=False)
    assert np.array_equal(wct_significance(0.2, 0.2, F, engine="numba", **kw),
                          wct_significance(0.2, 0.2, F, **kw))


@pytest.mark.parametrize("call, op", [
    (lambda e: xwt(X, Y, F, engine=e), "coherence_cross"),
    (lambda e: wct(X, Y, F, engine=e), "coherence_spectra"),
    (lambda e: smooth(np.ones((2, 50)), F, engine=e), "coherence_scale_weights"),
    (lambda e: wct_significance(0.2, 0.2, F, mc_count=2, cache=False, engine=e),
     "coherence_fold_plan"),
])
def test_an_engine_without_the_operations_says_so(call, op):
    pytest.importorskip("array_api_compat")
    with pytest.raises(engines.UnsupportedOperation,
                       match=f"engine='xp' has no operation '{op}' .*'numba'"):
        call("xp")


def test_an_unknown_engine_is_refused_by_name():
    with pytest.raises(ValueError, match="engine must be one of .*; got 'gpu'"):
        wct(X, Y, F, engine="gpu")


def test_coherence_operations_are_registered():
    have = set(engines.operations("numba"))
    assert {"coherence_cross", "coherence_spectra", "coherence_combine",
            "coherence_scale_weights", "coherence_histogram", "coherence_fold_plan",
            "coherence_folded_transforms"} <= have
