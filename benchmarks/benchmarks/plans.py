"""Plan design with a cold plan cache, each sample a fresh process.

The plan cache (``SFTWAVE_CACHE_DIR``) points at a new, empty temporary folder
(removed when the process exits), and designs are also kept in memory, so
every sample is a fresh interpreter: ``setup`` (untimed) imports sftwave and
loads numba's engine; the timed statement designs the plans.
"""

from __future__ import annotations

_SETUP = """
import os, tempfile
_cache = tempfile.TemporaryDirectory(prefix="sftwave-asv-plans-")
os.environ["SFTWAVE_CACHE_DIR"] = _cache.name
import numpy as np
import sftwave
from sftwave.engines import get
from sftwave.plans.select import select_gaussian, select_morlet
cost = get("numba").fir_taps_per_order()
"""


class DesignCold:
    """What a new machine (or a new sftwave version) pays before its first call."""

    repeat = (1, 5, 30.0)

    params = [1.0, 6.0, 20.0]
    param_names = ["xi"]

    def timeraw_design_200_morlet_scales(self, xi):
        stmt = f"""
xi = {xi!r}
for f in np.geomspace(1.0, 100.0, 200):
    select_morlet(float(xi * 1000.0 / (2 * np.pi * f)), xi, 1e-4, n=100000,
                  fir_taps_per_order=cost)
"""
        return stmt, _SETUP


class DesignColdGaussian:
    """Gaussian plans (orders 0..2) for 8 sigmas from 3 to 3000."""

    repeat = (1, 5, 30.0)

    def timeraw_design_gaussian(self):
        stmt = """
for s in np.geomspace(3.0, 3000.0, 8):
    for order in (0, 1, 2):
        select_gaussian(float(s), order, fir_taps_per_order=cost)
"""
        return stmt, _SETUP
