"""sftwave: Gaussian smoothing and Morlet wavelet transforms by the sliding Fourier transform.

The Gaussian filters are drop-in replacements for their scipy.ndimage
counterparts, and the Morlet transform gives scalograms, all with a cost per
sample that does not depend on the width:

>>> import numpy as np, sftwave
>>> y = sftwave.gaussian_filter1d(np.ones(10), 3.0)
>>> bool(np.allclose(y, 1.0))
True
"""

from .apply import apply_plan
from .inverse import icwt
from .ndimage import (
    gaussian_filter,
    gaussian_filter1d,
    gaussian_gradient_magnitude,
    gaussian_laplace,
)
from .superlets import superlet
from .wavelets import cwt, frequency_to_scale, morlet_transform, scale_to_frequency
from .workers import get_workers, set_workers

__all__ = [
    "gaussian_filter",
    "gaussian_filter1d",
    "gaussian_laplace",
    "gaussian_gradient_magnitude",
    "morlet_transform",
    "cwt",
    "icwt",
    "superlet",
    "frequency_to_scale",
    "scale_to_frequency",
    "apply_plan",
    "get_workers",
    "set_workers",
    "__version__",
]
__version__ = "0.1.0.dev0"


def __getattr__(name: str) -> object:
    """``sftwave.patch`` (callable: the zero-edit switch), ``sftwave.unpatch`` and
    ``sftwave.patched``, imported on first use so that ``import sftwave`` stays light."""
    if name in ("patch", "unpatch", "patched"):
        import sftwave.patch as switch  # ``from . import patch`` would ask this function again

        return switch if name == "patch" else getattr(switch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
