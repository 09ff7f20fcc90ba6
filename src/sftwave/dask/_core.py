"""The overlap machinery: chunks extended by a reach, blocks on their share of the threads.

Every lazy wrapper runs the in-memory function block by block, each block
extended by its reach (``._reach``: the samples the plans read from the
neighbours) and cut back afterwards.  Nothing here knows a family.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import engines
from .._checks import check_choice, check_workers
from .._checks.dask import check_elements, check_min_weight, check_same_shape
from ..engines import nonfinite

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["dask_array", "check_engine_options", "block_workers", "block_threads", "rechunk_axis", "extended",
           "overlapped", "block_cores", "pointwise_stack", "engine_of", "trim_time"]


def dask_array(x: Any) -> tuple[Any, Any]:
    """``(dask.array, x as a dask array)``; an ``ImportError`` saying how to install dask.

    (Typed ``Any``: dask's typing of ``map_blocks`` and ``map_overlap`` refuses NumPy block
    functions.)"""
    try:
        import dask.array as da
    except ImportError as exc:
        raise ImportError("sftwave.dask needs dask: pip install dask") from exc
    return da, (x if isinstance(x, da.Array) else da.asarray(x))


def check_engine_options(args: dict[str, Any], x: Any) -> str:
    """The engine of a call of the Gaussian filters or the CWT (:func:`engine_of`), and the
    options it would refuse (``transform``, ``bank_method``, ``nan_policy``, ``min_weight``,
    ``workers``) checked at the call, as the in-memory function checks them."""
    name = engine_of(x, args.get("engine"))
    engines.check_request(name, transform=args.get("transform"), bank_method=args.get("bank_method"))
    if "nan_policy" in args:
        check_choice(args["nan_policy"], nonfinite.NAN_POLICIES, "nan_policy")
    if "min_weight" in args:
        check_min_weight(args["min_weight"])
    if "workers" in args:
        check_workers(args["workers"])
    return name


def engine_of(x: Any, engine: str | None = None) -> str:
    """The engine the blocks of ``x`` run on (NumPy blocks: the CPU engine), as the in-memory
    call resolves it for a block: by ``engine=`` or the blocks' array type (dask's ``_meta``)."""
    return engines.resolve_engine(engine, getattr(x, "_meta", x))


def block_workers(nblocks: int) -> int | None:
    """Threads for one block's call, from inside the block: its share of the process's.

    None (no limit) for a graph of one block and on the main thread (dask's
    synchronous scheduler); see the package's *Threads*.

    Examples
    --------
    >>> block_workers(1) is None       # one block: all the process's threads
    True
    """
    total = engines.operation(engine_of(np.empty(0)), "default_threads")()
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


@contextlib.contextmanager
def block_threads(nblocks: int) -> Iterator[None]:
    """Run the ``with`` block (a block's call) on its share of the threads (:func:`block_workers`)."""
    with engines.operation(engine_of(np.empty(0)), "thread_limit")(block_workers(nblocks)):
        yield


def rechunk_axis(x: da.Array, axis: int, least: int, multiple: int = 1) -> da.Array:
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


def time_overlap(x: da.Array, reach: int | None, *, periodic: bool = False,
                 multiple: int = 1) -> tuple[Any, Any, int]:
    """``x`` (time last) rechunked so that each time chunk holds its reach on both sides, and
    extended by it: ``(rechunked, extended, reach)``; a reach of None or at least the length
    takes the whole axis in one chunk (reach 0).  ``periodic``: the true ends wrap."""
    from dask.array.overlap import overlap

    last, n = x.ndim - 1, int(x.shape[-1])
    if reach is None or reach >= n:
        x, reach = x.rechunk({last: n}), 0
    else:
        x = rechunk_axis(x, last, 2 * reach + 1, multiple=multiple)
    depth = {i: (reach if i == last else 0) for i in range(x.ndim)}
    g = overlap(x, depth=depth, boundary="periodic" if periodic else "none") if reach else x
    return x, g, int(reach)


def trim_time(y: np.ndarray, k: int, nblocks: int, reach: int, periodic: bool) -> np.ndarray:
    """Block ``k``'s own columns of ``y`` (time last): its reach cut where a neighbour (or, when
    ``periodic``, the far end) extended it."""
    lo = reach if (reach and (k > 0 or periodic)) else 0
    hi = reach if (reach and (k < nblocks - 1 or periodic)) else 0
    return y[..., lo:y.shape[-1] - hi]


def extended(x: da.Array, reach: Sequence[int | None], wraps: bool) -> tuple[Any, dict[int, int]]:
    """``x`` rechunked so that each block holds twice its reach, and extended by it
    (``boundary='none'``): ``(extended array, depth per axis)``, as :func:`overlapped` cuts
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
            x = rechunk_axis(x, ax, 2 * r + 1)
        depth[ax] = int(r)
    return overlap(x, depth=depth, boundary="none"), depth


def overlapped(fn: Callable[..., Any], x: da.Array, reach: Sequence[int | None], dtype: np.dtype,
               count: int | None, wraps: bool, **kwargs: Any) -> Any:
    """``fn`` (an in-memory function of an image) block by block on ``x``, each block extended
    by ``reach`` samples of its neighbours and cut back afterwards: equal to ``fn(x)``.

    An axis whose reach is None, or at least its length, and every filtered axis when
    ``wraps`` (``mode='wrap'``, whose extension reads the far end) is taken whole.  ``count``: ``fn``
    returns that many arrays of the image's shape (a list); None: one array.
    ``kwargs`` go to ``fn`` and may hold ``dask.delayed`` values.
    """
    from dask.array.overlap import trim_internal

    g, depth = extended(x, reach, wraps)
    nblocks = g.npartitions

    def block(b: np.ndarray, **kw: Any) -> np.ndarray:
        with block_threads(nblocks):
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


def block_cores(chunks: tuple[tuple[int, ...], ...],
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


def pointwise_stack(fn: Callable[[list[np.ndarray]], np.ndarray], elems: Sequence[Any],
                    name: str) -> da.Array:
    """``fn`` (elements to a stacked ``(n,) + shape`` array, sample by sample) block by block on
    dask arrays.  As dask infers a result's ``meta``, ``fn`` runs once at the call on the
    elements' empty ``_meta`` arrays: its own checks of the list, the result's dtype and ``n``."""
    check_elements(elems, name)
    if not len(elems):
        fn([])                                   # its own error: no elements
    da, first = dask_array(elems[0])
    arrays = [first] + [dask_array(e)[1] for e in elems[1:]]
    check_same_shape([a.shape for a in arrays], name)
    arrays = [a.rechunk(first.chunks) for a in arrays]
    meta = fn([np.empty((0,) * first.ndim, a.dtype) for a in arrays])
    n, dtype = meta.shape[0], meta.dtype
    return da.map_blocks(lambda *b: fn(list(b)), *arrays, new_axis=0,
                         chunks=((n,),) + first.chunks, dtype=dtype,
                         meta=np.empty((0,) * (first.ndim + 1), dtype))
