"""dask arrays: sftwave's filters and CWT lazily, chunk by chunk, equal to the in-memory result.

As dask-image does for scipy.ndimage, this module takes dask arrays and
returns lazy dask arrays::

    import sftwave.dask as sd
    y = sd.gaussian_filter(volume, sigma=20.0)        # volume: a dask array
    p = sd.cwt(signals, freqs, fs, output="power", decim=10)
    r = sd.wct(x, y, freqs, fs)                       # wavelet coherence, lazily
    blobs = sd.blob_log(slide, max_sigma=20)          # the blobs of an image, gathered
    p.compute()                                       # or on a dask.distributed cluster

The blob detectors are the exception: their result is a short list, not an
image, so :func:`blob_log` and :func:`blob_dog` compute the blocks (with the
current scheduler or client) and return the blobs as a NumPy array.

Along the filtered (time) axis each chunk is extended by exactly the samples
its plan's window reads from its neighbours (the plan's half-window, the
plan being the one the in-memory function picks for the whole length), and
the true ends by the function's own ``mode`` (``boundary='none'`` in dask's
terms; ``'wrap'`` by dask's ``'periodic'``); the other axes need no overlap.
Chunks shorter than the window are merged (rechunked) first: a chunk must
hold a whole window, so that each computes with the whole-length plan.  For
the CWT the time chunks are also made multiples of ``decim``, so that each
chunk's ``[::decim]`` is the whole's.

The result equals the in-memory function's within the rounding of the
recursions (1e-12 relative in float64, ``tests/test_dask.py``, threads and a
``distributed.LocalCluster`` of processes).  dask is an optional extra
(``pip install 'sftwave[dask]'``); ``import sftwave`` does not import it.

Threads.  Blocks that run side by side must not each start sftwave's pool on
every CPU (with a worker of 8 threads on 8 CPUs, 64 threads would compete).
Each block's call therefore runs on its share of the process's threads
(:func:`_block_workers`; ``sftwave.get_workers()`` inside a block tells it):

* in a ``distributed`` worker, ``max(1, T // nthreads)``, ``nthreads`` the
  worker's task threads and ``T`` the process's default thread count (which
  honours ``OMP_NUM_THREADS``: 1 in the worker processes a nanny starts, as for
  BLAS);
* on dask's threaded scheduler (a block on a thread other than the main one),
  ``max(1, T // W)``, ``W`` dask's ``num_workers`` setting or its CPU count: one
  thread per block by default;
* a graph of a single block, and the synchronous scheduler (blocks one at a
  time on the main thread), run on all of ``T``.

A ``workers=`` passed to :func:`cwt` wins over the share.  The share changes
only the speed: sftwave's results do not depend on the thread count.  (The
processes scheduler starts processes of its own: give them a budget with
``OMP_NUM_THREADS`` or ``SFTWAVE_NUM_THREADS``.)
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import engines
from ._checks import check_axes, check_axis, check_mode, per_axis
from .analysis import DELTAJ0
from .engines import nonfinite
from .engines.numba import pool
from .plans import select_gaussian

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, DTypeLike

__all__ = ["gaussian_filter1d", "gaussian_filter", "cwt", "xwt", "wct", "ssq_cwt", "hessian_matrix",
           "hessian_matrix_eigvals", "structure_tensor", "structure_tensor_eigenvalues",
           "difference_of_gaussians", "frangi", "sato", "meijering", "blob_log", "blob_dog", "gabor", "gabor_bank"]


def _dask_array(x: Any) -> tuple[Any, Any]:
    try:
        import dask.array as da
    except ImportError as exc:
        raise ImportError("sftwave.dask needs dask: pip install 'sftwave[dask]'") from exc
    return da, (x if isinstance(x, da.Array) else da.asarray(x))


def _block_workers(nblocks: int) -> int | None:
    """Threads for one block's call, from inside the block: its share of the process's.

    None (no limit) for a graph of one block and on the main thread (dask's
    synchronous scheduler); see the module's *Threads*.

    Examples
    --------
    >>> _block_workers(1) is None       # one block: all the process's threads
    True
    """
    total = pool.default_threads()
    worker = None
    if "distributed" in sys.modules:           # a distributed worker has imported it
        try:
            worker = sys.modules["distributed"].get_worker()
        except ValueError:                     # not inside a worker's task
            worker = None
    if worker is not None:
        state = getattr(worker, "state", worker)
        return max(1, total // max(1, int(getattr(state, "nthreads", 1))))
    if nblocks <= 1 or threading.current_thread() is threading.main_thread():
        return None
    import dask
    from dask.system import CPU_COUNT

    return max(1, total // max(1, int(dask.config.get("num_workers", None) or CPU_COUNT)))


def _gaussian_reach(sigma: float, order: int, n: int, kwargs: dict) -> int | None:
    """Samples a chunk needs from each neighbour along the axis: the whole-length plan's
    half-window (None: the exact wide-kernel limit, which needs the whole axis)."""
    from .plans import WidePlan

    plan = select_gaussian(float(sigma), int(order), truncate=kwargs.get("truncate", 4.0),
                           radius=kwargs.get("radius"), method=kwargs.get("method", "auto"),
                           transform="asft" if kwargs.get("transform") == "asft" else "sft",
                           tol=kwargs.get("tol"), n=n,
                           fir_taps_per_order=engines.get("numba").fir_taps_per_order(),
                           wide=True)
    if isinstance(plan, WidePlan):
        return None
    left, right = nonfinite.support(plan, n)
    return max(left, right)


def _rechunk_axis(x: Any, axis: int, least: int, multiple: int = 1) -> Any:
    """``x`` with every chunk along ``axis`` at least ``least`` long (and, but for the last, a
    multiple of ``multiple``): neighbouring chunks merged, as few as possible."""
    n = x.shape[axis]
    chunks = x.chunks[axis]
    if min(chunks) >= least and all(c % multiple == 0 for c in chunks[:-1]):
        return x
    size = max(least, max(chunks))
    size = -(-size // multiple) * multiple
    k = max(1, n // size)
    edges = np.linspace(0, n, k + 1).astype(np.int64)
    edges = (edges // multiple) * multiple
    edges[-1] = n
    sizes = tuple(int(s) for s in np.diff(edges) if s > 0)
    if len(sizes) > 1 and sizes[-1] < least:         # the tail joins its neighbour
        sizes = sizes[:-2] + (sizes[-2] + sizes[-1],)
    return x.rechunk({axis: sizes})


def gaussian_filter1d(input: ArrayLike, sigma: float, axis: int = -1, order: int = 0,
                      output: DTypeLike | None = None, mode: str = "reflect", cval: float | complex = 0.0,
                      truncate: float = 4.0, **kwargs: Any) -> Any:
    """:func:`sftwave.gaussian_filter1d` of a dask array, lazily (same arguments).

    ``output`` may be None or a dtype (not an array: the result is a new
    dask array).  ``engine`` is the CPU engine's.

    See Also
    --------
    sftwave.gaussian_filter1d : The same filter in memory.
    gaussian_filter : Along several axes.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> x = np.random.default_rng(0).standard_normal((4, 20000))
    >>> y = gaussian_filter1d(da.from_array(x, chunks=(2, 3000)), 40.0)
    >>> bool(np.allclose(y.compute(), sftwave.gaussian_filter1d(x, 40.0), rtol=0, atol=1e-12))
    True
    """
    from .ndimage import gaussian_filter1d as batch

    da, x = _dask_array(input)
    axis = check_axis(axis, x.ndim)
    mode = check_mode(mode)
    if output is not None and isinstance(output, np.ndarray):
        raise TypeError("sftwave.dask returns a new dask array: output must be None or a dtype")
    kw = dict(kwargs, truncate=truncate)
    n = int(x.shape[axis])
    dtype = np.dtype(output) if output is not None else x.dtype
    if n == 0 or x.size == 0:
        return x.astype(dtype)
    reach = _gaussian_reach(sigma, order, n, kw)
    if reach is None or reach >= n:
        x = x.rechunk({axis: n})                        # the whole axis in one chunk
        reach = 0
    else:
        x = _rechunk_axis(x, axis, 2 * reach + 1)

    nblocks = x.npartitions

    def block(b: np.ndarray) -> Any:
        with pool.limit(_block_workers(nblocks)):
            return batch(b, sigma, axis=axis, order=order, output=output, mode=mode, cval=cval,
                         **kw)

    boundary = "periodic" if mode == "wrap" else "none"
    depth = {i: (reach if i == axis else 0) for i in range(x.ndim)}
    return x.map_overlap(block, depth=depth, boundary=boundary, dtype=dtype,
                         meta=np.empty((0,) * x.ndim, dtype))


def _rows_in_memory(x: Any, dtype: np.dtype, axes: Any, sigmas: Any, orders: Any, truncate: float,
                    kwargs: dict) -> bool:
    """Whether :func:`sftwave.gaussian_filter` in memory runs these axes on the CPU engine's
    float32 FIR over blocks of rows (:mod:`sftwave.engines.numba.fir_rows`): an 8/16-bit or
    bool input smoothed by FIRs, whose work is then float32 (float32 input is float32 anyway)."""
    from .engines.numba import ENGINE
    from .engines.numba._rows import ROWS_INPUT_DTYPES, ROWS_OUTPUT_DTYPES

    if (x.dtype not in ROWS_INPUT_DTYPES or dtype not in ROWS_OUTPUT_DTYPES
            or set(kwargs) - {"method"} or kwargs.get("method", "auto") != "auto"):
        return False
    from .engines.numba.fir_rows import half_kernel
    from .engines.numba.vectors import usable
    from .plans import FIRPlan, select_gaussian

    if not usable():
        return False
    for ax, s, o in zip(axes, sigmas, orders):
        if float(s) <= 1e-15:
            continue
        if int(o) != 0:
            return False
        plan = select_gaussian(float(s), 0, truncate=truncate, method=kwargs.get("method", "auto"),
                               n=int(x.shape[ax]), wide=True,
                               fir_taps_per_order=ENGINE.fir_taps_per_order_for(x.dtype, dtype, 0,
                                                                                x.ndim))
        if not isinstance(plan, FIRPlan) or half_kernel(plan.kernel[::-1]) is None:
            return False
    return True


def gaussian_filter(input: ArrayLike, sigma: float | Sequence[float], order: int | Sequence[int] = 0,
                    output: DTypeLike | None = None, mode: str | Sequence[str] = "reflect",
                    cval: float | complex = 0.0, truncate: float = 4.0, *,
                    axes: int | Sequence[int] | None = None, **kwargs: Any) -> Any:
    """:func:`sftwave.gaussian_filter` of a dask array, lazily: one overlap per filtered axis.

    As the in-memory function, the axes are filtered in floating point and
    the result cast once at the end (scipy casts after every axis).

    See Also
    --------
    sftwave.gaussian_filter : The same filter in memory.
    gaussian_filter1d : Along one axis.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> v = np.random.default_rng(1).standard_normal((40, 60, 50)).astype(np.float32)
    >>> y = gaussian_filter(da.from_array(v, chunks=20), (2.0, 3.0, 1.5))
    >>> ref = sftwave.gaussian_filter(v, (2.0, 3.0, 1.5))
    >>> y.dtype == ref.dtype and bool(np.allclose(y.compute(), ref, rtol=0, atol=1e-6))
    True
    """
    da, x = _dask_array(input)
    axes = check_axes(axes, x.ndim)
    sigmas = per_axis(sigma, len(axes), "sigma")
    orders = per_axis(order, len(axes), "order")
    modes = per_axis(mode, len(axes), "mode")
    dtype = np.dtype(output) if output is not None else x.dtype
    work: np.dtype = np.dtype(np.float32) if x.dtype in (np.float32, np.float16) else (
        np.dtype(np.complex128) if x.dtype.kind == "c" else np.dtype(np.float64))
    if x.dtype == np.complex64:
        work = np.dtype(np.complex64)
    if work == np.float64 and _rows_in_memory(x, dtype, axes, sigmas, orders, truncate, kwargs):
        work = np.dtype(np.float32)     # as the in-memory filter computes it: the same bits
    y = x
    for ax, s, o, m in zip(axes, sigmas, orders, modes):
        if float(s) <= 1e-15:
            continue                                    # scipy's rule: the axis is left alone
        y = gaussian_filter1d(y, float(s), axis=ax, order=int(o), output=work, mode=m, cval=cval,
                              truncate=truncate, **kwargs)
    if y.dtype == dtype:
        return y if y is not x else x.copy()
    from .engines.numba.filters import cast_into

    def cast(b: np.ndarray) -> np.ndarray:
        """The final cast as the CPU engine casts (C's conversion, saturating integers)."""
        out = np.empty(b.shape, dtype)
        cast_into(out, b)
        return out

    return y.map_blocks(cast, dtype=dtype, meta=np.empty((0,) * y.ndim, dtype))


def _cwt_reach(f: np.ndarray, fs: float, n: int, kwargs: dict) -> tuple[int, np.ndarray]:
    """The widest half-window of the plans :func:`sftwave.cwt` may run for these frequencies
    on ``n`` samples (the SFT's and the ASFT's designs both: the engine picks one by the
    output's precision), and which frequencies it runs by FFT (``'auto'`` decides that
    for the whole signal, the same for either design)."""
    from .plans import DEFAULT_MORLET_TOL, FFTPlan, select_morlet
    from .wavelets import frequency_to_scale, parse_wavelet

    tol = kwargs.get("tol") or DEFAULT_MORLET_TOL
    eng = engines.get("numba")
    cost = eng.fir_taps_per_order()
    method = kwargs.get("method", "auto")
    mode = kwargs.get("mode", "reflect")
    reach = 0
    fft = np.zeros(f.shape, bool)
    transforms = {kwargs.get("transform", "auto")} - {"auto"} or {"sft", "asft"}
    m = parse_wavelet(kwargs.get("wavelet", "morlet"))
    if m is not None:       # a DOG wavelet: its plans (never the FFT)
        from .plans.dog import dog_scale, select_dog_scales

        for transform in transforms:
            for dplan in select_dog_scales(list(dog_scale(f, fs, m)), m, float(tol), method=method,
                                           transform=transform, n=n, fir_taps_per_order=cost):
                reach = max(reach, *nonfinite.support(dplan, n))
        return int(reach), fft
    xi = np.broadcast_to(np.asarray(kwargs.get("xi", 6.0), float), f.shape)
    for i, (s, w) in enumerate(zip(frequency_to_scale(f, fs, xi), xi)):
        whole = select_morlet(float(s), float(w), float(tol), method=method, transform="sft", n=n,
                              fir_taps_per_order=cost, mode=mode,
                              fft_point_cost=eng.fft_point_cost())
        if isinstance(whole, FFTPlan):
            fft[i] = True
            reach = max(reach, *nonfinite.support(whole, n))
            continue
        for transform in transforms:
            plan = select_morlet(float(s), float(w), float(tol), method=method,
                                 transform=transform, n=n, fir_taps_per_order=cost)
            reach = max(reach, *nonfinite.support(plan, n))
    return int(reach), fft


def _block_rows(batch: Any, windowed_plans: Any, b: np.ndarray, f: np.ndarray, fs: float, fft: np.ndarray,
                **kwargs: Any) -> np.ndarray:
    """One block's rows as the whole signal's call computes them: the frequencies that its
    ``'auto'`` runs by FFT with ``method='fft'``, the others with the windowed plans (a
    block's own ``'auto'`` would choose by the block's length)."""
    if not fft.any():
        with windowed_plans():
            return batch(b, f, fs, **kwargs)
    if fft.all():
        return batch(b, f, fs, **{**kwargs, "method": "fft"})
    xi = np.broadcast_to(np.asarray(kwargs.pop("xi", 6.0), float), f.shape)
    y = batch(b, f[fft], fs, xi=xi[fft], **{**kwargs, "method": "fft"})
    out = np.empty(y.shape[:-2] + (f.size, y.shape[-1]), y.dtype)
    out[..., fft, :] = y
    with windowed_plans():
        out[..., ~fft, :] = batch(b, f[~fft], fs, xi=xi[~fft], **kwargs)
    return out


def cwt(x: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, axis: int = -1, decim: int = 1,
        output: str = "complex", dtype: DTypeLike | None = None, **kwargs: Any) -> Any:
    """:func:`sftwave.cwt` of a dask array, lazily: shape ``x.shape`` without ``axis``, then
    ``(len(freqs), ceil(n / decim))``, chunked as ``x`` along its other axes.

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
    from .wavelets import cwt as batch
    from .wavelets import windowed_plans

    da, arr = _dask_array(x)
    axis = check_axis(axis, arr.ndim)
    decim = int(decim)
    if decim < 1:
        raise ValueError(f"decim must be a positive integer; got {decim!r}")
    arr = da.moveaxis(arr, axis, -1)
    last = arr.ndim - 1
    n = int(arr.shape[-1])
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    # the probe: the output's dtype, and the arguments checked once, on a tiny array
    probe = batch(np.zeros((1, 8), arr.dtype), f, fs, output=output, dtype=dtype, **kwargs)
    out_dtype = probe.dtype
    reach, fft = _cwt_reach(f, fs, n, kwargs)
    reach = -(-reach // decim) * decim
    if reach >= n:
        arr = arr.rechunk({last: n})
        reach = 0
    else:
        arr = _rechunk_axis(arr, last, 2 * reach + 1, multiple=decim)
    time_chunks = arr.chunks[-1]
    out_chunks = tuple(-(-c // decim) for c in time_chunks)
    mode = kwargs.get("mode", "reflect")
    boundary = "periodic" if check_mode(mode) == "wrap" else "none"
    depth = {i: (reach if i == last else 0) for i in range(arr.ndim)}
    g = da.overlap.overlap(arr, depth=depth, boundary=boundary) if reach else arr
    nblocks = len(time_chunks)
    parts = g.npartitions                      # blocks in all (a number: no array in the closure)
    periodic = boundary == "periodic"

    def block(b: np.ndarray, block_info: Any = None) -> Any:
        k = block_info[0]["chunk-location"][last]
        with pool.limit(_block_workers(parts)):
            y = _block_rows(batch, windowed_plans, b, f, fs, fft, output=output, decim=decim,
                            dtype=dtype, **kwargs)
        lo = reach // decim if (reach and (k > 0 or periodic)) else 0
        hi = reach // decim if (reach and (k < nblocks - 1 or periodic)) else 0
        return y[..., lo:y.shape[-1] - hi]

    chunks = arr.chunks[:-1] + ((f.size,), out_chunks)
    return g.map_blocks(block, dtype=out_dtype, chunks=chunks, new_axis=[last],
                        meta=np.empty((0,) * (arr.ndim + 1), out_dtype))


# --------------------------------------------------------------------------- coherence


def _pair_lazy(da: Any, x: Any, y: Any, axis: int) -> tuple[Any, Any]:
    """``x`` and ``y`` as float64 dask arrays with time last and their leading axes broadcast
    (the in-memory functions' checks have run on a probe first)."""
    a = x if isinstance(x, da.Array) else da.asarray(x)
    b = y if isinstance(y, da.Array) else da.asarray(y)
    a = da.moveaxis(a, check_axis(axis, a.ndim), -1)
    b = da.moveaxis(b, check_axis(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"x and y must have the same length along axis {axis}; got "
                         f"{a.shape[-1]} and {b.shape[-1]}")
    try:
        a, b = da.broadcast_arrays(a, b)
    except ValueError:
        raise ValueError(f"the leading axes of x {a.shape[:-1]} and y {b.shape[:-1]} do not "
                         "broadcast") from None
    return a.astype(np.float64), b.astype(np.float64)


def _probe_pair(x: Any, y: Any, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Tiny real arrays of ``x``'s and ``y``'s dtypes and numbers of axes (time ``axis``, 8
    samples), for the in-memory function's checks; a ``TypeError`` or ``ValueError`` of
    the in-memory function names what it refuses."""
    def tiny(v: Any, name: str) -> np.ndarray:
        dtype = getattr(v, "dtype", None)
        if dtype is None:
            v = np.asarray(v)
            dtype = v.dtype
        ndim = int(getattr(v, "ndim", 0))
        if ndim == 0:
            return np.zeros((), dtype)
        if not -ndim <= axis < ndim:
            raise ValueError(f"axis {axis} is out of bounds for {name} of {ndim} dimensions")
        shape = [1] * ndim
        shape[axis] = 8
        return np.zeros(shape, dtype)

    return tiny(x, "x"), tiny(y, "y")


def _coherence_reach(f: np.ndarray, fs: float, sig: np.ndarray, n: int, xi: float, mode: str,
                     tol: float | None) -> tuple[int | None, np.ndarray]:
    """Samples a time chunk needs from each neighbour for :func:`wct`: the transform's
    widest half-window plus the widest time smoothing's (None: a smoothing needs the
    whole axis); and the rows the whole record's transform runs by FFT (:func:`_cwt_reach`)."""
    reach, fft = _cwt_reach(f, fs, n, {"xi": xi, "tol": tol, "mode": mode})
    smooth = [_gaussian_reach(float(s), 0, n, {"tol": tol}) for s in sig]
    if any(r is None for r in smooth):
        return None, fft
    return int(reach) + max(int(r) for r in smooth if r is not None), fft


def xwt(x: ArrayLike, y: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, xi: float = 6.0,
        axis: int = -1, mode: str = "reflect", cval: float = 0.0, tol: float | None = None,
        workers: int | None = None, nan_policy: str = "propagate") -> Any:
    """:func:`sftwave.coherence.xwt` of dask arrays, lazily (same arguments): ``W_x conj(W_y)``,
    complex128, shape ``(*broadcast leading axes, len(freqs), n)``.

    Each transform is :func:`cwt`'s (chunks extended by exactly the window's reach); the
    product is taken block by block.

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
    from .coherence import xwt as in_memory

    da, _ = _dask_array(x)
    in_memory(*_probe_pair(x, y, axis), freqs, fs, xi=xi, axis=axis, mode=mode, cval=cval,
              tol=tol, workers=workers, nan_policy=nan_policy)
    a, b = _pair_lazy(da, x, y, axis)
    kw: dict[str, Any] = dict(xi=float(xi), mode=mode, cval=cval, tol=tol, nan_policy=nan_policy,
              dtype=np.complex128)
    if workers is not None:
        kw["workers"] = workers
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    return cwt(a, f, fs, **kw) * da.conj(cwt(b, f, fs, **kw))


def wct(x: ArrayLike, y: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, xi: float = 6.0,
        smoothing: str = "grinsted", scale_width: float = DELTAJ0, axis: int = -1,
        mode: str = "reflect", cval: float = 0.0, tol: float | None = None,
        workers: int | None = None, nan_policy: str = "propagate") -> Any:
    """:func:`sftwave.coherence.wct` of dask arrays, lazily (same arguments), for records too
    long for memory: a :class:`~sftwave.coherence.Coherence` whose ``coherence``, ``phase``
    and ``cross`` are dask arrays of shape ``(*broadcast leading axes, len(freqs), n)``, its
    ``coi`` a NumPy array.

    Each time chunk is extended by exactly the samples its outputs depend on: the
    transform's widest half-window plus the widest Gaussian smoothing's (about 11 scales
    of the lowest frequency; smaller chunks are merged first), the true ends by
    ``mode`` as in memory.  The chunks' rows run by the methods the whole record's call
    chooses, so the result equals the in-memory one within rounding.  The three arrays
    come from one graph: compute them together (``dask.compute(r.coherence, r.phase)``)
    so that each block is transformed once.

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
    from .analysis import cone_of_influence
    from .coherence import Coherence, checked_scales, coherence_rows, scale_weights
    from .coherence import wct as in_memory
    from .wavelets import cwt as batch
    from .wavelets import windowed_plans

    da, _ = _dask_array(x)
    in_memory(*_probe_pair(x, y, axis), freqs, fs, xi=xi, smoothing=smoothing,
              scale_width=scale_width, axis=axis, mode=mode, cval=cval, tol=tol, workers=workers,
              nan_policy=nan_policy)
    a, b = _pair_lazy(da, x, y, axis)
    mode = check_mode(mode)
    f, sig, xi = checked_scales(freqs, fs, xi)
    B = scale_weights(sig, smoothing, float(scale_width))
    arr = da.stack([a, b]).rechunk({0: 2})
    last = arr.ndim - 1
    n = int(arr.shape[-1])
    reach, fft = _coherence_reach(f, fs, sig, n, xi, mode, tol)
    if reach is None or reach >= n:
        arr = arr.rechunk({last: n})
        reach = 0
    else:
        arr = _rechunk_axis(arr, last, 2 * reach + 1)
    nblocks = len(arr.chunks[-1])
    periodic = mode == "wrap"
    depth = {i: (reach if i == last else 0) for i in range(arr.ndim)}
    g = da.overlap.overlap(arr, depth=depth, boundary="periodic" if periodic else "none") \
        if reach else arr
    parts = g.npartitions
    kw: dict[str, Any] = dict(xi=xi, mode=mode, cval=cval, tol=tol, nan_policy=nan_policy,
                              dtype=np.complex128)
    if workers is not None:
        kw["workers"] = workers

    def block(v: np.ndarray, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        lead, nb = v.shape[1:-1], v.shape[-1]
        with pool.limit(_block_workers(parts)):
            W = _block_rows(batch, windowed_plans, v.reshape(2, -1, nb), f, fs, fft, **kw)
            r2, cross = coherence_rows(W, sig, B, mode, 0.0, tol)
        del W
        lo = reach if (reach and (k > 0 or periodic)) else 0
        hi = reach if (reach and (k < nblocks - 1 or periodic)) else 0
        out = np.empty((3,) + lead + (f.size, nb - lo - hi))
        for i, part in enumerate((r2, cross.real, cross.imag)):
            out[i] = np.moveaxis(part[..., lo:nb - hi], 0, -2).reshape(lead + (f.size, -1))
        return out

    chunks = ((3,),) + arr.chunks[1:-1] + ((f.size,), arr.chunks[-1])
    z = g.map_blocks(block, dtype=np.float64, chunks=chunks, new_axis=[last],
                     meta=np.empty((0,) * (arr.ndim + 1), np.float64))
    cross = z[1] + 1j * z[2]
    return Coherence(z[0], da.arctan2(z[2], z[1]), cross, cone_of_influence(n, fs, xi))


# --------------------------------------------------------------------------- image features


# --------------------------------------------------------------------------- synchrosqueezing


def _ssq_reach(f: np.ndarray, fs: float, n: int, xi: float, tol: float, mode: str) -> int:
    """The samples on either side of a column that :func:`sftwave.synchrosqueeze.ssq_cwt` reads without the
    FFT on ``n`` samples: its widest wavelet's window (either design), at least the sixth-order
    difference's 3."""
    from .plans import select_morlet
    from .wavelets import frequency_to_scale

    cost = engines.get("numba").fir_taps_per_order()
    reach = 3
    for s in frequency_to_scale(f, fs, xi):
        for transform in ("sft", "asft"):
            plan = select_morlet(float(s), xi, tol, method="auto", transform=transform, n=n,
                                 fir_taps_per_order=cost, mode=mode)
            reach = max(reach, *nonfinite.support(plan, n))
    return int(reach)


def ssq_cwt(x: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, axis: int = -1,
            gamma: float | None = None, **kwargs: Any) -> Any:
    """:func:`sftwave.synchrosqueeze.ssq_cwt` of a dask array, lazily: shape ``x.shape`` without ``axis``, then
    ``(len(bins), n)``, chunked as ``x`` along its other axes and in time.

    Each column of the synchrosqueezed transform depends on the coefficients of
    that column alone, so each time chunk is computed by the in-memory function
    over the chunk extended by the widest wavelet's window on either side (cut
    back afterwards).  The blocks run the bank's and the FIR's plans on every
    scale (``fft=False``: the FFT reads the whole record), as the in-memory
    call with ``fft=False`` does; their results agree to rounding, but where a
    coefficient's frequency lies within rounding of the edge between two bins
    (a coefficient then lands in the neighbouring bin; each column's sum stays
    the same).  The default ``gamma`` (``10 eps max|x|``) reads the whole
    record's largest finite magnitude, a lazy reduction done first.

    Parameters
    ----------
    x : dask.array.Array or array_like
        Real signal(s), time along ``axis``.
    freqs, fs, gamma
        As :func:`sftwave.synchrosqueeze.ssq_cwt`.
    axis : int, optional
        The time axis.
    **kwargs
        The other arguments of :func:`sftwave.synchrosqueeze.ssq_cwt` (``xi``, ``ssq_freqs``,
        ``squeezing``, ``mode``, ``cval``, ``tol``, ``dtype``, ``block``,
        ``derivative``, ``workers``); not ``out``, ``return_cwt`` or ``fft``.

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

    from .plans import DEFAULT_MORLET_TOL
    from .plans.select import max_kernel_sigma, wavelet_too_long
    from .synchrosqueeze import squeeze_frequencies
    from .synchrosqueeze import ssq_cwt as batch
    from .wavelets import frequency_to_scale

    for name in ("out", "return_cwt", "fft"):
        if name in kwargs:
            raise TypeError(f"sftwave.dask.ssq_cwt takes no {name!r}: it returns a new dask array "
                            f"and runs its blocks without the FFT (the FFT reads the whole record)")
    da, arr = _dask_array(x)
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    probe = batch(np.zeros((1, 16), arr.dtype), f, fs, gamma=gamma, fft=False,
                  **kwargs)                     # the arguments checked once, the result's dtype
    axis = check_axis(axis, arr.ndim)
    arr = da.moveaxis(arr, axis, -1)
    last = arr.ndim - 1
    n = int(arr.shape[-1])
    bins = squeeze_frequencies(f, kwargs.get("ssq_freqs"))
    out_dtype = probe.dtype
    if n == 0 or arr.size == 0:
        return da.zeros(arr.shape[:-1] + (bins.size, n), dtype=out_dtype,
                        chunks=arr.chunks[:-1] + ((bins.size,), arr.chunks[-1]))
    xi = float(kwargs.get("xi", 6.0))
    for fi, sig in zip(f, frequency_to_scale(f, fs, xi)):
        if sig > max_kernel_sigma(n):
            raise ValueError(wavelet_too_long(f"freqs (its {float(fi)!r} with fs={fs!r})",
                                              float(sig), xi, n))
    mode = check_mode(kwargs.get("mode", "reflect"))
    tol = kwargs.get("tol") or DEFAULT_MORLET_TOL
    reach = _ssq_reach(f, fs, n, xi, float(tol), mode)
    if reach >= n or mode in ("wrap", "grid-wrap"):     # the extension reads the far end
        arr = arr.rechunk({last: n})
        reach = 0
    else:
        arr = _rechunk_axis(arr, last, 2 * reach + 1)
    if gamma is None:                   # 10 eps times the record's largest finite magnitude
        finite = da.where(da.isfinite(arr), abs(arr.astype(np.float64)), 0.0)
        gamma = dask.delayed(lambda top: 10.0 * np.finfo(np.float64).eps * float(top))(
            finite.max())
    nblocks = len(arr.chunks[-1])
    out_chunks = arr.chunks[:-1] + ((bins.size,), arr.chunks[-1])
    depth = {i: (reach if i == last else 0) for i in range(arr.ndim)}
    g = da.overlap.overlap(arr, depth=depth, boundary="none") if reach else arr
    parts = g.npartitions

    def block(b: np.ndarray, gamma: float, block_info: Any = None) -> np.ndarray:
        k = block_info[0]["chunk-location"][last]
        with pool.limit(_block_workers(parts)):
            y = batch(b, f, fs, gamma=gamma, fft=False, **kwargs)
        lo = reach if (reach and k > 0) else 0
        hi = reach if (reach and k < nblocks - 1) else 0
        return y[..., lo:y.shape[-1] - hi]

    return g.map_blocks(block, gamma=gamma, dtype=out_dtype, chunks=out_chunks, new_axis=[last],
                        meta=np.empty((0,) * (arr.ndim + 1), out_dtype))


def _filter_reach(shape: tuple, sigmas: Sequence[float], orders: Sequence[int], axes: Sequence[int],
                  truncate: float, tol: float | None) -> list[int | None]:
    """Per axis of an image, the samples one :func:`sftwave.gaussian_filter` call reads from
    each side (None: the exact wide-kernel limit, which needs the whole axis)."""
    reach: list[int | None] = [0] * len(shape)
    for ax, s, o in zip(axes, sigmas, orders, strict=True):
        if float(s) > 0:
            reach[ax] = _gaussian_reach(float(s), int(o), int(shape[ax]),
                                        {"truncate": truncate, "tol": tol})
    return reach


def _add_reach(*reaches: list[int | None]) -> list[int | None]:
    """The reach of filters applied one after another: the sum, per axis."""
    return [None if any(r is None for r in rs) else sum(rs)
            for rs in zip(*reaches, strict=True)]


def _max_reach(*reaches: list[int | None]) -> list[int | None]:
    """The reach of filters applied side by side: the largest, per axis."""
    return [None if any(r is None for r in rs) else max(rs)
            for rs in zip(*reaches, strict=True)]


def _hessian_reach(shape: tuple, sigma: Any, use_gaussian_derivatives: Any,
                   tol: float | None) -> list[int | None]:
    """Per axis, the samples :func:`sftwave.feature.hessian_matrix` reads from each side."""
    from ._scale_space import DERIVATIVE_TOL, derivative_truncate

    ndim = len(shape)
    sigmas = [float(s) for s in per_axis(sigma, ndim, "sigma")]
    axes = list(range(ndim))
    if use_gaussian_derivatives:         # two first-derivative passes at sigma / sqrt(2)
        scaled = [s / np.sqrt(2.0) for s in sigmas]
        truncate = derivative_truncate(sigmas)
        tol = DERIVATIVE_TOL if tol is None else tol
        one = _max_reach(_filter_reach(shape, scaled, [0] * ndim, axes, truncate, tol),
                         _filter_reach(shape, scaled, [1] * ndim, axes, truncate, tol))
        return _add_reach(one, one)
    smooth = _filter_reach(shape, sigmas, [0] * ndim, axes, 4.0, tol)
    return _add_reach(smooth, [2] * ndim)  # np.gradient twice: one sample each


def _extended(x: Any, reach: list[int | None], wraps: bool) -> tuple[Any, dict[int, int]]:
    """``x`` rechunked so that each block holds twice its reach, and extended by it
    (``boundary='none'``): ``(extended array, depth per axis)``, as :func:`_overlapped` cuts
    back.  An axis whose reach is None, or at least its length, and every filtered axis when
    ``wraps``, is taken whole (depth 0)."""
    from dask.array.overlap import overlap

    depth = {}
    for ax, r in enumerate(reach):
        n = int(x.shape[ax])
        if r is None or r >= n or (wraps and r > 0):
            x = x.rechunk({ax: n})
            r = 0
        elif r > 0:
            x = _rechunk_axis(x, ax, 2 * r + 1)
        depth[ax] = int(r)
    return overlap(x, depth=depth, boundary="none"), depth


def _overlapped(fn: Any, x: Any, reach: list[int | None], dtype: np.dtype, count: int | None,
                wraps: bool, **kwargs: Any) -> Any:
    """``fn`` (an in-memory function of an image) block by block on ``x``, each block extended
    by ``reach`` samples of its neighbours and cut back afterwards: equal to ``fn(x)``.

    An axis whose reach is None, or at least its length, and every filtered axis when
    ``wraps`` (``mode='wrap'``, whose extension reads the far end) is taken whole.  ``count``: ``fn``
    returns that many arrays of the image's shape (a list); None: one array.
    ``kwargs`` go to ``fn`` and may hold ``dask.delayed`` values.
    """
    from dask.array.overlap import trim_internal

    g, depth = _extended(x, reach, wraps)
    nblocks = g.npartitions

    def block(b: np.ndarray, **kw: Any) -> np.ndarray:
        with pool.limit(_block_workers(nblocks)):
            out = fn(b, **kw)
        return np.stack(out) if count is not None else out

    meta = np.empty((0,) * (x.ndim + (count is not None)), dtype)
    if count is None:
        y = g.map_blocks(block, dtype=dtype, meta=meta, **kwargs)
        return trim_internal(y, depth, boundary="none")
    y = g.map_blocks(block, new_axis=0, chunks=((count,),) + g.chunks, dtype=dtype, meta=meta,
                     **kwargs)
    y = trim_internal(y, {0: 0, **{ax + 1: r for ax, r in depth.items()}}, boundary="none")
    return [y[i] for i in range(count)]


def _tiny(x: Any) -> np.ndarray:
    """A 3 x 3 (x 3 ...) image of ``x``'s dtype and number of axes: the in-memory function
    called on it checks the arguments at once and tells the result's dtype."""
    return np.zeros((3,) * x.ndim, dtype=x.dtype)


def hessian_matrix(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                   cval: float = 0, order: str = "rc", use_gaussian_derivatives: bool | None = None,
                   *, tol: float | None = None) -> list[Any]:
    """:func:`sftwave.feature.hessian_matrix` of a dask array, lazily (same arguments).

    Each block is extended by exactly the samples its filters read (the
    Gaussian passes' half-windows and, without Gaussian derivatives, one sample
    per ``np.gradient``), so the elements equal the in-memory ones.

    See Also
    --------
    sftwave.feature.hessian_matrix : The same in memory.
    hessian_matrix_eigvals : The eigenvalues of the elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(0).standard_normal((300, 200))
    >>> H = hessian_matrix(da.from_array(img, chunks=100), 4.0, use_gaussian_derivatives=True)
    >>> ref = feature.hessian_matrix(img, 4.0, use_gaussian_derivatives=True)
    >>> all(np.allclose(h.compute(), r, rtol=0, atol=1e-12) for h, r in zip(H, ref))
    True
    """
    from . import feature

    da, x = _dask_array(image)
    kw: dict[str, Any] = dict(sigma=sigma, mode=mode, cval=cval, order=order,
              use_gaussian_derivatives=use_gaussian_derivatives, tol=tol)
    tiny = feature.hessian_matrix(_tiny(x), **kw)
    reach = _hessian_reach(x.shape, sigma, use_gaussian_derivatives, tol)
    return _overlapped(feature.hessian_matrix, x, reach, tiny[0].dtype, len(tiny),
                       check_mode(mode) == "wrap", **kw)


def _pointwise_stack(fn: Any, elems: Sequence[Any], name: str) -> Any:
    """``fn`` (elements to a stacked ``(n,) + shape`` array) block by block on dask arrays."""
    if isinstance(elems, (str, bytes)) or not isinstance(elems, Sequence):
        raise TypeError(f"{name} must be a list of arrays; got {type(elems).__name__}")
    if not len(elems):
        fn([])                                   # its own error: no elements
    da, first = _dask_array(elems[0])
    arrays = [first] + [_dask_array(e)[1] for e in elems[1:]]
    if any(a.shape != first.shape for a in arrays):
        raise ValueError(f"{name} must all have one shape; got {[a.shape for a in arrays]}")
    arrays = [a.rechunk(first.chunks) for a in arrays]
    tiny = fn([np.zeros((1,) * first.ndim, a.dtype) for a in arrays])   # checks the count
    n, dtype = tiny.shape[0], tiny.dtype
    return da.map_blocks(lambda *b: fn(list(b)), *arrays, new_axis=0,
                         chunks=((n,),) + first.chunks, dtype=dtype,
                         meta=np.empty((0,) * (first.ndim + 1), dtype))


def hessian_matrix_eigvals(H_elems: Sequence[ArrayLike]) -> Any:
    """:func:`sftwave.feature.hessian_matrix_eigvals` of dask arrays, lazily, block by block.

    See Also
    --------
    sftwave.feature.hessian_matrix_eigvals : The same in memory.
    hessian_matrix : The elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(1).standard_normal((120, 90))
    >>> ev = hessian_matrix_eigvals(hessian_matrix(da.from_array(img, chunks=50), 2.0))
    >>> ref = feature.hessian_matrix_eigvals(feature.hessian_matrix(img, 2.0))
    >>> ev.shape == ref.shape and bool(np.allclose(ev.compute(), ref, rtol=0, atol=1e-12))
    True
    """
    from . import feature

    return _pointwise_stack(feature.hessian_matrix_eigvals, H_elems, "H_elems")


def structure_tensor(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                     cval: float = 0, order: str = "rc", *, tol: float | None = None) -> list[Any]:
    """:func:`sftwave.feature.structure_tensor` of a dask array, lazily (same arguments).

    Each block is extended by one sample for the Sobel derivatives plus the
    Gaussian's half-window, so the elements equal the in-memory ones.

    See Also
    --------
    sftwave.feature.structure_tensor : The same in memory.
    structure_tensor_eigenvalues : Its eigenvalues, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(2).standard_normal((200, 150)).astype(np.float32)
    >>> A = structure_tensor(da.from_array(img, chunks=64), 3.0)
    >>> ref = feature.structure_tensor(img, 3.0)
    >>> all(a.dtype == r.dtype and np.allclose(a.compute(), r, atol=1e-5) for a, r in zip(A, ref))
    True
    """
    from . import feature

    da, x = _dask_array(image)
    kw: dict[str, Any] = dict(sigma=sigma, mode=mode, cval=cval, order=order, tol=tol)
    tiny = feature.structure_tensor(_tiny(x), **kw)
    ndim = x.ndim
    smooth = _filter_reach(x.shape, per_axis(sigma, ndim, "sigma"), [0] * ndim,
                           list(range(ndim)), 4.0, tol)
    return _overlapped(feature.structure_tensor, x, _add_reach(smooth, [1] * ndim),
                       tiny[0].dtype, len(tiny), check_mode(mode) == "wrap", **kw)


def structure_tensor_eigenvalues(A_elems: Sequence[ArrayLike]) -> Any:
    """:func:`sftwave.feature.structure_tensor_eigenvalues` of dask arrays, lazily.

    See Also
    --------
    sftwave.feature.structure_tensor_eigenvalues : The same in memory.
    structure_tensor : The elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(3).standard_normal((80, 80))
    >>> ev = structure_tensor_eigenvalues(structure_tensor(da.from_array(img, chunks=40), 1.5))
    >>> ref = feature.structure_tensor_eigenvalues(feature.structure_tensor(img, 1.5))
    >>> bool(np.allclose(ev.compute(), ref, rtol=0, atol=1e-12))
    True
    """
    from . import feature

    return _pointwise_stack(feature.structure_tensor_eigenvalues, A_elems, "A_elems")


def difference_of_gaussians(image: ArrayLike, low_sigma: float | Sequence[float],
                            high_sigma: float | Sequence[float] | None = None, *,
                            mode: str = "nearest", cval: float = 0, channel_axis: int | None = None,
                            truncate: float = 4.0, tol: float | None = None) -> Any:
    """:func:`sftwave.feature.difference_of_gaussians` of a dask array, lazily (same arguments).

    See Also
    --------
    sftwave.feature.difference_of_gaussians : The same in memory.
    gaussian_filter : One Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(4).standard_normal((150, 150))
    >>> d = difference_of_gaussians(da.from_array(img, chunks=60), 2.0, 8.0)
    >>> bool(np.allclose(d.compute(), feature.difference_of_gaussians(img, 2.0, 8.0), atol=1e-12))
    True
    """
    from . import feature

    da, x = _dask_array(image)
    kw: dict[str, Any] = dict(low_sigma=low_sigma, high_sigma=high_sigma, mode=mode, cval=cval,
              channel_axis=channel_axis, truncate=truncate, tol=tol)
    tiny = feature.difference_of_gaussians(_tiny(x), **kw)
    spatial = list(range(x.ndim))
    if channel_axis is not None:
        spatial.remove(check_axis(channel_axis, x.ndim, "channel_axis"))
    low = [float(s) for s in per_axis(low_sigma, len(spatial), "low_sigma")]
    high = ([1.6 * s for s in low] if high_sigma is None
            else [float(s) for s in per_axis(high_sigma, len(spatial), "high_sigma")])
    reach = _max_reach(*(_filter_reach(x.shape, s, [0] * len(spatial), spatial, truncate, tol)
                         for s in (low, high)))
    return _overlapped(feature.difference_of_gaussians, x, reach, tiny.dtype, None,
                       check_mode(mode) == "wrap", **kw)


def frangi(image: ArrayLike, sigmas: Any = range(1, 10, 2),
           scale_range: tuple[float, float] | None = None, scale_step: float | None = None,
           alpha: float = 0.5, beta: float = 0.5, gamma: float | None = None,
           black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
           tol: float | None = None) -> Any:
    """:func:`sftwave.feature.frangi` of a dask array, lazily (same arguments).

    Each block is extended by the widest scale's reach.  With ``gamma=None``
    the default structuredness weight is a reduction over the whole image (half
    the largest Hessian norm at the first scale), so the first scale's Hessian
    is computed twice: once for that reduction, once in the blocks.

    See Also
    --------
    sftwave.feature.frangi : The same in memory.
    hessian_matrix : The Hessian at one scale, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((120, 100))
    >>> img[:, 50] = 0.0                        # a dark vertical line
    >>> v = frangi(da.from_array(img, chunks=40), sigmas=[1, 2])
    >>> bool(np.allclose(v.compute(), feature.frangi(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    import dask

    from . import feature
    from ._scale_space import frangi_gamma, hessian_norm2

    da, x = _dask_array(image)
    if scale_range is not None and scale_step is not None:
        sigmas = np.arange(scale_range[0], scale_range[1], scale_step)
    scales = [float(s) for s in sigmas] if isinstance(sigmas, Iterable) else [sigmas]
    kw: dict[str, Any] = dict(sigmas=scales, alpha=alpha, beta=beta, black_ridges=black_ridges,
                              mode=mode, cval=cval, tol=tol)
    dtype = feature.frangi(_tiny(x), gamma=gamma, **kw).dtype
    reach = _max_reach(*(_hessian_reach(x.shape, s, True, tol) for s in scales))
    if gamma is None:
        signed = x.astype(dtype) if black_ridges else -x.astype(dtype)
        H = hessian_matrix(signed, scales[0], mode=mode, cval=cval, use_gaussian_derivatives=True,
                           tol=tol)
        norm2 = da.map_blocks(lambda *b: hessian_norm2(b, x.ndim), *H, dtype=np.float64)
        top = da.where(da.isfinite(norm2), norm2, 0.0).max()
        gamma = dask.delayed(frangi_gamma)(top)
    return _overlapped(feature.frangi, x, reach, dtype, None, check_mode(mode) == "wrap",
                       gamma=gamma, **kw)


def _ridge_filter(name: str, image: ArrayLike, sigmas: Any, kw: dict[str, Any]) -> Any:
    """A ridge filter of :mod:`sftwave.feature` block by block, each block extended by the
    widest scale's Hessian reach (for filters without a reduction over the image: not
    ``meijering``, which scales each scale's response by its maximum over the image, and
    has its own two passes)."""
    from . import feature

    fn = getattr(feature, name)
    da, x = _dask_array(image)
    scales = [float(s) for s in sigmas] if isinstance(sigmas, Iterable) else [sigmas]
    dtype = fn(_tiny(x), scales, **kw).dtype
    reach = _max_reach(*(_hessian_reach(x.shape, s, True, kw.get("tol")) for s in scales))
    return _overlapped(lambda b, **k: fn(b, scales, **k), x, reach, dtype, None,
                       check_mode(kw["mode"]) == "wrap", **kw)


def sato(image: ArrayLike, sigmas: Any = range(1, 10, 2), black_ridges: bool = True,
         mode: str = "reflect", cval: float = 0, *, tol: float | None = None) -> Any:
    """:func:`sftwave.feature.sato` of a dask array, lazily (same arguments).

    See Also
    --------
    sftwave.feature.sato : The same in memory.
    frangi : Frangi's vesselness, lazily.
    meijering : Meijering's neuriteness, lazily (two passes per scale).

    Notes
    -----
    ``blob_log`` and ``blob_dog`` have no lazy version here: the blobs are peaks of the
    whole scale space, thresholded against its maximum and pruned in pairs.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((90, 80))
    >>> img[:, 40] = 0.0
    >>> r = sato(da.from_array(img, chunks=30), sigmas=[1, 2])
    >>> bool(np.allclose(r.compute(), feature.sato(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    return _ridge_filter("sato", image, sigmas,
                         dict(black_ridges=black_ridges, mode=mode, cval=cval, tol=tol))


def meijering(image: ArrayLike, sigmas: Any = range(1, 10, 2), alpha: float | None = None,
              black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
              tol: float | None = None) -> Any:
    """:func:`sftwave.feature.meijering` of a dask array, lazily (same arguments).

    Each scale's response is divided by its largest value over the whole image, so
    each scale runs twice: a first pass of the blocks (each extended by the scale's
    Hessian reach) reduces them to their largest values, a second computes them again
    and divides by the image's; no block is kept between the two, so memory stays that
    of the blocks in flight.  Equal to the in-memory result within rounding.

    See Also
    --------
    sftwave.feature.meijering : The same filter in memory.
    sato : Sato's tubeness, lazily (no normalisation: one pass).
    frangi : Frangi's vesselness, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((90, 80))
    >>> img[:, 40] = 0.0
    >>> r = meijering(da.from_array(img, chunks=30), sigmas=[1, 2])
    >>> bool(np.allclose(r.compute(), feature.meijering(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    import dask

    from . import feature
    from .feature._common import nan_extreme
    from .feature._ridges import meijering_response

    da, x = _dask_array(image)
    scales = [float(s) for s in sigmas] if isinstance(sigmas, Iterable) else [sigmas]
    kw: dict[str, Any] = dict(alpha=alpha, black_ridges=black_ridges, mode=mode, cval=cval, tol=tol)
    dtype = feature.meijering(_tiny(x), scales, **kw).dtype          # the checks, the dtype
    wraps = check_mode(mode) == "wrap"

    def block_top(b: np.ndarray, sigma: float, depth: dict[int, int], parts: int,
                  block_info: Any = None, **k: Any) -> np.ndarray:
        """The largest response of a block's own samples (NaN: none), one sample per axis."""
        with pool.limit(_block_workers(parts)):
            vals = meijering_response(b, sigma, **k)
        loc, nchunks = block_info[0]["chunk-location"], block_info[0]["num-chunks"]
        core = tuple(slice(depth[ax] if loc[ax] > 0 else 0,
                           vals.shape[ax] - (depth[ax] if loc[ax] < nchunks[ax] - 1 else 0))
                     for ax in range(vals.ndim))
        return np.full((1,) * b.ndim, nan_extreme(vals[core], largest=True), dtype)

    def scaled(b: np.ndarray, sigma: float, top: Any, **k: Any) -> np.ndarray:
        vals = meijering_response(b, sigma, **k)
        if top > 0:
            vals /= top
        return vals

    out = da.zeros(x.shape, dtype=dtype, chunks=x.chunks)
    for sigma in scales:
        reach = _hessian_reach(x.shape, sigma, True, tol)
        # first pass: each block's largest response (its own samples), then the image's
        g, depth = _extended(x, reach, wraps)
        tops = g.map_blocks(block_top, dtype=dtype, chunks=tuple((1,) * len(c) for c in g.chunks),
                            meta=np.empty((0,) * x.ndim, dtype), sigma=sigma, depth=depth,
                            parts=g.npartitions, **kw)
        top = dask.delayed(nan_extreme)(tops, largest=True)
        # second pass: the responses again, divided by it
        vals = _overlapped(scaled, x, reach, dtype, None, wraps,
                           sigma=sigma, top=top, **kw)
        out = da.maximum(out, vals)
    return out


def _block_cores(chunks: tuple[tuple[int, ...], ...],
                 depth: dict[int, int]) -> list[list[tuple[int, int, int]]]:
    """Per axis, per block of an extended array: ``(start, stop)`` of the block's own samples
    inside it and the global index of its first."""
    out = []
    for ax, sizes in enumerate(chunks):
        d, at, axis = depth[ax], 0, []
        for j, size in enumerate(sizes):
            start = d if j > 0 else 0
            stop = size - (d if j < len(sizes) - 1 else 0)
            axis.append((start, stop, at))
            at += stop - start
        out.append(axis)
    return out


def _lazy_blobs(x: Any, dtype: np.dtype, cube: Any, nscales: int, reach: list[int | None],
                sigma_list: np.ndarray, scalar_sigma: bool, threshold: float | None,
                threshold_rel: float | None, border: tuple[int, ...], overlap: float) -> np.ndarray:
    """The blobs of a dask image: each block's scale space (``cube``, an in-memory function of a
    NumPy block) over the block extended by the Gaussians' ``reach`` and one sample more (the
    peaks' neighbourhood), its peaks among its own samples, gathered, sorted and pruned here."""
    import dask

    from .feature._blobs import blobs_of_peaks, cube_peaks, peak_threshold, sort_peaks
    from .feature._common import as_float, nan_extreme

    ndim = x.ndim
    nothing = blobs_of_peaks(np.empty((0, ndim + 1), np.intp), dtype, sigma_list, scalar_sigma,
                             overlap)
    if x.size == 0:
        return nothing
    g, depth = _extended(x, [None if r is None else r + 1 for r in reach], False)
    cores = _block_cores(g.chunks, depth)
    blocks = g.to_delayed()
    nblocks = blocks.size
    size = nscales * x.size

    def scale_space(b: np.ndarray) -> np.ndarray:
        with pool.limit(_block_workers(nblocks)):
            return cube(as_float(b))

    def extremes(b: np.ndarray, own: tuple[slice, ...]) -> tuple[Any, Any]:
        c = scale_space(b)[(slice(None),) + own]
        return nan_extreme(c, largest=False), nan_extreme(c, largest=True)

    def peaks(b: np.ndarray, own: tuple[slice, ...], box: list[tuple[int, int]], shift: np.ndarray,
              thr: float) -> tuple[np.ndarray, np.ndarray, Any, Any]:
        c = scale_space(b)
        coords, values = cube_peaks(c, thr, box)
        mine = c[(slice(None),) + own]
        return (coords + shift, values, nan_extreme(mine, largest=False),
                nan_extreme(mine, largest=True))

    def layout(index: tuple[int, ...]) -> tuple[tuple[slice, ...], list[tuple[int, int]], np.ndarray]:
        own, box, shift = [], [], np.zeros(ndim + 1, dtype=np.intp)
        for ax, j in enumerate(index):
            start, stop, at = cores[ax][j]
            own.append(slice(start, stop))
            n, b = int(x.shape[ax]), border[ax]
            box.append((max(start, b - at + start), min(stop, n - b - at + start)))
            shift[ax] = at - start
        return tuple(own), box, shift

    places = [layout(index) for index in np.ndindex(*blocks.shape)]
    lo = hi = None
    if threshold is None or threshold_rel is not None:      # the cube's extremes decide it: a first pass
        ends = dask.compute(*(dask.delayed(extremes)(blk, own)
                              for blk, (own, _, _) in zip(blocks.ravel(), places)))
        lo = nan_extreme(np.array([e[0] for e in ends], dtype=dtype), largest=False)
        hi = nan_extreme(np.array([e[1] for e in ends], dtype=dtype), largest=True)
        thr = peak_threshold(lo, hi, threshold, threshold_rel, size, dtype)
    else:
        thr = peak_threshold(-np.inf, np.inf, threshold, None, size, dtype)
    if thr is None:
        return nothing
    found = dask.compute(*(dask.delayed(peaks)(blk, own, box, shift, thr)
                           for blk, (own, box, shift) in zip(blocks.ravel(), places)))
    if lo is None:                                  # a constant cube has no peak
        lo = nan_extreme(np.array([f[2] for f in found], dtype=dtype), largest=False)
        hi = nan_extreme(np.array([f[3] for f in found], dtype=dtype), largest=True)
        if peak_threshold(lo, hi, threshold, None, size, dtype) is None:
            return nothing
    coords = np.concatenate([f[0] for f in found])
    values = np.concatenate([f[1] for f in found])
    return blobs_of_peaks(sort_peaks(coords, values), dtype, sigma_list, scalar_sigma, overlap)


def blob_log(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, num_sigma: int = 10,
             threshold: float | None = 0.2, overlap: float = 0.5, log_scale: bool = False, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             tol: float | None = None) -> np.ndarray:
    """:func:`sftwave.feature.blob_log` of a dask image (same arguments): the blobs, in memory.

    The blobs are a short list, the scale space is not: each block's scale
    space is computed over the block extended by the Laplacians' reach and one
    sample more (the peaks' 3 x 3 x 3 neighbourhood), its peaks taken among its
    own samples, and only they are gathered, then sorted and pruned as in
    memory.  No scale space larger than a block's is ever held.  With
    ``threshold=None`` or a ``threshold_rel``, the scale space's extremes are
    needed first: the blocks then run twice (a first pass reduces each to its
    smallest and largest response).  The same blobs as in memory, but where a
    response ties with a neighbour's or the threshold to within rounding (the
    filters' recursions round differently on a block than on the whole image,
    about 1e-15 of the responses in float64).

    Returns
    -------
    numpy.ndarray
        As :func:`sftwave.feature.blob_log`: ``(n, ndim + 1)`` (or ``(n, 2 ndim)``),
        coordinates and sigmas.  The result is computed (with the current dask
        scheduler or ``distributed`` client).

    See Also
    --------
    sftwave.feature.blob_log : The same in memory.
    blob_dog : By differences of Gaussians, lazily.
    gaussian_filter : One Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> y, x = np.mgrid[:120, :100]
    >>> img = np.exp(-((y - 40) ** 2 + (x - 50) ** 2) / 32.0) + np.exp(-((y - 90) ** 2 + (x - 20) ** 2) / 18.0)
    >>> blob_log(da.from_array(img, chunks=45), max_sigma=10, threshold=0.1)
    array([[40., 50.,  4.],
           [90., 20.,  3.]])
    >>> bool(np.array_equal(_, feature.blob_log(img, max_sigma=10, threshold=0.1)))
    True
    """
    from . import feature
    from .feature._blobs import blob_options, log_cube, log_scales
    from .feature._common import as_float

    da, x = _dask_array(image)
    feature.blob_log(_tiny(x), min_sigma, max_sigma, num_sigma, threshold, overlap, log_scale,
                     threshold_rel=threshold_rel, exclude_border=exclude_border, tol=tol)  # the checks
    dtype = as_float(_tiny(x)).dtype
    scalar_sigma, sigma_list = log_scales(min_sigma, max_sigma, num_sigma, log_scale, x.ndim, dtype)
    threshold, threshold_rel, overlap, border, tol = blob_options(
        threshold, threshold_rel, overlap, exclude_border, x.ndim, tol)
    axes = list(range(x.ndim))
    reach = _max_reach(*(_filter_reach(x.shape, s, [o] * x.ndim, axes, 4.0, tol)
                         for s in sigma_list for o in (0, 2)))      # each axis's order 2, the others' 0

    def cube(b: np.ndarray) -> np.ndarray:
        return log_cube(b, sigma_list, tol)

    return _lazy_blobs(x, dtype, cube, len(sigma_list), reach, sigma_list, scalar_sigma, threshold,
                       threshold_rel, border, overlap)


def blob_dog(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, sigma_ratio: float = 1.6,
             threshold: float | None = 0.5, overlap: float = 0.5, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             tol: float | None = None) -> np.ndarray:
    """:func:`sftwave.feature.blob_dog` of a dask image (same arguments): the blobs, in memory.

    As :func:`blob_log`: each block's scale space over the block extended by the
    widest Gaussian's reach and one sample, its own peaks gathered, sorted and
    pruned here (two passes with ``threshold=None`` or a ``threshold_rel``).

    Returns
    -------
    numpy.ndarray
        As :func:`sftwave.feature.blob_dog`, computed.

    See Also
    --------
    sftwave.feature.blob_dog : The same in memory.
    blob_log : By the Laplacian of Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> y, x = np.mgrid[:100, :90]
    >>> img = np.exp(-((y - 30) ** 2 + (x - 25) ** 2) / 32.0)
    >>> found = blob_dog(da.from_array(img, chunks=40), max_sigma=10, threshold=0.05)
    >>> found
    array([[30.  , 25.  ,  2.56]])
    >>> bool(np.array_equal(found, feature.blob_dog(img, max_sigma=10, threshold=0.05)))
    True
    """
    from . import feature
    from .feature._blobs import blob_options, dog_cube, dog_scales
    from .feature._common import as_float

    da, x = _dask_array(image)
    feature.blob_dog(_tiny(x), min_sigma, max_sigma, sigma_ratio, threshold, overlap,
                     threshold_rel=threshold_rel, exclude_border=exclude_border, tol=tol)  # the checks
    dtype = as_float(_tiny(x)).dtype
    scalar_sigma, sigma_list = dog_scales(min_sigma, max_sigma, sigma_ratio, x.ndim, dtype)
    threshold, threshold_rel, overlap, border, tol = blob_options(
        threshold, threshold_rel, overlap, exclude_border, x.ndim, tol)
    axes = list(range(x.ndim))
    reach = _max_reach(*(_filter_reach(x.shape, s, [0] * x.ndim, axes, 4.0, tol)
                         for s in sigma_list))

    def cube(b: np.ndarray) -> np.ndarray:
        return dog_cube(b, sigma_list, float(sigma_ratio), tol)

    return _lazy_blobs(x, dtype, cube, len(sigma_list) - 1, reach, sigma_list, scalar_sigma,
                       threshold, threshold_rel, border, overlap)

def gabor_bank(image: ArrayLike, frequencies: float | Sequence[float], thetas: float | Sequence[float],
               bandwidth: float = 1, sigma_x: float | None = None, sigma_y: float | None = None,
               n_stds: float = 3, offset: float = 0, mode: str = "reflect", cval: float = 0,
               *, tol: float | None = None) -> Any:
    """:func:`sftwave.feature.gabor_bank` of a 2-D dask array, lazily (same arguments).

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
    from . import feature
    from .feature._gabor import gabor_reach

    da, x = _dask_array(image)
    kw: dict[str, Any] = dict(bandwidth=bandwidth, sigma_x=sigma_x, sigma_y=sigma_y, n_stds=n_stds,
                              offset=offset, mode=mode, cval=cval, tol=tol)
    tiny = feature.gabor_bank(_tiny(x), frequencies,
                              thetas, **kw)         # checks every argument; the result's dtype
    nf, nt = tiny.shape[:2]
    reach: list[int | None] = list(gabor_reach(x.shape, frequencies, thetas, bandwidth, sigma_x,
                                               sigma_y, n_stds, tol))

    def bank(b: np.ndarray) -> list[np.ndarray]:
        return list(feature.gabor_bank(b, frequencies, thetas, **kw).reshape((nf * nt,) + b.shape))

    parts = _overlapped(bank, x, reach, tiny.dtype, nf * nt, check_mode(mode) == "wrap")
    return da.stack(parts).reshape((nf, nt) + x.shape)


def gabor(image: ArrayLike, frequency: float, theta: float = 0, bandwidth: float = 1,
          sigma_x: float | None = None, sigma_y: float | None = None, n_stds: float = 3,
          offset: float = 0, mode: str = "reflect", cval: float = 0,
          *, tol: float | None = None) -> tuple[Any, Any]:
    """:func:`sftwave.feature.gabor` of a 2-D dask array, lazily: the real and imaginary responses.

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
    z = gabor_bank(image, [frequency], [theta], bandwidth, sigma_x, sigma_y, n_stds, offset, mode,
                   cval, tol=tol)[0, 0]
    return z.real, z.imag
