"""Morlet wavelet transforms: a long line, EEG-shaped epochs, the inverse, one scale."""

from __future__ import annotations

import math

import numpy as np
import scipy.signal

import sftwave

from ._data import epochs, random_walk, rel_rmse, warm


class CWTLongSignal:
    """100,000 float32 samples at 1 kHz, 200 frequencies from 1 to 100 Hz (complex64 or power)."""

    params = ["complex", "power"]
    param_names = ["output"]

    def setup(self, output):
        self.x = random_walk(100_000, np.float32)
        self.freqs = np.geomspace(1.0, 100.0, 200)
        self.out = np.empty((200, 100_000), np.complex64 if output == "complex" else np.float32)
        warm(("long", output), lambda: sftwave.cwt(self.x, self.freqs, 1000.0, output=output))

    def time_cwt(self, output):
        sftwave.cwt(self.x, self.freqs, 1000.0, output=output)

    def time_cwt_out(self, output):
        sftwave.cwt(self.x, self.freqs, 1000.0, output=output, out=self.out)

    def peakmem_cwt(self, output):
        sftwave.cwt(self.x, self.freqs, 1000.0, output=output)


class CWTEpochs:
    """EEG epochs x channels x time (20 x 32 x 1000 at 250 Hz), 37 frequencies 4..40 Hz, power, decim 4."""

    params = ["7", "freqs/2"]
    param_names = ["n_cycles"]

    def setup(self, n_cycles):
        self.x = epochs(20, 32, 1000)
        self.freqs = np.arange(4.0, 41.0)
        self.xi = 7.0 if n_cycles == "7" else self.freqs / 2.0
        warm(("epochs", n_cycles), lambda: self.time_cwt(n_cycles))

    def time_cwt(self, n_cycles):
        sftwave.cwt(self.x, self.freqs, 250.0, xi=self.xi, output="power", decim=4)


class CWTOneThread:
    """The long-signal scalogram on one thread (workers=1): the kernel without the pool."""

    def setup(self):
        self.x = random_walk(100_000, np.float32)
        self.freqs = np.geomspace(1.0, 100.0, 200)
        warm("one thread", lambda: sftwave.cwt(self.x, self.freqs, 1000.0, workers=1))

    def time_cwt(self):
        sftwave.cwt(self.x, self.freqs, 1000.0, workers=1)


class InverseAndOneScale:
    """icwt of a 50-frequency scalogram; morlet_transform of 1e6 samples at one wide scale."""

    def setup(self):
        self.freqs = np.geomspace(0.005, 0.2, 50)
        self.W = sftwave.cwt(random_walk(20_000), self.freqs)
        self.x = random_walk(1_000_000)
        warm("icwt", lambda: sftwave.icwt(self.W, self.freqs))
        warm("morlet_transform", lambda: sftwave.morlet_transform(self.x, 2000.0))

    def time_icwt(self):
        sftwave.icwt(self.W, self.freqs)

    def time_morlet_transform(self):
        sftwave.morlet_transform(self.x, 2000.0)


class CWTAccuracy:
    """Worst relative RMSE of 3 rows against the exact transform (FFT convolution, reflect)."""

    unit = "relative RMSE"

    def setup(self):
        self.x = random_walk(20_000)
        self.freqs = np.array([0.002, 0.02, 0.2])

    def track_worst_row_error(self):
        xi = 6.0
        y = sftwave.cwt(self.x, self.freqs, xi=xi)
        worst = 0.0
        for i, f in enumerate(self.freqs):
            s = xi / (2 * math.pi * f)
            m = math.ceil(13 * s)
            u = np.arange(-m, m + 1) / s
            psi = np.exp(-0.5 * u * u) * (np.exp(1j * xi * u) - math.exp(-0.5 * xi * xi))
            ref = scipy.signal.fftconvolve(np.pad(self.x, m, mode="symmetric"), psi, mode="valid")
            row = y[i] * (np.vdot(y[i], ref) / np.vdot(y[i], y[i]))   # up to the normalisation
            worst = max(worst, rel_rmse(row, ref))
        return worst
