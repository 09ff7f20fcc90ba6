"""Engines: who computes a plan, behind one protocol, chosen by the input's array type or ``engine=``.

``'numba'`` (``sftwave.engines.numba``)
    The CPU engine: numpy in, numpy out, every bank method, SFT and ASFT,
    ``output=``, ``dtype=``, ``out=``, ``workers=``.  The default for numpy
    arrays and anything that is not an array-API array (lists, scalars).
``'xp'`` (``sftwave.engines.array_api``)
    Array-API code: the SFT by the kernel integral on the sliding sum of the
    paper's Algorithm 1, on numpy, torch tensors on any device and CuPy arrays;
    the result is the input's array type on its device, differentiable with
    torch's autograd.  The default for torch tensors and CuPy arrays.
``'cuda'`` (``sftwave.engines.cuda``)
    The numba-cuda kernel of the paper's Algorithms 2-3, with the contract of
    ``'xp'``.

``'auto'`` (or None) picks ``'numba'`` for numpy arrays and ``'xp'`` for other
array types.  No environment variable switches engines.

The protocol.  An engine is an object with

* ``asarray(x, name)``, ``is_complex(x)``, ``is_single(x)``: its array input;
* ``all_finite(x)``: whether ``x`` holds no NaN or infinity (the public
  functions then take ``sftwave.engines.nonfinite``'s path, which runs
  ``filter`` and ``scalogram`` on finite arrays only; on the CPU engine the
  same read gives the magnitude, and values far from one are filtered scaled
  by a power of two);
* ``fir_taps_per_order()``: its cost figure for the plan selectors (None:
  the bank wherever a plan meets the target);
* ``bank_method(name, lanes)`` and ``transform(name, ...)``: ``'auto'`` resolved;
* ``filter(x, steps, cval=, output=, bank_method=)``: the separable filter,
  ``steps`` a list of ``(axis, plan, mode)`` applied in turn;
* ``scalogram(x, plans, axis=, mode=, cval=, kind=, decim=, dtype=, out=,
  workers=, bank_method=, tol=)``: one output row per plan along ``axis``;
  where ``Capabilities.epoch_sums``, also the kinds ``'sum_power'``,
  ``'sum_unit'`` and ``'sum_power_unit'``, which add ``|y|^2`` and ``y / |y|``
  over ``x``'s first axis (the epochs; :mod:`sftwave.mne`'s averaged outputs),
  and ``magnitude(x)`` (all finite, and the largest magnitude);
* ``operation(name)``: every other computation it offers (the features'
  eigenvalues and peaks, coherence, connectivity, synchrosqueezing, streams),
  looked up by name in the engine's ``OPERATIONS`` table and imported on first
  use.  Public modules reach an engine's kernels only this way, through
  :func:`operation`; an engine that lacks one raises
  :class:`UnsupportedOperation` naming the engine and the operation.

What each engine can do is its :class:`Capabilities` entry in
:data:`CAPABILITIES`, checked in one place (:func:`check_request`) before any
work, so that the public functions validate the same way for every engine.
A new engine is a module with an ``ENGINE`` object and a :func:`register` call;
the conformance test (``tests/suites/test_conformance.py``) then covers it.

Examples
--------
>>> import numpy as np
>>> resolve_engine(None, np.zeros(3))
'numba'
>>> resolve_engine("xp", np.zeros(3))
'xp'
>>> CAPABILITIES["xp"].transforms
('auto', 'sft')
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .._checks import TRANSFORMS, check_choice
from .._checks.ndimage import Array

__all__ = [
    "Capabilities",
    "Engine",
    "CAPABILITIES",
    "available",
    "BANK_METHODS",
    "names",
    "operations",
    "gaussian_figures",
    "unregister",
    "check_request",
    "get",
    "operation",
    "UnsupportedOperation",
    "register",
    "resolve_engine",
]

# PR01: a protocol is never constructed; its signature is typing's (*args, **kwargs)
class Engine(Protocol):  # numpydoc ignore=PR01
    """What every engine object offers (the protocol above, as a type).

    ``magnitude`` is called only where the engine's capabilities have
    ``epoch_sums``, and ``fft_point_cost``, ``fir_taps_per_order_for`` and
    ``design_taps_per_order_for`` only where the engine has them (absent: no
    FFT path, one cost figure for every dtype, no FIR designed to the bank's
    accuracy); every other computation is an :func:`operation`.

    See Also
    --------
    get : The engine registered under a name.
    Capabilities : What an engine declares it can do.

    Examples
    --------
    >>> isinstance(get("numba").filter, object)
    True
    """

    name: str

    def asarray(self, x: Any, name: str) -> Array: ...

    def is_complex(self, x: Any) -> bool: ...

    def is_single(self, x: Any) -> bool: ...

    def all_finite(self, x: Any) -> bool: ...

    def fir_taps_per_order(self) -> float | None: ...

    def fft_point_cost(self) -> float | None: ...

    def fir_taps_per_order_for(self, dtype: Any, output: Any, order: int, ndim: int = 2, *,
                               scipy_arithmetic: bool = False) -> float: ...

    def design_taps_per_order_for(self, dtype: Any, output: Any, order: int, ndim: int = 2, *,
                                  scipy_arithmetic: bool = False) -> float | None: ...

    def bank_method(self, bank_method: str, lanes: int) -> str: ...

    def transform(self, transform: str, *, single: bool, complex_input: bool, tol: float,
                  bank_method: str) -> str: ...

    def filter(self, x: Any, steps: Any, *, cval: Any, output: Any = None,
               bank_method: str = "auto") -> Array: ...

    def scalogram(self, x: Any, plans: Any, **kwargs: Any) -> Array: ...

    def magnitude(self, x: Any) -> tuple[bool, float]: ...


#: Bank methods of the CPU engine (see ``sftwave.engines.numba.bank``).
BANK_METHODS = ("auto", "iir1", "iir1-2k", "iir2", "integral", "window")

#: Top-level modules of array types that 'auto' sends to the 'xp' engine.
_XP_MODULES = frozenset({"torch", "cupy", "jax", "jaxlib"})


@dataclass(frozen=True)
class Capabilities:
    """What one engine does, and what it needs installed.

    Parameters
    ----------
    module : str
        The module holding its ``ENGINE`` object (imported on first use).
    transforms : tuple of str
        ``transform`` values it accepts.
    bank_methods : tuple of str
        ``bank_method`` values it accepts.
    output : bool
        Whether it takes the Gaussian filters' ``output`` (an array or dtype).
    dtype, out, workers : bool
        Whether it takes the scalogram's ``dtype=`` and ``out=``, and ``workers=``.
    wide : bool
        Whether it runs :class:`~sftwave.plans.WidePlan` (Gaussians far wider
        than the signal, by their exact limit).
    epoch_sums : bool
        Whether its scalogram takes the kinds that sum over the epochs
        (``'sum_power'``, ``'sum_unit'``, ``'sum_power_unit'``) and it has
        ``magnitude``; elsewhere :mod:`sftwave.mne` adds the epochs' complex
        coefficients itself.
    requires : tuple of (module, package, extra)
        Modules it imports, and the package and extra that provide each.

    See Also
    --------
    register : Register an engine with them.
    check_request : Check a call against them.

    Examples
    --------
    >>> CAPABILITIES["numba"].workers, CAPABILITIES["xp"].workers
    (True, False)
    """

    module: str
    transforms: tuple[str, ...]
    bank_methods: tuple[str, ...]
    output: bool
    dtype: bool
    out: bool
    workers: bool
    wide: bool = False
    requires: tuple[tuple[str, str, str], ...] = ()
    epoch_sums: bool = False


#: The registry: every engine by name.
CAPABILITIES: dict[str, Capabilities] = {
    "numba": Capabilities("sftwave.engines.numba", TRANSFORMS, BANK_METHODS, output=True,
                          dtype=True, out=True, workers=True, wide=True,
                          requires=(("numba", "numba", "the core dependencies"),),
                          epoch_sums=True),
    "xp": Capabilities("sftwave.engines.array_api", ("auto", "sft"), ("auto", "integral"),
                       output=False, dtype=False, out=False, workers=False,
                       requires=(("array_api_compat", "array-api-compat", "xp"),)),
    "cuda": Capabilities("sftwave.engines.cuda", ("auto", "sft"), ("auto", "integral"),
                         output=False, dtype=False, out=False, workers=False,
                         requires=(("numba_cuda", "numba-cuda", "cuda"),
                                   ("array_api_compat", "array-api-compat", "xp"))),
}

_LOADED: dict[str, Engine] = {}


def names() -> tuple[str, ...]:
    """Accepted ``engine`` names: ``'auto'`` and every registered engine.

    Returns
    -------
    tuple of str
        ``'auto'`` first, then the registered engines in the order of registration.

    See Also
    --------
    available : Whether an engine's packages are installed.
    register : Add an engine.

    Examples
    --------
    >>> names()[:4]
    ('auto', 'numba', 'xp', 'cuda')
    """
    return ("auto", *CAPABILITIES)


def register(name: str, capabilities: Capabilities, engine: Engine | None = None) -> None:
    """Register an engine under ``name``, replacing any engine of that name.

    Parameters
    ----------
    name : str
        The name ``engine=`` will take.
    capabilities : Capabilities
        What the engine can do, and the module that holds its ``ENGINE`` object.
    engine : object, optional
        The engine object itself; by default ``capabilities.module``'s ``ENGINE``,
        imported on first use.

    See Also
    --------
    unregister : Remove it again.
    Capabilities : What it declares it can do.

    Examples
    --------
    >>> register("numba-again", CAPABILITIES["numba"])
    >>> "numba-again" in names()
    True
    >>> unregister("numba-again")
    """
    CAPABILITIES[name] = capabilities
    _LOADED.pop(name, None)
    _FOUND.clear()
    if engine is not None:
        _LOADED[name] = engine


def unregister(name: str) -> None:
    """Remove an engine registered by :func:`register` (nothing happens for an unknown name).

    Parameters
    ----------
    name : str
        The engine's name.

    See Also
    --------
    register : Add an engine.

    Examples
    --------
    >>> register("numba-again", CAPABILITIES["numba"])
    >>> unregister("numba-again")
    >>> "numba-again" in names()
    False
    """
    CAPABILITIES.pop(name, None)
    _LOADED.pop(name, None)
    _FOUND.clear()


def _is_xp_array(x: Any) -> bool:
    """Whether ``x`` is an array of another library than numpy (torch, CuPy, ...).

    numpy's scalars (``np.float64(1.0)``, ``np.True_``) are numpy's: they carry
    ``__array_namespace__`` too, and were sent to the array-API engine (found
    by tests/suites/test_fuzz.py).
    """
    if isinstance(x, (np.ndarray, np.generic)):
        return False
    return hasattr(x, "__array_namespace__") or type(x).__module__.partition(".")[0] in _XP_MODULES


def _check_installed(name: str, caps: Capabilities) -> None:
    for module, package, _extra in caps.requires:
        loaded = sys.modules.get(module, _NOT_LOADED)
        if loaded is not _NOT_LOADED and loaded is not None:
            continue                    # imported, so installed: find_spec's own answer, sooner
        if loaded is _NOT_LOADED and module in _INSTALLED:
            continue                    # found before (a call that does not import it: numba)
        if loaded is None or importlib.util.find_spec(module) is None:
            hint = f"pip install {package}"
            raise ImportError(f"engine={name!r} needs the {package} package, which is not "
                              f"installed: {hint}")
        _INSTALLED.add(module)


_NOT_LOADED = object()

#: Modules that :func:`importlib.util.find_spec` found (not imported yet): asked once.
_INSTALLED: set[str] = set()


def resolve_engine(engine: str | None, x: Any) -> str:
    """The engine that runs ``x``: ``engine`` checked, or chosen by ``x``'s array type.

    Parameters
    ----------
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}
        None and ``'auto'`` choose ``'numba'`` for numpy arrays (and anything
        that is not an array-API array, such as lists) and ``'xp'`` for other
        array types (torch tensors, CuPy arrays).
    x : object
        The input.

    Returns
    -------
    str
        A registered engine's name.

    Raises
    ------
    ValueError
        For an unknown name (the valid ones are listed).
    ImportError
        Where a package the engine needs is missing (the message names it and
        the extra that installs it).

    See Also
    --------
    get : The engine itself.

    Examples
    --------
    >>> import numpy as np
    >>> resolve_engine("auto", [1.0, 2.0])
    'numba'
    """
    if engine is None:
        engine = "auto"
    check_choice(engine, names(), "engine")
    if engine == "auto":
        engine = "xp" if _is_xp_array(x) else "numba"
    _check_installed(engine, CAPABILITIES[engine])
    return engine


def get(name: str) -> Engine:
    """The engine object registered as ``name`` (its module imported on first use).

    Parameters
    ----------
    name : str
        A registered engine (not ``'auto'``: see :func:`resolve_engine`).

    Returns
    -------
    object
        The engine: the protocol of this module's description.

    Raises
    ------
    ImportError
        Where a package the engine needs is not installed (naming the extra).

    See Also
    --------
    names : The registered engines.
    resolve_engine : The engine an input would get.

    Examples
    --------
    >>> callable(get("numba").scalogram)
    True
    """
    caps = CAPABILITIES[name]
    _check_installed(name, caps)
    if name not in _LOADED:
        _LOADED[name] = importlib.import_module(caps.module).ENGINE
    return _LOADED[name]


class UnsupportedOperation(ValueError):
    """An engine was asked for an operation it does not have (a ``ValueError``).

    The message names the engine, the operation and the engines that have it.

    See Also
    --------
    operation : Where it is raised.

    Examples
    --------
    >>> issubclass(UnsupportedOperation, ValueError)
    True
    """


def operations(name: str) -> tuple[str, ...]:
    """The operations engine ``name`` offers beyond ``filter`` and ``scalogram``.

    Parameters
    ----------
    name : str
        A registered engine.

    Returns
    -------
    tuple of str
        The names :func:`operation` takes for it, sorted.

    See Also
    --------
    operation : One of them, to call.

    Examples
    --------
    >>> "local_peaks" in operations("numba")
    True
    """
    return tuple(sorted(_table(name)))


def gaussian_figures(eng: Any, dtype: Any, output: Any, order: int, ndim: int, *,
                     scipy_arithmetic: bool = False) -> tuple[float | None, float | None]:
    """An engine's two cost figures for one axis of a Gaussian filter, as
    :func:`sftwave.plans.select_gaussian` takes them.

    Parameters
    ----------
    eng : Engine
        The engine object (:func:`get`).
    dtype, output : dtype-like or None
        The input's dtype, and the output (an array, a dtype or None) of the call.
    order : int
        The derivative order along the axis.
    ndim : int
        The input's number of dimensions.
    scipy_arithmetic : bool, optional
        The call asks for scipy's arithmetic.

    Returns
    -------
    (float or None, float or None)
        ``fir_taps_per_order`` (the engine's figure for these dtypes where it has
        ``fir_taps_per_order_for``, else its one figure) and
        ``design_taps_per_order`` (None where the engine has no such figure).

    See Also
    --------
    sftwave.plans.select_gaussian : The selector the figures are for.

    Examples
    --------
    >>> import numpy as np
    >>> gaussian_figures(get("numba"), np.float64, None, 0, 1)
    (2.75, 5.5)
    """
    by_dtype = getattr(eng, "fir_taps_per_order_for", None)
    cost = (by_dtype(dtype, output, order, ndim, scipy_arithmetic=scipy_arithmetic)
            if by_dtype is not None else eng.fir_taps_per_order())
    designed = getattr(eng, "design_taps_per_order_for", None)
    design = (designed(dtype, output, order, ndim, scipy_arithmetic=scipy_arithmetic)
              if designed is not None else None)
    return cost, design


def operation(name: str, op: str) -> Callable[..., Any]:
    """The function that performs operation ``op`` on engine ``name`` (its module imported now).

    Parameters
    ----------
    name : str
        A registered engine (see :func:`names`; not ``'auto'``: resolve it
        first with :func:`resolve_engine`).
    op : str
        The operation's name, a key of the engine's ``OPERATIONS`` table.

    Returns
    -------
    callable
        The engine's function for it.

    Raises
    ------
    UnsupportedOperation
        Where the engine has no such operation (the message names the engines
        that have it).

    See Also
    --------
    operations : What an engine offers.
    get : The engine object (``filter`` and ``scalogram``).

    Examples
    --------
    >>> peaks = operation("numba", "local_peaks")
    >>> callable(peaks)
    True
    >>> try:
    ...     operation("xp", "local_peaks")
    ... except UnsupportedOperation as e:
    ...     print(str(e).partition(": pass")[0])
    engine='xp' has no operation 'local_peaks' (engines that have it: 'numba')
    """
    found = _FOUND.get((name, op))
    if found is not None:
        return found
    if name not in CAPABILITIES:
        check_choice(name, tuple(CAPABILITIES), "engine")
    get(name)                           # installed, or an ImportError naming the extra
    table = _table(name)
    if op not in table:
        having = [n for n in CAPABILITIES if n != name and _offers(n, op)]
        where = ", ".join(repr(n) for n in having) or "none"
        hint = (": pass a NumPy array (np.asarray(x) for a CPU tensor) or engine='numba'"
                if "numba" in having else "")
        raise UnsupportedOperation(f"engine={name!r} has no operation {op!r} "
                                   f"(engines that have it: {where}){hint}")
    module, attr = table[op]
    found = getattr(importlib.import_module(module, CAPABILITIES[name].module), attr)
    _FOUND[(name, op)] = found
    return found


#: The operations looked up so far, by (engine, operation); emptied when engines change.
_FOUND: dict[tuple[str, str], Callable[..., Any]] = {}


def _table(name: str) -> dict[str, tuple[str, str]]:
    """Engine ``name``'s ``OPERATIONS`` table (its package imported: light, no numba)."""
    return getattr(importlib.import_module(CAPABILITIES[name].module), "OPERATIONS", {})


def _offers(name: str, op: str) -> bool:
    try:
        return op in _table(name)
    except ImportError:
        return False


def available(name: str) -> bool:
    """Whether engine ``name`` can run here.

    Parameters
    ----------
    name : str
        A registered engine.

    Returns
    -------
    bool
        Whether its packages are installed and, for ``'cuda'``, a GPU (or the
        simulator) is there.

    See Also
    --------
    names : The registered engines.

    Examples
    --------
    >>> available("numba")
    True
    """
    try:
        eng = get(name)
    except ImportError:
        return False
    return bool(getattr(eng, "available", lambda: True)())


def check_request(name: str, *, transform: str | None = None, bank_method: str | None = None,
                  output: Any = None, dtype: Any = None, out: Any = None,
                  workers: Any = None) -> None:
    """Reject, naming the parameter, what engine ``name`` cannot do (from its capabilities).

    Parameters
    ----------
    name : str
        A registered engine.
    transform, bank_method : str or None, optional
        Checked against the full lists first (an unknown name is a
        ``ValueError`` listing them), then against the engine's; None: not
        checked.
    output, dtype, out, workers : object, optional
        The call's arguments of these names: each must be None where the
        engine does not take it.

    Raises
    ------
    ValueError
        Naming the parameter, the engine and what it accepts.

    See Also
    --------
    Capabilities : What it checks against.

    Examples
    --------
    >>> check_request("xp", transform="asft")
    Traceback (most recent call last):
    ...
    ValueError: transform='asft' is not supported with engine='xp' (use 'auto', 'sft', or engine='numba'); got 'asft'
    """
    caps = CAPABILITIES[name]
    for param, value, valid, every in (("transform", transform, caps.transforms, TRANSFORMS),
                                       ("bank_method", bank_method, caps.bank_methods, BANK_METHODS)):
        if value is None:
            continue
        check_choice(value, every, param)
        if value not in valid:
            ok = ", ".join(repr(v) for v in valid)
            raise ValueError(f"{param}={value!r} is not supported with engine={name!r} "
                             f"(use {ok}, or engine='numba'); got {value!r}")
    for param, value in (("output", output), ("dtype", dtype), ("out", out), ("workers", workers)):
        if value is not None and not getattr(caps, param):
            array = not isinstance(value, (type, np.dtype, str)) and hasattr(value, "shape")
            shown = f"an array of shape {tuple(value.shape)}" if array else f"{param}={value!r}"
            raise ValueError(f"{param} is not supported with engine={name!r} (only the 'numba' "
                             f"engine takes it); got {shown}")
