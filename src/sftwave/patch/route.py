"""One routed function: where it lives in another library, what replaces it, and when.

A :class:`Route` names an anchor library's function (``pycwt.cwt``,
``scipy.ndimage.gaussian_filter``, ...), the sftwave function that takes its
calls, and a predicate that says, without computing anything, whether a given
call lies inside sftwave's documented scope.  The switch (:func:`sftwave.patch`)
replaces the function in every module listed in :attr:`Route.where` by a
wrapper that asks :attr:`Route.accepts` and calls either the replacement or the
original, unchanged.

The routes of each anchor library live in ``sftwave.patch.routes.<target>``
(``scipy``, ``skimage``, ``mne``, ``mne_connectivity``, ``pycwt``), each module
defining ``routes() -> list[Route]``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .work import GAUSSIAN_CROSSOVER_S


def load(spec: str) -> Callable[..., Any]:
    """The object a ``"package.module:attribute"`` string names (the attribute may be dotted)."""
    module, _, attribute = spec.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Route:
    """An anchor's function and the sftwave function that takes its in-scope calls.

    Attributes
    ----------
    target : str
        The anchor library the route belongs to, as ``sftwave.patch`` names it:
        ``'scipy'``, ``'skimage'``, ``'mne'``, ``'mne_connectivity'`` or ``'pycwt'``.
    name : str
        The function's attribute name (``'cwt'``; ``'EpochsTFR._compute_tfr'`` is not
        allowed: routes replace module attributes only).
    where : tuple of str
        Every module whose attribute ``name`` is replaced, the defining module first
        (``('pycwt.wavelet', 'pycwt')``): callers that imported the name from any of
        them reach the wrapper.  A module missing from the installed version is skipped.
    replacement : str
        ``"module:attribute"`` of the sftwave function, imported on first call.  It takes
        exactly the original's arguments and returns what the original returns.
    accepts : str
        ``"module:attribute"`` of a predicate ``accepts(*args, **kwargs) -> bool`` that is
        true when the call lies inside sftwave's scope.  It must be cheap (argument checks
        only, typically building the replacement's request object), never compute, never
        raise for a call the original would take, and return ``False`` for anything sftwave
        does not cover (another method or mode, a dtype, a GPU or dask array, an unknown
        keyword): those calls go to the original function unchanged.
    work : str or None
        ``"module:attribute"`` of ``work(a) -> float``: the anchor's estimated seconds for
        the call, from its arguments ``a`` bound to the anchor's signature (a dict,
        defaults applied); see :mod:`sftwave.patch.work`.  A call estimated below the
        route's ``crossover`` (or below the start-up while sftwave's engine is not loaded)
        stays with the anchor, which is faster there.  None: the replacement compiles
        nothing and is as fast as the anchor at every size, so every in-scope call is routed.
    crossover : float
        The anchor's time, in seconds, from which sftwave's warm call is the faster.
    """

    target: str
    name: str
    where: tuple[str, ...]
    replacement: str
    accepts: str
    work: str | None = None
    crossover: float = GAUSSIAN_CROSSOVER_S
