"""The CUDA engine (``engine='cuda'``): the paper's GPU kernel (Algorithms 2-3), numba-cuda.

``filters``
    ``filter1d`` (an SFT plan along one axis by the device sliding sum) and
    the bare ``sliding_sum``; numpy arrays (copied to the device and back) or
    device arrays (numba, torch CUDA tensors, CuPy).
``kernels``
    The device kernels, built on first use (``numba.cuda`` is imported
    inside the functions, never at import time).

Everything but the SFT plans (the FIR plans of the smallest scales, the
loops over axes and scales) is the array-API engine's code, which this
engine extends.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ...plans.fit import SFTPlan
from ..array_api import OPERATIONS as _XP_OPERATIONS
from ..array_api import ArrayAPIEngine
from . import filters

__all__ = ["ENGINE", "CudaEngine", "OPERATIONS"]

#: The array-API engine's operations (the device arrays' own code), for
#: :func:`sftwave.engines.operation`.
OPERATIONS: dict[str, tuple[str, str]] = {
    name: (("sftwave.engines.array_api" + module) if module.startswith(".") else module, attr)
    for name, (module, attr) in _XP_OPERATIONS.items()
}


class CudaEngine(ArrayAPIEngine):
    """The array-API engine with its SFT plans run by the numba-cuda kernel."""

    name = "cuda"

    def available(self) -> bool:
        """Whether a GPU (or the simulator) can run the kernels here."""
        return filters.available()

    def asarray(self, x: Any, name: str) -> Any:
        """numba device arrays as they are; anything else (torch, CuPy too) as the 'xp' engine takes it."""
        return x if _numba_device_array(x) else super().asarray(x, name)

    def is_complex(self, x: Any) -> bool:
        return np.dtype(x.dtype).kind == "c" if _numba_device_array(x) else super().is_complex(x)

    def all_finite(self, x: Any) -> bool:
        if _numba_device_array(x):
            return filters.all_finite(x)
        return super().all_finite(x)

    def _filter1d(self, x: Any, plan: SFTPlan, axis: int, mode: str, cval) -> Any:
        # a torch tensor in host memory goes through numpy and comes back as one,
        # so that torch in gives torch out on every engine
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(x, torch.Tensor) and x.device.type == "cpu":
            return torch.from_numpy(filters.filter1d(x.detach().numpy(), plan, axis=axis,
                                                     mode=mode, cval=cval))
        return filters.filter1d(x, plan, axis=axis, mode=mode, cval=cval)


def _numba_device_array(x: Any) -> bool:
    """A device array that is not an array-API array (numba's own): the kernels take it as is."""
    return filters.is_device(x) and filters.library(x) not in ("torch", "cupy")


ENGINE = CudaEngine()
