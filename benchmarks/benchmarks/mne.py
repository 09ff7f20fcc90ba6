"""sftwave.mne.tfr_array_morlet, MNE's signature: every output of EEG epochs, one thread."""

from __future__ import annotations

import numpy as np

from sftwave.mne import tfr_array_morlet

from ._data import epochs, warm


class TFRArrayMorlet:
    """20 x 32 x 1000 epochs at 250 Hz, 37 frequencies 4..40 Hz, ``n_cycles = freqs / 2``, decim 4,
    ``n_jobs=1`` (the averaged outputs are summed inside the lane kernel)."""

    params = ["complex", "power", "phase", "avg_power", "itc", "avg_power_itc"]
    param_names = ["output"]

    def setup(self, output):
        self.x = epochs(20, 32, 1000)
        self.freqs = np.geomspace(4.0, 40.0, 37)
        warm(("tfr", output), lambda: self.time_tfr_array_morlet(output))

    def time_tfr_array_morlet(self, output):
        tfr_array_morlet(self.x, 250.0, self.freqs, n_cycles=self.freqs / 2, output=output, decim=4,
                         n_jobs=1)

    def peakmem_tfr_array_morlet(self, output):
        tfr_array_morlet(self.x, 250.0, self.freqs, n_cycles=self.freqs / 2, output=output, decim=4)
