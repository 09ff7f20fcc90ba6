"""scipy.ndimage's Gaussian family, routed to ``sftwave.ndimage``.

A call is routed where sftwave's drop-in takes it as scipy does and computes it by
its own bank: a NumPy array (``numpy.ndarray`` itself, not a subclass, a CuPy, dask
or torch array) of bool, integer, float32, float64, complex64 or complex128 values;
an ``output`` that is None, such a dtype, or a NumPy array of the input's shape
(complex when the input is); derivative orders 0 to 2 (order 3 and higher run
scipy's own kernel in sftwave too, so they stay with scipy); every other argument
as :func:`sftwave._checks.ndimage.gaussian_request` checks it, and no keyword
scipy's function would refuse.  Any other call (float16, which scipy refuses; a
complex ``cval``; a misspelt argument) reaches scipy's function unchanged, with its
own result or error.

Examples
--------
>>> import numpy as np
>>> accepts_gaussian_filter(np.ones((4, 4)), 1.0, order=(0, 2))
True
>>> accepts_gaussian_filter(np.ones(4, np.float16), 1.0), accepts_gaussian_filter1d(
...     np.ones(4), 1.0, order=3)
(False, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import engines
from ..._checks import check_axes, check_mode, per_axis
from ..._checks.ndimage import GaussianRequest, gaussian_request
from ..route import Route
from ..work import axis_values, gaussian_passes

_HERE = __name__
_SFTWAVE = "sftwave.ndimage"
_NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")

#: The keywords scipy's Laplacian and gradient magnitude hand on to ``gaussian_filter``.
_PASSED_ON = frozenset({"truncate", "radius"})


def routes() -> list[Route]:
    """The four Gaussian filters of ``scipy.ndimage``, each by its own predicate."""
    return [
        Route("scipy", name, ("scipy.ndimage",), f"{_SFTWAVE}:{name}", f"{_HERE}:accepts_{name}",
              work=f"{_HERE}:work_{name}")
        for name in _NAMES
    ]


def _filter_seconds(shape: tuple[int, ...], sigma: Any, truncate: Any, radius: Any, axes: Any) -> float:
    """scipy's ``gaussian_filter``: one pass per axis of ``axes`` (all: None)."""
    axes_t = range(len(shape)) if axes is None else [int(a) % len(shape) for a in np.atleast_1d(axes)]
    sigmas = axis_values(sigma, len(axes_t))
    radii = None if radius is None else [int(r) for r in axis_values(radius, len(axes_t))]
    return gaussian_passes(shape, sigmas, float(truncate), radii) if len(shape) else 0.0


def work_gaussian_filter(a: dict[str, Any]) -> float:
    """scipy's estimated seconds for ``gaussian_filter`` (:mod:`sftwave.patch.work`)."""
    return _filter_seconds(np.shape(a["input"]), a["sigma"], a["truncate"], a.get("radius"), a.get("axes"))


def work_gaussian_filter1d(a: dict[str, Any]) -> float:
    """scipy's estimated seconds for ``gaussian_filter1d``."""
    return _filter_seconds(np.shape(a["input"]), a["sigma"], a["truncate"], a.get("radius"), a["axis"])


def _derivatives_seconds(a: dict[str, Any]) -> float:
    """The Laplacian and the gradient magnitude: a ``gaussian_filter`` per axis."""
    shape = np.shape(a["input"])
    axes = a.get("axes")
    n = len(shape) if axes is None else len(np.atleast_1d(axes))
    kw = a.get("kwargs", {})
    return n * _filter_seconds(shape, a["sigma"], kw.get("truncate", 4.0), kw.get("radius"), axes)


work_gaussian_laplace = _derivatives_seconds
work_gaussian_gradient_magnitude = _derivatives_seconds


def _dtype_in_scope(dtype: np.dtype, complex_input: bool) -> bool:
    if complex_input:
        return dtype.kind == "c" and dtype.itemsize in (8, 16)
    return dtype.kind in "biu" or (dtype.kind == "f" and dtype.itemsize in (4, 8))


def _arrays_in_scope(input: Any, output: Any) -> bool:
    """A NumPy array of a dtype sftwave filters, and an output scipy and sftwave both take."""
    if type(input) is not np.ndarray:
        return False
    complex_input = input.dtype.kind == "c"
    if not _dtype_in_scope(input.dtype, complex_input):
        return False
    if output is None:
        return True
    if isinstance(output, np.ndarray):
        return (
            type(output) is np.ndarray
            and output.shape == input.shape
            and output.flags.writeable
            and _dtype_in_scope(output.dtype, complex_input)
        )
    if isinstance(output, (type, str, np.dtype)):
        return _dtype_in_scope(np.dtype(output), complex_input)
    return False


def _request(
    input: np.ndarray, sigma: Any, order: Any, mode: Any, cval: Any, truncate: Any, **kwargs: Any
) -> GaussianRequest:
    return gaussian_request(
        input.ndim,
        input.dtype.kind == "c",
        sigma,
        order,
        mode,
        cval,
        truncate,
        engine=engines.resolve_engine(None, input),
        **kwargs,
    )


def _routable(req: GaussianRequest, cval: Any) -> bool:
    """Orders sftwave's bank computes, and a cval scipy takes (real: it refuses complex ones)."""
    return max(req.orders, default=0) <= 2 and not np.iscomplexobj(cval)


def accepts_gaussian_filter(
    input: Any,
    sigma: Any,
    order: Any = 0,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    truncate: Any = 4.0,
    *,
    radius: Any = None,
    axes: Any = None,
) -> bool:
    """Whether ``scipy.ndimage.gaussian_filter(...)`` with these arguments is sftwave's."""
    if not _arrays_in_scope(input, output):
        return False
    req = _request(input, sigma, order, mode, cval, truncate, radius=radius, axes=axes)
    return _routable(req, cval)


def accepts_gaussian_filter1d(
    input: Any,
    sigma: Any,
    axis: Any = -1,
    order: Any = 0,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    truncate: Any = 4.0,
    *,
    radius: Any = None,
) -> bool:
    """Whether ``scipy.ndimage.gaussian_filter1d(...)`` with these arguments is sftwave's."""
    if not _arrays_in_scope(input, output) or input.ndim == 0:
        return False
    req = _request(input, sigma, order, mode, cval, truncate, radius=radius, axis=axis)
    return _routable(req, cval)


def _derivatives_in_scope(
    input: Any,
    sigma: Any,
    output: Any,
    mode: Any,
    cval: Any,
    axes: Any,
    kwargs: dict[str, Any],
    *,
    sigma_per_axis: bool,
) -> bool:
    """The Laplacian's and the gradient magnitude's calls: each mode, with the sigma and
    the keywords they hand to ``gaussian_filter``."""
    if not _arrays_in_scope(input, output) or not set(kwargs) <= _PASSED_ON:
        return False
    axes_t = check_axes(axes, input.ndim)
    truncate = kwargs.get("truncate", 4.0)
    for m in per_axis(mode, len(axes_t), "mode"):
        check_mode(m)
        req = _request(
            input,
            sigma,
            0,
            m,
            cval,
            truncate,
            radius=kwargs.get("radius"),
            axes=axes_t if sigma_per_axis else None,
        )
        if not _routable(req, cval):
            return False
    return True


def accepts_gaussian_laplace(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> bool:
    """Whether ``scipy.ndimage.gaussian_laplace(...)`` with these arguments is sftwave's."""
    return _derivatives_in_scope(input, sigma, output, mode, cval, axes, kwargs, sigma_per_axis=True)


def accepts_gaussian_gradient_magnitude(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> bool:
    """Whether ``scipy.ndimage.gaussian_gradient_magnitude(...)`` with these arguments is
    sftwave's (``sigma`` goes to ``gaussian_filter`` whole: one value, or one per dimension)."""
    return _derivatives_in_scope(input, sigma, output, mode, cval, axes, kwargs, sigma_per_axis=False)
