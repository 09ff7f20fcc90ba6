"""Fuzzing the public functions, finite and non-finite inputs.

hypothesis draws shapes (0-d, zero-length axes, one sample, long lines), dtypes
(bool, signed and unsigned integers, float16/32/64, complex, big-endian),
layouts (C, Fortran, negative and transposed strides), sigma from tiny to far
beyond the signal, every mode, orders 0 to 4, and the axis.  Each call must
return scipy's shape and output dtype, finite values, and a result no less
accurate than scipy's against the exact filter (scipy at ``truncate=12``, in
float64): the accuracy contract of the default path.  Where scipy cannot run
(float16 input), the float32 result of the same samples is the reference.

The same arrays, floating or complex, with NaN, +inf and -inf drawn at 1 to 3
positions (and sometimes a NaN ``cval``): the non-finite outputs must be
exactly those whose plan's support reads a non-finite sample (``naive.reach``,
axis after axis for ``gaussian_filter``), and every other output what the
function gives with those samples set to 0, up to the recursions' residue.
"""

import numpy as np
import pytest
import scipy.ndimage as ndi
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from naive import exact_morlet_transform, reach

from sftwave import engines, gaussian_filter, gaussian_filter1d, morlet_transform, wavelets
from sftwave.engines import nonfinite
from sftwave.ndimage import _plan_axis

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64", "float16", "float32",
          "float64", "complex64", "complex128", ">f8", ">i4"]
MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-wrap", "grid-constant"]


@st.composite
def arrays(draw, dtypes=tuple(DTYPES)):
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 40), min_size=ndim, max_size=ndim)))
    if ndim == 1 and draw(st.booleans()):
        shape = (draw(st.integers(200, 3000)),)
    dtype = np.dtype(draw(st.sampled_from(list(dtypes))))
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


# ----------------------------------------------------------------------------- non-finite input

FLOAT_DTYPES = ("float16", "float32", "float64", "complex64", "complex128", ">f8")


@st.composite
def gappy_arrays(draw):
    """Floating or complex arrays (at least one sample) with NaN/+inf/-inf at drawn positions."""
    x = draw(arrays(dtypes=FLOAT_DTYPES)).copy()
    if x.size == 0 or x.ndim == 0:
        x = np.resize(x, (draw(st.integers(1, 50)),))
    flat = x.reshape(-1)      # a view: copy() gave a contiguous array
    for _ in range(draw(st.integers(1, 3))):
        flat[draw(st.integers(0, x.size - 1))] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    layout = draw(st.sampled_from(["C", "F", "reversed"]))
    if layout == "F":
        x = np.asfortranarray(x)
    elif layout == "reversed":
        x = x[..., ::-1]
    return x


def _gaussian_support(sigma, order, n, mode):
    plan = _plan_axis(engines.get("numba"), "numba", sigma, order, n, truncate=4.0, radius=None,
                      method="auto", transform="auto", tol=None)
    return nonfinite.support(plan, n)


def _reach_along(bad, axis, left, right, mode, cval_bad):
    """The outputs along ``axis`` whose support reads a bad sample (or a bad cval)."""
    moved = np.moveaxis(bad, axis, -1)
    n = moved.shape[-1]
    out = np.zeros(moved.shape, bool)
    for idx in np.ndindex(moved.shape[:-1]):
        line = moved[idx]
        if line.any():
            out[idx] = reach(n, np.flatnonzero(line), left, right, mode)
        if cval_bad and mode in ("constant", "grid-constant"):
            i = np.arange(n)
            out[idx] |= (i - left < 0) | (i + right >= n)
    return np.moveaxis(out, -1, axis)


def _check_confined(got, bad_out, x, zeroed, label, cval_change=0.0):
    assert np.array_equal(~np.isfinite(got), bad_out), (label, int((~np.isfinite(got)).sum()),
                                                        int(bad_out.sum()))
    ok = ~bad_out
    if not ok.any():
        return
    amp = float(np.max(np.abs(np.where(np.isfinite(x), x, 0)), initial=0.0)) + cval_change
    scale = float(np.max(np.abs(zeroed[ok]), initial=0.0))
    eps = np.finfo(got.dtype).eps
    single = got.dtype in (np.float16, np.float32, np.complex64)
    tol = (2e-5 if single else 1e-12) * (scale + amp) + 4 * eps * scale
    assert np.max(np.abs(got[ok].astype(np.complex128) - zeroed[ok])) <= tol, label


@SETTINGS
@given(x=gappy_arrays(), sigma=st.sampled_from([0.4, 1.0, 2.5, 7.0, 30.0, 300.0, 1e4]),
       mode=st.sampled_from(MODES), order=st.integers(0, 4), axis_pick=st.integers(0, 2),
       nan_cval=st.booleans())
def test_gaussian_filter1d_nonfinite_fuzz(x, sigma, mode, order, axis_pick, nan_cval):
    axis = axis_pick % x.ndim
    cval = np.nan if nan_cval else 1.5
    got = gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode, cval=cval)
    label = (x.dtype, x.shape, x.strides, sigma, mode, order, axis, cval)
    assert got.dtype == x.dtype.newbyteorder("="), label
    bad = ~np.isfinite(x)
    left, right = _gaussian_support(sigma, order, x.shape[axis], mode)
    canon = {"grid-wrap": "wrap", "grid-constant": "constant"}.get(mode, mode)
    bad_out = _reach_along(bad, axis, left, right, canon, nan_cval)
    zeroed = gaussian_filter1d(np.where(bad, 0, x), sigma, axis=axis, order=order, mode=mode,
                               cval=0.0 if nan_cval else cval).astype(np.complex128)
    _check_confined(got, bad_out, x, zeroed, label)


@SETTINGS
@given(x=gappy_arrays(), sigma=st.sampled_from([0.0, 0.6, 2.0, 9.0, 120.0]),
       mode=st.sampled_from(MODES), order=st.integers(0, 2))
def test_gaussian_filter_nonfinite_fuzz(x, sigma, mode, order):
    """All axes in turn: the bad set grows axis after axis, as a separable convolution's."""
    got = gaussian_filter(x, sigma, order=order, mode=mode)
    label = (x.dtype, x.shape, x.strides, sigma, mode, order)
    bad_out = ~np.isfinite(x)
    canon = {"grid-wrap": "wrap", "grid-constant": "constant"}.get(mode, mode)
    if sigma > 1e-15:
        for axis in range(x.ndim):
            left, right = _gaussian_support(sigma, order, x.shape[axis], mode)
            bad_out = _reach_along(bad_out, axis, left, right, canon, False)
    zeroed = gaussian_filter(np.where(np.isfinite(x), x, 0), sigma, order=order,
                             mode=mode).astype(np.complex128)
    _check_confined(got, bad_out, x, zeroed, label)


@SETTINGS
@given(x=gappy_arrays(), sigma=st.sampled_from([2.0, 6.5, 25.0, 140.0]),
       mode=st.sampled_from(MORLET_MODES), axis_pick=st.integers(0, 2), decim=st.integers(1, 3))
def test_cwt_nonfinite_fuzz(x, sigma, mode, axis_pick, decim):
    """cwt at one or two scales: per row, the non-finite coefficients are those whose wavelet
    support reads a non-finite sample (decimated as the output)."""
    axis = axis_pick % x.ndim
    n = x.shape[axis]
    freqs = [float(wavelets.scale_to_frequency(s)) for s in (sigma, 2 * sigma) if
             wavelets.scale_to_frequency(s) <= 0.5]
    y = sftwave_cwt(x, freqs, axis=axis, mode=mode, decim=decim)
    label = (x.dtype, x.shape, x.strides, sigma, mode, axis, decim)
    bad = np.moveaxis(~np.isfinite(x), axis, -1)
    zeroed = sftwave_cwt(np.where(np.isfinite(x), x, 0), freqs, axis=axis, mode=mode, decim=decim)

    def scales_of(xi):
        return [(float(s), 6.0) for s in wavelets.frequency_to_scale(np.asarray(freqs), 1.0, 6.0)]

    _, _, plans, _ = wavelets._plan_scalogram(
        x, scales_of, xi=6.0, axis=axis, mode=mode, cval=0.0, output="complex", tol=None,
        dtype=None, method="auto", transform="auto", bank_method="auto", decim=decim, out=None,
        workers=None, engine=None)
    bad_out = np.zeros(y.shape, bool)
    for f, plan in enumerate(plans):
        left, right = nonfinite.support(plan, n)
        bad_out[..., f, :] = _reach_along(bad, bad.ndim - 1, left, right, mode, False)[..., ::decim]
    _check_confined(y, bad_out, x, zeroed.astype(np.complex128), label)


def sftwave_cwt(x, freqs, **kw):
    from sftwave import cwt

    return cwt(x, freqs, **kw)


@SETTINGS
@given(x=gappy_arrays(), sigma=st.sampled_from([0.7, 3.0, 20.0, 300.0]),
       mode=st.sampled_from(["reflect", "mirror", "nearest", "wrap", "constant"]),
       order=st.integers(0, 2), axis_pick=st.integers(0, 2))
def test_xp_engine_nonfinite_fuzz(x, sigma, mode, order, axis_pick):
    """The array-API engine on the same gappy arrays: its own plans' supports."""
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    x = x.astype(x.dtype.newbyteorder("="))
    axis = axis_pick % x.ndim
    got = np.asarray(gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode, cval=0.5,
                                       engine="xp"))
    plan = _plan_axis(engines.get("xp"), "xp", sigma, order, x.shape[axis], truncate=4.0,
                      radius=None, method="auto", transform="auto", tol=None)
    left, right = nonfinite.support(plan, x.shape[axis])
    bad_out = _reach_along(~np.isfinite(x), axis, left, right, mode, False)
    zeroed = np.asarray(gaussian_filter1d(np.where(np.isfinite(x), x, 0), sigma, axis=axis,
                                          order=order, mode=mode, cval=0.5, engine="xp"))
    _check_confined(got, bad_out, x, zeroed.astype(np.complex128),
                    (x.dtype, x.shape, sigma, mode, order, axis))


@SETTINGS
@given(x=arrays(dtypes=("float32", "float64", "int16", "uint8", ">f8")),
       sigma=st.sampled_from([0.5, 1.5, 4.0, 25.0]),
       mode=st.sampled_from(["reflect", "mirror", "nearest", "wrap", "constant"]))
def test_laplace_and_gradient_magnitude_fuzz(x, sigma, mode):
    """gaussian_laplace and gaussian_gradient_magnitude on drawn arrays: scipy's shape and
    dtype, finite, and no less accurate than scipy against scipy at truncate=12."""
    from sftwave import gaussian_gradient_magnitude, gaussian_laplace

    for ours, theirs in ((gaussian_laplace, ndi.gaussian_laplace),
                         (gaussian_gradient_magnitude, ndi.gaussian_gradient_magnitude)):
        got = ours(x, sigma, mode=mode)
        label = (ours.__name__, x.dtype, x.shape, x.strides, sigma, mode)
        assert got.shape == x.shape and got.dtype == x.dtype.newbyteorder("="), label
        if got.dtype.kind in "iu" or x.ndim == 0:
            continue          # cast as scipy casts (tested elsewhere); 0-d: the input itself
        xr = x.astype(np.float64)
        exact = theirs(xr, sigma, mode=mode, truncate=12.0)
        _check(got, theirs(xr, sigma, mode=mode), exact, x, label)
