"""A fresh process's costs: ``import sftwave``, and the first ``cwt`` with the caches filled."""

from __future__ import annotations

import subprocess
import sys

_FIRST_CWT = """
import numpy as np
import sftwave
sftwave.cwt(x, np.geomspace(1.0, 100.0, 200), 1000.0)
"""
_FIRST_CWT_SETUP = """
import numpy as np
x = np.cumsum(np.random.default_rng(0).standard_normal(100_000)).astype(np.float32)
"""


def timeraw_import_sftwave():
    """``import sftwave`` in a fresh interpreter (numpy included; numba is imported lazily)."""
    return "import sftwave"


class FirstCall:
    """Import and the first 200-frequency ``cwt`` of a fresh process, numba and plan caches filled.

    ``setup_cache`` runs the same script once first, so the user's caches
    (numba's ``__pycache__`` and sftwave's plan folder) hold what it needs.
    """

    repeat = (1, 5, 30.0)
    timeout = 300

    def setup_cache(self):
        subprocess.run([sys.executable, "-c", _FIRST_CWT_SETUP + _FIRST_CWT], check=True)

    def timeraw_first_cwt_caches_filled(self):
        return _FIRST_CWT, _FIRST_CWT_SETUP
