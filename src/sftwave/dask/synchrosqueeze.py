"""The synchrosqueezed CWT of dask arrays: each column from its chunk extended by the widest window."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks.dask import check_wavelet_widths, refuse_given
from .._checks.synchrosqueeze import SsqRequest, ssq_request
from ..plans import DEFAULT_MORLET_TOL
from ..plans.select import max_kernel_sigma, wavelet_too_long
from ..synchrosqueeze import squeeze_frequencies
from ..wavelets import frequency_to_scale
from ._core import block_threads, dask_array, engine_of, time_overlap, trim_time
from ._reach import ssq_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["ssq_cwt"]

#: what the blocks cannot take, and why
_REFUSED = ("out", "return_cwt", "fft")


def _request(call: Call, arr: da.Array) -> SsqRequest:
    """The in-memory request of this call (its checks, on an empty array of ``x``'s dtype and
    number of axes), with every wavelet shorter than the record."""
    empty = np.empty((0,) * arr.ndim, arr.dtype)
    req = ssq_request(empty, call["freqs"], fs=call["fs"], xi=call["xi"],
                      ssq_freqs=call["ssq_freqs"], squeezing=call["squeezing"], gamma=call["gamma"],
                      axis=call["axis"], mode=call["mode"], cval=call["cval"], tol=call["tol"],
                      dtype=call["dtype"], block=call["block"], return_cwt=False, fft=False,
                      derivative=call["derivative"], workers=call["workers"],
                      engine=engine_of(arr, call["engine"]), default_tol=DEFAULT_MORLET_TOL)
    n = int(arr.shape[req.axis])
    if n:
        fs, xi = req.fs, req.xi
        check_wavelet_widths(req.freqs, frequency_to_scale(req.freqs, fs, xi), max_kernel_sigma(n),
                             lambda f, s: wavelet_too_long(f"freqs (its {f!r} with fs={fs!r})",
                                                           s, xi, n))
    return req


@lazy("sftwave.synchrosqueeze", "ssq_cwt")
def ssq_cwt(call: Call) -> da.Array:
    """:func:`sftwave.synchrosqueeze.ssq_cwt` of a dask array, lazily: shape ``x.shape`` without
    ``axis``, then ``(len(bins), n)``, chunked as ``x`` along its other axes and in time.

    Each column of the synchrosqueezed transform depends on the coefficients of
    that column alone, so each time chunk is computed by the in-memory function
    over the chunk extended by the widest wavelet's window on either side (cut
    back afterwards).  The blocks run the bank's and the FIR's plans on every
    scale (``fft=False``: the FFT reads the whole record), as the in-memory
    call with ``fft=False`` does; their results agree to rounding, but where a
    coefficient's frequency lies within rounding of the edge between two bins
    (a coefficient then lands in the neighbouring bin; each column's sum stays
    the same).  The default ``gamma`` (``10 eps max|x|``) reads the whole
    record's largest finite magnitude, a lazy reduction done first.  ``out``,
    ``return_cwt`` and ``fft`` cannot be given (a ``TypeError``).

    Returns
    -------
    dask.array.Array
        Complex, shape ``x.shape`` without ``axis``, then ``(len(bins), n)``.

    See Also
    --------
    sftwave.synchrosqueeze.ssq_cwt : The same in memory (or into an ``np.memmap``).
    cwt : The transform itself, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave.synchrosqueeze import ssq_cwt as ssq_in_memory
    >>> t = np.arange(40000)
    >>> x = np.cos(2 * np.pi * (0.01 * t + 1e-6 * t**2))
    >>> freqs = np.geomspace(0.005, 0.2, 40)
    >>> T = ssq_cwt(da.from_array(x, chunks=9000), freqs)
    >>> T.shape
    (40, 40000)
    >>> ref = ssq_in_memory(x, freqs, fft=False)
    >>> bool(np.allclose(T.sum(axis=0).compute(), ref.sum(axis=0), rtol=0, atol=1e-9))
    True
    """
    import dask


    refuse_given(call.given, _REFUSED, "sftwave.dask.ssq_cwt", "it returns a new dask array and "
                 "runs its blocks without the FFT (the FFT reads the whole record)")
    da, arr = dask_array(call["x"])
    req = _request(call, arr)
    arr = da.moveaxis(arr, req.axis, -1)
    last, n = arr.ndim - 1, int(arr.shape[-1])
    out_dtype, fs, f, xi = req.out_dtype, req.fs, req.freqs, req.xi
    bins = squeeze_frequencies(f, call["ssq_freqs"])
    if n == 0 or arr.size == 0:
        return da.zeros(arr.shape[:-1] + (bins.size, n), dtype=out_dtype,
                        chunks=arr.chunks[:-1] + ((bins.size,), arr.chunks[-1]))
    mode = req.mode
    reach: int | None = ssq_reach(f, fs, n, xi, call["tol"], mode)
    if mode in ("wrap", "grid-wrap"):     # the extension reads the far end
        reach = None
    arr, g, reach = time_overlap(arr, reach)
    gamma = call["gamma"]
    if gamma is None:                   # 10 eps times the record's largest finite magnitude
        finite = da.where(da.isfinite(arr), abs(arr.astype(np.float64)), 0.0)
        gamma = dask.delayed(lambda top: 10.0 * np.finfo(np.float64).eps * float(top))(
            finite.max())
    nblocks, parts = len(arr.chunks[-1]), g.npartitions
    fn, kw = call.fn, call.without("x", "freqs", "fs", "axis", "gamma", *_REFUSED)

    def block(b: np.ndarray, gamma: float, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        with block_threads(parts):
            y = fn(b, f, fs, axis=-1, gamma=gamma, fft=False, **kw)
        return trim_time(y, k, nblocks, reach, False)

    return g.map_blocks(block, gamma=gamma, dtype=out_dtype,
                        chunks=arr.chunks[:-1] + ((bins.size,), arr.chunks[-1]), new_axis=[last],
                        meta=np.empty((0,) * (arr.ndim + 1), out_dtype))
