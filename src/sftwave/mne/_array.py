"""MNE's ``tfr_array_morlet``: the array function under :mod:`sftwave.mne`'s objects."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np

from .._checks.spectral import TFR_OUTPUTS, TfrRequest, tfr_request
from ..ndimage import gaussian_filter1d
from ..wavelets import epoch_sums, scaled_cwt

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["tfr_array_morlet", "OUTPUTS"]

#: MNE's ``output`` values.
OUTPUTS = TFR_OUTPUTS

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


def _sftwave_norm(sigma: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """``B = C_xi / (pi^(1/4) sqrt(sigma))``: sftwave's wavelet is ``B g (exp(...) - kappa)``."""
    C = 1.0 / np.sqrt(1.0 + np.exp(-xi * xi) - 2.0 * np.exp(-0.75 * xi * xi))
    return C / (math.pi ** 0.25 * np.sqrt(sigma))


class _Wavelets(NamedTuple):
    """MNE's wavelets in sftwave's terms: MNE's ``W = scale psi + A kappa g`` (the last term
    where ``zero_mean=False``), ``psi`` sftwave's wavelet of ``sigma`` samples."""

    A: np.ndarray
    gsum: np.ndarray
    sigma: np.ndarray
    scale: np.ndarray
    kappa: np.ndarray


#: :func:`_wavelets` by its request's sampling rate, frequencies, cycles and zero mean (the
#: arrays read-only), for the next call with the same wavelets.  At most ``_WAVELETS_SIZE``.
_WAVELETS: dict[tuple, _Wavelets] = {}
_WAVELETS_SIZE = 256


def _wavelets(req: TfrRequest) -> _Wavelets:
    freqs = np.asarray(req.freqs, dtype=np.float64)
    n_cycles = np.asarray(req.n_cycles, dtype=np.float64)
    key = (float(req.sfreq), freqs.tobytes(), n_cycles.tobytes(), bool(req.zero_mean))
    hit = _WAVELETS.get(key)
    if hit is not None:
        return hit
    A, gsum, _ = _mne_wavelet_norms(req.sfreq, req.freqs, req.n_cycles, req.zero_mean)
    sigma = req.n_cycles * req.sfreq / (2.0 * math.pi * req.freqs)        # samples
    scale = A / _sftwave_norm(sigma, req.n_cycles)              # MNE's W = scale * psi (+ offset)
    kappa = np.exp(-0.5 * req.n_cycles * req.n_cycles)          # sftwave's wavelet's offset
    found = _Wavelets(A, gsum, sigma, scale, kappa)
    for a in found:
        a.flags.writeable = False
    if len(_WAVELETS) >= _WAVELETS_SIZE:
        _WAVELETS.clear()
    _WAVELETS[key] = found
    return found


class _Decim(NamedTuple):
    """MNE's ``decim`` (a slice) as the engine's: every ``step``-th sample of the epochs after
    ``front`` zeros, from the ``first0``-th on, ``n_out`` of them."""

    decim: slice
    front: int
    first0: int
    step: int
    n_out: int


def _decim_plan(decim: slice, n_times: int) -> _Decim:
    """MNE's kept samples ``n = kept[0] + i step`` are every step-th sample of the epochs after
    ``front`` zeros (exact: MNE pads with zeros, as ``mode='constant'`` does), from the
    ``first0``-th of those on: the engine's own ``decim``, whatever the slice."""
    kept = range(n_times)[decim]
    n_out = len(kept)
    step = decim.step or 1
    if step > 0 and n_out:
        front = (-kept[0]) % step
        return _Decim(decim, front, (kept[0] + front) // step, step, n_out)
    return _Decim(decim, 0, 0, 1, n_out)


def _padded(data: np.ndarray, front: int) -> np.ndarray:
    """The epochs after ``front`` zeros (the data themselves where there are none)."""
    if not front:
        return data
    n_epochs, n_chans, n_times = data.shape
    padded = np.zeros((n_epochs, n_chans, front + n_times), np.result_type(data.dtype, np.float32))
    padded[..., front:] = data
    return padded


def _kept(y: np.ndarray, d: _Decim) -> np.ndarray:
    """MNE's kept samples of the engine's output on the padded epochs (a view where all are)."""
    if d.step == 1 and (d.decim.step or 1) != 1:      # a slice the engine cannot take: kept here
        return y[..., d.decim]
    if d.first0 == 0 and y.shape[-1] == d.n_out:
        return y
    return y[..., d.first0:d.first0 + d.n_out]


def _coefficients(x: np.ndarray, req: TfrRequest, w: _Wavelets, d: _Decim) -> np.ndarray:
    """MNE's complex coefficients of the lines of ``x`` (..., n_times): (..., freqs, n_out)."""
    y = scaled_cwt(x, req.freqs, req.sfreq, xi=req.n_cycles, output="complex", factors=w.scale,
                   decim=d.step, workers=req.workers, tol=req.tol, single_state=True)
    if not req.zero_mean:
        # MNE's W = A g e = (A / B) psi + A kappa g: sftwave's psi carries kappa
        for i in range(req.freqs.size):
            smooth = cast(np.ndarray, gaussian_filter1d(x.astype(np.float64, copy=False),
                                                        float(w.sigma[i]), mode="constant"))
            y[..., i, :] += (w.A[i] * w.kappa[i] * w.gsum[i]) * smooth[..., ::d.step]
    return _kept(y, d)


def _single_trial(padded: np.ndarray, req: TfrRequest, w: _Wavelets, d: _Decim) -> np.ndarray:
    """'complex', 'power' and 'phase'."""
    if req.output in ("power", "phase") and req.zero_mean:
        # MNE's wavelet is a positive multiple of sftwave's: its power and phase come
        # straight from the engine, without the complex array
        return _kept(scaled_cwt(padded, req.freqs, req.sfreq, xi=req.n_cycles, output=req.output,
                                factors=w.scale, decim=d.step, workers=req.workers, tol=req.tol,
                                single_state=True), d)
    y = _coefficients(padded, req, w, d)
    if req.output == "power":
        return y.real ** 2 + y.imag ** 2
    if req.output == "phase":      # contiguous parts: numpy 1.24's arctan2 varied with strides
        return np.arctan2(np.ascontiguousarray(y.imag), np.ascontiguousarray(y.real))
    return y


def _averaged_by_engine(padded: np.ndarray, req: TfrRequest, w: _Wavelets,
                        d: _Decim) -> np.ndarray | None:
    """The averaged outputs as the engine adds the epochs' power and phasors while it computes
    them (MNE's wavelet is a positive multiple of sftwave's: the phasors are sftwave's, the
    power scaled); None where the engine cannot (non-finite epochs)."""
    n_epochs = padded.shape[0]
    kind = {"avg_power": "sum_power", "itc": "sum_unit", "avg_power_itc": "sum_power_unit"}[req.output]
    sums = epoch_sums(padded, req.freqs, req.sfreq, xi=req.n_cycles, kind=kind, decim=d.step,
                      tol=req.tol, workers=req.workers, single_state=True)
    if sums is None:
        return None
    sums = _kept(sums, d) if kind != "sum_power_unit" else np.moveaxis(
        _kept(np.moveaxis(sums, -1, 0), d), 0, -1)
    power_scale = (w.scale * w.scale)[:, None] / n_epochs
    if kind == "sum_power":
        return sums * power_scale
    if kind == "sum_unit":
        return np.hypot(sums.real, sums.imag) / n_epochs
    out = np.empty(sums.shape[:-1], np.complex128)
    out.real = sums[..., 0] * power_scale
    out.imag = np.hypot(sums[..., 1], sums[..., 2]) / n_epochs
    return out


def _averaged_by_blocks(padded: np.ndarray, req: TfrRequest, w: _Wavelets, d: _Decim) -> np.ndarray:
    """The averaged outputs (zero_mean=False, or non-finite epochs) from the complex
    coefficients: blocks of channels, all epochs of each, accumulated."""
    n_epochs, n_chans, _ = padded.shape
    output = req.output
    per_chan = n_epochs * req.freqs.size * d.n_out * 16
    block = max(1, min(n_chans, _BLOCK_BYTES // max(per_chan, 1)))
    out = np.empty((n_chans, req.freqs.size, d.n_out),
                   np.complex128 if output == "avg_power_itc" else np.float64)
    for c0 in range(0, n_chans, block):
        y = _coefficients(padded[:, c0:c0 + block], req, w, d)     # (epochs, block, freqs, n_out)
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


def tfr_array_morlet(data: ArrayLike, sfreq: float, freqs: ArrayLike, n_cycles: float | ArrayLike = 7.0,
                     zero_mean: bool | None = True, use_fft: bool = True, decim: int | slice = 1,
                     output: str = "complex", n_jobs: int | None = None, *,
                     verbose: bool | str | int | None = None, tol: float | None = None) -> np.ndarray:
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
    tol : float or None, optional
        sftwave's accuracy target (relative kernel error, :func:`sftwave.cwt`).
        None (default): 1e-5 for the outputs that depend on the phase of every
        coefficient ('phase', 'itc', 'avg_power_itc'), 1e-4 (with the
        recursions in float32, as for :func:`sftwave.cwt`'s single-precision
        output) for 'complex', 'power' and 'avg_power'.  Below 1e-4 the
        recursions run in float64 (1e-5: within about 1e-5 of MNE's per row,
        MNE's truncation being the rest), about 1.5-2 times slower.

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
    At the default ``tol``, against MNE's own function on EEG-like data and on
    white noise (``tests/test_mne.py``, ``tests/test_mne_objects.py``): power,
    'complex' and 'avg_power' within 5e-4 relative RMS per row, each value
    within 2e-3 of its row's RMS; the ITC within 1e-3 at every point; 'phase'
    within 1e-4 radians RMS weighted by the power (the phase of a coefficient
    near zero is arbitrary in both).  What is left is MNE's truncation of its
    wavelets at 5 sigma and ``tol``.  The measured sizes are in the guide
    (:doc:`/guide/mne`).

    Examples
    --------
    >>> import numpy as np
    >>> data = np.random.default_rng(0).standard_normal((4, 2, 1000))
    >>> power = tfr_array_morlet(data, 250.0, [8.0, 12.0, 20.0], n_cycles=5.0,
    ...                          output="avg_power", decim=2)
    >>> power.shape, power.dtype
    ((2, 3, 500), dtype('float64'))
    """
    req = tfr_request(data, sfreq, freqs, n_cycles, zero_mean, use_fft, decim, output, n_jobs, tol)
    data = np.asarray(data)
    w = _wavelets(req)
    d = _decim_plan(req.decim, data.shape[-1])
    padded = _padded(data, d.front)
    if req.output in ("complex", "power", "phase"):
        return _single_trial(padded, req, w, d)
    if req.zero_mean and data.shape[0]:
        out = _averaged_by_engine(padded, req, w, d)
        if out is not None:
            return out
    return _averaged_by_blocks(padded, req, w, d)
