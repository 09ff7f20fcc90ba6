"""The fused Sobel products of the 2-D structure tensor against scipy.ndimage.sobel's."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage as ndi

from sftwave.engines.numba.gradients import sobel_products_2d


def scipy_products(img, mode, cval=0.0):
    s0, s1 = (ndi.sobel(img, axis=i, mode=mode, cval=cval) for i in range(2))
    return s0 * s0, s0 * s1, s1 * s1


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
@pytest.mark.parametrize("shape", [(2, 2), (2, 7), (9, 1), (33, 40)])
def test_products_equal_scipys(mode, shape):
    """float64: the same sums in another order, so within a few units of rounding of the
    largest product."""
    img = np.random.default_rng(sum(shape)).standard_normal(shape)
    for got, ref in zip(sobel_products_2d(img, mode, 0.0, np.float64), scipy_products(img, mode),
                        strict=True):
        assert got.dtype == np.float64 and got.shape == ref.shape
        assert np.max(np.abs(got - ref)) <= 1e-14 * max(np.max(np.abs(ref)), 1.0)


def test_float32_and_strided_views():
    """float32 products from float64 arithmetic: within float32 rounding of scipy's, which
    rounds each of its passes to float32."""
    img = np.random.default_rng(3).standard_normal((60, 90)).astype(np.float32)[::2, 1::3]
    for got, ref in zip(sobel_products_2d(img, "reflect", 0.0, np.float32),
                        scipy_products(img, "reflect"), strict=True):
        assert got.dtype == np.float32
        assert np.max(np.abs(got - ref)) <= 4e-6 * np.max(np.abs(ref))


def test_nonfinite_pixels_spoil_the_same_products_as_scipys():
    img = np.random.default_rng(4).standard_normal((20, 21))
    img[5, 6] = np.nan
    img[14, 0] = np.inf
    img[0, 20] = -np.inf
    for mode in ("reflect", "constant", "wrap"):
        for got, ref in zip(sobel_products_2d(img, mode, 0.0, np.float64),
                            scipy_products(img, mode), strict=True):
            assert np.array_equal(np.isnan(got), np.isnan(ref))
            assert np.array_equal(np.isinf(got), np.isinf(ref))
            ok = np.isfinite(ref)
            assert np.allclose(got[ok], ref[ok], rtol=1e-13, atol=1e-13)


def test_a_nonzero_cval_is_refused():
    """scipy extends its second pass by cval, which one padded pass cannot give: the caller
    keeps scipy's filters for it (test_feature covers that path)."""
    with pytest.raises(ValueError, match="cval"):
        sobel_products_2d(np.ones((4, 4)), "constant", 0.5, np.float64)
