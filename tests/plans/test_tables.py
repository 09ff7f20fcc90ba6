"""The shipped Morlet layout table (sftwave.plans.tables): what it holds, that it is what
the search gives, and that designs inside its range search nothing and meet their tolerance
(outside it: tests/plans/test_morlet_any_xi.py)."""

import math

import numpy as np
import pytest
from naive import exact_morlet

from sftwave.plans import morlet, tables
from sftwave.plans.fit import ASFT_DECAY
from sftwave.plans.select import select_morlet


def test_table_is_shipped_and_complete():
    """Every (decay, xi, number of components) of the grid holds a finite layout."""
    table = tables._table()
    assert table is not None, f"{tables.PATH} is missing: make plan-tables"
    np.testing.assert_array_equal(table["xi"], tables.XI_GRID)
    nP = tables.DIRECT_MAX - tables.DIRECT_MIN + 1
    assert table["direct_ratio"].shape == (len(tables.DECAYS), tables.XI_GRID.size, nP)
    assert table["multiply_ratio"].shape == (len(tables.DECAYS), 2, tables.XI_GRID.size, morlet.P_M_MAX)
    for name in ("asymptotic_ratio", "asymptotic_centre", "asymptotic_error"):
        assert table[name].shape == (len(tables.DECAYS), nP), name
    for name in ("direct_ratio", "direct_error", "multiply_ratio", "multiply_error",
                 "asymptotic_ratio", "asymptotic_centre", "asymptotic_error"):
        assert np.all(np.isfinite(table[name])), name
    # the search's range of K / sigma (2 .. 3.5 + 0.3 P, resp. 0.6 P)
    assert table["direct_ratio"].min() >= 2.0 - 1e-9
    assert table["multiply_ratio"].min() >= 2.0 - 1e-9
    assert table["asymptotic_ratio"].min() >= 2.0 - 1e-9
    # the carrier's place in the run: within half an order of its middle
    assert np.all(np.abs(table["asymptotic_centre"]) <= 0.5)


@pytest.mark.parametrize("xi,P_D,decay", [(6.0, 8, 0.0), (2.5, 6, ASFT_DECAY), (13.75, 5, 0.0)])
def test_direct_entries_are_what_the_search_gives(xi, P_D, decay):
    """Recomputing an entry (the same search, as `make plan-tables` runs it) gives the stored value.

    The search is deterministic (BLAS on one thread); the ratio comes from a bounded
    Brent minimisation, so it is compared to 1e-9 relative, the error to 1e-9.
    """
    ratio, offset, error = morlet.search_direct_layout(xi, P_D, decay)
    t_ratio, t_offset, t_error = tables.direct_layout(xi, P_D, decay)
    assert t_offset == offset
    assert t_ratio == pytest.approx(ratio, rel=1e-9)
    assert t_error == pytest.approx(error, rel=1e-9)


@pytest.mark.parametrize("xi,P_D,decay", [(0.5, 6, 0.0), (0.25, 9, ASFT_DECAY)])
def test_low_xi_entries_are_what_the_search_gives(xi, P_D, decay):
    """The rows below xi = 1 (added with --missing, the rest kept): as the search gives."""
    ratio, offset, error = morlet.search_direct_layout(xi, P_D, decay)
    t_ratio, t_offset, t_error = tables.direct_layout(xi, P_D, decay)
    assert t_offset == offset
    assert t_ratio == pytest.approx(ratio, rel=1e-9)
    assert t_error == pytest.approx(error, rel=1e-9)


@pytest.mark.parametrize("P_D,decay", [(5, 0.0), (8, ASFT_DECAY)])
def test_asymptotic_entries_are_what_the_search_gives(P_D, decay):
    """The asymptotic direct layouts (beyond the grid) are what their search gives."""
    ratio, centre, error = morlet.search_direct_asymptotic(P_D, decay)
    table = tables._table()
    d, j = tables.DECAYS.index(decay), P_D - tables.DIRECT_MIN
    assert table["asymptotic_ratio"][d, j] == pytest.approx(ratio, rel=1e-9)
    assert table["asymptotic_centre"][d, j] == pytest.approx(centre, rel=1e-9, abs=1e-12)
    assert table["asymptotic_error"][d, j] == pytest.approx(error, rel=1e-9)


@pytest.mark.parametrize("xi,P_M,decay,with_kappa", [(6.0, 4, 0.0, False), (1.5, 3, ASFT_DECAY, True),
                                                      (19.0, 2, 0.0, True), (0.75, 5, 0.0, True)])
def test_multiply_entries_are_what_the_search_gives(xi, P_M, decay, with_kappa):
    ratio, error = morlet.search_multiply_ratio(xi, P_M, decay, with_kappa)
    t_ratio, t_error = tables.multiply_ratio(xi, P_M, decay, with_kappa)
    assert t_ratio == pytest.approx(ratio, rel=1e-9)
    assert t_error == pytest.approx(error, rel=1e-9)


def test_lookup_takes_the_nearest_grid_point_and_every_xi_a_layout():
    """On the grid, the nearest point; below it, the lowest row; above it, the asymptotic
    layouts (direct) and the last row (multiply); nothing for what is not tabulated."""
    step = tables.XI_STEP
    assert tables.direct_layout(6.0 + 0.49 * step, 10, 0.0) == tables.direct_layout(6.0, 10, 0.0)
    assert tables.direct_layout(6.0 + 0.51 * step, 10, 0.0) == tables.direct_layout(6.0 + step, 10, 0.0)
    assert tables.direct_layout(20.0 + 0.49 * step, 10, 0.0) == tables.direct_layout(20.0, 10, 0.0)
    lowest = float(tables.XI_GRID[0])
    for xi in (0.01, 0.1, lowest - 0.6 * step):
        assert tables.direct_layout(xi, 10, 0.0) == tables.direct_layout(lowest, 10, 0.0)
        assert tables.multiply_ratio(xi, 4, 0.0, True) == tables.multiply_ratio(lowest, 4, 0.0, True)
    table = tables._table()
    for xi in (20.0 + 0.6 * step, 33.3, 300.0):
        ratio, offset, error = tables.direct_layout(xi, 10, 0.0)
        assert offset == 0 and error == table["asymptotic_error"][0, 10 - tables.DIRECT_MIN]
        assert abs(ratio - table["asymptotic_ratio"][0, 10 - tables.DIRECT_MIN]) <= math.pi / (2 * xi) + 1e-12
        assert tables.multiply_ratio(xi, 4, 0.0, False) == tables.multiply_ratio(20.0, 4, 0.0, False)
        assert tables.layout_xi(xi) == xi
    assert tables.layout_xi(6.0 + 0.49 * step) == 6.0 and tables.layout_xi(0.01) == lowest
    assert tables.direct_layout(6.0, tables.DIRECT_MAX + 1, 0.0) is None
    assert tables.direct_layout(40.0, tables.DIRECT_MAX + 1, 0.0) is None
    assert tables.direct_layout(6.0, 10, 0.5) is None           # a decay not tabulated
    assert tables.direct_layout(40.0, 10, 0.5) is None
    assert tables.multiply_ratio(6.0, morlet.P_M_MAX + 1, 0.0, False) is None
    assert tables.multiply_ratio(40.0, 4, 0.5, False) is None


@pytest.fixture
def no_search(monkeypatch):
    """Any layout search raises: designs must come from the table alone."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a layout search ran: {args}")

    monkeypatch.setattr(morlet, "_best_direct_layout", refuse)
    monkeypatch.setattr(morlet, "_best_multiply_ratio", refuse)
    monkeypatch.setenv("SFTWAVE_CACHE_DIR", "")


@pytest.mark.parametrize("xi", [1.13, 2.0, 6.0, 7.37, 11.9, 19.96])
@pytest.mark.parametrize("transform", ["sft", "asft"])
def test_designs_in_the_grid_search_nothing_and_meet_tol(no_search, xi, transform):
    """A scalogram's plans for xi in [1, 20], on or off the grid: no search, every error <= tol.

    (Unusual scales and a tolerance no other test uses, so that no plan comes from
    a cache filled before the search was refused.)
    """
    tol = 3.1e-4
    # from the carrier at Nyquist (sigma = xi / pi, as cwt allows) up
    sigmas = np.geomspace(xi / np.pi, 1700.0, 23) * (1.0 + xi / 1000.0)
    for sigma in sigmas:
        plan = select_morlet(float(sigma), xi, tol, transform=transform)
        assert plan.error <= tol, (sigma, plan.error)


@pytest.mark.parametrize("xi,sigma", [(6.13, 37.0), (2.37, 150.0), (17.3, 420.0)])
def test_off_grid_plans_errors_are_true(xi, sigma):
    """The stated error of a plan built from a neighbour's layout is its true error.

    Against the direct definition (``naive.exact_morlet``) over the whole support:
    the stated error is the larger of the white-noise and random-walk errors, so the
    white-noise error recomputed here is at most it (and within 1e-4 of it when it
    is the larger).
    """
    tol = 1e-4
    plan = select_morlet(sigma, xi, tol, method="bank")
    R = int(math.ceil(14 * sigma)) + plan.length
    k = np.arange(-R, R + 1)
    exact = exact_morlet(sigma, xi, k)
    j = k + plan.lag
    inside = (j >= 0) & (j < plan.length)
    jw = j[inside].astype(np.float64)
    pw = np.exp(np.multiply.outer(jw, np.log(plan.w)))
    h = np.zeros(k.size, dtype=complex)
    h[inside] = pw.real @ plan.coef[0, 0] + pw.imag @ plan.coef[0, 1]
    white = np.sqrt(np.sum(np.abs(h - exact) ** 2) / np.sum(np.abs(exact) ** 2))
    assert white <= plan.error * (1 + 1e-4)
    assert plan.error <= tol


def test_off_grid_layout_costs_at_most_one_component():
    """Between grid points, the neighbour's layout costs at most one component over the search's own."""
    xi, tol = 6.1, 1e-3
    planned = morlet.morlet_plan(300.0, xi, tol, "direct")
    P_search = next(P for P in range(3, morlet.P_D_MAX + 1)
                    if morlet.search_direct_layout(xi, P, 0.0)[2] <= tol)
    assert planned.omegas.size <= P_search + 1
