"""sftwave.xarray: DataArrays and Datasets in and out, by dimension name, lazy when dask-backed."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

import sftwave

xr = pytest.importorskip("xarray")
import sftwave.xarray as sx  # noqa: E402
from sftwave.xarray import cwt, gaussian_filter, gaussian_filter1d  # noqa: E402


def _eeg():
    t = np.arange(3000) / 250.0
    data = np.random.default_rng(0).standard_normal((2, 3, t.size))
    return xr.DataArray(data, dims=("epoch", "channel", "time"),
                        coords={"epoch": [1, 2], "channel": ["Cz", "Pz", "Oz"],
                                "time": ("time", t, {"units": "s", "long_name": "time"}),
                                "site": ("channel", ["a", "b", "c"]),
                                "sample": ("time", np.arange(t.size))},
                        attrs={"units": "uV", "long_name": "EEG", "device": "amp1"}, name="eeg")


def _dataset():
    x = _eeg()
    return xr.Dataset({"eeg": x, "emg": (x * 2).assign_attrs(units="mV"),
                       "impedance": xr.DataArray([5.0, 7.0, 6.0], dims="channel",
                                                 attrs={"units": "kOhm"})},
                      attrs={"subject": "s01"})


# --------------------------------------------------------------------------- cwt


def test_dims_coords_attrs_and_values():
    x = _eeg()
    freqs = [4.0, 10.0, 30.0]
    p = cwt(x, freqs, output="power", decim=4, xi=7.0)
    assert p.dims == ("epoch", "channel", "freq", "time") and p.name == "eeg"
    assert np.allclose(p["freq"], freqs) and np.allclose(p["time"], x["time"][::4])
    assert np.array_equal(p["sample"], np.arange(0, 3000, 4))       # coords along time decimated
    assert p["time"].attrs == {"units": "s", "long_name": "time"}     # and keep their attrs
    assert list(p["site"].values) == ["a", "b", "c"]
    assert p.attrs["units"] == "uV^2" and p.attrs["long_name"] == "Morlet wavelet power"
    assert p.attrs["device"] == "amp1"
    assert p.attrs["wavelet"] == "morlet" and p.attrs["xi"] == 7.0 and p.attrs["fs"] == 250.0
    assert p.attrs["decim"] == 4 and p.attrs["output"] == "power"
    ref = sftwave.cwt(x.values, freqs, 250.0, output="power", decim=4, xi=7.0)
    assert np.array_equal(p.values, ref)


@pytest.mark.parametrize("output, units", [("complex", "uV"), ("abs", "uV"), ("power", "uV^2"),
                                           ("phase", "rad")])
def test_units_of_each_output(output, units):
    x = _eeg().isel(epoch=0, channel=0)
    assert cwt(x, [10.0], output=output).attrs["units"] == units
    bare = x.copy()
    bare.attrs = {}
    got = cwt(bare, [10.0], output=output).attrs
    assert got.get("units") == ("rad" if output == "phase" else None)
    compound = x.assign_attrs(units="m s-1")
    expected = {"power": "(m s-1)^2", "phase": "rad"}.get(output, "m s-1")
    assert cwt(compound, [10.0], output=output).attrs["units"] == expected


def test_keep_attrs():
    x = _eeg()
    kept = cwt(x, [10.0], output="abs", keep_attrs=True).attrs
    assert kept["device"] == "amp1" and kept["long_name"] == "Morlet wavelet amplitude"
    dropped = cwt(x, [10.0], output="abs", keep_attrs=False)
    assert "device" not in dropped.attrs and dropped.attrs["units"] == "uV"    # its own attrs
    assert dropped["time"].attrs["units"] == "s"                             # coords keep theirs
    with xr.set_options(keep_attrs=False):
        assert "device" not in cwt(x, [10.0]).attrs
        assert gaussian_filter1d(x, 3.0, "time").attrs == {}
        assert gaussian_filter1d(x, 3.0, "time", keep_attrs=True).attrs == x.attrs
    assert gaussian_filter1d(x, 3.0, "time").attrs == x.attrs
    assert gaussian_filter1d(x, 3.0, "time", keep_attrs=False).attrs == {}
    assert gaussian_filter(x, {"time": 3.0}, keep_attrs=False).attrs == {}
    assert "units" not in gaussian_filter1d(x, 3.0, "time", order=1).attrs   # a derivative
    assert "units" not in gaussian_filter(x, {"time": 3.0, "channel": 1.0},
                                          order={"time": 2}).attrs
    with pytest.raises(TypeError, match="keep_attrs"):
        cwt(x, [10.0], keep_attrs="yes")


def test_freq_coordinate_attrs():
    x = _eeg().isel(epoch=0)
    assert cwt(x, [10.0])["freq"].attrs == {"long_name": "frequency", "units": "Hz"}
    ms = x.assign_coords(time=("time", x["time"].values * 1e3, {"units": "ms"}))
    p = cwt(ms, [0.01])
    assert p.attrs["fs"] == pytest.approx(0.25) and p["freq"].attrs["units"] == "kHz"
    days = x.assign_coords(time=("time", x["time"].values, {"units": "days since 2000-01-01"}))
    assert cwt(days, [10.0])["freq"].attrs["units"] == "1/days"
    unknown = x.assign_coords(time=x["time"].values)
    assert "units" not in cwt(unknown, [10.0])["freq"].attrs
    none = x.drop_vars(["time", "sample"])
    assert cwt(none, [0.04])["freq"].attrs["units"] == "cycles per sample"
    assert cwt(none, [10.0], fs=250.0)["freq"].attrs["units"] == "Hz"
    assert cwt(none, [10.0], fs=250.0, freq_units="rad/s")["freq"].attrs["units"] == "rad/s"


def test_time_not_last_datetime_coordinate_and_dask():
    pytest.importorskip("dask.array")
    t = np.datetime64("2024-01-01") + np.arange(4000) * np.timedelta64(250, "ms")
    x = xr.DataArray(np.random.default_rng(1).standard_normal((4000, 2)), dims=("time", "sensor"),
                     coords={"time": t})
    p = cwt(x, [0.05, 0.2], output="abs")
    assert p.dims == ("sensor", "freq", "time") and p.attrs["fs"] == 4.0
    assert p["freq"].attrs["units"] == "Hz"
    lazy = cwt(x.chunk({"time": 1000}), [0.05, 0.2], output="abs", decim=3)
    assert type(lazy.data).__module__.startswith("dask")
    ref = cwt(x, [0.05, 0.2], output="abs", decim=3)
    assert lazy["time"].equals(ref["time"])
    assert np.allclose(lazy.compute().values, ref.values, rtol=1e-10, atol=1e-12)


def test_dataset():
    ds = _dataset()
    out = cwt(ds, [10.0, 20.0], output="power", decim=2)
    assert set(out.data_vars) == {"eeg", "emg", "impedance"}
    assert out["eeg"].dims == ("epoch", "channel", "freq", "time")
    assert out["eeg"].attrs["units"] == "uV^2" and out["emg"].attrs["units"] == "mV^2"
    assert out["impedance"].identical(ds["impedance"])                       # passed through
    assert out.attrs == {"subject": "s01"} and out.sizes["time"] == 1500
    assert np.array_equal(out["sample"], ds["sample"][::2])
    assert out["eeg"].equals(cwt(ds["eeg"], [10.0, 20.0], output="power", decim=2))
    bare = cwt(ds, [10.0], keep_attrs=False)
    assert bare.attrs == {} and bare["impedance"].attrs == {} and "device" not in bare["eeg"].attrs
    with pytest.raises(ValueError, match="no data variable"):
        cwt(ds[["impedance"]].assign_coords(time=ds["time"]), [10.0], dim="time")


def test_accessor_and_idempotent_registration():
    x, ds = _eeg(), _dataset()
    assert x.sftwave.cwt([10.0], output="abs").identical(cwt(x, [10.0], output="abs"))
    assert ds.sftwave.cwt([10.0], dim="time").identical(cwt(ds, [10.0]))
    assert x.sftwave.gaussian_filter1d(4.0, "time").identical(gaussian_filter1d(x, 4.0, "time"))
    smooth = gaussian_filter(ds, {"time": 4.0})
    assert ds.sftwave.gaussian_filter({"time": 4.0}).identical(smooth)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sx._register()
        importlib.reload(sx)                 # a second registration: silent, and still working
    fresh = _eeg()                           # (an object caches its accessor)
    assert isinstance(fresh.sftwave, sx.SftwaveAccessor)
    assert isinstance(xr.Dataset({"x": fresh}).sftwave, sx.SftwaveAccessor)
    assert fresh.sftwave.gaussian_filter1d(4.0, "time").identical(gaussian_filter1d(x, 4.0, "time"))


# --------------------------------------------------------------------------- filters


def test_gaussian_filter_over_named_dims_equals_numpy():
    x = _eeg()
    out = gaussian_filter(x, {"time": 12.0, "channel": 0.8})
    ref = sftwave.gaussian_filter(x.values, (12.0, 0.8), axes=(2, 1))
    assert out.dims == x.dims and np.array_equal(out.values, ref)
    assert out.coords.to_dataset().identical(x.coords.to_dataset()) and out.name == "eeg"
    seq = gaussian_filter(x, (0.8, 12.0), dims=("channel", "time"), order=(0, 1),
                          mode={"time": "nearest"})
    ref = sftwave.gaussian_filter(x.values, (0.8, 12.0), axes=(1, 2), order=(0, 1),
                                  mode=("reflect", "nearest"))
    assert np.array_equal(seq.values, ref)
    every = gaussian_filter(x, 1.5)
    assert np.array_equal(every.values, sftwave.gaussian_filter(x.values, 1.5))
    one = gaussian_filter1d(x.transpose("time", "epoch", "channel"), 20.0, "time", order=2)
    ref = sftwave.gaussian_filter1d(x.values, 20.0, axis=2, order=2)
    assert one.dims == ("time", "epoch", "channel")
    assert np.allclose(one.transpose(*x.dims).values, ref, rtol=1e-12, atol=1e-15)   # by layout


def test_filters_on_a_dataset():
    ds = _dataset()
    out = gaussian_filter(ds, {"time": 5.0, "channel": 1.0})
    assert out["eeg"].equals(gaussian_filter(ds["eeg"], {"time": 5.0, "channel": 1.0}))
    # a variable with only some of the dims is filtered along those it has
    assert out["impedance"].equals(gaussian_filter(ds["impedance"], {"channel": 1.0}))
    assert out.attrs == ds.attrs and out["emg"].attrs == ds["emg"].attrs
    one = gaussian_filter1d(ds, 5.0, "time")
    assert one["impedance"].identical(ds["impedance"])                 # passed through
    assert np.array_equal(one["emg"].values, sftwave.gaussian_filter1d(ds["emg"].values, 5.0))
    assert gaussian_filter1d(ds, 5.0, "time", keep_attrs=False)["impedance"].attrs == {}


def test_dask_backed_stays_lazy_and_equals_in_memory():
    pytest.importorskip("dask.array")
    x = _eeg()
    lazy = x.chunk({"time": 700, "channel": 1})
    cases = [
        (lambda o: gaussian_filter1d(o, 30.0, "time"), 1e-12),
        (lambda o: gaussian_filter(o, {"time": 30.0, "channel": 1.0}), 1e-12),
        (lambda o: cwt(o, [4.0, 10.0], output="power", decim=5), 1e-10),
    ]
    for f, rtol in cases:
        got, ref = f(lazy), f(x)
        assert type(got.data).__module__.startswith("dask")
        assert got.dims == ref.dims and got.attrs == ref.attrs
        assert np.allclose(got.compute().values, ref.values, rtol=rtol, atol=1e-12)
    ds = _dataset().chunk({"time": 1000})
    out = ds.sftwave.cwt([10.0], output="abs")
    assert type(out["emg"].data).__module__.startswith("dask")
    assert np.allclose(out["emg"].compute().values, cwt(_dataset()["emg"], [10.0],
                                                        output="abs").values, rtol=1e-10)


# --------------------------------------------------------------------------- refusals


def test_refusals():
    x = _eeg()
    with pytest.raises(TypeError, match="sftwave.xarray.cwt"):
        sftwave.cwt(x, [10.0], 250.0)
    with pytest.raises(ValueError, match="dim 'freq' is not a dimension"):
        cwt(x, [10.0], dim="freq")
    uneven = x.assign_coords(time=np.r_[0.0, np.cumsum(np.full(2999, 0.004))] ** 1.01)
    with pytest.raises(ValueError, match="evenly spaced"):
        cwt(uneven, [10.0])
    with pytest.raises(TypeError, match="DataArray"):
        cwt(np.ones(10), [0.1])
    with pytest.raises(TypeError, match="axis="):
        cwt(x, [10.0], axis=0)
    with pytest.raises(ValueError, match="already has a 'freq'"):
        cwt(x.expand_dims(freq=[1.0]), [10.0])
    with pytest.raises(ValueError, match="dim must be given"):
        cwt(_dataset().rename(time="t"), [0.1])


def test_filter_errors_name_the_parameter():
    x, ds = _eeg(), _dataset()
    with pytest.raises(ValueError, match="dim 'times' is not a dimension of the DataArray"):
        gaussian_filter1d(x, 3.0, "times")
    with pytest.raises(ValueError, match="dim 'x' is not a dimension of the Dataset"):
        gaussian_filter1d(ds, 3.0, "x")
    with pytest.raises(ValueError, match=r"sigma names \['x'\], which are not dimensions"):
        gaussian_filter(x, {"time": 3.0, "x": 1.0})
    with pytest.raises(ValueError, match="dims entry 'x' is not a dimension"):
        gaussian_filter(x, 3.0, dims=("time", "x"))
    with pytest.raises(ValueError, match="sigma's dims"):
        gaussian_filter(x, {"time": 3.0}, dims=("time", "channel"))
    with pytest.raises(ValueError, match="order names"):
        gaussian_filter(x, {"time": 3.0}, order={"channel": 1})
    with pytest.raises(ValueError, match="sigma must be a scalar, a mapping"):
        gaussian_filter(x, (3.0, 1.0), dims="time")
    with pytest.raises(TypeError, match="axes="):
        gaussian_filter(x, 3.0, axes=(0,))
    with pytest.raises(TypeError, match="output must be None or a dtype"):
        gaussian_filter1d(x, 3.0, "time", output=np.empty(x.shape))
    with pytest.raises(TypeError, match="obj must be an xarray DataArray or Dataset"):
        gaussian_filter(x.values, 3.0)


def test_cwt_dog_wavelet():
    """wavelet= passes through: the DOG's real coefficients, with the DataArray's coordinates."""
    x = np.random.default_rng(3).standard_normal((2, 1500))
    a = xr.DataArray(x, dims=("ch", "time"), coords={"time": np.arange(1500) / 100.0})
    y = cwt(a, [2.0, 10.0], wavelet="mexh")
    assert y.dtype == np.float64
    assert np.array_equal(y.values, sftwave.cwt(x, [2.0, 10.0], 100.0, wavelet="mexh"))


# --------------------------------------------------------------------------- coherence


def test_wct_by_name_broadcasts_and_equals_the_arrays():
    """x (epoch, channel, time) against y (time, channel): aligned by name, y broadcast over the
    epochs, time not last in y; values, dims, coordinates and units as documented."""
    from sftwave.coherence import wct as wct_arrays

    x = _eeg()
    y = (x.isel(epoch=0) * 0.5).transpose("time", "channel").assign_attrs(units="mV")
    y = y.copy(data=y.values + np.random.default_rng(3).standard_normal(y.shape))
    r = sx.wct(x, y, [4.0, 10.0, 30.0], mode="constant")
    assert r["coherence"].dims == ("epoch", "channel", "freq", "time")
    assert list(r["channel"].values) == ["Cz", "Pz", "Oz"] and "sample" in r.coords
    assert r["freq"].attrs["units"] == "Hz" and r["coi"].attrs["units"] == "s"
    assert r["coi"].dims == ("time",) and r["phase"].attrs["units"] == "rad"
    assert float(r.attrs["fs"]) == 250.0 and r.attrs["device"] == "amp1"
    assert "units" not in r.attrs
    ref = wct_arrays(x.values, np.moveaxis(y.values, 0, -1), [4.0, 10.0, 30.0], fs=250.0,
                     mode="constant")
    assert np.array_equal(r["coherence"].values, ref.coherence)
    assert np.array_equal(r["cross"].values, ref.cross)
    assert np.array_equal(r["phase"].values, ref.phase)
    assert np.array_equal(r["coi"].values, ref.coi)
    # the accessor, and keep_attrs=False
    r2 = x.sftwave.wct(y, [10.0], keep_attrs=False)
    assert "device" not in r2.attrs and r2["coherence"].sizes["freq"] == 1


def test_wct_dask_backed_stays_lazy():
    pytest.importorskip("dask.array")
    x = _eeg().isel(epoch=0)
    y = x.roll(time=3, roll_coords=False)
    lazy = sx.wct(x.chunk({"time": 800, "channel": 1}), y, [6.0, 20.0])
    ref = sx.wct(x, y, [6.0, 20.0])
    assert type(lazy["coherence"].data).__module__.startswith("dask")
    assert np.allclose(lazy["coherence"].values, ref["coherence"].values, rtol=0, atol=1e-10)
    assert lazy.attrs == ref.attrs and lazy["coi"].equals(ref["coi"])


def test_wct_refusals():
    x = _eeg().isel(epoch=0)
    with pytest.raises(TypeError, match="y must be an xarray DataArray"):
        sx.wct(x, x.values, [10.0])
    with pytest.raises(ValueError, match="same coordinates"):
        sx.wct(x, x.assign_coords(time=x["time"] + 1.0), [10.0])
    with pytest.raises(ValueError, match="dim 'when' is not a dimension"):
        sx.wct(x, x, [10.0], dim="when")
    with pytest.raises(TypeError, match="axis="):
        sx.wct(x, x, [10.0], axis=0)
    with pytest.raises(ValueError, match="Nyquist"):
        sx.wct(x, x, [200.0])
