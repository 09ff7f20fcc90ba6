"""The features and the Gaussian filters on the engine registry: ``engine=``, ``workers=``,
the request objects, and no reach into an engine's internals."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sftwave import engines, feature
from sftwave import ndimage as sndi
from sftwave._checks.features import (
    DERIVATIVE_TOL,
    HessianRequest,
    blob_log_request,
    gabor_request,
    hessian_request,
    ridge_request,
)

RNG = np.random.default_rng(7)
IMAGE = RNG.random((24, 28))
VOLUME = RNG.random((10, 12, 9))

# every feature function, called on a small image: (name, call(image, **kw))
FEATURES = {
    "hessian_matrix": lambda im, **kw: feature.hessian_matrix(im, 2.0, use_gaussian_derivatives=True,
                                                              **kw),
    "hessian_matrix_fd": lambda im, **kw: feature.hessian_matrix(im, 2.0,
                                                                 use_gaussian_derivatives=False, **kw),
    "hessian_matrix_eigvals": lambda im, **kw: feature.hessian_matrix_eigvals(
        feature.hessian_matrix(im, 1.5, use_gaussian_derivatives=True), **kw),
    "structure_tensor": lambda im, **kw: feature.structure_tensor(im, 1.5, **kw),
    "structure_tensor_eigenvalues": lambda im, **kw: feature.structure_tensor_eigenvalues(
        feature.structure_tensor(im, 1.5), **kw),
    "difference_of_gaussians": lambda im, **kw: feature.difference_of_gaussians(im, 1.0, 3.0, **kw),
    "frangi": lambda im, **kw: feature.frangi(im, sigmas=[1, 2], **kw),
    "sato": lambda im, **kw: feature.sato(im, sigmas=[1, 2], **kw),
    "meijering": lambda im, **kw: feature.meijering(im, sigmas=[1, 2], **kw),
    "blob_log": lambda im, **kw: feature.blob_log(im, 1, 4, 4, threshold=0.01, **kw),
    "blob_dog": lambda im, **kw: feature.blob_dog(im, 1, 4, threshold=0.01, **kw),
    "gabor": lambda im, **kw: feature.gabor(im, 0.2, 0.5, **kw),
    "gabor_bank": lambda im, **kw: feature.gabor_bank(im, [0.1, 0.25], [0.0, 0.7, 2.0], **kw),
}

FILTERS = {
    "gaussian_filter1d": lambda x, **kw: sndi.gaussian_filter1d(x, 3.0, axis=0, **kw),
    "gaussian_filter": lambda x, **kw: sndi.gaussian_filter(x, (2.0, 5.0), **kw),
    "gaussian_filter_fir": lambda x, **kw: sndi.gaussian_filter(x, 2.0, method="fir", **kw),
    "gaussian_laplace": lambda x, **kw: sndi.gaussian_laplace(x, 2.5, **kw),
    "gaussian_gradient_magnitude": lambda x, **kw: sndi.gaussian_gradient_magnitude(x, 2.5, **kw),
}


def _arrays(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _same_bits(a, b):
    for x, y in zip(_arrays(a), _arrays(b), strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.array_equal(x, y, equal_nan=True)


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_features_give_the_same_bits_on_one_and_two_threads(name):
    call = FEATURES[name]
    _same_bits(call(IMAGE, workers=1), call(IMAGE, workers=2))


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_features_take_engine_numba_as_the_default_for_numpy(name):
    call = FEATURES[name]
    _same_bits(call(IMAGE), call(IMAGE, engine="numba"))
    _same_bits(call(IMAGE), call(IMAGE, engine="auto"))


def test_a_volume_gives_the_same_bits_on_one_and_two_threads():
    for call in (FEATURES["frangi"], FEATURES["hessian_matrix_eigvals"], FEATURES["blob_log"]):
        _same_bits(call(VOLUME, workers=1), call(VOLUME, workers=2))


@pytest.mark.parametrize("name", sorted(FILTERS))
def test_filters_give_the_same_bits_on_one_and_two_threads(name):
    call = FILTERS[name]
    x = RNG.random((64, 40)).astype(np.float32)
    _same_bits(call(x, workers=1), call(x, workers=2))
    _same_bits(call(x, workers=-1), call(x))


@pytest.mark.parametrize("name", ["blob_log", "blob_dog", "gabor", "gabor_bank"])
def test_an_engine_without_the_operation_says_so(name):
    pytest.importorskip("array_api_compat")
    with pytest.raises(engines.UnsupportedOperation, match="engine='xp' has no operation"):
        FEATURES[name](IMAGE, engine="xp")


@pytest.mark.parametrize("name", ["hessian_matrix", "hessian_matrix_fd", "structure_tensor",
                                  "difference_of_gaussians", "sato", "meijering", "frangi",
                                  "hessian_matrix_eigvals"])
def test_the_array_api_engine_serves_numpy_images_too(name):
    pytest.importorskip("array_api_compat")
    ours = FEATURES[name](IMAGE)
    theirs = FEATURES[name](IMAGE, engine="xp")
    # two engines, two plans, each within the filters' default accuracy (about 1e-5 of the scale)
    for a, b in zip(_arrays(ours), _arrays(theirs), strict=True):
        assert type(b) is np.ndarray and b.dtype == a.dtype
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-4 * np.abs(a).max())


def test_workers_is_refused_where_the_engine_takes_none():
    pytest.importorskip("array_api_compat")
    with pytest.raises(ValueError, match="workers is not supported with engine='xp'"):
        feature.sato(IMAGE, sigmas=[1], engine="xp", workers=2)
    with pytest.raises(ValueError, match="workers is not supported with engine='xp'"):
        sndi.gaussian_filter(IMAGE, 2.0, engine="xp", workers=2)


@pytest.mark.parametrize("workers", [0, -2, 1.5, True])
def test_a_bad_workers_is_refused_by_name(workers):
    with pytest.raises((ValueError, TypeError), match="workers"):
        feature.hessian_matrix(IMAGE, 1.0, workers=workers)
    with pytest.raises((ValueError, TypeError), match="workers"):
        sndi.gaussian_filter(IMAGE, 1.0, workers=workers)


def test_an_unknown_engine_is_refused_by_name():
    with pytest.raises(ValueError, match="engine"):
        feature.frangi(IMAGE, engine="fortran")


def test_the_requests_hold_the_defaults_once():
    req = hessian_request(2, 2.0, engine="numba", use_gaussian_derivatives=True)
    assert isinstance(req, HessianRequest)
    assert req.tol == DERIVATIVE_TOL and req.truncate == 8.0 and req.sigmas == (2.0, 2.0)
    assert hessian_request(2, 0.5, engine="numba", use_gaussian_derivatives=True).truncate == 100.0
    assert hessian_request(3, 1.0, engine="numba").tol is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        req.tol = 1e-3  # type: ignore[misc]
    assert ridge_request("meijering", (4, 4, 4), [1], engine="numba").alpha == 0.25
    assert ridge_request("frangi", (4, 4), range(1, 4), engine="numba", alpha=0.5,
                         beta=0.5).sigmas == (1.0, 2.0, 3.0)
    blobs = blob_log_request((8, 8), np.dtype(np.float32), 1, 3, 3, engine="numba")
    assert blobs.sigma_list.dtype == np.float32 and blobs.border == (0, 0)
    assert gabor_request(0.2, 1.0, engine="numba", single=True).thetas == (1.0,)


@pytest.mark.parametrize("build, match", [
    (lambda: hessian_request(2, -1.0, engine="numba"), "sigma"),
    (lambda: hessian_request(3, 1.0, order="xy", engine="numba"), "order='xy'"),
    (lambda: hessian_request(2, 1.0, use_gaussian_derivatives=1, engine="numba"),
     "use_gaussian_derivatives"),
    (lambda: ridge_request("sato", (5,), [1], engine="numba"), "2-D or 3-D"),
    (lambda: ridge_request("meijering", (5, 5), [1], alpha=float("nan"), engine="numba"), "alpha"),
    (lambda: blob_log_request((8, 8), np.dtype(np.float64), num_sigma=0, engine="numba"),
     "num_sigma"),
    (lambda: gabor_request([], 0.0, engine="numba"), "frequencies"),
])
def test_a_builder_names_the_parameter(build, match):
    with pytest.raises((ValueError, TypeError), match=match):
        build()


SRC = Path(__file__).resolve().parents[1] / "src" / "sftwave"
PUBLIC = [SRC / "ndimage.py", SRC / "apply.py", SRC / "workers.py", SRC / "_scale_space.py",
          *sorted((SRC / "feature").glob("*.py"))]


@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.name)
def test_no_engine_internals_and_no_engine_named(path):
    """These modules reach kernels only through ``engines.operation`` and never name an engine."""
    tree = ast.parse(path.read_text())
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [a.name for a in node.names]
            if (any(part in ("numba", "array_api", "cuda") for part in module.split("."))
                    or (module == "engines" and set(names) & {"numba", "array_api", "cuda"})):
                bad.append(f"{path.name}:{node.lineno} from {module} import {names}")
        elif isinstance(node, ast.Import):
            bad += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names
                    if a.name.split(".")[0] == "numba" or "engines." in a.name]
        elif isinstance(node, ast.Constant) and node.value in ("numba", "xp", "cuda"):
            bad.append(f"{path.name}:{node.lineno} names engine {node.value!r}")
    assert not bad, "\n".join(bad)
