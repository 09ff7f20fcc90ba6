"""Input rules shared by the image features: scikit-image's ``img_as_float``, sigmas, ``order``."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import engines
from .._checks import (
    check_choice,
    check_input_array,
    check_positive,
    per_axis,
)


def as_float(image: Any, name: str = "image") -> np.ndarray:
    """scikit-image's ``img_as_float`` (float16 to float32, integers rescaled by their range);
    an array-API array (torch, CuPy) stays one, on its device."""
    if is_xp(image):
        from ..engines.array_api.features import as_float as xp_as_float

        return xp_as_float(image, name)
    arr = check_input_array(image, name)
    kind = arr.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {arr.dtype}")
    if kind == "b":
        return arr.astype(np.float64)
    if kind == "u":
        return arr.astype(np.float64) * (1.0 / np.iinfo(arr.dtype).max)
    if kind == "i":
        out = arr.astype(np.float64) * (1.0 / np.iinfo(arr.dtype).max)
        return np.maximum(out, -1.0, out=out)
    if arr.dtype == np.float16:
        return arr.astype(np.float32)
    if arr.dtype not in (np.float32, np.float64):
        return arr.astype(np.float64)
    return arr


def is_xp(x: Any) -> bool:
    """Whether ``x`` is an array-API array that is not numpy's (torch, CuPy): the 'xp' engine's."""
    return not isinstance(x, np.ndarray) and engines.resolve_engine(None, x) == "xp"


def gradient(a: Any, axis: int) -> Any:
    """``np.gradient(a, axis=axis)``, also for array-API arrays."""
    if is_xp(a):
        from ..engines.array_api.features import gradient as xp_gradient

        return xp_gradient(a, axis)
    return np.gradient(a, axis=axis)


def axis_sigmas(sigma: Any, ndim: int, name: str = "sigma", *, allow_zero: bool = False) -> list[float]:
    """One positive (or zero) finite sigma per axis, from a scalar or a sequence."""
    return [check_positive(s, name, allow_zero=allow_zero) for s in per_axis(sigma, ndim, name)]


def check_order(order: Any, ndim: int) -> str:
    """'rc' or 'xy'; 'xy' only for 2-D images (scikit-image's rule)."""
    order = check_choice(order, ("rc", "xy"), "order")
    if order == "xy" and ndim != 2:
        raise ValueError(f"order='xy' is only supported for 2-D images; got a {ndim}-D image")
    return order


def nan_extreme(cube: np.ndarray, largest: bool) -> Any:
    """The cube's largest (or smallest) value over its non-NaN entries; NaN if there is none."""
    value = cube.max() if largest else cube.min()
    if np.isnan(value):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # all NaN: NaN, no peak
            value = np.nanmax(cube) if largest else np.nanmin(cube)
    return value
