"""The MNE routes of the zero-edit switch: their predicates, and each replacement against the
original on the same call (without the switch's machinery; bounds as in test_mne_objects.py).

And that the routed module attributes are the ones MNE's object paths look up: with the
attribute set (by ``monkeypatch``) to the replacement, ``Epochs.compute_tfr``, ``tfr_morlet``,
``csd_morlet`` and ``mne.decoding.TimeFrequency`` return exactly what sftwave's functions
return.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import sftwave.mne as smne
from sftwave.patch.route import load
from sftwave.patch.routes import mne as routes_mne

mne = pytest.importorskip("mne")
tfr_module = pytest.importorskip("mne.time_frequency.tfr")
csd_module = pytest.importorskip("mne.time_frequency.csd")

X = np.random.default_rng(5).standard_normal((4, 3, 600))
FREQS = [6.0, 12.0, 25.0]


def test_routes_name_existing_attributes_and_functions():
    for route in routes_mne.routes():
        assert route.target == "mne"
        original = getattr(__import__(route.where[0], fromlist=["_"]), route.name)
        replacement, accepts = load(route.replacement), load(route.accepts)
        assert callable(replacement) and callable(accepts)
        # the replacement takes exactly the original's arguments
        import inspect
        theirs = inspect.signature(getattr(original, "__wrapped__", original))
        ours = inspect.signature(replacement)
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in theirs.parameters.values()]


@pytest.mark.parametrize("args,kwargs,expected", [
    ((X, 250.0, FREQS), {}, True),
    ((X, 250, FREQS, 5.0), dict(output="itc", decim=slice(1, None, 2), zero_mean=False), True),
    ((X.astype(np.float32), 250.0, np.array(FREQS)), dict(n_jobs=1), True),
    ((X.astype(complex), 250.0, FREQS), {}, False),                      # complex data
    ((X.tolist(), 250.0, FREQS), {}, False),                              # not numpy
    ((X[0], 250.0, FREQS), {}, False),                                    # 2-D: MNE raises
    ((X, np.float32(250.0), FREQS), {}, False),                           # MNE refuses the type
    ((X, 250.0, FREQS, np.float64(5.0)), {}, True),                       # a float subclass
    ((X, 250.0, FREQS, np.float32(5.0)), {}, False),                      # MNE refuses
    ((X, 250.0, FREQS), dict(decim=np.int64(2)), False),                  # MNE refuses
    ((X, 250.0, [0.5]), {}, False),                                       # wavelet too long
    ((X, 250.0, [200.0]), {}, False),                                     # above Nyquist
    ((X, 250.0, FREQS), dict(output="bogus"), False),
    ((X, 250.0, FREQS), dict(method="morlet"), False),                    # unknown keyword
    ((X, 250.0, FREQS), dict(n_jobs="cuda"), False),
])
def test_accepts_tfr_array_morlet(args, kwargs, expected):
    assert routes_mne.accepts_tfr_array_morlet(*args, **kwargs) is expected


def test_accepts_refuses_non_finite_data():
    y = X.copy()
    y[1, 2, 10] = np.nan
    assert not routes_mne.accepts_tfr_array_morlet(y, 250.0, FREQS)
    assert not routes_mne.accepts_compute_tfr_array(y, FREQS, 250.0)
    assert not routes_mne.accepts_csd_array_morlet(y, 250.0, FREQS)


def test_accepts_compute_tfr_array():
    acc = routes_mne.accepts_compute_tfr_array
    assert acc(X, FREQS, 250.0) and acc(X, FREQS, sfreq=250.0, method="morlet", output="power")
    assert not acc(X, FREQS, 250.0, method="multitaper")
    assert not acc(X, FREQS, 250.0, "morlet", time_bandwidth=4.0)
    assert not acc(X, FREQS, 250.0, "stockwell")


def test_accepts_csd_array_morlet():
    acc = routes_mne.accepts_csd_array_morlet
    assert acc(X, 250.0, FREQS) and acc(X, 250.0, FREQS, t0=-0.2, tmin=0.0, tmax=1.5, decim=2)
    assert not acc(X, 250.0, FREQS, tmin=1.0, tmax=0.5)
    assert not acc(X.astype(complex), 250.0, FREQS)
    assert not acc(X, 250.0, [0.5])                      # MNE warns and computes; not sftwave


@pytest.mark.parametrize("output", smne.OUTPUTS)
def test_tfr_array_morlet_replacement_equals_original(output):
    args = (X, 250.0, FREQS, 4.0)
    kwargs = dict(zero_mean=False, decim=2, output=output)
    assert routes_mne.accepts_tfr_array_morlet(*args, **kwargs)
    ours = routes_mne.tfr_array_morlet(*args, **kwargs)
    theirs = tfr_module.tfr_array_morlet(*args, verbose=False, **kwargs)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    scale = np.sqrt(np.mean(np.abs(theirs) ** 2, axis=-1, keepdims=True))
    if output == "phase":
        power = tfr_module.tfr_array_morlet(*args, zero_mean=False, decim=2, output="power")
        d = np.angle(np.exp(1j * (ours - theirs)))
        assert np.sqrt(np.sum(power * d ** 2, -1) / np.sum(power, -1)).max() <= 1e-4
    elif output == "itc":
        assert np.abs(ours - theirs).max() <= 1e-3
    elif output == "avg_power_itc":
        assert np.abs(ours.imag - theirs.imag).max() <= 1e-3
        assert (np.abs(ours.real - theirs.real) <= 2e-3 * scale.real).all()
    else:
        assert (np.abs(ours - theirs) <= 2e-3 * scale).all()


def test_compute_tfr_array_replacement_equals_original():
    # zero_mean=None is False for Morlet, as MNE's _compute_tfr takes it
    ours = routes_mne.compute_tfr_array(X, FREQS, 250.0, "morlet", 2.0, None, output="power")
    theirs = tfr_module._compute_tfr(X, FREQS, 250.0, "morlet", 2.0, None, output="power")
    scale = np.sqrt(np.mean(theirs ** 2, axis=-1, keepdims=True))
    assert (np.abs(ours - theirs) <= 2e-3 * scale).all()
    nonzero = routes_mne.compute_tfr_array(X, FREQS, 250.0, "morlet", 2.0, True, output="power")
    assert not np.allclose(nonzero, ours, rtol=1e-3)      # the argument reaches the transform


def test_csd_array_morlet_replacement_equals_original():
    kwargs = dict(t0=-0.2, tmin=0.0, tmax=1.6, n_cycles=5.0, decim=2)
    ours = routes_mne.csd_array_morlet(X, 250.0, FREQS, **kwargs)
    theirs = csd_module.csd_array_morlet(X, 250.0, FREQS, verbose=False, **kwargs)
    assert type(ours) is type(theirs) and ours.ch_names == theirs.ch_names
    assert (ours.tmin, ours.tmax) == (theirs.tmin, theirs.tmax)
    for f in FREQS:
        a, b = ours.get_data(f), theirs.get_data(f)
        d = np.sqrt(np.diag(b).real)
        assert (np.abs(a - b) <= 1e-4 * np.outer(d, d)).all()


def _routed(monkeypatch, calls):
    """Set each route's attributes to a wrapper of the replacement that counts its calls
    (``functools.wraps``: MNE's constructors read the function's signature).  The re-exporting
    modules first: ``mne.time_frequency`` serves its names lazily from the defining module,
    so once that is set it would hand out (and monkeypatch would later restore) the wrapper."""
    for route in routes_mne.routes():
        replacement = load(route.replacement)
        for where in reversed(route.where):
            try:
                module = __import__(where, fromlist=["_"])
            except ImportError:          # mne.decoding needs scikit-learn
                continue
            original = getattr(module, route.name)

            @functools.wraps(original)
            def wrapper(*args, _name=route.name, _replacement=replacement, **kwargs):
                calls.append(_name)
                return _replacement(*args, **kwargs)
            monkeypatch.setattr(module, route.name, wrapper)


def test_mne_object_paths_reach_the_routes(monkeypatch):
    info = mne.create_info(3, 250.0, "eeg")
    epochs = mne.EpochsArray(X, info, tmin=-0.2, baseline=(None, 0), verbose=False)
    expected_power = smne.compute_tfr(epochs, "morlet", FREQS, n_cycles=5.0, tol=1e-4)
    expected_csd = smne.csd_morlet(epochs, FREQS, n_cycles=5.0)
    calls: list[str] = []
    _routed(monkeypatch, calls)
    power = epochs.compute_tfr("morlet", FREQS, n_cycles=5.0, verbose=False)
    assert calls == ["tfr_array_morlet"] and np.array_equal(power.data, expected_power.data)
    power_itc = mne.time_frequency.tfr_morlet(epochs, FREQS, n_cycles=5.0, verbose=False)
    assert calls[1:] == ["tfr_array_morlet"] and len(power_itc) == 2
    csd = mne.time_frequency.csd_morlet(epochs, FREQS, n_cycles=5.0, verbose=False)
    assert calls[2:] == ["csd_array_morlet"]
    assert np.array_equal(csd._data, expected_csd._data)
    pytest.importorskip("sklearn")
    from mne.decoding import TimeFrequency

    TimeFrequency(np.array(FREQS), sfreq=250.0, n_cycles=5.0, output="power").fit_transform(X)
    assert calls[3:] == ["_compute_tfr"]


def test_the_originals_are_back():
    """After the test above: every routed attribute is MNE's own function again."""
    for route in routes_mne.routes():
        for where in route.where:
            try:
                module = __import__(where, fromlist=["_"])
            except ImportError:
                continue
            assert getattr(module, route.name).__module__.startswith("mne.")
