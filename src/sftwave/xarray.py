"""xarray: sftwave's Gaussian filters and Morlet transform on DataArrays and Datasets, by name.

Three functions take a ``DataArray`` or a ``Dataset`` and name dimensions
instead of axes; importing this module also registers an accessor, so the
same three are methods of every ``DataArray`` and ``Dataset``::

    import sftwave.xarray                               # registers ``.sftwave``
    tfr = eeg.sftwave.cwt(freqs, output="power")        # or sftwave.xarray.cwt(eeg, ...)
    smooth = eeg.sftwave.gaussian_filter1d(4.0, "time")
    blurred = image.sftwave.gaussian_filter({"x": 2.0, "y": 3.0})

and :func:`wct` (``x.sftwave.wct(y, freqs)``) gives the wavelet coherence of two
``DataArray`` objects, aligned by name, as a ``Dataset``.

Each is built on :func:`xarray.apply_ufunc` (``dask="allowed"``): numpy data runs the in-memory
functions (:func:`sftwave.cwt`, :func:`sftwave.gaussian_filter`, :func:`sftwave.gaussian_filter1d`)
and dask-backed data the lazy ones of :mod:`sftwave.dask`, which give each time chunk exactly the
overlap its plan reads, so a dask-backed object stays lazy and equals the in-memory result
(``dask="parallelized"`` would cut the filtered dimension into independent chunks).  Other duck
arrays go to the in-memory functions, which pick the engine by the array type.

**Dimensions.**  ``cwt``'s result has the input's other dimensions, then ``'freq'`` and ``dim``;
the filters keep the input's order.  A name that is not a dimension is a ``ValueError`` naming the
parameter.  ``sigma`` is in samples along each dimension, as in numpy, not in coordinate units.

**Datasets.**  As ``Dataset.rolling`` does, every data variable that has the dimension (for
``gaussian_filter``, any of the dimensions: it is filtered along those it has) is transformed, and
the others are passed through unchanged (their attributes dropped too when ``keep_attrs`` is false).
For ``cwt`` with ``decim > 1`` the ``dim`` coordinate is decimated for the whole ``Dataset``; a
variable without ``dim`` does not depend on it.

**Attributes** (``keep_attrs``).  ``None`` (default) follows xarray's option
``xr.set_options(keep_attrs=...)``; at its ``'default'`` the attributes are kept, as current xarray
keeps them in ``apply_ufunc``, arithmetic, reductions and ``rolling``.  The filters keep the input's
attributes (a smoothed signal has the input's units), except ``units`` when a derivative
(``order > 0``) is taken.  ``cwt`` gives a new quantity: it keeps the input's attributes but for
``units``, ``long_name`` and ``standard_name``, and always sets its own: ``units`` from ``output``
(``'power'``: the input's units squared, ``'uV'`` giving ``'uV^2'`` and ``'m s-1'`` giving
``'(m s-1)^2'``; ``'abs'`` and ``'complex'``: the input's units; ``'phase'``: ``'rad'``; absent
where the input has no ``units``), ``long_name`` (``'Morlet wavelet power'``, ...), and ``wavelet``,
``xi``, ``fs``, ``mode``, ``output``, ``decim`` and ``convention``.  ``keep_attrs=False`` drops the
input's attributes (and the ``Dataset``'s); coordinates always keep theirs.

**Sampling rate and the 'freq' coordinate.**  Unless ``fs`` is given, ``cwt`` reads it from the
``dim`` coordinate, which must be evenly spaced and increasing (numbers, ``datetime64`` or
``timedelta64``), and takes 1 where there is none.  The ``'freq'`` coordinate has
``long_name='frequency'`` and ``units``: ``'Hz'`` for a ``datetime64``/``timedelta64`` coordinate or
one whose ``units`` are seconds (``'s'``, ``'seconds'``, ...; milliseconds give ``'kHz'``, and
another unit ``u`` gives ``'1/u'``, the ``' since ...'`` of a CF time unit left out); none for a
numeric coordinate without ``units`` (its unit is unknown); ``'Hz'`` for an explicit ``fs`` (a
sampling rate in samples per second, as the field writes it); ``'cycles per sample'`` with neither.
``freq_units=`` overrides the rule.  The ``dim`` coordinate, and every coordinate along ``dim``, is
decimated as the output (``[::decim]``).

xarray is optional (``pip install xarray``; the ``xarray`` extra of sftwave installs it).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

try:
    import xarray as xr
except ImportError as exc:                     # pragma: no cover - the extra is missing
    raise ImportError("sftwave.xarray needs xarray: pip install xarray") from exc

from ._checks.xarray import (
    aligned,
    check_dataarrays,
    check_decim,
    check_dim,
    check_keep_attrs,
    check_no_freq,
    check_obj,
    coordinate_step,
    cwt_dim,
    filtered_dims,
    per_dim,
    refuse,
    time_dim,
    variables_with,
)
from ._docs import docfiller
from .plans.families import wavelet_family

__all__ = ["cwt", "wct", "gaussian_filter", "gaussian_filter1d", "superlet", "SftwaveAccessor"]

T = TypeVar("T", xr.DataArray, xr.Dataset)

#: Attributes of the input that describe its quantity: a CWT never copies them.
_QUANTITY_ATTRS = ("units", "long_name", "standard_name")
_LONG_NAMES = {"complex": "{} wavelet coefficients", "real": "{} wavelet coefficients",
               "power": "{} wavelet power", "abs": "{} wavelet amplitude",
               "phase": "{} wavelet phase"}
_CONVENTION = "sftwave unit-energy Morlet, sigma = xi fs / (2 pi f) samples"
#: Time units of a coordinate (lower case) and the unit of the rate their step gives.
_RATE_UNITS = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "Hz"),
    **dict.fromkeys(("ms", "msec", "millisecond", "milliseconds"), "kHz"),
    **dict.fromkeys(("us", "µs", "μs", "microsecond", "microseconds"), "MHz"),
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds"), "GHz"),
}


# --------------------------------------------------------------------------- helpers


def _is_dask(data: Any) -> bool:
    return type(data).__module__.startswith("dask")


def _passed_through(var: xr.DataArray, keep: bool) -> xr.DataArray:
    """A data variable the call does not transform: as ``Dataset.rolling`` passes it on."""
    out = var.copy(deep=False)
    if not keep:
        out.attrs = {}
    return out


def _squared(units: str) -> str:
    if units.strip() in ("", "1"):
        return units
    return f"{units}^2" if re.fullmatch(r"[^\s*/^()+\-.]+", units) else f"({units})^2"


def _cwt_units(output: str, units: Any) -> str | None:
    """The ``units`` of a CWT of a quantity in ``units`` (None: unknown)."""
    if output == "phase":
        return "rad"
    if not isinstance(units, str):
        return None
    return _squared(units) if output == "power" else units


def _rate_units(units: Any) -> str | None:
    """The unit of ``1 / step`` for a coordinate in ``units`` (None: unknown)."""
    if not isinstance(units, str) or not units.strip():
        return None
    base = units.split(" since ")[0].strip()
    if base.lower() in _RATE_UNITS:
        return _RATE_UNITS[base.lower()]
    return f"1/{base}" if re.fullmatch(r"\w+", base) else f"1/({base})"


def _rate(coord: xr.DataArray, dim: Hashable) -> tuple[float, str | None]:
    """The sampling rate an evenly spaced coordinate gives, and its unit (None: unknown)."""
    step, timed = coordinate_step(coord.values, dim)
    return 1.0 / step, ("Hz" if timed else _rate_units(coord.attrs.get("units")))


def _freq_coordinate(obj: Any, dim: Hashable, freqs: Any, fs: float | None,
                     freq_units: str | None) -> tuple[float, np.ndarray, xr.Variable]:
    """``(fs, frequencies, 'freq' coordinate)``: ``fs`` as given, else from the ``dim``
    coordinate (1 where there is none), and the coordinate's ``units`` by the module's rule."""
    if fs is None:
        fs, units = _rate(obj[dim], dim) if dim in obj.coords else (1.0, "cycles per sample")
    else:
        units = "Hz"
    if freq_units is not None:
        units = str(freq_units)
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    freq = xr.Variable("freq", f, attrs={"long_name": "frequency",
                                         **({"units": units} if units else {})})
    return fs, f, freq


def _decimated_coords(obj: Any, dim: Hashable, decim: int) -> dict:
    """Every coordinate of ``obj`` along ``dim``, decimated as the CWT's output."""
    step = slice(None, None, decim)
    return {name: c.variable.isel({dim: step}) for name, c in obj.coords.items() if dim in c.dims}


# --------------------------------------------------------------------------- cwt


def _cwt_dataarray(x: xr.DataArray, f: np.ndarray, fs: float, dim: Hashable, decim: int,
                   kwargs: dict, keep: bool, freq: xr.Variable) -> xr.DataArray:
    def run(data: Any) -> Any:
        if _is_dask(data):
            from .dask import cwt as lazy

            return lazy(data, f, fs, axis=-1, decim=decim, **kwargs)
        from .wavelets import cwt as batch

        return batch(data, f, fs, axis=-1, decim=decim, **kwargs)

    out = xr.apply_ufunc(run, x, input_core_dims=[[dim]], output_core_dims=[["freq", dim]],
                         exclude_dims={dim}, dask="allowed", keep_attrs=True)
    out = out.assign_coords(_decimated_coords(x, dim, decim)).assign_coords(freq=freq)
    output = kwargs["output"]
    xi = kwargs["xi"]
    family = wavelet_family(kwargs.get("wavelet", "morlet"))
    attrs = {k: v for k, v in x.attrs.items() if k not in _QUANTITY_ATTRS} if keep else {}
    units = _cwt_units(output, x.attrs.get("units"))
    if units is not None:
        attrs["units"] = units
    attrs.update(long_name=_LONG_NAMES[output].format(family.title), wavelet=family.name,
                 xi=(float(xi) if np.ndim(xi) == 0 else np.asarray(xi, dtype=np.float64)),
                 fs=float(fs), mode=kwargs.get("mode", "reflect"), output=output,
                 decim=int(decim), convention=_CONVENTION)
    out.attrs = attrs
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
    fs, f, freq = _freq_coordinate(obj, dim, freqs, fs, freq_units)
    kw = dict(kwargs, output=output, xi=xi)
    if isinstance(obj, xr.DataArray):
        return _cwt_dataarray(obj, f, fs, dim, decim, kw, keep, freq)
    names = variables_with(obj, (dim,), "dim")
    variables = {n: (_cwt_dataarray(v, f, fs, dim, decim, kw, keep, freq) if n in names
                     else _passed_through(v, keep)) for n, v in obj.data_vars.items()}
    coords = obj.coords.to_dataset().isel({dim: slice(None, None, decim)}, missing_dims="ignore")
    out = coords.assign_coords(freq=freq).assign(variables)
    out.attrs = dict(obj.attrs) if keep else {}
    return out


# --------------------------------------------------------------------------- superlet


def _superlet_dataarray(x: xr.DataArray, f: np.ndarray, fs: float, dim: Hashable, decim: int,
                        kwargs: dict, keep: bool, freq: xr.Variable) -> xr.DataArray:
    def run(data: Any) -> Any:
        if _is_dask(data):
            from .dask import superlet as lazy

            return lazy(data, f, fs, axis=-1, decim=decim, **kwargs)
        from .superlets import superlet as batch

        return batch(data, f, fs, axis=-1, decim=decim, **kwargs)

    out = xr.apply_ufunc(run, x, input_core_dims=[[dim]], output_core_dims=[["freq", dim]],
                         exclude_dims={dim}, dask="allowed", keep_attrs=True)
    out = out.assign_coords(_decimated_coords(x, dim, decim)).assign_coords(freq=freq)
    output = kwargs.get("output", "power")
    attrs = {k: v for k, v in x.attrs.items() if k not in _QUANTITY_ATTRS} if keep else {}
    units = _cwt_units("power" if output == "power" else "abs", x.attrs.get("units"))
    if units is not None:
        attrs["units"] = units
    attrs.update(long_name=f"superlet {output}", fs=float(fs), output=output, decim=int(decim),
                 **{k: kwargs[k] for k in ("order_max", "order_min", "c_1") if k in kwargs},
                 **{k: int(bool(kwargs[k])) for k in ("adaptive", "multiplicative")
                    if k in kwargs})
    out.attrs = attrs
    return out


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
    fs, f, freq = _freq_coordinate(obj, dim, freqs, fs, freq_units)
    kw = dict(kwargs, order_max=order_max)
    if isinstance(obj, xr.DataArray):
        return _superlet_dataarray(obj, f, fs, dim, decim, kw, keep, freq)
    names = variables_with(obj, (dim,), "dim")
    variables = {n: (_superlet_dataarray(v, f, fs, dim, decim, kw, keep, freq) if n in names
                     else _passed_through(v, keep)) for n, v in obj.data_vars.items()}
    coords = obj.coords.to_dataset().isel({dim: slice(None, None, decim)}, missing_dims="ignore")
    out = coords.assign_coords(freq=freq).assign(variables)
    out.attrs = dict(obj.attrs) if keep else {}
    return out


# --------------------------------------------------------------------------- coherence


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
    from .analysis import cone_of_influence
    from .coherence import wct as batch

    check_dataarrays("coherence.wct", x=x, y=y)
    refuse(kwargs, ("axis",), "dim= names the time dimension")
    keep = check_keep_attrs(keep_attrs)
    dim = time_dim(x, dim, "x")
    check_dim(y, dim, "dim")
    check_no_freq(x)
    check_no_freq(y)
    x, y = aligned(x, y, dim)
    fs, f, freq = _freq_coordinate(x, dim, freqs, fs, freq_units)
    units = freq.attrs.get("units")

    def run(a: Any, b: Any) -> tuple[Any, Any, Any]:
        if _is_dask(a) or _is_dask(b):
            from .dask import wct as lazy

            r = lazy(a, b, f, fs, xi=xi, axis=-1, **kwargs)
        else:
            r = batch(a, b, f, fs, xi=xi, axis=-1, **kwargs)
        return r.coherence, r.phase, r.cross

    r2, phase, cross = xr.apply_ufunc(
        run, x, y, input_core_dims=[[dim], [dim]], output_core_dims=[["freq", dim]] * 3,
        dask="allowed", keep_attrs=False)
    coords = {name: c.variable for name, c in x.coords.items() if dim in c.dims}
    period = None if units is None else {"Hz": "s", "kHz": "ms", "MHz": "us", "GHz": "ns"}.get(
        units, units[2:] if units.startswith("1/") else None)
    coi = xr.DataArray(cone_of_influence(x.sizes[dim], fs, float(xi)), dims=(dim,), attrs={
        "long_name": "cone of influence (Fourier period)", **({"units": period} if period else {})})
    out = xr.Dataset({"coherence": r2, "phase": phase, "cross": cross, "coi": coi})
    out = out.assign_coords(coords).assign_coords(freq=freq)
    out["coherence"].attrs = {"long_name": "wavelet coherence (R^2)", "units": "1"}
    out["phase"].attrs = {"long_name": "phase of the smoothed cross-spectrum (x leads y where "
                                       "positive)", "units": "rad"}
    out["cross"].attrs = {"long_name": "smoothed cross-wavelet spectrum"}
    attrs = dict(x.attrs) if keep else {}
    for key in _QUANTITY_ATTRS:
        attrs.pop(key, None)
    attrs.update(wavelet="morlet", xi=float(xi), fs=float(fs),
                 mode=kwargs.get("mode", "reflect"),
                 smoothing=kwargs.get("smoothing", "grinsted"), convention=_CONVENTION)
    out.attrs = attrs
    return out


# --------------------------------------------------------------------------- filters


def _filter_dataarray(x: xr.DataArray, dims: Sequence[Hashable],
                      call: Callable[[Any, tuple, bool], Any], keep: bool,
                      derivative: bool) -> xr.DataArray:
    """``call(data, axes, lazy)`` on ``x``'s data, with ``dims`` mapped to its axes."""
    core = list(x.dims)
    axes = tuple(core.index(d) for d in dims)
    out = xr.apply_ufunc(lambda data: call(data, axes, _is_dask(data)), x,
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
    out = out.assign({n: (one(v) if n in names else _passed_through(v, keep))
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
            from .dask import gaussian_filter as run
        else:
            from .ndimage import gaussian_filter as run
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
            from .dask import gaussian_filter1d as run
        else:
            from .ndimage import gaussian_filter1d as run
        return run(data, sigma, axis=axes[0], order=order, mode=mode, cval=cval,
                     truncate=truncate, **kwargs)

    return _filter(obj, (dim,), {dim: order}, keep, call)


# --------------------------------------------------------------------------- the accessor


class SftwaveAccessor:
    """``obj.sftwave``: this module's functions as methods of every ``DataArray`` and ``Dataset``.

    Registered as ``sftwave`` on both by ``import sftwave.xarray``;
    ``obj.sftwave.f(...)`` is ``sftwave.xarray.f(obj, ...)``.

    Parameters
    ----------
    obj : DataArray or Dataset
        The object the methods transform (xarray passes it: ``obj.sftwave``).

    See Also
    --------
    sftwave.xarray.cwt : The Morlet transform of a DataArray.
    sftwave.xarray.wct : The wavelet coherence of two DataArrays.
    sftwave.xarray.gaussian_filter : Gaussian smoothing of a DataArray.
    sftwave.xarray.gaussian_filter1d : Along one dimension.

    Examples
    --------
    >>> x = xr.DataArray(np.ones((2, 300)), dims=("channel", "time"))
    >>> xr.Dataset({"x": x}).sftwave.gaussian_filter1d(5.0, "time")["x"].dims
    ('channel', 'time')
    """

    _sftwave_accessor = True          # marks this module's accessor (see _register)

    def __init__(self, obj: xr.DataArray | xr.Dataset) -> None:
        self._obj: Any = obj           # (either: the functions' type variable is bound per call)

    def cwt(self, freqs: Any, fs: float | None = None, *, dim: Hashable | None = None,
            **kwargs: Any) -> xr.DataArray | xr.Dataset:
        """:func:`sftwave.xarray.cwt` of this object (the same parameters).

        Parameters
        ----------
        freqs, fs, dim, **kwargs
            As :func:`sftwave.xarray.cwt`'s: ``freqs`` float or sequence of float, ``fs`` float
            (optional), ``dim`` hashable (optional), then its keyword options.

        Returns
        -------
        DataArray or Dataset
            The transform: the other dimensions, then ``'freq'`` and ``dim``.

        See Also
        --------
        sftwave.xarray.cwt : The function, which documents every option.

        Examples
        --------
        >>> t = ("time", np.arange(2000) / 250.0, {"units": "s"})   # a time coordinate in seconds
        >>> x = xr.DataArray(np.ones((1, 2000)), {"time": t}, ("channel", "time"), attrs={"units": "uV"})
        >>> p = x.sftwave.cwt([5.0, 10.0, 20.0], output="power", decim=5)
        >>> p.dims, p.sizes["time"], p.attrs["units"], p["freq"].attrs["units"], float(p.attrs["fs"])
        (('channel', 'freq', 'time'), 400, 'uV^2', 'Hz', 250.0)
        """
        return cwt(self._obj, freqs, fs, dim=dim, **kwargs)

    def wct(self, other: xr.DataArray, freqs: Any, fs: float | None = None, *,
            dim: Hashable | None = None, **kwargs: Any) -> xr.Dataset:
        """:func:`sftwave.xarray.wct` of this ``DataArray`` (``x``) and ``other`` (``y``).

        Parameters
        ----------
        other, freqs, fs, dim, **kwargs
            As :func:`sftwave.xarray.wct`'s: ``other`` (``y``) a DataArray, ``freqs`` float or
            sequence of float, ``fs`` float and ``dim`` hashable (optional), its keyword options.

        Returns
        -------
        Dataset
            ``coherence``, ``phase``, ``cross`` and ``coi``.

        See Also
        --------
        sftwave.xarray.wct : The function, which documents every option.

        Examples
        --------
        >>> x = xr.DataArray(np.random.default_rng(0).standard_normal(1000), dims="time")
        >>> bool(np.allclose(x.sftwave.wct(x, [0.05, 0.1])["coherence"], 1.0))   # with itself
        True
        """
        return wct(self._obj, other, freqs, fs, dim=dim, **kwargs)

    def gaussian_filter(self, sigma: Any, *, dims: Any = None,
                        **kwargs: Any) -> xr.DataArray | xr.Dataset:
        """:func:`sftwave.xarray.gaussian_filter` of this object (the same parameters).

        Parameters
        ----------
        sigma, dims, **kwargs
            As :func:`sftwave.xarray.gaussian_filter`'s: ``sigma`` float, sequence of float or
            mapping, ``dims`` hashable or sequence of hashable (optional), its keyword options.

        Returns
        -------
        DataArray or Dataset
            The filtered object, with this one's dimensions and coordinates.

        See Also
        --------
        sftwave.xarray.gaussian_filter : The function, which documents every option.

        Examples
        --------
        >>> img = xr.DataArray(np.ones((40, 60)), dims=("y", "x"), attrs={"units": "K"})
        >>> out = img.sftwave.gaussian_filter(3.0, dims=("x", "y"), keep_attrs=False)
        >>> out.attrs, bool(np.allclose(out, 1.0))
        ({}, True)
        """
        return gaussian_filter(self._obj, sigma, dims=dims, **kwargs)

    def gaussian_filter1d(self, sigma: float, dim: Hashable,
                          **kwargs: Any) -> xr.DataArray | xr.Dataset:
        """:func:`sftwave.xarray.gaussian_filter1d` of this object (the same parameters).

        Parameters
        ----------
        sigma, dim, **kwargs
            As :func:`sftwave.xarray.gaussian_filter1d`'s: ``sigma`` float (samples along
            ``dim``), ``dim`` hashable, then its keyword options (``order``, ``mode``, ...).

        Returns
        -------
        DataArray or Dataset
            The filtered object, with this one's dimensions and coordinates.

        See Also
        --------
        sftwave.xarray.gaussian_filter1d : The function, which documents every option.

        Examples
        --------
        >>> x = xr.DataArray(np.arange(300.0), dims="time", attrs={"units": "uV"})
        >>> x.sftwave.gaussian_filter1d(10.0, "time").attrs["units"]
        'uV'
        """
        return gaussian_filter1d(self._obj, sigma, dim, **kwargs)


def _register() -> None:
    """Register :class:`SftwaveAccessor` as ``sftwave`` on ``DataArray`` and ``Dataset``.

    Idempotent and silent when the name holds this module's accessor already
    (a second import of the module, a reload); xarray's warning stays for an
    accessor of another package under the same name.
    """
    for cls, register in ((xr.DataArray, xr.register_dataarray_accessor),
                          (xr.Dataset, xr.register_dataset_accessor)):
        current = getattr(cls, "sftwave", None)
        if current is SftwaveAccessor:
            continue
        with warnings.catch_warnings():
            if getattr(current, "_sftwave_accessor", False):
                warnings.simplefilter("ignore")
            register("sftwave")(SftwaveAccessor)


_register()
