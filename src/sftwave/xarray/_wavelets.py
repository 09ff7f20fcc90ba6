"""The wavelet transforms of :mod:`sftwave.xarray`: :func:`cwt` and :func:`superlet`, one
wrapper (:func:`_transform`) taking the in-memory transform (its lazy namesake in
:mod:`sftwave.dask` for dask-backed data)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import xarray as xr

from .._checks.xarray import (
    check_decim,
    check_keep_attrs,
    check_obj,
    cwt_dim,
    refuse,
    variables_with,
)
from .._docs import docfiller
from ..plans.families import wavelet_family
from ..superlets import superlet as batch_superlet
from ..wavelets import cwt as batch_cwt
from ._common import (
    CONVENTION,
    LONG_NAMES,
    QUANTITY_ATTRS,
    T,
    cwt_units,
    decimated_coords,
    freq_coordinate,
    is_dask,
    passed_through,
)

__all__ = ["cwt", "superlet"]


def _transformed(x: xr.DataArray, transform: Callable, f: np.ndarray, fs: float, dim: Hashable,
                 decim: int, kwargs: dict, keep: bool, freq: xr.Variable, units_as: str,
                 attrs: dict) -> xr.DataArray:
    """``transform`` of ``x`` along ``dim`` (its namesake in :mod:`sftwave.dask` for dask-backed
    data): the other dimensions, then ``'freq'`` and ``dim`` (decimated with its coordinates);
    ``x``'s attributes (where ``keep``) but its quantity's, the ``units`` of an ``units_as``
    output (:func:`cwt_units`), then ``attrs``."""
    def run(data: Any) -> Any:
        call = transform
        if is_dask(data):
            from .. import dask

            call = getattr(dask, transform.__name__)
        return call(data, f, fs, axis=-1, decim=decim, **kwargs)

    out = xr.apply_ufunc(run, x, input_core_dims=[[dim]], output_core_dims=[["freq", dim]],
                         exclude_dims={dim}, dask="allowed", keep_attrs=True)
    out = out.assign_coords(decimated_coords(x, dim, decim)).assign_coords(freq=freq)
    mine = {k: v for k, v in x.attrs.items() if k not in QUANTITY_ATTRS} if keep else {}
    units = cwt_units(units_as, x.attrs.get("units"))
    if units is not None:
        mine["units"] = units
    out.attrs = {**mine, **attrs}
    return out


def _transform(obj: T, transform: Callable, f: np.ndarray, fs: float, dim: Hashable, decim: int,
               kwargs: dict, keep: bool, freq: xr.Variable, units_as: str, attrs: dict) -> T:
    """:func:`_transformed` of a ``DataArray``, or of every data variable of a ``Dataset`` with
    ``dim`` (the others passed through; ``dim``'s coordinates decimated for the whole of it)."""
    def one(x: xr.DataArray) -> xr.DataArray:
        return _transformed(x, transform, f, fs, dim, decim, kwargs, keep, freq, units_as, attrs)

    if isinstance(obj, xr.DataArray):
        return one(obj)
    names = variables_with(obj, (dim,), "dim")
    variables = {n: (one(v) if n in names else passed_through(v, keep))
                 for n, v in obj.data_vars.items()}
    coords = obj.coords.to_dataset().isel({dim: slice(None, None, decim)}, missing_dims="ignore")
    out = coords.assign_coords(freq=freq).assign(variables)
    out.attrs = dict(obj.attrs) if keep else {}
    return out


@docfiller
def cwt(obj: T, freqs: Any, fs: float | None = None, *, dim: Hashable | None = None,
        output: str = "complex", decim: int = 1, xi: Any = 6.0, keep_attrs: bool | None = None,
        freq_units: str | None = None, **kwargs: Any) -> T:
    """Morlet wavelet transform of a ``DataArray`` or ``Dataset`` along a named dimension.

    Parameters
    ----------
    obj : DataArray or Dataset
        The signal(s); numpy- or dask-backed.  Of a ``Dataset``, every data
        variable with ``dim`` is transformed and the others passed through.
    freqs : float or sequence of float
        Frequencies, in the unit of ``fs``, each in ``(0, fs/2]``: the
        ``'freq'`` coordinate of the result.
    fs : float, optional
        Sampling rate.  Default: from the ``dim`` coordinate (evenly spaced; ``datetime64`` and
        ``timedelta64`` in hertz), or 1 (cycles per sample) where ``dim`` has no coordinate.
    dim : hashable, optional
        The time dimension.  Default ``'time'`` when ``obj`` has one, else
        the last dimension of a ``DataArray`` (a ``Dataset`` must name it).
    output : {'complex', 'power', 'abs', 'phase'}, optional
        The coefficients, their squared modulus, modulus, or angle; sets the
        result's ``units`` (see the module).  Default 'complex'.
    decim : int, optional
        Keep every ``decim``-th sample: the result and every coordinate along
        ``dim`` are ``[::decim]``.  Default 1.
    xi : float or sequence of float, optional
        Radians per standard deviation of the wavelet (default 6, MNE's
        ``n_cycles``), one for all frequencies or one per frequency.
    keep_attrs : bool, optional
        Keep the input's attributes (but for ``units``, ``long_name`` and
        ``standard_name``, which the result sets itself).  Default: xarray's
        ``keep_attrs`` option, whose ``'default'`` keeps them.
    freq_units : str, optional
        The ``units`` of the ``'freq'`` coordinate; default by the module's
        rule (``'Hz'`` for a time coordinate in seconds or ``datetime64``).
    **kwargs
        The other options of :func:`sftwave.cwt` (``mode``, ``cval``, ``tol``, ``dtype``,
        ``method``, ``transform``, ``bank_method``, ``workers``, ``nan_policy``, ``min_weight``,
        ``engine``); not ``axis`` (``dim`` names it) nor ``out``.

    Returns
    -------
    DataArray or Dataset
        ``obj``'s other dimensions, then ``'freq'`` and ``dim``; lazy where ``obj`` is dask-backed.

    Raises
    ------
    ValueError
        If ``dim`` is not a dimension of ``obj`` (naming ``dim``), ``obj``
        already has a ``'freq'``, the ``dim`` coordinate is not evenly
        spaced (pass ``fs``), or an option is refused by :func:`sftwave.cwt`.
    TypeError
        If ``obj`` is not a ``DataArray`` or ``Dataset``, or for ``axis=``/``out=``.

    See Also
    --------
    sftwave.cwt : the transform of numpy (and other) arrays.
    sftwave.dask.cwt : the lazy transform of dask arrays.
    SftwaveAccessor : the same as a method, ``da.sftwave.cwt``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, xarray as xr
    >>> t = pd.date_range("2024-01-01", periods=4000, freq="250ms")
    >>> x = xr.DataArray(np.random.default_rng(1).standard_normal((4000, 2)),
    ...                  dims=("time", "sensor"), coords={"time": t}, attrs={"units": "m"})
    >>> a = cwt(x, [0.05, 0.2], output="abs", decim=4)
    >>> a.dims, a.sizes["time"], float(a.attrs["fs"]), a.attrs["units"]
    (('sensor', 'freq', 'time'), 1000, 4.0, 'm')
    >>> a["freq"].attrs
    {'long_name': 'frequency', 'units': 'Hz'}
    >>> cwt(x, [0.2], output="phase").attrs["units"]
    'rad'
    """
    check_obj(obj, "cwt")
    refuse(kwargs, ("axis", "out"), "dim= names the time dimension and the result is new")
    keep = check_keep_attrs(keep_attrs)
    dim = cwt_dim(obj, dim)
    decim = check_decim(decim)
    fs, f, freq = freq_coordinate(obj, dim, freqs, fs, freq_units)
    kw = dict(kwargs, output=output, xi=xi)
    family = wavelet_family(kwargs.get("wavelet", "morlet"))
    attrs = dict(long_name=LONG_NAMES[output].format(family.title), wavelet=family.name,
                 xi=(float(xi) if np.ndim(xi) == 0 else np.asarray(xi, dtype=np.float64)),
                 fs=float(fs), mode=kwargs.get("mode", "reflect"), output=output,
                 decim=int(decim), convention=CONVENTION)
    return _transform(obj, batch_cwt, f, fs, dim, decim, kw, keep, freq, output, attrs)


def superlet(obj: T, freqs: Any, fs: float | None = None, *, order_max: int,
             dim: Hashable | None = None, decim: int = 1, keep_attrs: bool | None = None,
             freq_units: str | None = None, **kwargs: Any) -> T:
    """The superlet (:func:`sftwave.superlet`) of a ``DataArray`` or ``Dataset`` along a named
    dimension, with :func:`cwt`'s rules for ``dim``, ``fs``, the ``'freq'`` coordinate and
    the attributes.

    Parameters
    ----------
    obj : DataArray or Dataset
        The signal(s); numpy- or dask-backed (:func:`sftwave.dask.superlet`).
    freqs : float or sequence of float
        Frequencies, in the unit of ``fs``: the ``'freq'`` coordinate of the result.
    fs : float, optional
        Sampling rate; default from the ``dim`` coordinate, as :func:`cwt`.
    order_max : int
        The highest order of the superlet set.
    dim : hashable, optional
        The time dimension, as :func:`cwt`'s.
    decim : int, optional
        Keep every ``decim``-th sample (the ``dim`` coordinate too).
    keep_attrs : bool, optional
        Keep the input's attributes (but for ``units``, ``long_name`` and
        ``standard_name``), as :func:`cwt`.
    freq_units : str, optional
        The ``units`` of the ``'freq'`` coordinate, as :func:`cwt`.
    **kwargs
        The other options of :func:`sftwave.superlet` (``order_min``, ``c_1``,
        ``adaptive``, ``multiplicative``, ``output``, ``mode``, ``cval``,
        ``tol``, ``workers``, ``nan_policy``, ``min_weight``, ``engine``); not
        ``axis``.

    Returns
    -------
    DataArray or Dataset
        ``obj``'s other dimensions, then ``'freq'`` and ``dim``; attributes
        ``units`` (the input's squared for 'power'), ``long_name``, ``fs``,
        ``output``, ``decim`` and the set's ``order_max``, ... as given.

    See Also
    --------
    sftwave.superlet : The superlet of numpy arrays.
    cwt : The Morlet transform of a DataArray.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> time = xr.Variable("time", np.arange(3000) / 500.0, attrs={"units": "s"})
    >>> x = xr.DataArray(np.random.default_rng(1).standard_normal((2, 3000)),
    ...                  dims=("sensor", "time"), coords={"time": time}, attrs={"units": "V"})
    >>> p = superlet(x, [10.0, 20.0, 40.0], order_max=3, adaptive=True, decim=2)
    >>> p.dims, p.sizes["time"], float(p.attrs["fs"]), p.attrs["units"], p["freq"].attrs["units"]
    (('sensor', 'freq', 'time'), 1500, 500.0, 'V^2', 'Hz')
    """
    check_obj(obj, "superlet")
    refuse(kwargs, ("axis",), "dim= names the time dimension")
    keep = check_keep_attrs(keep_attrs)
    dim = cwt_dim(obj, dim)
    decim = check_decim(decim)
    fs, f, freq = freq_coordinate(obj, dim, freqs, fs, freq_units)
    kw = dict(kwargs, order_max=order_max)
    output = kwargs.get("output", "power")
    attrs = dict(long_name=f"superlet {output}", fs=float(fs), output=output, decim=int(decim),
                 **{k: kw[k] for k in ("order_max", "order_min", "c_1") if k in kw},
                 **{k: int(bool(kw[k])) for k in ("adaptive", "multiplicative") if k in kw})
    return _transform(obj, batch_superlet, f, fs, dim, decim, kw, keep, freq,
                      "power" if output == "power" else "abs", attrs)
