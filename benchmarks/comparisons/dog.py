"""The DOG (Mexican hat) CWT: sftwave's ``wavelet='mexh'`` against pycwt's ``DOG(2)`` and PyWavelets' 'mexh'.

:func:`dog`: pycwt's use (a series of ``n`` samples, red noise, at pycwt's
default scales for ``DOG(2)``: ``s0 = 2 dt / flambda``, ``dj = 1/12``,
``J = log2(n dt / s0) / dj``: 156 scales at n = 4,000, 212 at 1e5), the same
scales given to every tool: sftwave at their Fourier frequencies (its rows'
scales are pycwt's), PyWavelets at the scales in samples (its 'mexh' has
``sigma = a``), both its methods at n = 4,000 and the FFT alone at 1e5 (its
direct convolution's cost grows with the scale).  Times are medians of calls
taking turns (:func:`~.common.alternate`).

Accuracy: each tool's rows against the exact transform of the definition
(T&C's sampled wavelet, zero padding, a float64 FFT convolution over
``|k| <= 13 sigma``) on rows of ``sigma >= 2`` samples (below, pycwt's
wavelet, sampled in frequency, and PyWavelets', integrated and differenced,
differ from the sampled one by their own discretisations), away from the
ends by 14 sigma (pycwt pads to a power of two); each row first scaled by
the number that fits it best (the tools' normalisations differ: pycwt's is
T&C's, PyWavelets' is ``-sqrt(a)`` times a differenced integral); a tool's
figure is its worst row.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.signal

import sftwave

from .common import alternate, anchor, load_average, rel_rmse


def _red_noise(n: int, alpha: float = 0.7) -> np.ndarray:
    e = np.random.default_rng(11).standard_normal(n)
    x = scipy.signal.lfilter([1.0], [1.0, -alpha], e)
    return (x - x.mean()) / x.std()


def _exact_row(x: np.ndarray, sigma: float) -> np.ndarray:
    """T&C's eq. 2 with the sampled Mexican hat, zero padding: ``sigma^-1/2 sum_k x[n+k] psi(k/sigma)``."""
    R = int(math.ceil(13 * sigma + 10))
    u = np.arange(-R, R + 1) / sigma
    psi = (1 - u * u) * np.exp(-u * u / 2) / math.sqrt(math.gamma(2.5)) / math.sqrt(sigma)
    # correlation with psi (even): a convolution, 'same' keeps the centre
    return scipy.signal.fftconvolve(x, psi, mode="full")[R:R + x.size]


def _fitted_error(y: np.ndarray, ref: np.ndarray) -> float:
    """Relative RMSE of ``y`` scaled by the real number that fits it best to ``ref``."""
    c = float(np.dot(y, ref) / np.dot(y, y)) if np.dot(y, y) > 0 else 1.0
    return rel_rmse(c * y, ref)


def dog(quick: bool) -> dict:
    """sftwave's Mexican hat against pycwt's DOG(2) and PyWavelets' 'mexh' (module docstring)."""
    pycwt = anchor("pycwt")
    pywt = anchor("PyWavelets")
    res: dict = {"load_start": load_average(), "cases": []}
    if pycwt is None:
        res["skipped"] = "pycwt not installed"
        return res
    dt, dj = 1.0, 1.0 / 12.0
    mother = pycwt.DOG(2)
    s0 = 2 * dt / mother.flambda()
    for n in ((4000, 20_000) if quick else (4000, 100_000)):
        x = _red_noise(n)
        W, scales, freqs, *_ = pycwt.cwt(x, dt, dj, s0, -1, mother)
        sig = scales / dt
        calls = {
            "sftwave": lambda x=x, f=freqs: sftwave.cwt(x, f, 1 / dt, wavelet="mexh", mode="constant"),
            "pycwt": lambda x=x: pycwt.cwt(x, dt, dj, s0, -1, mother),
        }
        if pywt is not None:
            calls["PyWavelets fft"] = lambda x=x, s=sig: pywt.cwt(x, s, "mexh", method="fft")
            if n <= 10_000:
                calls["PyWavelets conv"] = lambda x=x, s=sig: pywt.cwt(x, s, "mexh", method="conv")
        rounds = 3 if quick or n > 10_000 else 7
        case: dict = {"n": n, "scales": int(scales.size), "load_start": load_average(),
                      "times": alternate(calls, rounds)}
        case["load_end"] = load_average()
        # accuracy on a dozen rows of sigma >= 2 samples, away from the ends
        rows = [int(i) for i in np.unique(np.linspace(0, scales.size - 1, 12).round())
                if sig[int(i)] >= 2.0 and 28 * sig[int(i)] < n / 2]
        ours = calls["sftwave"]()
        outs = {"sftwave": ours, "pycwt": W.real}
        if pywt is not None:
            outs["PyWavelets fft"] = pywt.cwt(x, sig, "mexh", method="fft")[0]
        errors: dict = {name: 0.0 for name in outs}
        errors["sftwave, no fit"] = 0.0
        for i in rows:
            inner = slice(int(14 * sig[i]), n - int(14 * sig[i]))
            ref = _exact_row(x, float(sig[i]))[inner]
            for name, y in outs.items():
                errors[name] = max(errors[name], _fitted_error(y[i, inner], ref))
            errors["sftwave, no fit"] = max(errors["sftwave, no fit"], rel_rmse(ours[i, inner], ref))
        case["errors"] = errors
        case["rows_checked"] = len(rows)
        res["cases"].append(case)
    res["load_end"] = load_average()
    return res
