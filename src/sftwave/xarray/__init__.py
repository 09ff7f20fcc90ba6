"""xarray: sftwave's Gaussian filters and Morlet transform on DataArrays and Datasets, by name.

Three functions take a ``DataArray`` or a ``Dataset`` and name dimensions
instead of axes; importing this module also registers an accessor, so the
same three are methods of every ``DataArray`` and ``Dataset``::

    import sftwave.xarray                               # registers ``.sftwave``
    tfr = eeg.sftwave.cwt(freqs, output="power")        # or sftwave.xarray.cwt(eeg, ...)
    smooth = eeg.sftwave.gaussian_filter1d(4.0, "time")
    blurred = image.sftwave.gaussian_filter({"x": 2.0, "y": 3.0})

and :func:`wct` (``x.sftwave.wct(y, freqs)``) gives the wavelet coherence of two
``DataArray`` objects, aligned by name, as a ``Dataset``; :func:`wct_pairs`
(``x.sftwave.wct_pairs(freqs)``) that of every pair of one's channels, each
pair named by its ``seed`` and ``target`` channels.

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

import warnings
from collections.abc import Hashable
from typing import Any

try:
    import xarray as xr
except ImportError as exc:                     # pragma: no cover - the extra is missing
    raise ImportError("sftwave.xarray needs xarray: pip install xarray") from exc

import numpy as np  # noqa: F401 - the accessor's examples use it

from ._coherence import wct, wct_pairs
from ._filters import gaussian_filter, gaussian_filter1d
from ._wavelets import cwt, superlet

__all__ = ["cwt", "wct", "wct_pairs", "gaussian_filter", "gaussian_filter1d", "superlet",
           "SftwaveAccessor"]


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
    sftwave.xarray.wct_pairs : The wavelet coherence of every pair of a DataArray's channels.
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

    def wct_pairs(self, freqs: Any, fs: float | None = None, *, dim: Hashable | None = None,
                  channel_dim: Hashable | None = None, **kwargs: Any) -> xr.Dataset:
        """:func:`sftwave.xarray.wct_pairs` of this ``DataArray``: every pair of its channels.

        Parameters
        ----------
        freqs, fs, dim, channel_dim, **kwargs
            As :func:`sftwave.xarray.wct_pairs`'s: ``freqs`` float or sequence of float, ``fs``
            float, ``dim`` and ``channel_dim`` hashable (optional), its keyword options.

        Returns
        -------
        Dataset
            ``coherence``, ``phase`` and ``coi`` (``cross`` and ``significance`` when asked),
            the pairs named by the ``seed`` and ``target`` coordinates.

        See Also
        --------
        sftwave.xarray.wct_pairs : The function, which documents every option.

        Examples
        --------
        >>> x = xr.DataArray(np.random.default_rng(0).standard_normal((3, 1000)),
        ...                  dims=("sensor", "time"), coords={"sensor": ["a", "b", "c"]})
        >>> r = x.sftwave.wct_pairs([0.05, 0.1])
        >>> r["coherence"].dims, r["seed"].values.tolist(), r["target"].values.tolist()
        (('pair', 'freq', 'time'), ['b', 'c', 'c'], ['a', 'a', 'b'])
        """
        return wct_pairs(self._obj, freqs, fs, dim=dim, channel_dim=channel_dim, **kwargs)

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
