"""The image features' requests: each call's arguments checked and normalised once.

:mod:`sftwave.feature` builds one of these frozen objects per call (the image
converted first, by the engine's ``feature_as_float`` or ``ridge_float``), then
runs it; the defaults live here, once.  A builder only checks (``ValueError``
/ ``TypeError`` naming the parameter and echoing the value) and never
computes: a call that builds its request is inside sftwave's scope.  The
engine (``engine``) is resolved by the caller from ``engine=`` and the input's
array type (:func:`sftwave.engines.resolve_engine`) and carried here.

Examples
--------
>>> req = hessian_request(2, 2.0, engine="numba", use_gaussian_derivatives=True)
>>> req.sigmas, req.tol, req.truncate
((2.0, 2.0), 1e-07, 8.0)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import (
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_positive,
    check_spacing,
    check_tol,
    check_truncate,
    check_workers,
    per_axis,
)

__all__ = ["DERIVATIVE_TOL", "derivative_truncate", "axis_sigmas", "check_order", "real_or_none",
           "check_overlap", "exclude_width", "blob_sigmas", "log_scales", "dog_scales",
           "meijering_alpha", "real_scalars", "finite", "foreign_array",
           "HessianRequest", "hessian_request", "StructureTensorRequest", "structure_tensor_request",
           "EigenvaluesRequest", "eigenvalues_request", "DoGRequest", "dog_request",
           "BlobRequest", "blob_spacing", "blob_log_request", "blob_dog_request", "RidgeRequest",
           "ridge_request",
           "GaborRequest", "gabor_request", "check_truncated", "scipy_radii", "SkimageGaussianRequest",
           "skimage_gaussian_request", "check_n_dims", "HessianDetRequest", "hessian_det_request",
           "complex_dtype", "gabor_image", "check_direct_kernel"]

#: The default accuracy of the Gaussian-derivative Hessian's filters: about float32's
#: resolution, which the recursions meet at a cost independent of sigma (scikit-image's
#: truncation at 8 sigma, a kernel error near 1e-14, only a truncated kernel reaches,
#: at a cost that grows with sigma).
DERIVATIVE_TOL = 1e-7

#: The modules of array types that take the array-API code (as :mod:`sftwave.engines` lists them).
_FOREIGN_MODULES = frozenset({"torch", "cupy", "jax", "jaxlib"})


def derivative_truncate(sigmas: Sequence[float]) -> float:
    """scikit-image's truncation of its Gaussian-derivative Hessian: 8 sigma, 100 for sigma <= 1.

    Examples
    --------
    >>> derivative_truncate([2.0, 0.5])
    100.0
    """
    return 8.0 if all(s > 1 for s in sigmas) else 100.0


def foreign_array(x: Any) -> bool:
    """Whether ``x`` is an array of another library than numpy (torch, CuPy, ...).

    Examples
    --------
    >>> foreign_array(np.zeros(2)), foreign_array([1.0])
    (False, False)
    """
    if isinstance(x, (np.ndarray, np.generic)):
        return False
    return hasattr(x, "__array_namespace__") or type(x).__module__.partition(".")[0] in _FOREIGN_MODULES


def numpy_only(image: Any, why: str = "") -> None:
    """Refuse an array of another library (TypeError), for the functions that take NumPy only."""
    if foreign_array(image):
        raise TypeError(f"image must be a NumPy array{why}; got a {type(image).__module__}."
                        f"{type(image).__name__}: pass a NumPy copy (tensor.cpu().numpy(), "
                        f"cupy.asnumpy(array))")


def axis_sigmas(sigma: Any, ndim: int, name: str = "sigma", *, allow_zero: bool = False) -> list[float]:
    """One positive (or zero) finite sigma per axis, from a scalar or a sequence.

    Examples
    --------
    >>> axis_sigmas(2, 3)
    [2.0, 2.0, 2.0]
    """
    return [check_positive(s, name, allow_zero=allow_zero) for s in per_axis(sigma, ndim, name)]


def check_order(order: Any, ndim: int) -> str:
    """'rc' or 'xy'; 'xy' only for 2-D images (scikit-image's rule).

    Examples
    --------
    >>> check_order("xy", 3)
    Traceback (most recent call last):
    ...
    ValueError: order='xy' is only supported for 2-D images; got a 3-D image
    """
    order = check_choice(order, ("rc", "xy"), "order")
    if order == "xy" and ndim != 2:
        raise ValueError(f"order='xy' is only supported for 2-D images; got a {ndim}-D image")
    return order


def real_or_none(value: Any, name: str) -> float | None:
    """None, or a real number that is not NaN.

    Examples
    --------
    >>> real_or_none(1, "threshold")
    1.0
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating,
                                                                     np.integer)):
        raise TypeError(f"{name} must be a real number or None; got {value!r}")
    v = float(value)
    if math.isnan(v):
        raise ValueError(f"{name} must not be NaN; got {value!r}")
    return v


def check_overlap(overlap: Any) -> float:
    """A fraction in [0, 1].

    Examples
    --------
    >>> check_overlap(0.5)
    0.5
    """
    v = check_positive(overlap, "overlap", allow_zero=True)
    if v > 1:
        raise ValueError(f"overlap must be between 0 and 1; got {overlap!r}")
    return v


def exclude_width(exclude_border: Any, ndim: int) -> tuple[int, ...]:
    """The border width per axis: scikit-image's ``exclude_border`` (an int, a tuple of ints, False).

    As in scikit-image, ``True`` counts as the integer 1 (``False`` as 0).

    Examples
    --------
    >>> exclude_width(True, 2)
    (1, 1)
    """
    def width(value: Any) -> int:
        if not isinstance(value, numbers.Integral):
            raise TypeError(f"exclude_border must be an int, a tuple of ints or False; "
                            f"got {exclude_border!r}")
        if value < 0:
            raise ValueError(f"exclude_border must not be negative; got {exclude_border!r}")
        return int(value)

    if isinstance(exclude_border, tuple):
        if len(exclude_border) != ndim:
            raise ValueError(f"exclude_border must have one entry per axis of the image ({ndim}); "
                             f"got {exclude_border!r}")
        return tuple(width(v) for v in exclude_border)
    return (width(exclude_border),) * ndim


def blob_sigmas(min_sigma: Any, max_sigma: Any, ndim: int,
                dtype: np.dtype) -> tuple[bool, np.ndarray, np.ndarray]:
    """scikit-image's sigma bounds: (one sigma column?, min and max per axis in the image's dtype)."""
    scalar_sigma = bool(np.isscalar(max_sigma) and np.isscalar(min_sigma))
    bounds = []
    for value, name in ((min_sigma, "min_sigma"), (max_sigma, "max_sigma")):
        sigmas = [check_positive(s, name) for s in per_axis(value, ndim, name)]
        bounds.append(np.asarray(sigmas, dtype=dtype))
    return scalar_sigma, bounds[0], bounds[1]


def log_scales(min_sigma: Any, max_sigma: Any, num_sigma: Any, log_scale: bool, ndim: int,
               dtype: np.dtype) -> tuple[bool, np.ndarray]:
    """:func:`~sftwave.feature.blob_log`'s scales: (one sigma column?, ``(num_sigma, ndim)``
    sigmas in ``dtype``).

    Examples
    --------
    >>> log_scales(1, 3, 3, False, 2, np.dtype(np.float64))[1][:, 0].tolist()
    [1.0, 2.0, 3.0]
    """
    scalar_sigma, lo, hi = blob_sigmas(min_sigma, max_sigma, ndim, dtype)
    if isinstance(num_sigma, (bool, np.bool_)) or not isinstance(num_sigma, numbers.Integral):
        raise TypeError(f"num_sigma must be an integer; got {num_sigma!r}")
    if num_sigma < 1:
        raise ValueError(f"num_sigma must be at least 1; got {num_sigma!r}")
    if log_scale:
        return scalar_sigma, np.logspace(np.log10(lo), np.log10(hi), int(num_sigma))
    return scalar_sigma, np.linspace(lo, hi, int(num_sigma))


def dog_scales(min_sigma: Any, max_sigma: Any, sigma_ratio: Any, ndim: int,
               dtype: np.dtype) -> tuple[bool, np.ndarray]:
    """:func:`~sftwave.feature.blob_dog`'s Gaussians: (one sigma column?, ``(k + 1, ndim)``
    sigmas for ``k`` scales).

    Examples
    --------
    >>> dog_scales(1, 2, 2.0, 2, np.dtype(np.float64))[1][:, 0].tolist()
    [1.0, 2.0, 4.0]
    """
    scalar_sigma, lo, hi = blob_sigmas(min_sigma, max_sigma, ndim, dtype)
    if check_positive(sigma_ratio, "sigma_ratio") <= 1.0:
        raise ValueError(f"sigma_ratio must be a finite number above 1; got {sigma_ratio!r}")
    k = int(np.mean(np.log(hi / lo) / np.log(sigma_ratio) + 1))
    if k < 1:
        raise ValueError(f"max_sigma must be at least min_sigma (one scale at least); got "
                         f"min_sigma={min_sigma!r}, max_sigma={max_sigma!r}")
    return scalar_sigma, np.array([lo * (sigma_ratio**i) for i in range(k + 1)])


def meijering_alpha(alpha: Any, ndim: int) -> float:
    """:func:`~sftwave.feature.meijering`'s ``alpha``, checked; None: ``1 / (ndim + 1)``.

    Examples
    --------
    >>> meijering_alpha(None, 2)
    0.3333333333333333
    """
    if alpha is None:
        return 1 / (ndim + 1)
    if not isinstance(alpha, (numbers.Real, np.floating, np.integer)) or isinstance(alpha, bool):
        raise TypeError(f"alpha must be a real number or None; got {alpha!r}")
    if not math.isfinite(float(alpha)):
        raise ValueError(f"alpha must be finite; got {alpha!r}")
    return float(alpha)


def finite(value: Any, name: str) -> float:
    """A finite real number.

    Examples
    --------
    >>> finite(2, "theta")
    2.0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number; got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be finite; got {value!r}")
    return float(value)


def real_scalars(values: Any, name: str, *, positive: bool) -> list[float]:
    """A scalar or a 1-D sequence of finite real numbers (positive ones if ``positive``).

    Examples
    --------
    >>> real_scalars([0.1, 0.2], "frequencies", positive=True)
    [0.1, 0.2]
    """
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D sequence of numbers; got {values!r}")
    items = [arr.item()] if arr.ndim == 0 else list(arr)
    if not items:
        raise ValueError(f"{name} must not be empty; got {values!r}")
    if positive:
        return [check_positive(v, name) for v in items]
    return [finite(v, name) for v in items]


def _bool_or_none(value: Any, name: str) -> bool | None:
    if value is not None and not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True, False or None; got {value!r}")
    return None if value is None else bool(value)


def check_truncated(truncated: Any) -> bool:
    """The ``truncated`` flag of the scikit-image drop-ins: True or False.

    Examples
    --------
    >>> check_truncated(True)
    True
    """
    if not isinstance(truncated, (bool, np.bool_)):
        raise TypeError(f"truncated must be True or False; got {truncated!r}")
    return bool(truncated)


def scipy_radii(sigmas: Any, truncate: float, truncated: bool) -> list[int] | None:
    """scipy's kernel radius per axis, ``int(truncate * sigma + 0.5)``, where ``truncated`` (the
    Gaussian filters' ``radius=``: scipy's truncated kernel itself); None otherwise.

    Examples
    --------
    >>> scipy_radii([1.0, 2.5], 4.0, True), scipy_radii([1.0], 4.0, False)
    ([4, 10], None)
    """
    return [int(truncate * float(s) + 0.5) for s in sigmas] if truncated else None


def check_n_dims(shape: tuple[int, ...], name: str = "image") -> int:
    """The number of axes of an image that must have at least one.

    Examples
    --------
    >>> check_n_dims((4, 5, 6, 7))
    4
    """
    if len(shape) == 0:
        raise ValueError(f"{name} must have at least one axis; got a 0-d array")
    return len(shape)


# --- requests ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HessianRequest:
    """A checked :func:`~sftwave.feature.hessian_matrix` call: the sigmas per axis, the
    boundary, the axes' order, the filters' ``tol`` (None: the filters' default) and
    ``truncate`` (None: the filters' default), the engine and the threads."""

    sigmas: tuple[float, ...]
    mode: str
    cval: float
    order: str
    gaussian_derivatives: bool
    tol: float | None
    truncate: float | None
    engine: str
    workers: int | None = None
    spacing: tuple[float, ...] | None = None


def hessian_request(ndim: int, sigma: Any = 1, mode: Any = "constant", cval: Any = 0,
                    order: Any = "rc", use_gaussian_derivatives: Any = None, tol: Any = None, *,
                    engine: str, workers: Any = None, spacing: Any = None) -> HessianRequest:
    """The request of :func:`~sftwave.feature.hessian_matrix` for an ``ndim``-D image.

    With Gaussian derivatives, ``tol`` defaults to :data:`DERIVATIVE_TOL` and the
    truncation is scikit-image's (:func:`derivative_truncate`).

    Examples
    --------
    >>> hessian_request(2, 1.5, engine="numba").gaussian_derivatives
    False
    """
    if ndim == 0:
        raise ValueError("image must have at least one axis; got a 0-d array")
    sigmas = tuple(axis_sigmas(sigma, ndim))
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = check_order(order, ndim)
    tol = check_tol(tol)
    derivatives = bool(_bool_or_none(use_gaussian_derivatives, "use_gaussian_derivatives"))
    steps = check_spacing(spacing, ndim)
    in_samples = sigmas if steps is None else [s / d for s, d in zip(sigmas, steps)]
    truncate = derivative_truncate(in_samples) if derivatives else None
    if derivatives and tol is None:
        tol = DERIVATIVE_TOL
    return HessianRequest(sigmas, mode, cval, order, derivatives, tol, truncate, engine,
                          check_workers(workers), steps)


@dataclass(frozen=True)
class StructureTensorRequest:
    """A checked :func:`~sftwave.feature.structure_tensor` call."""

    sigmas: tuple[float, ...]
    mode: str
    cval: float
    order: str
    tol: float | None
    engine: str
    workers: int | None = None
    spacing: tuple[float, ...] | None = None


def structure_tensor_request(shape: tuple[int, ...], sigma: Any = 1, mode: Any = "constant",
                             cval: Any = 0, order: Any = "rc", tol: Any = None, *, engine: str,
                             workers: Any = None, spacing: Any = None) -> StructureTensorRequest:
    """The request of :func:`~sftwave.feature.structure_tensor` for an image of ``shape``
    (squeezed of its length-1 axes).

    Examples
    --------
    >>> structure_tensor_request((4, 5), 2, engine="numba").sigmas
    (2.0, 2.0)
    """
    ndim = len(shape)
    if ndim < 2:
        raise ValueError(f"image must have at least 2 axes longer than 1; got shape {shape} "
                         f"after squeezing")
    sigmas = tuple(axis_sigmas(sigma, ndim))
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = check_order(order, ndim)
    return StructureTensorRequest(sigmas, mode, cval, order, check_tol(tol), engine,
                                  check_workers(workers), check_spacing(spacing, ndim))


@dataclass(frozen=True)
class EigenvaluesRequest:
    """A checked eigenvalue call (:func:`~sftwave.feature.hessian_matrix_eigvals`): the
    elements' name in messages, the engine and the threads."""

    name: str
    engine: str
    workers: int | None = None


def eigenvalues_request(name: str, *, engine: str, workers: Any = None) -> EigenvaluesRequest:
    """The request of an eigenvalue call on elements named ``name``.

    Examples
    --------
    >>> eigenvalues_request("H_elems", engine="numba").name
    'H_elems'
    """
    return EigenvaluesRequest(name, engine, check_workers(workers))


@dataclass(frozen=True)
class DoGRequest:
    """A checked :func:`~sftwave.feature.difference_of_gaussians` call: the spatial axes and
    the two sigmas on each."""

    axes: tuple[int, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    mode: str
    cval: float
    truncate: float
    tol: float | None
    engine: str
    workers: int | None = None
    truncated: bool = False


def dog_request(ndim: int, low_sigma: Any, high_sigma: Any = None, *, mode: Any = "nearest",
                cval: Any = 0, channel_axis: Any = None, truncate: Any = 4.0, tol: Any = None,
                engine: str, workers: Any = None, truncated: Any = False) -> DoGRequest:
    """The request of :func:`~sftwave.feature.difference_of_gaussians` for an ``ndim``-D image;
    ``high_sigma`` None: ``1.6 * low_sigma``.

    Examples
    --------
    >>> dog_request(2, 1.0, engine="numba").high
    (1.6, 1.6)
    """
    spatial = list(range(ndim))
    if channel_axis is not None:
        spatial.remove(check_axis(channel_axis, ndim, "channel_axis"))
    low = axis_sigmas(low_sigma, len(spatial), "low_sigma", allow_zero=True)
    high = ([1.6 * s for s in low] if high_sigma is None
            else axis_sigmas(high_sigma, len(spatial), "high_sigma", allow_zero=True))
    if any(h < lo for h, lo in zip(high, low, strict=True)):
        raise ValueError(f"high_sigma must be at least low_sigma on every axis; got "
                         f"low_sigma={low_sigma!r}, high_sigma={high_sigma!r}")
    mode = check_mode(mode)
    cval = check_cval(cval)
    truncate = check_truncate(truncate)
    return DoGRequest(tuple(spatial), tuple(low), tuple(high), mode, cval, truncate,
                      check_tol(tol), engine, check_workers(workers), check_truncated(truncated))


@dataclass(frozen=True, eq=False)
class BlobRequest:
    """A checked :func:`~sftwave.feature.blob_log` or :func:`~sftwave.feature.blob_dog` call.

    ``sigma_list``: the scales' sigmas, ``(scales, ndim)`` in the image's dtype
    (for ``'dog'`` the Gaussians', one more than the scales); ``scalar_sigma``:
    one sigma column in the result; ``border``: the excluded width per axis;
    ``spacing``: the physical size of a sample per axis (None: 1 along every
    axis), the sigmas then physical, ``sigma_list / spacing`` in samples.
    """

    kind: str
    scalar_sigma: bool
    sigma_list: np.ndarray
    sigma_ratio: float | None
    threshold: float | None
    threshold_rel: float | None
    overlap: float
    border: tuple[int, ...]
    tol: float | None
    engine: str
    workers: int | None = None
    truncated: bool = False
    spacing: tuple[float, ...] | None = None


def blob_spacing(spacing: Any, ndim: int) -> tuple[float, ...] | None:
    """The blob detectors' ``spacing``, checked: None where it is None or 1 along every axis
    (then the sigmas are in samples, and the blobs exactly those without spacing).

    Examples
    --------
    >>> blob_spacing((1, 1), 2) is None, blob_spacing((1, 3), 2)
    (True, (1.0, 3.0))
    """
    steps = check_spacing(spacing, ndim)
    return None if steps is None or all(d == 1.0 for d in steps) else steps


def blob_log_request(shape: tuple[int, ...], dtype: np.dtype, min_sigma: Any = 1,
                     max_sigma: Any = 50, num_sigma: Any = 10, threshold: Any = 0.2,
                     overlap: Any = 0.5, log_scale: Any = False, *, threshold_rel: Any = None,
                     exclude_border: Any = False, tol: Any = None, engine: str,
                     workers: Any = None, truncated: Any = False,
                     spacing: Any = None) -> BlobRequest:
    """The request of :func:`~sftwave.feature.blob_log` for an image of ``shape`` and ``dtype``.

    Examples
    --------
    >>> blob_log_request((8, 8), np.dtype(np.float64), 1, 2, 2, engine="numba").sigma_list.shape
    (2, 2)
    """
    ndim = check_n_dims(shape)
    scalar, sigma_list = log_scales(min_sigma, max_sigma, num_sigma, log_scale, ndim, dtype)
    return BlobRequest("log", scalar, sigma_list, None, real_or_none(threshold, "threshold"),
                       real_or_none(threshold_rel, "threshold_rel"), check_overlap(overlap),
                       exclude_width(exclude_border, ndim), check_tol(tol), engine,
                       check_workers(workers), check_truncated(truncated),
                       blob_spacing(spacing, ndim))


def blob_dog_request(shape: tuple[int, ...], dtype: np.dtype, min_sigma: Any = 1,
                     max_sigma: Any = 50, sigma_ratio: Any = 1.6, threshold: Any = 0.5,
                     overlap: Any = 0.5, *, threshold_rel: Any = None, exclude_border: Any = False,
                     tol: Any = None, engine: str, workers: Any = None,
                     truncated: Any = False, spacing: Any = None) -> BlobRequest:
    """The request of :func:`~sftwave.feature.blob_dog` for an image of ``shape`` and ``dtype``.

    Examples
    --------
    >>> blob_dog_request((8, 8), np.dtype(np.float64), 1, 2, 2.0, engine="numba").sigma_ratio
    2.0
    """
    ndim = check_n_dims(shape)
    scalar, sigma_list = dog_scales(min_sigma, max_sigma, sigma_ratio, ndim, dtype)
    return BlobRequest("dog", scalar, sigma_list, float(sigma_ratio),
                       real_or_none(threshold, "threshold"),
                       real_or_none(threshold_rel, "threshold_rel"), check_overlap(overlap),
                       exclude_width(exclude_border, ndim), check_tol(tol), engine,
                       check_workers(workers), check_truncated(truncated),
                       blob_spacing(spacing, ndim))


@dataclass(frozen=True)
class RidgeRequest:
    """A checked :func:`~sftwave.feature.frangi`, :func:`~sftwave.feature.sato` or
    :func:`~sftwave.feature.meijering` call (``alpha``, ``beta``, ``gamma``: the filter's
    weights, None where it has none; ``gamma`` None: Frangi's default from the first scale)."""

    kind: str
    sigmas: tuple[float, ...]
    black_ridges: bool
    mode: str
    cval: float
    tol: float | None
    alpha: float | None
    beta: float | None
    gamma: float | None
    engine: str
    workers: int | None = None


_RIDGES = ("frangi", "sato", "meijering")


def ridge_request(kind: str, shape: tuple[int, ...], sigmas: Any = range(1, 10, 2), black_ridges: Any = True,
                  mode: Any = "reflect", cval: Any = 0, tol: Any = None, *, alpha: Any = None,
                  beta: Any = None, gamma: Any = None, scale_range: Any = None,
                  scale_step: Any = None, engine: str, workers: Any = None) -> RidgeRequest:
    """The request of the ridge filter ``kind`` (``'frangi'``, ``'sato'``, ``'meijering'``)
    for an image of ``shape``.

    Frangi's ``alpha`` and ``beta`` must be given (positive); Meijering's ``alpha``
    None is ``1 / (ndim + 1)``; ``scale_range`` with ``scale_step`` (Frangi's
    deprecated way) give ``sigmas = np.arange(*scale_range, scale_step)``.

    Examples
    --------
    >>> ridge_request("meijering", (5, 5), [1, 2], engine="numba").alpha
    0.3333333333333333
    """
    kind = check_choice(kind, _RIDGES, "kind")
    if scale_range is not None and scale_step is not None:
        sigmas = np.arange(scale_range[0], scale_range[1], scale_step)
    ndim = len(shape)
    if ndim not in (2, 3):
        raise ValueError(f"image must be 2-D or 3-D; got {ndim}-D, shape {shape}")
    scales = list(sigmas) if isinstance(sigmas, Iterable) else [sigmas]
    sigma_list = tuple(check_positive(s, "sigmas") for s in scales)
    mode, cval, tol = check_mode(mode), check_cval(cval), check_tol(tol)
    if kind == "frangi":
        alpha, beta = check_positive(alpha, "alpha"), check_positive(beta, "beta")
        gamma = None if gamma is None else check_positive(gamma, "gamma")
    elif kind == "meijering":
        alpha = meijering_alpha(alpha, ndim)
    return RidgeRequest(kind, sigma_list, bool(black_ridges), mode, cval, tol, alpha, beta, gamma,
                        engine, check_workers(workers))


@dataclass(frozen=True)
class GaborRequest:
    """A checked :func:`~sftwave.feature.gabor` or :func:`~sftwave.feature.gabor_bank` call."""

    frequencies: tuple[float, ...]
    thetas: tuple[float, ...]
    bandwidth: float
    sigma_x: float | None
    sigma_y: float | None
    n_stds: float
    offset: float
    mode: str
    cval: float
    tol: float | None
    engine: str
    workers: int | None = None
    truncated: bool = False


def gabor_request(frequencies: Any, thetas: Any, bandwidth: Any = 1, sigma_x: Any = None,
                  sigma_y: Any = None, n_stds: Any = 3, offset: Any = 0, mode: Any = "reflect",
                  cval: Any = 0, tol: Any = None, *, engine: str, workers: Any = None,
                  single: bool = False, truncated: Any = False) -> GaborRequest:
    """The request of :func:`~sftwave.feature.gabor_bank` (``single``: of
    :func:`~sftwave.feature.gabor`, one ``frequency`` and one ``theta``).

    Examples
    --------
    >>> gabor_request([0.1, 0.2], 0.0, engine="numba").frequencies
    (0.1, 0.2)
    """
    bandwidth = check_positive(bandwidth, "bandwidth")
    sx = None if sigma_x is None else check_positive(sigma_x, "sigma_x")
    sy = None if sigma_y is None else check_positive(sigma_y, "sigma_y")
    n_stds = check_positive(n_stds, "n_stds")
    offset = finite(offset, "offset")
    mode, cval, tol = check_mode(mode), check_cval(cval), check_tol(tol)
    if single:
        freqs = [check_positive(frequencies, "frequency")]
        angles = [finite(thetas, "theta")]
    else:
        freqs = real_scalars(frequencies, "frequencies", positive=True)
        angles = real_scalars(thetas, "thetas", positive=False)
    return GaborRequest(tuple(freqs), tuple(angles), bandwidth, sx, sy, n_stds, offset, mode, cval,
                        tol, engine, check_workers(workers), check_truncated(truncated))


#: The keywords of scikit-image 0.26's ``skimage.filters.gaussian``.
SKIMAGE_GAUSSIAN_KEYWORDS = frozenset({"image", "sigma", "mode", "cval", "preserve_range",
                                       "truncate", "channel_axis", "out"})


@dataclass(frozen=True, eq=False)
class SkimageGaussianRequest:
    """A checked :func:`sftwave.skimage.filters.gaussian` call: the sigma per axis (0 on the
    channel axis), the modes (one, or one per axis), the conversion, the float dtype of
    the result, the output array (or None) and whether scipy's truncated kernel is asked."""

    sigmas: tuple[float, ...]
    mode: str | tuple[str, ...]
    cval: float
    preserve_range: bool
    truncate: float
    dtype: np.dtype
    out: np.ndarray | None
    tol: float | None
    truncated: bool
    engine: str
    workers: int | None = None


def _gaussian_sigmas(sigma: Any, ndim: int, channel_axis: Any) -> tuple[float, ...]:
    """scikit-image's sigmas of ``gaussian``: one per axis, 0 inserted at ``channel_axis``."""
    if np.any(np.asarray(sigma, dtype=object) < 0.0):
        raise ValueError(f"Sigma values less than zero are not valid; got sigma={sigma!r}")
    sigmas = sigma
    if channel_axis is not None:
        axis = check_axis(channel_axis, ndim, "channel_axis")
        if not isinstance(sigma, Iterable):
            sigmas = [sigma] * (ndim - 1)
        if len(sigmas) == ndim - 1:
            sigmas = list(sigmas)
            sigmas.insert(axis, 0)
    return tuple(check_positive(s, "sigma", allow_zero=True) for s in per_axis(sigmas, ndim, "sigma"))


def skimage_gaussian_request(shape: tuple[int, ...], dtype: np.dtype, sigma: Any = 1, *,
                             mode: Any = "nearest", cval: Any = 0, preserve_range: Any = False,
                             truncate: Any = 4.0, channel_axis: Any = None, out: Any = None,
                             tol: Any = None, truncated: Any = False, engine: str,
                             workers: Any = None) -> SkimageGaussianRequest:
    """The request of :func:`sftwave.skimage.filters.gaussian` for an image of ``shape`` and
    (input) ``dtype``, with scikit-image 0.26's rules: a negative sigma refused, a scalar
    sigma (or one per spatial axis) with 0 on the channel axis, integer images converted
    to float64 (rescaled unless ``preserve_range``), float16 to float32, ``out`` a float array.

    Examples
    --------
    >>> req = skimage_gaussian_request((8, 8, 3), np.dtype(np.uint8), 2, channel_axis=-1,
    ...                                engine="numba")
    >>> req.sigmas, req.dtype
    ((2.0, 2.0, 0.0), dtype('float64'))
    """
    ndim = check_n_dims(shape)
    if dtype.kind not in "biuf" or dtype.itemsize > 8:
        raise TypeError(f"image must be a real (bool, integer or float) array of at most 64 "
                        f"bits; got dtype {dtype}")
    sigmas = _gaussian_sigmas(sigma, ndim, channel_axis)
    modes = (check_mode(mode) if isinstance(mode, str)
             else tuple(check_mode(m) for m in per_axis(mode, ndim, "mode")))
    if not isinstance(preserve_range, (bool, np.bool_)):
        raise TypeError(f"preserve_range must be True or False; got {preserve_range!r}")
    float_dtype = np.dtype(np.float32 if dtype in (np.float16, np.float32) else np.float64)
    if out is not None:
        if not isinstance(out, np.ndarray) or out.dtype.kind != "f":
            raise ValueError(f"dtype of `out` must be float; got {getattr(out, 'dtype', out)!r}.")
        if out.shape != tuple(shape):
            raise ValueError(f"out must have the image's shape {tuple(shape)}; got {out.shape}")
    return SkimageGaussianRequest(sigmas, modes, check_cval(cval), bool(preserve_range),
                                  check_truncate(truncate), float_dtype, out, check_tol(tol),
                                  check_truncated(truncated), engine, check_workers(workers))


@dataclass(frozen=True)
class HessianDetRequest:
    """A checked :func:`~sftwave.feature.hessian_matrix_det` call."""

    sigma: float
    approximate: bool


def hessian_det_request(ndim: int, sigma: Any = 1, approximate: Any = True) -> HessianDetRequest:
    """The request of :func:`~sftwave.feature.hessian_matrix_det` for an ``ndim``-D image.

    Examples
    --------
    >>> hessian_det_request(2, 3).approximate
    True
    """
    if ndim == 0:
        raise ValueError("image must have at least one axis; got a 0-d array")
    if not isinstance(approximate, (bool, np.bool_)):
        raise TypeError(f"approximate must be True or False; got {approximate!r}")
    return HessianDetRequest(check_positive(sigma, "sigma"), bool(approximate))


def complex_dtype(dtype: Any) -> np.dtype:
    """A complex dtype (scikit-image's ``gabor_kernel``'s ``dtype``).

    Examples
    --------
    >>> complex_dtype(np.complex64)
    dtype('complex64')
    """
    try:
        dt = np.dtype(dtype)
    except TypeError as err:
        raise TypeError(f"dtype must be a complex dtype; got {dtype!r}") from err
    if dt.kind != "c":
        raise ValueError(f"dtype must be complex; got {dtype!r}")
    return dt


def gabor_image(arr: np.ndarray) -> np.ndarray:
    """A Gabor filter's image: 2-D and real (scikit-image's ``gabor``), else an error naming it.

    Examples
    --------
    >>> gabor_image(np.zeros((4, 5))).shape
    (4, 5)
    """
    if arr.ndim != 2:
        raise ValueError(f"image must be 2-D; got a {arr.ndim}-D array of shape {arr.shape}")
    if arr.dtype.kind == "c":
        raise TypeError(f"image must be real (bool, integer or float); got dtype {arr.dtype}")
    return arr


def check_direct_kernel(too_wide: bool, size: tuple[int, int], shape: tuple, frequency: float,
                        theta: float, sigma_x: float, sigma_y: float) -> None:
    """Refuse a direct Gabor kernel of ``size`` far larger than an image of ``shape`` (its
    memory and time would not be bounded by the image's): a ValueError naming the sigmas.

    Examples
    --------
    >>> check_direct_kernel(False, (9, 9), (64, 64), 0.2, 0.0, 1.0, 1.0)
    """
    if too_wide:
        raise ValueError(
            f"sigma_x={sigma_x:g}, sigma_y={sigma_y:g} (frequency={frequency:g}, theta={theta:g}) "
            f"need a direct kernel of {size[0]} x {size[1]} for a {shape[0]} x {shape[1]} "
            f"image: far too wide; raise the frequency, lower sigma_x/sigma_y or n_stds, or pass a "
            f"larger (padded) image")
