"""Engines behind the public API, chosen by the input's array type or by ``engine=``.

``'numba'``
    The CPU engine (:mod:`sftwave.bank`, :mod:`sftwave.engine`): numpy in,
    numpy out, every bank method, SFT and ASFT, the direct FIR for small
    scales.  The default for numpy arrays and anything that is not an
    array-API array (lists, scalars).
``'xp'``
    Array-API code (:mod:`sftwave.xp_engine`, through ``array_api_compat``):
    the SFT by the kernel integral on the sliding sum of the paper's
    Algorithm 1.  Runs on numpy, on torch tensors on any device and on CuPy
    arrays; the result is the input's array type on its device, and it is
    differentiable with torch's autograd.  The default for torch tensors and
    CuPy arrays.
``'cuda'``
    The numba-cuda kernel of the paper's Algorithms 2-3
    (:mod:`sftwave.cuda_engine`), with the same contract as ``'xp'``.

``'auto'`` (or None) picks ``'numba'`` for numpy arrays and ``'xp'`` for
other array types.  No environment variable switches engines.

The engines other than ``'numba'`` take their plans from the same design
layer (computed with numpy, transform ``'sft'``: the kernel integral needs no
decay) and apply them axis by axis, scale by scale.  Where no SFT plan meets
the accuracy asked (the smallest scales), or where ``method`` asks for it,
they convolve with the truncated kernel by array-API code
(:func:`sftwave.xp_engine.fir1d`).  They reject what they cannot do with a
``ValueError`` naming the parameter: ``transform='asft'``, a CPU bank method,
``output`` arrays, ``dtype``, ``out``, ``workers``.

Examples
--------
>>> import numpy as np
>>> resolve_engine(None, np.zeros(3))
'numba'
>>> resolve_engine("xp", np.zeros(3))
'xp'
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ._checks import (
    TRANSFORMS,
    check_axes,
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_order,
    check_radius,
    check_sigma,
    check_tol,
    check_truncate,
    per_axis,
)

__all__ = [
    "ENGINES",
    "cwt",
    "filter1d",
    "gaussian_filter",
    "gaussian_filter1d",
    "morlet_transform",
    "resolve_engine",
]

#: Accepted ``engine`` names.
ENGINES = ("auto", "numba", "xp", "cuda")

#: Top-level modules of array types that 'auto' sends to the 'xp' engine.
_XP_MODULES = frozenset({"torch", "cupy", "jax", "jaxlib"})

#: Bank methods the engines other than 'numba' accept (``'integral'`` names
#: what they compute: the kernel integral).
_GAUSSIAN_METHODS = ("auto", "integral", "direct")
_BANK_METHODS = ("auto", "integral")


def _is_xp_array(x: Any) -> bool:
    """Whether ``x`` is an array of another library than numpy (torch, CuPy, ...)."""
    if isinstance(x, np.ndarray):
        return False
    return hasattr(x, "__array_namespace__") or type(x).__module__.partition(".")[0] in _XP_MODULES


def _cuda_module():
    try:
        from . import cuda_engine
    except ImportError as exc:
        raise ImportError(
            "engine='cuda' needs numba-cuda (and sftwave.cuda_engine); it could not be imported: "
            f"{exc}. Use engine='xp' (numpy, torch, CuPy) or engine='numba' (CPU)."
        ) from exc
    return cuda_engine


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
        ``'numba'``, ``'xp'`` or ``'cuda'``.

    Raises
    ------
    ValueError
        For an unknown name (the valid ones are listed).
    ImportError
        For ``'cuda'`` where numba-cuda or :mod:`sftwave.cuda_engine` cannot
        be imported.

    Examples
    --------
    >>> import numpy as np
    >>> resolve_engine("auto", [1.0, 2.0])
    'numba'
    """
    if engine is None:
        engine = "auto"
    check_choice(engine, ENGINES, "engine")
    if engine == "auto":
        return "xp" if _is_xp_array(x) else "numba"
    if engine == "cuda":
        _cuda_module()
    return engine


def _filter1d_of(engine: str) -> Callable:
    if engine == "cuda":
        return _cuda_on_host_tensors(_cuda_module().filter1d)
    from . import xp_engine

    return xp_engine.filter1d


def filter1d(x: Any, plan, *, engine: str, axis: int = -1, mode: str = "reflect",
             cval: complex = 0.0) -> Any:
    """Apply an SFT plan along ``axis`` with the engine ``'xp'`` or ``'cuda'``.

    See :func:`sftwave.xp_engine.filter1d` for the contract.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.design import gaussian_plan
    >>> y = filter1d(np.ones(50), gaussian_plan(8.0, 0, 1e-5, "sft"), engine="xp")
    >>> bool(np.allclose(y, 1.0))
    True
    """
    check_choice(engine, ("xp", "cuda"), "engine")
    return _filter1d_of(engine)(x, plan, axis=axis, mode=mode, cval=cval)


def _apply_path(x, path, engine: str, axis: int, mode: str, cval):
    """One axis by a plan (``('bank', plan, ...)``) or a FIR (``('direct'|'fir', kernel)``)."""
    if path[0] == "bank":
        return _filter1d_of(engine)(x, path[1], axis=axis, mode=mode, cval=cval)
    from . import xp_engine

    return xp_engine.fir1d(x, path[1], axis=axis, mode=mode, cval=cval)


def _cuda_on_host_tensors(filter1d: Callable) -> Callable:
    """``cuda_engine.filter1d``, but a torch tensor in host memory comes back as one.

    The CUDA engine takes numpy arrays (copied to the device and back) and device
    arrays; a CPU torch tensor goes through numpy and is returned as a CPU tensor,
    so that torch in gives torch out on every engine.
    """

    def wrapped(x, plan, **kw):
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(x, torch.Tensor) and x.device.type == "cpu":
            return torch.from_numpy(filter1d(x.detach().numpy(), plan, **kw))
        return filter1d(x, plan, **kw)

    return wrapped


# ----------------------------------------------------------------------------- validation


def _as_array(x: Any, name: str):
    """``x`` as an array-API array (non-arrays through numpy) and its namespace."""
    from array_api_compat import array_namespace, is_array_api_obj

    if not is_array_api_obj(x):
        from ._checks import check_input_array

        x = check_input_array(x, name)
    xp = array_namespace(x)
    if not xp.isdtype(x.dtype, ("integral", "real floating", "complex floating")):
        raise TypeError(
            f"{name} must have a numeric (integer, float or complex) dtype; got dtype {x.dtype}"
        )
    return x, xp


def _is_complex(xp, x) -> bool:
    return bool(xp.isdtype(x.dtype, "complex floating"))


def _only_none(engine: str, **kwargs) -> None:
    for name, value in kwargs.items():
        if value is not None:
            raise ValueError(f"{name} is not supported with engine={engine!r} (only the 'numba' "
                             f"engine takes it); got {name}={value!r}")


def _check_transform(transform, engine: str) -> None:
    check_choice(transform, TRANSFORMS, "transform")
    if transform == "asft":
        raise ValueError(f"transform='asft' is not supported with engine={engine!r}: it computes "
                         "the SFT by the kernel integral, which needs no decay; pass "
                         "transform='sft' or 'auto', or engine='numba'")


def _check_method(value, valid: tuple[str, ...], all_names: tuple[str, ...], name: str,
                  engine: str) -> str:
    check_choice(value, all_names, name)
    if value not in valid:
        ok = ", ".join(repr(v) for v in valid)
        raise ValueError(f"{name}={value!r} is not supported with engine={engine!r} "
                         f"(use {ok}, or engine='numba'); got {value!r}")
    return value


# ----------------------------------------------------------------------------- Gaussian


def _gaussian_path(sigma: float, order: int, truncate: float, radius, method: str, tol, n: int):
    """A plan (SFT, kernel integral) or, where none meets the target or asked, a FIR kernel."""
    from .ndimage import choose_path

    if method == "direct":
        return choose_path(sigma, order, truncate=truncate, radius=radius, method="direct", tol=tol)
    try:
        return choose_path(sigma, order, truncate=truncate, radius=radius, method="integral",
                           transform="sft", tol=tol, n=n)
    except ValueError:
        if method != "auto":
            raise
        return choose_path(sigma, order, truncate=truncate, radius=radius, method="direct", tol=tol)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None, method="auto", transform="auto", tol=None,
                      engine: str = "xp"):
    """:func:`sftwave.gaussian_filter1d` on the engine ``'xp'`` or ``'cuda'``."""
    from .ndimage import FILTER_METHODS

    x, xp = _as_array(input, "input")
    sigma = check_sigma(sigma)
    order = check_order(order)
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=_is_complex(xp, x))
    truncate = check_truncate(truncate)
    radius = check_radius(radius)
    method = _check_method(method, _GAUSSIAN_METHODS, FILTER_METHODS, "method", engine)
    _check_transform(transform, engine)
    tol = check_tol(tol)
    _only_none(engine, output=output)
    axis = check_axis(axis, len(x.shape))
    path = _gaussian_path(sigma, order, truncate, radius, method, tol, int(x.shape[axis]))
    return _apply_path(x, path, engine, axis, mode, cval)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                    *, radius=None, axes=None, method="auto", transform="auto", tol=None,
                    engine: str = "xp"):
    """:func:`sftwave.gaussian_filter` on the engine ``'xp'`` or ``'cuda'``."""
    from .ndimage import FILTER_METHODS
    from .xp_engine import _dtypes

    x, xp = _as_array(input, "input")
    axes = check_axes(axes, len(x.shape))
    naxes = len(axes)
    sigmas = [check_sigma(s, "sigma", allow_zero=True) for s in per_axis(sigma, naxes, "sigma")]
    orders = [check_order(o) for o in per_axis(order, naxes, "order")]
    modes = [check_mode(m) for m in per_axis(mode, naxes, "mode")]
    radii = [check_radius(r) for r in per_axis(radius, naxes, "radius")]
    cval = check_cval(cval, complex_ok=_is_complex(xp, x))
    truncate = check_truncate(truncate)
    method = _check_method(method, _GAUSSIAN_METHODS, FILTER_METHODS, "method", engine)
    _check_transform(transform, engine)
    tol = check_tol(tol)
    _only_none(engine, output=output)
    steps = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if s == 0.0:
            if o != 0:
                raise ValueError(f"sigma must be positive for a derivative (order={o}) along axis {ax}; got 0")
            continue
        steps.append((ax, m, _gaussian_path(s, o, truncate, r, method, tol, int(x.shape[ax]))))
    if not steps:
        _, real_out, complex_out = _dtypes(xp, x.dtype)
        return xp.astype(x, complex_out if _is_complex(xp, x) else real_out, copy=True)
    for ax, m, path in steps:
        x = _apply_path(x, path, engine, ax, m, cval)
    return x


# ----------------------------------------------------------------------------- Morlet


def _morlet_path(sigma: float, xi: float, tol: float, method: str, n: int):
    """The cheapest SFT plan meeting ``tol`` (methods allowed by ``method``), else the FIR."""
    from .cwt import _fir_morlet
    from .design import TOL_FLOOR
    from .morlet import morlet_plan
    from .ndimage import SHORT_SIGNAL_TIGHTENING

    if method == "fir":
        return ("fir", _fir_morlet(sigma, xi, tol))
    kinds = ("direct", "multiply") if method == "auto" else (method,)

    def best(target):
        plans = []
        for kind in kinds:
            try:
                plans.append(morlet_plan(sigma, xi, target, kind, "sft"))
            except ValueError as exc:
                if method != "auto":
                    raise ValueError(f"method={method!r}: {exc}; pass a larger tol or "
                                     "method='fir'") from None
        return min(plans, key=lambda p: p.omegas.size, default=None)

    plan = best(tol)
    if plan is not None and n < plan.length:
        plan = best(max(TOL_FLOOR, tol / SHORT_SIGNAL_TIGHTENING))
    if plan is None:
        return ("fir", _fir_morlet(sigma, xi, tol))
    return ("bank", plan)


def _morlet_args(x, xi, method, transform, mode, cval, tol, bank_method, workers, engine):
    from .bank import METHODS
    from .cwt import MORLET_METHODS, _check_positive, _resolve_tol

    x, xp = _as_array(x, "x")
    xi = _check_positive(xi, "xi")
    method = check_choice(method, MORLET_METHODS, "method")
    _check_transform(transform, engine)
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=_is_complex(xp, x))
    tol = _resolve_tol(tol)
    _check_method(bank_method, _BANK_METHODS, ("auto", *METHODS), "bank_method", engine)
    _only_none(engine, workers=workers)
    return x, xp, xi, method, mode, cval, tol


def morlet_transform(x, sigma, xi=6.0, *, axis=-1, method="direct", transform="auto",
                     mode="reflect", cval=0.0, tol=None, bank_method="auto", workers=None,
                     engine: str = "xp"):
    """:func:`sftwave.morlet_transform` on the engine ``'xp'`` or ``'cuda'``."""
    x, _, xi, method, mode, cval, tol = _morlet_args(x, xi, method, transform, mode, cval, tol,
                                                     bank_method, workers, engine)
    sigma = check_sigma(sigma)
    axis = check_axis(axis, len(x.shape))
    if xi / sigma > math.pi:
        raise ValueError(
            f"the wavelet's centre frequency xi/sigma = {xi / sigma:.4g} rad/sample exceeds "
            f"Nyquist (pi): increase sigma (got {sigma!r}) or decrease xi (got {xi!r})"
        )
    path = _morlet_path(sigma, xi, tol, method, int(x.shape[axis]))
    return _apply_path(x, path, engine, axis, mode, cval)


def _kind(xp, y, output: str):
    if output == "complex":
        return y
    re, im = xp.real(y), xp.imag(y)
    if output == "power":
        return re * re + im * im
    if output == "abs":
        return xp.abs(y)
    return xp.atan2(im, re)


def cwt(x, freqs, fs=1.0, *, xi=6.0, axis=-1, mode="reflect", cval=0.0, output="complex",
        tol=None, dtype=None, method="auto", transform="auto", bank_method="auto", decim=1,
        out=None, workers=None, engine: str = "xp"):
    """:func:`sftwave.cwt` on the engine ``'xp'`` or ``'cuda'``."""
    from .cwt import (
        OUTPUTS,
        _check_decim,
        _check_freqs,
        _check_positive,
        frequency_to_scale,
    )

    x, xp, xi, method, mode, cval, tol = _morlet_args(x, xi, method, transform, mode, cval, tol,
                                                      bank_method, workers, engine)
    fs = _check_positive(fs, "fs")
    f = _check_freqs(freqs, fs)
    axis = check_axis(axis, len(x.shape))
    output = check_choice(output, OUTPUTS, "output")
    decim = _check_decim(decim)
    _only_none(engine, dtype=dtype, out=out)
    n = int(x.shape[axis])
    moved = xp.moveaxis(x, axis, -1)
    rows = []
    for s in frequency_to_scale(f, fs, xi):
        path = _morlet_path(float(s), xi, tol, method, n)
        y = _apply_path(moved, path, engine, len(moved.shape) - 1, mode, cval)
        rows.append(_kind(xp, y[..., ::decim], output))
    return xp.stack(rows, axis=-2)
