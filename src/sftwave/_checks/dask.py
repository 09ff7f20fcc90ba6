"""The checks of :mod:`sftwave.dask` that the in-memory request builders cannot make.

A lazy wrapper checks its options with the in-memory function's own request
builder (``sftwave._checks.ndimage``, ``.features``, ``.coherence``,
``.synchrosqueeze``), on an empty array of the dask array's dtype and number
of axes where the builder reads the input.  What is left is here: binding a
call to the in-memory signature, what a lazy result cannot take (an output
array, the FFT), and the shapes of dask arrays (known without computing).
Each raises ``ValueError`` or ``TypeError`` naming the parameter and echoing
the value, and never computes.

Examples
--------
>>> import numpy as np
>>> pair_request((3, 100), np.dtype(float), (100,), np.dtype(int), -1)
((3,), 100)
>>> check_output(np.zeros(3))
Traceback (most recent call last):
...
TypeError: sftwave.dask returns a new dask array: output must be None or a dtype; got an array of shape (3,)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["bind", "check_output", "refuse_given", "check_min_weight", "image_axes",
           "pair_request", "check_elements", "check_same_shape", "check_wavelet_widths"]


def bind(sig: inspect.Signature, args: tuple, kwargs: dict, where: str) -> inspect.BoundArguments:
    """``args`` and ``kwargs`` bound to the in-memory function's signature; the ``TypeError`` of a
    wrong call names the function (``where``, as ``sftwave.dask.name``)."""
    try:
        return sig.bind(*args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"{where}(): {exc}") from None


def check_output(output: Any) -> np.dtype | None:
    """A lazy filter's ``output``: None or a dtype, not an array (the result is a new array)."""
    if isinstance(output, np.ndarray):
        raise TypeError("sftwave.dask returns a new dask array: output must be None or a dtype; "
                        f"got an array of shape {output.shape}")
    return None if output is None else np.dtype(output)


def refuse_given(given: Iterable[str], names: Sequence[str], func: str, why: str) -> None:
    """None of ``names`` among the arguments ``given`` to ``func`` (``why``: what the lazy
    result does instead)."""
    for name in names:
        if name in given:
            raise TypeError(f"{func} takes no {name!r}: {why}")


def check_min_weight(value: Any) -> float:
    """``min_weight`` in ``(0, 1]``, as the in-memory Gaussian request checks it."""
    from . import check_positive

    w = check_positive(value, "min_weight")
    if w > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {value!r}")
    return w


def image_axes(shape: tuple, ndims: tuple[int, ...] | None, name: str) -> None:
    """An image of ``shape`` has one of ``ndims`` axes (None: at least one)."""
    ndim = len(shape)
    if ndims is None and ndim == 0:
        raise ValueError(f"{name} must have at least one axis; got a 0-d array")
    if ndims is not None and ndim not in ndims:
        which = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {which}; got {ndim}-D, shape {tuple(shape)}")


def pair_request(x_shape: tuple, x_dtype: np.dtype, y_shape: tuple, y_dtype: np.dtype,
                 axis: int) -> tuple[tuple, int]:
    """The two series of a coherence, real, of one length along ``axis``: ``(the broadcast
    leading shape, the length)``."""
    for name, shape, dtype in (("x", x_shape, x_dtype), ("y", y_shape, y_dtype)):
        if dtype.kind not in "biuf":
            raise TypeError(f"{name} must be real (bool, integer or float); got dtype {dtype}")
        if len(shape) == 0:
            raise ValueError(f"{name} must have a time axis; got a 0-d array")
        if not -len(shape) <= axis < len(shape):
            raise ValueError(f"axis {axis} is out of bounds for {name} of {len(shape)} dimensions")
    a, b = (list(s) for s in (x_shape, y_shape))
    na, nb = a.pop(axis), b.pop(axis)
    if na != nb:
        raise ValueError(f"x and y must have the same length along axis {axis}; got {na} and {nb}")
    try:
        lead = np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        raise ValueError(f"the leading axes of x {tuple(a)} and y {tuple(b)} do not "
                         "broadcast") from None
    return lead, na


def check_elements(elems: Any, name: str) -> None:
    """``elems``: a list (a sequence, not a string) of arrays."""
    if isinstance(elems, (str, bytes)) or not isinstance(elems, Sequence):
        raise TypeError(f"{name} must be a list of arrays; got {type(elems).__name__}")


def check_same_shape(shapes: list[tuple], name: str) -> None:
    """The arrays of ``name`` all have one shape."""
    if any(s != shapes[0] for s in shapes):
        raise ValueError(f"{name} must all have one shape; got {shapes}")


def check_wavelet_widths(freqs: np.ndarray, sigmas: np.ndarray, limit: float,
                         too_long: Callable[[float, float], str]) -> None:
    """Each wavelet's scale ``sigmas`` (samples) at most ``limit``; ``too_long(freq, sigma)``
    words the error (the plans' message, which this layer does not import)."""
    for f, s in zip(freqs, sigmas):
        if s > limit:
            raise ValueError(too_long(float(f), float(s)))
