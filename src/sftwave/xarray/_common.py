"""The helpers :mod:`sftwave.xarray`'s wrappers share: the sampling rate and the ``'freq'``
coordinate a ``dim`` coordinate gives, the units of a transform, the coordinates along ``dim``."""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any, TypeVar

import numpy as np
import xarray as xr

from .._checks.xarray import coordinate_step

__all__ = ["T", "QUANTITY_ATTRS", "LONG_NAMES", "CONVENTION", "is_dask", "passed_through",
           "cwt_units", "freq_coordinate", "decimated_coords"]

T = TypeVar("T", xr.DataArray, xr.Dataset)

#: Attributes of the input that describe its quantity: a CWT never copies them.
QUANTITY_ATTRS = ("units", "long_name", "standard_name")
LONG_NAMES = {"complex": "{} wavelet coefficients", "real": "{} wavelet coefficients",
               "power": "{} wavelet power", "abs": "{} wavelet amplitude",
               "phase": "{} wavelet phase"}
CONVENTION = "sftwave unit-energy Morlet, sigma = xi fs / (2 pi f) samples"
#: Time units of a coordinate (lower case) and the unit of the rate their step gives.
_RATE_UNITS = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "Hz"),
    **dict.fromkeys(("ms", "msec", "millisecond", "milliseconds"), "kHz"),
    **dict.fromkeys(("us", "µs", "μs", "microsecond", "microseconds"), "MHz"),
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds"), "GHz"),
}


# --------------------------------------------------------------------------- helpers


def is_dask(data: Any) -> bool:
    return type(data).__module__.startswith("dask")


def passed_through(var: xr.DataArray, keep: bool) -> xr.DataArray:
    """A data variable the call does not transform: as ``Dataset.rolling`` passes it on."""
    out = var.copy(deep=False)
    if not keep:
        out.attrs = {}
    return out


def _squared(units: str) -> str:
    if units.strip() in ("", "1"):
        return units
    return f"{units}^2" if re.fullmatch(r"[^\s*/^()+\-.]+", units) else f"({units})^2"


def cwt_units(output: str, units: Any) -> str | None:
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


def freq_coordinate(obj: Any, dim: Hashable, freqs: Any, fs: float | None,
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


def decimated_coords(obj: Any, dim: Hashable, decim: int) -> dict:
    """Every coordinate of ``obj`` along ``dim``, decimated as the CWT's output."""
    step = slice(None, None, decim)
    return {name: c.variable.isel({dim: step}) for name, c in obj.coords.items() if dim in c.dims}
