"""The one boundary rule (``sftwave.engines._boundary.source_index``) against the direct extension.

The same Python function runs on Python integers, on numpy index arrays (the
array-API engine), under numba (the CPU kernels) and under numba-cuda (the
device kernels, checked in ``tests/engines/cuda/cuda_checks.py``); each form must be
scipy.ndimage's extension, also many line lengths beyond the ends.
"""

from __future__ import annotations

import naive
import numpy as np
import pytest
from numba import njit

from sftwave.engines._boundary import MODE_CODES, source_index

jitted = njit(source_index)


@pytest.mark.parametrize("mode", list(MODE_CODES))
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_every_form_is_scipys_extension(mode, n):
    x = np.arange(10.0, 10.0 + n)
    pad = 5 * n + 11                      # several reflections beyond each end
    ext = naive.extend(x, pad, pad, mode, cval=-1.0)
    code = MODE_CODES[mode]
    pos = np.arange(-pad, n + pad)

    def read(idx):
        idx = np.asarray(idx)
        return np.where(idx >= 0, x[np.clip(idx, 0, n - 1)], -1.0)

    np.testing.assert_array_equal(read([source_index(int(i), n, code) for i in pos]), ext)
    np.testing.assert_array_equal(read(source_index(pos, n, code)), ext)
    np.testing.assert_array_equal(read([jitted(int(i), n, code) for i in pos]), ext)
