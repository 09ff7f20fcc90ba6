"""sftwave.connectivity against MNE, MNE-Connectivity and a dense numpy reference.

The reference (:func:`naive_coefficients`, :func:`naive_scores`) is the
definition written out: MNE's Morlet wavelets (``zero_mean=False``) sampled
and convolved densely (``np.convolve``, zero padding), the cross spectra of
every pair as arrays, smoothed by ``np.convolve`` with ``mode='same'``
(MNE-Connectivity's ``fftconvolve`` centring), and each measure's formula.

Bounds: the transform agrees with MNE's within about 1e-4 per row
(``tol=1e-4``), so the coherence-type measures (scale 1) within 1e-3
absolute.  'pli' averages ``sign(Im S)``: where ``Im S`` crosses zero, a
difference of 1e-4 in the coefficients moves a sign, which changes the score
by ``2 / n`` (``n`` samples kept); it is held to 1e-3 plus a few such flips.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import sftwave._checks.connectivity as connectivity_checks
import sftwave.connectivity as connectivity
from sftwave.connectivity import (
    EPOCH_METHODS,
    METHODS,
    csd_array_morlet,
    spectral_connectivity_epochs,
    spectral_connectivity_time,
)
from sftwave.engines.numba.connectivity_kernels import (
    KIND_BOXCAR,
    KIND_HANN,
    KIND_NONE,
    SUM_WIDTHS,
    cross_sums,
    epoch_power_sums,
    epoch_sums,
    phase_sums,
)

SFREQ = 250.0
FREQS = np.array([6.0, 10.0, 17.0, 30.0, 45.0])


def _epochs(n_epochs=3, n_chans=4, n_times=800, seed=0):
    """EEG-like epochs: 1/f noise with a shared, lagged 10 Hz component (so that pairs couple)."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((n_epochs, n_chans, n_times))
    spec = np.fft.rfft(w)
    f = np.fft.rfftfreq(n_times)
    spec[..., 1:] /= np.sqrt(f[1:] * n_times)
    x = np.fft.irfft(spec, n_times) * 10.0
    t = np.arange(n_times) / SFREQ
    phase = rng.uniform(0, 2 * np.pi, (n_epochs, 1, 1))
    lag = np.linspace(0, 1.2, n_chans)[None, :, None]
    return x + 3.0 * np.sin(2 * np.pi * 10.0 * t + phase + lag) + 5.0


# ----------------------------------------------------------------------------- the dense reference


def naive_coefficients(x, sfreq, freqs, n_cycles, zero_mean=False):
    """MNE's Morlet coefficients by dense convolution: (..., freqs, times)."""
    out = np.empty(x.shape[:-1] + (len(freqs), x.shape[-1]), complex)
    for i, (f, nc) in enumerate(zip(freqs, n_cycles)):
        sigma_t = nc / (2.0 * np.pi * f)
        t = np.arange(0.0, 5.0 * sigma_t, 1.0 / sfreq)
        t = np.r_[-t[::-1], t[1:]]
        offset = np.exp(-2 * (np.pi * f * sigma_t) ** 2) if zero_mean else 0.0
        wav = (np.exp(2j * np.pi * f * t) - offset) * np.exp(-(t ** 2) / (2.0 * sigma_t ** 2))
        wav /= np.sqrt(0.5) * np.linalg.norm(wav.ravel())
        for idx in np.ndindex(x.shape[:-1]):
            out[idx + (i,)] = np.convolve(x[idx], wav, mode="same")
    return out


def _kernel(m, kind):
    k = np.ones(m) if kind == "square" else np.hanning(m)
    return k / k.sum()


def naive_scores(data, sfreq, freqs, method, *, sm_times=0.0, sm_kernel="hanning", padding=0.0,
                 decim=1, n_cycles=7.0):
    """Each epoch's score of every pair ``i > j`` (epochs, pairs, freqs), by the formulas."""
    nc = np.broadcast_to(np.asarray(n_cycles, float), freqs.shape)
    m_t = max(int(round(int(round(sm_times * sfreq)) / decim)), 1)
    k = _kernel(m_t, sm_kernel)
    src, tgt = np.tril_indices(data.shape[1], -1)
    out = np.zeros((data.shape[0], src.size, freqs.size))
    for e in range(data.shape[0]):
        y = naive_coefficients(data[e], sfreq, freqs, nc)[..., ::decim]
        pad = int(np.floor(padding * sfreq / decim))
        if pad:
            y = y[..., pad:-pad]

        def smooth(s):
            return np.array([np.convolve(row, k, mode="same") for row in s])

        for p, (a, b) in enumerate(zip(src, tgt)):
            s = smooth(y[a] * np.conj(y[b]))
            if method in ("coh", "imcoh"):
                pa = smooth(np.abs(y[a]) ** 2).mean(-1).real
                pb = smooth(np.abs(y[b]) ** 2).mean(-1).real
                num = np.abs(s.mean(-1)) if method == "coh" else s.mean(-1).imag
                out[e, p] = num / np.sqrt(pa * pb)
            elif method == "plv":
                out[e, p] = np.abs((s / np.abs(s)).mean(-1))
            elif method == "ciplv":
                u = s / np.abs(s)
                out[e, p] = np.abs(u.imag.mean(-1)) / np.sqrt(1 - np.abs(u.real.mean(-1)) ** 2)
            elif method == "pli":
                out[e, p] = np.abs(np.sign(s.imag).mean(-1))
            elif method == "wpli":
                out[e, p] = np.abs(s.imag.mean(-1)) / np.abs(s.imag).mean(-1)
    return out


def _pairs(con, n_chans):
    """The ``i > j`` connections of an ``indices=None`` result (epochs, n ** 2, freqs)."""
    src, tgt = np.tril_indices(n_chans, -1)
    return con.reshape(con.shape[:-2] + (n_chans, n_chans, con.shape[-1]))[..., src, tgt, :]


def _bound(method, n_kept):
    return 1e-3 + (6.0 / n_kept if method == "pli" else 0.0)


# ----------------------------------------------------------------------------- the kernels


@pytest.mark.parametrize("kind,width", [(KIND_NONE, 1), (KIND_HANN, 3), (KIND_HANN, 40),
                                        (KIND_BOXCAR, 2), (KIND_BOXCAR, 57)])
def test_phase_sums_smooth_as_np_convolve_same(kind, width):
    rng = np.random.default_rng(1)
    y = rng.standard_normal((3, 2, 300)) + 1j * rng.standard_normal((3, 2, 300))
    k = np.ones(1) if kind == KIND_NONE else _kernel(width, "square" if kind == KIND_BOXCAR else "h")
    inv = 1.0 / (np.hanning(width).sum() if kind == KIND_HANN else width)
    px, py = np.array([2, 0]), np.array([1, 2])
    got = phase_sums(y, px, py, kind, width, inv)
    for p in range(2):
        for f in range(2):
            c = np.convolve(y[px[p], f] * np.conj(y[py[p], f]), k, mode="same")
            want = [np.sum(c.real / np.abs(c)), np.sum(c.imag / np.abs(c)), np.sum(np.sign(c.imag)),
                    np.sum(np.abs(c.imag)), np.sum(c.imag)]
            np.testing.assert_allclose(got[p, f, [0, 1, 3, 4]], np.array(want)[[0, 1, 3, 4]],
                                       rtol=1e-10, atol=1e-10 * np.abs(c).max() * c.size)
            assert abs(got[p, f, 2] - want[2]) <= 2.0       # a sign at |Im c| ~ 1e-16 may differ


def test_cross_sums_are_the_weighted_products():
    rng = np.random.default_rng(2)
    y = rng.standard_normal((4, 3, 200)) + 1j * rng.standard_normal((4, 3, 200))
    w = rng.uniform(0, 1, 200)
    rows, lo, hi = np.array([3, 1]), np.array([0, 1]), np.array([3, 4])
    g = cross_sums(y, rows, lo, hi, w)
    for r, i in enumerate(rows):
        for j in range(4):
            want = np.sum(w * y[i] * np.conj(y[j]), axis=-1) if lo[r] <= j < hi[r] else 0.0
            np.testing.assert_allclose(g[:, r, j], want, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- against the definition


@pytest.mark.parametrize("method", ["coh", "imcoh", "plv", "ciplv", "pli", "wpli"])
@pytest.mark.parametrize("kw", [{}, {"sm_times": 0.4}, {"sm_times": 0.2, "sm_kernel": "square",
                                                          "padding": 0.3, "decim": 2}])
def test_scores_match_the_dense_definition(method, kw):
    data = _epochs(2, 3, 600)
    got = _pairs(spectral_connectivity_time(data, FREQS, method=method, sfreq=SFREQ,
                                            output="array", **kw), 3)
    want = naive_scores(data, SFREQ, FREQS, method, **kw)
    n_kept = data.shape[-1] // kw.get("decim", 1) - 2 * int(kw.get("padding", 0) * SFREQ
                                                            / kw.get("decim", 1))
    assert np.max(np.abs(got - want)) <= _bound(method, n_kept)


def test_csd_matches_the_dense_definition():
    data = _epochs(3, 3, 500)
    got = csd_array_morlet(data, SFREQ, FREQS, output="array")
    y = naive_coefficients(data, SFREQ, FREQS, np.full(FREQS.size, 7.0))  # (e, c, f, t)
    want = np.einsum("eift,ejft->fij", y, np.conj(y)) / (data.shape[0] * data.shape[-1] * SFREQ)
    scale = np.sqrt(np.einsum("fii->fi", want).real)
    assert np.max(np.abs(got - want) / (scale[:, :, None] * scale[:, None, :])) < 1e-3


# ----------------------------------------------------------------------------- against the peers

KWARGS = [{}, {"sm_times": 0.5}, {"sm_times": 0.3, "sm_kernel": "square"},
          {"padding": 0.4, "decim": 2, "sm_times": 0.2}, {"indices": ([0, 3, 2], [1, 1, 0])},
          {"n_cycles": [3.0, 4.0, 5.0, 6.0, 7.0], "average": True},
          {"fmin": (6.0, 15.0), "fmax": (12.0, 45.0), "faverage": True, "fdecim": 2}]


@pytest.mark.parametrize("kw", KWARGS)
def test_spectral_connectivity_time_matches_mne_connectivity(kw):
    mnec = pytest.importorskip("mne_connectivity")
    data = _epochs(3, 4, 800)
    methods = list(METHODS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = mnec.spectral_connectivity_time(data, FREQS, method=methods, sfreq=SFREQ,
                                               verbose=False, **kw)
    got = spectral_connectivity_time(data, FREQS, method=methods, sfreq=SFREQ, output="object",
                                     **kw)
    n_kept = 800 // kw.get("decim", 1) - 2 * int(kw.get("padding", 0) * SFREQ / kw.get("decim", 1))
    for m, a, b in zip(methods, want, got):
        assert type(a) is type(b)
        assert a.get_data().shape == b.get_data().shape
        np.testing.assert_allclose(b.freqs, a.freqs)
        assert b.method == a.method and b.indices == a.indices
        assert np.max(np.abs(a.get_data() - b.get_data())) <= _bound(m, n_kept), m


def test_frequency_smoothing_matches_mne_connectivity():
    mnec = pytest.importorskip("mne_connectivity")
    data = _epochs(2, 3, 800)
    for kernel in ("hanning", "square"):
        kw = dict(sm_freqs=3, sm_times=0.3, sm_kernel=kernel)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = mnec.spectral_connectivity_time(data, FREQS, method=["coh", "cohy"],
                                                   sfreq=SFREQ, verbose=False, **kw)
        got = spectral_connectivity_time(data, FREQS, method=["coh", "cohy"], sfreq=SFREQ,
                                         output="array", **kw)
        for a, b in zip(want, got):
            assert np.max(np.abs(a.get_data() - b)) < 1e-3


@pytest.mark.parametrize("kw", [{}, {"tmin": 0.5, "tmax": 2.5, "t0": -0.2}, {"decim": 3},
                                {"n_cycles": [3, 4, 5, 6, 7]}])
def test_csd_array_morlet_matches_mne(kw):
    mne_tf = pytest.importorskip("mne.time_frequency")
    data = _epochs(3, 4, 800)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = mne_tf.csd_array_morlet(data, SFREQ, list(FREQS), verbose=False, **kw)
    got = csd_array_morlet(data, SFREQ, list(FREQS), output="object", **kw)
    assert type(got) is type(want)
    assert (got.tmin, got.tmax, got.n_fft, got.ch_names) == (want.tmin, want.tmax, want.n_fft,
                                                            want.ch_names)
    a = np.array([want.get_data(index=i) for i in range(FREQS.size)])
    b = np.array([got.get_data(index=i) for i in range(FREQS.size)])
    d = np.sqrt(np.einsum("fii->fi", a).real)
    assert np.max(np.abs(a - b) / (d[:, :, None] * d[:, None, :])) < 1e-3
    arr = csd_array_morlet(data, SFREQ, list(FREQS), output="array", **kw)
    np.testing.assert_array_equal(arr, b)


# ----------------------------------------------------------------------------- input rules


def test_integer_and_bool_data_are_taken_as_float():
    data = np.round(_epochs(2, 3, 600)).astype(np.int32)
    a = spectral_connectivity_time(data, FREQS[:3], sfreq=SFREQ, method=["coh", "wpli"],
                                   output="array")
    b = spectral_connectivity_time(data.astype(float), FREQS[:3], sfreq=SFREQ,
                                   method=["coh", "wpli"], output="array")
    for x, z in zip(a, b):
        np.testing.assert_array_equal(x, z)
    np.testing.assert_array_equal(csd_array_morlet(data, SFREQ, FREQS[:2], output="array"),
                                  csd_array_morlet(data.astype(float), SFREQ, FREQS[:2],
                                                   output="array"))


def test_nan_makes_its_channels_pairs_nan_in_its_epoch_only():
    data = _epochs(3, 4, 600)
    clean = spectral_connectivity_time(data, FREQS, sfreq=SFREQ, method=["coh", "plv"],
                                       output="array", indices=([1, 2, 3], [0, 0, 2]))
    bad = data.copy()
    bad[1, 3, 300] = np.nan
    got = spectral_connectivity_time(bad, FREQS, sfreq=SFREQ, method=["coh", "plv"],
                                     output="array", indices=([1, 2, 3], [0, 0, 2]))
    for c, g in zip(clean, got):
        assert np.all(np.isnan(g[1, 2]))                       # the pair (3, 2) in epoch 1
        np.testing.assert_array_equal(g[1, :2], c[1, :2])      # the other pairs of epoch 1
        np.testing.assert_array_equal(g[[0, 2]], c[[0, 2]])    # the other epochs
    csd = csd_array_morlet(bad, SFREQ, FREQS, output="array")
    assert np.all(np.isnan(csd[:, 3, :])) and np.all(np.isfinite(csd[:, :3, :3]))


def test_same_bits_on_any_number_of_threads():
    data = _epochs(2, 5, 600)
    kw = dict(sfreq=SFREQ, method=["coh", "cohy", "plv", "pli", "wpli"], sm_times=0.3,
              output="array")
    one = spectral_connectivity_time(data, FREQS, n_jobs=1, **kw)
    for n_jobs in (2, 8):
        for a, b in zip(one, spectral_connectivity_time(data, FREQS, n_jobs=n_jobs, **kw)):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(csd_array_morlet(data, SFREQ, FREQS, n_jobs=1, output="array"),
                                  csd_array_morlet(data, SFREQ, FREQS, n_jobs=2, output="array"))


def test_strided_data_gives_the_contiguous_result():
    data = _epochs(2, 6, 600)
    view = data[:, ::2]
    a = spectral_connectivity_time(view, FREQS, sfreq=SFREQ, method="wpli", output="array")
    b = spectral_connectivity_time(np.ascontiguousarray(view), FREQS, sfreq=SFREQ,
                                   method="wpli", output="array")
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kw,match", [
    (dict(method="gc"), "not recognized"),
    (dict(method=[]), "method"),
    (dict(mode="multitaper"), "mode"),
    (dict(sfreq=None), "sfreq"),
    (dict(sfreq=-1.0), "sfreq"),
    (dict(method="plv", sm_freqs=3), "sm_freqs"),
    (dict(sm_times=2 / SFREQ), "Hann kernel of 2"),
    (dict(sm_times=-1.0), "sm_times"),
    (dict(sm_kernel="gauss"), "No kernel"),
    (dict(padding=2.0), "Padding"),
    (dict(padding=-0.1), "Padding"),
    (dict(freqs=[20.0, 10.0]), "increasing"),
    (dict(freqs=[200.0]), "Nyquist"),
    (dict(freqs=[0.5]), "longer than the"),
    (dict(fmin=(5.0, 10.0), fmax=20.0), "same length"),
    (dict(fmin=30.0, fmax=20.0), "fmax"),
    (dict(fdecim=0), "fdecim"),
    (dict(decim=0), "decim"),
    (dict(n_jobs=0), "n_jobs"),
    (dict(n_cycles=[7.0, 7.0, 7.0]), "n_cycles"),
    (dict(n_cycles=-1.0), "n_cycles"),
    (dict(indices=[0, 1]), "tuple"),
    (dict(indices=([0], [1, 2])), "same length"),
    (dict(indices=([0], [9])), "indices"),
    (dict(output="xarray"), "output"),
])
def test_bad_arguments_are_refused_by_name(kw, match):
    args = dict(data=_epochs(1, 3, 400), freqs=[10.0, 20.0], sfreq=SFREQ)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        spectral_connectivity_time(**args)


def test_bad_data_and_csd_arguments():
    data = _epochs(1, 2, 400)
    with pytest.raises(TypeError, match="real numeric"):
        spectral_connectivity_time(data + 1j, [10.0], sfreq=SFREQ)
    with pytest.raises(ValueError, match="shape"):
        spectral_connectivity_time(data[0], [10.0], sfreq=SFREQ)
    with pytest.raises(TypeError, match="integers"):
        spectral_connectivity_time(data, [10.0], sfreq=SFREQ, indices=([[0, 1]], [[1, 0]]))
    with pytest.raises(TypeError, match="fdecim"):
        spectral_connectivity_time(data, [10.0], sfreq=SFREQ, fdecim=1.5)
    for kw, match in [(dict(X=data[0]), "shape"), (dict(tmin=1.0, tmax=0.5), "tmax must be"),
                      (dict(tmin=-5.0), "tmin"), (dict(tmax=50.0), "tmax"),
                      (dict(decim=0), "decim"), (dict(decim=2.5), "decim"),
                      (dict(sfreq=0.0), "sfreq"), (dict(frequencies=[-1.0]), "frequencies"),
                      (dict(n_cycles=[1.0, 2.0]), "n_cycles"), (dict(output="x"), "output")]:
        args = dict(X=data, sfreq=SFREQ, frequencies=[10.0])
        args.update(kw)
        with pytest.raises(ValueError, match=match):
            csd_array_morlet(**args)


def test_csd_slice_decim_keeps_the_window():
    data = _epochs(2, 2, 500)
    full = csd_array_morlet(data, SFREQ, [10.0], output="array")
    sl = csd_array_morlet(data, SFREQ, [10.0], decim=slice(0, None, 1), output="array")
    np.testing.assert_allclose(sl, full, rtol=1e-12)
    assert math.isfinite(abs(csd_array_morlet(data, SFREQ, [10.0], decim=slice(1, None, 3),
                                              tmin=0.2, tmax=1.5, output="array")[0, 0, 1]))


def test_any_data_scale_gives_the_same_scores():
    data = _epochs(2, 3, 600)
    kw = dict(sfreq=SFREQ, method=["coh", "plv", "wpli"], output="array")
    base = spectral_connectivity_time(data, FREQS, **kw)
    for scale in (2.0 ** 600, 2.0 ** -600):
        for a, b in zip(base, spectral_connectivity_time(data * scale, FREQS, **kw)):
            np.testing.assert_array_equal(a, b)
    csd = csd_array_morlet(data, SFREQ, FREQS, output="array")
    big = csd_array_morlet(data * 2.0 ** 500, SFREQ, FREQS, output="array")
    np.testing.assert_array_equal(big, csd * 2.0 ** 1000)


# ----------------------------------------------------------------------------- across epochs
#
# spectral_connectivity_epochs scores each sample from the epochs' coefficients at that sample
# alone (no time mean), so where a measure is ill-conditioned the transform's own error (about
# 1e-5 of a row's scale at tol=1e-5, MNE's truncation at 5 sigma about 4e-6) shows undamped:
# * the phase measures ('plv', 'ciplv', 'ppc') where a coefficient is near 0 in some epoch
#   (its phase is then the error's): held to 1e-3 where every epoch's coefficients of both
#   channels are above 3 % of their RMS;
# * 'wpli' and 'wpli2_debiased' where sum |Im S| is small against sum |S| (a relative error d of
#   S moves them by about 2 d sum |S| / sum |Im S|): held where that ratio is below 10;
# * 'pli', 'pli2_unbiased', 'dpli' count signs of Im S: held where |Im S| > 1e-3 |S| in every
#   epoch (and the magnitudes as for the phase measures), elsewhere a sign may differ.
# And over all samples, fewer than 1 % of the scores may differ by more than 1e-3.


def naive_epoch_scores(data, sfreq, freqs, method, n_cycles=7.0):
    """Every ``i > j`` pair's score (pairs, freqs, times) from the definitions over epochs.

    The coefficients by dense convolution with MNE's zero-mean wavelets; the
    unbiased measures as means over the pairs of distinct epochs (Vinck et al.
    2010, 2011), not by MNE-Connectivity's sums."""
    nc = np.broadcast_to(np.asarray(n_cycles, float), freqs.shape)
    y = naive_coefficients(data, sfreq, freqs, nc, zero_mean=True)      # (e, c, f, t)
    src, tgt = np.tril_indices(data.shape[1], -1)
    S = y[:, src] * np.conj(y[:, tgt])                                   # (e, pairs, f, t)
    n = data.shape[0]
    off = ~np.eye(n, dtype=bool)

    def pairwise(v, w):
        """Mean over the pairs j != k of epochs of v_j w_k."""
        return np.einsum("jk,j...,k...->...", off, v, w) / (n * (n - 1))

    power = np.mean(np.abs(y) ** 2, axis=0)
    den = np.sqrt(power[src] * power[tgt])
    u = S / np.abs(S)
    if method == "coh":
        return np.abs(S.mean(0)) / den
    if method == "cohy":
        return S.mean(0) / den
    if method == "imcoh":
        return S.mean(0).imag / den
    if method == "plv":
        return np.abs(u.mean(0))
    if method == "ciplv":
        return np.abs(u.imag.mean(0)) / np.sqrt(1 - u.real.mean(0) ** 2)
    if method == "ppc":
        return pairwise(u.real, u.real) + pairwise(u.imag, u.imag)
    if method == "pli":
        return np.abs(np.sign(S.imag).mean(0))
    if method == "pli2_unbiased":
        return pairwise(np.sign(S.imag), np.sign(S.imag))
    if method == "dpli":
        return np.heaviside(S.imag, 0.5).mean(0)
    if method == "wpli":
        return np.abs(S.imag.mean(0)) / np.abs(S.imag).mean(0)
    assert method == "wpli2_debiased"
    return pairwise(S.imag, S.imag) / pairwise(np.abs(S.imag), np.abs(S.imag))


def _well_conditioned(y, src, tgt, method):
    """Where ``method``'s score is insensitive to a 1e-5 error of the coefficients ``y``
    (epochs, channels, freqs, times), for the pairs ``(src, tgt)``: (pairs, freqs, times)."""
    if method in ("coh", "cohy", "imcoh"):
        return np.ones((src.size,) + y.shape[2:], bool)
    rms = np.sqrt(np.mean(np.abs(y) ** 2, axis=(0, 3)))
    rel = np.abs(y) / rms[None, :, :, None]
    ok = np.minimum(rel[:, src], rel[:, tgt]).min(axis=0) > 0.03
    S = y[:, src] * np.conj(y[:, tgt])
    if method in ("wpli", "wpli2_debiased"):
        return np.abs(S).sum(0) < 10 * np.abs(S.imag).sum(0)
    if method in ("pli", "pli2_unbiased", "dpli"):
        ok &= (np.abs(S.imag) > 1e-3 * np.abs(S)).all(axis=0)
    return ok


def _assert_close_where_conditioned(got, want, y, src, tgt, method):
    d = np.abs(got - want)
    assert np.mean(d > 1e-3) < 0.01, method
    ok = _well_conditioned(y, src, tgt, method)
    assert ok.mean() > 0.5, method                        # (the test tests most samples)
    assert np.max(d[ok]) <= 1e-3, method


def test_epoch_sums_are_the_sums_over_epochs():
    rng = np.random.default_rng(3)
    y = rng.standard_normal((4, 3, 2, 300)) + 1j * rng.standard_normal((4, 3, 2, 300))
    y[2, 1, 0, 7] = 0.0                            # a zero cross spectrum: 'plv' NaN, 'ppc' 0
    px, py = np.array([1, 2, 0]), np.array([0, 1, 2])
    slots = np.cumsum((0,) + SUM_WIDTHS[:-1])
    acc = np.zeros((2, sum(SUM_WIDTHS), 3, 300))
    epoch_sums(y[:1], px, py, slots, acc)                # blocks of epochs add up in order
    epoch_sums(y[1:], px, py, slots, acc)
    whole = np.zeros_like(acc)
    epoch_sums(y, px, py, slots, whole)
    np.testing.assert_array_equal(whole, acc)
    S = y[:, px] * np.conj(y[:, py])                           # (e, pairs, f, t)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = S / np.abs(S)
    u0 = np.where(S == 0, 0, u)
    want = [S.real, S.imag, u.real, u.imag, u0.real, u0.imag, np.sign(S.imag), S.imag,
            np.abs(S.imag), S.imag ** 2]
    for q, w in enumerate(want):
        np.testing.assert_allclose(np.moveaxis(acc[:, q], 0, 1), w.sum(0), rtol=1e-12,
                                   atol=1e-12, err_msg=str(q))
    power = np.zeros((2, 3, 300))
    epoch_power_sums(y, power)
    np.testing.assert_allclose(power, np.moveaxis(np.sum(np.abs(y) ** 2, 0), 0, 1), rtol=1e-12)


@pytest.mark.parametrize("method", EPOCH_METHODS)
def test_epoch_scores_match_the_dense_definition(method):
    data = _epochs(6, 3, 500)
    got = spectral_connectivity_epochs(data, method=method, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS,
                                       output="array", tol=1e-6)
    got = got.reshape(3, 3, FREQS.size, 500)[np.tril_indices(3, -1)]
    with np.errstate(invalid="ignore", divide="ignore"):
        want = naive_epoch_scores(data, SFREQ, FREQS, method)
    src, tgt = np.tril_indices(3, -1)
    y = naive_coefficients(data, SFREQ, FREQS, np.full(FREQS.size, 7.0), zero_mean=True)
    _assert_close_where_conditioned(got, want, y, src, tgt, method)


EPOCH_KWARGS = [{}, {"indices": ([0, 3, 2, 1], [1, 1, 0, 3])},
                {"fmin": (6.0, 15.0), "fmax": (12.0, 45.0), "faverage": True},
                {"fmin": 8.0, "fmax": 40.0, "fdecim": 2, "tmin": 0.4, "tmax": 2.9},
                {"cwt_n_cycles": [3.0, 4.0, 5.0, 6.0, 7.0], "names": ["a", "b", "c", "d"]}]


@pytest.mark.parametrize("kw", EPOCH_KWARGS)
def test_spectral_connectivity_epochs_matches_mne_connectivity(kw):
    mnec = pytest.importorskip("mne_connectivity")
    mne_tf = pytest.importorskip("mne.time_frequency")
    data = _epochs(6, 4, 800)
    methods = list(EPOCH_METHODS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = mnec.spectral_connectivity_epochs(data, method=methods, sfreq=SFREQ,
                                                 mode="cwt_morlet", cwt_freqs=FREQS,
                                                 verbose=False, **kw)
    got = spectral_connectivity_epochs(data, method=methods, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS,
                                       output="object", **kw)
    # MNE's own coefficients on the window, for the conditioning of each score
    t0 = int(round(kw.get("tmin", 0.0) * SFREQ))
    t1 = int(round(kw["tmax"] * SFREQ)) + 1 if "tmax" in kw else data.shape[-1]
    src, tgt = (np.asarray(kw["indices"][0]), np.asarray(kw["indices"][1])) if "indices" in kw \
        else np.tril_indices(4, -1)
    freqs = want[0].freqs if not kw.get("faverage") else FREQS
    nc = np.asarray(kw.get("cwt_n_cycles", 7.0), float)
    nc = nc[np.isin(FREQS, freqs)] if nc.ndim else float(nc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = mne_tf.tfr_array_morlet(data[..., t0:t1], SFREQ, np.asarray(freqs), n_cycles=nc,
                                    zero_mean=True, output="complex", verbose=False)
    for m, a, b in zip(methods, want, got):
        assert type(a) is type(b)
        A, B = a.get_data(), b.get_data()
        assert A.shape == B.shape and A.dtype == B.dtype, m
        np.testing.assert_allclose(b.freqs, a.freqs)
        np.testing.assert_allclose(b.times, a.times)
        assert b.method == a.method and b.indices == a.indices and b.names == a.names
        assert b.n_epochs_used == a.n_epochs_used
        if "indices" not in kw:
            A = A.reshape((4, 4) + A.shape[1:])[src, tgt]
            B = B.reshape((4, 4) + B.shape[1:])[src, tgt]
        if kw.get("faverage"):
            assert np.max(np.abs(A - B)) <= 1e-3 or m not in ("coh", "cohy", "imcoh"), m
            assert np.mean(np.abs(A - B) > 1e-3) < 0.01, m
        else:
            _assert_close_where_conditioned(B, A, y, src, tgt, m)


def test_epochs_bits_do_not_depend_on_threads_or_blocks(monkeypatch):
    data = _epochs(5, 4, 600)
    kw = dict(sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS, method=["coh", "cohy", "plv", "ppc", "dpli",
                                                      "wpli2_debiased"], output="array")
    one = spectral_connectivity_epochs(data, n_jobs=1, **kw)
    for n_jobs in (2, 8):
        for a, b in zip(one, spectral_connectivity_epochs(data, n_jobs=n_jobs, **kw)):
            np.testing.assert_array_equal(a, b)
    # four frequencies and one epoch at a time: the same sums (the transform of one frequency
    # alone may round differently from the same frequency among others)
    monkeypatch.setattr(connectivity._epochs, "_EPOCH_BLOCK_BYTES", 2 * 4 * 600 * 16)
    for m, a, b in zip(kw["method"], one, spectral_connectivity_epochs(data, n_jobs=2, **kw)):
        if m != "dpli":
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-9, err_msg=m)


def test_epochs_nan_makes_its_channels_pairs_nan_where_the_wavelets_reach():
    data = _epochs(4, 4, 800)
    kw = dict(sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS, method=["coh", "plv", "wpli"], output="array",
              indices=([1, 2, 3], [0, 0, 2]))
    clean = spectral_connectivity_epochs(data, **kw)
    bad = data.copy()
    bad[1, 3, 400] = np.nan
    for c, g in zip(clean, spectral_connectivity_epochs(bad, **kw)):
        np.testing.assert_array_equal(g[:2], c[:2])            # the pairs without channel 3
        assert np.all(np.isnan(g[2, :, 400]))                  # the pair (3, 2) at the NaN
        assert np.all(np.isfinite(g[2, -1, :300]))             # and far from it at 45 Hz


def test_epochs_data_rules():
    data = _epochs(3, 3, 600)
    kw = dict(sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS[:3], method=["coh", "wpli"], output="array")
    ints = np.round(data).astype(np.int32)
    for a, b in zip(spectral_connectivity_epochs(ints, **kw),
                    spectral_connectivity_epochs(ints.astype(float), **kw)):
        np.testing.assert_array_equal(a, b)
    wide = _epochs(3, 6, 600)
    for a, b in zip(spectral_connectivity_epochs(wide[:, ::2], **kw),
                    spectral_connectivity_epochs(np.ascontiguousarray(wide[:, ::2]), **kw)):
        np.testing.assert_array_equal(a, b)
    base = spectral_connectivity_epochs(data, **kw)
    for scale in (2.0 ** 600, 2.0 ** -600):
        for a, b in zip(base, spectral_connectivity_epochs(data * scale, **kw)):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kw,match", [
    (dict(method="gc"), "not recognized.*multivariate"),
    (dict(method="coherence"), "not recognized"),
    (dict(method=[]), "method"),
    (dict(mode="multitaper"), "mode='cwt_morlet'"),
    (dict(mode="fourier"), "mode='cwt_morlet'"),
    (dict(sfreq=None), "sfreq"),
    (dict(sfreq=-1.0), "sfreq"),
    (dict(cwt_freqs=None), "cwt_freqs"),
    (dict(cwt_freqs=[200.0]), "Nyquist"),
    (dict(cwt_freqs=[np.nan]), "cwt_freqs"),
    (dict(cwt_freqs=[1.0]), "no frequency points"),
    (dict(fmin=(5.0, 10.0), fmax=20.0), "same length"),
    (dict(fmin=30.0, fmax=20.0), "fmax"),
    (dict(fdecim=0), "fdecim"),
    (dict(tmin=1.0, tmax=0.5), "tmin"),
    (dict(tmin=np.nan), "tmin"),
    (dict(n_jobs=0), "n_jobs"),
    (dict(cwt_n_cycles=[7.0, 7.0, 7.0]), "cwt_n_cycles"),
    (dict(cwt_n_cycles=-1.0), "cwt_n_cycles"),
    (dict(indices=[0, 1]), "tuple"),
    (dict(indices=([0], [1, 2])), "same length"),
    (dict(indices=([0], [9])), "indices"),
    (dict(output="xarray"), "output"),
    (dict(data=np.zeros((0, 3, 400))), "shape"),
    (dict(data=np.zeros((2, 400))), "shape"),
])
def test_epochs_bad_arguments_are_refused_by_name(kw, match):
    args = dict(data=_epochs(2, 3, 400), mode="cwt_morlet", cwt_freqs=[10.0, 20.0], sfreq=SFREQ)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        spectral_connectivity_epochs(**args)


def test_epochs_bad_types_and_warnings():
    data = _epochs(2, 2, 400)
    kw = dict(sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=[10.0, 20.0], output="array")
    with pytest.raises(TypeError, match="real numeric"):
        spectral_connectivity_epochs(data + 1j, **kw)
    with pytest.raises(TypeError, match="integers"):
        spectral_connectivity_epochs(data, indices=([[0, 1]], [[1, 0]]), **kw)
    with pytest.raises(TypeError, match="fdecim"):
        spectral_connectivity_epochs(data, fdecim=1.5, **kw)

    class Epochs:      # not MNE's: its get_data is not what MNE's means
        def get_data(self):
            return data

    with pytest.raises(TypeError, match="data must be an array, an Epochs"):
        spectral_connectivity_epochs(Epochs(), **kw)
    with pytest.warns(RuntimeWarning, match="5 cycles"):
        spectral_connectivity_epochs(data, fmin=2.0, **kw)
    with pytest.warns(RuntimeWarning, match="5 cycles"), \
            pytest.raises(ValueError, match="longer than the signal"):
        spectral_connectivity_epochs(data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=[1.5], fmin=1.0)
    with pytest.warns(RuntimeWarning, match="tmax"):
        spectral_connectivity_epochs(data, tmax=10.0, **kw)
    # the default fmin (five cycles in the window, 3.1 Hz here) leaves the lower frequencies out
    con = spectral_connectivity_epochs(data, method="coh", sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=[3.0, 20.0],
                                       cwt_n_cycles=3.0, output="object")
    assert list(con.freqs) == [20.0]


def test_epochs_refuse_a_result_beyond_the_limit(monkeypatch):
    monkeypatch.setattr(connectivity_checks, "_MAX_VALUES", 10_000)
    data = _epochs(2, 3, 400)
    with pytest.raises(ValueError, match="more than sftwave returns"):
        spectral_connectivity_epochs(data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=FREQS[1:4],
                                     method="wpli")   # (10-30 Hz: wavelets shorter than 400)
    con = spectral_connectivity_epochs(data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=[30.0, 45.0], method="wpli",
                                       tmin=0.0, tmax=0.5, output="array")   # 9 x 2 x 126: fits
    assert con.shape == (9, 2, 126)


def test_engine_selects_the_pair_kernels():
    """``engine=`` as in gaussian_filter: 'numba' is the default for arrays; an engine without
    the connectivity operations says so (UnsupportedOperation, a ValueError) before any work;
    an unknown name is refused naming ``engine``."""
    from sftwave import engines

    data = _epochs(2, 3, 400)
    calls = [
        lambda **kw: csd_array_morlet(data, SFREQ, [10.0], output="array", **kw),
        lambda **kw: spectral_connectivity_time(data, [10.0, 20.0], sfreq=SFREQ, method="plv",
                                                output="array", **kw),
        lambda **kw: spectral_connectivity_epochs(data, sfreq=SFREQ, mode="cwt_morlet", cwt_freqs=[10.0, 20.0],
                                                  output="array", **kw),
    ]
    for call in calls:
        np.testing.assert_array_equal(call(engine="numba"), call())
        np.testing.assert_array_equal(call(engine="auto"), call())
        with pytest.raises(ValueError, match="engine.*got 'gpu'"):
            call(engine="gpu")
        if engines.available("xp"):
            with pytest.raises(engines.UnsupportedOperation, match="engine='xp'.*'numba'"):
                call(engine="xp")


def test_one_parser_of_sfreq_and_n_cycles():
    from sftwave._checks.spectral import check_n_cycles, check_sfreq

    assert check_sfreq(np.float32(250.0)) == 250.0
    for bad in (0.0, -1.0, np.inf, np.nan, True, "250"):
        with pytest.raises(ValueError, match="sfreq must be a positive number; got"):
            check_sfreq(bad)
    with pytest.raises(ValueError, match="required with array input"):
        check_sfreq(None, required=True)
    with pytest.raises(ValueError, match="sfreq must be a float or an int"):
        check_sfreq("250", wording="mne")
    np.testing.assert_array_equal(check_n_cycles(5, 3), [5.0, 5.0, 5.0])
    np.testing.assert_array_equal(check_n_cycles([3, 4, 5], 3, keep=np.array([1, 0, 1], bool)),
                                  [3.0, 5.0])
    with pytest.raises(ValueError, match="n_cycles must be positive and finite"):
        check_n_cycles([3.0, -1.0], 2)
    with pytest.raises(ValueError, match="got 2 cycles instead"):
        check_n_cycles([3.0, 4.0], 3, wording="mne")
    with pytest.raises(ValueError, match="n_cycles must be positive and finite, got -1.0"):
        check_n_cycles([3.0, -1.0], 2, wording="mne")
