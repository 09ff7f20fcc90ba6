"""sftwave: Gaussian smoothing and Morlet wavelet transforms by the sliding Fourier transform.

The public functions are drop-in replacements for their scipy.ndimage
counterparts, with a cost per sample that does not depend on the width:

>>> import numpy as np, sftwave
>>> y = sftwave.gaussian_filter1d(np.ones(10), 3.0)
>>> bool(np.allclose(y, 1.0))
True
"""

from .ndimage import gaussian_filter, gaussian_filter1d

__all__ = ["gaussian_filter", "gaussian_filter1d", "__version__"]
__version__ = "0.1.0.dev0"
