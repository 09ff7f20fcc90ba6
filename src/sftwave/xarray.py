"""xarray: :func:`sftwave.cwt` of a ``DataArray``, with its coordinates and attributes.

:func:`cwt` takes a ``DataArray`` (:func:`sftwave.cwt` takes arrays and
points here): the transform runs along its
time dimension (``dim``: ``'time'`` if it has one, else its last), the
sampling rate comes from that dimension's coordinate (numbers, or
``datetime64``: then in hertz) unless ``fs`` is given, and the result is a
``DataArray`` with the other dimensions, then ``'freq'`` and the time
dimension (its coordinate decimated as the output, ``[::decim]``), the
coordinates that do not lie along time, and attributes naming the wavelet
and its parameters.  A dask-backed ``DataArray`` stays lazy
(:mod:`sftwave.dask`).  xarray is an optional extra (``pip install
'sftwave[xarray]'``).

Examples
--------
>>> import numpy as np, xarray as xr, sftwave
>>> t = np.arange(2000) / 250.0
>>> x = xr.DataArray(np.sin(2 * np.pi * 10 * t)[None], dims=("channel", "time"),
...                  coords={"channel": ["Cz"], "time": t}, attrs={"units": "uV"})
>>> p = cwt(x, [5.0, 10.0, 20.0], output="power", decim=5)
>>> p.dims, p.sizes["time"], p.attrs["wavelet"], float(p.attrs["fs"])
(('channel', 'freq', 'time'), 400, 'morlet', 250.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["cwt"]


def _rate(coord, dim: str) -> float:
    values = np.asarray(coord.values)
    if values.size < 2:
        raise ValueError(f"the {dim!r} coordinate has fewer than 2 values: pass fs")
    step = np.diff(values)
    if values.dtype.kind == "M":
        step = step / np.timedelta64(1, "s")
    step = step.astype(np.float64)
    if not np.all(step > 0) or np.ptp(step) > 1e-6 * abs(float(step.mean())):
        raise ValueError(f"the {dim!r} coordinate is not evenly spaced and increasing: pass fs")
    return 1.0 / float(step.mean())


def cwt(x, freqs, fs: float | None = None, *, dim: str | None = None, decim: int = 1,
        **kwargs) -> Any:
    """:func:`sftwave.cwt` of a ``DataArray`` along ``dim``; a ``DataArray`` (see the module)."""
    import xarray as xr

    from ._checks import is_dataarray

    if not is_dataarray(x):
        raise TypeError(f"x must be an xarray DataArray; got {type(x).__name__} (use "
                        "sftwave.cwt for arrays)")
    from .wavelets import cwt as batch

    if dim is None:
        dim = "time" if "time" in x.dims else x.dims[-1]
    if dim not in x.dims:
        raise ValueError(f"dim {dim!r} is not one of the DataArray's dims {x.dims}")
    if "axis" in kwargs:
        raise TypeError("a DataArray's time axis is given by dim=, not axis=")
    if fs is None:
        fs = _rate(x[dim], dim) if dim in x.coords else 1.0
    other = [d for d in x.dims if d != dim]
    moved = x.transpose(*other, dim)
    data = moved.data
    if type(data).__module__.startswith("dask"):
        from .dask import cwt as lazy

        values = lazy(data, freqs, fs, decim=decim, **kwargs)
    else:
        values = batch(np.asarray(data), freqs, fs, decim=decim, **kwargs)
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    coords = {name: c for name, c in x.coords.items() if dim not in c.dims}
    coords["freq"] = f
    if dim in x.coords:
        coords[dim] = x[dim].values[::decim]
    xi = kwargs.get("xi", 6.0)
    attrs = dict(x.attrs)
    attrs.update(wavelet="morlet", xi=(float(xi) if np.ndim(xi) == 0 else np.asarray(xi)),
                 fs=float(fs), mode=kwargs.get("mode", "reflect"),
                 output=kwargs.get("output", "complex"), decim=int(decim),
                 convention="sftwave unit-energy Morlet, sigma = xi fs / (2 pi f) samples")
    return xr.DataArray(values, dims=(*other, "freq", dim), coords=coords, attrs=attrs,
                        name=x.name)
