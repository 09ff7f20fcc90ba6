"""The routes of pycwt's functions (``sftwave.patch.routes.pycwt``), without the switch:
each predicate on calls in and out of scope, and each replacement against the original
on the same call (pycwt's numbers to rounding: tests/test_pycwt.py says why 1e-12)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from sftwave.patch.route import load
from sftwave.patch.routes import pycwt as routes

pycwt = pytest.importorskip("pycwt")


def _series(n=400, seed=0):
    from scipy.signal import lfilter

    return lfilter([1.0], [1.0, -0.6], np.random.default_rng(seed).standard_normal(n))


X, Y = _series(), _series(seed=1)

IN_SCOPE = {
    "cwt": [
        ((X, 0.25), {}),
        ((X, 1.0, 1 / 4, -1, -1, pycwt.DOG(6)), {}),
        ((list(X[:100]), 1.0), {"wavelet": "paul"}),
        ((X, 1.0), {"freqs": np.array([0.1, 0.2])}),
    ],
    "icwt": [((np.ones((5, 40)), 2.0 ** np.arange(5), 1.0), {"dj": 1.0})],
    "significance": [
        ((1.0, 0.25, 2.0 ** np.arange(6), 0, 0.5), {}),
        ((X, 0.25, 2.0 ** np.arange(6), 0), {"wavelet": pycwt.MexicanHat()}),
    ],
    "xwt": [((X, Y, 1.0), {"dj": 1 / 4}), ((X, Y, 1.0), {"wavelet": "dog", "normalize": False})],
    "wct": [((X, Y, 1.0), {"sig": False, "dj": 1 / 4})],
    "ar1": [((X,), {})],
    "ar1_spectrum": [((np.linspace(0, 0.5, 5), 0.3), {})],
}

OUT_OF_SCOPE = {
    "cwt": [
        ((X, 1.0), {"wavelet": "haar"}),
        ((X.reshape(20, 20), 1.0), {}),
        ((X,), {}),
        ((X, 1.0), {"unknown": 1}),
        ((X, 1.0), {"J": 2.5}),
        ((X, 1.0), {"wavelet": type("Custom", (), {"psi_ft": abs, "flambda": abs, "coi": abs})()}),
    ],
    "icwt": [((np.ones(5), np.ones(5), 1.0), {})],
    "significance": [((1.0, 0.25, [1.0, 2.0], 5, 0.5), {}), ((1.0, 0.25, [1.0, 2.0], 2, 0.5), {})],
    "xwt": [((X, Y[:-1], 1.0), {}), ((X + 0j, Y, 1.0), {})],
    "wct": [
        ((X, Y, 1.0), {"wavelet": "paul"}),
        ((X, Y, 1.0), {"seed": 3}),
        ((X, Y, 1.0), {"wavelet": pycwt.Morlet(5)}),
    ],
    "wct_significance": [
        ((0.5, 0.5, 1.0, 0.25, -1, -1), {}),
        ((1.5, 0.5, 1.0, 0.25, 2.0, 8), {}),
        ((0.5, 0.5, 1.0, 0.25, 2.0, 8), {"seed": 1}),
    ],
    "ar1": [(("abc",), {})],
    "ar1_spectrum": [((np.ones(3), "x"), {})],
}


def _route(name):
    return next(r for r in routes.routes() if r.name == name)


def test_routes_name_pycwts_functions():
    names = {r.name for r in routes.routes()}
    assert names == {"cwt", "icwt", "significance", "xwt", "wct", "wct_significance", "ar1", "ar1_spectrum"}
    for r in routes.routes():
        assert r.target == "pycwt"
        original = getattr(importlib.import_module(r.where[0]), r.name)
        for module in r.where:
            assert getattr(importlib.import_module(module), r.name) is original
        load(r.replacement), load(r.accepts)


@pytest.mark.parametrize("name", sorted(OUT_OF_SCOPE))
def test_predicates_refuse_what_is_not_covered(name):
    accepts = load(_route(name).accepts)
    for args, kwargs in OUT_OF_SCOPE[name]:
        assert accepts(*args, **kwargs) is False, (name, kwargs)


def _same(got, ref):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            _same(g, r)
        return
    g, r = np.asarray(got), np.asarray(ref)
    assert g.shape == r.shape
    scale = max(float(np.nanmax(np.abs(r))) if r.size else 0.0, 1e-300)
    np.testing.assert_allclose(g, r, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("name", sorted(IN_SCOPE))
def test_replacements_give_the_originals_result(name):
    route = _route(name)
    accepts, replacement = load(route.accepts), load(route.replacement)
    original = getattr(importlib.import_module(route.where[0]), name)
    for args, kwargs in IN_SCOPE[name]:
        assert accepts(*args, **kwargs) is True, (name, kwargs)
        with np.errstate(over="ignore", invalid="ignore"):  # pycwt's Paul overflows
            ref = original(*args, **kwargs)
        _same(replacement(*args, **kwargs), ref)


def test_wct_significance_in_scope():
    # Monte-Carlo: compared with pycwt in tests/test_pycwt.py; here the predicate only
    accepts = load(_route("wct_significance").accepts)
    assert accepts(0.5, 0.5, 1.0, 0.25, -1, 8, mc_count=10, progress=False, cache=False)
    assert accepts(0.5, 0.5, 1.0, 0.25, 2.0, 8, 0.9, pycwt.Morlet(6))
