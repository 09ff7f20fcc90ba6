"""scikit-image's multiscale basic features of dask arrays: images larger than memory, block by
block, each block extended by the samples its widest Gaussian and the differences read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import engines
from .._checks.multiscale import TRUNCATE, MultiscaleRequest, multiscale_request
from ._core import block_threads, dask_array, engine_of, extended
from ._reach import gaussian_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["multiscale_basic_features"]

#: The samples the features read beyond the smoothed image's: Sobel's one, ``np.gradient``
#: twice (two).
_DIFFERENCES = 2


def _reach(req: MultiscaleRequest) -> list[int | None]:
    """Per spatial axis, the largest Gaussian's half-window over the scales (the plans the
    in-memory call selects for its float32 images), plus the differences' two samples."""
    eng = engines.get(req.engine)
    cost = eng.fir_taps_per_order_for(np.float32, np.float32, 0, len(req.spatial))
    scales = [(s, req.radii(s)) for s in (req.axis_sigmas(sigma) for sigma in req.sigmas)]
    reach: list[int | None] = []
    for ax, n in enumerate(req.spatial):
        widest: int | None = 0
        for per_axis, radii in scales:
            r = gaussian_reach(per_axis[ax], 0, n, truncate=TRUNCATE, tol=req.tol, cost=cost,
                               engine=req.engine, radius=None if radii is None else radii[ax])
            widest = None if r is None or widest is None else max(widest, r)
        reach.append(None if widest is None else widest + _DIFFERENCES)
    return reach


@lazy("sftwave.feature", "multiscale_basic_features")
def multiscale_basic_features(call: Call) -> da.Array:
    """:func:`sftwave.feature.multiscale_basic_features` of a dask array, lazily.

    Each block (the channel axis whole) is extended by the half-window of the
    widest Gaussian the in-memory call runs plus the two samples of its
    differences, so the features equal the in-memory ones; the feature axis is
    one chunk.

    Returns
    -------
    dask.array.Array
        float32, the spatial shape (chunked as the image) plus the features' axis.

    See Also
    --------
    sftwave.feature.multiscale_basic_features : The same in memory.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(0).random((300, 200))
    >>> f = multiscale_basic_features(da.from_array(img, chunks=100), sigma_max=4)
    >>> ref = feature.multiscale_basic_features(img, sigma_max=4)
    >>> f.shape == ref.shape and bool(np.allclose(f.compute(), ref, rtol=0, atol=1e-6))
    True
    """
    _, x = dask_array(call["image"])
    name = engine_of(x, call["engine"])
    req = multiscale_request(tuple(int(n) for n in x.shape), call["intensity"], call["edges"],
                             call["texture"], call["sigma_min"], call["sigma_max"],
                             call["num_sigma"], call["workers"], channel_axis=call["channel_axis"],
                             tol=call["tol"], truncated=call["truncated"], spacing=call["spacing"],
                             engine=name)
    channels = 1 if req.channel_axis is None else int(x.shape[req.channel_axis])
    reach = _reach(req)
    if req.channel_axis is not None:
        reach.insert(req.channel_axis, None)          # the channels whole
    g, depth = extended(x, reach, wraps=False)
    nblocks = g.npartitions
    fn, kw = call.fn, call.without("image")
    count = req.n_features * channels

    def block(b: np.ndarray) -> np.ndarray:
        with block_threads(nblocks):
            return fn(b, **kw)

    spatial = [ax for ax in range(x.ndim) if ax != req.channel_axis]
    chunks = tuple(g.chunks[ax] for ax in spatial) + ((count,),)
    drop = [] if req.channel_axis is None else [req.channel_axis]
    y = g.map_blocks(block, drop_axis=drop, new_axis=len(spatial), chunks=chunks, dtype=np.float32,
                     meta=np.empty((0,) * (len(spatial) + 1), np.float32))
    from dask.array.overlap import trim_internal

    cut: dict[Any, int] = {k: depth[ax] for k, ax in enumerate(spatial)}
    cut[len(spatial)] = 0
    return trim_internal(y, cut, boundary="none")
