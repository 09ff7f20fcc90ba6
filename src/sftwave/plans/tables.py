"""The Morlet layouts, tabulated once and shipped with the package: no search at run time.

A Morlet plan (:mod:`sftwave.plans.morlet`) needs a *layout* for its number of
components: the window's half-width over the scale, ``K / sigma``, and (for
the direct method) where the run of component orders sits around the
carrier.  The layout is searched once per ``(xi, components, decay)`` at a
reference scale: some hundreds of least-squares fits, 0.1 to 3 s for each
new ``xi``.  This table holds that search's results for

* ``xi`` from 1 to 20 in steps of :data:`XI_STEP` (:data:`XI_GRID`),
* the SFT and the ASFT (decay 0 and :data:`~sftwave.plans.fit.ASFT_DECAY`),
* the direct method with 3 to :data:`DIRECT_MAX` orders, and the
  multiplication method with 1 to ``P_M_MAX`` envelope orders, with and
  without the ``kappa`` components,

and a layout is looked up at the nearest tabulated ``xi`` (at most
``XI_STEP / 2`` away).  A layout only says where to look: every plan is still
fitted for its own ``sigma`` and ``xi`` and its own error is computed, so a
layout taken from a neighbouring ``xi`` can cost a component, never accuracy.
What the table does not hold (``xi`` outside the grid, more orders) is
searched as before, and cached on disk.

The table is made by :mod:`sftwave.plans.table_maker` (``make plan-tables``:
about 45 CPU-minutes, 25 minutes on two cores); ``tests/plans/test_tables.py``
checks that recomputing entries gives the stored values.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np

from .fit import ASFT_DECAY

__all__ = ["XI_GRID", "XI_STEP", "DECAYS", "DIRECT_MIN", "DIRECT_MAX", "PATH",
           "direct_layout", "multiply_ratio"]

#: Spacing and range of the tabulated ``xi``.
XI_STEP = 0.25
XI_GRID = np.round(np.arange(1.0, 20.0 + 0.5 * XI_STEP, XI_STEP), 6)

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
    return table


def _index(xi: float, decay: float) -> tuple[int, int] | None:
    """(decay index, xi index) of the nearest tabulated layout, or None."""
    if decay not in DECAYS:
        return None
    i = int(round((xi - XI_GRID[0]) / XI_STEP))
    if not (0 <= i < XI_GRID.size) or abs(xi - XI_GRID[i]) > 0.5 * XI_STEP + 1e-12:
        return None
    return DECAYS.index(decay), i


def direct_layout(xi: float, P_D: int, decay: float) -> tuple[float, int, float] | None:
    """The direct method's (K/sigma, P_S offset, error at sigma_ref) from the table, or None.

    Examples
    --------
    >>> ratio, offset, error = direct_layout(6.1, 12, 0.0)   # the layout of xi = 6
    >>> 3.0 < ratio < 6.0 and error < 1e-4
    True
    >>> direct_layout(40.0, 12, 0.0) is None                 # not tabulated: searched
    True
    """
    table = _table()
    at = _index(xi, decay)
    if table is None or at is None or not DIRECT_MIN <= P_D <= DIRECT_MAX:
        return None
    d, i = at
    j = P_D - DIRECT_MIN
    ratio = float(table["direct_ratio"][d, i, j])
    if not math.isfinite(ratio):
        return None
    return ratio, int(table["direct_offset"][d, i, j]), float(table["direct_error"][d, i, j])


def multiply_ratio(xi: float, P_M: int, decay: float, with_kappa: bool) -> tuple[float, float] | None:
    """The multiplication method's (K/sigma, error at sigma_ref) from the table, or None.

    Examples
    --------
    >>> ratio, error = multiply_ratio(6.0, 5, 0.0, False)
    >>> 3.0 < ratio < 6.0 and error < 1e-3
    True
    """
    table = _table()
    at = _index(xi, decay)
    if table is None or at is None or not 1 <= P_M <= table["multiply_ratio"].shape[-1]:
        return None
    d, i = at
    k = int(bool(with_kappa))
    ratio = float(table["multiply_ratio"][d, k, i, P_M - 1])
    if not math.isfinite(ratio):
        return None
    return ratio, float(table["multiply_error"][d, k, i, P_M - 1])
