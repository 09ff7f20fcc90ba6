"""sftwave: Gaussian smoothing and Morlet wavelet transforms by the sliding Fourier transform.

The Gaussian filters are drop-in replacements for their scipy.ndimage
counterparts, and the Morlet transform gives scalograms, all with a cost per
sample that does not depend on the width:

>>> import numpy as np, sftwave
>>> y = sftwave.gaussian_filter1d(np.ones(10), 3.0)
>>> bool(np.allclose(y, 1.0))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names below, each imported on first use (``__getattr__``)
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

# threadpoolctl lists and limits sftwave's pool: registered now if threadpoolctl is
# imported, else when it is (neither it nor numpy imported here)
from . import _threadpoolctl_hook  # noqa: E402

_threadpoolctl_hook.watch()

#: Each public name and the module that defines it.  ``import sftwave`` imports none of
#: them: a program that uses only the switch (``python -m sftwave.patch``) or one family
#: loads only what it calls.
_HOMES = {
    "apply_plan": "apply",
    "icwt": "inverse",
    "gaussian_filter": "ndimage",
    "gaussian_filter1d": "ndimage",
    "gaussian_gradient_magnitude": "ndimage",
    "gaussian_laplace": "ndimage",
    "superlet": "superlets",
    "cwt": "wavelets",
    "frequency_to_scale": "wavelets",
    "morlet_transform": "wavelets",
    "scale_to_frequency": "wavelets",
    "get_workers": "workers",
    "set_workers": "workers",
}


def __getattr__(name: str) -> object:
    """The public functions, each imported from its module on first use; ``sftwave.patch``
    (callable: the zero-edit switch), ``sftwave.unpatch``, ``sftwave.patched`` and the
    subpackages (``sftwave.feature``, ...) likewise."""
    import importlib
    import importlib.util

    if name in _HOMES:
        value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    if name in ("patch", "unpatch", "patched"):
        switch = importlib.import_module(f"{__name__}.patch")  # ``from . import patch`` would ask here again
        return switch if name == "patch" else getattr(switch, name)
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")  # a subpackage: ``sftwave.feature``
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"patch", "unpatch", "patched"})
