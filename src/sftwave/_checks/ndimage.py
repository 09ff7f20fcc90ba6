"""The Gaussian filters' request (:class:`GaussianRequest`) and what they return, as a type
(:class:`Array`).

Examples
--------
>>> import numpy as np
>>> isinstance(np.zeros(2), Array)
True
>>> gaussian_request(2, False, [1.0, 0.0], engine="numba").axes
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from . import (
    check_axes,
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_order,
    check_positive,
    check_radius,
    check_sigma,
    check_spacing,
    check_tol,
    check_truncate,
    check_workers,
    per_axis,
)

__all__ = ["Array", "GaussianRequest", "gaussian_request", "NAN_POLICIES", "GAUSSIAN_METHODS",
           "ZERO_SIGMA"]

#: What a filter does with NaN and infinity: confine them to the samples they reach, or leave
#: them out of the weighted mean.
NAN_POLICIES = ("propagate", "omit")

#: A sigma at most this is zero: the axis is not filtered (scipy's threshold).
ZERO_SIGMA = 1e-15

#: How the filters compute each axis (``'auto'``: the cheaper of the two that meet the target).
GAUSSIAN_METHODS = ("auto", "fir", "bank")


@dataclass(frozen=True)
class GaussianRequest:
    """One Gaussian filter call, its arguments checked and normalised: an entry per axis.

    ``axes``, ``sigmas``, ``orders``, ``modes`` and ``radii`` have one entry per
    axis; where ``skip_zero_sigma`` (:func:`sftwave.gaussian_filter`'s rule, scipy's),
    an axis of sigma at most 1e-15 is not filtered, whatever its order.  ``engine`` is
    the resolved engine's name.  With ``spacing`` (the physical size of a sample per axis)
    the ``sigmas`` are in samples already (the physical sigmas divided by it) and
    ``derivative_scale`` is the factor that makes the derivatives per unit of length:
    ``spacing ** -order`` multiplied over the axes that are filtered (1.0 without spacing).
    """

    axes: tuple[int, ...]
    sigmas: tuple[float, ...]
    orders: tuple[int, ...]
    modes: tuple[str, ...]
    radii: tuple[int | None, ...]
    cval: float | complex
    truncate: float
    method: str
    tol: float | None
    nan_policy: str
    min_weight: float
    engine: str
    workers: int | None
    skip_zero_sigma: bool
    derivative_scale: float = 1.0

    @property
    def scipy_arithmetic(self) -> bool:
        """Whether the call asks for scipy's kernel itself (``method='fir'`` or ``radius=``),
        and so for scipy's arithmetic on every axis."""
        return self.method == "fir" or any(r is not None for r in self.radii)


#: Argument types a request is remembered by (with the values: True is not 1): immutable ones.
_PLAIN = frozenset((int, float, complex, str, bool, type(None)))

#: Requests met before, by their arguments' types and values (at most 256 kept): a warm
#: small call's checks are one dict hit.
_REQUESTS: dict[tuple[Any, ...], GaussianRequest] = {}


def _key(value: Any) -> Any:
    """``value`` with its type (and its items' types), or None where it is not a plain value."""
    kind = type(value)
    if kind in _PLAIN:
        return (kind, value)
    if kind is tuple or kind is list:
        items = tuple(_key(v) for v in value)
        return None if None in items else (kind, items)
    return None


def gaussian_request(ndim: int, complex_input: bool, sigma: Any, order: Any = 0,
                     mode: Any = "reflect", cval: Any = 0.0, truncate: Any = 4.0, *,
                     radius: Any = None, axes: Any = None, axis: Any = None, method: Any = "auto",
                     tol: Any = None, nan_policy: Any = "propagate", min_weight: Any = 0.5,
                     engine: str, workers: Any = None, spacing: Any = None) -> GaussianRequest:
    """:func:`_gaussian_request`, remembered where every argument is a plain value.

    Examples
    --------
    >>> r = gaussian_request(1, False, 2.0, axis=-1, engine="numba")
    >>> gaussian_request(1, False, 2.0, axis=-1, engine="numba") is r
    True
    """
    args = (ndim, complex_input, sigma, order, mode, cval, truncate, radius, axes, axis, method,
            tol, nan_policy, min_weight, engine, workers, spacing)
    types = tuple(map(type, args))
    key = (args, types) if _PLAIN.issuperset(types) else _key(args)
    req = _REQUESTS.get(key) if key is not None else None
    if req is None:
        req = _gaussian_request(ndim, complex_input, sigma, order, mode, cval, truncate,
                                radius=radius, axes=axes, axis=axis, method=method, tol=tol,
                                nan_policy=nan_policy, min_weight=min_weight, engine=engine,
                                workers=workers, spacing=spacing)
        if key is not None:
            if len(_REQUESTS) >= 256:
                _REQUESTS.clear()
            _REQUESTS[key] = req
    return req


def _gaussian_request(ndim: int, complex_input: bool, sigma: Any, order: Any = 0,
                      mode: Any = "reflect", cval: Any = 0.0, truncate: Any = 4.0, *,
                      radius: Any = None, axes: Any = None, axis: Any = None, method: Any = "auto",
                      tol: Any = None, nan_policy: Any = "propagate", min_weight: Any = 0.5,
                      engine: str, workers: Any = None, spacing: Any = None) -> GaussianRequest:
    """The request of :func:`sftwave.gaussian_filter` (``axes``) or of
    :func:`sftwave.gaussian_filter1d` (``axis``: one axis, a sigma that must be positive) on
    an ``ndim``-dimensional input, complex where ``complex_input``.

    Errors name the parameter and echo the value, in the order each function has always
    checked its arguments.  ``spacing`` (gaussian_filter only: a scalar or one per axis in
    ``axes``) divides the sigmas and sets ``derivative_scale``.

    Examples
    --------
    >>> r = gaussian_request(1, False, 2.0, axis=-1, method="fir", engine="numba")
    >>> r.axes, r.sigmas, r.scipy_arithmetic
    ((0,), (2.0,), True)
    >>> gaussian_request(1, False, 0.0, axis=0, engine="numba")   # (gaussian_filter1d)
    Traceback (most recent call last):
    ...
    ValueError: sigma must be a positive finite number; got 0.0
    """
    workers = check_workers(workers)
    sigmas: tuple[float, ...]
    orders: tuple[int, ...]
    modes: tuple[str, ...]
    radii: tuple[int | None, ...]
    if axis is not None:            # gaussian_filter1d's order of checks
        sigmas, orders, modes = (check_sigma(sigma),), (check_order(order),), (check_mode(mode),)
        cval = check_cval(cval, complex_ok=complex_input)
        truncate = check_truncate(truncate)
        radii = (check_radius(radius),)
        method = check_choice(method, GAUSSIAN_METHODS, "method")
        tol = check_tol(tol)
        axes_t: tuple[int, ...] = (check_axis(axis, ndim),)
    else:
        axes_t = check_axes(axes, ndim)
        n = len(axes_t)
        sigmas = tuple(check_sigma(s, "sigma", allow_zero=True) for s in per_axis(sigma, n, "sigma"))
        orders = tuple(check_order(o) for o in per_axis(order, n, "order"))
        modes = tuple(check_mode(m) for m in per_axis(mode, n, "mode"))
        radii = tuple(check_radius(r) for r in per_axis(radius, n, "radius"))
        cval = check_cval(cval, complex_ok=complex_input)
        truncate = check_truncate(truncate)
        method = check_choice(method, GAUSSIAN_METHODS, "method")
        tol = check_tol(tol)
    nan_policy = check_choice(nan_policy, NAN_POLICIES, "nan_policy")
    w = check_positive(min_weight, "min_weight")
    if w > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {min_weight!r}")
    scale = 1.0
    steps = check_spacing(spacing, len(axes_t))
    if steps is not None:
        sigmas = tuple(s / d for s, d in zip(sigmas, steps))
        for s, o, d in zip(sigmas, orders, steps):
            if s > ZERO_SIGMA:                  # an axis left unfiltered is not differentiated
                scale *= d ** -o
    return GaussianRequest(axes_t, sigmas, orders, modes, radii, cval, truncate, method, tol,
                           nan_policy, w, engine, workers, skip_zero_sigma=axis is None,
                           derivative_scale=scale)


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
