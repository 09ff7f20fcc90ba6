"""The wavelet coherence of :mod:`sftwave.xarray`: :func:`wct` of two ``DataArray`` objects and
:func:`wct_pairs` of every pair of one's channels (:mod:`sftwave.dask`'s for dask-backed data)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from inspect import signature
from typing import Any

import numpy as np
import xarray as xr

from .._checks.xarray import (
    aligned,
    channel_positions,
    check_channel_dim,
    check_dataarrays,
    check_dim,
    check_keep_attrs,
    check_no_freq,
    refuse,
    time_dim,
)
from ._common import CONVENTION, QUANTITY_ATTRS, freq_coordinate, is_dask

__all__ = ["wct", "wct_pairs"]

#: The unit of a Fourier period for the unit of a rate (the ``'freq'`` coordinate's).
_PERIOD_UNITS = {"Hz": "s", "kHz": "ms", "MHz": "us", "GHz": "ns"}


def _coi(values: Any, dim: Hashable, freq: xr.Variable) -> xr.DataArray:
    """The cone of influence along ``dim``: a Fourier period, in the unit of ``1 / fs``."""
    units = freq.attrs.get("units")
    period = None if units is None else _PERIOD_UNITS.get(
        units, units[2:] if units.startswith("1/") else None)
    return xr.DataArray(values, dims=(dim,), attrs={
        "long_name": "cone of influence (Fourier period)", **({"units": period} if period else {})})


def _labelled(out: xr.Dataset, x: xr.DataArray, keep: bool, xi: float, fs: float, kwargs: dict,
              leads: str) -> xr.Dataset:
    """``out`` with the attributes of its variables (the phase positive where ``leads``) and its
    own: ``x``'s where ``keep`` (but its quantity's), the wavelet, ``fs`` and the smoothing."""
    out["coherence"].attrs = {"long_name": "wavelet coherence (R^2)", "units": "1"}
    out["phase"].attrs = {"long_name": f"phase of the smoothed cross-spectrum ({leads} where "
                                       "positive)", "units": "rad"}
    if "cross" in out:
        out["cross"].attrs = {"long_name": "smoothed cross-wavelet spectrum"}
    attrs = dict(x.attrs) if keep else {}
    for key in QUANTITY_ATTRS:
        attrs.pop(key, None)
    attrs.update(wavelet="morlet", xi=float(xi), fs=float(fs),
                 mode=kwargs.get("mode", "reflect"),
                 smoothing=kwargs.get("smoothing", "grinsted"), convention=CONVENTION)
    out.attrs = attrs
    return out


def wct(x: xr.DataArray, y: xr.DataArray, freqs: Any, fs: float | None = None, *,
        dim: Hashable | None = None, xi: float = 6.0, keep_attrs: bool | None = None,
        freq_units: str | None = None, **kwargs: Any) -> xr.Dataset:
    """Wavelet coherence of two ``DataArray`` objects along a named dimension (a ``Dataset``).

    :func:`sftwave.coherence.wct` (Torrence & Webster's smoothing, Grinsted's
    0.6-octave boxcar across scales) by dimension name: ``x`` and ``y`` are
    aligned (their coordinates must match exactly) and their other dimensions
    broadcast; dask-backed input stays lazy (:func:`sftwave.dask.wct`).

    Parameters
    ----------
    x, y : DataArray
        Real signals with the dimension ``dim`` (of the same length and
        coordinate); numpy- or dask-backed.
    freqs : float or sequence of float
        Frequencies in the unit of ``fs``: the ``'freq'`` coordinate.
    fs : float, optional
        Sampling rate; default from ``x``'s ``dim`` coordinate, as for
        :func:`cwt` (``datetime64`` in hertz), or 1 where there is none.
    dim : hashable, optional
        The time dimension; default ``'time'`` when ``x`` has one, else its last dimension.
    xi : float, optional
        The Morlet's ``xi`` (one value).  Default 6.
    keep_attrs : bool, optional
        Keep ``x``'s attributes on the result ``Dataset`` (xarray's option by
        default, as for :func:`cwt`).
    freq_units : str, optional
        The ``units`` of the ``'freq'`` coordinate (default as for :func:`cwt`).
    **kwargs
        The other options of :func:`sftwave.coherence.wct` (``smoothing``, ``scale_width``,
        ``mode``, ``cval``, ``tol``, ``workers``, ``nan_policy``); not ``axis``.

    Returns
    -------
    Dataset
        ``coherence`` (``R^2``), ``phase`` (radians, positive where ``x`` leads) and ``cross`` (the
        smoothed cross-spectrum, complex), each with the broadcast other dimensions, then ``'freq'``
        and ``dim``; ``coi``, the cone of influence along ``dim`` (a Fourier period, in the unit of
        ``1 / fs``: seconds where ``'freq'`` is in hertz).

    Raises
    ------
    ValueError
        If ``dim`` is not a dimension of both, their ``dim`` coordinates differ, either already has
        a ``'freq'``, or :func:`sftwave.coherence.wct` refuses an option.
    TypeError
        If ``x`` or ``y`` is not a ``DataArray``, or for ``axis=``.

    See Also
    --------
    sftwave.coherence.wct : The coherence of arrays.
    sftwave.dask.wct : Lazily, for dask arrays.
    cwt : The transform of a DataArray.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> t = np.arange(3000) / 12.0                                 # monthly, in years
    >>> rng = np.random.default_rng(0)
    >>> a = rng.standard_normal(3000)
    >>> x = xr.DataArray(a, dims="time", coords={"time": ("time", t, {"units": "years"})})
    >>> y = x.copy(data=np.roll(a, 2) + 0.5 * rng.standard_normal(3000))
    >>> r = wct(x, y, [0.1, 0.5])
    >>> r["coherence"].dims, r["freq"].attrs["units"], r["coi"].attrs["units"]
    (('freq', 'time'), '1/years', 'years')
    """
    from ..analysis import cone_of_influence
    from ..coherence import wct as batch

    check_dataarrays("coherence.wct", x=x, y=y)
    refuse(kwargs, ("axis",), "dim= names the time dimension")
    keep = check_keep_attrs(keep_attrs)
    dim = time_dim(x, dim, "x")
    check_dim(y, dim, "dim")
    check_no_freq(x)
    check_no_freq(y)
    x, y = aligned(x, y, dim)
    fs, f, freq = freq_coordinate(x, dim, freqs, fs, freq_units)

    def run(a: Any, b: Any) -> tuple[Any, Any, Any]:
        if is_dask(a) or is_dask(b):
            from ..dask import wct as lazy

            r = lazy(a, b, f, fs, xi=xi, axis=-1, **kwargs)
        else:
            r = batch(a, b, f, fs, xi=xi, axis=-1, **kwargs)
        return r.coherence, r.phase, r.cross

    r2, phase, cross = xr.apply_ufunc(
        run, x, y, input_core_dims=[[dim], [dim]], output_core_dims=[["freq", dim]] * 3,
        dask="allowed", keep_attrs=False)
    coords = {name: c.variable for name, c in x.coords.items() if dim in c.dims}
    coi = _coi(cone_of_influence(x.sizes[dim], fs, float(xi)), dim, freq)
    out = xr.Dataset({"coherence": r2, "phase": phase, "cross": cross, "coi": coi})
    out = out.assign_coords(coords).assign_coords(freq=freq)
    return _labelled(out, x, keep, xi, fs, kwargs, "x leads y")


def wct_pairs(x: xr.DataArray, freqs: Any, fs: float | None = None, *,
              dim: Hashable | None = None, channel_dim: Hashable | None = None,
              indices: Any = None, xi: float = 6.0, keep_attrs: bool | None = None,
              freq_units: str | None = None, **kwargs: Any) -> xr.Dataset:
    """Wavelet coherence of every pair of a ``DataArray``'s channels, by dimension name (a ``Dataset``).

    :func:`sftwave.coherence.wct_pairs` by dimension name: each channel is
    transformed once, and pair ``p`` is :func:`wct` of its seed channel and
    its target channel.  The pairs are named by the ``seed`` and ``target``
    coordinates (the ``channel_dim`` coordinate's labels, or the channels'
    positions where it has none); dask-backed input stays lazy
    (:func:`sftwave.dask.wct_pairs`, by chunks of pairs).

    Parameters
    ----------
    x : DataArray
        Real signals with a channel dimension ``channel_dim`` (at least two
        channels) and a time dimension ``dim``; its other dimensions (epochs)
        are kept.  numpy- or dask-backed.
    freqs : float or sequence of float
        Frequencies in the unit of ``fs``: the ``'freq'`` coordinate.
    fs : float, optional
        Sampling rate; default from the ``dim`` coordinate, as for :func:`cwt`
        (``datetime64`` in hertz), or 1 where there is none.
    dim : hashable, optional
        The time dimension; default ``'time'`` when ``x`` has one, else its last dimension.
    channel_dim : hashable, optional
        The channel dimension; default ``'channel'`` when ``x`` has one, else
        ``x``'s one dimension besides ``dim``.
    indices : (seeds, targets), optional
        The pairs, two sequences of channels of one length, each either of
        positions (integers along ``channel_dim``) or of labels (values of the
        ``channel_dim`` coordinate, e.g. ``(["Fz", "Cz"], ["Pz", "Oz"])``); a
        sequence of integers is always read as positions.  Default: every pair
        once in mne-connectivity's order, each seed after its target
        (``numpy.tril_indices(n_channels, -1)``).
    xi : float, optional
        The Morlet's ``xi`` (one value).  Default 6.
    keep_attrs : bool, optional
        Keep ``x``'s attributes on the result (xarray's option by default, as for :func:`cwt`).
    freq_units : str, optional
        The ``units`` of the ``'freq'`` coordinate (default as for :func:`cwt`).
    **kwargs
        The other options of :func:`sftwave.coherence.wct_pairs` (``smoothing``,
        ``scale_width``, ``mode``, ``cval``, ``tol``, ``workers``, ``nan_policy``,
        ``significance``, ``level``, ``mc_count``, ``seed``, ``ar1_decimals``, ``cache``,
        ``return_cross``, ``engine``); not ``axis``.

    Returns
    -------
    Dataset
        ``coherence`` (``R^2``) and ``phase`` (radians, positive where the seed leads the
        target), with ``x``'s other dimensions, then ``'pair'``, ``'freq'`` and ``dim``;
        ``cross`` (the smoothed cross-spectra, complex) with ``return_cross=True``;
        ``significance`` (the Monte-Carlo level of ``R^2``, dimensions as ``coherence``'s
        but ``dim``) with ``significance=True``; ``coi``, the cone of influence along
        ``dim`` (as :func:`wct`'s).  Coordinates ``seed`` and ``target`` along ``'pair'``,
        the ``'freq'`` coordinate, and ``x``'s coordinates that are not along ``channel_dim``.

    Raises
    ------
    ValueError
        If a label in ``indices`` names no channel or several (naming ``indices``
        and the label), ``dim`` or ``channel_dim`` is not a dimension of ``x``
        (naming it), ``x`` has fewer than two channels, no channel dimension can
        be told, it already has a ``'freq'`` or a ``'pair'``, or
        :func:`sftwave.coherence.wct_pairs` refuses an option.
    TypeError
        If ``x`` is not a ``DataArray``, or for ``axis=``.

    See Also
    --------
    sftwave.coherence.wct_pairs : The pairs' coherence of arrays.
    sftwave.dask.wct_pairs : Lazily, for dask arrays.
    wct : The coherence of two DataArrays.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> rng = np.random.default_rng(2)
    >>> data = rng.standard_normal((3, 2000))
    >>> data[1] += data[0]                                   # Cz shares a part of Fz
    >>> time = ("time", np.arange(2000) / 100.0, {"units": "s"})
    >>> x = xr.DataArray(data, dims=("channel", "time"),
    ...                  coords={"channel": ["Fz", "Cz", "Pz"], "time": time})
    >>> r = wct_pairs(x, [2.0, 5.0])
    >>> r["coherence"].dims, r["freq"].attrs["units"], r["coi"].attrs["units"]
    (('pair', 'freq', 'time'), 'Hz', 's')
    >>> r["seed"].values.tolist(), r["target"].values.tolist()
    (['Cz', 'Pz', 'Pz'], ['Fz', 'Fz', 'Cz'])
    >>> mean = r["coherence"].mean(("freq", "time"))
    >>> bool(mean[0] > mean[1]) and bool(mean[0] > mean[2])   # Cz-Fz: the coherent pair
    True

    Pairs chosen by label (the same as by position, ``indices=([1, 2], [0, 1])``):

    >>> some = wct_pairs(x, [2.0, 5.0], indices=(["Cz", "Pz"], ["Fz", "Cz"]))
    >>> some["seed"].values.tolist(), some["target"].values.tolist()
    (['Cz', 'Pz'], ['Fz', 'Cz'])
    >>> bool(np.array_equal(some["coherence"][1], r["coherence"][2]))
    True
    """
    from ..coherence import wct_pairs as batch_pairs

    check_dataarrays("coherence.wct_pairs", x=x)
    refuse(kwargs, ("axis",), "dim= names the time dimension and channel_dim= the channels")
    keep = check_keep_attrs(keep_attrs)
    dim = time_dim(x, dim, "x")
    channel = check_channel_dim(x, channel_dim, dim)
    check_no_freq(x)
    fs, f, freq = freq_coordinate(x, dim, freqs, fs, freq_units)
    xt = x.transpose(..., channel, dim)
    run: Callable[..., Any] = batch_pairs
    if is_dask(xt.data):
        from ..dask import wct_pairs as lazy

        run = lazy
    named = x[channel].values if channel in x.coords else None
    indices = channel_positions(indices, named, channel)
    r = run(xt.data, f, fs, indices=indices, xi=xi, axis=-1, **kwargs)
    dims = (*xt.dims[:-2], "pair", "freq", dim)
    variables: dict[str, tuple] = {"coherence": (dims, r.coherence), "phase": (dims, r.phase)}
    if r.cross is not None:
        variables["cross"] = (dims, r.cross)
    if r.significance is not None:
        level = kwargs.get("level", signature(batch_pairs).parameters["level"].default)
        variables["significance"] = (dims[:-1], r.significance, {
            "long_name": f"Monte-Carlo {level:g} level of R^2", "units": "1"})
    labels = named if named is not None else np.arange(x.sizes[channel])
    coords = {name: c.variable for name, c in xt.coords.items() if channel not in c.dims}
    out = xr.Dataset(variables, coords=coords).assign_coords(
        seed=("pair", labels[r.seeds]), target=("pair", labels[r.targets]), freq=freq)
    out["coi"] = _coi(r.coi, dim, freq)
    return _labelled(out, x, keep, xi, fs, kwargs, "the seed leads the target")
