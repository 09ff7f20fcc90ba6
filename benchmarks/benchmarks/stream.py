"""The stream classes: a long signal fed in chunks (the state carries over between calls)."""

from __future__ import annotations

import numpy as np

from sftwave.stream import CWT, GaussianFilter1D


class StreamGaussian:
    """GaussianFilter1D(32) on 65,536 float64 samples fed in chunks of 64 and 4096."""

    params = [64, 4096]
    param_names = ["chunk"]

    def setup(self, chunk):
        self.x = np.random.default_rng(0).standard_normal(65_536)
        self.stream = GaussianFilter1D(32.0)
        self.stream.process(self.x[:5000])
        self.stream.process(self.x[:chunk])

    def time_process(self, chunk):
        process = self.stream.process
        for i in range(0, self.x.size, chunk):
            process(self.x[i:i + chunk])


class StreamCWT:
    """CWT of 16 frequencies, power, on 65,536 samples fed in chunks of 64 and 4096."""

    params = [64, 4096]
    param_names = ["chunk"]

    def setup(self, chunk):
        self.x = np.random.default_rng(0).standard_normal(65_536)
        self.stream = CWT(np.geomspace(0.002, 0.4, 16), output="power")
        self.stream.process(self.x[:5000])
        self.stream.process(self.x[:chunk])

    def time_process(self, chunk):
        process = self.stream.process
        for i in range(0, self.x.size, chunk):
            process(self.x[i:i + chunk])


class StreamOneSample:
    """GaussianFilter1D(32), one sample per call (the per-call overhead), 1000 calls."""

    def setup(self):
        self.x = np.random.default_rng(0).standard_normal(1000)
        self.stream = GaussianFilter1D(32.0)
        self.stream.process(self.x)

    def time_process_one_by_one(self):
        process = self.stream.process
        for i in range(self.x.size):
            process(self.x[i:i + 1])
