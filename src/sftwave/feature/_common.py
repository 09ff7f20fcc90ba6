"""What the image features share: the engine and its operations, the threads, scikit-image's
``img_as_float``."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import engines
from .._checks.features import axis_sigmas, check_order
from .._checks.ndimage import Array
from ..ndimage import worker_threads

__all__ = ["as_float", "axis_sigmas", "check_order", "nan_extreme", "engine_of", "op", "threads"]


def engine_of(engine: str | None, x: Any) -> str:
    """The engine that runs ``x``: ``engine`` checked, or chosen by ``x``'s array type
    (:func:`sftwave.engines.resolve_engine`)."""
    return engines.resolve_engine(engine, x)


def op(engine: str, name: str) -> Callable[..., Any]:
    """Operation ``name`` of ``engine`` (:func:`sftwave.engines.operation`)."""
    return engines.operation(engine, name)


def threads(engine: str, workers: Any) -> contextlib.AbstractContextManager[Any]:
    """``engine``'s threads limited to ``workers`` for a ``with`` block (None: as they are);
    refused (``ValueError``) where the engine takes no ``workers``."""
    engines.check_request(engine, workers=workers)
    return worker_threads(engine, workers)


def as_float(image: Any, name: str = "image", engine: str | None = None) -> Array:
    """scikit-image's ``img_as_float`` (float16 to float32, integers rescaled by their range)
    on the engine of ``image`` (an array-API array, torch or CuPy, stays one, on its device)."""
    return op(engine_of(engine, image), "feature_as_float")(image, name)


def nan_extreme(cube: np.ndarray, largest: bool) -> float:
    """The cube's largest (or smallest) value over its non-NaN entries; NaN if there is none."""
    value = cube.max() if largest else cube.min()
    if np.isnan(value):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # all NaN: NaN, no peak
            value = np.nanmax(cube) if largest else np.nanmin(cube)
    return value
