"""The Gaussian filters' request: arguments normalised once, in the order the filters check them."""

from __future__ import annotations

import numpy as np
import pytest

import sftwave
from sftwave._checks.ndimage import GaussianRequest, gaussian_request


def test_one_axis_request_normalises_and_resolves_the_axis():
    r = gaussian_request(3, False, 2, 1, "grid-wrap", 1, 4, axis=-2, engine="numba")
    assert isinstance(r, GaussianRequest)
    assert (r.axes, r.sigmas, r.orders, r.modes, r.radii) == ((1,), (2.0,), (1,), ("wrap",), (None,))
    assert (r.cval, r.truncate, r.method, r.tol, r.nan_policy, r.min_weight) == (1.0, 4.0, "auto",
                                                                                 None, "propagate", 0.5)
    assert not r.skip_zero_sigma and not r.scipy_arithmetic


def test_many_axes_request_spreads_scalars_and_keeps_zero_sigmas():
    r = gaussian_request(2, False, [1.5, 0.0], [0, 2], "nearest", axes=None, radius=[None, 3],
                         engine="numba")
    assert r.axes == (0, 1) and r.sigmas == (1.5, 0.0) and r.orders == (0, 2)
    assert r.modes == ("nearest", "nearest") and r.radii == (None, 3)
    assert r.skip_zero_sigma and r.scipy_arithmetic           # a radius asks for scipy's kernel


def test_the_request_is_frozen():
    r = gaussian_request(1, False, 1.0, axis=0, engine="numba")
    with pytest.raises(AttributeError):
        r.sigmas = (2.0,)                                     # type: ignore[misc]


@pytest.mark.parametrize("kwargs,match", [
    (dict(sigma=0.0, axis=0), "sigma must be a positive"),
    (dict(sigma=1.0, axis=0, order=-1), "order"),
    (dict(sigma=1.0, axis=0, mode="mirror-ish"), "mode"),
    (dict(sigma=1.0, axis=0, cval=1j), "cval"),
    (dict(sigma=1.0, axis=0, method="slow"), "method"),
    (dict(sigma=1.0, axis=3), "axis"),
    (dict(sigma=[1.0, 2.0, 3.0]), "sigma"),
    (dict(sigma=1.0, nan_policy="raise"), "nan_policy"),
    (dict(sigma=1.0, min_weight=1.5), "min_weight"),
    (dict(sigma=1.0, workers=0), "workers"),
])
def test_bad_arguments_are_refused_naming_the_parameter(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        gaussian_request(2, False, engine="numba", **kwargs)


def test_the_first_bad_argument_is_the_one_named_as_the_filters_always_did():
    """gaussian_filter1d checks sigma before the axis; gaussian_filter the axes before sigma."""
    x = np.zeros((4, 4))
    with pytest.raises(ValueError, match="sigma"):
        sftwave.gaussian_filter1d(x, -1.0, axis=5)
    with pytest.raises(ValueError, match="ax"):
        sftwave.gaussian_filter(x, -1.0, axes=(5,))


def test_a_zero_sigma_axis_is_skipped_by_gaussian_filter_only():
    x = np.random.default_rng(0).standard_normal((5, 40))
    y = sftwave.gaussian_filter(x, [0.0, 2.0], order=[1, 0])   # axis 0: not filtered, as scipy
    assert np.array_equal(y, sftwave.gaussian_filter1d(x, 2.0, axis=1))
