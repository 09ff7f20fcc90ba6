"""The image features' arguments, checked when the lazy result is made by the in-memory
functions' own request builders (``sftwave._checks.features``), and the image's working dtype.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks.dask import image_axes
from .._checks.features import (
    DoGRequest,
    GaborRequest,
    HessianRequest,
    RidgeRequest,
    StructureTensorRequest,
    dog_request,
    gabor_request,
    hessian_request,
    ridge_request,
    structure_tensor_request,
)
from ..feature._common import as_float
from ._core import dask_array, engine_of
from ._wrap import Call

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["checked_image", "hessian_of", "structure_tensor_of", "dog_of", "ridge_of", "gabor_of"]


def checked_image(call: Call, ndims: tuple[int, ...] | None = None,
                  name: str = "image") -> tuple[Any, da.Array, np.dtype]:
    """``(dask.array, the image, its working dtype)``: scikit-image's ``img_as_float`` dtype
    (float32 for float16 and float32, else float64; complex refused), the number of axes
    one of ``ndims`` (None: at least one)."""

    da, x = dask_array(call[name])
    dtype = as_float(np.empty((0,) * x.ndim, x.dtype), name).dtype    # the dtype rule only
    image_axes(tuple(x.shape), ndims, name)
    return da, x, dtype


def _engine(call: Call, x: da.Array) -> dict[str, Any]:
    """The request builders' ``engine`` (the blocks' engine) and ``workers``."""
    return {"engine": engine_of(x, call["engine"]), "workers": call["workers"]}


def hessian_of(call: Call, x: da.Array) -> HessianRequest:
    """:func:`~sftwave.feature.hessian_matrix`'s request for this call."""
    return hessian_request(x.ndim, call["sigma"], call["mode"], call["cval"], call["order"],
                           call["use_gaussian_derivatives"], call["tol"], **_engine(call, x),
                           spacing=call["spacing"])


def structure_tensor_of(call: Call, x: da.Array) -> StructureTensorRequest:
    """:func:`~sftwave.feature.structure_tensor`'s request for this call (the image's
    length-1 axes left out, as in memory)."""
    shape = tuple(int(d) for d in x.shape if d != 1)
    return structure_tensor_request(shape, call["sigma"], call["mode"], call["cval"],
                                    call["order"], call["tol"], **_engine(call, x),
                                    spacing=call["spacing"])


def dog_of(call: Call, x: da.Array) -> DoGRequest:
    """:func:`~sftwave.feature.difference_of_gaussians`'s request for this call."""
    return dog_request(x.ndim, call["low_sigma"], call["high_sigma"], mode=call["mode"],
                       cval=call["cval"], channel_axis=call["channel_axis"],
                       truncate=call["truncate"], tol=call["tol"], **_engine(call, x))


def ridge_of(kind: str, call: Call, x: da.Array) -> RidgeRequest:
    """The request of the ridge filter ``kind`` for this call (its scales in ``sigmas``)."""
    a = call.args
    return ridge_request(kind, tuple(x.shape), a["sigmas"], a["black_ridges"], a["mode"], a["cval"],
                         a["tol"], alpha=a.get("alpha"), beta=a.get("beta"), gamma=a.get("gamma"),
                         scale_range=a.get("scale_range"), scale_step=a.get("scale_step"),
                         **_engine(call, x))


def gabor_of(call: Call, x: da.Array, *, single: bool = False) -> GaborRequest:
    """:func:`~sftwave.feature.gabor_bank`'s (``single``: :func:`~sftwave.feature.gabor`'s)
    request for this call."""
    freqs, thetas = ((call["frequency"], call["theta"]) if single
                     else (call["frequencies"], call["thetas"]))
    return gabor_request(freqs, thetas, call["bandwidth"], call["sigma_x"], call["sigma_y"],
                         call["n_stds"], call["offset"], call["mode"], call["cval"], call["tol"],
                         single=single, **_engine(call, x))
