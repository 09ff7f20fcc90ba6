"""Cross-wavelet spectra and wavelet coherence of dask arrays, time chunks extended by their reach;
the coherence of many pairs of channels by chunks of pairs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import check_axis, check_choice, check_mode, check_positive
from .._checks.coherence import check_channel_shape, check_indices, pairs_request
from .._checks.dask import pair_request
from ..analysis import cone_of_influence
from ..coherence import (
    SMOOTHINGS,
    Coherence,
    PairCoherence,
    checked_scales,
    coherence_rows,
    pair_channels,
    pair_levels,
    pair_rows,
    scale_weights,
)
from ..engines import nonfinite
from ..plans.coherence import PAIR_CHUNK_VALUES, pair_groups, pair_lines
from ..wavelets import cwt as batch
from ._core import block_threads, dask_array, engine_of, time_overlap, trim_time
from ._reach import coherence_reach
from ._wrap import Call, lazy
from .wavelets import block_rows, cwt

if TYPE_CHECKING:
    import dask.array as da


__all__ = ["xwt", "wct", "wct_pairs"]


def _pair(x: Any, y: Any, axis: int) -> tuple[da.Array, da.Array]:
    """``x`` and ``y``: real, as float64 dask arrays with time last and their leading axes
    broadcast, of one length in time."""
    da, a = dask_array(x)
    _, b = dask_array(y)
    pair_request(tuple(a.shape), a.dtype, tuple(b.shape), b.dtype, axis)
    a = da.moveaxis(a, check_axis(axis, a.ndim), -1)
    b = da.moveaxis(b, check_axis(axis, b.ndim), -1)
    a, b = da.broadcast_arrays(a, b)
    return a.astype(np.float64), b.astype(np.float64)


def _options(call: Call) -> dict[str, Any]:
    """The transforms' keywords of a coherence call, checked (complex128, as in memory)."""
    kw: dict[str, Any] = dict(xi=call["xi"], mode=check_mode(call["mode"]), cval=call["cval"],
                              tol=call["tol"], dtype=np.complex128,
                              nan_policy=check_choice(call["nan_policy"], nonfinite.NAN_POLICIES,
                                                      "nan_policy"))
    if call["workers"] is not None:
        kw["workers"] = call["workers"]
    return kw


@lazy("sftwave.coherence", "xwt")
def xwt(call: Call) -> da.Array:
    """:func:`sftwave.coherence.xwt` of dask arrays, lazily: ``W_x conj(W_y)``, complex128,
    shape ``(*broadcast leading axes, len(freqs), n)``.

    Each transform is :func:`cwt`'s (time chunks extended by exactly the
    plans' reach); the product is taken block by block.

    Returns
    -------
    dask.array.Array
        The cross-wavelet spectrum, complex128.

    See Also
    --------
    sftwave.coherence.xwt : The same spectrum in memory.
    wct : The coherence, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave.coherence import xwt as xwt_in_memory
    >>> rng = np.random.default_rng(0)
    >>> x, y = rng.standard_normal((2, 3, 20000))
    >>> w = xwt(da.from_array(x, chunks=(1, 5000)), y, [0.01, 0.05])
    >>> w.shape, bool(np.allclose(w.compute(), xwt_in_memory(x, y, [0.01, 0.05]), rtol=1e-10, atol=1e-12))
    ((3, 2, 20000), True)
    """
    fs = check_positive(call["fs"], "fs")
    f, _, xi = checked_scales(call["freqs"], fs, call["xi"])
    kw = dict(_options(call), xi=xi)
    a, b = _pair(call["x"], call["y"], call["axis"])
    wa, wb = cwt(a, f, fs, **kw), cwt(b, f, fs, **kw)
    return wa * wb.conj()


@lazy("sftwave.coherence", "wct")
def wct(call: Call) -> Coherence:
    """:func:`sftwave.coherence.wct` of dask arrays, lazily, for records too long for memory.

    A :class:`~sftwave.coherence.Coherence` whose ``coherence``, ``phase`` and
    ``cross`` are dask arrays of shape ``(*broadcast leading axes, len(freqs), n)``,
    its ``coi`` a NumPy array.  Each time chunk is extended by exactly the
    samples its outputs depend on: the transform's widest half-window plus the
    widest Gaussian smoothing's (about 11 scales of the lowest frequency;
    smaller chunks are merged first), the true ends by ``mode`` as in memory.
    The chunks' rows run by the methods the whole record's call chooses, so the
    result equals the in-memory one within rounding.  The three arrays come
    from one graph: compute them together (``dask.compute(r.coherence,
    r.phase)``) so that each block is transformed once.

    Returns
    -------
    Coherence
        ``coherence``, ``phase`` and ``cross`` lazy, ``coi`` in memory.

    See Also
    --------
    sftwave.coherence.wct : The same coherence in memory.
    xwt : The cross-wavelet spectrum, lazily.
    cwt : The transform, lazily.

    Examples
    --------
    >>> import dask, numpy as np, dask.array as da
    >>> from sftwave.coherence import wct as wct_in_memory
    >>> rng = np.random.default_rng(1)
    >>> x = rng.standard_normal(30000)
    >>> y = np.roll(x, 3) + rng.standard_normal(30000)
    >>> r = wct(da.from_array(x, chunks=4000), y, [0.02, 0.1])
    >>> r2, phase = dask.compute(r.coherence, r.phase)
    >>> ref = wct_in_memory(x, y, [0.02, 0.1])
    >>> bool(np.allclose(r2, ref.coherence, rtol=1e-9, atol=1e-12)), r.coi.shape
    (True, (30000,))
    """
    fs = check_positive(call["fs"], "fs")
    f, sig, xi = checked_scales(call["freqs"], fs, call["xi"])
    smoothing = check_choice(call["smoothing"], SMOOTHINGS, "smoothing")
    B = scale_weights(sig, smoothing, check_positive(call["scale_width"], "scale_width"))
    kw = dict(_options(call), xi=xi)
    mode, tol = kw["mode"], kw["tol"]
    a, b = _pair(call["x"], call["y"], call["axis"])
    da, _ = dask_array(a)
    arr = da.stack([a, b]).rechunk({0: 2})
    last, n = arr.ndim - 1, int(arr.shape[-1])
    reach, fft = coherence_reach(f, fs, sig, n, xi, mode, tol)
    periodic = mode == "wrap"
    arr, g, reach = time_overlap(arr, reach, periodic=periodic)
    nblocks, parts = len(arr.chunks[-1]), g.npartitions

    def block(v: np.ndarray, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        lead, nb = v.shape[1:-1], v.shape[-1]
        with block_threads(parts):
            W = block_rows(batch, v.reshape(2, -1, nb), f, fs, fft, **kw)
            r2, cross = coherence_rows(W, sig, B, mode, 0.0, tol)
        del W
        parts3 = [trim_time(p, k, nblocks, reach, periodic) for p in (r2, cross.real, cross.imag)]
        out = np.empty((3,) + lead + (f.size, parts3[0].shape[-1]))
        for i, part in enumerate(parts3):
            out[i] = np.moveaxis(part, 0, -2).reshape(lead + (f.size, -1))
        return out

    chunks = ((3,),) + arr.chunks[1:-1] + ((f.size,), arr.chunks[-1])
    z = g.map_blocks(block, dtype=np.float64, chunks=chunks, new_axis=[last],
                     meta=np.empty((0,) * (arr.ndim + 1), np.float64))
    return Coherence(z[0], da.arctan2(z[2], z[1]), z[1] + 1j * z[2], cone_of_influence(n, fs, xi))


def _channels_block(v: np.ndarray, w: Any, parts: int) -> tuple[np.ndarray, np.ndarray]:
    """A block of channel lines' transforms and smoothed powers (:func:`pair_channels`)."""
    with block_threads(parts):
        return pair_channels(np.ascontiguousarray(v, dtype=np.float64), w)


def _pairs_block(w: Any, keep: bool, a: np.ndarray, b: np.ndarray, parts: int,
                 *chans: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``R^2`` and phase (and the cross-spectrum's parts) of a chunk of pairs, stacked first."""
    W = chans[0][0] if len(chans) == 1 else np.concatenate([c[0] for c in chans])
    P = chans[0][1] if len(chans) == 1 else np.concatenate([c[1] for c in chans], axis=1)
    with block_threads(parts):
        r2, phase, cross = pair_rows(W, P, a, b, w, keep)
    return np.stack([r2, phase] + ([cross.real, cross.imag] if cross is not None else []))


@lazy("sftwave.coherence", "wct_pairs")
def wct_pairs(call: Call) -> PairCoherence:
    """:func:`sftwave.coherence.wct_pairs` of a dask array, lazily, by chunks of pairs.

    The channels (each a whole record: the time axis is one chunk) are
    transformed and their powers smoothed once, in blocks of channels (``x``'s
    chunks along the channel axis, at most as many as the in-memory function
    smooths pairs at once); each chunk of pairs (consecutive in the pairs'
    order, at most that many, their channels in at most two blocks) is a task
    on the blocks it reads.  So no task holds more than
    two blocks of channels and its own pairs, and the result, of any number of
    pairs, is computed a chunk at a time.  Equal to the in-memory result
    within rounding.  With ``significance=True`` the levels are one more
    task, on the whole record (the channels' AR(1) coefficients).

    Returns
    -------
    PairCoherence
        ``coherence`` and ``phase`` (and ``cross``) lazy, chunked over pairs;
        ``coi``, ``seeds`` and ``targets`` in memory; ``significance`` lazy or None.

    See Also
    --------
    sftwave.coherence.wct_pairs : The same in memory.
    wct : One pair, chunked in time.
    sftwave.xarray.wct_pairs : A dask-backed DataArray's channels, by dimension name.

    Examples
    --------
    >>> import dask, numpy as np, dask.array as da
    >>> from sftwave.coherence import wct_pairs as in_memory
    >>> x = np.random.default_rng(3).standard_normal((5, 3000))
    >>> r = wct_pairs(da.from_array(x, chunks=(1, 3000)), [0.05, 0.2])
    >>> r.coherence.shape, r.coherence.numblocks[0] > 1
    ((10, 2, 3000), True)
    >>> bool(np.allclose(r.coherence.compute(), in_memory(x, [0.05, 0.2]).coherence, atol=1e-12))
    True
    """
    from dask import delayed

    da, arr = dask_array(call["x"])
    axis = check_channel_shape(tuple(arr.shape), arr.dtype, call["axis"])
    req = pairs_request(call["freqs"], **dict(call.without("x", "freqs", "indices", "engine"),
                                              axis=-1), engine=engine_of(arr, call["engine"]))
    w = req.wct
    arr = da.moveaxis(arr, axis, -1)
    lead, c, n, m = tuple(arr.shape[:-2]), int(arr.shape[-2]), int(arr.shape[-1]), w.freqs.size
    seeds, targets = check_indices(call["indices"], c)
    lines = arr.reshape(-1, n)
    a, b = pair_lines(seeds, targets, c, int(lines.shape[0]) // c)
    most = max(1, PAIR_CHUNK_VALUES // (2 * m * n))       # pairs (and lines) a task holds
    per = min(most, max(arr.chunks[-2]))                     # the channel blocks: x's chunks
    lines = lines.rechunk({0: per, 1: -1})
    blocks = lines.to_delayed().ravel()
    chans = [delayed(_channels_block, pure=True)(v, w, len(blocks)) for v in blocks]
    groups = pair_groups(a // per, b // per, most)
    depth = 4 if req.return_cross else 2
    parts = []
    for g in groups:
        need = sorted(set((a[g] // per).tolist()) | set((b[g] // per).tolist()))
        base = {k: i * per for i, k in enumerate(need)}
        la = np.array([base[v // per] + v % per for v in a[g].tolist()], dtype=np.int64)
        lb = np.array([base[v // per] + v % per for v in b[g].tolist()], dtype=np.int64)
        d = delayed(_pairs_block, pure=True)(w, req.return_cross, la, lb, len(groups),
                                             *[chans[k] for k in need])
        parts.append(da.from_delayed(d, shape=(depth, la.size, m, n), dtype=np.float64))
    z = da.concatenate(parts, axis=1)
    shape = lead + (seeds.size, m, n)
    levels = None
    if req.significance:
        lv = delayed(pair_levels, pure=True)(lines, a, b, req)
        levels = da.from_delayed(lv, shape=(a.size, m), dtype=np.float64).reshape(
            lead + (seeds.size, m))
    cross = (z[2] + 1j * z[3]).reshape(shape) if req.return_cross else None
    return PairCoherence(z[0].reshape(shape), z[1].reshape(shape), cross,
                         cone_of_influence(n, w.fs, w.xi), seeds, targets, levels)
