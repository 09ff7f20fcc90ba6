"""The image features' arguments, checked when the lazy result is made (as the in-memory
functions check them), and the image's working dtype.

Until the features' request objects exist (issue 33, item 1: ``_checks/features.py``),
this is the one place the dask wrappers of :mod:`sftwave.feature` check their
arguments, with the shared parsers of ``sftwave._checks``: swap
:func:`checked_image` and :func:`check_options` for the request builders then.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import (
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_positive,
    check_tol,
    check_truncate,
    per_axis,
)
from ..feature._common import as_float
from ._core import dask_array
from ._wrap import Call

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["checked_image", "check_options", "scales_of", "dog_sigmas"]


def checked_image(call: Call, ndims: tuple[int, ...] | None = None,
                  name: str = "image") -> tuple[Any, da.Array, np.dtype]:
    """``(dask.array, the image, its working dtype)``: scikit-image's ``img_as_float`` dtype
    (float32 for float16 and float32, else float64; complex refused), the number of axes
    one of ``ndims`` (None: at least one)."""

    da, x = dask_array(call[name])
    dtype = as_float(np.empty((0,) * x.ndim, x.dtype), name).dtype    # the dtype rule only
    if ndims is None and x.ndim == 0:
        raise ValueError(f"{name} must have at least one axis; got a 0-d array")
    if ndims is not None and x.ndim not in ndims:
        which = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {which}; got {x.ndim}-D, shape {tuple(x.shape)}")
    return da, x, dtype


def scales_of(sigmas: Any) -> list[float]:
    """The ridge filters' ``sigmas``: each positive and finite."""
    scales = list(sigmas) if isinstance(sigmas, Iterable) else [sigmas]
    return [check_positive(s, "sigmas") for s in scales]


def _real_or_none(value: Any, name: str) -> None:
    if value is None:
        return
    if not isinstance(value, (numbers.Real, np.floating, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a real number or None; got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be finite; got {value!r}")


def check_options(call: Call, ndim: int) -> None:
    """The options of a feature call that it has, checked as in memory (names, wording)."""
    a = call.args
    if "mode" in a:
        check_mode(a["mode"])
    if "cval" in a:
        check_cval(a["cval"])
    if "tol" in a:
        check_tol(a["tol"])
    if "truncate" in a:
        check_truncate(a["truncate"])
    if "sigma" in a:
        for s in per_axis(a["sigma"], ndim, "sigma"):
            check_positive(s, "sigma")
    if "order" in a:
        if check_choice(a["order"], ("rc", "xy"), "order") == "xy" and ndim != 2:
            raise ValueError(f"order='xy' is only supported for 2-D images; got a {ndim}-D image")
    ugd = a.get("use_gaussian_derivatives")
    if ugd is not None and not isinstance(ugd, (bool, np.bool_)):
        raise TypeError(f"use_gaussian_derivatives must be True, False or None; got {ugd!r}")
    for name in ("beta", "gamma") if "beta" in a else ():       # frangi's weights
        if a[name] is not None:
            check_positive(a[name], name)
    if "beta" in a:
        check_positive(a["alpha"], "alpha")
    elif "alpha" in a:                                          # meijering's
        _real_or_none(a["alpha"], "alpha")


def dog_sigmas(call: Call, x: da.Array) -> tuple[list[int], list[float], list[float]]:
    """:func:`~sftwave.feature.difference_of_gaussians`'s spatial axes and its two sigmas per
    axis (``high_sigma`` None: 1.6 ``low_sigma``), checked."""
    spatial = list(range(x.ndim))
    if call["channel_axis"] is not None:
        spatial.remove(check_axis(call["channel_axis"], x.ndim, "channel_axis"))
    low = [check_positive(s, "low_sigma", allow_zero=True)
           for s in per_axis(call["low_sigma"], len(spatial), "low_sigma")]
    high = ([1.6 * s for s in low] if call["high_sigma"] is None
            else [check_positive(s, "high_sigma", allow_zero=True)
                  for s in per_axis(call["high_sigma"], len(spatial), "high_sigma")])
    if any(h < lo for h, lo in zip(high, low)):
        raise ValueError(f"high_sigma must be at least low_sigma on every axis; got "
                         f"low_sigma={call['low_sigma']!r}, high_sigma={call['high_sigma']!r}")
    return spatial, low, high
