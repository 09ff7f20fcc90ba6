"""The Morlet layouts, tabulated once and shipped with the package: no search at run time.

A Morlet plan (``sftwave.plans.morlet``) needs a *layout* for its number of
components: the window's half-width over the scale, ``K / sigma``, and (for
the direct method) where the run of component orders sits around the
carrier.  The layout is searched once per ``(xi, components, decay)`` at a
reference scale: some hundreds of least-squares fits, up to seconds of work for
each new ``xi`` (figures: docs/performance.md, *Figures behind the code's
choices*).  This table holds that search's results for

* ``xi`` from 0.25 to 20 in steps of :data:`XI_STEP` (:data:`XI_GRID`),
* the SFT and the ASFT (decay 0 and :data:`~sftwave.plans.fit.ASFT_DECAY`),
* the direct method with 3 to :data:`DIRECT_MAX` orders, and the
  multiplication method with 1 to ``P_M_MAX`` envelope orders, with and
  without the ``kappa`` components,

and a layout is looked up at the nearest tabulated ``xi`` (at most
``XI_STEP / 2`` away).  Outside the grid, every accepted ``xi``
(:data:`sftwave._checks.XI_RANGE`, 0.01 to 300) has a layout too:

* below it, the lowest row's (the layouts converge as ``xi`` goes to 0: the
  run of orders starts at 0 and the wavelet tends to a Gaussian's derivative);
* above it (``kappa`` is then below ``exp(-200)``), the wavelet is its Gaussian
  envelope times the carrier: the multiplication method's layout is the
  envelope's alone, the last row's; the direct method's is the *asymptotic* layout
  (:func:`sftwave.plans.morlet.search_direct_asymptotic`): a ``K / sigma``
  and the carrier's place between two orders, the ratio moved by at most
  ``pi / (2 xi)`` (:func:`asymptotic_ratio`) to put the carrier there.

(How well these serve: docs/performance.md, *Figures behind the code's choices*.)

A layout only says where to look: every plan is still fitted for its own
``sigma`` and ``xi`` and its own error is computed, so a layout taken from a
neighbouring ``xi`` can cost a component, never accuracy.  Only what the
table does not hold (more orders than tabulated, another decay, or a missing
table file) is searched, and cached on disk.

The table is made by ``sftwave.plans.table_maker`` (``make plan-tables``,
a long run on every core: docs/performance.md); ``tests/plans/test_tables.py``
checks that recomputing entries gives the stored values.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np

from .fit import ASFT_DECAY

__all__ = ["XI_GRID", "XI_STEP", "DECAYS", "DIRECT_MIN", "DIRECT_MAX", "PATH",
           "direct_layout", "multiply_ratio", "asymptotic_ratio", "layout_xi"]

#: Spacing and range of the tabulated ``xi``.
XI_STEP = 0.25
XI_GRID = np.round(np.arange(0.25, 20.0 + 0.5 * XI_STEP, XI_STEP), 6)

#: Decays tabulated: the SFT and the ASFT.
DECAYS = (0.0, ASFT_DECAY)

#: Numbers of direct orders tabulated (more reach errors below 1e-8, rarely asked for).
DIRECT_MIN, DIRECT_MAX = 3, 20

#: Where the table lives (package data).
PATH = Path(__file__).resolve().parent / "data" / "morlet_layouts.npz"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, np.ndarray] | None:
    try:
        with np.load(PATH) as data:
            table = {name: data[name] for name in data.files}
    except (OSError, ValueError):  # not shipped (a source checkout before generation): search
        return None
    if "xi" not in table or not np.array_equal(table["xi"], XI_GRID):
        return None
    if not all(name in table for name in ("asymptotic_ratio", "asymptotic_centre", "asymptotic_error")):
        return None
    return table


def _index(xi: float, decay: float) -> tuple[int, int] | None:
    """(decay index, xi index) of the nearest tabulated layout, or None.

    Below the grid, the lowest row; above it (beyond half a step), None: the
    asymptotic layouts serve there.
    """
    if decay not in DECAYS:
        return None
    i = max(0, int(round((xi - XI_GRID[0]) / XI_STEP)))
    if i >= XI_GRID.size or xi - XI_GRID[i] > 0.5 * XI_STEP + 1e-12:
        return None
    return DECAYS.index(decay), i


def layout_xi(xi: float) -> float:
    """The ``xi`` whose layout serves ``xi``: the nearest grid point, or ``xi`` itself above the grid.

    Examples
    --------
    >>> layout_xi(6.1), layout_xi(0.01), layout_xi(33.3)
    (6.0, 0.25, 33.3)
    """
    if _beyond(xi):
        return float(xi)
    return float(XI_GRID[max(0, min(XI_GRID.size - 1, int(round((xi - XI_GRID[0]) / XI_STEP))))])


def _beyond(xi: float) -> bool:
    """Whether ``xi`` is above the grid (more than half a step past its last point)."""
    return xi > XI_GRID[-1] + 0.5 * XI_STEP + 1e-12


def asymptotic_ratio(xi: float, P_D: int, ratio: float, centre: float) -> float:
    """K/sigma for ``xi`` nearest ``ratio`` that puts the carrier ``centre`` orders past the
    middle of the run of ``P_D`` orders (where the direct layout with offset 0 places it).

    The carrier sits at order ``xi K / (pi sigma) = xi (K / sigma) / pi``; ratios
    ``pi / xi`` apart place it alike, so the one nearest ``ratio`` is at most
    ``pi / (2 xi)`` away.

    Examples
    --------
    >>> r = asymptotic_ratio(50.0, 12, 4.5, 0.1)
    >>> abs(r - 4.5) <= math.pi / 100, round((50.0 * r / math.pi - 5.5) % 1.0, 9)
    (True, 0.1)
    """
    shift = centre + 0.5 * (P_D - 1)
    n = round(xi * ratio / math.pi - shift)
    return math.pi * (n + shift) / xi


def direct_layout(xi: float, P_D: int, decay: float) -> tuple[float, int, float] | None:
    """The direct method's (K/sigma, P_S offset, error at sigma_ref) from the table, or None.

    Examples
    --------
    Above the grid, the asymptotic layout placed for ``xi`` (:func:`asymptotic_ratio`,
    offset 0) and its error.

    Examples
    --------
    >>> ratio, offset, error = direct_layout(6.1, 12, 0.0)   # the layout of xi = 6
    >>> 3.0 < ratio < 6.0 and error < 1e-4
    True
    >>> ratio, offset, error = direct_layout(40.0, 12, 0.0)  # the asymptotic layout
    >>> 3.0 < ratio < 6.0 and offset == 0 and error < 1e-4
    True
    >>> direct_layout(6.0, 30, 0.0) is None                  # not tabulated: searched
    True
    """
    table = _table()
    if table is None or decay not in DECAYS or not DIRECT_MIN <= P_D <= DIRECT_MAX:
        return None
    j = P_D - DIRECT_MIN
    if _beyond(xi):
        d = DECAYS.index(decay)
        ratio = float(table["asymptotic_ratio"][d, j])
        if not math.isfinite(ratio):
            return None
        centre = float(table["asymptotic_centre"][d, j])
        return asymptotic_ratio(xi, P_D, ratio, centre), 0, float(table["asymptotic_error"][d, j])
    at = _index(xi, decay)
    if at is None:
        return None
    d, i = at
    ratio = float(table["direct_ratio"][d, i, j])
    if not math.isfinite(ratio):
        return None
    return ratio, int(table["direct_offset"][d, i, j]), float(table["direct_error"][d, i, j])


def multiply_ratio(xi: float, P_M: int, decay: float, with_kappa: bool) -> tuple[float, float] | None:
    """The multiplication method's (K/sigma, error at sigma_ref) from the table, or None.

    Above the grid, the last row's: the envelope's layout, which no longer depends
    on ``xi`` (nor on ``with_kappa``: the ``kappa`` components are nothing there).

    Examples
    --------
    >>> ratio, error = multiply_ratio(6.0, 5, 0.0, False)
    >>> 3.0 < ratio < 6.0 and error < 1e-3
    True
    """
    table = _table()
    at = (DECAYS.index(decay), XI_GRID.size - 1) if decay in DECAYS and _beyond(xi) else _index(xi, decay)
    if table is None or at is None or not 1 <= P_M <= table["multiply_ratio"].shape[-1]:
        return None
    d, i = at
    k = int(bool(with_kappa))
    ratio = float(table["multiply_ratio"][d, k, i, P_M - 1])
    if not math.isfinite(ratio):
        return None
    return ratio, float(table["multiply_error"][d, k, i, P_M - 1])
