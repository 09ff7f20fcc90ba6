"""The array-API engine (sftwave.engines.array_api) and the engine dispatch (sftwave.engines).

References: ``naive.naive_components`` (the components by their double sum,
exact phases ``exp(-i omega j)``) on a line extended by ``naive.extend``
(np.pad, which extends as scipy.ndimage does), combined with the plan's
coefficients; and the CPU bank with the same plan.

Tolerance (``rounding_bound``): the engine forms ``U = sliding sum of
(x - c) exp(i omega t)`` over L samples (c: the block's mean), then
``y = sum_p M_p U_p`` with ``|M_p| <= |A_p| + |B_p|`` per part.  Each modulated
term carries about 2 roundings, the sliding sum's tree depth is at most
2 bit_length(L) (tests/engines/array_api/test_sliding.py), the combination over 2P terms at most
2P + 2 more, and ``|x - c| <= 2 max|x_ext|``; so
``|y - y_exact| <= (2R + 2P + 8) eps * sum_p (|A_p| + |B_p|) * 2 * L * 2 max|x_ext|``.
This is a worst-case bound (first order, every rounding aligned); the errors
measured are 10 to 1000 times below it, and it does not grow with the signal's
length: only the window enters.
"""

import subprocess
import sys

import numpy as np
import pytest
from naive import extend, naive_components
from plan_helpers import numba_gaussian_plan

pytest.importorskip("array_api_compat")

import sftwave
from sftwave import engines
from sftwave.engines.array_api import filters as xp_engine
from sftwave.engines.numba import bank
from sftwave.plans import select_morlet
from sftwave.plans.gaussian import gaussian_plan
from sftwave.plans.morlet import morlet_plan

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def _plans():
    return {
        "gauss3-0": gaussian_plan(3.0, 0, 1e-5, "sft"),
        "gauss40-1": gaussian_plan(40.0, 1, 1e-5, "sft"),
        "gauss40-2": gaussian_plan(40.0, 2, 1e-5, "sft"),
        "morlet-direct": morlet_plan(10.0, 6.0, 1e-4, "direct", "sft"),
        "morlet-multiply": morlet_plan(30.0, 6.0, 1e-4, "multiply", "sft"),
    }


PLANS = _plans()


def naive_filter(x, plan, mode="reflect", cval=0.0):
    """The plan applied by its definition: components of the extended line, combined."""
    xe = extend(np.asarray(x, dtype=np.float64), plan.pad_before, plan.pad_after, mode, cval)
    S = naive_components(xe, plan.omegas, 0.0, plan.length)
    c = plan.coef[0]
    return c[0] @ S.real + c[1] @ S.imag


def rounding_bound(plan, x, eps, mode="reflect", cval=0.0):
    """The worst-case rounding bound of the module docstring, for one line ``x``."""
    c = plan.coef[0]
    weight = float(np.sum(np.abs(c[0].real) + np.abs(c[0].imag) + np.abs(c[1].real)
                          + np.abs(c[1].imag)))
    R = plan.length.bit_length()
    P = plan.omegas.size
    scale = max(float(np.max(np.abs(x))), abs(cval) if mode == "constant" else 0.0)
    return (2 * R + 2 * P + 8) * eps * weight * 2 * plan.length * 2 * scale


def _torch():
    return pytest.importorskip("torch")


def xp_morlet_plan(sigma, xi, tol, method, n):
    """The plan the 'xp' engine runs for one Morlet scale (the SFT, its cost figure: none)."""
    return select_morlet(sigma, xi, tol, method=method, transform="sft", n=n,
                         fir_taps_per_order=engines.get("xp").fir_taps_per_order())


# ----------------------------------------------------------------------------- components


@pytest.mark.parametrize("L", [1, 2, 57, 300])
def test_components_match_naive(L):
    rng = np.random.default_rng(L)
    x = rng.standard_normal(9000 + L)  # 9000 outputs: three blocks of 4096
    omegas = [0.0, 0.3, -1.1, np.pi, 2 * np.pi / L]
    S = xp_engine.components(x, omegas, L)
    ref = naive_components(x, omegas, 0.0, L)
    assert S.shape == ref.shape and S.dtype == np.complex128
    # each component: a sum of L terms |x| through the sliding-sum tree (+ 4 roundings each)
    bound = (2 * L.bit_length() + 6) * np.finfo(np.float64).eps * L * np.max(np.abs(x))
    assert np.max(np.abs(S - ref)) <= bound


def test_components_float32_torch():
    torch = _torch()
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 700)).astype(np.float32)
    S = xp_engine.components(torch.from_numpy(x), [0.0, 0.7], 64)
    assert isinstance(S, torch.Tensor) and S.dtype == torch.complex64 and S.shape == (2, 2, 637)
    ref = np.stack([naive_components(r, [0.0, 0.7], 0.0, 64) for r in x])
    bound = (2 * 7 + 6) * np.finfo(np.float32).eps * 64 * np.max(np.abs(x))
    assert np.max(np.abs(S.numpy() - ref)) <= bound


def test_components_short_line_is_empty():
    S = xp_engine.components(np.ones(5), [0.0, 1.0], 6)
    assert S.shape == (2, 0)


# ----------------------------------------------------------------------------- filter1d


@pytest.mark.parametrize("n", [1, 5, 300])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(PLANS))
def test_filter1d_matches_definition(name, mode, n):
    """Every mode, signals shorter than the window (n = 1, 5) and longer."""
    plan = PLANS[name]
    x = np.random.default_rng(n).standard_normal(n) + 0.5
    cval = 0.7
    y = xp_engine.filter1d(x, plan, mode=mode, cval=cval)
    ref = naive_filter(x, plan, mode, cval)
    assert y.shape == x.shape
    assert y.dtype == (np.complex128 if np.iscomplexobj(plan.coef) else np.float64)
    assert np.max(np.abs(y - ref)) <= rounding_bound(plan, x, np.finfo(np.float64).eps, mode, cval)


@pytest.mark.parametrize("name", ["gauss3-0", "gauss40-2", "morlet-multiply"])
def test_filter1d_long_line_matches_bank(name):
    """Several blocks (n = 20000 > 4096): the same numbers as the CPU bank with the same plan."""
    plan = PLANS[name]
    x = np.cumsum(np.random.default_rng(1).standard_normal(20000))
    y = xp_engine.filter1d(x, plan, mode="mirror")
    cplx = np.iscomplexobj(plan.coef)
    out = np.zeros((1, x.size, 2 if cplx else 1))
    bank.apply(plan, x[None], out, mode="mirror", cval=0.0, method="integral")
    ref = out[0, :, 0] + 1j * out[0, :, 1] if cplx else out[0, :, 0]
    # both engines round; each within the bound of the exact result
    assert np.max(np.abs(y - ref)) <= 2 * rounding_bound(plan, x, np.finfo(np.float64).eps)
    # and the interior against the definition (a strided sample of outputs: naive is O(L N P))
    idx = np.arange(0, x.size, 997)
    exact = naive_filter(x, plan, "mirror")[idx]
    assert np.max(np.abs(y[idx] - exact)) <= rounding_bound(plan, x, np.finfo(np.float64).eps)


def test_filter1d_axis_and_batch():
    plan = PLANS["gauss40-1"]
    x = np.random.default_rng(2).standard_normal((120, 3, 4))
    y = xp_engine.filter1d(x, plan, axis=0, mode="wrap")
    for i in range(3):
        for j in range(4):
            ref = naive_filter(x[:, i, j], plan, "wrap")
            assert np.max(np.abs(y[:, i, j] - ref)) <= rounding_bound(
                plan, x[:, i, j], np.finfo(np.float64).eps)


def test_filter1d_dtypes():
    g, m = PLANS["gauss3-0"], PLANS["morlet-direct"]
    x = np.random.default_rng(3).standard_normal(200)
    assert xp_engine.filter1d(x.astype(np.float32), g).dtype == np.float32
    assert xp_engine.filter1d(x.astype(np.float32), m).dtype == np.complex64
    assert xp_engine.filter1d(x, m).dtype == np.complex128
    xi = np.arange(50)
    yi = xp_engine.filter1d(xi, g)
    assert yi.dtype == np.float64
    assert np.max(np.abs(yi - naive_filter(xi, g))) <= rounding_bound(g, xi, np.finfo(float).eps)
    # complex input: real and imaginary parts separately, each with its part of cval
    z = x + 1j * x[::-1]
    yz = xp_engine.filter1d(z, g, mode="constant", cval=1.0 - 2.0j)
    assert yz.dtype == np.complex128
    ref = naive_filter(z.real, g, "constant", 1.0) + 1j * naive_filter(z.imag, g, "constant", -2.0)
    assert np.max(np.abs(yz - ref)) <= 2 * rounding_bound(g, np.abs(z) + 2, np.finfo(float).eps)
    # a complex plan on complex input: T(re) + i T(im)
    ym = xp_engine.filter1d(z, m)
    ref = naive_filter(z.real, m) + 1j * naive_filter(z.imag, m)
    assert np.max(np.abs(ym - ref)) <= 2 * rounding_bound(m, np.abs(z), np.finfo(float).eps)
    # empty lines and empty batches
    assert xp_engine.filter1d(np.zeros(0, np.float32), g).dtype == np.float32
    assert xp_engine.filter1d(np.zeros((0, 7)), m, axis=1).shape == (0, 7)


def test_filter1d_rejects():
    with pytest.raises(ValueError, match="plan.alpha"):
        xp_engine.filter1d(np.ones(10), gaussian_plan(20.0, 0, 1e-5, "asft"))
    with pytest.raises(TypeError, match="plan must be a sftwave.plans.SFTPlan"):
        xp_engine.filter1d(np.ones(10), "plan")
    with pytest.raises(ValueError, match="mode must be one of"):
        xp_engine.filter1d(np.ones(10), PLANS["gauss3-0"], mode="edge")
    with pytest.raises(ValueError, match="axis 1 is out of range"):
        xp_engine.filter1d(np.ones(10), PLANS["gauss3-0"], axis=1)
    with pytest.raises(TypeError, match="numeric"):
        xp_engine.filter1d(np.ones(10, dtype=bool), PLANS["gauss3-0"])
    with pytest.raises(ValueError, match="kernel must be 1-D of odd length"):
        xp_engine.fir1d(np.ones(10), np.ones(4))


@pytest.mark.parametrize("mode", MODES)
def test_source_index_matches_np_pad(mode):
    """Extension indices for pads far beyond the line (repeated reflections), n = 1 and 5."""
    for n in (1, 2, 5):
        x = np.arange(1.0, n + 1)
        pos = np.arange(-23, n + 23)
        idx, inside = xp_engine.source_index(pos, n, mode)
        got = x[idx] if inside is None else np.where(inside, x[idx], -1.0)
        assert np.array_equal(got, extend(x, 23, 23, mode, -1.0)), (mode, n)


def test_fir1d_matches_convolution():
    h = np.array([0.1, -0.2, 0.5, 0.3, 0.05, 0.0, 0.25])
    x = np.random.default_rng(4).standard_normal(40)
    for mode in MODES:
        y = xp_engine.fir1d(x, h, mode=mode, cval=0.3)
        ref = np.convolve(extend(x, 3, 3, mode, 0.3), h, mode="valid")
        assert np.max(np.abs(y - ref)) <= 8 * np.finfo(float).eps * np.sum(np.abs(h)) * 3
    hc = h + 1j * h[::-1]
    yc = xp_engine.fir1d(x, hc)
    refc = np.convolve(extend(x, 3, 3, "reflect"), hc, mode="valid")
    assert yc.dtype == np.complex128
    assert np.max(np.abs(yc - refc)) <= 16 * np.finfo(float).eps * np.sum(np.abs(hc)) * 3


# ----------------------------------------------------------------------------- float32, long lines


N_LONG = 400_000
BLOCK = 1000


def _long_signals():
    """The offset signals of tests/suites/test_float32.py (same construction and seed)."""
    rng = np.random.default_rng(2024)
    walk = np.cumsum(rng.standard_normal(N_LONG))
    walk = (walk - walk.mean()) / walk.std()
    return {
        "walk+5": (walk + 5.0).astype(np.float32),
        "white+5": (rng.standard_normal(N_LONG) + 5.0).astype(np.float32),
    }


LONG = _long_signals()


def _rel(a, b):
    a = np.asarray(a, dtype=np.float64)
    return float(np.sqrt(np.sum((a - b) ** 2) / np.sum(b * b)))


def _tail_errors(x, plan):
    """Relative RMSE of the last outputs of the long line, and of the same outputs of its tail alone.

    The tail (10 000 outputs plus a window each side) filtered on its own has
    the same interior outputs in exact arithmetic; an engine whose error grew
    along the line would be less accurate on the long line's copy of them.
    """
    L = plan.length
    tail = 10_000 + 2 * L
    ref = sftwave.gaussian_filter1d(x[-tail:].astype(np.float64), plan.info["sigma"],
                                    order=plan.info["order"], method="bank",
                                    bank_method="integral")[L:-L]
    long_ = xp_engine.filter1d(x, plan)[-tail:][L:-L]
    short = xp_engine.filter1d(x[-tail:], plan)[L:-L]
    return _rel(long_, ref), _rel(short, ref)


@pytest.mark.parametrize("order", [0, 2])
@pytest.mark.parametrize("sigma", [8.0, 128.0, 1024.0])
@pytest.mark.parametrize("signal", list(LONG))
def test_float32_long_offset_signal_does_not_drift(signal, sigma, order):
    """float32 data, float32 arithmetic, SFT without attenuation: the error stays bounded.

    Two checks.  Every 1000-sample block of the 400 000 outputs is within
    1e-5 (relative RMSE) of the float64 CPU bank with the same plan: the bound
    tests/suites/test_float32.py sets for the CPU engine's float32 output (measured
    here: at most 8.2e-6, for the second derivative at sigma 1024 on the walk,
    where the output is 1e-6 of the components it cancels; 3.5e-8 for
    smoothing).  And the last outputs are as accurate as when their stretch is
    filtered on its own (ratio measured 0.79 to 1.16; allowed 1.5): the
    error does not grow with the position along the line.
    """
    x = LONG[signal]
    plan = numba_gaussian_plan(sigma, order, method="bank", n=x.size)
    y = xp_engine.filter1d(x, plan)
    assert y.dtype == np.float32
    ref = sftwave.gaussian_filter1d(x.astype(np.float64), sigma, order=order, method="bank",
                                    bank_method="integral")
    d = (y.astype(np.float64) - ref).reshape(-1, BLOCK)
    r = ref.reshape(-1, BLOCK)
    blocks = np.sqrt(np.sum(d * d, axis=1) / np.sum(r * r, axis=1))
    assert np.all(blocks <= 1e-5), (int(np.argmax(blocks)), float(blocks.max()))
    long_err, short_err = _tail_errors(x, plan)
    assert long_err <= 1.5 * short_err, (long_err, short_err)


def test_float32_prefix_sum_would_drift(monkeypatch):
    """The check above can fail: the kernel integral by a float32 prefix sum over the whole line.

    With one block for the whole line, the sliding sum (Algorithm 1) still
    keeps the tail as accurate as the tail alone (ratio measured 1.01), while
    the paper's eq. (kernelInter) in float32, ``u[n] - u[n - L]`` of a running
    sum over 400 000 samples, loses digits along the line (ratio measured 8.2).
    """
    x = LONG["white+5"]
    plan = numba_gaussian_plan(8.0, 2, method="bank", n=x.size)
    monkeypatch.setattr(xp_engine, "MIN_BLOCK", 10**9)  # one block: phases and sums over the line
    long_err, short_err = _tail_errors(x, plan)
    assert long_err <= 1.5 * short_err, (long_err, short_err)

    def prefix_difference(f, L):
        u = np.cumsum(f, axis=-1, dtype=f.dtype)
        u = np.concatenate([np.zeros(f.shape[:-1] + (1,), f.dtype), u], axis=-1)
        return u[..., L:] - u[..., :-L]

    monkeypatch.setattr(xp_engine, "sliding_sum", prefix_difference)
    long_err, short_err = _tail_errors(x, plan)
    assert long_err >= 3 * short_err, (long_err, short_err)


# ----------------------------------------------------------------------------- public API, torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sigma, order", [(5.0, 0), (40.0, 1), (300.0, 2)])
def test_gaussian_filter1d_torch_matches_numpy_path(dtype, sigma, order):
    torch = _torch()
    x = np.cumsum(np.random.default_rng(6).standard_normal((2, 3000)), axis=1).astype(dtype)
    t = torch.from_numpy(x)
    y = sftwave.gaussian_filter1d(t, sigma, order=order, mode="nearest")
    assert isinstance(y, torch.Tensor) and y.dtype == t.dtype and y.device == t.device
    assert y.shape == t.shape
    ref = sftwave.gaussian_filter1d(x.astype(np.float64), sigma, order=order, mode="nearest",
                                    method="bank", bank_method="integral")  # numba, same plan
    plan = numba_gaussian_plan(sigma, order, method="bank", n=3000)
    eps = np.finfo(dtype).eps
    # the xp engine's rounding, plus the rounding of the output to the dtype
    tol = rounding_bound(plan, x, eps, "nearest") + eps * np.max(np.abs(ref))
    assert np.max(np.abs(y.numpy() - ref)) <= tol


def test_gaussian_filter1d_small_sigma_uses_the_fir():
    """No SFT plan reaches scipy's accuracy at sigma 1: the same FIR as the numpy path."""
    torch = _torch()
    x = np.random.default_rng(8).standard_normal(500)
    y = sftwave.gaussian_filter1d(torch.from_numpy(x), 1.0, mode="wrap")
    ref = sftwave.gaussian_filter1d(x, 1.0, mode="wrap")  # scipy's kernel, direct
    h = numba_gaussian_plan(1.0, 0).kernel
    assert np.max(np.abs(y.numpy() - ref)) <= 2 * h.size * np.finfo(float).eps * np.max(np.abs(x))


def test_gaussian_filter_torch_2d():
    torch = _torch()
    x = np.random.default_rng(9).standard_normal((60, 80))
    y = sftwave.gaussian_filter(torch.from_numpy(x), (4.0, 12.0), order=(1, 0),
                                mode=("reflect", "constant"), cval=0.5)
    ref = sftwave.gaussian_filter(x, (4.0, 12.0), order=(1, 0), mode=("reflect", "constant"),
                                  cval=0.5, method="bank", bank_method="integral")
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float64
    p0 = numba_gaussian_plan(4.0, 1, method="bank", n=60)
    p1 = numba_gaussian_plan(12.0, 0, method="bank", n=80)
    eps = np.finfo(float).eps
    # the first axis's output is bounded by sum|h| max|x| (sum|h| < 1 for a first derivative)
    tol = 2 * (rounding_bound(p0, x, eps) + rounding_bound(p1, x, eps, "constant", 0.5))
    assert np.max(np.abs(y.numpy() - ref)) <= tol
    # zero sigma everywhere: a float copy
    z = sftwave.gaussian_filter(torch.arange(6), 0.0)
    assert z.dtype == torch.float64 and z.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("method", ["direct", "multiply"])
def test_morlet_transform_torch_matches_numpy_path(method):
    torch = _torch()
    x = np.random.default_rng(10).standard_normal((3, 1500))
    y = sftwave.morlet_transform(torch.from_numpy(x), 25.0, method=method, mode="mirror")
    assert isinstance(y, torch.Tensor) and y.dtype == torch.complex128 and y.shape == (3, 1500)
    ref = sftwave.morlet_transform(x, 25.0, method=method, mode="mirror", bank_method="integral")
    plan = xp_morlet_plan(25.0, 6.0, 1e-4, method, 1500)
    assert np.max(np.abs(y.numpy() - ref)) <= 2 * rounding_bound(plan, x, np.finfo(float).eps)


def test_morlet_float32_and_complex_input():
    torch = _torch()
    x = np.random.default_rng(11).standard_normal(800).astype(np.float32)
    # method='direct' (morlet_transform's default before 'auto'): the same plan on both engines
    y = sftwave.morlet_transform(torch.from_numpy(x), 12.0, method="direct")
    assert y.dtype == torch.complex64
    ref = sftwave.morlet_transform(x.astype(np.float64), 12.0, method="direct",
                                   bank_method="integral")
    plan = xp_morlet_plan(12.0, 6.0, 1e-4, "direct", 800)
    eps = np.finfo(np.float32).eps
    assert np.max(np.abs(y.numpy() - ref)) <= rounding_bound(plan, x, eps) + eps * np.max(np.abs(ref))
    z = (x + 1j * x[::-1]).astype(np.complex64)
    yz = sftwave.morlet_transform(torch.from_numpy(z), 12.0, method="direct")
    refz = (sftwave.morlet_transform(z.real.astype(np.float64), 12.0, method="direct",
                                     bank_method="integral")
            + 1j * sftwave.morlet_transform(z.imag.astype(np.float64), 12.0, method="direct",
                                            bank_method="integral"))
    assert yz.dtype == torch.complex64
    assert np.max(np.abs(yz.numpy() - refz)) <= 2 * (rounding_bound(plan, np.abs(z), eps)
                                                      + eps * np.max(np.abs(refz)))


def test_cwt_torch():
    torch = _torch()
    fs = 100.0
    x = np.random.default_rng(12).standard_normal((2, 1200))
    freqs = [2.0, 7.0, 20.0, 45.0]
    t = torch.from_numpy(x)
    y = sftwave.cwt(t, freqs, fs, method="direct", mode="constant")
    assert isinstance(y, torch.Tensor) and y.shape == (2, 4, 1200) and y.dtype == torch.complex128
    ref = sftwave.cwt(x, freqs, fs, method="direct", mode="constant", bank_method="integral")
    eps = np.finfo(float).eps
    for i, s in enumerate(sftwave.frequency_to_scale(freqs, fs)):
        plan = xp_morlet_plan(float(s), 6.0, 1e-4, "direct", 1200)
        assert np.max(np.abs(y[:, i].numpy() - ref[:, i])) <= 2 * rounding_bound(plan, x, eps)
    # output kinds and decimation are computed from the same coefficients
    yc = y.numpy()[..., ::3]
    p = sftwave.cwt(t, freqs, fs, method="direct", mode="constant", output="power", decim=3)
    a = sftwave.cwt(t, freqs, fs, method="direct", mode="constant", output="abs", decim=3)
    ph = sftwave.cwt(t, freqs, fs, method="direct", mode="constant", output="phase", decim=3)
    assert p.shape == (2, 4, 400) and p.dtype == torch.float64
    scale = np.max(np.abs(yc))
    assert np.allclose(p.numpy(), np.abs(yc) ** 2, rtol=1e-13, atol=1e-13 * scale**2)
    assert np.allclose(a.numpy(), np.abs(yc), rtol=1e-13, atol=1e-13 * scale)
    assert np.allclose(a.numpy() * np.exp(1j * ph.numpy()), yc, rtol=1e-13, atol=1e-13 * scale)
    # float32 in: complex64 out; and the small scales no SFT plan reaches go by the FIR
    y32 = sftwave.cwt(t.float(), [48.0], fs)
    assert y32.dtype == torch.complex64 and y32.shape == (2, 1, 1200)


# ----------------------------------------------------------------------------- autograd


def test_gradcheck_gaussian_filter1d():
    torch = _torch()
    g = torch.randn(2, 40, dtype=torch.float64, generator=torch.Generator().manual_seed(0),
                    requires_grad=True)
    for sigma, order, mode in [(4.0, 0, "reflect"), (4.0, 2, "constant"), (1.0, 0, "wrap")]:
        assert torch.autograd.gradcheck(
            lambda t, s=sigma, o=order, m=mode: sftwave.gaussian_filter1d(t, s, order=o, mode=m,
                                                                          cval=0.3), (g,))


def test_gradcheck_morlet_transform():
    torch = _torch()
    g = torch.randn(40, dtype=torch.float64, generator=torch.Generator().manual_seed(1),
                    requires_grad=True)
    for method in ("direct", "multiply"):
        assert torch.autograd.gradcheck(
            lambda t, m=method: sftwave.morlet_transform(t, 5.0, method=m, mode="mirror"), (g,))


# ----------------------------------------------------------------------------- dispatch


def test_resolve_engine():
    torch = _torch()
    assert engines.resolve_engine(None, np.zeros(3)) == "numba"
    assert engines.resolve_engine("auto", [1.0, 2.0]) == "numba"
    assert engines.resolve_engine("auto", torch.zeros(3)) == "xp"
    assert engines.resolve_engine("numba", torch.zeros(3)) == "numba"
    assert engines.resolve_engine("xp", np.zeros(3)) == "xp"
    with pytest.raises(ValueError, match="engine must be one of 'auto', 'numba', 'xp', 'cuda'; got 'gpu'"):
        engines.resolve_engine("gpu", np.zeros(3))


def test_cuda_engine_missing_is_a_clear_error(monkeypatch):
    # numba-cuda not importable (a None entry in sys.modules hides an installed package)
    monkeypatch.setitem(sys.modules, "numba_cuda", None)
    with pytest.raises(ImportError, match=r"engine='cuda' needs the numba-cuda package, which is "
                                          r"not installed: pip install numba-cuda"):
        sftwave.gaussian_filter1d(np.ones(10), 3.0, engine="cuda")


def test_numba_path_unchanged_and_xp_on_numpy():
    x = np.random.default_rng(13).standard_normal(3000)
    assert np.array_equal(sftwave.gaussian_filter1d(x, 20.0, engine="numba"),
                          sftwave.gaussian_filter1d(x, 20.0))
    y = sftwave.gaussian_filter1d(x, 20.0, engine="xp")
    assert type(y) is np.ndarray and y.dtype == np.float64
    ref = sftwave.gaussian_filter1d(x, 20.0, method="bank", bank_method="integral")
    plan = numba_gaussian_plan(20.0, 0, method="bank", n=3000)
    assert np.max(np.abs(y - ref)) <= 2 * rounding_bound(plan, x, np.finfo(float).eps)
    # a list goes to the numba engine (numpy out), with engine='xp' to the xp engine
    assert type(sftwave.gaussian_filter1d([1.0, 2.0, 3.0], 2.0, engine="xp")) is np.ndarray


@pytest.mark.parametrize("func, kwargs, match", [
    ("gaussian_filter1d", {"transform": "asft"}, "transform='asft' is not supported with engine='xp'"),
    ("gaussian_filter1d", {"bank_method": "iir1"}, "bank_method='iir1' is not supported with engine='xp'"),
    ("gaussian_filter1d", {"method": "fast"}, "method must be one of"),
    ("gaussian_filter1d", {"output": np.float32}, "output is not supported with engine='xp'"),
    ("gaussian_filter", {"bank_method": "window"}, "bank_method='window' is not supported"),
    ("gaussian_filter", {"transform": "asft"}, "transform='asft'"),
    ("morlet_transform", {"bank_method": "iir2"}, "bank_method='iir2' is not supported"),
    ("morlet_transform", {"workers": 2}, "workers is not supported with engine='xp'"),
    ("morlet_transform", {"transform": "asft"}, "transform='asft'"),
    ("cwt", {"dtype": np.complex64}, "dtype is not supported with engine='xp'"),
    ("cwt", {"out": np.zeros((1, 100), complex)}, "out is not supported with engine='xp'"),
    ("cwt", {"output": "energy"}, "output must be one of"),
])
def test_engine_rejects_what_it_cannot_do(func, kwargs, match):
    x = np.random.default_rng(0).standard_normal(100)
    args = {"gaussian_filter1d": (8.0,), "gaussian_filter": (8.0,), "morlet_transform": (12.0,),
            "cwt": ([0.05],)}[func]
    with pytest.raises(ValueError, match=match):
        getattr(sftwave, func)(x, *args, engine="xp", **kwargs)


def test_engine_argument_errors_name_the_parameter():
    torch = _torch()
    t = torch.ones(20)
    with pytest.raises(ValueError, match="sigma must be a positive finite number; got -1"):
        sftwave.gaussian_filter1d(t, -1.0)
    with pytest.raises(TypeError, match="input must have a numeric"):
        sftwave.gaussian_filter1d(torch.ones(20, dtype=torch.bool), 2.0)
    with pytest.raises(ValueError, match="axis 1 is out of range"):
        sftwave.gaussian_filter1d(t, 2.0, axis=1)
    with pytest.raises(TypeError, match="cval must be a real number"):
        sftwave.gaussian_filter1d(t, 2.0, cval=1j)
    with pytest.raises(ValueError, match="exceeds Nyquist"):
        sftwave.morlet_transform(t, 1.0, xi=6.0)
    with pytest.raises(ValueError, match="freqs must not exceed the Nyquist"):
        sftwave.cwt(t, [0.7])


def test_import_does_not_load_optional_packages():
    # the numpy path of every public function goes through engines.resolve_engine first
    code = ("import sys, numpy as np, sftwave; sftwave.gaussian_filter1d(np.ones(50), 5.0); "
            "sftwave.gaussian_filter(np.ones((9, 9)), 2.0, engine='numba'); "
            "print(sorted(m for m in ('torch', 'array_api_compat', 'numba.cuda') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
