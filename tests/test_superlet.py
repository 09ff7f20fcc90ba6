"""sftwave.superlet against its definition (tests/naive.py) and against Syncopy's superlet.

Tolerances.  Each wavelet is sftwave's Morlet transform, whose kernel meets
``tol`` as a relative RMSE; a superlet row is a geometric mean of moduli, so
its relative error is about the mean of its wavelets' relative errors in that
row.  Rows far from every component of the signal hold little power and carry
the kernels' absolute error relative to it: the comparisons run at
``tol=1e-6`` (1e-8 for the one small-power case), where every row of these
signals is within 1e-4 of the definition; the default ``tol`` is checked on
the rows that hold the signal.

Syncopy's own superlet is loaded from the file ``syncopy/specest/superlet.py``
of an installed esi-syncopy (it imports only numpy and scipy; esi-syncopy
itself installs only on Python < 3.12 and pulls in bokeh, h5py and dask's job
queue, so it is no test dependency: ``pip install --no-deps esi-syncopy``).
Its wavelets are sampled on a grid offset by up to half a sample from their
centre (``_get_superlet_support``) and truncated at 4 sigma:
:func:`test_equals_syncopy` says where that stays below 2e-3.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math

import numpy as np
import pytest
from naive import naive_superlet

import sftwave
from sftwave.superlets import superlet, superlet_cycles

FS = 1000.0


def _burst_signal(n=3000, seed=0, noise=0.01):
    """Two Gaussian-windowed bursts, a weak steady rhythm and a little noise (the EEG
    picture of Moca et al.'s Fig. 1), at 1 kHz."""
    t = np.arange(n) / FS
    rng = np.random.default_rng(seed)
    return (np.cos(2 * np.pi * 30 * t) * np.exp(-(((t - 1.2) / 0.25) ** 2))
            + 0.7 * np.cos(2 * np.pi * 55 * t) * np.exp(-(((t - 2.2) / 0.2) ** 2))
            + 0.3 * np.cos(2 * np.pi * 12 * t + 0.4)
            + noise * rng.standard_normal(n))


def _row_errors(a, b):
    """Relative RMS difference of each row (last axis)."""
    return np.linalg.norm(a - b, axis=-1) / np.linalg.norm(b, axis=-1)


FREQS = np.linspace(8.0, 80.0, 13)


@pytest.mark.parametrize("adaptive", [False, True])
@pytest.mark.parametrize("multiplicative", [True, False])
def test_equals_the_definition(adaptive, multiplicative):
    x = _burst_signal(2000)
    kw = dict(order_max=4, order_min=1, c_1=3.0, adaptive=adaptive, multiplicative=multiplicative)
    ref = naive_superlet(x, FREQS, FS, mode="constant", **kw)
    got = superlet(x, FREQS, FS, mode="constant", output="magnitude", tol=1e-6, **kw)
    assert got.shape == ref.shape and got.dtype == np.float64
    assert _row_errors(got, ref).max() <= 1e-4


def test_fractional_orders_and_order_min():
    """Orders 2 .. 7 over 11 frequencies: fractions at most rows, the first wavelet order 2."""
    x = _burst_signal(2000, seed=1)
    f = np.linspace(10.0, 70.0, 11)
    kw = dict(order_max=7, order_min=2, c_1=2.0, adaptive=True)
    ref = naive_superlet(x, f, FS, mode="reflect", **kw)
    got = superlet(x, f, FS, output="magnitude", tol=1e-6, **kw)
    assert _row_errors(got, ref).max() <= 1e-4


def test_few_cycles_keep_the_wavelets_mean():
    """c_1 = 1: wavelets of 1 and 2 cycles, far from zero mean (kappa 0.45 at one cycle);
    a random walk, whose low frequencies the non-zero mean lets in."""
    x = np.random.default_rng(2).standard_normal(1500).cumsum()
    f = np.array([20.0, 50.0, 120.0])
    ref = naive_superlet(x, f, FS, order_max=2, c_1=1.0, mode="nearest")
    got = superlet(x, f, FS, order_max=2, c_1=1.0, mode="nearest", output="magnitude", tol=1e-8)
    assert _row_errors(got, ref).max() <= 1e-4


def test_default_tol_on_the_rows_of_the_signal():
    x = _burst_signal(2000)
    f = np.array([12.0, 30.0, 55.0])
    ref = naive_superlet(x, f, FS, order_max=5, adaptive=False, mode="constant")
    got = superlet(x, f, FS, order_max=5, mode="constant", output="magnitude")
    assert _row_errors(got, ref).max() <= 1e-3


def test_power_is_the_square_and_a_sinusoid_keeps_its_amplitude():
    t = np.arange(4000) / FS
    x = 2.5 * np.cos(2 * np.pi * 40 * t)
    mag = superlet(x, [40.0], FS, order_max=6, output="magnitude")
    power = superlet(x, [40.0], FS, order_max=6)
    assert np.array_equal(power, power) and np.allclose(power, mag ** 2, rtol=1e-12, atol=0)
    # away from the ends the modulus of every wavelet, and their mean, is the amplitude
    assert np.allclose(mag[0, 1500:2500], 2.5, rtol=1e-3)


def test_cycles_of_the_set():
    assert superlet_cycles(3, 5).tolist() == [3.0, 6.0, 9.0, 12.0, 15.0]
    assert superlet_cycles(3, 5, 2).tolist() == [6.0, 9.0, 12.0, 15.0]
    assert superlet_cycles(4, 3, multiplicative=False).tolist() == [4.0, 5.0, 6.0]


# ----------------------------------------------------------------------------- Syncopy


def _syncopy_superlet_module():
    """Syncopy's ``syncopy/specest/superlet.py``, loaded alone (not ``import syncopy``)."""
    try:
        dist = importlib.metadata.distribution("esi-syncopy")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("esi-syncopy is not installed (pip install --no-deps esi-syncopy, "
                    "Python < 3.12): Syncopy's superlet file is the anchor")
    path = dist.locate_file("syncopy/specest/superlet.py")
    spec = importlib.util.spec_from_file_location("_syncopy_superlet", str(path))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _eeg_like(n=6000, seed=0):
    """Bursts at 6 and 10 Hz on pink noise, at 1 kHz: power in every row."""
    t = np.arange(n) / FS
    rng = np.random.default_rng(seed)
    spectrum = np.fft.rfft(rng.standard_normal(n)) / np.sqrt(np.maximum(np.arange(n // 2 + 1), 1))
    pink = np.fft.irfft(spectrum, n)
    return (np.cos(2 * np.pi * 6 * t) * np.exp(-(((t - 2.0) / 0.6) ** 2))
            + 0.7 * np.cos(2 * np.pi * 10 * t) * np.exp(-(((t - 4.0) / 0.5) ** 2))
            + 0.3 * pink / pink.std())


@pytest.mark.parametrize("adaptive", [False, True])
def test_equals_syncopy(adaptive):
    """Syncopy's complex values are sftwave's times sqrt(fs) / (8 pi); zero padding both.

    Syncopy samples each wavelet at ``t = ((1 - M) / 2 + k) dt`` (``M`` its
    support, rarely an odd integer): its rows are the transform up to half a
    sample early or late, and it truncates the wavelets at 4 sigma (leakage of
    about 1e-4 of the strongest row into the weak ones).  Both effects stay
    below 2e-3 of a row where the rows hold power (pink noise) and the
    frequencies are at most fs / 80 (12 Hz at 1 kHz: the wavelets' envelopes
    some tens of samples wide at least); at fs / 13 the half sample reaches
    about 2 % of the weakest rows.
    """
    sl = _syncopy_superlet_module()
    x = _eeg_like()
    f = np.linspace(3.0, 12.0, 19)              # adaptive: consecutive integer orders
    scales = 1.0 / (2.0 * np.pi * f)            # Syncopy's scale of a frequency
    ref = np.abs(sl.superlet(x[:, None], FS, scales, order_max=5, order_min=1, c_1=3,
                             adaptive=adaptive))[:, :, 0].astype(np.float64)
    ref /= math.sqrt(FS) / (8.0 * math.pi)
    got = superlet(x, f, FS, order_max=5, adaptive=adaptive, mode="constant",
                   output="magnitude", tol=1e-6)
    assert _row_errors(got, ref).max() <= 2e-3
    power = superlet(x, f, FS, order_max=5, adaptive=adaptive, mode="constant", tol=1e-6)
    assert _row_errors(power, ref ** 2).max() <= 4e-3


def test_syncopy_skips_orders_where_frequencies_jump_them():
    """Orders 1, 2.5 and 4 over three frequencies: Syncopy's set holds the integer orders
    present (1, 2, 4), so its 2.5 takes wavelet 4 to the power 0.5 and its 4 lacks wavelet 3;
    sftwave follows the paper (wavelet 3 to the power 0.5, then 1 to 4 whole), which
    ``test_fractional_orders_and_order_min`` checks against the definition.  The first row,
    order 1 in both, agrees."""
    sl = _syncopy_superlet_module()
    x = _eeg_like()
    f = np.array([3.0, 7.5, 12.0])
    ref = np.abs(sl.superlet(x[:, None], FS, 1.0 / (2.0 * np.pi * f), order_max=4,
                             adaptive=True))[:, :, 0].astype(np.float64)
    ref /= math.sqrt(FS) / (8.0 * math.pi)
    got = superlet(x, f, FS, order_max=4, adaptive=True, mode="constant", output="magnitude",
                   tol=1e-6)
    errors = _row_errors(got, ref)
    assert errors[0] <= 2e-3 and np.all(errors[1:] > 0.05)
    assert _row_errors(got, naive_superlet(x, f, FS, 4, adaptive=True, mode="constant")).max() <= 1e-4


# ----------------------------------------------------------------------------- layouts


def test_axis_and_leading_axes():
    x = np.stack([_burst_signal(1200, seed=s) for s in range(3)])        # (3, n)
    f = np.array([15.0, 30.0, 60.0])
    ref = superlet(x, f, FS, order_max=3)
    assert ref.shape == (3, 3, 1200)
    moved = superlet(np.ascontiguousarray(x.T), f, FS, order_max=3, axis=0)
    assert np.allclose(moved, ref, rtol=1e-12, atol=0)
    one = superlet(x[1], f, FS, order_max=3)
    assert np.allclose(one, ref[1], rtol=1e-12, atol=0)
    strided = superlet(x[:, ::2], f, FS / 2, order_max=3)
    assert np.allclose(strided, superlet(np.ascontiguousarray(x[:, ::2]), f, FS / 2, order_max=3),
                       rtol=1e-12, atol=0)


def test_decim_keeps_every_decim_th_sample():
    x = _burst_signal(1000)
    f = np.array([20.0, 40.0])
    full = superlet(x, f, FS, order_max=4, adaptive=True)
    assert np.allclose(superlet(x, f, FS, order_max=4, adaptive=True, decim=3), full[:, ::3],
                       rtol=1e-12, atol=0)


def test_float32_and_integer_input():
    x = _burst_signal(1500)
    f = np.array([12.0, 30.0, 55.0])
    ref = superlet(x, f, FS, order_max=4)
    single = superlet(x.astype(np.float32), f, FS, order_max=4)
    assert single.dtype == np.float32
    assert _row_errors(single.astype(np.float64), ref).max() <= 1e-3
    xi = np.round(1000 * x).astype(np.int16)
    got = superlet(xi, f, FS, order_max=4)
    assert got.dtype == np.float64
    assert np.allclose(got, superlet(xi.astype(np.float64), f, FS, order_max=4), rtol=1e-12, atol=0)


def test_complex_input_is_the_transform_of_the_complex_signal():
    """An analytic signal's superlet equals the definition's on it (each wavelet linear)."""
    from scipy.signal import hilbert

    x = hilbert(_burst_signal(1500))
    f = np.array([12.0, 30.0, 55.0])
    got = superlet(x, f, FS, order_max=3, mode="constant", output="magnitude", tol=1e-6)
    assert _row_errors(got, naive_superlet(x, f, FS, 3, mode="constant")).max() <= 1e-4
    # the analytic signal holds the positive frequencies twice: twice the real signal's modulus
    real = superlet(x.real, f, FS, order_max=3, mode="constant", output="magnitude", tol=1e-6)
    mid = slice(300, 1200)
    assert np.allclose(got[:, mid], 2 * real[:, mid], rtol=0.05)


def test_nan_propagates_to_the_reach_of_the_widest_wavelet():
    x = _burst_signal(3000)
    x[1500] = np.nan
    f = np.array([20.0, 60.0])
    y = superlet(x, f, FS, order_max=3)
    assert np.isnan(y[:, 1500]).all()
    # far from the sample, beyond every wavelet's window, the values are those of clean data
    # (to the float32 recursions' rounding, which differs with the segments they run on)
    clean = _burst_signal(3000)
    ref = superlet(clean, f, FS, order_max=3)
    top = ref.max(axis=1, keepdims=True)
    assert np.all(np.abs(y[:, :200] - ref[:, :200]) <= 1e-4 * top)
    assert np.all(np.abs(y[:, -200:] - ref[:, -200:]) <= 1e-4 * top)
    assert np.isfinite(y[:, :200]).all() and np.isfinite(y[:, -200:]).all()


def test_nan_omit_computes_around_a_short_gap():
    x = _burst_signal(3000)
    x[1500:1503] = np.nan
    y = superlet(x, [30.0, 60.0], FS, order_max=3, nan_policy="omit")
    assert np.isfinite(y).all()


def test_zero_signal_gives_zero():
    y = superlet(np.zeros(500), [20.0, 50.0], FS, order_max=3)
    assert np.array_equal(y, np.zeros((2, 500)))


# ----------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(order_max=0), ValueError, r"order_max must be a positive integer; got 0"),
    (dict(order_max=2.5), TypeError, r"order_max must be a positive integer; got 2.5"),
    (dict(order_max=3, order_min=4), ValueError, r"order_min must not exceed order_max \(3\); got 4"),
    (dict(order_max=3, order_min=True), TypeError, r"order_min must be a positive integer"),
    (dict(order_max=3, c_1=-1.0), ValueError, r"c_1 must be a positive finite number; got -1.0"),
    (dict(order_max=3, c_1="3"), TypeError, r"c_1 must be a real number; got '3'"),
    (dict(order_max=300, c_1=3.0), ValueError, r"c_1 and order_max must keep every wavelet's cycles"),
    (dict(order_max=3, adaptive=1), TypeError, r"adaptive must be True or False; got 1"),
    (dict(order_max=3, multiplicative="add"), TypeError, r"multiplicative must be True or False"),
    (dict(order_max=3, output="complex"), ValueError, r"output must be one of 'power', 'magnitude'; got 'complex'"),
    (dict(order_max=3, axis=2), ValueError, r"axis 2 is out of range"),
    (dict(order_max=3, mode="edge"), ValueError, r"mode must be one of"),
    (dict(order_max=3, decim=0), ValueError, r"decim must be a positive integer; got 0"),
    (dict(order_max=3, nan_policy="raise"), ValueError, r"nan_policy must be one of"),
    (dict(order_max=3, engine="xp"), ValueError, r"engine must be None, 'auto' or 'numba'"),
    (dict(order_max=3, tol=2.0), ValueError, r"tol must be None or in"),
])
def test_bad_arguments_name_themselves(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        superlet(np.ones(500), [10.0, 20.0], FS, **kwargs)


def test_bad_frequencies_and_signal():
    with pytest.raises(ValueError, match=r"freqs must not exceed the Nyquist"):
        superlet(np.ones(500), [600.0], FS, order_max=2)
    with pytest.raises(ValueError, match=r"adaptive=True needs at least two distinct frequencies"):
        superlet(np.ones(500), [20.0, 20.0], FS, order_max=2, adaptive=True)
    with pytest.raises(TypeError, match=r"x must have a numeric dtype"):
        superlet(np.array(["a", "b"]), [0.1], order_max=2)
    with pytest.raises(ValueError, match=r"x must have at least one axis"):
        superlet(1.0, [0.1], order_max=2)
    with pytest.raises(TypeError, match=r"order_max"):
        superlet(np.ones(500), [10.0], FS)                 # order_max is required


def test_exported_at_the_top():
    assert sftwave.superlet is superlet


# ----------------------------------------------------------------------------- MNE's layout


def test_tfr_array_superlet_is_the_superlet_of_each_epoch():
    pytest.importorskip("mne")
    from sftwave.mne import tfr_array_superlet

    data = np.stack([np.stack([_burst_signal(800, seed=3 * e + c) for c in range(2)])
                     for e in range(3)])                                  # (3, 2, 800)
    f = np.array([15.0, 30.0, 60.0])
    ref = superlet(data, f, FS, order_max=3, adaptive=True, mode="constant", decim=2)
    got = tfr_array_superlet(data, FS, f, 3, adaptive=True, decim=2)
    assert got.shape == (3, 2, 3, 400) and np.array_equal(got, ref)
    avg = tfr_array_superlet(data, FS, f, 3, adaptive=True, decim=2, output="avg_power", n_jobs=1)
    assert np.allclose(avg, ref.mean(axis=0), rtol=1e-12, atol=0)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(data=np.zeros((2, 100))), ValueError, r"data must be of shape \(n_epochs, n_chans, n_times\)"),
    (dict(output="itc"), ValueError, r"output must be one of 'power', 'avg_power'; got 'itc'"),
    (dict(n_jobs=1.5), TypeError, r"n_jobs must be None or an integer; got 1.5"),
    (dict(decim=0), ValueError, r"decim must be a positive integer"),
])
def test_tfr_array_superlet_bad_arguments(kwargs, exc, match):
    pytest.importorskip("mne")
    from sftwave.mne import tfr_array_superlet

    args = dict(data=np.zeros((1, 1, 300)), sfreq=FS, freqs=[20.0], order_max=2)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        tfr_array_superlet(**args)


# ----------------------------------------------------------------------------- dask


@pytest.mark.parametrize("mode, decim, tol, bound", [
    ("reflect", 1, 1e-6, 1e-5),
    ("constant", 3, 1e-6, 1e-5),
    ("reflect", 2, None, 1e-2),        # default tol: the weakest row (1e-5 of the peak) moves
    ("wrap", 1, 1e-6, 1e-12),          # one chunk: the in-memory call itself
])
def test_dask_blocks_agree_with_the_whole(mode, decim, tol, bound):
    da = pytest.importorskip("dask.array")
    from sftwave.dask import superlet as lazy_superlet

    x = np.stack([_burst_signal(6000, seed=s) for s in range(2)]).T        # time first
    f = np.linspace(10.0, 70.0, 9)
    kw = dict(order_max=5, adaptive=True, mode=mode, decim=decim, tol=tol, axis=0)
    p = lazy_superlet(da.from_array(x, chunks=(1500, 1)), f, FS, **kw)
    ref = superlet(x, f, FS, **kw)
    assert p.shape == ref.shape and p.dtype == ref.dtype
    got = p.compute()
    assert _row_errors(got, ref).max() <= bound


# ----------------------------------------------------------------------------- xarray


def test_xarray_superlet_is_the_superlet_along_the_named_dimension():
    xr = pytest.importorskip("xarray")
    import sftwave.xarray as sx

    x = np.stack([_burst_signal(1200, seed=s) for s in range(2)])           # (sensor, time)
    time = xr.Variable("time", np.arange(1200) / FS, attrs={"units": "s"})
    arr = xr.DataArray(x.T, dims=("time", "sensor"), coords={"time": time}, attrs={"units": "uV"})
    f = np.array([15.0, 30.0, 60.0])
    p = sx.superlet(arr, f, order_max=3, adaptive=True, decim=2, output="magnitude")
    ref = superlet(x, f, FS, order_max=3, adaptive=True, decim=2, output="magnitude")
    assert p.dims == ("sensor", "freq", "time") and np.array_equal(p.values, ref)
    assert p.attrs["units"] == "uV" and p.attrs["fs"] == FS and p.attrs["order_max"] == 3
    assert np.array_equal(p["time"].values, arr["time"].values[::2])
    power = sx.superlet(arr.to_dataset(name="eeg"), f, order_max=3)["eeg"]
    assert power.attrs["units"] == "uV^2"
    with pytest.raises(TypeError, match="axis"):
        sx.superlet(arr, f, order_max=3, axis=0)
    with pytest.raises(ValueError, match="order_max must be a positive integer"):
        sx.superlet(arr, f, order_max=0)
