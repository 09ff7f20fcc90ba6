"""The Gaussian selector's FIR designed to the bank's accuracy (``design_taps_per_order``).

Where scipy's kernel is not taken, ``'auto'`` takes the moment-corrected kernel that meets
the bank plan's own error, if it has at most the figure's taps per bank order (plus one).
Its error is checked here against the exact kernel (``naive.kernel_rel_error``), not by the
selector's own arithmetic.
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import kernel_rel_error

from sftwave.plans import FIRPlan, SFTPlan, select_gaussian

DESIGN = 5.5


@pytest.mark.parametrize("sigma", [3.0, 4.0])
@pytest.mark.parametrize("order", [0, 1, 2])
def test_the_designed_fir_is_as_accurate_as_the_bank(sigma, order):
    bank = select_gaussian(sigma, order, method="bank")
    plan = select_gaussian(sigma, order, fir_taps_per_order=2.75, design_taps_per_order=DESIGN)
    assert type(plan) is FIRPlan and plan.error == bank.error
    assert plan.kernel.size <= DESIGN * (bank.omegas.size + 1)
    # the kernel's own error against the exact one, with rounding's share of the sums
    assert kernel_rel_error(plan.kernel, sigma, order) <= bank.error * (1 + 1e-6) + 1e-14
    if order == 0:
        assert abs(plan.kernel.sum() - 1.0) <= 1e-14      # the moments the design corrects
    else:
        assert abs(plan.kernel.sum()) <= 1e-14


def test_without_the_figure_or_beyond_it_the_bank():
    assert type(select_gaussian(4.0, 0, fir_taps_per_order=2.75)) is SFTPlan
    assert type(select_gaussian(8.0, 0, fir_taps_per_order=2.75,
                                design_taps_per_order=DESIGN)) is SFTPlan
    # scipy's own kernel where the first figure takes it (bit for bit scipy's results)
    small = select_gaussian(1.0, 0, fir_taps_per_order=2.75, design_taps_per_order=DESIGN)
    assert type(small) is FIRPlan and small.error is None
    # method='bank' is never replaced
    assert type(select_gaussian(4.0, 0, method="bank", design_taps_per_order=DESIGN)) is SFTPlan


def test_a_short_line_designs_to_its_tightened_plan():
    """On a line shorter than the bank's window the target tightens; so does the design."""
    long_plan = select_gaussian(4.0, 0, fir_taps_per_order=2.75, design_taps_per_order=DESIGN)
    short = select_gaussian(4.0, 0, n=20, fir_taps_per_order=2.75, design_taps_per_order=DESIGN)
    bank = select_gaussian(4.0, 0, n=20, method="bank")
    assert bank.error < long_plan.error
    if type(short) is FIRPlan:
        assert short.error == bank.error
        assert kernel_rel_error(short.kernel, 4.0, 0) <= bank.error * (1 + 1e-6) + 1e-14
    else:
        assert type(short) is SFTPlan


@pytest.mark.parametrize("bad", [0.0, -1.0, float("inf"), True, "5"])
def test_a_bad_figure_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="design_taps_per_order"):
        select_gaussian(4.0, 0, design_taps_per_order=bad)


def test_the_filters_take_it_on_float64():
    """gaussian_filter1d of a float64 line at sigma 4: the designed FIR, within the bank's
    error of the exact filter (tests/test_ndimage.py holds every mode to it)."""
    from naive import exact_gaussian_filter1d, rel_rmse

    import sftwave

    x = np.cumsum(np.random.default_rng(0).standard_normal(3000))
    y = sftwave.gaussian_filter1d(x, 4.0, mode="reflect")
    bank = select_gaussian(4.0, 0, method="bank")
    assert rel_rmse(y, exact_gaussian_filter1d(x, 4.0, 0, "reflect")) <= 3 * bank.error
