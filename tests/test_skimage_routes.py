"""The switch's scikit-image routes: each predicate's scope, and each replacement's result on
calls it accepts equal to scikit-image's own within the documented bound (no patching here)."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from sftwave.patch.route import load
from sftwave.patch.routes.skimage import routes

RNG = np.random.default_rng(3)
GRAY = (RNG.random((40, 44)) * 255).astype(np.uint8)
FLOAT = RNG.random((40, 44))
RGB = (RNG.random((30, 32, 3)) * 255).astype(np.uint8)
ROUTES = {r.name: r for r in routes()}


def _spot():
    y, x = np.mgrid[:32, :32]
    return np.exp(-((y - 12) ** 2 + (x - 18) ** 2) / (2 * 3.0**2))


def _elems():
    return [FLOAT, FLOAT * 0.3, FLOAT[::-1].copy()]


#: Per name: (args, kwargs) of calls in scope, and the largest difference from scikit-image's
#: result relative to its largest magnitude (tests/test_skimage.py says where each comes from).
IN_SCOPE = {
    "gaussian": (
        [
            ((GRAY, 2), {}),
            ((RGB,), dict(sigma=3, channel_axis=-1)),
            ((FLOAT.astype(np.float32),), dict(sigma=(1, 2), mode="reflect")),
        ],
        2e-4,
    ),
    "difference_of_gaussians": ([((RGB, 1.5, 3.0), dict(channel_axis=-1))], 4e-3),
    "frangi": ([((FLOAT,), dict(sigmas=[1, 2]))], 1e-5),
    "hessian": ([((FLOAT,), dict(sigmas=[1, 2]))], 1e-5),
    "sato": ([((FLOAT,), dict(sigmas=[1, 2]))], 1e-5),
    "meijering": ([((FLOAT,), dict(sigmas=[1, 2]))], 1e-5),
    "gabor": ([((FLOAT, 0.1), dict(theta=0.4, n_stds=6))], 1e-4),
    "gabor_kernel": ([((0.1,), dict(theta=0.3))], 0.0),
    "hessian_matrix": (
        [
            ((FLOAT, 2.0), dict(use_gaussian_derivatives=False)),
            ((GRAY, 1.5), dict(use_gaussian_derivatives=True, mode="reflect")),
        ],
        2e-3,
    ),
    "hessian_matrix_eigvals": ([((_elems(),), {})], 1e-12),
    "hessian_matrix_det": (
        [((FLOAT, 2.0), dict(approximate=False)), ((RNG.random((10, 12, 9)), 2.0), {})],
        2e-3,
    ),
    "structure_tensor": ([((FLOAT, 1.5), {})], 2e-4),
    "structure_tensor_eigenvalues": ([((_elems(),), {})], 1e-12),
    "shape_index": ([((FLOAT, 2.0), {})], 1e-3),
    "blob_log": ([((_spot(),), dict(max_sigma=8, num_sigma=8)), ((FLOAT[:20, :20] * 0,), {})], 0.0),
    "blob_dog": ([((_spot(),), dict(max_sigma=8, threshold=0.05))], 0.0),
    # every feature within 1e-3 of its own range (tests/test_feature_multiscale.py)
    "multiscale_basic_features": ([((GRAY,), dict(sigma_max=4)), ((RGB,), dict(channel_axis=-1))],
                                  1e-3),
}

OUT_OF_SCOPE = {
    "gaussian": [
        ((FLOAT + 1j,), {}),
        ((FLOAT,), dict(output=None)),
        ((FLOAT, -1), {}),
        ((FLOAT,), dict(mode="bogus")),
        ((np.ma.masked_array(FLOAT),), {}),
        ((FLOAT.tolist(),), {}),
        ((FLOAT,), dict(out=np.empty((40, 44), np.uint8))),
    ],
    "difference_of_gaussians": [((FLOAT, 2.0, 1.0), {}), ((FLOAT,), {})],
    "frangi": [((FLOAT[None, None],), {}), ((FLOAT,), dict(sigmas=[0]))],
    "hessian": [((FLOAT,), dict(tol=1e-3))],
    "sato": [((FLOAT,), dict(black_ridges="yes"))],
    "meijering": [((FLOAT.astype(complex),), {})],
    "gabor": [((GRAY, 0.1), {}), ((FLOAT[None], 0.1), {}), ((FLOAT, -0.1), {})],
    "gabor_kernel": [((0.1,), dict(dtype=np.float64))],
    "hessian_matrix": [((FLOAT,), dict(order="xy", sigma=[1, 2, 3]))],
    "hessian_matrix_eigvals": [(([FLOAT, FLOAT],), {}), (([FLOAT.astype(complex)] * 3,), {})],
    # scikit-image's 2-D approximation: the same numbers, faster there (benchmarks/skimage_speed.py)
    "hessian_matrix_det": [((FLOAT,), dict(approximate="yes")), ((GRAY, 3.0), {})],
    "structure_tensor": [((FLOAT[:1],), {})],
    "structure_tensor_eigenvalues": [((FLOAT,), {})],
    "shape_index": [((FLOAT[None],), {})],
    "blob_log": [((np.float64(1.0),), {}), ((FLOAT,), dict(overlap=2))],
    "blob_dog": [((FLOAT,), dict(sigma_ratio=1.0)), ((FLOAT,), dict(foo=1))],
    "multiscale_basic_features": [((FLOAT,), dict(intensity=False, edges=False, texture=False)),
                                  ((FLOAT[0],), {}), ((FLOAT.astype(complex),), {}),
                                  ((FLOAT,), dict(spacing=(1, 2)))],
}


def test_every_route_is_tested_and_resolves():
    assert set(ROUTES) == set(IN_SCOPE) == set(OUT_OF_SCOPE)
    for route in ROUTES.values():
        load(route.replacement)
        load(route.accepts)
        for module in route.where:  # every module holds the name in scikit-image 0.26
            assert callable(getattr(importlib.import_module(module), route.name))


def _flat(result):
    if isinstance(result, (list, tuple)):
        return [np.asarray(r) for r in result]
    return [np.asarray(result)]


@pytest.mark.parametrize("name", sorted(IN_SCOPE))
def test_in_scope_calls_give_skimages_result(name):
    route = ROUTES[name]
    accepts, replacement = load(route.accepts), load(route.replacement)
    original = getattr(importlib.import_module(route.where[0]), name)
    calls, bound = IN_SCOPE[name]
    for args, kwargs in calls:
        assert accepts(*args, **kwargs), (args, kwargs)
        got, ref = _flat(replacement(*args, **kwargs)), _flat(original(*args, **kwargs))
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            assert g.shape == r.shape and g.dtype == r.dtype
            scale = max(float(np.max(np.abs(r))), 1e-300) if r.size else 1.0
            assert np.max(np.abs(g - r), initial=0.0) <= bound * scale


@pytest.mark.parametrize("name", sorted(OUT_OF_SCOPE))
def test_out_of_scope_calls_are_refused_without_raising(name):
    accepts = load(ROUTES[name].accepts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for args, kwargs in OUT_OF_SCOPE[name]:
            assert accepts(*args, **kwargs) is False, (args, kwargs)


def test_predicates_do_not_compute():
    # a 20000 x 20000 float64 view of one byte: building a request reads no pixel
    huge = np.lib.stride_tricks.as_strided(np.zeros(1), (20000, 20000), (0, 0))
    assert load(ROUTES["gaussian"].accepts)(huge, 50)
    assert load(ROUTES["blob_log"].accepts)(huge)
