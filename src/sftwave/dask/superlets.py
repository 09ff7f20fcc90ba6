"""The superlet of dask arrays: each time chunk from its chunk extended by the widest wavelet."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks.superlet import superlet_request
from ._core import block_threads, dask_array, time_overlap, trim_time
from ._reach import family_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["superlet"]

#: Standard deviations of the widest Gaussian (a few-cycle wavelet's ``kappa`` term) read on
#: either side: its weight beyond is below ``exp(-32)``.
_GAUSS_REACH = 8.0


def _reach(req: Any, n: int) -> int:
    """The samples on either side of a column that the set's wavelets read (the widest plan
    window of each wavelet's rows, without the FFT), and the ``kappa`` terms' Gaussians."""
    reach = 0
    for j, xi in enumerate(req.xis):
        rows = req.weights[j] > 0
        if not rows.any():
            continue
        f = req.freqs[rows]
        r, _ = family_reach("morlet", f, req.fs, n, xi=float(xi), tol=req.tol, method="auto",
                            transform="auto", mode=req.mode, fft=False)
        sigma = float(xi) * req.fs / (2.0 * math.pi * float(f.min()))
        reach = max(reach, r, math.ceil(_GAUSS_REACH * sigma) if xi < 6.5 else 0)
    return reach


@lazy("sftwave", "superlet")
def superlet(call: Call) -> da.Array:
    """:func:`sftwave.superlet` of a dask array, lazily: shape ``x.shape`` without ``axis``,
    then ``(len(freqs), ceil(n / decim))``, chunked as ``x`` along its other axes.

    Each time chunk is computed by the in-memory function over the chunk
    extended on either side by the widest window of the set's wavelets (at the
    lowest frequency, the most cycles), cut back afterwards; chunks shorter
    than that are merged first, and made multiples of ``decim``.  The blocks'
    rows agree with the in-memory result to its ``tol`` as a relative RMS
    difference per row (a block may run a row by the FFT where the whole
    signal runs it by the sliding transform, or the other way round, and its
    single-precision recursions round apart; near the product's zeros single
    values differ more).

    Returns
    -------
    dask.array.Array
        The superlet's power or magnitude, float32 for float32 input, else float64.

    See Also
    --------
    sftwave.superlet : The same in memory.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> x = np.random.default_rng(0).standard_normal((2, 20000))
    >>> f = np.linspace(0.02, 0.2, 8)
    >>> p = superlet(da.from_array(x, chunks=(1, 6000)), f, order_max=4, adaptive=True, tol=1e-6)
    >>> ref = sftwave.superlet(x, f, order_max=4, adaptive=True, tol=1e-6)
    >>> rows = np.linalg.norm(p.compute() - ref, axis=-1) / np.linalg.norm(ref, axis=-1)
    >>> p.shape == ref.shape and bool(rows.max() <= 1e-5)
    True
    """
    da, arr = dask_array(call["x"])
    kw = call.without("x", "freqs", "fs")
    req = superlet_request(tuple(arr.shape), arr.dtype, call["freqs"], call["fs"], **kw)
    arr = da.moveaxis(arr, req.axis, -1)
    last, n, decim = arr.ndim - 1, int(arr.shape[-1]), req.decim
    f, fs, out_dtype = req.freqs, req.fs, req.dtype
    chunks_out = arr.chunks[:-1] + ((f.size,),)
    if n == 0 or arr.size == 0:
        return da.zeros(arr.shape[:-1] + (f.size, -(-n // decim)), dtype=out_dtype,
                        chunks=chunks_out + ((-(-n // decim),),))
    wraps = req.mode in ("wrap", "grid-wrap")      # the extension reads the far end
    need = -(-_reach(req, n) // decim) * decim
    arr, g, reach = time_overlap(arr, None if wraps else need, multiple=decim)
    time_chunks = arr.chunks[-1]
    nblocks, parts = len(time_chunks), g.npartitions
    fn, options = call.fn, call.without("x", "freqs", "fs", "axis")

    def block(b: np.ndarray, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        with block_threads(parts):
            y = fn(b, f, fs, axis=-1, **options)
        return trim_time(y, k, nblocks, reach // decim, False)

    chunks = chunks_out + (tuple(-(-c // decim) for c in time_chunks),)
    return g.map_blocks(block, dtype=out_dtype, chunks=chunks, new_axis=[last],
                        meta=np.empty((0,) * (arr.ndim + 1), out_dtype))
