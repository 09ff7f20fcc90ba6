"""Route calls of scipy, scikit-image, MNE, mne-connectivity and pycwt to sftwave, unedited.

The zero-edit switch: :func:`patch` replaces functions of those libraries, in their
own modules, by wrappers that send each call inside sftwave's documented scope to
sftwave's drop-in and every other call to the original function, unchanged.  Code
that cannot be edited (a pipeline calling ``scipy.ndimage.gaussian_filter`` from deep
inside another library) then runs on sftwave.  :func:`unpatch` puts the originals
back (the very objects), :func:`patched` does both around a ``with`` block, and
``python -m sftwave.patch script.py`` runs a script with the switch on.

The module itself is callable: ``sftwave.patch("scipy")`` is :func:`patch`.

Each routed function announces itself once, at its first call that sftwave computes,
by a :class:`RoutedWarning` (``warnings.simplefilter("ignore", RoutedWarning)``
silences it).  What each library's routes cover is listed in the user guide's page on
the switch.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .._checks.patch import TARGETS, check_targets
from .route import Route, load
from .work import pays_start_up

__all__ = ["patch", "unpatch", "patched", "RoutedWarning"]


class RoutedWarning(UserWarning):
    """The warning by which the switch announces a routed function, once per function.

    Emitted at the first call of a patched function that sftwave computes (not at
    patch time: a function never called in scope is never announced), and when
    :func:`patch` without targets skips a library for which this sftwave has no routes.

    Parameters
    ----------
    *args : object
        The message, as for any warning.

    See Also
    --------
    patch : The switch that emits it.

    Examples
    --------
    >>> import warnings
    >>> from sftwave.patch import RoutedWarning
    >>> warnings.simplefilter("ignore", RoutedWarning)   # silence the announcements
    >>> issubclass(RoutedWarning, UserWarning)
    True
    """


@dataclass
class _Installed:
    """A module attribute replaced by a wrapper, and the original it held."""

    route: Route
    module: types.ModuleType
    original: Any
    wrapper: Any


_LOCK = threading.RLock()
_ACTIVE: dict[Route, Callable[..., Any]] = {}  # route -> its loaded predicate
_INSTALLED: dict[tuple[str, str], _Installed] = {}  # (module, attribute) -> record
_WATCHED: dict[str, list[Route]] = {}  # module not yet imported -> routes
_ANNOUNCED: set[Route] = set()
_REPLACEMENTS: dict[str, Callable[..., Any]] = {}
_WORK: dict[str, Callable[[dict[str, Any]], float]] = {}
_EVERY_SIZE: set[Route] = set()  # routes whose in-scope calls go to sftwave at every size
#: Calls each route has sent to sftwave in this process (the anchors' test harness reads it).
_CALLS: collections.Counter[Route] = collections.Counter()


def _replacement(route: Route) -> Callable[..., Any]:
    """The route's sftwave function, imported on its first routed call."""
    func = _REPLACEMENTS.get(route.replacement)
    if func is None:
        func = _REPLACEMENTS[route.replacement] = load(route.replacement)
    return func


def _announce(route: Route) -> None:
    with _LOCK:
        if route in _ANNOUNCED:
            return
        _ANNOUNCED.add(route)
    warnings.warn(
        f"{route.where[0]}.{route.name} is computed by sftwave ({route.replacement}) "
        "where the call is in sftwave's scope; sftwave.unpatch() restores it",
        RoutedWarning,
        stacklevel=3,
    )


def _work(route: Route) -> Callable[[dict[str, Any]], float]:
    """The route's estimate of the anchor's seconds for a call, imported on first use."""
    func = _WORK.get(route.work)  # type: ignore[arg-type]
    if func is None:
        func = _WORK[route.work] = load(route.work)  # type: ignore[index,arg-type]
    return func


def _estimate(route: Route, signature: inspect.Signature, args: tuple, kwargs: dict) -> float | None:
    """The anchor's estimated seconds for this call (``sftwave.patch.work``); None where the route
    routes every size (no estimate, ``every_size``, or an estimate that failed)."""
    if route.work is None or route in _EVERY_SIZE:
        return None
    bound = signature.bind(*args, **kwargs)  # a call the anchor cannot bind: its own error
    bound.apply_defaults()
    try:
        return float(_work(route)(bound.arguments))
    except Exception:  # no estimate: the predicate alone decides, as with every_size
        return None


def _wrapper(route: Route, original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` with its in-scope calls sent to the route's replacement."""
    signature: list[inspect.Signature] = []

    def _inside(args: tuple, kwargs: dict) -> bool:
        accepts = _ACTIVE.get(route)
        if accepts is None:
            return False
        if not signature:
            signature.append(inspect.signature(original))
        seconds = _estimate(route, signature[0], args, kwargs)
        if seconds is not None and (seconds < route.crossover or not pays_start_up(seconds)):
            return False  # the anchor's call is the shorter (the predicate's imports spared)
        return bool(accepts(*args, **kwargs))

    @functools.wraps(original)
    def routed(*args: Any, **kwargs: Any) -> Any:
        try:
            inside = _inside(args, kwargs)
        except Exception:  # a predicate's failure is never the user's: the original runs
            inside = False
        if not inside:
            return original(*args, **kwargs)
        _CALLS[route] += 1
        _announce(route)
        return _replacement(route)(*args, **kwargs)

    routed.__sftwave_route__ = route  # type: ignore[attr-defined]
    routed.__sftwave_original__ = original  # type: ignore[attr-defined]
    return routed


def _install(route: Route, module: types.ModuleType) -> None:
    """Replace ``route.name`` in ``module`` (a missing attribute is skipped); under the lock."""
    key = (module.__name__, route.name)
    if key in _INSTALLED:
        return
    if route.name not in vars(module) and route.where[0] not in sys.modules:
        # a lazy package (scikit-image's ``filters``): asking it for the name would import
        # the defining module, and with it every routed module, now.  It resolves the name
        # through the defining module, which is routed when the program imports it.
        return
    if not hasattr(module, route.name):
        return
    current = getattr(module, route.name)
    original = getattr(current, "__sftwave_original__", current)  # copied from a patched module
    if getattr(current, "__sftwave_route__", None) == route:
        wrapper = current
    else:
        same = [r.wrapper for r in _INSTALLED.values() if r.route == route and r.original is original]
        wrapper = same[0] if same else _wrapper(route, original)
        setattr(module, route.name, wrapper)
    _INSTALLED[key] = _Installed(route, module, original, wrapper)


def _restore(route: Route) -> list[str]:
    """Deactivate ``route``: the originals back where it was installed; under the lock."""
    _ACTIVE.pop(route, None)
    _EVERY_SIZE.discard(route)
    _ANNOUNCED.discard(route)
    for names in _WATCHED.values():
        while route in names:
            names.remove(route)
    restored = []
    for key, rec in list(_INSTALLED.items()):
        if rec.route != route:
            continue
        del _INSTALLED[key]
        if getattr(rec.module, route.name, None) is rec.wrapper:  # not replaced since by another
            setattr(rec.module, route.name, rec.original)
            restored.append(".".join(key))
    _unwatch_if_idle()
    return restored


# ----------------------------------------------------------------------------- deferred routes
# ``patch()`` without targets routes every installed library without importing the ones the
# program has not imported (some take seconds): their modules are watched, and routed when an
# import of them completes.


class _AfterExec(importlib.abc.Loader):
    """A module's own loader, followed by the routing of the module once it has run."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader  # the module sees its own loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        _imported(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Watcher(importlib.abc.MetaPathFinder):
    """Finds nothing itself: gives the watched modules' specs a loader that routes them."""

    def find_spec(
        self, fullname: str, path: Any, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not _WATCHED.get(fullname):
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _AfterExec(spec.loader)
                return spec
        return None


_WATCHER = _Watcher()


def _imported(module: types.ModuleType) -> None:
    try:
        with _LOCK:
            for route in _WATCHED.pop(module.__name__, []):
                if route in _ACTIVE:
                    _install(route, module)
            _unwatch_if_idle()
    except Exception as exc:  # the user's import goes on; the function keeps its original
        warnings.warn(
            f"sftwave.patch could not route {module.__name__}: {exc!r}", RoutedWarning, stacklevel=2
        )


def _unwatch_if_idle() -> None:
    for name in [n for n, routes in _WATCHED.items() if not routes]:
        del _WATCHED[name]
    if not _WATCHED and _WATCHER in sys.meta_path:
        sys.meta_path.remove(_WATCHER)


def _watch(route: Route, module: str) -> None:
    _WATCHED.setdefault(module, []).append(route)
    if _WATCHER not in sys.meta_path:
        sys.meta_path.insert(0, _WATCHER)


# ----------------------------------------------------------------------------- targets


def _installed(target: str) -> bool:
    return importlib.util.find_spec(TARGETS[target]) is not None


def _routes(target: str, explicit: bool) -> list[Route]:
    """``sftwave.patch.routes.<target>.routes()``: an ``ImportError`` naming the target where
    this sftwave has none and it was asked for by name, else a :class:`RoutedWarning`."""
    name = f"{__name__}.routes.{target}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        message = f"sftwave.patch: this sftwave has no routes for {target!r} ({name} is missing)"
        if explicit:
            raise ImportError(message, name=name) from None
        warnings.warn(message + "; its functions are not routed", RoutedWarning, stacklevel=3)
        return []
    return list(module.routes())


def _activate(routes: list[Route], eager: bool, every_size: bool) -> None:
    """Route each of ``routes`` not already routed: now in the modules imported (where
    ``eager``, each route's defining module is imported first), at import for the others.

    Only the defining module is imported: the others of ``route.where`` re-export the name
    and may be heavy and unused (``mne.decoding`` imports scikit-learn); they are routed
    when the program imports them."""
    if eager:
        for route in routes:
            with contextlib.suppress(ModuleNotFoundError):  # not in this version
                importlib.import_module(route.where[0])
    with _LOCK:
        for route in routes:
            if every_size:
                _EVERY_SIZE.add(route)
            else:
                _EVERY_SIZE.discard(route)
            if route in _ACTIVE:
                continue
            _ACTIVE[route] = load(route.accepts)
            for name in route.where:
                if name in sys.modules:
                    _install(route, sys.modules[name])
                else:
                    _watch(route, name)


def _routed_names(targets: tuple[str, ...]) -> tuple[str, ...]:
    with _LOCK:
        return tuple(sorted(".".join(key) for key, rec in _INSTALLED.items() if rec.route.target in targets))


def patch(*targets: str, every_size: bool = False, lazy: bool = False) -> tuple[str, ...]:
    """Route the in-scope calls of other libraries' functions to sftwave.

    Each routed function is replaced, in the modules that define and export it, by a
    wrapper with the same name, docstring and signature: a call that sftwave covers
    (its documented scope: the arguments, modes and dtypes its drop-in takes, NumPy
    arrays) and that is large enough for sftwave to be the faster is computed by
    sftwave's drop-in; any other call (another method, an argument or a dtype sftwave
    does not cover, a GPU or dask array, a small input) goes to the original function
    unchanged.  Patching twice is patching once; :func:`unpatch` undoes it.

    "Large enough" is decided from the call's arguments alone, by an estimate of the
    anchor's time (:mod:`sftwave.patch.work`): at least the time at which sftwave's
    warm call is as fast (about 2 ms for the Gaussian family, 5 ms for the wavelet
    transforms).  While sftwave's compiled engine is not yet loaded in the process,
    such calls stay with the anchor (unexamined) until their estimated time adds up to
    sftwave's start-up (about a second: numba's import and the kernels' loading), so that a
    short script is not slowed by a start-up it cannot win back.  The decisions
    depend on the program's calls only, never on a clock: the same program routes
    the same calls on every machine.

    Parameters
    ----------
    *targets : str
        The libraries to route: ``'scipy'`` (``scipy.ndimage``'s Gaussian filters),
        ``'skimage'``, ``'mne'``, ``'mne_connectivity'``, ``'pycwt'``.  Named ones are
        imported now (unless ``lazy``); a named library that is not installed, or for
        which this sftwave has no routes, raises ``ImportError``.  None: every installed library with
        routes, each routed when the program imports it (those already imported, now).
    every_size : bool, optional
        True: route every in-scope call, however small (sftwave's numbers everywhere,
        for a pipeline validated on them, or a test of the routes).  False (default):
        only the calls sftwave is expected to finish first.  A later call of
        :func:`patch` for the same targets sets it again.
    lazy : bool, optional
        True: the named libraries too are routed only as the program imports them, and
        not imported now (``python -m sftwave.patch`` patches so, before the script's
        first line: a library the script never imports costs it nothing).

    Returns
    -------
    tuple of str
        The functions routed so far for those targets, as ``'module.name'`` (for the
        libraries not yet imported, none until they are).

    Raises
    ------
    ValueError
        For a target the switch does not know.

    See Also
    --------
    unpatch : The originals back.
    patched : The switch around a ``with`` block.
    RoutedWarning : How each routed function announces itself.

    Examples
    --------
    >>> import warnings, numpy as np, scipy.ndimage
    >>> import sftwave
    >>> routed = sftwave.patch("scipy")
    >>> "scipy.ndimage.gaussian_filter" in routed
    True
    >>> y = scipy.ndimage.gaussian_filter(np.ones((8, 8)), 2.0)   # small: scipy's own call
    >>> _ = sftwave.patch("scipy", every_size=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", sftwave.patch.RoutedWarning)
    ...     y = scipy.ndimage.gaussian_filter(np.ones((8, 8)), 2.0)   # computed by sftwave
    >>> bool(np.allclose(y, 1.0))
    True
    >>> restored = sftwave.unpatch()
    """
    names = check_targets(targets)
    explicit = bool(names)
    chosen = names if explicit else tuple(t for t in TARGETS if _installed(t))
    for target in chosen:
        if explicit and not _installed(target):
            raise ModuleNotFoundError(
                f"sftwave.patch: {TARGETS[target]!r} is not installed (target {target!r})",
                name=TARGETS[target],
            )
    routes: list[Route] = []
    for target in chosen:
        routes += _routes(target, explicit)
    _activate(routes, eager=explicit and not lazy, every_size=bool(every_size))
    return _routed_names(chosen)


def unpatch(*targets: str) -> tuple[str, ...]:
    """Put back the original functions that :func:`patch` replaced.

    Every module attribute the switch replaced holds its original object again
    (the same object: ``is`` holds), and libraries not yet imported are no longer
    watched.  An attribute replaced since by someone else is left as it is.

    Parameters
    ----------
    *targets : str
        The libraries to restore (the names of :func:`patch`); none: all.

    Returns
    -------
    tuple of str
        The attributes restored, as ``'module.name'``.

    Raises
    ------
    ValueError
        For a target the switch does not know.

    See Also
    --------
    patch : The switch.
    patched : The switch around a ``with`` block.

    Examples
    --------
    >>> import scipy.ndimage, sftwave
    >>> original = scipy.ndimage.gaussian_filter
    >>> _ = sftwave.patch("scipy")
    >>> scipy.ndimage.gaussian_filter is original
    False
    >>> "scipy.ndimage.gaussian_filter" in sftwave.unpatch()
    True
    >>> scipy.ndimage.gaussian_filter is original
    True
    """
    names = check_targets(targets) or tuple(TARGETS)
    restored: list[str] = []
    with _LOCK:
        for route in [r for r in _ACTIVE if r.target in names]:
            restored += _restore(route)
    return tuple(sorted(restored))


@contextlib.contextmanager
def patched(*targets: str, every_size: bool = False) -> Iterator[tuple[str, ...]]:
    """The switch on for a ``with`` block: :func:`patch` on entry, its undoing on exit.

    On exit, even by an exception, the routes this block turned on are undone; those
    already on when it began (an outer block, a :func:`patch` call) stay on, with the
    ``every_size`` they had, so blocks nest.

    Parameters
    ----------
    *targets : str
        The libraries to route, as for :func:`patch` (none: every installed one).
    every_size : bool, optional
        As for :func:`patch`: True routes the in-scope calls of every size.

    Returns
    -------
    context manager
        Gives, on entry, the functions routed (:func:`patch`'s return).

    Raises
    ------
    ValueError
        For a target the switch does not know.

    See Also
    --------
    patch : The switch, left on.
    unpatch : The originals back.

    Examples
    --------
    >>> import warnings, numpy as np, scipy.ndimage, sftwave
    >>> original = scipy.ndimage.gaussian_laplace
    >>> with sftwave.patched("scipy", every_size=True), warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", sftwave.patch.RoutedWarning)
    ...     lap = scipy.ndimage.gaussian_laplace(np.ones((16, 16)), 3.0)
    >>> bool(np.allclose(lap, 0.0)), scipy.ndimage.gaussian_laplace is original
    (True, True)
    """
    check_targets(targets)
    with _LOCK:
        before = set(_ACTIVE)
        every_before = set(_EVERY_SIZE)
        routed = patch(*targets, every_size=every_size)
        mine = [route for route in _ACTIVE if route not in before]
    try:
        yield routed
    finally:
        with _LOCK:
            for route in mine:
                _restore(route)
            for route in before & set(_ACTIVE):
                if route in every_before:
                    _EVERY_SIZE.add(route)
                else:
                    _EVERY_SIZE.discard(route)


class _CallableModule(types.ModuleType):
    """``sftwave.patch``, the module, called: :func:`patch`."""

    def __call__(self, *targets: str, every_size: bool = False) -> tuple[str, ...]:
        return patch(*targets, every_size=every_size)


sys.modules[__name__].__class__ = _CallableModule
