"""What the Gaussian filters and the features return, as a type: :class:`Array`.

Examples
--------
>>> import numpy as np
>>> isinstance(np.zeros(2), Array)
True
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Array"]


@runtime_checkable
class Array(Protocol):
    """An array: a NumPy array on the CPU engine, the input's array type (a torch tensor, a
    CuPy array, a numba-cuda device array) on the others; what every filter returns.

    Examples
    --------
    >>> import numpy as np
    >>> isinstance([1.0], Array)
    False
    """

    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def dtype(self) -> Any: ...
