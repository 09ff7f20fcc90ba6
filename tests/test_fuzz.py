"""Fuzzing the Gaussian filters (issue 12, item 5; finite inputs so far).

hypothesis draws shapes (0-d, zero-length axes, one sample, long lines), dtypes
(bool, signed and unsigned integers, float16/32/64, complex, big-endian),
layouts (C, Fortran, negative and transposed strides), sigma from tiny to far
beyond the signal, every mode, orders 0 to 4, and the axis.  Each call must
return scipy's shape and output dtype, finite values, and a result no less
accurate than scipy's against the exact filter (scipy at ``truncate=12``, in
float64): the accuracy contract of the default path.  Where scipy cannot run
(float16 input), the float32 result of the same samples is the reference.
"""

import numpy as np
import pytest
import scipy.ndimage as ndi
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from naive import exact_morlet_transform

from sftwave import gaussian_filter, gaussian_filter1d, morlet_transform

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64", "float16", "float32",
          "float64", "complex64", "complex128", ">f8", ">i4"]
MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-wrap", "grid-constant"]


@st.composite
def arrays(draw):
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 40), min_size=ndim, max_size=ndim)))
    if ndim == 1 and draw(st.booleans()):
        shape = (draw(st.integers(200, 3000)),)
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    base = np.cumsum(rng.standard_normal(shape), axis=-1) if ndim else rng.standard_normal(())
    base = base * 10 + draw(st.sampled_from([0.0, 50.0]))
    if dtype.kind == "b":
        x = base > 50.0
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = np.clip(np.round(base), max(info.min, -1000), min(info.max, 1000)).astype(dtype)
    elif dtype.kind == "c":
        x = (base + 1j * base[::-1] if ndim else base + 0.5j).astype(dtype)
    else:
        x = base.astype(dtype)
    layout = draw(st.sampled_from(["C", "F", "reversed", "transposed"]))
    if layout == "F":
        x = np.asfortranarray(x)
    elif layout == "reversed" and ndim:
        x = x[..., ::-1]
    elif layout == "transposed" and ndim >= 2:
        x = np.ascontiguousarray(x.T).T
    return x


def _reference_input(x):
    """float64 (or complex128) samples of ``x``, the exact filter's input."""
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def _rel_err(y, ref):
    d = np.abs(np.asarray(y, np.complex128) - ref)
    scale = np.sqrt(np.mean(np.abs(ref) ** 2)) if ref.size else 0.0
    return float(np.sqrt(np.mean(d ** 2)) / scale) if scale > 0 else float(np.max(d, initial=0.0))


def _check(ours, theirs_default, exact, x, label):
    assert ours.shape == x.shape, label
    assert np.all(np.isfinite(ours)), label
    e_ours = _rel_err(ours, exact)
    e_scipy = _rel_err(theirs_default, exact)
    # the dtype's own rounding of the output (float16/32 results are rounded once)
    eps = np.finfo(ours.dtype).eps if ours.dtype.kind in "fc" else 0.0
    assert e_ours <= e_scipy * (1 + 1e-6) + 4 * eps + 1e-12, (label, e_ours, e_scipy)


@SETTINGS
@given(x=arrays(), sigma=st.sampled_from([1e-3, 0.4, 1.0, 2.5, 7.0, 30.0, 300.0, 1e4]),
       mode=st.sampled_from(MODES), order=st.integers(0, 4), axis_pick=st.integers(0, 2))
def test_gaussian_filter1d_fuzz(x, sigma, mode, order, axis_pick):
    """gaussian_filter1d on drawn arrays: scipy's shape and dtype, finite, scipy's accuracy."""
    if x.ndim == 0:
        with pytest.raises(ValueError, match="axis"):
            gaussian_filter1d(x, sigma, order=order, mode=mode)
        return
    axis = axis_pick % x.ndim
    got = gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode, cval=1.5)
    label = (x.dtype, x.shape, x.strides, sigma, mode, order, axis)
    assert got.dtype == x.dtype.newbyteorder("="), label
    if got.dtype.kind in "biu":
        # integer and bool outputs are cast as scipy casts them; the accuracy is the float result's
        got = gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode, cval=1.5,
                                output=np.float64)
    xr = _reference_input(x)
    exact = ndi.gaussian_filter1d(xr, sigma, axis=axis, order=order, mode=mode, cval=1.5,
                                  truncate=12.0)
    if x.dtype == np.float16:   # scipy refuses float16: its float32 run is the reference
        scipy_default = ndi.gaussian_filter1d(x.astype(np.float32), sigma, axis=axis, order=order,
                                              mode=mode, cval=1.5)
    else:
        scipy_default = ndi.gaussian_filter1d(xr, sigma, axis=axis, order=order, mode=mode,
                                              cval=1.5)
    _check(got, scipy_default, exact, x, label)


@SETTINGS
@given(x=arrays(), sigma=st.sampled_from([0.0, 0.6, 2.0, 9.0, 120.0]),
       mode=st.sampled_from(MODES), order=st.integers(0, 3))
def test_gaussian_filter_fuzz(x, sigma, mode, order):
    """gaussian_filter on drawn arrays (all axes, one sigma and order for all)."""
    got = gaussian_filter(x, sigma, order=order, mode=mode, cval=-0.5, output=np.complex128
                          if x.dtype.kind == "c" else np.float64)
    xr = _reference_input(x)
    exact = ndi.gaussian_filter(xr, sigma, order=order, mode=mode, cval=-0.5, truncate=12.0)
    scipy_default = ndi.gaussian_filter(xr, sigma, order=order, mode=mode, cval=-0.5)
    _check(got, scipy_default, exact, x, (x.dtype, x.shape, x.strides, sigma, mode, order))


MORLET_MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


@SETTINGS
@given(x=arrays(), sigma=st.sampled_from([2.0, 6.5, 25.0, 140.0]),
       xi=st.sampled_from([2.0, 5.0, 6.0]), mode=st.sampled_from(MORLET_MODES),
       axis_pick=st.integers(0, 2))
def test_morlet_transform_fuzz(x, sigma, xi, mode, axis_pick):
    """morlet_transform on drawn arrays: the input's shape, complex output, finite, and every
    line within 1e-3 (relative RMS) of the exact transform, the default contract (1e-2 for a
    float16 or float32 input, whose transform runs in single precision)."""
    if x.ndim == 0:
        with pytest.raises(ValueError, match="axis"):
            morlet_transform(x, sigma, xi=xi, mode=mode)
        return
    axis = axis_pick % x.ndim
    y = morlet_transform(x, sigma, xi=xi, axis=axis, mode=mode, cval=0.25)
    label = (x.dtype, x.shape, x.strides, sigma, xi, mode, axis)
    assert y.shape == x.shape, label
    assert y.dtype.kind == "c", label
    assert np.all(np.isfinite(y)), label
    single = x.dtype in (np.float16, np.float32, np.complex64)
    bound = 1e-2 if single else 1e-3
    if x.size == 0:
        return
    xr = np.moveaxis(_reference_input(x), axis, -1).reshape(-1, x.shape[axis])
    yr = np.moveaxis(y, axis, -1).reshape(-1, x.shape[axis])
    for line, got in zip(xr[:4], yr[:4]):
        ref = exact_morlet_transform(line, sigma, xi, mode, 0.25)
        scale = np.sqrt(np.mean(np.abs(ref) ** 2)) if ref.size else 0.0
        if scale < 1e-12 * max(1.0, float(np.max(np.abs(line), initial=0.0))):
            continue                 # a transform that is zero up to rounding: nothing relative
        err = np.sqrt(np.mean(np.abs(got - ref) ** 2)) / scale
        assert err <= bound, (label, err)
        event("a line compared with the exact transform")
