"""The one decorator of sftwave's CPU kernels: numba's ``njit``, cached on disk where it can be.

numba's ``cache=True`` raises ``RuntimeError: cannot cache function ...: no
locator available`` already when a module is imported, if neither the
package's ``__pycache__`` nor numba's user-wide cache directory is writable
(read-only installs and HOME, containers, HPC nodes).  Such a kernel is then
cached in a private folder of the user's own under the system's temporary
folder (:func:`private_cache_dir`: ``sftwave-<uid>/numba`` in
:func:`tempfile.gettempdir`, mode 0700, used only if it is a real folder owned
by the user that no one else may write, as the plan cache checks its folders),
so that a second process loads it instead of compiling it again.  Where that
folder cannot be used either, the kernel is compiled in every process.

``noalias=True`` tells LLVM that the kernel's array arguments do not overlap
(numba's own flag, which it sets only for the bodies of ``prange`` loops and
offers no decorator option for): the short loops over side-by-side lanes
then vectorise without run-time overlap checks.  The lane kernel is
measurably slower without it (docs/performance.md, *Threads*).  Only for
kernels whose callers guarantee that no two array arguments share memory.

The option reaches numba through its internals (``numba.core.cpu``,
``numba.core.options``, ``numba.core.compiler``), which a numba release may
change without notice.  They are probed when this module loads
(:data:`NOALIAS`): where the probe fails, :func:`kernel` drops the option,
which changes no result (the kernels' callers never pass overlapping arrays,
and without ``fastmath`` LLVM vectorises without reordering any sum), only
the speed.  The explicit vectors of ``.vectors`` are probed likewise.  The
environment variable :data:`DISABLE_ENV` (``SFTWAVE_DISABLE_NUMBA_INTERNALS=1``)
turns both off, as if the probes had failed; :func:`warn_fast_path_off` says
so, once per process, with a :class:`NumbaInternalsWarning`.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import stat
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

from numba import njit

from .. import _boundary
from ._env import DISABLE_ENV, env_disables_internals

__all__ = ["kernel", "source_index", "NOALIAS", "NOALIAS_REASON", "DISABLE_ENV",
           "internals_disabled", "NumbaInternalsWarning", "warn_fast_path_off",
           "private_cache_dir"]



def internals_disabled() -> bool:
    """Whether :data:`DISABLE_ENV` asked the engine to use no numba internals when it loaded.

    Read once, when the engine loads (its probes ran then; setting the
    variable later changes nothing in this process).
    """
    return _DISABLED


_DISABLED = env_disables_internals()


class NumbaInternalsWarning(RuntimeWarning):
    """The CPU engine runs without a fast path because numba's internals it uses are not there.

    Results stay correct (the plain kernels compute the same transform); only
    the speed differs.  Emitted once per process.
    """


def _probe_noalias() -> str | None:
    """Enable the ``noalias`` decorator option; None where it works, else why not."""
    if internals_disabled():
        return f"{DISABLE_ENV} is set"
    try:
        from numba.core.compiler import Flags
        from numba.core.cpu import CPUTargetOptions
        from numba.core.options import TargetOptions

        if not hasattr(Flags, "noalias"):
            return "numba's compiler flags have no 'noalias'"
        if not hasattr(CPUTargetOptions, "noalias"):
            # map a decorator option onto numba's existing compiler flag of that name
            CPUTargetOptions.noalias = TargetOptions.Mapping("noalias")
        flags = Flags()
        CPUTargetOptions.parse_as_flags(flags, {"noalias": True})
        if flags.noalias is not True:
            return "numba's 'noalias' option did not reach its compiler flag"
    except Exception as exc:  # any change of numba's internals: fall back, never break
        return f"numba's target options changed ({type(exc).__name__}: {exc})"
    return None


def _scipy_blas_present() -> bool:
    """Whether scipy's ``linalg/cython_blas`` extension module is installed, found without importing it.

    Looks for the file in scipy's package folder (``scipy`` itself is
    imported by then: ``import sftwave`` needs it; ``scipy.linalg`` is not).
    """
    scipy = sys.modules.get("scipy")
    folders = getattr(scipy, "__path__", None) or []
    return any(os.path.isfile(os.path.join(folder, "linalg", "cython_blas" + suffix))
               for folder in folders for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _load_numpy_support_lazily() -> str | None:
    """Import ``numba.np.arraymath`` with numba's BLAS check, but not ``scipy.linalg`` (~0.2 s).

    numba's CPU target imports ``numba.np.arraymath`` when it first sets up
    (the first kernel compiled or loaded from the cache), and that module
    calls ``numba.np.linalg.ensure_blas`` once, only to decide whether its
    ``np.dot``-based inner products may use BLAS: ``ensure_blas`` imports
    ``scipy.linalg.cython_blas``, and so the whole of ``scipy.linalg`` (about
    0.2 s of a one-call script; no sftwave kernel uses BLAS).  Here the module is
    imported once, with ``ensure_blas`` standing in as "scipy's BLAS
    extension is installed" (the file is there) plus numba's own check of
    its integer width where numba has one: the same answer, True, without
    the import.  ``ensure_blas`` is restored at once: every later caller (a
    kernel that uses BLAS, compiled by anyone) gets numba's own, and numba
    binds scipy's BLAS when such a kernel is built or runs, as it always does.

    None where it was done or there was nothing to do (the module already
    imported, or ``scipy.linalg`` already paid for); otherwise why not, and
    numba imports the module itself, with the import, unchanged.
    """
    if internals_disabled():
        return f"{DISABLE_ENV} is set"
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return None
    if not _scipy_blas_present():
        return "scipy's cython_blas was not found by its file"
    try:
        from numba.np import linalg as np_linalg

        original = np_linalg.ensure_blas
        width_check = getattr(np_linalg, "_check_lapack_int_width", None)

        def blas_installed() -> None:
            if width_check is not None:
                width_check()

        with _import_lock:
            np_linalg.ensure_blas = blas_installed
            try:
                from numba.np import arraymath
            finally:
                np_linalg.ensure_blas = original
        if getattr(arraymath, "_HAVE_BLAS", None) is not True:
            return "numba's BLAS check did not pass"
    except Exception as exc:  # numba's internals changed: numba's own import runs later
        return f"numba's numpy support changed ({type(exc).__name__}: {exc})"
    return None


_import_lock = threading.Lock()

#: Why ``numba.np.arraymath`` was left to numba (importing ``scipy.linalg``); None where it was not.
NUMPY_SUPPORT_REASON: str | None = _load_numpy_support_lazily()

#: Why the ``noalias`` option is off (None where it is on).
NOALIAS_REASON: str | None = _probe_noalias()
#: Whether kernels get ``noalias=True`` (else :func:`kernel` drops the option).
NOALIAS: bool = NOALIAS_REASON is None


def kernel(func: Callable | None = None, **options):
    """``numba.njit(cache=True, **options)``, or without the cache where numba cannot keep one.

    ``noalias`` is dropped where numba cannot take it (:data:`NOALIAS`).

    Examples
    --------
    >>> @kernel(nogil=True)
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    """
    if not NOALIAS:
        options.pop("noalias", None)

    def decorate(f: Callable):
        try:
            return njit(cache=True, **options)(f)
        except RuntimeError as exc:
            if "cannot cache" not in str(exc):
                raise
            dispatcher = njit(**options)(f)
            _cache_privately(dispatcher)
            return dispatcher

    return decorate if func is None else decorate(func)


def _owned_dir(path: Path) -> bool:
    """Create ``path`` (mode 0700) if missing; a real folder of ours that no one else may write?

    The plan cache's test of its folders (``sftwave.plans.cache``): not a
    symbolic link, owned by the effective user, not writable by its group or
    by others (on POSIX; elsewhere any real folder).
    """
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if os.name == "nt" or not hasattr(os, "geteuid"):
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_cache_dir() -> Path | None:
    """The user's private kernel cache folder under the temporary folder, or None if unusable.

    ``<tempfile.gettempdir()>/sftwave-<uid>/numba``, both folders created with
    mode 0700; None where either cannot be created, is a symbolic link, is
    not owned by the effective user or may be written by others.

    Examples
    --------
    >>> folder = private_cache_dir()
    >>> folder is None or folder.name == "numba"
    True
    """
    owner = str(os.geteuid()) if hasattr(os, "geteuid") else "user"
    base = Path(tempfile.gettempdir()) / f"sftwave-{owner}"
    if not (_owned_dir(base) and _owned_dir(base / "numba")):
        return None
    return base / "numba"


@functools.cache
def _private_cache_class(folder: str) -> type:
    """numba's ``FunctionCache`` with one locator: ``folder``, then numba's subfolder of the source."""
    from numba.core import caching

    # numba < 0.60 names it _UserProvidedCacheLocator
    user_locator = (getattr(caching, "UserProvidedCacheLocator", None)
                    or getattr(caching, "_UserProvidedCacheLocator"))  # noqa: B009

    class PrivateLocator(user_locator):  # type: ignore[misc, valid-type]
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func, py_file):
            # the source-file locators' own test (the file exists, the folder is writable),
            # without the user-provided locator's requirement of NUMBA_CACHE_DIR
            return super(user_locator, cls).from_function(py_func, py_file)

    class PrivateImpl(caching.CompileResultCacheImpl):
        _locator_classes = [PrivateLocator]

    class PrivateCache(caching.FunctionCache):
        _impl_class = PrivateImpl

    return PrivateCache


def _cache_privately(dispatcher) -> bool:
    """Give ``dispatcher`` a disk cache in :func:`private_cache_dir`; False (no cache) where it cannot.

    Through numba's cache internals (``numba.core.caching``); any change of
    those leaves the kernel uncached, as numba itself would.
    """
    folder = private_cache_dir()
    if folder is None:
        return False
    try:
        dispatcher._cache = _private_cache_class(str(folder))(dispatcher.py_func)
    except Exception:  # numba's cache internals changed: no cache, as numba itself would
        return False
    return True


_warned = False
_warn_lock = threading.Lock()


def warn_fast_path_off(reasons: list[str]) -> None:
    """Warn, once per process, that the engine's fast path is off and why (nothing if ``reasons`` is empty)."""
    global _warned
    if not reasons:
        return
    with _warn_lock:
        if _warned:
            return
        _warned = True
    import numba

    warnings.warn(
        "sftwave's numba engine is off its fast path (the same transforms up to rounding, "
        f"slower): {'; '.join(reasons)} (numba {numba.__version__})",
        NumbaInternalsWarning, stacklevel=3)


#: The boundary rule (:func:`sftwave.engines._boundary.source_index`), inlined into the CPU kernels.
source_index = kernel(inline="always")(_boundary.source_index)
