"""Gabor filters of 2-D dask images: each block extended by the bank's filters' reach."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import check_mode
from ..feature._gabor import gabor_reach
from ._core import overlapped
from ._image import checked_image, gabor_of
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["gabor_bank", "gabor"]


def _checked(call: Call) -> tuple[Any, da.Array, np.dtype]:
    """``(dask.array, the image, the bank's complex dtype)``, the options checked."""
    da, x, real = checked_image(call, (2,))
    gabor_of(call, x)
    return da, x, np.dtype(np.complex64 if real == np.float32 else np.complex128)


@lazy("sftwave.feature", "gabor_bank")
def gabor_bank(call: Call) -> da.Array:
    """:func:`sftwave.feature.gabor_bank` of a 2-D dask array, lazily.

    Each block is extended by exactly the samples the bank's filters read (the
    1-D plans' half-windows, or the direct kernel's half-size), so the result
    equals the in-memory bank.

    Returns
    -------
    dask.array.Array
        Complex, shape ``(n_freq, n_theta) + image.shape``.

    See Also
    --------
    sftwave.feature.gabor_bank : The same in memory.
    gabor : One frequency and orientation, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(5).standard_normal((120, 100))
    >>> thetas = np.arange(4) * np.pi / 4
    >>> b = gabor_bank(da.from_array(img, chunks=50), [0.1, 0.25], thetas)
    >>> b.shape
    (2, 4, 120, 100)
    >>> bool(np.allclose(b.compute(), feature.gabor_bank(img, [0.1, 0.25], thetas), atol=1e-12))
    True
    """
    da, x, dtype = _checked(call)
    freqs, thetas = call["frequencies"], call["thetas"]
    reach: list[int | None] = list(gabor_reach(x.shape, freqs, thetas, call["bandwidth"],
                                               call["sigma_x"], call["sigma_y"], call["n_stds"],
                                               call["tol"]))
    nf, nt = np.size(freqs), np.size(thetas)
    fn, kw = call.fn, call.without("image", "frequencies", "thetas")

    def bank(b: np.ndarray) -> list[np.ndarray]:
        return list(fn(b, freqs, thetas, **kw).reshape((nf * nt,) + b.shape))

    parts = overlapped(bank, x, reach, dtype, nf * nt, check_mode(call["mode"]) == "wrap")
    return da.stack(parts).reshape((nf, nt) + x.shape)


@lazy("sftwave.feature", "gabor")
def gabor(call: Call) -> tuple[da.Array, da.Array]:
    """:func:`sftwave.feature.gabor` of a 2-D dask array, lazily: the real and imaginary responses.

    One frequency and orientation of :func:`gabor_bank` (the same overlaps).

    Returns
    -------
    real, imag : dask.array.Array
        The responses, as in memory.

    See Also
    --------
    sftwave.feature.gabor : The same in memory.
    gabor_bank : Many frequencies and orientations at once, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(6).standard_normal((90, 80))
    >>> real, imag = gabor(da.from_array(img, chunks=40), 0.2, np.pi / 3)
    >>> r0, i0 = feature.gabor(img, 0.2, np.pi / 3)
    >>> bool(np.allclose(real.compute(), r0, atol=1e-12) and np.allclose(imag.compute(), i0, atol=1e-12))
    True
    """
    gabor_of(call, checked_image(call, (2,))[1], single=True)
    kw = call.without("image", "frequency", "theta")
    z = gabor_bank(call["image"], [call["frequency"]], [call["theta"]], **kw)[0, 0]
    return z.real, z.imag
