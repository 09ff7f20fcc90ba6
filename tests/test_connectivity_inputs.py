"""sftwave.connectivity takes what MNE-Connectivity 0.9 takes in Morlet mode, and its routes.

Every test runs MNE-Connectivity on the same call and compares: the result
objects' attributes exactly, the scores within the documented bounds (1e-3
absolute; the sign-counting measures 'pli', 'pli2_unbiased', 'dpli' may differ
by ``1 / n`` to ``2 / n`` where ``Im S`` is within the transform's error of 0,
so they are compared by the share of samples that differ).  Coefficients given
in an ``EpochsTFR`` are used as they are: the scores agree to rounding.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from sftwave.connectivity import (
    EPOCH_METHODS,
    METHODS,
    spectral_connectivity_epochs,
    spectral_connectivity_time,
)
from sftwave.datasets import eeg_epochs

mne = pytest.importorskip("mne")
mnec = pytest.importorskip("mne_connectivity")
routes = pytest.importorskip("sftwave.patch.routes.mne_connectivity")

SFREQ = 250.0
FREQS = np.array([8.0, 12.0, 20.0, 35.0])
SIGNS = ("pli", "pli2_unbiased", "dpli")
ATTRS = ("names", "n_nodes", "indices", "method", "spec_method", "n_epochs_used", "event_id",
         "freqs_used", "times_used")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.fixture(scope="module")
def data():
    """EEG-like epochs (sftwave.datasets.eeg_epochs), small."""
    return eeg_epochs(5, 4, 600, sfreq=SFREQ).data


@pytest.fixture(scope="module", autouse=True)
def _quiet_mne():
    """MNE's messages off for this module's tests, its log level restored after (it is global:
    left at ERROR, it silenced the warnings that later tests of the same process expect)."""
    old = mne.set_log_level("ERROR", return_old_level=True)
    yield
    mne.set_log_level(old)


@pytest.fixture(scope="module")
def epochs(data):
    """MNE Epochs of ``data`` with a bad channel, a 0.2 s baseline, events and annotations."""
    info = mne.create_info(["Fz", "Cz", "Pz", "Oz"], SFREQ, "eeg")
    raw = mne.io.RawArray(np.concatenate(list(data), axis=1), info)
    raw.set_annotations(mne.Annotations([0.5, 3.0], [0.2, 0.1], ["blink", "move"]))
    events = np.c_[np.arange(5) * 600 + 50, np.zeros(5, int), np.r_[1, 2, 1, 2, 1]]
    ep = mne.Epochs(raw, events, {"a": 1, "b": 2}, tmin=-0.2, tmax=1.8, baseline=None,
                    preload=True, reject_by_annotation=False)
    ep.info["bads"] = ["Pz"]
    return ep


def _same_object(a, b, atol=1e-3):
    """``b`` (sftwave's) is ``a`` (MNE-Connectivity's): class, attributes, shape; scores within
    ``atol`` (the sign-counting measures: at most 0.1 % of the values beyond it)."""
    assert type(a) is type(b)
    for k in ATTRS:
        np.testing.assert_equal(b.attrs.get(k), a.attrs.get(k), err_msg=k)
    np.testing.assert_allclose(b.freqs, a.freqs)
    if hasattr(a, "times"):
        np.testing.assert_allclose(b.times, a.times)
    np.testing.assert_array_equal(b.events, a.events)
    assert (a.metadata is None) == (b.metadata is None)
    if a.metadata is not None:
        assert a.metadata.equals(b.metadata)
    A, B = a.get_data(), b.get_data()
    assert A.shape == B.shape and A.dtype == B.dtype
    d = np.abs(A - B)
    if a.method in SIGNS:
        assert np.mean(d > atol) < 1e-3, a.method
    else:
        assert np.max(d) <= atol, (a.method, np.max(d))


# ----------------------------------------------------------------------------- Epochs


def test_epochs_input_leaves_the_bad_channels_out_and_keeps_mne_objects_facts(epochs):
    assert epochs.metadata is None
    for fn, mine, kw in [
        (mnec.spectral_connectivity_time, spectral_connectivity_time,
         dict(freqs=FREQS, method=list(METHODS), sm_times=0.2)),
        (mnec.spectral_connectivity_epochs, spectral_connectivity_epochs,
         dict(method=list(EPOCH_METHODS), mode="cwt_morlet", cwt_freqs=FREQS, tmin=0.0)),
    ]:
        got = mine(epochs, **kw)
        assert epochs.metadata is None                     # the user's Epochs are not written
        want = _quiet(fn, epochs.copy(), **kw)             # (MNE-Connectivity writes them)
        for a, b in zip(want, got):
            _same_object(a, b)
            d = b.get_data()
            full = np.moveaxis(d, 1 if isinstance(b, mnec.EpochSpectralConnectivity) else 0, 0)
            full = full.reshape((4, 4) + full.shape[1:])
            assert not np.any(full[2]) and not np.any(full[:, 2]), b.method   # (Pz is bad)
        assert got[0].names == ["Fz", "Cz", "Pz", "Oz"]


def test_time_with_bads_matches_what_the_array_of_good_channels_gives(epochs):
    """The bad channel's connections are 0, the others those of the good channels alone."""
    con = spectral_connectivity_time(epochs, FREQS, method="plv", output="array")
    good = spectral_connectivity_time(epochs.get_data(picks=[0, 1, 3]), FREQS, method="plv",
                                      sfreq=SFREQ, output="array")
    full = con.reshape(5, 4, 4, -1)
    np.testing.assert_array_equal(full[:, 2], 0.0)
    np.testing.assert_array_equal(full[:, :, 2], 0.0)
    np.testing.assert_allclose(full[:, [0, 1, 3]][:, :, [0, 1, 3]],
                               good.reshape(5, 3, 3, -1), rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------- EpochsTFR


@pytest.fixture(scope="module")
def tfr(epochs):
    return epochs.compute_tfr("morlet", freqs=FREQS, n_cycles=5.0, output="complex",
                              return_itc=False, average=False)


def test_epochs_tfr_coefficients_are_used_as_they_are(tfr):
    for fn, mine, kw in [(mnec.spectral_connectivity_epochs, spectral_connectivity_epochs,
                          dict(method=list(EPOCH_METHODS), fmin=10.0)),
                         (mnec.spectral_connectivity_time, spectral_connectivity_time,
                          dict(method=list(METHODS), sm_times=0.1, padding=0.1))]:
        want = _quiet(fn, tfr.copy(), **kw)
        got = mine(tfr, **kw)
        for a, b in zip(want, got):
            _same_object(a, b, atol=1e-12)          # the same sums of the same coefficients


def test_real_or_multitaper_coefficients_are_refused(epochs, tfr):
    power = epochs.compute_tfr("morlet", freqs=FREQS, n_cycles=5.0, return_itc=False,
                               average=False)
    for fn in (spectral_connectivity_epochs, spectral_connectivity_time):
        with pytest.raises(TypeError, match="complex-valued"):
            fn(power)
    mt = epochs.compute_tfr("multitaper", freqs=FREQS, n_cycles=5.0, output="complex",
                            return_itc=False, average=False)
    with pytest.raises(ValueError, match="mode='cwt_morlet'"):
        spectral_connectivity_epochs(mt)
    assert not routes.accepts_epochs(mt) and routes.accepts_epochs(tfr)
    assert not routes.accepts_time(power) and routes.accepts_time(tfr)


# ----------------------------------------------------------------------------- lists, generators


def test_lists_generators_and_source_estimates(data):
    kw = dict(method=["coh", "wpli"], mode="cwt_morlet", cwt_freqs=FREQS, sfreq=SFREQ)
    stcs = [mne.SourceEstimate(e, [np.arange(2), np.arange(2)], tmin=-0.1, tstep=1 / SFREQ)
            for e in data]
    def cases():
        return [list(data), (e for e in data), stcs, iter(stcs),
                [(np.roll(e[:1], 17, axis=-1), s) for e, s in zip(data, stcs)]]

    for case, again in zip(cases(), cases()):
        want = _quiet(mnec.spectral_connectivity_epochs, again, tmin=0.0, **kw)
        got = spectral_connectivity_epochs(case, tmin=0.0, **kw)
        for a, b in zip(want, got):
            _same_object(a, b)
    with pytest.raises(ValueError, match="same number of time points"):
        spectral_connectivity_epochs([data[0], data[1][:, :500]], **kw)
    with pytest.raises(ValueError, match="number of time series"):
        spectral_connectivity_epochs([data[0], data[1][:3]], **kw)


# ----------------------------------------------------------------------------- one pair, any others


def test_a_pairs_scores_do_not_depend_on_the_other_pairs_requested(monkeypatch):
    """A pair's scores are the same whatever else is asked for: every pair (``indices=None``),
    a few pairs in another order, the pair alone, or the pair's two channels alone.

    The channels used set the data's scaling (by a power of two) and, the blocks of
    coefficients being sized in bytes, how many epochs and frequencies are transformed at
    once; the channels' scales differ here by powers of two, and the blocks are shrunk so
    that both change with the channels asked for.  The transform of a channel at a
    frequency is computed alone and the sums run in epoch order, so the scores agree to
    rounding (held to 1e-12 relative; they are the same bits today)."""
    import sftwave.connectivity._common as common
    import sftwave.connectivity._epochs as epochs_module

    monkeypatch.setattr(common, "BLOCK_BYTES", 3 * 4 * 300 * 16)
    monkeypatch.setattr(epochs_module, "_EPOCH_BLOCK_BYTES", 4 * 2 * 300 * 16)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 5, 300)) * np.array([300.0, 1.0, 0.02, 5.0, 1e-4])[:, None]
    x[:, 1] += 1e-2 * x[:, 0]
    x[:, 2] += 1e-2 * x[:, 1]                            # some coherence to see
    freqs, n = np.array([10.0, 17.0, 30.0]), x.shape[1]
    pair = (3, 1)
    asks = [(np.array([4, 3, 2]), np.array([0, 1, 1])), (np.array([3]), np.array([1]))]
    common_kw = dict(sfreq=100.0, mode="cwt_morlet", output="array")
    for method in EPOCH_METHODS:
        kw = dict(method=method, cwt_freqs=freqs, cwt_n_cycles=4.0, **common_kw)
        full = spectral_connectivity_epochs(x, **kw).reshape(n, n, freqs.size, -1)[pair]
        got = [spectral_connectivity_epochs(x, indices=ind, **kw)[list(ind[0]).index(pair[0])]
               for ind in asks]
        got.append(spectral_connectivity_epochs(x[:, [pair[1], pair[0]]],
                                                indices=([1], [0]), **kw)[0])
        for g in got:
            np.testing.assert_allclose(g, full, rtol=1e-12, atol=1e-12 * np.abs(full).max(),
                                       err_msg=method)
    for method in METHODS:
        kw = dict(method=method, freqs=freqs, n_cycles=4.0, **common_kw)
        full = spectral_connectivity_time(x, **kw).reshape(x.shape[0], n, n, -1)[:, pair[0],
                                                                                pair[1]]
        got = [spectral_connectivity_time(x, indices=ind, **kw)[:, list(ind[0]).index(pair[0])]
               for ind in asks]
        got.append(spectral_connectivity_time(x[:, [pair[1], pair[0]]],
                                              indices=([1], [0]), **kw)[:, 0])
        for g in got:
            np.testing.assert_allclose(g, full, rtol=1e-12, atol=1e-12 * np.abs(full).max(),
                                       err_msg=method)


# ----------------------------------------------------------------------------- keywords, modes


def test_every_keyword_of_mne_connectivity_is_taken(data):
    """The options of the other modes and of the multivariate measures change nothing."""
    base_e = spectral_connectivity_epochs(data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS,
                                          output="array")
    more_e = spectral_connectivity_epochs(
        data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS, output="array", mt_bandwidth=4.0,
        mt_adaptive=True, mt_low_bias=False, gc_n_lags=10, rank=None, n_components=2,
        block_size=7, n_jobs=1, verbose=False)
    np.testing.assert_array_equal(base_e, more_e)
    base_t = spectral_connectivity_time(data, FREQS, sfreq=SFREQ, output="array")
    more_t = spectral_connectivity_time(data, FREQS, sfreq=SFREQ, output="array",
                                        mt_bandwidth=4.0, gc_n_lags=10, rank=None,
                                        n_components=2, verbose=False)
    np.testing.assert_array_equal(base_t, more_t)


def test_modes_other_than_morlet_are_refused_naming_cwt_morlet(data):
    for kw in ({}, {"mode": "multitaper"}, {"mode": "fourier"}):      # {}: MNE's default mode
        with pytest.raises(ValueError, match="pass mode='cwt_morlet'"):
            spectral_connectivity_epochs(data, sfreq=SFREQ, cwt_freqs=FREQS, **kw)
    with pytest.raises(ValueError, match="pass mode='cwt_morlet'"):
        spectral_connectivity_time(data, FREQS, sfreq=SFREQ, mode="multitaper")
    with pytest.raises(TypeError, match="freqs"):
        spectral_connectivity_time(data, sfreq=SFREQ)


# ----------------------------------------------------------------------------- bounds


@pytest.mark.parametrize("kw", [{}, {"sm_times": 0.3, "decim": 2}, {"n_cycles": 3.0}])
def test_time_bounds_on_eeg_like_data_and_noise(data, kw):
    noise = np.random.default_rng(3).standard_normal(data.shape)
    for x in (data, noise):
        want = _quiet(mnec.spectral_connectivity_time, x, FREQS, method=list(METHODS),
                      sfreq=SFREQ, **kw)
        got = spectral_connectivity_time(x, FREQS, method=list(METHODS), sfreq=SFREQ, **kw)
        for a, b in zip(want, got):
            n_kept = x.shape[-1] // kw.get("decim", 1)
            d = np.max(np.abs(a.get_data() - b.get_data()))
            assert d <= 1e-3 + (6.0 / n_kept if a.method == "pli" else 0.0), (a.method, d)


# ----------------------------------------------------------------------------- routes


def test_route_predicates():
    x = np.zeros((3, 2, 500))
    f = np.array([10.0, 20.0])
    assert routes.accepts_epochs(x, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=f)
    assert routes.accepts_epochs(x, None, "wpli", None, SFREQ, mode="cwt_morlet", cwt_freqs=f)
    for kw in ({}, {"mode": "multitaper"}, {"mode": "fourier"},
               {"mode": "cwt_morlet", "method": "gc"},
               {"mode": "cwt_morlet", "method": ["coh", "mic"]},
               {"mode": "cwt_morlet", "tol": 1e-5},                   # not the original's keyword
               {"mode": "cwt_morlet", "cwt_freqs": np.array([1.0])}):  # a wavelet longer than the data
        kw = {"cwt_freqs": f, **kw}
        assert not routes.accepts_epochs(x, sfreq=SFREQ, **kw), kw
    assert not routes.accepts_epochs((e for e in x), sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=f)
    assert not routes.accepts_epochs(x + 1j, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=f)
    assert routes.accepts_time(x, f, sfreq=SFREQ)
    assert routes.accepts_time(x, f, "plv", True, None, SFREQ, sm_times=0.1)
    for kw in ({"mode": "multitaper"}, {"method": "gc"}, {"sfreq": None}, {"engine": "numba"},
               {"sm_freqs": 3, "method": "plv"}):
        assert not routes.accepts_time(x, f, **{"sfreq": SFREQ, **kw}), kw
    assert not routes.accepts_time(list(x), f, sfreq=SFREQ)        # MNE-Connectivity refuses lists
    assert not routes.accepts_time(x, sfreq=SFREQ)                  # (freqs missing)
    names = {r.name: r for r in routes.routes()}
    assert set(names) == {"spectral_connectivity_epochs", "spectral_connectivity_time"}
    for r in names.values():
        for module in r.where:
            assert getattr(__import__(module, fromlist=["_"]), r.name) is getattr(mnec, r.name)


def test_each_route_replacement_equals_the_original(data, epochs):
    from sftwave.patch.route import load

    calls = {
        "spectral_connectivity_epochs": [
            ((data,), dict(method=["coh", "plv", "wpli"], sfreq=SFREQ, mode="cwt_morlet",
                           cwt_freqs=FREQS, fmin=10.0)),
            ((epochs,), dict(method="ciplv", mode="cwt_morlet", cwt_freqs=FREQS, tmin=0.0)),
        ],
        "spectral_connectivity_time": [
            ((data, FREQS), dict(method=["imcoh", "wpli"], sfreq=SFREQ, average=True)),
            ((epochs,), dict(freqs=FREQS, method="coh", indices=([0, 2], [1, 3]))),
        ],
    }
    for r in routes.routes():
        original, replacement = getattr(mnec, r.name), load(r.replacement)
        accepts = load(r.accepts)
        for args, kw in calls[r.name]:
            assert accepts(*args, **kw)
            want = _quiet(original, *[a.copy() if hasattr(a, "info") else a for a in args], **kw)
            got = replacement(*args, **kw)
            wants, gots = (want, got) if isinstance(want, list) else ([want], [got])
            for a, b in zip(wants, gots):
                _same_object(a, b)
