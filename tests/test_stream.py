"""Streaming: the concatenated outputs equal the batch result, any chunking.

Property tests with hypothesis over chunk sizes (1 sample included), channel
shapes, sigma (the FIR plans of small sigma and the SFT bank), orders, modes,
the CWT's output kinds and ``decim``.  "Equal" is within 1e-12 of the batch
output's largest magnitude (float64 state both ways; the batch centres each
segment by its own median, the stream by its start's, which moves only the
rounding).  The signals are longer than the kernel's window, where the batch
function picks the plan the stream picks (shorter streams are computed by the
batch function itself at flush, also tested).
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sftwave
from sftwave.stream import CWT, GaussianFilter1D
from sftwave.wavelets import windowed_cwt

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
MODES = ["reflect", "mirror", "nearest", "constant"]


def _chunks(draw, n):
    sizes = []
    total = 0
    while total < n:
        k = draw(st.one_of(st.just(1), st.integers(1, 64), st.integers(1, n)))
        sizes.append(min(k, n - total))
        total += sizes[-1]
    return np.cumsum(sizes)[:-1]


def _stream(obj, x, cuts):
    parts = [obj.process(c) for c in np.split(x, cuts, axis=-1)]
    parts.append(obj.flush())
    return np.concatenate(parts, axis=-1)


def _close(got, ref):
    assert got.shape == ref.shape, (got.shape, ref.shape)
    scale = max(float(np.max(np.abs(ref), initial=0.0)), 1e-300)
    assert np.max(np.abs(got - ref), initial=0.0) <= 1e-12 * scale


@SETTINGS
@given(data=st.data(), sigma=st.sampled_from([0.8, 2.0, 7.5, 40.0]), order=st.integers(0, 2),
       mode=st.sampled_from(MODES), lead=st.sampled_from([(), (2,), (2, 3)]))
def test_gaussian_stream_equals_batch(data, sigma, order, mode, lead):
    f = GaussianFilter1D(sigma, order, mode=mode, cval=0.7)
    n = data.draw(st.integers(3 * f.startup, 3 * f.startup + 400))
    x = np.random.default_rng(n).standard_normal(lead + (n,)) + 3.0
    got = _stream(f, x, _chunks(data.draw, n))
    _close(got, sftwave.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=0.7))


@SETTINGS
@given(data=st.data(), output=st.sampled_from(["complex", "power", "abs", "phase"]),
       decim=st.integers(1, 4), mode=st.sampled_from(MODES))
def test_cwt_stream_equals_batch(data, output, decim, mode):
    freqs = [0.01, 0.05, 0.2, 0.45]
    s = CWT(freqs, output=output, decim=decim, mode=mode)
    n = data.draw(st.integers(2 * s.startup, 2 * s.startup + 300))
    x = np.random.default_rng(n).standard_normal((2, n))
    got = _stream(s, x, _chunks(data.draw, n))
    # the stream's plans ('auto' may run the FFT on a batch)
    ref = windowed_cwt(x, freqs, output=output, decim=decim, mode=mode)
    z = windowed_cwt(x, freqs, decim=decim, mode=mode)
    if output == "phase":               # angles: compare where the coefficient is not tiny
        ok = np.abs(z) > 1e-6 * np.abs(z).max()
        d = np.angle(np.exp(1j * (got - ref)))
        assert got.shape == ref.shape and np.max(np.abs(d[ok])) <= 1e-9
    else:
        _close(got, ref)


def test_latency_one_sample_at_a_time():
    """Output n comes out with input n + latency (after the start-up)."""
    f = GaussianFilter1D(10.0)
    x = np.random.default_rng(0).standard_normal(3000)
    emitted = 0
    for i, v in enumerate(x):
        emitted += f.process(v).size
        if i + 1 >= f.startup:
            assert emitted == i + 1 - f.latency
    assert emitted + f.flush().size == x.size


def test_short_streams_are_the_batch_result():
    for n in (1, 5, 30):
        x = np.random.default_rng(n).standard_normal(n)
        f = GaussianFilter1D(25.0, mode="mirror")
        got = _stream(f, x, [n // 2] if n > 1 else [])
        _close(got, sftwave.gaussian_filter1d(x, 25.0, mode="mirror"))


def test_checkpoint_resumes_exactly_in_another_process(tmp_path):
    x = np.random.default_rng(3).standard_normal((2, 4000))
    s = CWT([0.02, 0.2], output="complex")
    first = s.process(x[:, :1500])
    (tmp_path / "state.pkl").write_bytes(pickle.dumps(s))
    np.save(tmp_path / "rest.npy", x[:, 1500:])
    code = ("import pickle, numpy as np, sys; p = sys.argv[1]; "
            "s = pickle.loads(open(p + '/state.pkl', 'rb').read()); "
            "r = np.load(p + '/rest.npy'); "
            "np.save(p + '/out.npy', np.concatenate([s.process(r), s.flush()], axis=-1))")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = np.concatenate([first, np.load(tmp_path / "out.npy")], axis=-1)
    same = CWT([0.02, 0.2], output="complex")
    local = np.concatenate([same.process(x[:, :1500]), same.process(x[:, 1500:]),
                            same.flush()], axis=-1)
    assert np.array_equal(got, local)
    _close(got, windowed_cwt(x, [0.02, 0.2]))


def test_refusals():
    with pytest.raises(ValueError, match="wrap"):
        GaussianFilter1D(3.0, mode="wrap")
    with pytest.raises(ValueError, match="order"):
        GaussianFilter1D(3.0, order=3)
    f = GaussianFilter1D(3.0)
    with pytest.raises(TypeError, match="complex"):
        f.process(np.ones(4, complex))
    f.process(np.ones((2, 40)))
    with pytest.raises(ValueError, match="channels"):
        f.process(np.ones((3, 40)))
    with pytest.raises(ValueError, match="finite"):
        f.process(np.full((2, 4), np.nan))
    f.flush()
    with pytest.raises(ValueError, match="flushed"):
        f.process(np.ones((2, 4)))


def test_cwt_stream_refuses_a_wavelet_beyond_any_signal_naming_freqs():
    """A frequency given in Hz with fs left at 1 asks for an absurd scale: the error names freqs."""
    from sftwave.stream import CWT

    with pytest.raises(ValueError, match=r"freqs \(frequency 1e-09 at fs=1\).*longer than the signal"):
        CWT([0.1, 1e-9])
