"""The exponential-sum bank against its defining double sum (tests/naive.py)."""

import numpy as np
import pytest
from naive import extend, naive_components, rel_rmse

from sftwave import engines
from sftwave.engines.numba import bank

METHODS = list(bank.METHODS)
KS = [1, 3, 16, 100]

# Relative RMSE per component against the double sum.  Every method is an
# O(L)-term recursion or prefix sum in float64; the measured error is a few
# 1e-13 at K=100 (iir2 at low frequency is the worst, its second-order
# recursion amplifies rounding by ~1/sin(omega)).  1e-10 leaves two to three
# orders of magnitude of margin and still catches any wrong term (O(1) error).
REL_TOL = 1e-10


def _omegas(K):
    """Bank frequencies pi p / K (a subset for large K) plus arbitrary ones."""
    if K <= 16:
        p = np.arange(K + 1)
    else:
        p = np.array([0, 1, 2, 5, K // 2, K - 1, K])
    return np.concatenate([np.pi * p / K, [0.37, 1.9]])


def _signal(rng, L):
    # a length that is not a multiple of anything relevant (L, blocks of 4096, 2, ...)
    # and long enough that the integral/window methods restart their blocks
    n = 2 * 4096 + 3 * L + 1237
    return rng.standard_normal(n)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("K", KS)
@pytest.mark.parametrize("asft", [False, True], ids=["sft", "asft"])
def test_components_match_double_sum(method, K, asft):
    rng = np.random.default_rng(1000 * K + int(asft))
    L = 2 * K + 1
    alpha = 1.0 / K if asft else 0.0
    omegas = _omegas(K)
    x = _signal(rng, L)
    S = bank.components(x, omegas, alpha, L, method)
    ref = naive_components(x, omegas, alpha, L)
    assert S.shape == ref.shape == (omegas.size, x.size - L + 1)
    assert S.dtype == np.complex128
    for p in range(omegas.size):
        assert rel_rmse(S[p], ref[p]) <= REL_TOL, (p, omegas[p])


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("K", KS)
@pytest.mark.parametrize("asft", [False, True], ids=["sft", "asft"])
def test_components_with_large_offset(method, K, asft):
    """x + 1000: the state carries the offset, the component may not.

    At frequencies 2 pi m / L the window sum annihilates a constant, so the
    component is only the O(sqrt(L)) noise part while every method's state (and
    the naive double sum itself) rounds numbers of size ~1000 * L.  Rounding is
    then relative to the *input's* magnitude, not the component's: the
    tolerance is 1e-10 relative to (rms of the component + |offset|).  The
    measured worst case is iir2 (SFT, K=100, omega = 2 pi / L) at ~5e-9
    absolute against a bound of ~1e-7; the naive sum's own rounding is ~2e-10.
    """
    rng = np.random.default_rng(7 + K + int(asft))
    L = 2 * K + 1
    alpha = 1.0 / K if asft else 0.0
    offset = 1000.0
    omegas = np.concatenate([_omegas(K), 2 * np.pi * np.array([1, K]) / L])
    x = _signal(rng, L) + offset
    S = bank.components(x, omegas, alpha, L, method)
    ref = naive_components(x, omegas, alpha, L)
    for p in range(omegas.size):
        err = np.sqrt(np.mean(np.abs(S[p] - ref[p]) ** 2))
        scale = np.sqrt(np.mean(np.abs(ref[p]) ** 2)) + offset
        assert err <= REL_TOL * scale, (p, omegas[p], err)


@pytest.mark.parametrize("method", [*METHODS, "auto"])
def test_doctest_semantics_sliding_sums(method):
    """omega = 0, alpha = 0: sliding sums of L samples; omega = pi: alternating sums."""
    x = np.arange(6.0)
    S = bank.components(x, [0.0], 0.0, 3, method)
    np.testing.assert_allclose(S.real, [[3.0, 6.0, 9.0, 12.0]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(S.imag, 0.0, atol=1e-12)
    # w = exp(-i pi) = -1: S[n] = x[n+2] - x[n+1] + x[n]
    S = bank.components(x, [np.pi], 0.0, 3, method)
    expect = x[2:] - x[1:-1] + x[:-2]
    np.testing.assert_allclose(S.real[0], expect, rtol=0, atol=1e-12)
    np.testing.assert_allclose(S.imag[0], 0.0, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_orientation_impulse_response(method):
    """A unit impulse at position q gives S[n] = w**(n + L - 1 - q): the newest sample has weight 1."""
    L, q = 9, 20
    x = np.zeros(41)
    x[q] = 1.0
    omega, alpha = 0.9, 0.05
    S = bank.components(x, [omega], alpha, L, method)[0]
    w = np.exp(-alpha - 1j * omega)
    n = np.arange(x.size - L + 1)
    j = n + L - 1 - q
    expect = np.where((j >= 0) & (j < L), w ** np.clip(j, 0, None), 0.0)
    np.testing.assert_allclose(S, expect, rtol=0, atol=1e-13)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n_extra", [-5, -1, 0, 1, 2])
def test_output_length_edge_cases(method, n_extra):
    """len(x_ext) = L - 1 + n_out; n_out <= 0 gives an empty (P, 0) result."""
    L = 7
    omegas = [0.0, 0.5, np.pi]
    x = np.random.default_rng(3).standard_normal(max(L - 1 + n_extra, 0))
    S = bank.components(x, omegas, 0.1, L, method)
    n_out = max(n_extra, 0)
    assert S.shape == (3, n_out)
    assert S.dtype == np.complex128
    if n_out:
        ref = naive_components(x, omegas, 0.1, L)
        np.testing.assert_allclose(S, ref, rtol=0, atol=1e-13)


def test_integral_methods_reject_overflowing_decay():
    """The damped prefix sums would overflow: a ValueError naming alpha, not inf/nan."""
    x = np.ones(100)
    for method in ("integral", "window"):
        with pytest.raises(ValueError, match="alpha"):
            bank.components(x, [0.3], 1.0, 31, method)
    # the recursive methods have no such limit
    S = bank.components(x, [0.3], 1.0, 31, "iir1")
    np.testing.assert_allclose(S, naive_components(x, [0.3], 1.0, 31), rtol=1e-12)


def test_resolve_method():
    assert bank.resolve_method("auto") in bank.METHODS
    for m in METHODS:
        assert bank.resolve_method(m) == m
    # the check of the name moved to the engine registry (resolve_method no longer validates)
    assert set(engines.BANK_METHODS) == {"auto", *METHODS}
    for m in engines.BANK_METHODS:
        engines.check_request("numba", bank_method=m)
    with pytest.raises(ValueError, match="bank_method.*'bogus'"):
        engines.check_request("numba", bank_method="bogus")


# --------------------------------------------------------------------------- bank.run


def _run(x2d, omegas, alpha, L, pad_before, coef, mode, cval, method):
    out = np.full((x2d.shape[0], x2d.shape[1], coef.shape[0]), np.nan)
    bank.run(x2d, omegas, alpha, L, pad_before, coef, out, mode=mode, cval=cval, method=method)
    return out


def _run_reference(x2d, omegas, alpha, L, pad_before, coef, mode, cval):
    """Output i of row r uses positions i - pad_before .. i - pad_before + L - 1 of the extended row."""
    n = x2d.shape[1]
    out = np.empty((x2d.shape[0], n, coef.shape[0]))
    for r, row in enumerate(x2d):
        xe = extend(row, pad_before, L - 1 - pad_before, mode, cval)
        S = naive_components(xe, omegas, alpha, L)  # (P, n)
        out[r] = (coef[:, 0, :] @ S.real + coef[:, 1, :] @ S.imag).T
    return out


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_run_rows_modes_and_coefficients(method, mode):
    """bank.run: several rows, two output channels, scipy's boundary extension."""
    rng = np.random.default_rng(11)
    K = 12
    L = 2 * K + 1
    omegas = np.pi * np.arange(5) / K
    alpha = 1.0 / K
    coef = rng.standard_normal((2, 2, omegas.size))
    x2d = rng.standard_normal((5, 301))
    for pad_before in (0, K, L - 1):
        got = _run(x2d, omegas, alpha, L, pad_before, coef, mode, 1.5, method)
        ref = _run_reference(x2d, omegas, alpha, L, pad_before, coef, mode, 1.5)
        # coefficient-weighted sums of components accurate to ~1e-14 relative
        assert rel_rmse(got, ref) <= 1e-11, pad_before


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("nrows", [1, 3])
@pytest.mark.parametrize("asft", [False, True], ids=["sft", "asft"])
def test_run_chunked_equals_unchunked(monkeypatch, method, nrows, asft):
    """Splitting a line into chunks (each re-warming over L - 1 samples) changes nothing but rounding."""
    rng = np.random.default_rng(5)
    K = 40
    L = 2 * K + 1
    omegas = np.concatenate([np.pi * np.arange(6) / K, [0.37]])
    alpha = 1.0 / K if asft else 0.0
    coef = rng.standard_normal((1, 2, omegas.size))
    x2d = np.cumsum(rng.standard_normal((nrows, 9001)), axis=1)

    monkeypatch.setattr(bank, "_MIN_CHUNK", 10**9)
    rows, starts, _ = bank._work_items(nrows, x2d.shape[1], L)
    assert starts.size == nrows  # one item per row: not chunked
    whole = _run(x2d, omegas, alpha, L, K, coef, "reflect", 0.0, method)

    monkeypatch.setattr(bank, "_MIN_CHUNK", 16)
    monkeypatch.setattr(bank, "threads", lambda: 8)
    rows, starts, counts = bank._work_items(nrows, x2d.shape[1], L)
    assert starts.size > 3 * nrows  # really chunked
    assert np.array_equal(np.bincount(rows), np.full(nrows, starts.size // nrows))
    chunked = _run(x2d, omegas, alpha, L, K, coef, "reflect", 0.0, method)

    assert not np.isnan(chunked).any()
    # a restart only changes where rounding starts to accumulate: ~1e-15 relative
    assert rel_rmse(chunked, whole) <= 1e-12
    ref = _run_reference(x2d, omegas, alpha, L, K, coef, "reflect", 0.0)
    assert rel_rmse(chunked, ref) <= 1e-10


def _numba_median():
    """numba's own ``np.median`` (what the bank's centres were taken with), compiled here."""
    from numba import njit

    return njit(lambda s: np.median(s))


@pytest.mark.parametrize("values", ["normal", "ties", "nan", "inf"])
def test_small_median_is_numbas_median(values):
    # the bank's centres: numba's np.median algorithm written out (a fraction of its compile
    # time); the same value for every count up to the 63 samples a centre takes, NaN and
    # infinities included (numba's result with NaNs depends on their places: the same here)
    from sftwave.engines.numba.bank_kernels import CENTRE_SAMPLES, small_median

    rng = np.random.default_rng(7)
    ref = _numba_median()
    # of no samples: NaN (numba 0.59's own np.median fails an assertion there, later ones NaN)
    assert np.isnan(small_median(np.empty(0)))
    for trial in range(400):
        m = 1 + trial % CENTRE_SAMPLES
        if values == "normal":
            s = rng.standard_normal(m)
        elif values == "ties":
            s = rng.integers(-2, 3, m).astype(np.float64)
        elif values == "nan":
            s = rng.standard_normal(m)
            s[rng.random(m) < 0.3] = np.nan
        else:
            s = rng.choice([-np.inf, np.inf, -1.0, 0.0, 2.0, np.nan], m)
        want = ref(s.copy())
        got = small_median(s.copy())
        assert got == want or (np.isnan(got) and np.isnan(want)), (m, s)
    if values == "normal":
        s = rng.standard_normal(41)
        assert small_median(s.copy()) == np.median(s)   # numpy's, where no NaN is among them
