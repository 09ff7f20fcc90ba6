"""``xi`` per frequency (MNE's ``n_cycles = freqs / 2`` idiom) in ``cwt``, on every engine.

Each row must be the transform at its frequency with its own scalar ``xi``:
bit for bit on the CPU engine where both calls run the same bank method (the
plans are the same objects and the lanes do not interact), to rounding on the
array-API engine, and within the accuracy contract of the exact transform.
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import exact_morlet_transform, rel_rmse

import sftwave

FS = 250.0
FREQS = np.array([4.0, 7.5, 13.0, 22.0, 40.0])
#: n_cycles rising with frequency, as MNE users set it (two distinct values: every new xi costs
#: a plan design of about a second unless its layouts ship with the package)
XI = np.array([5.0, 5.0, 7.0, 7.0, 7.0])


def _rows_one_by_one(x, xi, **kw):
    return np.stack([sftwave.cwt(x, [f], FS, xi=float(w), **kw)[..., 0, :]
                     for f, w in zip(FREQS, xi)], axis=-2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("output", ["complex", "power"])
def test_rows_equal_the_scalar_xi_rows_on_the_cpu(dtype, output):
    x = np.random.default_rng(3).standard_normal((2, 3, 1500)).astype(dtype)
    xi = XI
    kw = dict(output=output, decim=3, bank_method="iir1")
    y = sftwave.cwt(x, FREQS, FS, xi=xi, **kw)
    assert y.shape == (2, 3, FREQS.size, 500)
    assert np.array_equal(y, _rows_one_by_one(x, xi, **kw))


def test_rows_equal_the_scalar_xi_rows_on_the_array_api_engine():
    x = np.random.default_rng(4).standard_normal((2, 1200))
    xi = XI
    y = sftwave.cwt(x, FREQS, FS, xi=xi, engine="xp")
    ref = _rows_one_by_one(x, xi, engine="xp")
    assert np.max(np.abs(y - ref)) <= 1e-12 * np.max(np.abs(ref))


def test_each_row_meets_the_accuracy_contract():
    """tol=1e-6: every row within 3e-5 of the exact transform with its own xi (white noise)."""
    x = np.random.default_rng(5).standard_normal(2000)
    xi = XI
    y = sftwave.cwt(x, FREQS, FS, xi=xi, tol=1e-6, mode="wrap")
    for i, (f, w) in enumerate(zip(FREQS, xi)):
        sigma = float(sftwave.frequency_to_scale(f, FS, w))
        assert rel_rmse(y[i], exact_morlet_transform(x, sigma, w, "wrap")) <= 3e-5


def test_a_scalar_and_a_constant_array_agree():
    x = np.random.default_rng(6).standard_normal(800)
    assert np.array_equal(sftwave.cwt(x, FREQS, FS, xi=6.0),
                          sftwave.cwt(x, FREQS, FS, xi=np.full(FREQS.size, 6.0)))


@pytest.mark.parametrize("xi, exc, match", [
    (np.array([6.0, 7.0]), ValueError, r"xi must be a number or hold one value per frequency \(5\); got shape \(2,\)"),
    (np.ones((5, 1)), ValueError, r"got shape \(5, 1\)"),
    (np.array([6.0, 7.0, -1.0, 6.0, 6.0]), ValueError, r"xi must be positive and finite; got -1.0"),
    (np.array([6.0, np.nan, 1.0, 6.0, 6.0]), ValueError, r"xi must be positive and finite; got nan"),
    ("six", TypeError, r"xi must be a real number; got 'six'"),
    ([6.0, "a", 1.0, 2.0, 3.0], TypeError, r"xi must be a positive number or one per frequency"),
])
def test_bad_xi_names_itself(xi, exc, match):
    with pytest.raises(exc, match=match):
        sftwave.cwt(np.ones(300), FREQS, FS, xi=xi)


def test_morlet_transform_takes_one_xi():
    with pytest.raises(TypeError, match="xi must be a real number"):
        sftwave.morlet_transform(np.ones(100), 10.0, xi=np.array([6.0, 7.0]))
