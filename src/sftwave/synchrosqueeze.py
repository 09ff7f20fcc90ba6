r"""The synchrosqueezed Morlet wavelet transform, streamed over time.

Synchrosqueezing (Daubechies, Lu & Wu 2011; Thakur et al. 2013) moves each
coefficient ``W(a, t)`` of a continuous wavelet transform to the frequency
bin of its instantaneous frequency

.. math::

    \omega(a, t) = \frac{1}{2\pi}\,\mathrm{Im}\,\frac{\partial_t W(a, t)}{W(a, t)},

summing there ``W(a, t)`` times the scale step ``d ln a``: a sharpened
time-frequency picture (which ssqueezepy inverts by
``x(t) = 2/C_psi Re sum_k T(k, t)``; no inverse is offered here yet).

Conventions (ssqueezepy's ``ssq_cwt(x, 'morlet', squeezing='sum')``, so that
the two give the same numbers up to the differences below):

* The wavelet is sftwave's Morlet (:mod:`sftwave.wavelets`), which is
  ssqueezepy's ``morlet(mu=xi)`` in time, and the scale of frequency ``f`` is
  ``a = sigma = xi fs / (2 pi f)`` samples.  ssqueezepy squeezes the
  L1-normalised transform, which is sftwave's unit-energy :func:`sftwave.cwt`
  divided by ``sqrt(sigma)``; so coefficient ``W`` of scale ``sigma`` adds
  ``W / sqrt(sigma) * dlog_sigma`` to its bin, ``dlog_sigma`` the step of
  ``log sigma`` at that scale (``np.gradient``: ssqueezepy's ``log(2) / nv`` on
  a log grid of ``nv`` voices per octave).
* ``dW/dt``: where the wavelet's band is slow (``(xi + 4) / sigma`` below
  ``difference_band``, 0.5 rad/sample at the default ``tol``), the
  sixth-order centred difference of the coefficients
  (``finite_difference``, within ``tol`` relative; lower orders at the
  signal's last three samples), which costs a few operations per
  coefficient; elsewhere the transform by the wavelet's exact time
  derivative, run on the same bank components as the wavelet
  (:mod:`sftwave.plans.derivative`): the same cost per sample as the
  transform itself (``derivative='transform'``: that transform on every
  scale the bank or FIR runs).  Scales whose wavelet is long against the
  signal run by FFT where that costs less and their band is slow
  (``fft=True``).  ssqueezepy multiplies by ``i omega`` in the frequency
  domain (``difftype='trig'``).
* The bins are uniform in frequency or in its logarithm; a coefficient goes
  to the nearest bin (ssqueezepy's ``find_closest``), and is left out where
  its frequency is more than half a bin beyond the first or last bin, or not
  positive with log bins.  ssqueezepy takes ``|omega|`` and clamps
  out-of-range frequencies onto the end bins (its first and last rows then
  gather what belongs to no bin).
* ``gamma``: coefficients with ``|W| / sqrt(sigma) <= gamma`` are left out
  (ssqueezepy's threshold on its L1 coefficients).  The default is
  ``10 eps max|x|``: ssqueezepy's ``10 eps``, for a signal of unit peak, made
  independent of the signal's unit.
* Boundaries: sftwave's ``mode`` (scipy.ndimage's extensions, default
  'reflect'); ssqueezepy pads to a power of two with ``numpy.pad``'s
  'reflect' (sftwave's ``mode='mirror'``).  Columns near the ends differ.

Memory.  The transform is computed by blocks of columns: for each block, the
scales in groups, each group's transform and its derivative over the block
and its wavelets' reach on either side, reassigned into the block's columns
of the output at once (a group: 64 MB of transform and derivative, ending
after whole groups of the bank's lanes where it can).  So the working memory
is about a hundred MB beside the output (which may be an ``np.memmap``),
never scales times length; with the
default block the margins cost at most half the largest scales' own work.
Single-precision output runs the recursions in float32 state as
:func:`sftwave.cwt` does (see ``dtype``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from . import engines
from ._checks import (
    XI_RANGE,
    check_axis,
    check_choice,
    check_cval,
    check_freqs,
    check_input_array,
    check_mode,
    check_out,
    check_positive,
    check_tol,
    check_workers,
    scalogram_dtype,
)
from .engines import nonfinite
from .plans import DEFAULT_MORLET_TOL, FFTPlan, FIRPlan, SFTPlan
from .plans.derivative import derivative_plan
from .plans.select import max_kernel_sigma, select_morlet_scales, wavelet_too_long
from .wavelets import frequency_to_scale

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, DTypeLike

__all__ = ["ssq_cwt", "squeeze_frequencies", "SQUEEZINGS", "DERIVATIVES"]

#: ``squeezing`` of :func:`ssq_cwt`: what a reassigned coefficient adds to its bin (ssqueezepy's names).
SQUEEZINGS = ("sum", "lebesgue")

#: ``derivative`` of :func:`ssq_cwt`: how ``dW/dt`` of the bank's and FIR's scales is computed.
DERIVATIVES = ("auto", "transform")

#: Working memory (bytes) of one group of scales' transform and derivative over a block.
_GROUP_BYTES = 64 << 20
#: The least default block (columns): the margins of the small scales then cost little.
_MIN_BLOCK = 1 << 16


def _uniform(u: np.ndarray) -> bool:
    """Whether ``u`` (at least 2 values) is an arithmetic progression, to 1e-6 of its step."""
    d = np.diff(u)
    return bool(d[0] != 0 and np.all(np.abs(d - d[0]) <= 1e-6 * abs(d[0])))


def _bins(f: np.ndarray, ssq_freqs: Any) -> tuple[np.ndarray, bool]:
    """The bin centres and whether they are log-uniform (else linear-uniform)."""
    if ssq_freqs is None:
        bins = f
        what = "freqs (the default ssq_freqs)"
    elif isinstance(ssq_freqs, str):
        if ssq_freqs not in ("log", "linear"):
            raise ValueError(f"ssq_freqs must be None, 'log', 'linear' or an array of frequencies; "
                             f"got {ssq_freqs!r}")
        lo, hi = float(f.min()), float(f.max())
        bins = np.geomspace(lo, hi, f.size) if ssq_freqs == "log" else np.linspace(lo, hi, f.size)
        return bins, ssq_freqs == "log"
    else:
        try:
            bins = np.asarray(ssq_freqs, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"ssq_freqs must be None, 'log', 'linear' or an array of frequencies; "
                            f"got {ssq_freqs!r}") from exc
        what = "ssq_freqs"
        if bins.ndim != 1 or bins.size < 2 or not np.all(np.isfinite(bins)) or np.any(bins <= 0):
            raise ValueError(f"ssq_freqs must hold at least 2 positive finite frequencies in 1-D; "
                             f"got {ssq_freqs!r}")
    if bins.size >= 2 and _uniform(np.log(bins)):
        return bins, True
    if bins.size >= 2 and _uniform(bins):
        return bins, False
    raise ValueError(f"{what} must be uniformly spaced in frequency or in its logarithm (the bins); "
                     f"got {bins!r}; pass ssq_freqs='log' or 'linear' or such an array")


def squeeze_frequencies(freqs: ArrayLike, ssq_freqs: Any = None) -> np.ndarray:
    """The frequencies of the rows of :func:`ssq_cwt` (the bins' centres) for these arguments.

    Parameters
    ----------
    freqs : sequence of float
        The transform's frequencies (as :func:`ssq_cwt`).
    ssq_freqs : None, 'log', 'linear' or sequence of float, optional
        As :func:`ssq_cwt`: None, ``freqs`` themselves (which must then be
        uniformly spaced, linearly or logarithmically); 'log' or 'linear',
        ``len(freqs)`` bins from the lowest to the highest of ``freqs``,
        increasing; an array, those bins in that order.

    Returns
    -------
    ndarray
        One frequency per row, float64.

    See Also
    --------
    ssq_cwt : The transform whose rows these are.

    Examples
    --------
    >>> squeeze_frequencies([0.4, 0.1, 0.2], "log").round(3).tolist()
    [0.1, 0.2, 0.4]
    """
    f = check_freqs(freqs, math.inf)
    return _bins(f, ssq_freqs)[0].copy()


def _scale_weights(sigma: np.ndarray) -> np.ndarray:
    """``|d log sigma|`` at each scale (``np.gradient``: one-sided at the ends)."""
    return np.abs(np.gradient(np.log(sigma)))


def _reach(plan: SFTPlan | FIRPlan | FFTPlan) -> tuple[int, int]:
    """Samples before and after an output that the plan reads (at least 3: the differences)."""
    if isinstance(plan, SFTPlan):
        return max(plan.pad_before, 3), max(plan.lag, 3)
    return max(plan.radius, 3), max(plan.radius, 3)


def finite_difference(W: np.ndarray) -> np.ndarray:
    """``dW/dn`` along the last axis by the centred sixth-order difference (lower orders at the ends).

    ``(45 (W[n+1] - W[n-1]) - 9 (W[n+2] - W[n-2]) + (W[n+3] - W[n-3])) / 60``;
    the fourth- and second-order centred differences one and two samples
    from an end, and the second-order one-sided difference at the ends.
    For ``W = exp(i omega n)`` the centred one is ``i omega (1 - e)`` with
    ``|e| <= omega^6 / 140`` (``omega`` in radians per sample).

    Examples
    --------
    >>> W = np.exp(0.3j * np.arange(12))
    >>> bool(np.allclose(finite_difference(W)[3:-3], 0.3j * W[3:-3], rtol=6e-6, atol=0))
    True
    """
    d = np.zeros(W.shape, dtype=np.complex128)
    m = W.shape[-1]
    if m < 3:
        if m == 2:
            d[..., 0] = d[..., 1] = W[..., 1] - W[..., 0]
        return d
    d[..., 1:-1] = 0.5 * (W[..., 2:] - W[..., :-2])
    if m >= 5:
        d[..., 2:-2] = (8.0 * (W[..., 3:-1] - W[..., 1:-3]) - (W[..., 4:] - W[..., :-4])) / 12.0
    if m >= 7:
        d[..., 3:-3] = (45.0 * (W[..., 4:-2] - W[..., 2:-4]) - 9.0 * (W[..., 5:-1] - W[..., 1:-5])
                        + (W[..., 6:] - W[..., :-6])) / 60.0
    d[..., 0] = 0.5 * (-3.0 * W[..., 0] + 4.0 * W[..., 1] - W[..., 2])
    d[..., -1] = 0.5 * (3.0 * W[..., -1] - 4.0 * W[..., -2] + W[..., -3])
    return d


def difference_band(tol: float) -> float:
    """The highest frequency (radians per sample) of a wavelet's band whose sixth-order
    difference errs by at most ``tol`` relative: ``min(0.5, (140 tol)^(1/6))``."""
    return min(0.5, (140.0 * tol) ** (1.0 / 6.0))


def _groups(reach: np.ndarray, block: int, rows: int, itemsize: int = 16,
            lanes: np.ndarray | None = None, lane_multiple: int = 1) -> list[tuple[int, int]]:
    """Consecutive ranges of scales whose transform and derivative over a block fit the budget.

    ``itemsize``: bytes per coefficient of the working rows (16 complex128, 8
    complex64).  ``lanes``: the bank's lanes of each scale (its transform, and
    its derivative's where that is a transform; 0 for scales the FFT or FIR
    runs); a group ends, where it can, after a multiple of ``lane_multiple``
    lanes (the lane engine runs them in groups side by side, whose empty
    places cost as much as full ones), else where the budget ends it.  The
    ranges depend on the arguments alone (never on the threads).
    """
    S = reach.shape[0]
    per = np.zeros(S, np.int64) if lanes is None else np.asarray(lanes, np.int64)
    out: list[tuple[int, int]] = []
    s0 = 0
    while s0 < S:
        s1 = s0 + 1
        while s1 < S:
            width = block + int(reach[s0:s1 + 1].sum(axis=1).max())
            if 2 * (s1 + 1 - s0) * rows * width * itemsize > _GROUP_BYTES:
                break
            s1 += 1
        if s1 < S and lane_multiple > 1:
            count = np.cumsum(per[s0:s1]) * rows          # lanes of the groups s0 .. s0 + i + 1
            whole = np.flatnonzero((count % lane_multiple == 0) & (count > 0))
            if whole.size:
                s1 = s0 + int(whole[-1]) + 1
        out.append((s0, s1))
        s0 = s1
    return out


def ssq_cwt(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    xi: float = 6.0,
    ssq_freqs: Any = None,
    squeezing: str = "sum",
    gamma: float | None = None,
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    block: int | None = None,
    out: np.ndarray | None = None,
    return_cwt: bool = False,
    fft: bool = True,
    derivative: str = "auto",
    workers: int | None = None,
) -> Any:
    """Synchrosqueezed continuous Morlet wavelet transform, with bounded working memory.

    Each coefficient of ``cwt(x, freqs, fs, xi=xi)``, L1-normalised (over
    ``sqrt(sigma)``) and weighted by its scale step ``d log sigma``, is added
    to the frequency bin of its instantaneous frequency
    ``Im(dW/dt / W) fs / (2 pi)``, ``dW/dt`` the transform by the wavelet's
    exact time derivative (module docstring: the conventions, ssqueezepy's
    and where they differ).

    Parameters
    ----------
    x : array_like
        Real signal(s): any number of leading channel axes; ``axis`` is time.
        Integer and bool input is taken as float64.
    freqs : sequence of float
        The transform's frequencies (at least 2, strictly increasing or
        decreasing), in the unit of ``fs``, each in ``(0, fs/2]``.  The scale
        of ``f`` is ``sigma = xi fs / (2 pi f)`` samples.
    fs : float, optional
        Sampling rate (default 1: cycles per sample).
    xi : float, optional
        Radians per standard deviation of the wavelet (default 6; ssqueezepy's
        ``mu``, MNE's ``n_cycles``), one value in ``[0.01, 300]``.
    ssq_freqs : None, 'log', 'linear' or sequence of float, optional
        The bins (rows of the result), uniform in frequency or in its
        logarithm: None (default), ``freqs`` themselves (which must then be
        so spaced); 'log' or 'linear', ``len(freqs)`` bins from the lowest to
        the highest of ``freqs``, increasing; or an array of them, in its
        order (:func:`squeeze_frequencies` gives them).
    squeezing : {'sum', 'lebesgue'}, optional
        What a coefficient adds to its bin: 'sum' (default), its weighted
        value (the invertible transform); 'lebesgue', its weight over the
        number of scales (ssqueezepy's: a count of the phase's votes).
    gamma : float, optional
        Coefficients with ``|W| / sqrt(sigma) <= gamma`` are not reassigned
        (their phase is noise).  Default ``10 eps max|x|`` (float64 ``eps``).
    axis : int, optional
        The time axis of ``x``.  Default -1.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap', ...}, optional
        The signal's extension beyond its ends, as in :func:`sftwave.cwt`
        (default 'reflect'; 'wrap' is computed in one block).
    cval : float, optional
        The extension's value for ``mode='constant'``.  Default 0.
    tol : float, optional
        Each wavelet's kernel error, as in :func:`sftwave.cwt` (default 1e-4);
        the derivative's kernel has about the same.
    dtype : numpy dtype, optional
        Of the result: complex128 (default; complex64 for float32 input), or
        complex64.  The bins add in ``dtype``.  At complex64 with ``tol`` at
        least 1e-4 the recursions run as :func:`sftwave.cwt`'s at complex64
        (the ASFT in float32 state: each coefficient within about 5e-5 more of
        the exact one, so about 1 % of the energy near bin edges changes bins);
        otherwise in float64.
    block : int, optional
        Columns per block (default: at least 65536, and twice the widest
        wavelet's reach, at most the signal; a given ``block`` is raised to
        the widest reach): the working memory is about a hundred MB whatever
        ``block``; a smaller one only costs more margins.
    out : ndarray, optional
        A C-contiguous array of the result's shape and dtype (for example an
        ``np.memmap`` of a result too large for memory) to write into and
        return; written block by block, left to right.
    return_cwt : bool, optional
        Also return the transform itself, ``cwt(x, freqs, fs, xi=xi,
        mode=mode)`` (to rounding, sftwave's unit-energy normalisation), which
        takes ``len(freqs)`` times the signal's memory.  Default False.
    fft : bool, optional
        Whether the scales whose wavelet is long against the signal may run by
        FFT where it costs less than the bank (as :func:`sftwave.cwt`'s
        ``method='auto'``; default True), provided their band is slow enough
        (``(xi + 4) / sigma`` radians per sample at most
        ``difference_band`` ``(tol)``) for their derivative to be the
        sixth-order difference of the coefficients
        (``finite_difference``, within ``tol`` relative).  False: every
        scale by its bank or FIR (slower where windows exceed the signal).
    derivative : {'auto', 'transform'}, optional
        ``dW/dt`` of the scales the bank or FIR runs: 'auto' (default), the
        sixth-order difference of the coefficients where their band is slow
        enough (as for the FFT scales; within ``tol`` relative), else the
        transform by the wavelet's exact derivative on the same bank
        components; 'transform', that transform on every such scale (twice
        the bank's work; the FFT scales still take the difference).
    workers : int, optional
        Threads (scipy.fft's convention), for this call only.

    Returns
    -------
    ndarray or tuple of ndarray
        Shape ``x.shape`` without ``axis``, then ``(len(bins), n)``: row ``k``
        is the frequency ``squeeze_frequencies(freqs, ssq_freqs)[k]``.  With
        ``return_cwt``, ``(result, W)``, ``W`` of shape ``(..., len(freqs), n)``.
        A column whose coefficients read a NaN or infinity of ``x`` at any scale
        (within the widest wavelet's window of it) is NaN.

    Raises
    ------
    ValueError, TypeError
        For a bad argument, naming it and echoing its value; as :func:`sftwave.cwt`
        for a wavelet far wider than the signal.

    See Also
    --------
    squeeze_frequencies : The frequencies of the rows.
    sftwave.cwt : The transform that is squeezed.
    sftwave.dask.ssq_cwt : The same on a dask array, lazily, for records longer than memory.

    Notes
    -----
    The cost is that of :func:`sftwave.cwt` at the same frequencies, again
    for the derivative transforms of the fast bands (the slow bands' take a
    difference of a few operations per coefficient), plus one pass over the
    coefficients for the reassignment; the margins of the blocks add at most
    half the largest scales' work.

    Examples
    --------
    A linear chirp from 0.02 to 0.12 cycles per sample: its ridge follows
    the instantaneous frequency.

    >>> import numpy as np
    >>> n = 4000
    >>> t = np.arange(n)
    >>> x = np.cos(2 * np.pi * (0.02 * t + 0.05 * t**2 / (2 * n)))
    >>> freqs = np.geomspace(0.01, 0.25, 96)
    >>> T = ssq_cwt(x, freqs)
    >>> T.shape
    (96, 4000)
    >>> ridge = freqs[np.abs(T).argmax(axis=0)]
    >>> expected = 0.02 + 0.05 * t / n
    >>> bool(np.all(np.abs(ridge[200:-200] / expected[200:-200] - 1) < 0.04))
    True
    """
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    if f.size < 2:
        raise ValueError(f"freqs must hold at least 2 frequencies (the scale steps); got {freqs!r}")
    d = np.diff(f)
    if not (np.all(d > 0) or np.all(d < 0)):
        raise ValueError(f"freqs must be strictly increasing or decreasing; got {freqs!r}")
    if np.ndim(xi) != 0:
        raise TypeError(f"xi must be one real number for ssq_cwt; got {xi!r}")
    xi = check_positive(xi, "xi")
    if not XI_RANGE[0] <= xi <= XI_RANGE[1]:
        raise ValueError(f"xi must be in [{XI_RANGE[0]:g}, {XI_RANGE[1]:g}] (the Morlet designs' "
                         f"range); got {xi!r}")
    bins, log_bins = _bins(f, ssq_freqs)
    squeezing = check_choice(squeezing, SQUEEZINGS, "squeezing")
    derivative = check_choice(derivative, DERIVATIVES, "derivative")
    if gamma is not None:
        gamma = check_positive(gamma, "gamma", allow_zero=True)
    mode = check_mode(mode)
    cval = check_cval(cval)
    tol = check_tol(tol)
    tol = DEFAULT_MORLET_TOL if tol is None else tol
    workers = check_workers(workers)
    for name, flag in (("return_cwt", return_cwt), ("fft", fft)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {flag!r}")
    if block is not None:
        if isinstance(block, (bool, np.bool_)) or not isinstance(block, (int, np.integer)):
            raise TypeError(f"block must be None or a positive integer; got {block!r}")
        if block < 1:
            raise ValueError(f"block must be a positive integer; got {block!r}")
    arr = check_input_array(x, "x")
    if arr.dtype.kind == "c":
        raise TypeError("ssq_cwt takes a real signal; got a complex x (squeeze its real and "
                        "imaginary parts apart)")
    if arr.ndim == 0:
        raise ValueError("x must have at least one axis (time); got a scalar")
    axis = check_axis(axis, arr.ndim)
    out_dtype = scalogram_dtype(dtype, arr.dtype in (np.float32, np.float16), "complex")
    if out_dtype not in (np.complex64, np.complex128):
        raise ValueError(f"dtype must be complex64 or complex128; got {out_dtype}")
    moved = np.moveaxis(arr, axis, -1)
    lead, n = moved.shape[:-1], int(moved.shape[-1])
    C = math.prod(lead)
    shape = (*lead, bins.size, n)
    if out is None:
        result = np.zeros(shape, dtype=out_dtype)
    else:
        result = check_out(out, shape, out_dtype)
    sigma = frequency_to_scale(f, fs, xi)
    limit = max_kernel_sigma(n)
    for i, s in enumerate(sigma):
        if s > limit:
            raise ValueError(wavelet_too_long(f"freqs (its {float(f[i])!r} with fs={fs!r})",
                                              float(s), xi, n))
    W_all = np.zeros((*lead, f.size, n), dtype=out_dtype) if return_cwt else None
    if n == 0 or C == 0:
        if out is not None:
            result[...] = 0
        return (result, W_all) if return_cwt else result

    eng = engines.get("numba")
    data = np.ascontiguousarray(moved.reshape(C, n), dtype=np.float64)
    bad = ~np.isfinite(data)
    any_bad = bool(bad.any())
    if any_bad:
        data = np.where(bad, 0.0, data)
    if gamma is None:
        top = float(np.abs(data).max())
        gamma = 10.0 * np.finfo(np.float64).eps * top
    scales = [(float(s), xi) for s in sigma]
    # single-precision output at a tol the float32 recursions meet: the ASFT's bounded float32
    # state, as sftwave.cwt runs it (each row within about 5e-5 more of the exact one)
    bank_method = eng.bank_method("auto", C * 2 * f.size)
    single = out_dtype == np.complex64
    transform = eng.transform("auto", single=single, complex_input=False, tol=tol,
                              bank_method=bank_method)
    work_dtype = np.dtype(np.complex64 if single and transform == "asft" else np.complex128)
    options: dict[str, Any] = dict(transform=transform, n=n, fir_taps_per_order=eng.fir_taps_per_order(),
                   mode=mode)
    plans: list[Any] = list(select_morlet_scales(scales, tol, method="auto", **options,
                                                 fft_point_cost=eng.fft_point_cost() if fft else None))
    # the FFT only where the sixth-order difference is as accurate as the plans: the others
    # take the bank or the FIR (and the derivative transform)
    band = difference_band(tol)
    slow = [i for i, p in enumerate(plans)
            if isinstance(p, FFTPlan) and (xi + 4.0) / sigma[i] > band]
    if slow:
        redo = select_morlet_scales([scales[i] for i in slow], tol, method="auto", **options)
        for i, p in zip(slow, redo):
            plans[i] = p
    # the derivative's plan on each bank or FIR plan; None where the sixth-order difference
    # serves: the FFT's scales and, with derivative='auto', every slow band
    differenced = [isinstance(p, FFTPlan) or (derivative == "auto" and (xi + 4.0) / sigma[i] <= band)
                   for i, p in enumerate(plans)]
    dplans = [None if d else derivative_plan(p, float(s), xi)
              for p, s, d in zip(plans, sigma, differenced)]
    reach = np.array([_reach(p) for p in plans], dtype=np.int64)      # (scales, 2)
    dlog = _scale_weights(sigma)
    if squeezing == "sum":
        weight = dlog / np.sqrt(sigma)
    else:
        weight = dlog / f.size
    gamma2 = gamma * gamma * sigma           # |W|^2 > gamma^2 sigma: the L1 coefficient above gamma
    u = np.log(bins) if log_bins else bins
    u0, du = float(u[0]), float(u[1] - u[0])
    widest = int(reach.sum(axis=1).max())
    if block is None:
        B = n if mode in ("wrap", "grid-wrap") else min(n, max(_MIN_BLOCK, 2 * widest))
    else:
        # at least the widest reach: the margins then cost at most twice the block's own work
        B = n if mode in ("wrap", "grid-wrap") else min(n, max(int(block), widest))
    from .engines.numba.lanes import DEFAULT_WIDTH

    lanes = [(isinstance(p, SFTPlan)) * (1 + (d is not None)) for p, d in zip(plans, dplans)]
    groups = _groups(reach, B, C, work_dtype.itemsize, np.asarray(lanes), 2 * DEFAULT_WIDTH)
    res3 = np.asarray(result).reshape(C, bins.size, n)      # (a view, also of a memmap)
    W3 = None if W_all is None else W_all.reshape(C, f.size, n)
    nan_cols = None
    if any_bad:
        left, right = int(reach[:, 0].max()), int(reach[:, 1].max())
        nan_cols = nonfinite.reach_counts(bad.astype(np.int32), left, right, mode) > 0
    from .engines.numba.squeeze import difference_rows, squeeze_block

    lebesgue = squeezing == "lebesgue"
    d_buf = None
    for b0 in range(0, n, B):
        b1 = min(n, b0 + B)
        T = res3[:, :, b0:b1]
        T[...] = 0
        for s0, s1 in groups:
            before = int(reach[s0:s1, 0].max())
            after = int(reach[s0:s1, 1].max())
            lo, hi = max(0, b0 - before), min(n, b1 + after)
            if lo == 0 and hi < n:          # the start's extension reads the segment
                hi = min(n, max(hi, before + 2))
            if hi == n and lo > 0:          # and the end's
                lo = max(0, min(lo, n - after - 2))
            G = s1 - s0
            dg = [d for d in dplans[s0:s1] if d is not None]
            rows = eng.scalogram(data[:, lo:hi], plans[s0:s1] + dg, axis=-1, mode=mode,
                                 cval=cval, kind="complex", decim=1, dtype=work_dtype,
                                 out=None, workers=workers, bank_method=bank_method, tol=tol)
            D, d0 = rows, G
            if len(dg) < G:      # slow bands: the sixth-order difference (module docstring)
                # one buffer for every group (fresh pages cost as much as the differences)
                if d_buf is None or d_buf.size < C * G * (hi - lo) or d_buf.dtype != rows.dtype:
                    d_buf = np.empty(C * G * (hi - lo), dtype=rows.dtype)
                D, d0 = d_buf[:C * G * (hi - lo)].reshape(C, G, hi - lo), 0
                j = G
                differenced = []
                for i in range(G):
                    if dplans[s0 + i] is None:
                        differenced.append(i)
                    else:
                        D[:, i, b0 - lo:b1 - lo] = rows[:, j, b0 - lo:b1 - lo]
                        j += 1
                # (the block's columns only: the margins are read, never squeezed)
                difference_rows(rows, differenced, D, differenced, (b0 - lo, b1 - lo))
            squeeze_block(rows, D, d0, b0 - lo, b1 - b0, weight[s0:s1], gamma2[s0:s1],
                          fs / (2.0 * math.pi), u0, du, log_bins, res3, b0, unit=lebesgue)
            Wb = rows[:, :G, b0 - lo:b1 - lo]
            if W3 is not None:
                W3[:, s0:s1, b0:b1] = Wb
        if nan_cols is not None:
            cols = nan_cols[:, b0:b1]
            T[np.broadcast_to(cols[:, None, :], T.shape)] = np.nan
            if W3 is not None:
                Wc = W3[:, :, b0:b1]
                Wc[np.broadcast_to(cols[:, None, :], Wc.shape)] = np.nan
    return (result, W_all) if return_cwt else result
