"""sftwave.feature on array-API arrays (torch tensors here): the numpy path's results, the same
array type out.

The Gaussian filters run on the 'xp' engine. Where it takes the same plan as the CPU
engine (every case here but the small sigmas of scipy's truncate=4, see the DoG test, and the
FIR the CPU engine designs to the bank's error for float64 from sigma about 2.5 to 4.7), its
SFT differs from the CPU engine's recursions only by rounding (its tests bound it), and
the eigenvalues come from the library's ``eigvalsh`` rather than the closed forms: within
1e-9 of the numpy result's largest magnitude in float64, 2e-4 in float32.
"""

from __future__ import annotations

import numpy as np
import pytest

from sftwave import feature

torch = pytest.importorskip("torch")
pytest.importorskip("array_api_compat")


def _close(got, ref, rel):
    assert isinstance(got, torch.Tensor)
    g = got.detach().cpu().numpy()
    assert g.shape == ref.shape and g.dtype == ref.dtype, (g.shape, ref.shape, g.dtype, ref.dtype)
    assert np.array_equal(np.isnan(g), np.isnan(ref))
    ok = ~np.isnan(ref)
    scale = max(float(np.max(np.abs(ref[ok]), initial=0.0)), 1e-300)
    assert np.max(np.abs(g[ok] - ref[ok]), initial=0.0) <= rel * scale


def _image(shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    img = np.cumsum(np.cumsum(rng.standard_normal(shape), 0), 1)
    img[tuple(s // 3 for s in shape)] += 40.0
    return img.astype(dtype)


REL = {np.float64: 1e-9, np.float32: 2e-4}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("gd", [True, False])
@pytest.mark.parametrize("mode", ["constant", "reflect", "nearest"])
def test_hessian_matrix_and_eigvals(dtype, gd, mode):
    """With Gaussian derivatives the default accuracy is tol=1e-7, which the two engines may
    meet by different plans (the CPU engine's can be attenuated ones): each pass within
    1e-7 of the exact kernel, two passes per element, so the elements agree within 20 tol of
    their largest magnitude (the bound tests/test_feature.py uses against the exact filter).
    Without them, at sigma 3, the CPU engine smooths a float64 image by a FIR designed to the
    bank's error and the 'xp' engine by the bank: each within the kernel-error contract (about
    5e-6 of the kernel), their second differences within 1e-3 of the largest (as the DoG test)."""
    img = _image((40, 52), dtype)
    t = torch.from_numpy(img)
    for sigma in (1.0, 3.0):
        rel = (max(REL[dtype], 20 * 1e-7) if gd
               else 1e-3 if sigma > 2 and dtype == np.float64 else REL[dtype])
        H = feature.hessian_matrix(t, sigma, mode=mode, cval=0.5, use_gaussian_derivatives=gd)
        ref = feature.hessian_matrix(img, sigma, mode=mode, cval=0.5, use_gaussian_derivatives=gd)
        for h, r in zip(H, ref, strict=True):
            _close(h, r, rel)
        _close(feature.hessian_matrix_eigvals(H), feature.hessian_matrix_eigvals(ref), rel)


def test_3d_eigenvalues_and_nan():
    vol = _image((12, 14, 16), seed=1)
    vol[5, 6, 7] = np.nan
    t = torch.from_numpy(vol)
    H = feature.hessian_matrix(t, 2.0, use_gaussian_derivatives=True)
    ref = feature.hessian_matrix(vol, 2.0, use_gaussian_derivatives=True)
    for h, r in zip(H, ref, strict=True):
        _close(h, r, 1e-9)
    ev = feature.hessian_matrix_eigvals(H)
    assert ev.shape == (3,) + vol.shape
    _close(ev, feature.hessian_matrix_eigvals(ref), 1e-9)
    assert bool(torch.isnan(ev[:, 5, 6, 7]).all())


@pytest.mark.parametrize("mode", ["constant", "reflect", "mirror", "wrap"])
def test_structure_tensor(mode):
    img = _image((30, 1, 44), seed=2)            # a length-1 axis, squeezed as numpy does
    t = torch.from_numpy(img)
    A = feature.structure_tensor(t, 1.5, mode=mode, cval=-2.0, order="xy")
    ref = feature.structure_tensor(img, 1.5, mode=mode, cval=-2.0, order="xy")
    for a, r in zip(A, ref, strict=True):
        _close(a, r, 1e-9)
    _close(feature.structure_tensor_eigenvalues(A), feature.structure_tensor_eigenvalues(ref), 1e-9)


def test_difference_of_gaussians_and_integer_input():
    """At scipy's truncate=4 the two engines may take different plans for one sigma (the CPU
    engine scipy's FIR, the 'xp' engine an SFT plan), each within the kernel-error contract
    (a quarter of scipy's kernel error, about 1e-4 of the kernel): 1e-3 of the largest value."""
    img = (_image((36, 40), seed=3) % 255).astype(np.uint8)
    t = torch.from_numpy(img)
    for low, high in ((1.0, None), ((0.0, 2.0), (0.0, 5.0))):
        _close(feature.difference_of_gaussians(t, low, high),
               feature.difference_of_gaussians(img, low, high), 1e-3)
    rgb = torch.from_numpy(np.stack([img, img // 2], axis=-1))
    _close(feature.difference_of_gaussians(rgb, 2.0, channel_axis=-1),
           feature.difference_of_gaussians(rgb.numpy(), 2.0, channel_axis=-1), 1e-3)


@pytest.mark.parametrize("gamma", [None, 0.2])
def test_frangi_2d_and_3d(gamma):
    img = np.ones((40, 36))
    img[:, 18] = 0.0
    img += 0.05 * _image((40, 36), seed=4) / 100
    _close(feature.frangi(torch.from_numpy(img), sigmas=[1, 2], gamma=gamma),
           feature.frangi(img, sigmas=[1, 2], gamma=gamma), 1e-9)
    _close(feature.frangi(torch.from_numpy(img), sigmas=[1, 2], black_ridges=False),
           feature.frangi(img, sigmas=[1, 2], black_ridges=False), 1e-9)
    vol = (np.ones((14, 12, 16)) - np.exp(-np.arange(16) ** 2 / 4.0)).astype(np.float32)
    got = feature.frangi(torch.from_numpy(vol), sigmas=[1.5])
    assert got.dtype == torch.float32
    _close(got, feature.frangi(vol, sigmas=[1.5]), 2e-4)


@pytest.mark.parametrize("name", ["sato", "meijering"])
def test_sato_and_meijering_2d_and_3d(name):
    fn = getattr(feature, name)
    img = np.ones((40, 36))
    img[:, 18] = 0.0
    img += 0.05 * _image((40, 36), seed=6) / 100
    # the Hessian's passes at sigma / sqrt(2) may take other plans on the 'xp' engine than on
    # numba's (an SFT for a FIR), each within DERIVATIVE_TOL = 1e-7 of the exact Gaussian: the
    # responses, linear in the Hessian's eigenvalues, within twice that of each other
    for black in (True, False):
        _close(fn(torch.from_numpy(img), sigmas=[1, 2], black_ridges=black),
               fn(img, sigmas=[1, 2], black_ridges=black), 2e-7)
    img[30, 5] = np.nan       # confined (the 'xp' engine's plans may reach further than numba's)
    got = fn(torch.from_numpy(img), sigmas=[1, 2]).numpy()
    assert np.isnan(got[30, 5]) and np.isfinite(got[:6]).all() and np.isfinite(got[:, 30:]).all()
    vol = (np.ones((14, 12, 16)) - np.exp(-np.arange(16) ** 2 / 4.0)).astype(np.float32)
    got = fn(torch.from_numpy(vol), sigmas=[1.5, 2.5])
    assert got.dtype == torch.float32
    _close(got, fn(vol, sigmas=[1.5, 2.5]), 2e-4)


def test_bad_input_on_tensors():
    with pytest.raises(TypeError, match="real"):
        feature.hessian_matrix(torch.zeros(5, 5, dtype=torch.complex64))
    with pytest.raises(ValueError, match="2-D or 3-D"):
        feature.frangi(torch.zeros(7))
    with pytest.raises(ValueError, match="2-D or 3-D"):
        feature.sato(torch.zeros(7))
    with pytest.raises(TypeError, match="real"):
        feature.meijering(torch.zeros(5, 5, dtype=torch.complex64))
    with pytest.raises(ValueError, match="one shape"):
        feature.hessian_matrix_eigvals([torch.zeros(3, 3), torch.zeros(3, 3), torch.zeros(3, 4)])
    with pytest.raises(ValueError, match="H_elems"):
        feature.hessian_matrix_eigvals([torch.zeros(3, 3), torch.zeros(3, 3)])


def test_autograd_flows_through_the_hessian():
    """torch in, torch out, differentiable: the gradient of a sum of the Hessian's trace."""
    t = torch.from_numpy(_image((20, 24), seed=5)).requires_grad_(True)
    Hrr, _, Hcc = feature.hessian_matrix(t, 2.0, use_gaussian_derivatives=True)
    (Hrr + Hcc).sum().backward()
    assert t.grad is not None and t.grad.shape == t.shape and bool(torch.isfinite(t.grad).all())


@pytest.mark.parametrize("call", [
    lambda t: feature.blob_log(t), lambda t: feature.blob_dog(t),
    lambda t: feature.gabor(t, 0.1), lambda t: feature.gabor_bank(t, [0.1], [0.0])])
def test_blobs_and_gabor_take_numpy_arrays_only(call):
    """Their results are NumPy (coordinates; the Gabor passes run on the numba engine): a tensor
    is refused with a TypeError that names the parameter and the way to a NumPy copy."""
    with pytest.raises(TypeError, match="image must be a NumPy array.*numpy"):
        call(torch.zeros(20, 20))
