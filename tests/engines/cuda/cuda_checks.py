"""Checks of the 'cuda' engine, run by tests/engines/cuda/test_engine.py in a subprocess.

Not collected by the main test run (the file name does not match ``test_*.py``):
``test_engine.py`` runs ``pytest tests/engines/cuda/cuda_checks.py`` in a child process,
with ``NUMBA_ENABLE_CUDASIM=1`` (numba-cuda's simulator: the kernels run on the
CPU) and, where a GPU is present, once more without it.  The environment
variable must be set before ``numba.cuda`` is first imported, and in a child
process it cannot change how the rest of the suite runs.

Importing this module does nothing with numba.cuda (``--doctest-modules``
imports it in the main run); the fixture ``cuda`` does, inside the tests.

Sizes are small: the simulator runs every thread of a block as a Python
thread (~0.1-0.2 s per block of 128 threads).
"""

from __future__ import annotations

import doctest
import math
import os

import naive
import numpy as np
import pytest


@pytest.fixture(scope="module")
def cuda():
    pytest.importorskip("numba_cuda")
    from numba import cuda as _cuda

    if not _cuda.is_available():
        pytest.skip("no CUDA GPU and the simulator is off")
    return _cuda


@pytest.fixture(scope="module")
def simulator(cuda):
    """True when the kernels run on numba-cuda's simulator."""
    from numba.cuda.core import config

    sim = bool(config.ENABLE_CUDASIM)
    assert sim == (os.environ.get("NUMBA_ENABLE_CUDASIM") == "1")
    return sim


@pytest.fixture(scope="module")
def ce(cuda):
    from sftwave.engines.cuda import filters as cuda_engine

    return cuda_engine


def naive_sliding_sum(f, L, axis=-1):
    """h[n] = sum_{k<L} f[n+k] for n = 0 .. N - L: the definition, term by term."""
    f = np.moveaxis(np.asarray(f), axis, -1)
    n_out = max(f.shape[-1] - L + 1, 0)
    h = np.zeros(f.shape[:-1] + (n_out,), dtype=np.result_type(f.dtype, np.float64))
    for k in range(L):
        h += f[..., k:k + n_out]
    return np.moveaxis(h, -1, axis)


def reference(x, plan, mode="reflect", cval=0.0):
    """The plan's filter by its definition: naive components of the extended line, combined."""
    xe = naive.extend(np.asarray(x, dtype=np.float64), plan.pad_before, plan.pad_after, mode, cval)
    S = naive.naive_components(xe, plan.omegas, 0.0, plan.length)
    c = plan.coef[0]
    return c[0] @ S.real + c[1] @ S.imag


def rounding_bound(plan, x, eps):
    """Error scale of the kernel-integral SFT: eps * sum|coef| * L * max|x|.

    Every component is a sum of L terms of size <= max|x| (times a unit
    phase), so its rounding error is a few eps * L * max|x| in the worst case
    (the doubling tree has depth ~2 log2 L, but its errors are independent
    and mostly cancel); the output weighs the components by the coefficients.
    """
    return eps * float(np.sum(np.abs(plan.coef))) * plan.length * float(np.max(np.abs(x)))


# --------------------------------------------------------------------------- sliding sum


@pytest.mark.parametrize(("n", "L"), [(37, 1), (37, 2), (37, 7), (37, 8), (37, 9), (37, 36),
                                      (37, 37), (70, 65)])
def test_sliding_sum_exact_on_integers(ce, n, L):
    """Integer-valued floats: every partial sum is an integer below 2**53, so exact.

    N = 37 and 70 are not powers of 8; L covers one stage (1..7), two (8..63)
    and three (65) stages, up to L = N (one full window).
    """
    f = np.random.default_rng(n * 100 + L).integers(-9, 10, n).astype(np.float64)
    h = ce.sliding_sum(f, L)
    assert h.dtype == np.float64 and h.shape == (n - L + 1,)
    np.testing.assert_array_equal(h, naive_sliding_sum(f, L))


def test_sliding_sum_window_longer_than_signal(ce):
    """L > N: no window fits, an empty result along the axis (as Algorithm 1's 'valid' sums)."""
    h = ce.sliding_sum(np.ones((2, 5)), 9)
    assert h.shape == (2, 0) and h.dtype == np.float64


def test_sliding_sum_complex(ce):
    """Complex input: both parts summed (two passes), exact on integer-valued parts."""
    rng = np.random.default_rng(9)
    f = rng.integers(-9, 10, 30) + 1j * rng.integers(-9, 10, 30)
    h = ce.sliding_sum(f, 10)
    assert h.dtype == np.complex128
    np.testing.assert_array_equal(h, naive_sliding_sum(f, 10))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sliding_sum_rounding_along_axis0(ce, dtype):
    """Random floats on axis 0 of a 2-D array: equal to rounding.

    A sum of L terms by any order of additions errs by at most
    (L - 1) eps sum|f|; here L = 11, so 10 eps * sum|f| per output.
    """
    f = np.random.default_rng(5).standard_normal((21, 3)).astype(dtype)
    L = 11
    h = ce.sliding_sum(f, L, axis=0)
    assert h.dtype == dtype and h.shape == (11, 3)
    ref = naive_sliding_sum(f, L, axis=0)
    bound = (L - 1) * np.finfo(dtype).eps * naive_sliding_sum(np.abs(f), L, axis=0)
    assert np.all(np.abs(h - ref) <= bound)


def test_sliding_sum_device_array_in_device_array_out(ce, cuda):
    """A numba device array in gives a numba device array out, filled on the device."""
    f = np.arange(40.0).reshape(2, 20)
    d = cuda.to_device(f)
    h = ce.sliding_sum(d, 9)
    assert type(h) is type(d) and h.shape == (2, 12)
    np.testing.assert_array_equal(h.copy_to_host(), naive_sliding_sum(f, 9))


# --------------------------------------------------------------------------- filter1d


def _plans():
    from sftwave.plans.gaussian import gaussian_plan
    from sftwave.plans.morlet import morlet_plan

    return {
        "gauss-s3": gaussian_plan(3.0, 0, 1e-4, "sft"),
        "gauss-d2": gaussian_plan(2.0, 2, 1e-3, "sft"),
        "morlet-direct": morlet_plan(4.0, 6.0, 1e-3, "direct"),    # 10 orders: 20 channels
        "morlet-multiply": morlet_plan(3.0, 6.0, 1e-2, "multiply"),
    }


PLAN_NAMES = ["gauss-s3", "gauss-d2", "morlet-direct", "morlet-multiply"]


@pytest.fixture(scope="module")
def plans():
    return _plans()


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_filter1d_gaussian_matches_definition_all_modes(ce, plans, mode):
    """float64: the naive double sum on the line extended as scipy.ndimage does.

    n = 12 is shorter than the window (L = 27), so every mode's extension
    wraps more than once.  Tolerance: 64 x the rounding scale (measured ~0.5).
    """
    plan = plans["gauss-s3"]
    x = np.random.default_rng(1).standard_normal(12)
    y = ce.filter1d(x, plan, mode=mode, cval=0.7)
    assert y.dtype == np.float64 and y.shape == x.shape
    ref = reference(x, plan, mode, 0.7)
    assert np.max(np.abs(y - ref)) <= 64 * rounding_bound(plan, x, np.finfo(np.float64).eps)


@pytest.mark.parametrize("name", PLAN_NAMES)
def test_filter1d_plans_match_definition_and_bank(ce, plans, name):
    """Gaussian (order 0 and 2) and complex Morlet plans (direct, multiply), float64.

    Against the definition (64 x the rounding scale) and against the CPU bank
    (``bank.apply``, the numpy path) to the same tolerance.  The direct
    Morlet plan has 20 channels: more than a float64 block holds (16), so it
    also runs the channel chunks.
    """
    from sftwave.engines.numba import bank

    plan = plans[name]
    x = np.random.default_rng(2).standard_normal(30)
    y = ce.filter1d(x, plan)
    complex_plan = np.iscomplexobj(plan.coef)
    assert y.dtype == (np.complex128 if complex_plan else np.float64)
    tol = 64 * rounding_bound(plan, x, np.finfo(np.float64).eps)
    assert np.max(np.abs(y - reference(x, plan))) <= tol
    if complex_plan:
        out = np.empty((1, 30, 2))
        bank.apply(plan, x[None], out, mode="reflect", cval=0.0, method="iir1")
        cpu = out[0, :, 0] + 1j * out[0, :, 1]
    else:
        out = np.empty((1, 30, 1))
        cpu = bank.apply(plan, x[None], out, mode="reflect", cval=0.0, method="iir1")[0, :, 0]
    assert np.max(np.abs(y - cpu)) <= tol


def test_filter1d_axis_batches_and_chunks(ce, plans, monkeypatch):
    """A 3-D array along its middle axis, in several line batches and one-channel chunks.

    ``BUFFER_ELEMENTS`` and ``SHARED_BYTES`` are lowered so the six lines run
    in batches of two (grid offsets) and every block holds half of the
    fourteen channels (two chunks); the result must not change.
    """
    plan = plans["gauss-d2"]
    x = np.random.default_rng(3).standard_normal((2, 10, 3))
    monkeypatch.setattr(ce, "BUFFER_ELEMENTS", 2 * 2 * plan.omegas.size * 64)
    monkeypatch.setattr(ce, "SHARED_BYTES", 2 * 16 * 8 * 8 * plan.omegas.size)
    assert ce._chunking(2 * plan.omegas.size, np.dtype(np.float64)) == (plan.omegas.size, 2)
    y = ce.filter1d(x, plan, axis=1, mode="wrap")
    ref = np.apply_along_axis(reference, 1, x, plan, "wrap")
    assert np.max(np.abs(y - ref)) <= 64 * rounding_bound(plan, x, np.finfo(np.float64).eps)


def test_filter1d_float32(ce, plans):
    """float32 with an offset: complex64 out, within the float32 rounding scale of float64.

    The windowed sums run in float32 and only L terms enter each, so the
    error is bounded by eps32 * sum|coef| * L * max|x| whatever the line's
    length (measured: 0.04 of it for this plan, 0.44 for the worst Gaussian
    plan here); a prefix sum over the line would instead grow with the
    position.  The offset 5 makes max|x| ~ 7 while the output
    is ~4.
    """
    plan = plans["morlet-direct"]
    x = (np.random.default_rng(4).standard_normal(40) + 5.0).astype(np.float32)
    y = ce.filter1d(x, plan)
    assert y.dtype == np.complex64
    y64 = reference(x.astype(np.float64), plan)
    assert np.max(np.abs(y - y64)) <= rounding_bound(plan, x, np.finfo(np.float32).eps)


def test_filter1d_complex_input(ce, plans):
    """Complex input, real and complex plans: the parts filtered separately, complex cval too.

    Against the definition applied to each part (64 x the rounding scale).
    """
    rng = np.random.default_rng(6)
    x = rng.standard_normal(16) + 1j * rng.standard_normal(16)
    for name in ("gauss-s3", "morlet-multiply"):
        plan = plans[name]
        y = ce.filter1d(x, plan, mode="constant", cval=0.5 - 2j)
        assert y.dtype == np.complex128
        ref = reference(x.real, plan, "constant", 0.5) + 1j * reference(x.imag, plan, "constant", -2.0)
        tol = 64 * rounding_bound(plan, np.abs(x), np.finfo(np.float64).eps)
        assert np.max(np.abs(y - ref)) <= tol


def test_filter1d_device_array_and_integers(ce, cuda, plans):
    """A numba device array of integers: a float64 device array out, equal to the host path."""
    plan = plans["gauss-s3"]
    x = np.arange(-12, 12, dtype=np.int32) ** 2
    d = ce.filter1d(cuda.to_device(x), plan, mode="nearest")
    assert type(d) is type(cuda.to_device(x)) and d.dtype == np.float64
    np.testing.assert_array_equal(d.copy_to_host(), ce.filter1d(x, plan, mode="nearest"))


def test_docstring_examples_run(ce, simulator):
    """The examples marked ``+SKIP`` for the main doctest pass, run here with SKIP cleared."""
    from sftwave.engines.cuda import filters as cuda_engine

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    ran = 0
    for test in finder.find(cuda_engine):
        for ex in test.examples:
            ex.options.pop(doctest.SKIP, None)
            ran += 1
        runner.run(test)
    assert ran >= 10
    assert runner.failures == 0, runner.summarize()


# --------------------------------------------------------------------------- GPU only


def test_float32_long_line_does_not_drift(ce, simulator):
    """GPU only (the simulator would take hours): 400 000 float32 samples + 5.

    The float32 result must stay within 8 x the rounding scale of the float64
    one in every block of 1000 samples, the last one included: the kernel
    integral sums only L terms per output and the phases are reduced exactly,
    so nothing grows along the line.  Factor 8: on the GPU each phase factor
    is a float32 cosf/sinf of a phase rounded to float32 (up to ~3 units of
    rounding, in the modulation and again in the output), which the
    simulator's float64 math.cos does not show (it measures <= 0.44 of the
    scale on short lines).  A prefix sum over the line, or phases omega * m
    reduced in float32, would err by ~N/L (here ~400) times more at the end.
    """
    if simulator:
        pytest.skip("long line: real GPU only")
    from sftwave.plans.gaussian import gaussian_plan

    rng = np.random.default_rng(2024)
    walk = np.cumsum(rng.standard_normal(400_000))
    x = ((walk - walk.mean()) / walk.std() + 5.0).astype(np.float32)
    for order in (0, 2):
        plan = gaussian_plan(128.0, order, 1e-4, "sft")
        y = ce.filter1d(x, plan)
        y64 = ce.filter1d(x.astype(np.float64), plan)
        err = np.abs(y.astype(np.float64) - y64).reshape(-1, 1000).max(axis=1)
        bound = 8 * rounding_bound(plan, x, np.finfo(np.float32).eps)
        assert np.all(err <= bound), (int(np.argmax(err)), float(err.max()), bound)
        assert not math.isnan(float(err[-1]))


def test_torch_cpu_tensor_in_torch_tensor_out(plans):
    """engine='cuda' with a torch tensor in host memory returns a torch tensor of its dtype,
    with the numpy input's values (the tensor goes through numpy both ways)."""
    torch = pytest.importorskip("torch")
    import sftwave

    x = np.random.default_rng(9).standard_normal(60)
    for dtype in (torch.float64, torch.float32):
        t = torch.as_tensor(x).to(dtype)
        y = sftwave.gaussian_filter1d(t, 4.0, engine="cuda")    # an SFT plan: the kernels run
        assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.device.type == "cpu"
        ref = sftwave.gaussian_filter1d(t.numpy(), 4.0, engine="cuda")
        assert np.array_equal(y.numpy(), ref)


def test_nonfinite_confined_on_the_cuda_engine(ce, cuda):
    """A NaN and an inf: exactly the outputs whose window reads them are non-finite, for
    numpy input and for a numba device array (checked on the device by a reduction)."""
    import sftwave
    from sftwave.engines import nonfinite
    from sftwave.plans.gaussian import gaussian_plan

    # 120 samples: the two non-finite samples' reaches (25 either side) apart, finite outputs
    # between them (27..34), the reflected NaN's at the start
    n = 120
    x = np.random.default_rng(4).standard_normal(n)
    x[[0, 60]] = np.nan, np.inf
    plan = gaussian_plan(6.0, 0, 1e-4, "sft")
    left, right = nonfinite.support(plan, n)
    ext = naive.extend((~np.isfinite(x)).astype(float), left, right, "reflect", 0.0)
    hits = np.convolve(ext, np.ones(left + right + 1), mode="valid") > 0.5
    y = sftwave.apply_plan(x, plan, engine="cuda")
    assert np.array_equal(~np.isfinite(y), hits)
    d = sftwave.apply_plan(cuda.to_device(x), plan, engine="cuda")
    assert np.array_equal(~np.isfinite(d.copy_to_host()), hits)
    from sftwave.engines.cuda import filters as cuda_engine

    assert cuda_engine.all_finite(cuda.to_device(np.ones(7)))
    assert not cuda_engine.all_finite(cuda.to_device(x))
    g = sftwave.gaussian_filter1d(x, 6.0, engine="cuda")
    assert np.isnan(g[:5]).all() and np.isposinf(g[60]) and np.isfinite(g[28:32]).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_all_finite_flags_each_kind_of_nonfinite(ce, cuda, dtype):
    """The flag kernel: finite arrays pass; one NaN, +inf or -inf anywhere (either part of a
    complex element) fails; a huge finite sum (float32 max, many times) still passes."""
    # two full blocks of POINTWISE_THREADS (128) and a partial third: the bad element in the
    # first block, in the second, and at the last element of the partial block
    x = np.full(2 * 128 + 3, np.finfo(np.float32).max, dtype=dtype)
    assert ce.all_finite(cuda.to_device(x))        # a sum would overflow; no element does
    bad = [np.nan, np.inf, -np.inf]
    if np.dtype(dtype).kind == "c":
        bad += [complex(1, np.nan), complex(0, -np.inf)]
    for v in bad:
        for where in (0, 131, x.size - 1):
            y = x.copy()
            y[where] = v
            assert not ce.all_finite(cuda.to_device(y)), (v, where)
    assert ce.all_finite(cuda.to_device(x[:0]))


def test_second_call_copies_no_constants_and_allocates_no_buffers(ce, cuda, plans, monkeypatch):
    """A repeated call reuses the plan's device constants and the thread's stage buffers
    (no host-to-device copy but the input's, no new device array but the result); a call of
    another shape, plan or dtype then gets its own, and every result stays exact."""
    ce.release_workspace()
    plan, other = plans["morlet-direct"], plans["gauss-s3"]
    x = np.random.default_rng(9).standard_normal((1, 90))
    d = cuda.to_device(x)
    first = ce.filter1d(d, plan).copy_to_host()
    counts = {"to_device": 0, "device_array": 0}
    real_to_device, real_device_array = cuda.to_device, cuda.device_array

    def counting(name, fn):
        def wrapped(*args, **kwargs):
            counts[name] += 1
            return fn(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(cuda, "to_device", counting("to_device", real_to_device))
    monkeypatch.setattr(cuda, "device_array", counting("device_array", real_device_array))
    again = ce.filter1d(d, plan).copy_to_host()
    assert counts == {"to_device": 0, "device_array": 1}      # the result alone
    np.testing.assert_array_equal(again, first)
    # another length, another plan, float32: the kept buffers and constants are reused
    # only where they fit, and every result stays within rounding of the definition
    for arr, p in ((x[:, :50], plan), (x[:, :7], plan), (x, other), (x.astype(np.float32), plan)):
        y = ce.filter1d(cuda.to_device(np.ascontiguousarray(arr)), p).copy_to_host()
        tol = rounding_bound(p, arr, np.finfo(np.float32 if arr.dtype == np.float32
                                              else np.float64).eps)
        ref = np.stack([reference(row, p) for row in arr.astype(np.float64)])
        assert np.max(np.abs(y - ref)) <= tol
    ce.release_workspace()
    counts.update(to_device=0, device_array=0)
    np.testing.assert_array_equal(ce.filter1d(d, plan).copy_to_host(), first)
    assert counts["to_device"] >= 2 and counts["device_array"] >= 3   # made anew
