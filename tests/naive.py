"""Slow, obviously correct reference implementations for the test suite.

Nothing here uses sftwave: every function is a direct transcription of a
definition, written for clarity rather than speed, so that the fast code can be
checked against it.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "NP_PAD_MODES",
    "naive_components",
    "extend",
    "exact_kernel",
    "exact_support",
    "exact_gaussian_filter1d",
    "rel_rmse",
    "dense_correlate1d",
    "kernel_rel_error",
    "exact_morlet",
    "exact_morlet_transform",
    "exact_dog",
    "exact_dog_transform",
    "cdelta_by_definition",
    "walk_rel_error",
    "sliding_sum_naive",
    "reach",
    "exact_morlet_derivative",
    "naive_ssq_cwt",
    "boxcar_weight",
    "naive_coherence",
]

#: scipy.ndimage boundary mode -> the np.pad mode that reproduces it.
#: (scipy's 'reflect' repeats the edge sample, which is numpy's 'symmetric';
#: scipy's 'mirror' does not, which is numpy's 'reflect'.)
NP_PAD_MODES = {
    "reflect": "symmetric",
    "grid-mirror": "symmetric",
    "mirror": "reflect",
    "nearest": "edge",
    "wrap": "wrap",
    "grid-wrap": "wrap",
    "constant": "constant",
    "grid-constant": "constant",
}


def naive_components(x_ext, omegas, alpha, L):
    """The bank components by their defining double sum.

    ``S_p[n] = sum_{j=0}^{L-1} w_p**j * x_ext[n + L - 1 - j]`` with
    ``w_p = exp(-alpha - 1j*omega_p)``, for ``n = 0 .. len(x_ext) - L``.
    ``w_p**j`` is evaluated as ``exp(-alpha*j - 1j*omega_p*j)`` (no recursion,
    so no accumulated rounding).  Returns shape (P, len(x_ext) - L + 1).
    """
    x_ext = np.asarray(x_ext, dtype=np.float64)
    omegas = np.atleast_1d(np.asarray(omegas, dtype=np.float64))
    n_out = x_ext.size - L + 1
    S = np.zeros((omegas.size, max(n_out, 0)), dtype=np.complex128)
    if n_out <= 0:
        return S
    for p, om in enumerate(omegas):
        for j in range(L):
            wj = np.exp(-alpha * j - 1j * om * j)
            # x_ext[n + L - 1 - j] for n = 0 .. n_out - 1
            S[p] += wj * x_ext[L - 1 - j : L - 1 - j + n_out]
    return S


def extend(x, pad_before, pad_after, mode, cval=0.0):
    """Extend a 1-D signal as scipy.ndimage does for ``mode``, via np.pad.

    ``extend(x, a, b, mode)[i]`` is the value scipy.ndimage uses at position
    ``i - a`` of ``x`` (valid for any pad, also longer than ``x``).
    """
    x = np.asarray(x)
    np_mode = NP_PAD_MODES[mode]
    if np_mode == "wrap":
        # by its definition, x[i mod n]: numpy < 2's np.pad repeats the wrong samples where a
        # pad is longer than x and not a multiple of its length
        return x[np.arange(-pad_before, x.size + pad_after) % x.size]
    if np_mode == "constant":
        return np.pad(x, (pad_before, pad_after), mode="constant", constant_values=cval)
    return np.pad(x, (pad_before, pad_after), mode=np_mode)


def exact_kernel(sigma, order, k):
    """The exact sampled Gaussian kernel (order 0) or its 1st / 2nd derivative at lags ``k``.

    ``G[k] = sqrt(g/pi) exp(-g k^2)``, ``g = 1/(2 sigma^2)``;
    ``G_D = -2 g k G``; ``G_DD = (4 g^2 k^2 - 2 g) G``.  A convolution kernel:
    ``y[n] = sum_k G[k] x[n - k]``.
    """
    k = np.asarray(k, dtype=np.float64)
    g = 1.0 / (2.0 * sigma * sigma)
    G = math.sqrt(g / math.pi) * np.exp(-g * k * k)
    if order == 0:
        return G
    if order == 1:
        return -2.0 * g * k * G
    if order == 2:
        return (4.0 * g * g * k * k - 2.0 * g) * G
    raise ValueError(order)


def exact_support(sigma):
    """Half-width R of the reference kernel: |k| <= 13 sigma + 10.

    Beyond it the kernel is below exp(-84.5) of its peak, so the truncation is
    far below float64 rounding.
    """
    return int(math.ceil(13.0 * sigma + 10.0))


def _exact_1d(x, sigma, order, mode, cval):
    R = exact_support(sigma)
    k = np.arange(-R, R + 1)
    G = exact_kernel(sigma, order, k)
    xe = extend(np.asarray(x, dtype=np.float64), R, R, mode, cval)
    # np.convolve(xe, G, 'valid')[n] = sum_k G[k] xe[n + R - k] = sum_k G[k] x[n - k]
    return np.convolve(xe, G, mode="valid")


def exact_gaussian_filter1d(x, sigma, order=0, mode="reflect", cval=0.0, axis=-1):
    """Reference Gaussian filter: exact sampled kernel, exact extension, direct sum.

    Computed in float64 (complex input: real and imaginary parts separately),
    the kernel taken over ``|k| <= exact_support(sigma)``.  The cost is
    ``len(x) * (26 sigma + 21)`` per line, so keep ``len(x)`` modest for large
    sigma.
    """
    x = np.asarray(x)
    if np.iscomplexobj(x):
        return (exact_gaussian_filter1d(x.real, sigma, order, mode, cval, axis)
                + 1j * exact_gaussian_filter1d(x.imag, sigma, order, mode, cval, axis))
    x = x.astype(np.float64)
    if x.size == 0:
        return x.copy()
    return np.apply_along_axis(_exact_1d, axis, x, sigma, order, mode, cval)


def rel_rmse(a, b):
    """Relative RMSE of ``a`` against the reference ``b``: sqrt(sum|a-b|^2 / sum|b|^2)."""
    a = np.asarray(a, dtype=np.complex128 if np.iscomplexobj(a) else np.float64)
    b = np.asarray(b, dtype=np.complex128 if np.iscomplexobj(b) else np.float64)
    return float(np.sqrt(np.sum(np.abs(a - b) ** 2) / np.sum(np.abs(b) ** 2)))


def kernel_rel_error(h, sigma, order):
    """Relative RMSE of a centred kernel ``h`` (length 2r+1, lags -r..r) against the exact one.

    Summed over the whole support of the exact kernel (h is zero beyond r).
    """
    h = np.asarray(h, dtype=np.float64)
    r = h.size // 2
    R = exact_support(sigma) + r
    full = np.zeros(2 * R + 1)
    full[R - r : R + r + 1] = h
    return rel_rmse(full, exact_kernel(sigma, order, np.arange(-R, R + 1)))


# --------------------------------------------------------------------------- Morlet wavelet


def exact_morlet(sigma, xi, k):
    """The sampled dilated Morlet wavelet ``psi_{sigma,xi}[k]`` from its formula.

    ``C / (pi^(1/4) sqrt(sigma)) exp(-k^2 / (2 sigma^2)) (exp(i xi k / sigma) - kappa)``
    with ``kappa = exp(-xi^2/2)`` and ``C = (1 + exp(-xi^2) - 2 exp(-3 xi^2/4))^(-1/2)``:
    unit energy and zero mean in the continuous limit.  A convolution kernel:
    ``y[n] = sum_k psi[k] x[n - k]``.
    """
    k = np.asarray(k, dtype=np.float64)
    kappa = math.exp(-xi * xi / 2.0)
    C = 1.0 / math.sqrt(1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-3.0 * xi * xi / 4.0))
    u = k / sigma
    envelope = C / (math.pi**0.25 * math.sqrt(sigma)) * np.exp(-u * u / 2.0)
    return envelope * (np.cos(xi * u) - kappa) + 1j * envelope * np.sin(xi * u)


def exact_morlet_transform(x, sigma, xi, mode="reflect", cval=0.0):
    """Reference Morlet transform of a 1-D signal: exact wavelet, exact extension, direct sum.

    ``y[n] = sum_k psi[k] x_ext[n - k]`` over ``|k| <= exact_support(sigma)``
    (13 sigma + 10: beyond it the envelope is below exp(-84.5)), with the
    signal extended by ``mode`` as scipy.ndimage extends it (``extend``).
    Complex input is extended as one complex signal, so with ``mode='constant'``
    its padding is the number ``cval`` (real ``cval``: the imaginary part is
    padded with zeros, as scipy.ndimage does for complex input).  Always
    complex128.  Cost ``len(x) * (26 sigma + 21)``.
    """
    x = np.asarray(x)
    if x.ndim != 1:
        raise ValueError("exact_morlet_transform takes a 1-D signal")
    x = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    if x.size == 0:
        return np.zeros(0, dtype=np.complex128)
    R = exact_support(sigma)
    psi = exact_morlet(sigma, xi, np.arange(-R, R + 1))
    xe = extend(x, R, R, mode, cval)
    # np.convolve(xe, h, 'valid')[n] = sum_k h[k] xe[n + R - k] = sum_k h[k] x[n - k]
    return np.convolve(xe, psi, mode="valid")


# --------------------------------------------------------------------------- DOG wavelets


def exact_dog(m, eta):
    """Torrence & Compo's DOG wavelet of order ``m`` (Table 1), from its formula.

    ``psi_0(eta) = (-1)^(m+1) / sqrt(Gamma(m + 1/2)) d^m/deta^m exp(-eta^2/2)``, the
    derivative written with the probabilists' Hermite polynomial:
    ``d^m/deta^m exp(-eta^2/2) = (-1)^m He_m(eta) exp(-eta^2/2)``.
    """
    from numpy.polynomial.hermite_e import hermeval

    eta = np.asarray(eta, dtype=np.float64)
    coef = np.zeros(m + 1)
    coef[m] = 1.0
    deriv = (-1.0) ** m * hermeval(eta, coef) * np.exp(-eta * eta / 2.0)
    return (-1.0) ** (m + 1) / math.sqrt(math.gamma(m + 0.5)) * deriv


def exact_dog_transform(x, sigma, m, mode="reflect", cval=0.0):
    """Reference DOG transform of a 1-D real signal at a scale of ``sigma`` samples (T&C's eq. 2).

    ``W[n] = sigma^(-1/2) sum_k x_ext[n + k] psi_0(k / sigma)`` over
    ``|k| <= exact_support(sigma)``, the signal extended by ``mode`` (``extend``).
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError("exact_dog_transform takes a 1-D signal")
    R = exact_support(sigma)
    k = np.arange(-R, R + 1)
    psi = exact_dog(m, k / sigma) / math.sqrt(sigma)
    xe = extend(x, R, R, mode, cval)
    # np.correlate(xe, psi, 'valid')[n] = sum_j xe[n + j] psi[j] = sum_k x[n + k] psi_0(k / sigma)
    return np.correlate(xe, psi, mode="valid")


def cdelta_by_definition(psi_hat, psi00, n=8192, s0=1e-3, dj=1 / 32, s_max=2000.0):
    """Torrence & Compo's ``C_delta`` (eq. 13) computed literally, ``dt = 1``.

    ``C_delta = dj / psi_0(0) sum_j Re W_delta(s_j) / sqrt(s_j)`` with the
    transform of a delta by their eq. 12, ``W_delta(s) = 1/n sum_k
    conj(psi_hat(s omega_k)) sqrt(2 pi s)`` over the ``n`` frequencies of the
    FFT (``psi_hat`` the wavelet's Fourier transform at unit scale, of the
    paper's normalisation), scales ``s_j = s0 2^(j dj)`` up to ``s_max``.
    """
    omega = 2 * np.pi * np.fft.fftfreq(n)
    J = int(math.log2(s_max / s0) / dj)
    total = 0.0
    for j in range(J + 1):
        s = s0 * 2.0 ** (j * dj)
        w_delta = np.mean(np.conj(np.sqrt(2 * np.pi * s) * psi_hat(s * omega)))
        total += w_delta.real / math.sqrt(s)
    return dj / psi00 * total


def walk_rel_error(h, ref):
    """Relative RMSE, for a random-walk input, of a kernel ``h`` against ``ref`` (same lags).

    A random walk ``x = cumsum(e)`` (white ``e``) filtered by ``h`` is
    ``cumsum(h) * e``, so the expected relative error of the output is
    ``||cumsum(h - ref)|| / ||cumsum(ref)||``.  Both arrays must cover the
    whole support of ``ref`` (and be zero-mean to rounding, so that the
    running sums end at zero).
    """
    h = np.asarray(h, dtype=np.complex128)
    ref = np.asarray(ref, dtype=np.complex128)
    return float(np.sqrt(np.sum(np.abs(np.cumsum(h - ref)) ** 2) / np.sum(np.abs(np.cumsum(ref)) ** 2)))


# --------------------------------------------------------------------------- sliding sum


def sliding_sum_naive(f, L, axis=-1):
    """``h[n] = sum_{k<L} f[n + k]`` along ``axis``, one window at a time, in float64.

    Returns ``max(N - L + 1, 0)`` entries along ``axis``.  Integer-valued
    inputs give exact sums (float64 holds integers up to 2**53 exactly).
    """
    f = np.moveaxis(np.asarray(f, dtype=np.float64), axis, -1)
    n_out = max(f.shape[-1] - L + 1, 0)
    h = np.zeros(f.shape[:-1] + (n_out,))
    for n in range(n_out):
        h[..., n] = np.sum(f[..., n : n + L], axis=-1)
    return np.moveaxis(h, -1, axis)


# --------------------------------------------------------------------------- non-finite input


def reach(n, bad, left, right, mode):
    """Outputs of a line of ``n`` whose window ``x[i - left] .. x[i + right]``, extended by
    ``mode`` (``extend``), reads one of the positions ``bad``: the outputs a direct
    convolution with that support makes non-finite.  A box convolution of the extended
    indicator (a support longer than ``2 n + 2`` reads nothing more)."""
    ind = np.zeros(n)
    ind[list(bad)] = 1.0
    lo, hi = min(left, 2 * n + 2), min(right, 2 * n + 2)
    ext = extend(ind, lo, hi, mode, 0.0)
    return np.convolve(ext, np.ones(lo + hi + 1), mode="valid") > 0.5


def dense_correlate1d(x, weights, axis=-1, mode="reflect", cval=0.0):
    """``y[n] = sum_j weights[j] x_ext[n + j - c]`` along ``axis`` (``c = len(weights) // 2``), float64.

    scipy.ndimage.correlate1d's definition for an odd kernel, summed directly
    over the extended line (:func:`extend`), one tap at a time.
    """
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    w = np.asarray(weights, dtype=np.float64)
    c = w.size // 2
    out = np.zeros(x.shape)
    n = x.shape[-1]
    for idx in np.ndindex(x.shape[:-1]):
        xe = extend(x[idx], c, c, mode, cval)
        for j in range(w.size):
            out[idx] += w[j] * xe[j:j + n]
    return np.moveaxis(out, -1, axis)


# --------------------------------------------------------------------------- synchrosqueezing


def exact_morlet_derivative(sigma, xi, k):
    """``d/dk`` of :func:`exact_morlet`, from the formula (complex).

    ``psi(k) = E(k) (e^{i xi k / sigma} - kappa)`` with ``E`` the Gaussian
    envelope, so ``psi'(k) = -k / sigma^2 psi(k) + E(k) (i xi / sigma) e^{i xi k / sigma}``.
    """
    k = np.asarray(k, dtype=np.float64)
    C = 1.0 / math.sqrt(1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-3.0 * xi * xi / 4.0))
    u = k / sigma
    envelope = C / (math.pi**0.25 * math.sqrt(sigma)) * np.exp(-u * u / 2.0)
    return -k / (sigma * sigma) * exact_morlet(sigma, xi, k) + envelope * (1j * xi / sigma) * np.exp(1j * xi * u)


def naive_ssq_cwt(x, freqs, fs, xi, bins, log_bins, gamma, mode="reflect", unit=False):
    """Synchrosqueezing by its definition, one coefficient at a time (1-D ``x``).

    ``W`` and ``dW`` by dense convolution with the exact wavelet and its
    exact derivative (``exact_support``, the extension of ``extend``); the
    scale ``sigma = xi fs / (2 pi f)``; each coefficient with
    ``|W| / sqrt(sigma) > gamma`` and frequency ``f = fs Im(dW / W) / (2 pi)``
    goes to the nearest bin (in ``log f`` where ``log_bins``) if within half
    a bin of the first or last, adding ``W / sqrt(sigma) * |d log sigma|``
    (``np.gradient``), or that weight over the number of scales where ``unit``.
    Returns the bins x time array and the transform (rows of ``W``).
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    freqs = np.asarray(freqs, dtype=np.float64)
    sigma = xi * fs / (2.0 * math.pi * freqs)
    dlog = np.abs(np.gradient(np.log(sigma)))
    bins = np.asarray(bins, dtype=np.float64)
    u = np.log(bins) if log_bins else bins
    T = np.zeros((bins.size, n), dtype=np.complex128)
    Ws = np.zeros((freqs.size, n), dtype=np.complex128)
    for s, sg in enumerate(sigma):
        R = exact_support(sg)
        k = np.arange(-R, R + 1)
        xe = extend(x, R, R, mode)
        W = np.convolve(xe, exact_morlet(sg, xi, k), mode="valid")
        dW = np.convolve(xe, exact_morlet_derivative(sg, xi, k), mode="valid")
        Ws[s] = W
        for t in range(n):
            if not abs(W[t]) / math.sqrt(sg) > gamma:
                continue
            f = fs * (dW[t] / W[t]).imag / (2.0 * math.pi)
            if log_bins and f <= 0:
                continue
            pos = ((math.log(f) if log_bins else f) - u[0]) / (u[1] - u[0])
            if not -0.5 < pos < bins.size - 0.5:
                continue
            b = int(math.floor(pos + 0.5))
            weight = dlog[s] / math.sqrt(sg)
            T[b, t] += dlog[s] / freqs.size if unit else weight * W[t]
    return T, Ws


# --------------------------------------------------------------------------- wavelet coherence


def boxcar_weight(u, i, j, width):
    """Weight of row ``j`` in the scale boxcar of row ``i``, before normalisation.

    The rows sit at ``u`` (log2 of their scales); row ``j`` owns the cell from
    the midpoint to its lower neighbour to the midpoint to its upper one (an
    end row: half its one spacing outward).  The weight is the length of that
    cell inside ``[u[i] - width/2, u[i] + width/2]``, by a literal loop.
    """
    order = sorted(range(len(u)), key=lambda r: u[r])
    pos = order.index(j)
    us = [u[r] for r in order]
    if len(us) == 1:
        lo, hi = us[0] - 0.5, us[0] + 0.5
    else:
        below = us[pos - 1] if pos > 0 else 2 * us[pos] - us[pos + 1]
        above = us[pos + 1] if pos + 1 < len(us) else 2 * us[pos] - us[pos - 1]
        lo, hi = (below + us[pos]) / 2, (us[pos] + above) / 2
    a, b = u[i] - width / 2, u[i] + width / 2
    return max(0.0, min(hi, b) - max(lo, a))


def naive_coherence(x, y, sigmas, xi, width=0.6, mode="reflect"):
    """Squared wavelet coherence and smoothed cross-spectrum by their definitions.

    Rows: exact Morlet transforms (dense convolution) at scales ``sigmas``
    (samples); each of ``|Wx|^2/s``, ``|Wy|^2/s`` and ``Wx conj(Wy)/s`` is
    smoothed in time by the exact Gaussian of sigma ``s`` (dense convolution,
    extension by ``mode``), then across rows by :func:`boxcar_weight`
    normalised per row, in a double loop.  Returns ``(R2, S_xy)``.
    """
    sigmas = [float(s) for s in sigmas]
    m = len(sigmas)
    Wx = [exact_morlet_transform(x, s, xi, mode) for s in sigmas]
    Wy = [exact_morlet_transform(y, s, xi, mode) for s in sigmas]
    t = [[exact_gaussian_filter1d(v, s, mode=mode) for v in
          (np.abs(a) ** 2 / s, np.abs(b) ** 2 / s, a * np.conj(b) / s)]
         for a, b, s in zip(Wx, Wy, sigmas)]
    u = [math.log2(s) for s in sigmas]
    out = []
    for i in range(m):
        w = [boxcar_weight(u, i, j, width) for j in range(m)]
        tot = sum(w)
        out.append([sum(w[j] / tot * t[j][q] for j in range(m)) for q in range(3)])
    r2 = np.array([np.abs(o[2]) ** 2 / (o[0] * o[1]) for o in out])
    return r2, np.array([o[2] for o in out])


# --------------------------------------------------------------------------- superlets


def naive_superlet(x, freqs, fs, order_max, order_min=1, c_1=3.0, adaptive=False,
                   multiplicative=True, mode="reflect", cval=0.0):
    """Moca et al.'s superlet magnitude by its definition: a double loop over frequencies
    and orders, each wavelet a direct convolution.

    The wavelet of ``c`` cycles at ``f``: ``2 / (sqrt(2 pi) s) exp(-k^2 / (2 s^2))
    exp(2 pi i f k / fs)``, ``s = c fs / (5 f)`` samples, summed over
    ``|k| <= 13 s + 10`` on the signal extended by ``mode``.  Orders: ``order_max``
    everywhere, or (``adaptive``) ``order_min + (order_max - order_min) (f - f_min) /
    (f_max - f_min)``; order ``o`` multiplies the moduli of orders ``order_min ..
    floor(o)`` and that of ``floor(o) + 1`` to the power ``o - floor(o)``, and takes the
    ``1 / (o - order_min + 1)``-th root.  Cycles ``c_1 i`` or ``c_1 + i - 1``.  A 1-D
    signal, real or complex; returns (freqs, n) float64.
    """
    x = np.asarray(x)
    x = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    freqs = np.asarray(freqs, dtype=np.float64)
    out = np.zeros((freqs.size, x.size))
    for i, f in enumerate(freqs):
        if adaptive:
            o = order_min + (order_max - order_min) * (f - freqs.min()) / (freqs.max() - freqs.min())
        else:
            o = float(order_max)
        log_sum, total = np.zeros(x.size), 0.0
        for order in range(order_min, order_max + 1):
            if order <= math.floor(o):
                w = 1.0
            elif order == math.floor(o) + 1:
                w = o - math.floor(o)
            else:
                w = 0.0
            if w == 0.0:
                continue
            c = c_1 * order if multiplicative else c_1 + order - 1
            s = c * fs / (5.0 * f)
            R = int(math.ceil(13.0 * s + 10.0))
            k = np.arange(-R, R + 1)
            psi = (2.0 / (math.sqrt(2.0 * math.pi) * s) * np.exp(-k * k / (2.0 * s * s))
                   * np.exp(2j * math.pi * f * k / fs))
            W = np.convolve(extend(x, R, R, mode, cval), psi, mode="valid")
            log_sum += w * np.log(np.abs(W))
            total += w
        out[i] = np.exp(log_sum / total)
    return out


def naive_blob_log_response(image, sigma, spacing, truncate=8.0):
    """blob_log's response at one physical ``sigma`` (scalar) with ``spacing`` per axis, by its
    definition: ``-sigma**2`` times the physical Laplacian of the Gaussian of ``sigma / spacing``
    samples per axis, the second derivative along axis i (scipy's ``gaussian_filter``,
    ``order=2`` along i, ``mode='reflect'``) divided by ``spacing[i]**2``, summed over the axes
    (scipy's ``gaussian_laplace`` where every spacing is 1).  ``truncate``: scipy's kernel
    half-width in sigmas (8: truncation ~1e-14)."""
    from scipy import ndimage as ndi

    x = np.asarray(image, dtype=np.float64)
    samples = [sigma / d for d in spacing]
    lap = np.zeros_like(x)
    for axis, d in enumerate(spacing):
        order = [0] * x.ndim
        order[axis] = 2
        lap += ndi.gaussian_filter(x, samples, order, mode="reflect", truncate=truncate) / d**2
    return -(sigma**2) * lap
