"""The one decorator of sftwave's CPU kernels: numba's ``njit``, cached on disk where it can be.

numba's ``cache=True`` raises ``RuntimeError: cannot cache function ...: no
locator available`` already when a module is imported, if neither the
package's ``__pycache__`` nor numba's user-wide cache directory is writable
(read-only installs and HOME, containers, HPC nodes).  Caching only saves
compile time, so such a kernel is compiled in every process instead.

``noalias=True`` tells LLVM that the kernel's array arguments do not overlap
(numba's own flag, which it sets only for the bodies of ``prange`` loops and
offers no decorator option for): the short loops over side-by-side lanes
then vectorise without run-time overlap checks.  The lane kernel ran 1.45
times longer without it (measured, EEG workload, one thread).  Only for
kernels whose callers guarantee that no two array arguments share memory.
"""

from __future__ import annotations

from collections.abc import Callable

from numba import njit
from numba.core.cpu import CPUTargetOptions
from numba.core.options import TargetOptions

from .. import _boundary

__all__ = ["kernel", "source_index"]

if not hasattr(CPUTargetOptions, "noalias"):
    # map a decorator option onto numba's existing compiler flag of that name
    CPUTargetOptions.noalias = TargetOptions.Mapping("noalias")


def kernel(func: Callable | None = None, **options):
    """``numba.njit(cache=True, **options)``, or without the cache where numba cannot keep one.

    Examples
    --------
    >>> @kernel(nogil=True)
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    """

    def decorate(f: Callable):
        try:
            return njit(cache=True, **options)(f)
        except RuntimeError as exc:
            if "cannot cache" not in str(exc):
                raise
            return njit(**options)(f)

    return decorate if func is None else decorate(func)


#: The boundary rule (:func:`sftwave.engines._boundary.source_index`), inlined into the CPU kernels.
source_index = kernel(inline="always")(_boundary.source_index)
