"""scikit-image 0.26's functions that :mod:`sftwave.skimage` takes over, and when.

Each route names the module that defines the function and the public module
that re-exports it (``skimage.filters`` and ``skimage.feature`` resolve their
names lazily, then keep them as attributes, so the switch replaces those).
Modules inside scikit-image that imported a name for their own use (its
``_canny``, ``slic``, SSIM, ... bind ``skimage._shared.filters.gaussian`` at
import) keep the original.

Each ``accepts_<name>`` predicate binds the call to scikit-image's signature,
checks that the image is a NumPy array of a dtype sftwave covers, and builds
the replacement's request object: it computes nothing, raises nothing, and
returns False for any call sftwave does not cover (an unknown keyword, a
complex or object image, an array of another library, an unknown mode, a
Gabor filter of an integer image, whose integer output scikit-image keeps),
which then reaches scikit-image unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...engines import resolve_engine
from ..route import Route
from ..work import ELEMENT_S, PASS_S, TAP_S, axis_values, elements, gaussian_passes

__all__ = ["routes"]

#: The engine the requests name: the one of NumPy arrays (the routes take nothing else).
_ENGINE = resolve_engine(None, np.empty(0))

_FILTERS = "sftwave.skimage.filters"
_FEATURE = "sftwave.skimage.feature"
_HERE = "sftwave.patch.routes.skimage"


def _image(x: Any, kinds: str = "biuf") -> bool:
    """A NumPy array (not a subclass such as a masked array) of a dtype of ``kinds``, at most
    64 bits."""
    return type(x) is np.ndarray and x.dtype.kind in kinds and x.dtype.itemsize <= 8


def _guard(check: Callable[..., bool]) -> Callable[..., bool]:
    """``check`` returning False instead of raising (a call it cannot bind, a bad argument)."""

    def accepts(*args: Any, **kwargs: Any) -> bool:
        try:
            return bool(check(*args, **kwargs))
        except (TypeError, ValueError):
            return False

    accepts.__name__ = check.__name__
    accepts.__doc__ = check.__doc__
    return accepts


@_guard
def accepts_gaussian(
    image: Any,
    sigma: Any = 1.0,
    *,
    mode: Any = "nearest",
    cval: Any = 0,
    preserve_range: Any = False,
    truncate: Any = 4.0,
    channel_axis: Any = None,
    out: Any = None,
) -> bool:
    """``skimage.filters.gaussian``: a real NumPy image, ``out`` None or a float NumPy array."""
    from ..._checks.features import skimage_gaussian_request

    if not _image(image) or not (out is None or _image(out, "f")):
        return False
    skimage_gaussian_request(
        image.shape,
        image.dtype,
        sigma,
        mode=mode,
        cval=cval,
        preserve_range=preserve_range,
        truncate=truncate,
        channel_axis=channel_axis,
        out=out,
        engine=_ENGINE,
    )
    return True


@_guard
def accepts_difference_of_gaussians(
    image: Any,
    low_sigma: Any,
    high_sigma: Any = None,
    *,
    mode: Any = "nearest",
    cval: Any = 0,
    channel_axis: Any = None,
    truncate: Any = 4.0,
) -> bool:
    """``skimage.filters.difference_of_gaussians``: a real NumPy image."""
    from ..._checks.features import dog_request

    if not _image(image) or image.ndim == 0:
        return False
    dog_request(
        image.ndim,
        low_sigma,
        high_sigma,
        mode=mode,
        cval=cval,
        channel_axis=channel_axis,
        truncate=truncate,
        engine=_ENGINE,
    )
    return True


def _ridge(
    kind: str, image: Any, sigmas: Any, black_ridges: Any, mode: Any, cval: Any, **weights: Any
) -> bool:
    from ..._checks.features import ridge_request

    if not _image(image) or image.ndim not in (2, 3) or not isinstance(black_ridges, (bool, np.bool_)):
        return False
    ridge_request(kind, image.shape, sigmas, black_ridges, mode, cval, engine=_ENGINE, **weights)
    return True


@_guard
def accepts_frangi(
    image: Any,
    sigmas: Any = range(1, 10, 2),
    scale_range: Any = None,
    scale_step: Any = None,
    alpha: Any = 0.5,
    beta: Any = 0.5,
    gamma: Any = None,
    black_ridges: Any = True,
    mode: Any = "reflect",
    cval: Any = 0,
) -> bool:
    """``skimage.filters.frangi``: a real 2-D or 3-D NumPy image."""
    return _ridge(
        "frangi",
        image,
        sigmas,
        black_ridges,
        mode,
        cval,
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        scale_range=scale_range,
        scale_step=scale_step,
    )


@_guard
def accepts_hessian(
    image: Any,
    sigmas: Any = range(1, 10, 2),
    scale_range: Any = None,
    scale_step: Any = None,
    alpha: Any = 0.5,
    beta: Any = 0.5,
    gamma: Any = 15,
    black_ridges: Any = True,
    mode: Any = "reflect",
    cval: Any = 0,
) -> bool:
    """``skimage.filters.hessian``: a real 2-D or 3-D NumPy image."""
    return _ridge(
        "frangi",
        image,
        sigmas,
        black_ridges,
        mode,
        cval,
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        scale_range=scale_range,
        scale_step=scale_step,
    )


@_guard
def accepts_sato(
    image: Any, sigmas: Any = range(1, 10, 2), black_ridges: Any = True, mode: Any = "reflect", cval: Any = 0
) -> bool:
    """``skimage.filters.sato``: a real 2-D or 3-D NumPy image."""
    return _ridge("sato", image, sigmas, black_ridges, mode, cval)


@_guard
def accepts_meijering(
    image: Any,
    sigmas: Any = range(1, 10, 2),
    alpha: Any = None,
    black_ridges: Any = True,
    mode: Any = "reflect",
    cval: Any = 0,
) -> bool:
    """``skimage.filters.meijering``: a real 2-D or 3-D NumPy image."""
    return _ridge("meijering", image, sigmas, black_ridges, mode, cval, alpha=alpha)


@_guard
def accepts_gabor(
    image: Any,
    frequency: Any,
    theta: Any = 0,
    bandwidth: Any = 1,
    sigma_x: Any = None,
    sigma_y: Any = None,
    n_stds: Any = 3,
    offset: Any = 0,
    mode: Any = "reflect",
    cval: Any = 0,
) -> bool:
    """``skimage.filters.gabor``: a 2-D float NumPy image (scikit-image keeps an integer
    image's dtype in its output, sftwave does not)."""
    from ..._checks.features import gabor_request

    if not _image(image, "f") or image.ndim != 2:
        return False
    gabor_request(
        frequency, theta, bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval, engine=_ENGINE, single=True
    )
    return True


@_guard
def accepts_gabor_kernel(
    frequency: Any,
    theta: Any = 0,
    bandwidth: Any = 1,
    sigma_x: Any = None,
    sigma_y: Any = None,
    n_stds: Any = 3,
    offset: Any = 0,
    dtype: Any = np.complex128,
) -> bool:
    """``skimage.filters.gabor_kernel``: real parameters and a complex dtype of at most 128 bits."""
    from ..._checks.features import complex_dtype, gabor_request

    gabor_request(frequency, theta, bandwidth, sigma_x, sigma_y, n_stds, offset, engine=_ENGINE, single=True)
    return complex_dtype(dtype).itemsize <= 16


@_guard
def accepts_hessian_matrix(
    image: Any,
    sigma: Any = 1,
    mode: Any = "constant",
    cval: Any = 0,
    order: Any = "rc",
    use_gaussian_derivatives: Any = None,
) -> bool:
    """``skimage.feature.hessian_matrix``: a real NumPy image."""
    from ..._checks.features import hessian_request

    if not _image(image):
        return False
    hessian_request(image.ndim, sigma, mode, cval, order, use_gaussian_derivatives, engine=_ENGINE)
    return True


@_guard
def accepts_hessian_matrix_det(image: Any, sigma: Any = 1, approximate: Any = True) -> bool:
    """``skimage.feature.hessian_matrix_det``: a real NumPy image, except scikit-image's 2-D
    approximation (the same numbers, and its compiled box filters are faster than sftwave's)."""
    from ..._checks.features import hessian_det_request

    if not _image(image):
        return False
    req = hessian_det_request(image.ndim, sigma, approximate)
    return not (image.ndim == 2 and req.approximate)


@_guard
def accepts_structure_tensor(
    image: Any, sigma: Any = 1, mode: Any = "constant", cval: Any = 0, order: Any = "rc"
) -> bool:
    """``skimage.feature.structure_tensor``: a real NumPy image, 2-D at least once squeezed."""
    from ..._checks.features import structure_tensor_request

    if not _image(image):
        return False
    shape = tuple(n for n in image.shape if n != 1)
    structure_tensor_request(shape, sigma, mode, cval, order, engine=_ENGINE)
    return True


@_guard
def accepts_shape_index(image: Any, sigma: Any = 1, mode: Any = "constant", cval: Any = 0) -> bool:
    """``skimage.feature.shape_index``: a real 2-D NumPy image."""
    from ..._checks.features import hessian_request

    if not _image(image) or image.ndim != 2:
        return False
    hessian_request(2, sigma, mode, cval, "rc", False, engine=_ENGINE)
    return True


def _elements(elems: Any) -> bool:
    """``n (n + 1) / 2`` float NumPy arrays of one shape and dtype."""
    if not isinstance(elems, (list, tuple)) or not elems:
        return False
    first = elems[0]
    if not all(_image(e, "f") and e.shape == first.shape and e.dtype == first.dtype for e in elems):
        return False
    return first.ndim >= 1 and len(elems) == first.ndim * (first.ndim + 1) // 2


@_guard
def accepts_hessian_matrix_eigvals(H_elems: Any) -> bool:
    """``skimage.feature.hessian_matrix_eigvals``: float NumPy elements of one shape and dtype."""
    return _elements(H_elems)


@_guard
def accepts_structure_tensor_eigenvalues(A_elems: Any) -> bool:
    """``skimage.feature.structure_tensor_eigenvalues``: as :func:`accepts_hessian_matrix_eigvals`."""
    return _elements(A_elems)


def _blob_image(image: Any) -> bool:
    return _image(image) and image.ndim >= 1


def _blob_dtype(image: np.ndarray) -> np.dtype:
    """The blob detectors' working dtype: float32 for float16/float32 images, else float64."""
    return np.dtype(np.float32 if image.dtype in (np.float16, np.float32) else np.float64)


@_guard
def accepts_blob_log(
    image: Any,
    min_sigma: Any = 1,
    max_sigma: Any = 50,
    num_sigma: Any = 10,
    threshold: Any = 0.2,
    overlap: Any = 0.5,
    log_scale: Any = False,
    *,
    threshold_rel: Any = None,
    exclude_border: Any = False,
) -> bool:
    """``skimage.feature.blob_log``: a real NumPy image of any number of axes."""
    from ..._checks.features import blob_log_request

    if not _blob_image(image):
        return False
    dtype = _blob_dtype(image)
    blob_log_request(
        image.shape,
        dtype,
        min_sigma,
        max_sigma,
        num_sigma,
        threshold,
        overlap,
        log_scale,
        threshold_rel=threshold_rel,
        exclude_border=exclude_border,
        engine=_ENGINE,
    )
    return True


@_guard
def accepts_blob_dog(
    image: Any,
    min_sigma: Any = 1,
    max_sigma: Any = 50,
    sigma_ratio: Any = 1.6,
    threshold: Any = 0.5,
    overlap: Any = 0.5,
    *,
    threshold_rel: Any = None,
    exclude_border: Any = False,
) -> bool:
    """``skimage.feature.blob_dog``: a real NumPy image of any number of axes."""
    from ..._checks.features import blob_dog_request

    if not _blob_image(image):
        return False
    dtype = _blob_dtype(image)
    blob_dog_request(
        image.shape,
        dtype,
        min_sigma,
        max_sigma,
        sigma_ratio,
        threshold,
        overlap,
        threshold_rel=threshold_rel,
        exclude_border=exclude_border,
        engine=_ENGINE,
    )
    return True


@_guard
def accepts_multiscale_basic_features(
    image: Any,
    intensity: Any = True,
    edges: Any = True,
    texture: Any = True,
    sigma_min: Any = 0.5,
    sigma_max: Any = 16,
    num_sigma: Any = None,
    workers: Any = None,
    *,
    channel_axis: Any = None,
) -> bool:
    """``skimage.feature.multiscale_basic_features``: a real NumPy image of at least 2 axes."""
    from ..._checks.multiscale import multiscale_request

    if not _image(image) or image.ndim < 2:
        return False
    multiscale_request(image.shape, intensity, edges, texture, sigma_min, sigma_max, num_sigma,
                       workers, channel_axis=channel_axis, engine=_ENGINE)
    return True


#: (name, the modules that hold it, the sftwave module that replaces it).
_TABLE = [
    ("gaussian", ("skimage._shared.filters", "skimage.filters._gaussian", "skimage.filters"), _FILTERS),
    ("difference_of_gaussians", ("skimage.filters._gaussian", "skimage.filters"), _FILTERS),
    ("frangi", ("skimage.filters.ridges", "skimage.filters"), _FILTERS),
    ("hessian", ("skimage.filters.ridges", "skimage.filters"), _FILTERS),
    ("sato", ("skimage.filters.ridges", "skimage.filters"), _FILTERS),
    ("meijering", ("skimage.filters.ridges", "skimage.filters"), _FILTERS),
    ("gabor", ("skimage.filters._gabor", "skimage.filters"), _FILTERS),
    ("gabor_kernel", ("skimage.filters._gabor", "skimage.filters"), _FILTERS),
    ("hessian_matrix", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("hessian_matrix_eigvals", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("hessian_matrix_det", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("structure_tensor", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("structure_tensor_eigenvalues", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("shape_index", ("skimage.feature.corner", "skimage.feature"), _FEATURE),
    ("blob_log", ("skimage.feature.blob", "skimage.feature"), _FEATURE),
    ("blob_dog", ("skimage.feature.blob", "skimage.feature"), _FEATURE),
    ("multiscale_basic_features", ("skimage.feature._basic_features", "skimage.feature"),
     _FEATURE),
]


# ----------------------------------------------------------------------------- work
# scikit-image's estimated seconds for each call (:mod:`sftwave.patch.work`), from its
# arguments bound to scikit-image's signature.  Its filters are scipy.ndimage's separable
# Gaussians; its Hessians by Gaussian derivatives one such Gaussian per element of the matrix.


def _shape(a: dict[str, Any], name: str = "image") -> tuple[int, ...]:
    return tuple(np.shape(a[name]))


def _blur(shape: tuple[int, ...], sigma: Any, truncate: float = 4.0, channel_axis: Any = None) -> float:
    """One Gaussian of every axis but the channels'."""
    sigmas = axis_values(sigma, len(shape))
    if channel_axis is not None and len(shape):
        c = int(channel_axis) % len(shape)
        spatial = axis_values(sigma, len(shape) - 1)
        sigmas = spatial[:c] + [0.0] + spatial[c:]
    return gaussian_passes(shape, sigmas, truncate)


def _hessian(shape: tuple[int, ...], sigma: Any, derivatives: bool) -> float:
    """``hessian_matrix``: by Gaussian derivatives, one Gaussian per element of the
    matrix; by differences, one Gaussian and two gradients."""
    n = len(shape)
    if derivatives:
        return n * (n + 1) // 2 * _blur(shape, sigma)
    return _blur(shape, sigma) + elements(shape) * n * (n + 1)


def _eigen(shape: tuple[int, ...]) -> float:
    n = len(shape)
    return elements(shape) * n * n


def work_gaussian(a: dict[str, Any]) -> float:
    """``gaussian``: the conversion to float and the Gaussian."""
    shape = _shape(a)
    return elements(shape) + _blur(shape, a["sigma"], float(a["truncate"]), a["channel_axis"])


def work_difference_of_gaussians(a: dict[str, Any]) -> float:
    """``difference_of_gaussians``: two Gaussians."""
    shape = _shape(a)
    high = a["high_sigma"] if a["high_sigma"] is not None else np.asarray(a["low_sigma"]) * 1.6
    return sum(_blur(shape, s, float(a["truncate"]), a["channel_axis"]) for s in (a["low_sigma"], high))


#: The ridge filters' work per pixel and sigma beside the Hessian: its eigenvalues by
#: ``numpy.linalg.eigvalsh`` on a stack of small matrices, sorted, and the filter's formula.
_RIDGE_PIXEL = 60 * ELEMENT_S


def _ridge_work(a: dict[str, Any]) -> float:
    """The ridge filters: a Hessian by Gaussian derivatives, its eigenvalues and the filter's
    formula per sigma."""
    shape = _shape(a)
    if a.get("scale_range") is not None:
        sigmas = np.arange(a["scale_range"][0], a["scale_range"][1], a["scale_step"] or 2)
    else:
        sigmas = np.atleast_1d(np.asarray(list(a["sigmas"]), dtype=float))
    return sum(_hessian(shape, s, True) + elements(shape, _RIDGE_PIXEL) for s in sigmas)


work_frangi = work_hessian = work_sato = work_meijering = _ridge_work


def _gabor_half_sizes(a: dict[str, Any]) -> tuple[float, float]:
    """scikit-image's Gabor kernel's half sizes, from its sigmas and ``n_stds``."""
    b, f = float(a["bandwidth"]), float(a["frequency"])
    prefactor = np.sqrt(np.log(2) / 2) / np.pi * (2.0**b + 1) / (2.0**b - 1)
    sx = prefactor / f if a["sigma_x"] is None else float(a["sigma_x"])
    sy = prefactor / f if a["sigma_y"] is None else float(a["sigma_y"])
    ct, st, n = abs(np.cos(a["theta"])), abs(np.sin(a["theta"])), float(a["n_stds"])
    return max(n * sx * ct, n * sy * st, 1.0), max(n * sy * ct, n * sx * st, 1.0)


def work_gabor(a: dict[str, Any]) -> float:
    """``gabor``: two dense 2-D convolutions (real and imaginary) by the kernel."""
    x0, y0 = _gabor_half_sizes(a)
    taps = (2 * np.ceil(x0) + 1) * (2 * np.ceil(y0) + 1)
    return 2 * elements(_shape(a), PASS_S + TAP_S * taps)


def work_gabor_kernel(a: dict[str, Any]) -> float:
    """``gabor_kernel``: the kernel's values, a complex exponential each."""
    x0, y0 = _gabor_half_sizes(a)
    return (2 * np.ceil(x0) + 1) * (2 * np.ceil(y0) + 1) * 4 * ELEMENT_S


def work_hessian_matrix(a: dict[str, Any]) -> float:
    """``hessian_matrix``: by Gaussian derivatives or by differences of the smoothed image."""
    return _hessian(_shape(a), a["sigma"], bool(a["use_gaussian_derivatives"]))


def work_hessian_matrix_eigvals(a: dict[str, Any]) -> float:
    """``hessian_matrix_eigvals``: the eigenvalues of each element's matrix."""
    return _eigen(tuple(np.shape(a["H_elems"][0])))


def work_structure_tensor_eigenvalues(a: dict[str, Any]) -> float:
    """``structure_tensor_eigenvalues``: as the Hessian's."""
    return _eigen(tuple(np.shape(a["A_elems"][0])))


def work_hessian_matrix_det(a: dict[str, Any]) -> float:
    """``hessian_matrix_det`` (``approximate=False``): the Hessian and its determinant."""
    shape = _shape(a)
    return _hessian(shape, a["sigma"], False) + _eigen(shape)


def work_structure_tensor(a: dict[str, Any]) -> float:
    """``structure_tensor``: the gradients, their products, a Gaussian of each."""
    shape = _shape(a)
    n = len(shape)
    return elements(shape) * n * 4 + n * (n + 1) // 2 * _blur(shape, a["sigma"])


def work_shape_index(a: dict[str, Any]) -> float:
    """``shape_index``: a Hessian by Gaussian derivatives, its eigenvalues, an arctangent."""
    shape = _shape(a)
    return _hessian(shape, a["sigma"], True) + _eigen(shape) + elements(shape) * 4


def _peaks(shape: tuple[int, ...], layers: int) -> float:
    """``peak_local_max`` over the scale-space cube: a 3-wide maximum along each axis."""
    return layers * elements(shape, (len(shape) + 1) * (PASS_S + 3 * TAP_S))


def work_blob_log(a: dict[str, Any]) -> float:
    """``blob_log``: a Laplacian of Gaussian per sigma (a Gaussian derivative per axis),
    then the cube's local maxima."""
    shape = _shape(a)
    k = int(a["num_sigma"])
    lo, hi = (np.mean(axis_values(a[m], len(shape))) for m in ("min_sigma", "max_sigma"))
    sigmas = np.geomspace(lo, hi, k) if a["log_scale"] and lo > 0 else np.linspace(lo, hi, k)
    return sum(len(shape) * _blur(shape, s) for s in sigmas) + _peaks(shape, k)


def work_blob_dog(a: dict[str, Any]) -> float:
    """``blob_dog``: a Gaussian per sigma of the geometric ladder, then the cube's maxima."""
    shape = _shape(a)
    lo, hi = (np.mean(axis_values(a[m], len(shape))) for m in ("min_sigma", "max_sigma"))
    ratio = float(a["sigma_ratio"])
    k = int(np.log(hi / lo) / np.log(ratio) + 1) if hi > lo > 0 and ratio > 1 else 1
    return sum(_blur(shape, lo * ratio**i) for i in range(k + 1)) + _peaks(shape, k)


def work_multiscale_basic_features(a: dict[str, Any]) -> float:
    """``multiscale_basic_features``: per channel and sigma a Gaussian, its Sobel edges and
    the eigenvalues of its Hessian by differences."""
    shape = _shape(a)
    channels = 1
    if a["channel_axis"] is not None:
        c = int(a["channel_axis"]) % len(shape)
        channels, shape = shape[c], shape[:c] + shape[c + 1:]
    lo, hi = float(a["sigma_min"]), float(a["sigma_max"])
    k = int(a["num_sigma"]) if a["num_sigma"] is not None else int(np.log2(hi) - np.log2(lo) + 1)
    n = len(shape)
    edges = n * elements(shape, n * (PASS_S + 3 * TAP_S))  # a Sobel filter per axis
    texture = _hessian(shape, 0, False) + _eigen(shape)  # differences of the smoothed image
    return channels * sum(_blur(shape, s) + edges + texture for s in np.geomspace(lo, hi, max(k, 1)))


def routes() -> list[Route]:
    """The routes of scikit-image 0.26's functions that :mod:`sftwave.skimage` provides.

    Returns
    -------
    list of Route
        One per function, its defining module first in ``where``.

    Examples
    --------
    >>> [r.name for r in routes()][:3]
    ['gaussian', 'difference_of_gaussians', 'frangi']
    """
    return [
        Route("skimage", name, where, f"{module}:{name}", f"{_HERE}:accepts_{name}",
              work=f"{_HERE}:work_{name}")
        for name, where, module in _TABLE
    ]
