"""Gaussian smoothing and derivatives: gaussian_filter1d, gaussian_filter, gaussian_laplace."""

from __future__ import annotations

import numpy as np

import sftwave

from ._data import image, random_walk, rel_rmse, warm


class GaussianFilter1D:
    """One line of 200,000 samples: small sigma (the direct FIR) and large (the bank)."""

    params = ([2.0, 128.0], ["float32", "float64"])
    param_names = ["sigma", "dtype"]

    def setup(self, sigma, dtype):
        self.x = random_walk(200_000, np.dtype(dtype))
        warm(("1d", sigma, dtype), lambda: sftwave.gaussian_filter1d(self.x, sigma))

    def time_gaussian_filter1d(self, sigma, dtype):
        sftwave.gaussian_filter1d(self.x, sigma)

    def peakmem_gaussian_filter1d(self, sigma, dtype):
        sftwave.gaussian_filter1d(self.x, sigma)


class GaussianDerivative1D:
    """First and second derivatives along a line of 200,000 float64 samples."""

    params = ([1, 2], [8.0, 128.0])
    param_names = ["order", "sigma"]

    def setup(self, order, sigma):
        self.x = random_walk(200_000)
        warm(("1d", order, sigma), lambda: sftwave.gaussian_filter1d(self.x, sigma, order=order))

    def time_gaussian_filter1d(self, order, sigma):
        sftwave.gaussian_filter1d(self.x, sigma, order=order)


class GaussianFilterImage:
    """A 1024 x 1024 image, every axis: small and large sigma, float32 and float64."""

    params = ([2.0, 32.0], ["float32", "float64"])
    param_names = ["sigma", "dtype"]

    def setup(self, sigma, dtype):
        self.img = image((1024, 1024), np.dtype(dtype))
        warm(("2d", sigma, dtype), lambda: sftwave.gaussian_filter(self.img, sigma))

    def time_gaussian_filter(self, sigma, dtype):
        sftwave.gaussian_filter(self.img, sigma)

    def peakmem_gaussian_filter(self, sigma, dtype):
        sftwave.gaussian_filter(self.img, sigma)


class GaussianFilterVolume:
    """A 32 x 128 x 128 float32 volume: anisotropic small sigma, and sigma 8 on every axis."""

    params = ["1,3,3", "8"]
    param_names = ["sigma"]

    def setup(self, sigma):
        self.vol = image((32, 128, 128), np.float32)
        sigmas = tuple(float(s) for s in sigma.split(","))
        self.sigma = sigmas if len(sigmas) > 1 else sigmas[0]
        warm(("3d", sigma), lambda: sftwave.gaussian_filter(self.vol, self.sigma))

    def time_gaussian_filter(self, sigma):
        sftwave.gaussian_filter(self.vol, self.sigma)


class GaussianLaplace:
    """gaussian_laplace and gaussian_gradient_magnitude of a 512 x 512 float64 image."""

    params = [2.0, 20.0]
    param_names = ["sigma"]

    def setup(self, sigma):
        self.img = image((512, 512))
        warm(("laplace", sigma), lambda: sftwave.gaussian_laplace(self.img, sigma))
        warm(("ggm", sigma), lambda: sftwave.gaussian_gradient_magnitude(self.img, sigma))

    def time_gaussian_laplace(self, sigma):
        sftwave.gaussian_laplace(self.img, sigma)

    def time_gaussian_gradient_magnitude(self, sigma):
        sftwave.gaussian_gradient_magnitude(self.img, sigma)


class GaussianAccuracy:
    """Relative RMSE against scipy.ndimage at ``truncate=12`` (float64): accuracy is tracked too."""

    params = ([0, 2], [2.0, 128.0])
    param_names = ["order", "sigma"]
    unit = "relative RMSE"

    def setup(self, order, sigma):
        self.x = random_walk(50_000)

    def track_error_vs_scipy_truncate12(self, order, sigma):
        import scipy.ndimage as ndi

        ref = ndi.gaussian_filter1d(self.x, sigma, order=order, truncate=12.0)
        return rel_rmse(sftwave.gaussian_filter1d(self.x, sigma, order=order), ref)
