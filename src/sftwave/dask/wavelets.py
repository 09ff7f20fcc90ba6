"""The CWT of dask arrays: time chunks extended by the widest plan's window, multiples of ``decim``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._checks.wavelets import refuse_out
from ..wavelets import shape_request, windowed_cwt
from ._core import block_threads, check_engine_options, dask_array, time_overlap, trim_time
from ._reach import family_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["cwt"]


def block_rows(batch: Callable[..., Any], b: np.ndarray, f: np.ndarray, fs: float,
               fft: np.ndarray, **kwargs: Any) -> np.ndarray:
    """One block's rows as the whole signal's call computes them: the frequencies that its
    ``'auto'`` runs by FFT with ``method='fft'`` (by ``batch``, the in-memory transform), the
    others with the windowed plans (a block's own ``'auto'`` would choose by the block's
    length)."""

    if not fft.any():
        return cast(np.ndarray, windowed_cwt(b, f, fs, **kwargs))
    if fft.all():
        return batch(b, f, fs, **{**kwargs, "method": "fft"})
    xi = np.broadcast_to(np.asarray(kwargs.pop("xi"), float), f.shape)
    y = batch(b, f[fft], fs, xi=xi[fft], **{**kwargs, "method": "fft"})
    out = np.empty(y.shape[:-2] + (f.size, y.shape[-1]), y.dtype)
    out[..., fft, :] = y
    out[..., ~fft, :] = windowed_cwt(b, f[~fft], fs, xi=xi[~fft], **kwargs)
    return out


@lazy("sftwave.wavelets", "cwt")
def cwt(call: Call) -> da.Array:
    """:func:`sftwave.cwt` of a dask array, lazily: shape ``x.shape`` without ``axis``, then
    ``(len(freqs), ceil(n / decim))``, chunked as ``x`` along its other axes.

    Each time chunk is extended by the widest half-window of the plans the
    whole signal's call selects (smaller chunks are merged first, and the time
    chunks made multiples of ``decim``, so that each chunk's ``[::decim]`` is the
    whole's); the rows the whole signal's ``'auto'`` runs by FFT run by FFT on
    the blocks too.  ``out`` cannot be given (the result is a new dask array).

    Returns
    -------
    dask.array.Array
        The coefficients (or ``output``'s quantity of them).

    See Also
    --------
    sftwave.cwt : The same transform in memory.
    sftwave.xarray.cwt : Dask-backed DataArrays, by dimension name.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> x = np.random.default_rng(2).standard_normal((3, 30000))
    >>> freqs = np.geomspace(0.005, 0.4, 12)
    >>> p = cwt(da.from_array(x, chunks=(1, 7000)), freqs, output="power", decim=5)
    >>> ref = sftwave.cwt(x, freqs, output="power", decim=5)
    >>> p.shape == ref.shape and bool(np.allclose(p.compute(), ref, rtol=1e-10, atol=1e-14))
    True
    """
    refuse_out(call["out"], "sftwave.dask.cwt")
    da, arr = dask_array(call["x"])
    engine = check_engine_options(call.args, arr)
    # the in-memory call's checks, on the lazy array's shape and dtype
    req = shape_request(arr.shape, arr.dtype, call["freqs"], call["fs"], engine=engine,
                        **call.without("x", "freqs", "fs", "engine"))
    axis, decim, mode, out_dtype = req.axis, req.decim, req.mode, req.dtype
    fs, f = cast(float, req.fs), cast(np.ndarray, req.freqs)       # (a request of freqs)
    arr = da.moveaxis(arr, axis, -1)
    last = arr.ndim - 1
    n = int(arr.shape[-1])
    reach, fft = family_reach(call["wavelet"], f, fs, n, xi=call["xi"], tol=call["tol"],
                              method=call["method"], transform=call["transform"], mode=mode,
                              engine=engine, output=call["output"])
    reach = -(-reach // decim) * decim
    arr, g, reach = time_overlap(arr, reach, periodic=mode == "wrap", multiple=decim)
    time_chunks = arr.chunks[-1]
    nblocks, parts, periodic = len(time_chunks), g.npartitions, mode == "wrap"
    fn, kw = call.fn, call.without("x", "freqs", "fs", "axis", "out")

    def block(b: np.ndarray, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        with block_threads(parts):
            y = block_rows(fn, b, f, fs, fft, **kw)
        return trim_time(y, k, nblocks, reach // decim, periodic)

    chunks = arr.chunks[:-1] + ((f.size,), tuple(-(-c // decim) for c in time_chunks))
    return g.map_blocks(block, dtype=out_dtype, chunks=chunks, new_axis=[last],
                        meta=np.empty((0,) * (arr.ndim + 1), out_dtype))
