"""MNE's ``tfr_array_morlet``, computed by sftwave: the same signature, outputs and errors.

Switching is one line::

    from sftwave.mne import tfr_array_morlet      # was: from mne.time_frequency import ...

:func:`tfr_array_morlet` gives MNE's numbers (its wavelet, its normalisation
to a norm of sqrt(2) over its samples, its zero padding, ``zero_mean``,
``decim`` as an int or a slice, every ``output``) at sftwave's cost, which
does not grow with the wavelet's length.  MNE need not be installed: this
module only mirrors its API.

How MNE's wavelet is sftwave's.  MNE's wavelet at frequency ``f`` is
``W = A g (exp(2 pi i f t) - k)`` on ``|t| < 5 sigma_t`` (``sigma_t =
n_cycles / (2 pi f)``, ``g`` the Gaussian of that width, ``k = exp(-n_cycles^2
/ 2)`` with ``zero_mean=True`` and 0 without), ``A`` making the samples' norm
sqrt(2).  sftwave's unit-energy wavelet is ``psi = B g (exp(...) - k)`` with
``xi = n_cycles`` (:mod:`sftwave.wavelets`).  So MNE's transform is
``(A / B) cwt(x)`` with ``zero_mean=True``, and with ``zero_mean=False``
``(A / B) cwt(x) + A k (g * x)``, the last term a Gaussian smoothing
(:func:`sftwave.gaussian_filter1d`); both with zero padding
(``mode='constant'``).  ``A`` is computed from MNE's own samples, so the only
difference is MNE's truncation at 5 sigma (a kernel error of about 4e-6) and
sftwave's own accuracy (``tol``, default 1e-4 here, with the recursions in
float32 as for :func:`sftwave.cwt`'s single-precision output: rows within
about 1e-4 of MNE's; ``tol=1e-5`` runs them in float64, within about 1e-5, at
about half the speed).  ``A / B`` is folded into the plans' output weights.

The averaged outputs (``'avg_power'``, ``'itc'``, ``'avg_power_itc'``) are
added over the epochs inside the engine's kernel (its summing kinds: the sum
of ``|y|^2`` and of ``y / |y|`` per channel, frequency and kept sample), with
``zero_mean=True`` and finite data; with ``zero_mean=False`` (whose Gaussian
term the kernel does not compute) or non-finite samples they are accumulated
from the complex coefficients over blocks of channels (at most about 64 MB
of them at once).  ``decim`` as a slice ``start::step`` runs as the engine's
own ``decim`` on the epochs after ``(-start) % step`` zeros (exact: MNE pads
with zeros).
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from .ndimage import gaussian_filter1d
from .wavelets import epoch_sums, scaled_cwt

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["tfr_array_morlet", "OUTPUTS"]

#: MNE's ``output`` values.
OUTPUTS = ("complex", "power", "phase", "avg_power", "itc", "avg_power_itc")

#: The complex coefficients held at once for the averaged outputs (bytes).
_BLOCK_BYTES = 64 << 20


#: Samples of MNE's half-wavelets held at once by :func:`_mne_wavelet_norms` (a block of
#: frequencies' half-wavelets side by side; one longer half-wavelet makes a block alone).
_NORM_BLOCK = 1 << 20


def _mne_wavelet_norms(sfreq: float, freqs: np.ndarray, n_cycles: np.ndarray,
                       zero_mean: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each frequency, from MNE's own samples: the norm factor ``A``, the sum of ``g``
    and the wavelet's length (as ``mne.time_frequency.morlet`` builds it).

    MNE's samples are ``t = k / sfreq`` for ``|k| < half``, ``half`` the length of
    ``np.arange(0, 5 sigma_t, 1 / sfreq)``; ``g`` and ``|exp(2 pi i f t) - k|`` are even in
    ``t``, so each sum is its ``k = 0`` term plus twice those of ``k > 0``.  The samples of
    all frequencies side by side, in blocks of about :data:`_NORM_BLOCK` (one loop over the
    frequencies in Python cost some 10 ms for 200 of them).

    Examples
    --------
    >>> f, nc = np.array([8.0, 30.0]), np.array([5.0, 7.0])
    >>> A, gsum, length = _mne_wavelet_norms(250.0, f, nc, True)
    >>> sigma_t = nc[1] / (2 * np.pi * f[1])
    >>> t = np.arange(0.0, 5.0 * sigma_t, 1.0 / 250.0)
    >>> t = np.r_[-t[::-1], t[1:]]
    >>> g = np.exp(-t ** 2 / (2 * sigma_t ** 2))
    >>> w = (np.exp(2j * np.pi * f[1] * t) - np.exp(-nc[1] ** 2 / 2)) * g
    >>> bool(np.isclose(A[1], 1 / (np.sqrt(0.5) * np.linalg.norm(w)), rtol=1e-13)), int(length[1]), t.size
    (True, 93, 93)
    """
    freqs = np.asarray(freqs, dtype=np.float64)
    n_cycles = np.asarray(n_cycles, dtype=np.float64)
    sigma_t = n_cycles / (2.0 * math.pi * freqs)
    half = np.ceil(5.0 * sigma_t / (1.0 / sfreq)).astype(np.int64)   # np.arange's length
    k = np.exp(-2.0 * (math.pi * freqs * sigma_t) ** 2) if zero_mean else np.zeros(freqs.size)
    A, gsum = np.zeros(freqs.size), np.zeros(freqs.size)
    step = 1.0 / sfreq
    ends = np.cumsum(half)
    i = 0
    while i < freqs.size:              # blocks of frequencies, their samples side by side
        j = max(int(np.searchsorted(ends, ends[i] - half[i] + _NORM_BLOCK, side="right")), i + 1)
        h = half[i:j]
        rows = np.repeat(np.arange(i, j), h)
        starts = np.cumsum(h) - h
        kk = np.arange(rows.size) - np.repeat(starts, h)     # sample k of its frequency
        t = kk * step                                         # np.arange(0, stop, step)'s values
        g = np.exp(-(t ** 2) / (2.0 * sigma_t[rows] ** 2))
        c = k[rows]
        # |exp(2 pi i f t) - k|^2 = 1 - 2 k cos(2 pi f t) + k^2, doubled for k > 0 (t and -t)
        weight = np.where(kk == 0, 1.0, 2.0)
        power = g * g * (1.0 - 2.0 * c * np.cos(2.0 * math.pi * freqs[rows] * t) + c * c)
        live = h > 0
        where = starts[live]
        A[i:j][live] = 1.0 / (math.sqrt(0.5) * np.sqrt(np.add.reduceat(power * weight, where)))
        gsum[i:j][live] = np.add.reduceat(g * weight, where)
        i = j
    length = np.where(half > 0, 2.0 * half - 1.0, 0.0)
    return A, gsum, length


def _mne_wavelet_lengths(sfreq: float, freqs: np.ndarray, n_cycles: np.ndarray) -> np.ndarray:
    """The number of samples of each of MNE's wavelets, without making them.

    ``np.arange(0, 5 sigma_t, 1 / sfreq)`` has ``ceil(5 sigma_t / (1 / sfreq))``
    samples (numpy's own rule); the wavelet mirrors it around zero.

    Examples
    --------
    >>> f, nc = np.array([8.0, 0.01]), np.array([5.0, 5.0])
    >>> bool(_mne_wavelet_lengths(250.0, f, nc)[0] == _mne_wavelet_norms(250.0, f[:1], nc[:1], True)[2][0])
    True
    >>> float(_mne_wavelet_lengths(250.0, f, nc)[1])      # 0.01 Hz: far longer than most signals
    198943.0
    """
    sigma_t = n_cycles / (2.0 * math.pi * freqs)
    half = np.ceil(5.0 * sigma_t / (1.0 / sfreq))      # np.arange(0.0, 5 sigma_t, 1 / sfreq).size
    return np.maximum(2.0 * half - 1.0, 0.0)


def _sftwave_norm(sigma: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """``B = C_xi / (pi^(1/4) sqrt(sigma))``: sftwave's wavelet is ``B g (exp(...) - kappa)``."""
    C = 1.0 / np.sqrt(1.0 + np.exp(-xi * xi) - 2.0 * np.exp(-0.75 * xi * xi))
    return C / (math.pi ** 0.25 * np.sqrt(sigma))


def _check(data: Any, sfreq: Any, freqs: Any, n_cycles: Any, zero_mean: Any, use_fft: Any, decim: Any,
           output: Any) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, bool, slice]:
    """MNE's checks, in MNE's order and with its messages (ValueError throughout)."""
    data = np.asarray(data)
    if data.ndim != 3:
        raise ValueError("epoch_data must be of shape (n_epochs, n_chans, n_times), got "
                         f"{data.shape}")
    if not isinstance(freqs, (list, np.ndarray)):
        raise ValueError(f"freqs must be an array-like, got {type(freqs)} instead.")
    freqs = np.asarray(freqs, dtype=float)
    if freqs.ndim != 1:
        raise ValueError(f"freqs must be of shape (n_freqs,), got {np.array(freqs.shape)} "
                         "instead.")
    if isinstance(sfreq, bool) or not isinstance(sfreq, (numbers.Real,)):
        raise ValueError(f"sfreq must be a float or an int, got {type(sfreq)} instead.")
    sfreq = float(sfreq)
    zero_mean = False if zero_mean is None else zero_mean
    if not isinstance(zero_mean, bool):
        raise ValueError(f"zero_mean should be of type bool, got {type(zero_mean)}. instead")
    if isinstance(n_cycles, numbers.Real) and not isinstance(n_cycles, bool):
        n_cycles = np.full(freqs.size, float(n_cycles))
    elif isinstance(n_cycles, (list, np.ndarray)):
        n_cycles = np.array(n_cycles, dtype=float)
        if len(n_cycles) != len(freqs):
            raise ValueError("n_cycles must be a float or an array of length "
                             f"{len(freqs)} frequencies, got {len(n_cycles)} cycles instead.")
    else:
        raise ValueError(f"n_cycles must be a float or an array, got {type(n_cycles)} instead.")
    if n_cycles.ndim != 1:
        raise ValueError(f"n_cycles must be a float or an array of shape (n_freqs,), got shape "
                         f"{n_cycles.shape} instead.")
    bad = ~np.isfinite(n_cycles) | (n_cycles <= 0)
    if bad.any():
        raise ValueError(f"n_cycles must be positive and finite, got {float(n_cycles[bad][0])!r} "
                         "instead.")
    if not isinstance(use_fft, bool):
        raise ValueError(f"use_fft must be a boolean, got {type(use_fft)} instead.")
    if isinstance(decim, numbers.Integral) and not isinstance(decim, bool):
        decim = slice(None, None, int(decim))
    if not isinstance(decim, slice):
        raise ValueError(f"decim must be an integer or a slice, got {type(decim)} instead.")
    if output not in OUTPUTS:
        raise ValueError(f"Invalid value for the 'output' parameter. Allowed values are "
                         f"{', '.join(repr(o) for o in OUTPUTS)}, but got {output!r} instead.")
    if np.any(freqs <= 0):
        raise ValueError("all frequencies in 'freqs' must be greater than 0.")
    if (freqs > sfreq / 2.0).any():
        raise ValueError("Cannot compute freq above Nyquist freq of the data "
                         f"({sfreq / 2.0:0.1f} Hz), got {freqs.max():0.1f} Hz")
    return data, sfreq, freqs, n_cycles, zero_mean, decim


def tfr_array_morlet(data: ArrayLike, sfreq: float, freqs: ArrayLike, n_cycles: float | ArrayLike = 7.0,
                     zero_mean: bool | None = True, use_fft: bool = True, decim: int | slice = 1,
                     output: str = "complex", n_jobs: int | None = None, *,
                     verbose: bool | str | int | None = None, tol: float = 1e-4) -> np.ndarray:
    """Time-frequency representation by Morlet wavelets, as ``mne.time_frequency.tfr_array_morlet``.

    Parameters
    ----------
    data : array of shape (n_epochs, n_channels, n_times)
        The epochs.
    sfreq : float or int
        Sampling frequency of the data.
    freqs : array-like of float, shape (n_freqs,)
        The frequencies, each in ``(0, sfreq / 2]``.
    n_cycles : float or array-like of float, shape (n_freqs,)
        Cycles of the wavelet: one for all frequencies, or one per frequency
        (MNE's ``freqs / 2`` idiom).  sftwave's ``xi``.
    zero_mean : bool or None
        Subtract the wavelet's mean (MNE's default since 1.8: True; None
        means False, as MNE took it before).
    use_fft : bool
        Accepted for MNE's signature; sftwave computes the same numbers either
        way (neither by FFT nor by direct convolution: by the SFT).
    decim : int or slice
        Keep ``tfr[..., decim]`` (an int ``d`` is ``slice(None, None, d)``);
        the transform is computed before decimating, as MNE does.
    output : {'complex', 'power', 'phase', 'avg_power', 'itc', 'avg_power_itc'}
        Single-trial coefficients, power or phase; or the power averaged over
        epochs, the inter-trial coherence, or both as ``avg_power + 1j * itc``.
    n_jobs : int or None
        Threads (sftwave's ``workers``): None for all, ``-1`` for all, ``k``
        for ``k``.  MNE runs channels in ``n_jobs`` processes instead.
    verbose : bool, str, int or None
        Accepted for MNE's signature (sftwave logs nothing).
    tol : float, optional
        sftwave's accuracy target (relative kernel error, :func:`sftwave.cwt`);
        default 1e-4, :func:`sftwave.cwt`'s own, with the recursions in
        float32 (the rows agree with MNE's within about 1e-4: 3e-5 to 8e-5
        measured on EEG-like data).  Below 1e-4 they run in float64 (1e-5: within
        about 1e-5 of MNE's, MNE's truncation being the rest) at about half
        the speed.

    Returns
    -------
    ndarray
        ``(n_epochs, n_channels, n_freqs, n_times_decim)`` for 'complex',
        'power' and 'phase'; ``(n_channels, n_freqs, n_times_decim)`` for the
        averaged outputs.  complex128 for 'complex' and 'avg_power_itc',
        float64 otherwise, whatever the input's dtype (as MNE).

    Raises
    ------
    ValueError
        For every argument MNE refuses, with MNE's message; also where a
        wavelet is longer than the signal (MNE's check: ten of the wavelet's
        standard deviations, ``10 n_cycles sfreq / (2 pi f)`` samples, must fit
        in the signal; checked before any wavelet is made, so a frequency far
        too low for the signal is refused at once).  To get a result anyway,
        lower that frequency's ``n_cycles`` or pass a longer (padded) signal.
        And for ``n_cycles`` not positive and finite, naming it.

    See Also
    --------
    sftwave.cwt : The transform with sftwave's conventions.
    sftwave.datasets.eeg_epochs : Synthetic EEG epochs to try it on.

    Notes
    -----
    Agrees with MNE's own function within 1e-3 relative RMS per row, for
    'phase' within 1e-3 radians RMS weighted by the power (the phase of a
    coefficient near zero is arbitrary in both), tested against MNE on
    EEG-like 1/f noise and random walks, every output, both ``zero_mean``,
    int and slice ``decim`` (``tests/test_mne.py``); what is left is
    MNE's truncation of its wavelets at 5 sigma and ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.random.default_rng(0).standard_normal((4, 2, 1000))
    >>> power = tfr_array_morlet(data, 250.0, [8.0, 12.0, 20.0], n_cycles=5.0,
    ...                          output="avg_power", decim=2)
    >>> power.shape, power.dtype
    ((2, 3, 500), dtype('float64'))
    """
    data, sfreq, freqs, n_cycles, zero_mean, decim = _check(
        data, sfreq, freqs, n_cycles, zero_mean, use_fft, decim, output)
    n_epochs, n_chans, n_times = data.shape
    length = _mne_wavelet_lengths(sfreq, freqs, n_cycles)
    if length.max(initial=0) > n_times:
        # checked before MNE's samples are made: their number grows with the wavelet's length
        raise ValueError("At least one of the wavelets is longer than the signal "
                         f"({int(length.max())} > {n_times} samples). Use a longer signal or "
                         "shorter wavelets.")
    A, gsum, length = _mne_wavelet_norms(sfreq, freqs, n_cycles, zero_mean)
    workers = None if n_jobs is None or n_jobs == -1 else int(n_jobs)
    sigma = n_cycles * sfreq / (2.0 * math.pi * freqs)        # samples
    scale = A / _sftwave_norm(sigma, n_cycles)                # MNE's W = scale * psi (+ offset)
    sft_kappa = np.exp(-0.5 * n_cycles * n_cycles)            # sftwave's wavelet's offset
    kept = range(n_times)[decim]
    n_out = len(kept)
    step = decim.step or 1
    if step > 0 and n_out:
        # MNE's kept samples n = kept[0] + i step are every step-th sample of the epochs
        # after `front` zeros (exact: MNE pads with zeros, as mode='constant' does), from
        # the first0-th of those on: the engine's own decim, whatever the slice
        front = (-kept[0]) % step
        first0 = (kept[0] + front) // step
    else:
        front, first0, step = 0, 0, 1
    if front:
        padded = np.zeros((n_epochs, n_chans, front + n_times),
                          np.result_type(data.dtype, np.float32))
        padded[..., front:] = data
    else:
        padded = data

    def kept_of(y: np.ndarray) -> np.ndarray:
        """MNE's kept samples of the engine's output on ``padded`` (a view where all are kept)."""
        if step == 1 and (decim.step or 1) != 1:      # a slice the engine cannot take: kept here
            return y[..., decim]
        if first0 == 0 and y.shape[-1] == n_out:
            return y
        return y[..., first0:first0 + n_out]

    def coefficients(x: np.ndarray) -> np.ndarray:
        """MNE's complex coefficients of the lines of ``x`` (..., n_times): (..., freqs, n_out)."""
        y = scaled_cwt(x, freqs, sfreq, xi=n_cycles, output="complex", factors=scale, decim=step,
                       workers=workers, tol=tol, single_state=True)
        if not zero_mean:
            # MNE's W = A g e = (A / B) psi + A kappa g: sftwave's psi carries kappa
            for i in range(freqs.size):
                smooth = gaussian_filter1d(x.astype(np.float64, copy=False), float(sigma[i]),
                                           mode="constant")
                y[..., i, :] += (A[i] * sft_kappa[i] * gsum[i]) * smooth[..., ::step]
        return kept_of(y)

    if output in ("power", "phase") and zero_mean:
        # MNE's wavelet is a positive multiple of sftwave's: its power and phase come
        # straight from the engine, without the complex array
        return kept_of(scaled_cwt(padded, freqs, sfreq, xi=n_cycles, output=output, factors=scale,
                                  decim=step, workers=workers, tol=tol, single_state=True))
    if output in ("complex", "power", "phase"):
        y = coefficients(padded)
        if output == "power":
            return y.real ** 2 + y.imag ** 2
        if output == "phase":      # contiguous parts: numpy 1.24's arctan2 varied with strides
            return np.arctan2(np.ascontiguousarray(y.imag), np.ascontiguousarray(y.real))
        return y
    if zero_mean and n_epochs:
        # the engine adds the epochs' power and phasors as it computes them (MNE's wavelet
        # is a positive multiple of sftwave's: the phasors are sftwave's, the power scaled)
        kind = {"avg_power": "sum_power", "itc": "sum_unit", "avg_power_itc": "sum_power_unit"}[output]
        sums = epoch_sums(padded, freqs, sfreq, xi=n_cycles, kind=kind, decim=step, tol=tol,
                          workers=workers, single_state=True)
        if sums is not None:
            sums = kept_of(sums) if kind != "sum_power_unit" else np.moveaxis(
                kept_of(np.moveaxis(sums, -1, 0)), 0, -1)
            power_scale = (scale * scale)[:, None] / n_epochs
            if kind == "sum_power":
                return sums * power_scale
            if kind == "sum_unit":
                return np.hypot(sums.real, sums.imag) / n_epochs
            out = np.empty(sums.shape[:-1], np.complex128)
            out.real = sums[..., 0] * power_scale
            out.imag = np.hypot(sums[..., 1], sums[..., 2]) / n_epochs
            return out
    # averaged outputs (zero_mean=False, or non-finite epochs): blocks of channels, all
    # epochs of each, accumulated
    per_chan = n_epochs * freqs.size * n_out * 16
    block = max(1, min(n_chans, _BLOCK_BYTES // max(per_chan, 1)))
    out = np.empty((n_chans, freqs.size, n_out),
                   np.complex128 if output == "avg_power_itc" else np.float64)
    for c0 in range(0, n_chans, block):
        y = coefficients(padded[:, c0:c0 + block])           # (epochs, block, freqs, n_out)
        with np.errstate(invalid="ignore", divide="ignore"):
            mag = np.hypot(y.real, y.imag)     # (numpy 1.24's np.abs of complex: bits varied)
            if output != "avg_power":
                unit = (y / mag).sum(axis=0)
                itc = np.hypot(unit.real, unit.imag) / n_epochs
        power = (mag ** 2).sum(axis=0) / n_epochs if output != "itc" else None
        if output == "avg_power":
            out[c0:c0 + block] = power
        elif output == "itc":
            out[c0:c0 + block] = itc
        else:
            out[c0:c0 + block] = power + 1j * itc
    return out
