# Vendored from MNE-Python, https://github.com/mne-tools/mne-python, commit
# 8aa8dec45a522363be02cba78d0856442b208067 (main, 2026-08-21), mne/time_frequency/tests/test_tfr.py.
# Authors: The MNE-Python contributors. License: BSD-3-Clause (LICENSE.txt beside this
# file). Copyright the MNE-Python contributors.
# Run by tests/anchors/conftest.py under sftwave.patched('mne').
# Edits: only test_compute_tfr_correct (the file's other Morlet tests read MNE's test
#   recordings, mne/io/tests/data, which are not installed); the imports it uses.

import numpy as np
import pytest
from mne.time_frequency.tfr import _compute_tfr


@pytest.mark.parametrize("method", ("multitaper", "morlet"))
@pytest.mark.parametrize("decim", (1, slice(1, None, 2), 3))
def test_compute_tfr_correct(method, decim):
    """Test that TFR actually gets us our freq back."""
    sfreq = 1000.0
    t = np.arange(1000) / sfreq
    f = 50.0
    data = np.sin(2 * np.pi * f * t)
    data *= np.hanning(data.size)
    data = data[np.newaxis, np.newaxis]
    freqs = np.arange(10, 111, 4)
    assert f in freqs

    # previous n_cycles=2 gives weird results for multitaper
    n_cycles = freqs * 0.25
    tfr = _compute_tfr(
        data,
        freqs,
        sfreq,
        method=method,
        decim=decim,
        n_cycles=n_cycles,
        output="power",
    )[0, 0]
    assert freqs[np.argmax(tfr.mean(-1))] == f
