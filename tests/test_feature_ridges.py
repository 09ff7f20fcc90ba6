"""sftwave.feature.sato and meijering: against their definitions written with scipy, and scikit-image.

The reference (no scikit-image needed): scikit-image's Gaussian-derivative
Hessian written with scipy (``skimage_gaussian_hessian`` of test_feature.py:
kernels truncated at 8 sigma, as scikit-image's), eigenvalues per pixel by
``np.linalg.eigvalsh``, then Sato's / Meijering's formula as scikit-image
writes it.  sftwave's Hessian meets ``tol=1e-8`` (relative RMS per filter,
within about 1e-9 of scipy's result at that truncation, as test_feature.py
checks, in RMS relative to the filter's scale: the bound there is ``20 tol``);
the eigenvalues agree with eigvalsh's to about 16 eps of the matrix's norm; so
the outputs agree to ``20 tol`` of their scale (the largest output: sigma^2
times the largest eigenvalue for Sato, 1 for Meijering's normalised output).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg
from test_feature import skimage_gaussian_hessian, upper_pairs, vessel_tree

from sftwave.feature import meijering, sato

TOL = 1e-8
BOUND = 20 * TOL


def eigenvalues(image, sigma, mode, cval):
    """The Hessian's eigenvalues, decreasing, shape ``(ndim,) + image.shape`` (np.linalg.eigvalsh)."""
    n = image.ndim
    H = skimage_gaussian_hessian(image, sigma, mode, cval)
    M = np.empty(image.shape + (n, n))
    for (i, j), h in zip(upper_pairs(n), H, strict=True):
        M[..., i, j] = M[..., j, i] = h
    return np.moveaxis(np.linalg.eigvalsh(M)[..., ::-1], -1, 0)


def sato_reference(image, sigmas, black_ridges=True, mode="reflect", cval=0.0):
    image = np.asarray(image, dtype=np.float64) * (1 if black_ridges else -1)
    out = np.zeros_like(image)
    for sigma in sigmas:
        eig = np.maximum(eigenvalues(image, sigma, mode, cval)[:-1], 0)
        out = np.maximum(out, sigma**2 * np.prod(eig, 0) ** (1 / len(eig)))
    return out


def meijering_reference(image, sigmas, alpha=None, black_ridges=True, mode="reflect", cval=0.0):
    image = np.asarray(image, dtype=np.float64) * (1 if black_ridges else -1)
    n = image.ndim
    alpha = 1 / (n + 1) if alpha is None else alpha
    mtx = linalg.circulant([1, *[alpha] * (n - 1)])
    out = np.zeros_like(image)
    for sigma in sigmas:
        vals = np.tensordot(mtx, eigenvalues(image, sigma, mode, cval), 1)
        vals = np.take_along_axis(vals, abs(vals).argmax(0)[None], 0)[0]
        vals = np.maximum(vals, 0)
        if vals.max() > 0:
            vals /= vals.max()
        out = np.maximum(out, vals)
    return out


def tube_3d():
    z, r, c = np.mgrid[0:20, 0:22, 0:24].astype(float)
    img = 1.0 - 0.8 * np.exp(-((r - 11) ** 2 + (c - 12) ** 2) / (2 * 1.5**2))     # a tube along z
    return img + 0.01 * np.random.default_rng(22).standard_normal(img.shape)


@pytest.mark.parametrize("sigmas", [[1, 2, 3], [6.0, 11.0]])
@pytest.mark.parametrize("kwargs", [{}, {"black_ridges": False}, {"mode": "constant", "cval": 0.5}])
def test_sato_2d_against_the_definition(sigmas, kwargs):
    img, _, _ = vessel_tree()
    got = sato(img, sigmas=sigmas, tol=TOL, **kwargs)
    ref = sato_reference(img, sigmas, **kwargs)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ref, rtol=0, atol=BOUND * ref.max())


@pytest.mark.parametrize("sigmas", [[1, 2, 3], [6.0, 11.0]])
@pytest.mark.parametrize("kwargs", [{}, {"alpha": -0.2}, {"black_ridges": False, "mode": "nearest"}])
def test_meijering_2d_against_the_definition(sigmas, kwargs):
    img, _, _ = vessel_tree()
    got = meijering(img, sigmas=sigmas, tol=TOL, **kwargs)
    ref = meijering_reference(img, sigmas, **kwargs)
    np.testing.assert_allclose(got, ref, rtol=0, atol=BOUND)


@pytest.mark.parametrize("func, ref", [(sato, sato_reference), (meijering, meijering_reference)])
def test_3d_against_the_definition(func, ref):
    img = tube_3d()
    got = func(img, sigmas=[1.0, 2.5], tol=TOL)
    want = ref(img, [1.0, 2.5])
    np.testing.assert_allclose(got, want, rtol=0, atol=BOUND * want.max())
    assert got[10, 11, 12] > 0.5 * got.max() and got[10, 2, 2] < 0.1 * got.max()    # the tube


def test_ridges_find_the_vessel_tree():
    img, r, c = vessel_tree()
    for func in (sato, meijering):
        v = func(img, sigmas=[2, 3])
        floor = 5 * np.percentile(v[(np.abs(c - 48) > 12) & (r < 30)], 99)     # away from the tree
        assert v[20:35, 48].min() > floor                                     # the trunk
        assert v[75, 18] > floor and v[75, 66] > floor                        # both branches


def test_ridges_dtypes_and_errors():
    img, _, _ = vessel_tree((40, 40))
    for func in (sato, meijering):
        # any memory layout: a transposed (Fortran-ordered) image and a strided view
        np.testing.assert_array_equal(func(img.T, sigmas=[2]), func(img.T.copy(), sigmas=[2]))
        wide = np.repeat(img, 2, axis=1)
        np.testing.assert_array_equal(func(wide[:, ::2], sigmas=[2]), func(img, sigmas=[2]))
        assert func(img.astype(np.float32), sigmas=[2]).dtype == np.float32
        assert func(img.astype(np.float16), sigmas=[2]).dtype == np.float32
        u8 = (img * 200).clip(0, 255).astype(np.uint8)       # not rescaled (scikit-image's rule)
        np.testing.assert_allclose(func(u8, sigmas=[2]), func(u8.astype(float), sigmas=[2]))
        np.testing.assert_array_equal(func(img, sigmas=2), func(img, sigmas=[2]))
        with pytest.raises(ValueError, match="2-D or 3-D"):
            func(np.ones(10))
        with pytest.raises(ValueError, match="sigmas"):
            func(img, sigmas=[1, 0])
        with pytest.raises(TypeError, match="sigmas"):
            func(img, sigmas=["a"])
        with pytest.raises(ValueError, match="mode"):
            func(img, mode="bogus")
        with pytest.raises(TypeError, match="image must be real"):
            func(img.astype(complex))
    with pytest.raises(TypeError, match="alpha"):
        meijering(img, alpha="a")
    with pytest.raises(ValueError, match="alpha"):
        meijering(img, alpha=np.inf)


@pytest.mark.parametrize("name", ["sato", "meijering"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_as_scikit_image(name, dtype):
    filters = pytest.importorskip("skimage.filters")
    img, _, _ = vessel_tree()
    img = img.astype(dtype)
    ours, theirs = {"sato": sato, "meijering": meijering}[name], getattr(filters, name)
    for kwargs in [{}, {"black_ridges": False}, {"sigmas": [4, 9]}]:
        got, want = ours(img, **kwargs), theirs(img, **kwargs)
        assert got.dtype == want.dtype
        # scikit-image's Hessian kernels are truncated at 8 sigma (a kernel error near 1e-14);
        # sftwave's default for the Hessian's Gaussian derivatives is tol=1e-7 per pass: two
        # passes per element, within 20 tol of the largest response
        scale = float(np.abs(want).max())
        atol = 2e-6 * scale
        np.testing.assert_allclose(got, want, rtol=0, atol=atol)
    vol = tube_3d().astype(dtype)
    np.testing.assert_allclose(ours(vol, sigmas=[1, 2]), theirs(vol, sigmas=[1, 2]), rtol=0,
                               atol=2e-6)


def test_nan_is_confined_and_threads_do_not_matter():
    import sftwave

    img, _, _ = vessel_tree((80, 80))
    img[40, 40] = np.nan
    for func in (sato, meijering):
        v = func(img, sigmas=[2, 3])
        assert np.isnan(v[40, 40]) and np.isfinite(v[:3, :3]).all()
    img, _, _ = vessel_tree()
    vol = tube_3d()
    results = []
    for workers in (1, 3):
        with sftwave.set_workers(workers):
            results.append([func(x, sigmas=[1.5, 3]) for func in (sato, meijering) for x in (img, vol)])
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)
