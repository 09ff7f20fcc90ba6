"""gaussian_laplace and gaussian_gradient_magnitude: scipy's definitions, at least scipy's accuracy.

scipy's own tests of these functions (scipy/ndimage/tests/test_filters.py,
``test_gaussian_laplace01/02``, ``test_gaussian_gradient_magnitude01/02``) are
repeated here with sftwave's functions in place of scipy's.  Accuracy is
measured against scipy's own functions at ``truncate=12`` (the exact sampled
Gaussian to double precision): sftwave's error is at most scipy's at its
default truncation.
"""

import inspect

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import rel_rmse

import sftwave
from sftwave import gaussian_filter, gaussian_gradient_magnitude, gaussian_laplace

SMALL = np.array([[3, 2, 5, 1, 4], [5, 8, 3, 7, 1], [5, 6, 9, 3, 5]])


# ----------------------------------------------------------------------------- scipy's tests


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
def test_gaussian_laplace01(dtype):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [2, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 2])
    output = gaussian_laplace(array, 1.0)
    assert output.dtype == array.dtype
    np.testing.assert_array_almost_equal(tmp1 + tmp2, output)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
def test_gaussian_laplace02(dtype):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [2, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 2])
    output = np.zeros(array.shape, dtype=dtype)
    assert gaussian_laplace(array, 1.0, output) is output
    np.testing.assert_array_almost_equal(tmp1 + tmp2, output)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("given_output", [False, True])
def test_gaussian_gradient_magnitude01_02(dtype, given_output):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [1, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 1])
    if given_output:
        output = np.zeros(array.shape, dtype=dtype)
        assert gaussian_gradient_magnitude(array, 1.0, output) is output
    else:
        output = gaussian_gradient_magnitude(array, 1.0)
    expected = tmp1 * tmp1 + tmp2 * tmp2
    if dtype == "int32":
        expected = expected.astype(np.float64)
    expected = np.sqrt(expected).astype(dtype)
    np.testing.assert_allclose(output, expected, rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- accuracy


def _image(shape, seed):
    """A smooth field plus noise and an offset: derivatives that are neither all noise nor zero."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 3, n) for n in shape], indexing="ij")
    smooth = sum(np.sin((k + 1) * g + k) for k, g in enumerate(grids))
    return 40.0 + 10.0 * smooth + rng.standard_normal(shape)


@pytest.mark.parametrize("sigma", [1.5, 5.0, 20.0])
@pytest.mark.parametrize("mode", ["reflect", "nearest", "wrap", ("mirror", "constant")])
@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_at_least_scipys_accuracy(func, mode, sigma):
    """Against the exact filter (scipy's at truncate=12), sftwave's error is at most scipy's own
    at its default truncation, for small sigma (scipy's FIR) and large (the SFT bank)."""
    x = _image((70, 90), int(sigma * 10))
    ours, theirs = getattr(sftwave, func), getattr(ndi, func)
    exact = theirs(x, sigma, mode=mode, cval=2.0, truncate=12.0)
    e_ours = rel_rmse(ours(x, sigma, mode=mode, cval=2.0), exact)
    e_scipy = rel_rmse(theirs(x, sigma, mode=mode, cval=2.0), exact)
    assert e_ours <= e_scipy * (1 + 1e-9) + 1e-13, (e_ours, e_scipy)


def _with_axes(name):
    """scipy's ``name``; where it takes no ``axes`` (scipy < 1.15), what scipy >= 1.15 computes
    with them: the derivatives along ``axes``, each in its mode; gaussian_laplace smooths
    along ``axes`` only, gaussian_gradient_magnitude along every axis."""
    func = getattr(ndi, name)
    if "axes" in inspect.signature(func).parameters:
        return func
    laplace = name == "gaussian_laplace"

    def along(x, sigma, axes, mode="reflect", **kw):
        modes = [mode] * len(axes) if isinstance(mode, str) else list(mode)
        if laplace:
            sigma = [dict(zip(axes, np.broadcast_to(sigma, len(axes)))).get(d, 0.0)
                     for d in range(x.ndim)]
        n = 2 if laplace else 1
        parts = [ndi.gaussian_filter(x, sigma, [n * (d == a) for d in range(x.ndim)], mode=m, **kw)
                 for a, m in zip(axes, modes)]
        return sum(parts) if laplace else np.sqrt(sum(p * p for p in parts))

    return along


@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_axes_and_per_axis_arguments_as_scipy(func):
    """``axes`` subsets with per-axis sigma (laplace) and modes: scipy's result to its accuracy."""
    x = _image((20, 30, 40), 3)
    ours, theirs = getattr(sftwave, func), _with_axes(func)
    sigma = (2.0, 4.0) if func == "gaussian_laplace" else 3.0
    kw = dict(axes=(0, 2), mode=("reflect", "wrap"))
    exact = theirs(x, sigma, truncate=12.0, **kw)
    e_ours = rel_rmse(ours(x, sigma, **kw), exact)
    e_scipy = rel_rmse(theirs(x, sigma, **kw), exact)
    assert e_ours <= e_scipy * (1 + 1e-9) + 1e-13, (e_ours, e_scipy)


def test_no_axes_copies_the_input():
    x = _image((5, 6), 1)
    for func in (gaussian_laplace, gaussian_gradient_magnitude):
        np.testing.assert_array_equal(func(x, 2.0, axes=()), x)


def test_output_dtype_and_bad_arguments():
    """An output dtype is honoured; bad arguments name the parameter (as the filters do)."""
    x = (_image((30, 30), 2) * 3).astype(np.uint8)
    got = gaussian_laplace(x, 3.0, output=np.float64)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, gaussian_laplace(x.astype(np.float64), 3.0), rtol=1e-12)
    with pytest.raises(ValueError, match="sigma"):
        gaussian_laplace(x, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="mode"):
        gaussian_gradient_magnitude(x, 1.0, mode="bogus")
    with pytest.raises(ValueError, match="axes|axis"):
        gaussian_laplace(x, 1.0, axes=(0, 5))


ARR = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])


def test_multiple_modes_gaussian_gradient_magnitude():
    """scipy's test as it stands (its values to 7 decimals)."""
    expected = np.array([[0.04928965, 0.09745625, 0.06405368],
                         [0.23056905, 0.14025305, 0.04550846],
                         [0.19894369, 0.14950060, 0.06796850]])
    np.testing.assert_almost_equal(expected, gaussian_gradient_magnitude(ARR, 1, mode=["reflect", "wrap"]))


def test_multiple_modes_gaussian_laplace_is_closer_to_exact_than_scipys_values():
    """scipy's test asserts scipy's values to 7 decimals; sftwave's zero-sum second-derivative
    kernel differs from them by about 7e-5, and is closer to the exact filter than they are."""
    expected = np.array([[-0.28438687, 0.01559809, 0.19773499],
                         [-0.36630503, -0.20069774, 0.07483620],
                         [0.15849176, 0.18495566, 0.21934094]])
    modes = ["reflect", "wrap"]
    exact = ndi.gaussian_laplace(ARR, 1, mode=modes, truncate=12.0)
    got = gaussian_laplace(ARR, 1, mode=modes)
    np.testing.assert_allclose(got, expected, atol=2e-4)
    assert rel_rmse(got, exact) < rel_rmse(expected, exact)


# ----------------------------------------------------------------------------- input and engines


@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
@pytest.mark.parametrize("bad", [None, "abc", [[1.0, 2.0], [3.0]], object()])
def test_input_that_is_not_an_array_of_numbers_is_a_type_error(func, bad):
    """As gaussian_filter's: a TypeError (ValueError for a ragged nested list) naming ``input``,
    where a 0-d object or string array was returned."""
    with pytest.raises((TypeError, ValueError)) as ours:
        getattr(sftwave, func)(bad, 1.0)
    with pytest.raises(type(ours.value)) as filters:
        gaussian_filter(bad, 1.0)
    assert "input" in str(ours.value) and str(ours.value) == str(filters.value)


@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_every_engine_and_torch(func):
    """engine='xp' on numpy, and torch tensors (which choose it), give the CPU engine's result to
    the plans' accuracy (``tol=1e-8``: each engine chooses its own plans); torch in, torch out;
    ``output`` is the CPU engine's alone."""
    f = getattr(sftwave, func)
    x = _image((30, 40), 6)
    ref = f(x, 3.0, mode="wrap", tol=1e-8)
    bound = 1e-6 * np.abs(ref).max()
    xp_np = f(x, 3.0, mode="wrap", tol=1e-8, engine="xp")
    assert type(xp_np) is np.ndarray
    np.testing.assert_allclose(xp_np, ref, rtol=0, atol=bound)
    torch = pytest.importorskip("torch")
    got = f(torch.from_numpy(x), 3.0, mode="wrap", tol=1e-8)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float64
    np.testing.assert_allclose(got.numpy(), xp_np, rtol=0, atol=1e-12 * np.abs(ref).max())
    z = x + 1j * _image((30, 40), 7)
    zref = f(z, 3.0, tol=1e-8)
    np.testing.assert_allclose(f(z, 3.0, tol=1e-8, engine="xp"), zref, rtol=0,
                               atol=1e-6 * np.abs(zref).max())
    with pytest.raises(ValueError, match="output is not supported with engine='xp'"):
        f(x, 3.0, output=np.empty_like(x), engine="xp")


def test_torch_autograd_through_the_derivatives():
    """The Laplacian with mode='wrap' is a symmetric operator L (symmetric kernels on a
    circle), so the gradient of ``sum(w * L x)`` is ``L w`` (on the same engine: each engine
    has its own plans); the gradient magnitude's, a central difference."""
    torch = pytest.importorskip("torch")
    x, w = _image((24, 32), 8), np.random.default_rng(9).standard_normal((24, 32))
    t = torch.tensor(x, requires_grad=True)
    (gaussian_laplace(t, 2.5, mode="wrap") * torch.from_numpy(w)).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), gaussian_laplace(w, 2.5, mode="wrap", engine="xp"),
                               rtol=0, atol=1e-12)
    t = torch.tensor(x, requires_grad=True)
    (gaussian_gradient_magnitude(t, 2.5) * torch.from_numpy(w)).sum().backward()
    h = 1e-6
    v = np.random.default_rng(10).standard_normal(x.shape)
    fd = np.sum(w * (gaussian_gradient_magnitude(x + h * v, 2.5, engine="xp")
                     - gaussian_gradient_magnitude(x - h * v, 2.5, engine="xp"))) / (2 * h)
    assert abs(float(np.sum(t.grad.numpy() * v)) - fd) <= 1e-6 * abs(fd)


# ----------------------------------------------------------------------------- far from one


def test_gradient_magnitude_of_a_constant_near_the_largest_float_is_zero():
    """scipy's is NaN (a sum of two samples overflows, then inf - inf).  The Laplacian is the
    constant times the kernel's sum (zero but for the sampled kernel's aliasing term at small
    sigma), as for a constant of 1."""
    for shape in ((20, 20), (3, 50, 40)):
        x = np.full(shape, 1e308)
        for sigma in (1.0, 2.0, 30.0, 1e4):
            assert np.array_equal(gaussian_gradient_magnitude(x, sigma), np.zeros(shape))
            np.testing.assert_allclose(gaussian_laplace(x, sigma) / 1e308,
                                       gaussian_laplace(np.ones(shape), sigma), rtol=0, atol=1e-15)


@pytest.mark.parametrize("scale", [2.0 ** -1060, 1e-300, 1e-160, 1e160, 1e300])
def test_gradient_magnitude_far_from_one(scale):
    """A ramp of gradient 5 times ``scale``: scipy's squares overflow (inf) beyond 1e154 and
    underflow (0) below 1e-154; the magnitude scales with the data, to rounding (the ramp
    times a scale that is not a power of two rounds once per sample)."""
    y, x = np.mgrid[0:60, 0:70].astype(float)
    ramp = 3.0 * x + 4.0 * y
    ref = gaussian_gradient_magnitude(ramp, 4.0)
    got = gaussian_gradient_magnitude(ramp * scale, 4.0)
    assert np.all(np.isfinite(got))
    floor = 2.0 ** -1074 / scale if scale < 1e-300 else 0.0   # subnormal results: their ulp
    np.testing.assert_allclose(got / scale, ref, rtol=1e-14, atol=4 * floor)
    np.testing.assert_allclose(got[20:40, 20:50] / scale, 5.0, rtol=1e-9)
    # single precision: its squares overflow beyond 1e19 and underflow below 1e-19
    s32 = np.float32(1e-30 if scale < 1 else 1e30)
    got32 = gaussian_gradient_magnitude((ramp * s32).astype(np.float32), 4.0)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32[20:40, 20:50] / s32, 5.0, rtol=1e-5)


def test_complex_gradient_magnitude_far_from_one():
    """scipy's complex definition, sqrt(sum of complex squares): (1 + 1j) times the ramp's 5."""
    y, x = np.mgrid[0:60, 0:70].astype(float)
    for scale in (1e-300, 1e300):
        z = (3.0 * x + 4.0 * y) * scale * (1 + 1j)
        got = gaussian_gradient_magnitude(z, 4.0)[20:40, 20:50] / scale
        np.testing.assert_allclose(got, 5.0 * (1 + 1j), rtol=1e-9)


class _Spy:
    """Wraps the CPU engine's filter and scalogram, recording the largest magnitude they filter."""

    def __init__(self, monkeypatch):
        from sftwave import engines

        self.seen = []
        eng = engines.get("numba")
        for op in ("filter", "scalogram"):
            real = getattr(eng, op)

            def spy(x, *args, _real=real, _op=op, **kwargs):
                work = _op == "scalogram" or args[0]           # not a cast (no steps)
                if work and isinstance(x, np.ndarray) and x.size and x.dtype.kind in "fc":
                    self.seen.append(float(np.max(np.abs(x.view(x.real.dtype)))))
                return _real(x, *args, **kwargs)

            monkeypatch.setattr(eng, op, spy)
        # a small call's prepared bank (sftwave.ndimage's memo) runs the engine's kernels
        # without eng.filter: its runs are recorded too, and no earlier call's run is reused
        from sftwave import ndimage

        real_prepared = engines.operation("numba", "filter_prepared")

        def prepared(x, *args, **kwargs):
            run = real_prepared(x, *args, **kwargs)
            if run is None:
                return None

            def spy_run(y):
                self.seen.append(float(np.max(np.abs(y))))
                return run(y)

            return spy_run

        monkeypatch.setitem(engines._FOUND, ("numba", "filter_prepared"), prepared)
        monkeypatch.setattr(ndimage, "_SMALL_MEMO", {})


@pytest.mark.parametrize("scale", [1e-310, 2.0 ** -1070, 1e300])
def test_values_far_from_one_are_filtered_scaled_by_a_power_of_two(monkeypatch, scale):
    """Subnormal input (1e-310) ran in subnormal arithmetic, up to 50 times slower on many CPUs
    and with few digits.  The filters are linear and a power of two scales them exactly: the
    result is that of ``x * 2**k``, divided by ``2**k``, which is exact unless a result is
    itself subnormal, where it rounds once (as dividing by ``2**600`` rounds it).  The spy sees
    the engine get values in [1/2, 1), never the subnormal ones."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((6, 3000)) * scale
    k = 600 if scale < 1 else -600
    spy = _Spy(monkeypatch)
    for kw in ({"order": 0}, {"order": 1}, {"order": 2}, {"order": 2, "method": "fir"},
               {"order": 0, "sigma": 1.5}, {"order": 1, "transform": "asft"},
               {"order": 0, "sigma": 1e5}):
        kw = {"sigma": 20.0, **kw}
        spy.seen.clear()
        got = sftwave.gaussian_filter1d(x, **kw)
        assert spy.seen and all(0.5 <= m < 1.0 for m in spy.seen), (kw, spy.seen)
        monkeypatch.undo()
        assert np.array_equal(got, np.ldexp(sftwave.gaussian_filter1d(np.ldexp(x, k), **kw), -k))
        spy = _Spy(monkeypatch)
    got = gaussian_filter(x, (3.0, 30.0), order=(0, 1), mode="constant", cval=3 * scale)
    assert all(0.5 <= m < 1.0 for m in spy.seen)
    monkeypatch.undo()
    ref = gaussian_filter(np.ldexp(x, k), (3.0, 30.0), order=(0, 1), mode="constant",
                          cval=np.ldexp(3 * scale, k))
    assert np.array_equal(got, np.ldexp(ref, -k))
    spy = _Spy(monkeypatch)
    for output, power in (("complex", 1), ("abs", 1)):
        spy.seen.clear()
        got = sftwave.cwt(x, [0.01, 0.2], output=output)
        assert spy.seen and all(0.5 <= m < 1.0 for m in spy.seen)
        monkeypatch.undo()
        ref = sftwave.cwt(np.ldexp(x, k), [0.01, 0.2], output=output)
        ref = ref.real if output == "abs" else ref
        want = (np.ldexp(ref, -k * power) if output == "abs"
                else np.ldexp(ref.real, -k) + 1j * np.ldexp(ref.imag, -k))
        assert np.array_equal(got, want)
        spy = _Spy(monkeypatch)


def test_ordinary_values_are_not_scaled(monkeypatch):
    """Values within about the square root of the range go to the engine as they are."""
    spy = _Spy(monkeypatch)
    x = np.random.default_rng(12).standard_normal(500)
    for s in (1e-150, 1.0, 1e150):
        spy.seen.clear()
        sftwave.gaussian_filter1d(x * s, 5.0)
        sftwave.cwt(x * s, [0.1])
        assert spy.seen == [float(np.max(np.abs(x * s)))] * 2


# ----------------------------------------------------------------------------- offsets


def _walk(n: int, seed: int, shape=()) -> np.ndarray:
    """A random walk on the grid of 2**-20: ``walk + 1e8`` is exact in float64 (below 2**27,
    a multiple of its ulp 2**-26), so an offset call filters the very same signal plus 1e8."""
    w = np.cumsum(np.random.default_rng(seed).standard_normal(shape + (n,)), axis=-1)
    w = np.round(w * 2.0 ** 20) / 2.0 ** 20
    assert np.array_equal((w + 1e8) - 1e8, w)
    return w


#: Tolerance of a derivative of ``x + 1e8`` against that of ``x``, relative to the data's
#: variation (its peak to peak): with the offset taken out exactly, both calls filter the
#: same variation; they differ only by the rounding of the centred samples (``x - c``
#: rounds at ``eps |x - c| <= eps ptp``) and the recursions' own rounding of it, each
#: through a kernel whose absolute sum is below one.  The offset itself (1e8, 5e5 times
#: the variation) reached the output at 1e-11 of the variation before.
OFFSET_TOL = 4 * np.finfo(np.float64).eps


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap"])
def test_a_derivative_cancels_an_offset_exactly(order, mode):
    """The SFT and ASFT banks (every method), the lane engine (one long line), the FIR, the
    exact wide-kernel limit and the array-API engine: a 1e8 offset does not reach the output."""
    x = _walk(4000, 13, (3,))
    long = _walk(120_000, 14)
    runs = [dict(sigma=20.0, method="bank", bank_method=bm, transform=tr)
            for bm in ("iir1", "iir1-2k", "iir2", "integral", "window")
            for tr in ("sft", "asft")]
    runs += [dict(sigma=2.5, method="fir"), dict(sigma=20.0, method="fir"),
             dict(sigma=1e6), dict(sigma=20.0, engine="xp")]
    for data, kws in ((x, runs), (long, [dict(sigma=20.0)])):
        var = np.ptp(data)
        for kw in kws:
            for axis in ((-1, 0) if data.ndim == 2 and "engine" not in kw else (-1,)):
                d = np.ascontiguousarray(np.moveaxis(data, -1, axis))
                a = sftwave.gaussian_filter1d(d + 1e8, axis=axis, order=order, mode=mode, **kw)
                b = sftwave.gaussian_filter1d(d, axis=axis, order=order, mode=mode, **kw)
                err = np.max(np.abs(a - b)) / var
                assert err <= OFFSET_TOL, (kw, axis, err)


@pytest.mark.parametrize("orders", [(1, 0), (0, 1), (2, 0), (0, 2), (1, 1)])
def test_an_offset_cancels_through_the_smoothing_along_other_axes(orders):
    """gaussian_filter smooths one axis and differentiates another: the offset is taken out
    before the smoothing, which would round the data at its scale (1e-12 of the variation)."""
    img = _walk(300, 15, (200,))
    var = np.ptp(img)
    for sigma in ((12.0, 30.0), (2.0, 3.0)):
        a = gaussian_filter(img + 1e8, sigma, order=orders)
        b = gaussian_filter(img, sigma, order=orders)
        assert np.max(np.abs(a - b)) / var <= OFFSET_TOL, sigma
    for func in (gaussian_laplace, gaussian_gradient_magnitude):
        a, b = func(img + 1e8, 12.0), func(img, 12.0)
        assert np.max(np.abs(a - b)) / var <= OFFSET_TOL, func.__name__


@pytest.mark.parametrize("dtype,scale,ks", [
    (np.float64, 1e-310, [1030, 1074, 600, -600, -1030, -1100, -2060]),
    (np.float32, 1e-40, [133, 149, -133, -60]),
    (np.complex128, 1e-310, [1030, -1030]),
])
def test_power_of_two_scaling_equals_ldexp_bit_for_bit(dtype, scale, ks):
    """The scaled path multiplies by powers of two (a fifth of np.ldexp's time): the same
    bits as np.ldexp, including results that fall below the normal range or overflow."""
    from sftwave.engines import nonfinite

    rng = np.random.default_rng(1)
    tiny = rng.standard_normal(4096) * scale
    ordinary = rng.standard_normal(4096)
    if dtype == np.complex128:
        tiny, ordinary = tiny + 1j * tiny[::-1], ordinary + 1j * ordinary[::-1]
    for k in ks:
        a = (tiny if k > 0 else ordinary).astype(dtype)
        got = nonfinite._ldexp(a, k)
        want = (np.ldexp(a.real, k) + 1j * np.ldexp(a.imag, k) if a.dtype.kind == "c"
                else np.ldexp(a, k))
        assert got.dtype == a.dtype
        assert np.array_equal(got, want.astype(a.dtype)), k
