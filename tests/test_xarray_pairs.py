"""sftwave.xarray.wct_pairs: every pair of a DataArray's channels, named by their labels.

The wrapper computes nothing of its own: each pair must equal
:func:`sftwave.coherence.wct_pairs` on the same numpy data (the same calls on
the same array: the 1e-12 tolerance only leaves room for the transposition's
copy, which changes no value), and the ``seed``/``target`` coordinates must name
the channels whose :func:`sftwave.coherence.wct` that pair is.
"""

from __future__ import annotations

import numpy as np
import pytest

from sftwave.coherence import wct, wct_pairs

xr = pytest.importorskip("xarray")
import sftwave.xarray as sx  # noqa: E402

FS = 100.0
FREQS = [2.0, 5.0, 12.0]


def _eeg(n: int = 1500) -> xr.DataArray:
    """(time, channel, epoch), time first on purpose: the wrapper must move it."""
    rng = np.random.default_rng(4)
    data = rng.standard_normal((2, 4, n))
    data[:, 1] += 0.8 * data[:, 0]                       # Cz follows Fz
    t = np.arange(n) / FS
    x = xr.DataArray(data, dims=("epoch", "channel", "time"),
                     coords={"epoch": [10, 20], "channel": ["Fz", "Cz", "Pz", "Oz"],
                             "time": ("time", t, {"units": "s"}),
                             "site": ("channel", ["f", "c", "p", "o"]),
                             "sample": ("time", np.arange(n))},
                     attrs={"units": "uV", "device": "amp1"})
    return x.transpose("time", "channel", "epoch")


def test_each_pair_equals_the_array_function_and_names_its_channels():
    x = _eeg()
    out = sx.wct_pairs(x, FREQS)
    ref = wct_pairs(x.transpose("epoch", "channel", "time").values, FREQS, FS)
    assert out["coherence"].dims == ("epoch", "pair", "freq", "time")
    assert out["phase"].dims == ("epoch", "pair", "freq", "time")
    assert "cross" not in out and "significance" not in out
    np.testing.assert_allclose(out["coherence"].values, ref.coherence, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["phase"].values, ref.phase, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["coi"].values, ref.coi, rtol=0, atol=1e-12)
    # mne-connectivity's order: numpy.tril_indices(n_channels, -1), each seed after its target
    seeds, targets = np.tril_indices(4, -1)
    labels = np.array(["Fz", "Cz", "Pz", "Oz"])
    assert out["seed"].values.tolist() == labels[seeds].tolist()
    assert out["target"].values.tolist() == labels[targets].tolist()
    # each pair is wct of the channels its coordinates name (phase: the seed leads)
    for p in range(out.sizes["pair"]):
        seed, target = str(out["seed"][p].values), str(out["target"][p].values)
        for e in (10, 20):
            a = x.sel(channel=seed, epoch=e).values
            b = x.sel(channel=target, epoch=e).values
            one = wct(a, b, FREQS, FS)
            got = out.isel(pair=p).sel(epoch=e)
            np.testing.assert_allclose(got["coherence"].values, one.coherence, rtol=0, atol=1e-12)
            np.testing.assert_allclose(got["phase"].values, one.phase, rtol=0, atol=1e-12)


def test_coordinates_and_attributes():
    x = _eeg()
    out = sx.wct_pairs(x, FREQS)
    assert out["freq"].values.tolist() == FREQS and out["freq"].attrs["units"] == "Hz"
    assert out["coi"].dims == ("time",) and out["coi"].attrs["units"] == "s"
    assert np.array_equal(out["time"].values, x["time"].values)
    assert np.array_equal(out["sample"].values, x["sample"].values)      # along time: kept
    assert out["epoch"].values.tolist() == [10, 20]
    assert "site" not in out.coords and "channel" not in out.coords      # along channel: gone
    assert out.attrs["fs"] == FS and out.attrs["device"] == "amp1" and "units" not in out.attrs
    assert out["coherence"].attrs["units"] == "1" and out["phase"].attrs["units"] == "rad"
    assert sx.wct_pairs(x, FREQS, keep_attrs=False).attrs.get("device") is None
    # an explicit fs gives the same numbers; Hz on 'freq'
    same = sx.wct_pairs(x.drop_vars("time"), FREQS, FS)
    np.testing.assert_array_equal(same["coherence"].values, out["coherence"].values)


def test_indices_cross_and_significance():
    x = _eeg(600)
    numpy_x = x.transpose("epoch", "channel", "time").values
    kw = dict(indices=([0, 3], [1, 2]), return_cross=True, significance=True, mc_count=20)
    out = sx.wct_pairs(x, FREQS, **kw)
    ref = wct_pairs(numpy_x, FREQS, FS, **kw)
    assert out["seed"].values.tolist() == ["Fz", "Oz"]
    assert out["target"].values.tolist() == ["Cz", "Pz"]
    assert out["cross"].dims == ("epoch", "pair", "freq", "time")
    assert out["significance"].dims == ("epoch", "pair", "freq")
    np.testing.assert_allclose(out["cross"].values, ref.cross, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["significance"].values, ref.significance, rtol=0, atol=1e-12)


def test_channels_without_a_coordinate_are_named_by_position_and_accessor():
    data = np.random.default_rng(1).standard_normal((3, 800))
    x = xr.DataArray(data, dims=("sensor", "time"))                     # no 'channel': the other
    out = x.sftwave.wct_pairs([0.05, 0.1])
    ref = wct_pairs(data, [0.05, 0.1])
    assert out["seed"].values.tolist() == [1, 2, 2]
    assert out["target"].values.tolist() == [0, 0, 1]
    assert out["freq"].attrs["units"] == "cycles per sample"
    np.testing.assert_allclose(out["coherence"].values, ref.coherence, rtol=0, atol=1e-12)
    # time not last and the channel named explicitly
    again = sx.wct_pairs(x.T, [0.05, 0.1], channel_dim="sensor", dim="time")
    np.testing.assert_allclose(again["coherence"].values, ref.coherence, rtol=0, atol=1e-12)


def test_dask_backed_stays_lazy_and_equals_in_memory():
    pytest.importorskip("dask.array")
    x = _eeg(600)
    lazy = sx.wct_pairs(x.chunk({"channel": 1}), FREQS, return_cross=True)
    assert type(lazy["coherence"].data).__module__.startswith("dask")
    eager = sx.wct_pairs(x, FREQS, return_cross=True)
    assert lazy["seed"].values.tolist() == eager["seed"].values.tolist()
    for name in ("coherence", "phase", "cross"):
        np.testing.assert_allclose(lazy[name].values, eager[name].values, rtol=0, atol=1e-12)


def test_bad_input_names_the_parameter():
    x = _eeg(300)
    with pytest.raises(ValueError, match="channel_dim must be given"):
        sx.wct_pairs(x.isel(channel=0, epoch=0), FREQS)                   # no channel dimension
    with pytest.raises(ValueError, match="channel_dim must be given"):
        sx.wct_pairs(x.rename(channel="sensor"), FREQS)                   # two candidates
    with pytest.raises(ValueError, match="channel_dim 'channel' has 1 channel"):
        sx.wct_pairs(x.isel(channel=[0]), FREQS)
    with pytest.raises(ValueError, match="channel_dim 'chan' is not a dimension"):
        sx.wct_pairs(x, FREQS, channel_dim="chan")
    with pytest.raises(ValueError, match="dim 'samples' is not a dimension"):
        sx.wct_pairs(x, FREQS, dim="samples")
    with pytest.raises(ValueError, match="channel_dim 'time' must differ from dim='time'"):
        sx.wct_pairs(x, FREQS, channel_dim="time")
    with pytest.raises(ValueError, match="'pair'"):
        sx.wct_pairs(x.rename(epoch="pair"), FREQS)
    with pytest.raises(ValueError, match="'freq'"):
        sx.wct_pairs(x.rename(epoch="freq"), FREQS)
    with pytest.raises(TypeError, match="x must be an xarray DataArray"):
        sx.wct_pairs(x.values, FREQS)
    with pytest.raises(TypeError, match="axis="):
        sx.wct_pairs(x, FREQS, axis=0)


def test_indices_by_label_equal_indices_by_position():
    x = _eeg(600)
    by_label = sx.wct_pairs(x, FREQS, indices=(["Fz", "Oz", "Cz"], ["Pz", "Cz", "Cz"]))
    by_position = sx.wct_pairs(x, FREQS, indices=([0, 3, 1], [2, 1, 1]))
    assert by_label["seed"].values.tolist() == ["Fz", "Oz", "Cz"]
    assert by_label["target"].values.tolist() == ["Pz", "Cz", "Cz"]
    for name in ("coherence", "phase"):
        np.testing.assert_array_equal(by_label[name].values, by_position[name].values)
    mixed = sx.wct_pairs(x, FREQS, indices=(np.array(["Oz"]), [1]))   # labels, positions
    np.testing.assert_array_equal(mixed["coherence"].values, by_position["coherence"][:, 1:2])


def test_indices_by_label_refuse_unknown_and_ambiguous_labels():
    x = _eeg(300)
    with pytest.raises(ValueError, match=r"indices: 'T7' is not a label of the 'channel' coord"):
        sx.wct_pairs(x, FREQS, indices=(["Fz", "T7"], ["Cz", "Pz"]))
    with pytest.raises(ValueError, match=r"indices: 'Fz' names 2 channels"):
        sx.wct_pairs(x.assign_coords(channel=["Fz", "Fz", "Pz", "Oz"]), FREQS,
                     indices=(["Fz"], ["Pz"]))
    bare = xr.DataArray(np.zeros((3, 200)), dims=("sensor", "time"))
    with pytest.raises(ValueError, match=r"indices: 'a' is not a label .* has no coordinate"):
        sx.wct_pairs(bare, FREQS, fs=FS, indices=(["a"], [0]))
