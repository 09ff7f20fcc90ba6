"""Few long rows cut into pieces with no warm-up (sftwave.engines.numba.pieces) against the bank.

``pieces.run`` runs the bank's ``iir1`` recursion ``T = w T + x[m] - w^L x[m - L]``
over the whole extended row, cut into pieces that each start from a zero
state, and adds to each piece the true state before it, carried on by ``w``
(the recursion is linear).  ``bank.apply(..., method='iir1', whole_rows=True)``
runs the same recursion over each whole row from its start.  Both compute the
same outputs; they differ only by rounding: the SFT's state (``|w| = 1``)
carries its rounding like a random walk, ``eps sqrt(N + L)`` times the size of
the components (for N + L < 2e5 about 1e-13 of the output's scale), the centre
each subtracts (the bank's per-segment median of evenly spaced samples and the
pieces' per-row one, the same samples here) times the kernel's sum, and the
carry's powers ``w^u`` (exact to a few units in the last place).  Measured, the
differences stay below 1e-12 of ``scale`` (the largest output plus the largest
input); 1e-10 leaves a factor of 100, where a wrong carry, piece edge or
extension is of the order of the output itself.
"""

import numpy as np
import pytest
from naive import exact_gaussian_filter1d, rel_rmse

import sftwave
from sftwave.engines.numba import bank, filters, pieces
from sftwave.plans.fit import fit_plan
from sftwave.plans.gaussian import gaussian_plan, gaussian_target

N = 70_000      # one group of 16 pieces needs N + L - 1 >= 16 * MIN_PIECE (16,384); here 4 groups

MODES = ("reflect", "mirror", "nearest", "wrap", "constant")


def bank_rows(x2d, plan, mode, cval):
    out = np.empty(x2d.shape + (1,))
    bank.apply(plan, np.ascontiguousarray(x2d, dtype=np.float64), out, mode=mode, cval=cval,
               method="iir1", whole_rows=True)
    return out[..., 0]


def check_close(y, ref, x):
    scale = np.max(np.abs(ref)) + np.max(np.abs(x))
    assert np.max(np.abs(y - ref)) <= 1e-10 * scale


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sigma", [4.0, 300.0, 3000.0])
def test_pieces_equal_the_bank(mode, sigma):
    rng = np.random.default_rng(int(sigma))
    x = rng.standard_normal((2, N)) + np.array([[5.0], [-40.0]])   # offsets of their own
    plan = gaussian_plan(sigma, 0, 1e-5, "sft")
    assert pieces.groups(N, plan.length) >= 1
    out = np.empty_like(x)
    pieces.run(x, plan, mode, 1.5, out)
    check_close(out, bank_rows(x, plan, mode, 1.5), x)


@pytest.mark.parametrize("order", [0, 1, 2])
def test_pieces_asft_and_derivatives(order):
    """The damped transform (``w^L`` not one: the general input ``x[m] - w^L x[m - L]``)."""
    x = np.cumsum(np.random.default_rng(order).standard_normal((1, N)), axis=1)
    plan = gaussian_plan(64.0, order, 1e-5, "asft")
    assert plan.alpha > 0
    out = np.empty_like(x)
    pieces.run(x, plan, "nearest", 0.0, out)
    check_close(out, bank_rows(x, plan, "nearest", 0.0), x)


def test_pieces_sft_with_imaginary_weights():
    """The SFT's recursion with outputs that weigh the imaginary parts too (an odd
    kernel's plan: the first derivative), not only the real parts."""
    x = np.cumsum(np.random.default_rng(7).standard_normal((1, N)), axis=1)
    plan = gaussian_plan(64.0, 1, 1e-5, "sft")
    assert plan.alpha == 0 and np.any(plan.coef[0, 1])
    out = np.empty_like(x)
    pieces.run(x, plan, "reflect", 0.0, out)
    check_close(out, bank_rows(x, plan, "reflect", 0.0), x)


def _grid_plan(sigma, order, P=6):
    """A Gaussian (order 0) or first-derivative plan whose frequencies are multiples of
    ``2 pi / L`` (``w^L = 1``, the SFT's grid), fitted as the library's plans are."""
    K = int(round(3.5 * sigma))
    L = 2 * K + 1
    odd = order % 2 == 1
    p = np.arange(1, P + 1) if odd else np.arange(0, P + 1)
    return fit_plan([gaussian_target(sigma, order)], 2 * np.pi / L * p, 0.0, L, K,
                    use_re=np.full(p.size, not odd), use_im=np.full(p.size, odd),
                    moments=(0, 1, 2), scale=sigma)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("sigma", "order"), [(8.0, 0), (300.0, 0), (300.0, 1)])
def test_pieces_sft_difference_form(sigma, order, mode, dtype):
    """Plans on the SFT's grid run the recursion on the one difference ``x[m] - x[m - L]``
    (order 0: outputs of the real parts alone; order 1: both parts), warmed up (sigma 8)
    or carried (sigma 300): the bank's values within rounding (float32 input: its
    differences rounded in float32, measured 0.05 of float32's epsilon of the output's scale
    at most; float64 2.5e-13 at most, against the 1e-10 allowed)."""
    plan = _grid_plan(sigma, order)
    assert np.max(np.abs(plan.w ** plan.length - 1)) < 1e-12
    assert np.any(plan.coef[0, 1]) == (order == 1)
    x = (np.cumsum(np.random.default_rng(int(sigma) + order).standard_normal((2, N)), axis=1)
         + 50.0).astype(dtype)
    out = np.empty(x.shape)
    pieces.run(x, plan, mode, 1.5, out)
    tol = 1e-10 if dtype == np.float64 else np.finfo(np.float32).eps
    ref = bank_rows(x, plan, mode, 1.5)
    assert np.max(np.abs(out - ref)) <= tol * (np.max(np.abs(ref)) + np.max(np.abs(x)))


def test_pieces_match_the_exact_filter():
    """Against the direct definition: within the plan's tolerance."""
    x = np.random.default_rng(3).standard_normal(N)
    for sigma in (16.0, 2500.0):
        plan = gaussian_plan(sigma, 0, 1e-5, "sft")
        out = np.empty((1, N))
        pieces.run(x[None], plan, "reflect", 0.0, out)
        assert rel_rmse(out[0], exact_gaussian_filter1d(x, sigma)) < 1e-4


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pieces_dtypes(dtype):
    x = np.random.default_rng(4).standard_normal((1, N)).astype(dtype)
    plan = gaussian_plan(20.0, 0, 1e-5, "sft")
    out = np.empty(x.shape, dtype)
    pieces.run(x, plan, "reflect", 0.0, out)
    ref = bank_rows(x, plan, "reflect", 0.0)
    # float32 output: rounded once by the pieces, once more where the carry is added
    tol = 4 * np.finfo(dtype).eps if dtype == np.float32 else 1e-10
    assert np.max(np.abs(out - ref)) <= tol * (np.max(np.abs(ref)) + np.max(np.abs(x)))


def test_pieces_same_bits_on_any_thread_count():
    x = np.random.default_rng(5).standard_normal((3, 300_000))
    plan = gaussian_plan(700.0, 0, 1e-5, "sft")
    outs = []
    for workers in (1, 2, 3):
        out = np.empty_like(x)
        with sftwave.set_workers(workers):
            pieces.run(x, plan, "reflect", 0.0, out)
        outs.append(out)
    assert all(np.array_equal(outs[0], o) for o in outs[1:])


def test_rows_beyond_the_chunk_take_the_pieces_only_when_they_warm_up(monkeypatch):
    """A row longer than the bank's longest recursion (``bank.MAX_IN_PLACE``, here lowered to
    20,000 samples) takes the pieces where they warm up (each piece's recursion then runs
    over its own steps alone: sigma 4 and 20, and the public call gives the bank's values
    within rounding), not where they would carry the state along the whole row (sigma 300)."""
    monkeypatch.setattr(bank, "MAX_IN_PLACE", 20_000)
    x = np.cumsum(np.random.default_rng(11).standard_normal(N))
    for sigma in (4.0, 20.0, 300.0):
        plan = gaussian_plan(sigma, 0, 1e-5, "sft")
        warm = pieces.warm_up(N, plan.length)
        assert (warm > 0) == (sigma < 300)
        assert filters._pieces_pay(x[None], plan) == (warm > 0)
        if warm:
            assert pieces.piece_steps(N, plan.length) <= 20_000
            out = np.empty((1, N))
            pieces.run(x[None], plan, "reflect", 0.0, out)
            check_close(out, bank_rows(x[None], plan, "reflect", 0.0), x)


def test_public_filter_takes_the_pieces_and_filters_in_place():
    """A long 1-D line goes to the pieces, also in place (the rows copied before they are written)."""
    x = np.random.default_rng(6).standard_normal(N)
    plan = gaussian_plan(50.0, 0, 1e-5, "sft")
    assert filters._pieces_pay(x[None], plan)
    y = sftwave.gaussian_filter1d(x, 50.0)
    z = x.copy()
    sftwave.gaussian_filter1d(z, 50.0, output=z)
    assert np.array_equal(y, z)
    assert rel_rmse(y, exact_gaussian_filter1d(x, 50.0)) < 1e-4


@pytest.mark.parametrize("mode", MODES)
def test_short_lines_with_long_windows(mode):
    """A line shorter than 16 pieces whose window makes the extended line long enough (n
    12,000, window 9,889 samples at sigma 1000) takes the pieces: the bank's values within
    rounding, the exact filter within the plan's tolerance."""
    x = np.cumsum(np.random.default_rng(9).standard_normal((1, 12_000)), axis=1)
    plan = sftwave.plans.select_gaussian(1000.0, 0, n=12_000, fir_taps_per_order=2.75, wide=True)
    assert type(plan).__name__ == "SFTPlan" and filters._pieces_pay(x, plan)
    assert x.shape[1] < pieces.WIDTH * pieces.MIN_PIECE <= x.shape[1] + plan.length - 1
    out = np.empty_like(x)
    pieces.run(x, plan, mode, 1.5, out)
    check_close(out, bank_rows(x, plan, mode, 1.5), x)
    assert rel_rmse(out[0], exact_gaussian_filter1d(x[0], 1000.0, mode=mode, cval=1.5)) < 1e-4
