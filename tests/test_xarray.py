"""sftwave.xarray.cwt: a DataArray in, a DataArray out, lazy when dask-backed."""

from __future__ import annotations

import numpy as np
import pytest

import sftwave

xr = pytest.importorskip("xarray")
from sftwave.xarray import cwt  # noqa: E402


def _eeg():
    t = np.arange(3000) / 250.0
    data = np.random.default_rng(0).standard_normal((2, 3, t.size))
    return xr.DataArray(data, dims=("epoch", "channel", "time"),
                        coords={"epoch": [1, 2], "channel": ["Cz", "Pz", "Oz"], "time": t,
                                "site": ("channel", ["a", "b", "c"])},
                        attrs={"units": "uV"}, name="eeg")


def test_dims_coords_attrs_and_values():
    x = _eeg()
    freqs = [4.0, 10.0, 30.0]
    p = cwt(x, freqs, output="power", decim=4, xi=7.0)
    assert p.dims == ("epoch", "channel", "freq", "time") and p.name == "eeg"
    assert np.allclose(p["freq"], freqs) and np.allclose(p["time"], x["time"][::4])
    assert list(p["site"].values) == ["a", "b", "c"] and p.attrs["units"] == "uV"
    assert p.attrs["wavelet"] == "morlet" and p.attrs["xi"] == 7.0 and p.attrs["fs"] == 250.0
    assert p.attrs["decim"] == 4 and p.attrs["output"] == "power"
    ref = sftwave.cwt(x.values, freqs, 250.0, output="power", decim=4, xi=7.0)
    assert np.array_equal(p.values, ref)


def test_time_not_last_datetime_coordinate_and_dask():
    pytest.importorskip("dask.array")
    t = np.datetime64("2024-01-01") + np.arange(4000) * np.timedelta64(250, "ms")
    x = xr.DataArray(np.random.default_rng(1).standard_normal((4000, 2)), dims=("time", "sensor"),
                     coords={"time": t})
    p = cwt(x, [0.05, 0.2], output="abs")
    assert p.dims == ("sensor", "freq", "time") and p.attrs["fs"] == 4.0
    lazy = cwt(x.chunk({"time": 1000}), [0.05, 0.2], output="abs")
    assert type(lazy.data).__module__.startswith("dask")
    assert np.allclose(lazy.compute().values, p.values, rtol=1e-10, atol=1e-12)


def test_refusals():
    x = _eeg()
    with pytest.raises(TypeError, match="sftwave.xarray.cwt"):
        sftwave.cwt(x, [10.0], 250.0)
    with pytest.raises(ValueError, match="dim"):
        cwt(x, [10.0], dim="freq")
    uneven = x.assign_coords(time=np.r_[0.0, np.cumsum(np.full(2999, 0.004))] ** 1.01)
    with pytest.raises(ValueError, match="evenly spaced"):
        cwt(uneven, [10.0])
    with pytest.raises(TypeError, match="DataArray"):
        cwt(np.ones(10), [0.1])
