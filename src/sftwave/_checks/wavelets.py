"""The wavelet family's checks: the type its transforms return.

(The wavelet itself is parsed once by :func:`sftwave.plans.families.wavelet_family`, which
lives with the family objects in the plans layer: a family carries its plan selection.)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Array"]


@runtime_checkable
class Array(Protocol):
    """An array of the input's namespace: a numpy ``ndarray`` for numpy input, a torch tensor
    or CuPy array on the array-API engine.  What :func:`sftwave.cwt`,
    :func:`sftwave.morlet_transform` and :func:`sftwave.icwt` return.

    Examples
    --------
    >>> import numpy as np
    >>> isinstance(np.zeros(3), Array)
    True
    """

    @property
    def shape(self) -> Any: ...

    @property
    def dtype(self) -> Any: ...
