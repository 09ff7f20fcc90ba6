"""The Gaussian filters of :mod:`sftwave.xarray`: :func:`gaussian_filter` and
:func:`gaussian_filter1d` over named dimensions (:mod:`sftwave.dask`'s for dask-backed data)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import xarray as xr

from .._checks.xarray import (
    check_dim,
    check_keep_attrs,
    check_obj,
    filtered_dims,
    per_dim,
    refuse,
    variables_with,
)
from .._docs import docfiller
from ._common import T, is_dask, passed_through

__all__ = ["gaussian_filter", "gaussian_filter1d"]


def _filter_dataarray(x: xr.DataArray, dims: Sequence[Hashable],
                      call: Callable[[Any, tuple, bool], Any], keep: bool,
                      derivative: bool) -> xr.DataArray:
    """``call(data, axes, lazy)`` on ``x``'s data, with ``dims`` mapped to its axes."""
    core = list(x.dims)
    axes = tuple(core.index(d) for d in dims)
    out = xr.apply_ufunc(lambda data: call(data, axes, is_dask(data)), x,
                         input_core_dims=[core], output_core_dims=[core], dask="allowed",
                         keep_attrs=True)
    attrs = dict(x.attrs) if keep else {}
    if derivative:
        attrs.pop("units", None)
    out.attrs = attrs
    return out


def _filter(obj: T, dims: Sequence[Hashable], orders: Mapping, keep: bool,
            call: Callable[[Any, tuple, bool, Sequence[Hashable]], Any]) -> T:
    def one(x: xr.DataArray) -> xr.DataArray:
        mine = [d for d in dims if d in x.dims]
        return _filter_dataarray(x, mine, lambda data, axes, lazy: call(data, axes, lazy, mine),
                                 keep, any(int(orders[d]) > 0 for d in mine))

    if isinstance(obj, xr.DataArray):
        return one(obj)
    names = variables_with(obj, dims, "dims")
    out = obj.copy(deep=False)
    out = out.assign({n: (one(v) if n in names else passed_through(v, keep))
                      for n, v in obj.data_vars.items()})
    out.attrs = dict(obj.attrs) if keep else {}
    return out


@docfiller
def gaussian_filter(obj: T, sigma: Any, *, dims: Any = None, order: Any = 0,
                    mode: Any = "reflect", cval: float = 0.0, truncate: float = 4.0,
                    keep_attrs: bool | None = None, **kwargs: Any) -> T:
    """Multidimensional Gaussian filter of a ``DataArray`` or ``Dataset`` over named dimensions.

    Parameters
    ----------
    obj : DataArray or Dataset
        The data; numpy- or dask-backed.  Of a ``Dataset``, every data variable with any of the dims
        is filtered along those it has, and the others are passed through.
    sigma : float, sequence of float or mapping
        Standard deviation in samples: one for every dim of ``dims``, one per
        entry of ``dims``, or a mapping ``{dim: sigma}`` (which then gives the
        dims).  A sigma of zero leaves its dimension alone, as in scipy.
    dims : hashable or sequence of hashable, optional
        The dimensions to filter, in the order the 1-D filters run.  Default:
        the keys of a mapping ``sigma``, else every dimension of ``obj``.
    order : int, sequence of int or mapping, optional
        Derivative order per dimension (as ``sigma``; a mapping's missing
        dims take 0).  Default 0.  A derivative drops the ``units`` attribute.
    mode : str, sequence of str or mapping, optional
        How each dimension is extended beyond its ends, as in scipy.ndimage
        (a mapping's missing dims take 'reflect').  Default 'reflect'.
    %(cval)s
    %(truncate)s
    %(xr_keep_attrs)s
    **kwargs
        The other options of :func:`sftwave.gaussian_filter` (``radius`` as
        a scalar, ``output`` as a dtype, ``method``, ``bank_method``,
        ``transform``, ``tol``, ``nan_policy``, ``min_weight``, ``engine``);
        not ``axes`` (``dims`` names them).

    Returns
    -------
    DataArray or Dataset
        The filtered data, with ``obj``'s dimensions in its order and its
        coordinates; lazy where ``obj`` is dask-backed.

    Raises
    ------
    ValueError
        If ``dims`` or ``sigma`` names a dimension ``obj`` lacks (naming the
        parameter), or for an option :func:`sftwave.gaussian_filter` refuses.

    See Also
    --------
    sftwave.gaussian_filter : the filter of numpy (and other) arrays.
    sftwave.dask.gaussian_filter : the lazy filter of dask arrays.
    gaussian_filter1d : along one dimension.
    SftwaveAccessor : the same as a method.

    Examples
    --------
    >>> import numpy as np, xarray as xr, sftwave
    >>> img = xr.DataArray(np.zeros((3, 40, 60)), dims=("band", "y", "x"),
    ...                    attrs={"units": "K"})
    >>> img[:, 20, 30] = 1.0
    >>> out = gaussian_filter(img, {"x": 4.0, "y": 2.0})
    >>> ref = sftwave.gaussian_filter(img.values, (4.0, 2.0), axes=(2, 1))
    >>> out.dims, out.attrs["units"], bool(np.array_equal(out.values, ref))
    (('band', 'y', 'x'), 'K', True)
    """
    check_obj(obj, "gaussian_filter")
    refuse(kwargs, ("axes", "axis"), "dims= names the dimensions")
    keep = check_keep_attrs(keep_attrs)
    dims = filtered_dims(obj, sigma, dims)
    sigmas = per_dim(sigma, dims, "sigma", None)
    orders = per_dim(order, dims, "order", 0)
    modes = per_dim(mode, dims, "mode", "reflect")

    def call(data: Any, axes: tuple, lazy: bool, mine: Sequence[Hashable]) -> Any:
        if lazy:
            from ..dask import gaussian_filter as run
        else:
            from ..ndimage import gaussian_filter as run
        return run(data, [sigmas[d] for d in mine], order=[orders[d] for d in mine],
                     mode=[modes[d] for d in mine], cval=cval, truncate=truncate, axes=axes,
                     **kwargs)

    return _filter(obj, dims, orders, keep, call)



@docfiller
def gaussian_filter1d(obj: T, sigma: float, dim: Hashable, *, order: int = 0,
                      mode: str = "reflect", cval: float = 0.0, truncate: float = 4.0,
                      keep_attrs: bool | None = None, **kwargs: Any) -> T:
    """1-D Gaussian filter (or its derivative) of a ``DataArray`` or ``Dataset`` along ``dim``.

    Parameters
    ----------
    obj : DataArray or Dataset
        The data; numpy- or dask-backed.  Of a ``Dataset``, every data
        variable with ``dim`` is filtered and the others passed through.
    sigma : float
        Standard deviation of the Gaussian kernel, in samples along ``dim``.
    dim : hashable
        The dimension to filter.
    order : int, optional
        0 smooths; 1 and 2 give the first and second derivative (per sample);
        a derivative drops the ``units`` attribute.  Default 0.
    %(mode)s
    %(cval)s
    %(truncate)s
    %(xr_keep_attrs)s
    **kwargs
        The other options of :func:`sftwave.gaussian_filter1d` (``radius``,
        ``output`` as a dtype, ``method``, ``bank_method``, ``transform``,
        ``tol``, ``nan_policy``, ``min_weight``, ``engine``); not ``axis``.

    Returns
    -------
    DataArray or Dataset
        The filtered data, with ``obj``'s dimensions and coordinates; lazy
        where ``obj`` is dask-backed.

    Raises
    ------
    ValueError
        If ``dim`` is not a dimension of ``obj`` (naming ``dim``), or for an
        option :func:`sftwave.gaussian_filter1d` refuses.

    See Also
    --------
    sftwave.gaussian_filter1d : the filter of numpy (and other) arrays.
    sftwave.dask.gaussian_filter1d : the lazy filter of dask arrays.
    gaussian_filter : over several dimensions.
    SftwaveAccessor : the same as a method.

    Examples
    --------
    >>> import numpy as np, xarray as xr, sftwave
    >>> x = xr.DataArray(np.random.default_rng(0).standard_normal((2, 500)),
    ...                  dims=("channel", "time"), attrs={"units": "uV"})
    >>> y = gaussian_filter1d(x, 25.0, "time")
    >>> bool(np.array_equal(y.values, sftwave.gaussian_filter1d(x.values, 25.0)))
    True
    >>> y.attrs, "units" in x.sftwave.gaussian_filter1d(25.0, "time", order=1).attrs
    ({'units': 'uV'}, False)
    """
    check_obj(obj, "gaussian_filter1d")
    refuse(kwargs, ("axis", "axes"), "dim= names the dimension")
    keep = check_keep_attrs(keep_attrs)
    check_dim(obj, dim)

    def call(data: Any, axes: tuple, lazy: bool, mine: Sequence[Hashable]) -> Any:
        if lazy:
            from ..dask import gaussian_filter1d as run
        else:
            from ..ndimage import gaussian_filter1d as run
        return run(data, sigma, axis=axes[0], order=order, mode=mode, cval=cval,
                     truncate=truncate, **kwargs)

    return _filter(obj, (dim,), {dim: order}, keep, call)
