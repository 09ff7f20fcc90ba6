r"""Superlets: the geometric mean of Morlet transforms of rising cycles (Moca et al. 2021).

A superlet of order ``o`` at frequency ``f`` is a set of Morlet wavelets of
``c_1, 2 c_1, ..., o c_1`` cycles (multiplicative) or ``c_1, c_1 + 1, ...,
c_1 + o - 1`` (additive) in their Gaussian envelope, and its response is the
geometric mean of the moduli of their transforms: the few-cycle wavelets give
the time resolution, the many-cycle ones the frequency resolution, and the
product keeps only what all of them see.

Conventions (tested in ``tests/test_superlet.py``):

* The wavelet of ``c`` cycles at ``f`` is Moca et al.'s (Syncopy's
  ``MorletSL``): ``psi[n] = 2 / (sqrt(2 pi) s) exp(-n^2 / (2 s^2)) exp(2 pi i f n / fs)``,
  its envelope's standard deviation ``s = c fs / (k_sd f)`` samples with
  ``k_sd = 5``; no zero-mean correction.  In sftwave's terms it is the Morlet
  of ``xi = 2 pi c / k_sd`` at that frequency (the same ``s``), rescaled, plus
  its ``kappa`` term given back: :func:`sftwave.cwt` computes each wavelet's
  transform, and :func:`sftwave.gaussian_filter1d` the ``kappa`` term where it
  is not negligible (``kappa = exp(-xi^2 / 2)`` above ``1e-9``: below about 5
  cycles).
* The amplitude: the unit-sum envelope times 2, so that a sinusoid of
  amplitude ``A`` at a row's frequency has the modulus ``A`` in every wavelet
  and in their mean ('magnitude'), ``A^2`` in 'power'.  Syncopy's
  ``superlet`` returns its complex values times ``sqrt(fs) / (8 pi)``.
* The fractional adaptive superlet: the order rises linearly with frequency,
  ``o(f) = order_min + (order_max - order_min) (f - f_min) / (f_max - f_min)``,
  and an order ``o_i + alpha`` takes the wavelets ``order_min .. o_i`` whole
  and wavelet ``o_i + 1`` to the power ``alpha``, the mean's exponent being
  ``1 / (o - order_min + 1)``.
* The geometric mean is accumulated as a weighted sum of ``log |W|^2``, one
  wavelet of the set (and a block of frequencies) at a time: the set's
  complex transforms are never held together.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ._checks.superlet import K_SD as _K_SD
from ._checks.superlet import SUPERLET_OUTPUTS as _SUPERLET_OUTPUTS
from ._checks.superlet import (
    SuperletRequest,
    check_superlet_input,
    superlet_request,
)
from .ndimage import gaussian_filter1d
from .wavelets import cwt

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["superlet", "superlet_cycles", "SUPERLET_OUTPUTS", "K_SD"]

#: Standard deviations of a wavelet's Gaussian envelope over its cycles (Moca et al.'s k_sd).
K_SD = _K_SD
#: The values of :func:`superlet`'s ``output``: the geometric mean's square or modulus.
SUPERLET_OUTPUTS = _SUPERLET_OUTPUTS

#: ``kappa`` of a wavelet below which its Gaussian term is left out (its share of the wavelet
#: is then below ``1e-9``).
_KAPPA_FLOOR = 1e-9

#: The least ``tol`` at which the wavelets run in single precision (:func:`sftwave.cwt`'s
#: float32 recursions: at most about 5e-5 more error per row).
_SINGLE_TOL = 1e-4

#: Bytes of one block of one wavelet's rows.
_BLOCK_BYTES = 64 << 20


def superlet_cycles(c_1: float, order_max: int, order_min: int = 1, *,
                    multiplicative: bool = True) -> np.ndarray:
    """The cycles of the superlet set's wavelets, orders ``order_min`` to ``order_max``.

    ``c_1 i`` (multiplicative) or ``c_1 + i - 1`` (additive) for the order ``i``.

    Parameters
    ----------
    c_1 : float
        Cycles of the first-order wavelet.
    order_max : int
        The highest order.
    order_min : int, optional
        The lowest order (default 1).
    multiplicative : bool, optional
        Multiplicative (default) or additive superlets.

    Returns
    -------
    ndarray
        One number of cycles per order.

    See Also
    --------
    superlet : The transform by this set.

    Examples
    --------
    >>> superlet_cycles(3, 4).tolist(), superlet_cycles(3, 4, multiplicative=False).tolist()
    ([3.0, 6.0, 9.0, 12.0], [3.0, 4.0, 5.0, 6.0])
    """
    req = superlet_request((1,), np.float64, [0.25], 1.0, order_max=order_max,
                           order_min=order_min, c_1=c_1, multiplicative=multiplicative)
    return req.cycles


def _single(req: SuperletRequest) -> bool:
    """Whether the wavelets run in single precision: float32 input, or ``tol`` at least
    :data:`_SINGLE_TOL` (:func:`sftwave.cwt`'s float32 recursions)."""
    return req.single or req.tol is None or req.tol >= _SINGLE_TOL


def _blocks(rows: np.ndarray, row_bytes: int) -> list[np.ndarray]:
    """``rows`` in blocks of at most :data:`_BLOCK_BYTES` of one wavelet's output (one row at
    least)."""
    size = max(1, _BLOCK_BYTES // max(row_bytes, 1))
    return [rows[i:i + size] for i in range(0, rows.size, size)]


def _log_power(arr: np.ndarray, req: SuperletRequest, xi: float,
               rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log |sftwave's W|^2, the constant to add to reach Moca et al.'s wavelet)`` of the
    wavelet ``xi`` at the frequencies ``rows``; the constant is 0 where the ``kappa`` term is
    added here (the log then of the wavelet's own transform)."""
    f = req.freqs[rows]
    sigma = xi * req.fs / (2.0 * math.pi * f)                   # samples: c fs / (K_SD f)
    C = 1.0 / math.sqrt(1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-0.75 * xi * xi))
    # Moca et al.'s wavelet A g e over sftwave's B g (e - kappa): A / B, and A kappa gsum = 2 kappa
    ratio = (2.0 / (math.sqrt(2.0 * math.pi) * sigma)) / (C / (math.pi ** 0.25 * np.sqrt(sigma)))
    kappa = math.exp(-0.5 * xi * xi)
    options: dict[str, Any] = dict(
        axis=req.axis, mode=req.mode, cval=req.cval, tol=req.tol, decim=req.decim,
        workers=req.workers, nan_policy=req.nan_policy, min_weight=req.min_weight,
        engine=req.engine)
    # float32 recursions where the accuracy target allows them (cwt's rule: tol >= 1e-4)
    single = _single(req)
    if kappa < _KAPPA_FLOOR:
        p = np.asarray(cwt(arr, f, req.fs, xi=xi, output="power",
                           dtype=np.float32 if single else np.float64, **options))
        with np.errstate(divide="ignore"):
            return np.log(p, out=p), 2.0 * np.log(ratio)
    y = np.asarray(cwt(arr, f, req.fs, xi=xi, output="complex",
                       dtype=np.complex64 if single else np.complex128, **options))
    y *= ratio[:, None]
    for i, s in enumerate(sigma):
        g = gaussian_filter1d(arr, float(s), axis=req.axis, mode=req.mode, cval=req.cval,
                              tol=req.tol, nan_policy=req.nan_policy, min_weight=req.min_weight,
                              workers=req.workers,
                              output=y.dtype if arr.dtype.kind == "c" else y.real.dtype)
        y[..., i, :] += (2.0 * kappa) * np.moveaxis(np.asarray(g), req.axis, -1)[..., ::req.decim]
    p = y.real * y.real + y.imag * y.imag
    with np.errstate(divide="ignore"):
        return np.log(p, out=p), np.zeros(rows.size)


def _unit_scaled(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """``(arr / 2^k, k)``, its largest finite magnitude in [0.5, 1) (exact: a power of two),
    so that single-precision powers neither underflow nor overflow, whatever the data's unit."""
    if arr.size == 0:
        return arr, 0
    finite = np.abs(arr[np.isfinite(arr)]) if arr.dtype.kind in "fc" else np.abs(arr)
    top = float(finite.max()) if finite.size else 0.0
    k = math.frexp(top)[1] if top > 0 else 0
    return (np.ldexp(arr, -k) if arr.dtype.kind != "c" else arr * 2.0 ** -k) if k else arr, k


def _superlet(arr: np.ndarray, req: SuperletRequest) -> np.ndarray:
    """The superlet of ``arr`` as ``req`` asks: the sum of each wavelet's weighted ``log
    |W|^2`` over the set, divided by the weights' sum, exponentiated."""
    out_shape = req.out_shape
    acc = np.zeros(out_shape, np.float64)
    const = np.zeros(req.freqs.size)
    arr, k = _unit_scaled(arr)
    const += 2.0 * k * math.log(2.0) * req.weights.sum(axis=0)
    # a row of single-precision complex (or double-precision power) output
    row_bytes = (8 if _single(req) else 16) * math.prod(out_shape[:-2]) * out_shape[-1]
    for j, xi in enumerate(req.xis):
        live = np.flatnonzero(req.weights[j] > 0)
        for rows in _blocks(live, row_bytes):
            logp, c = _log_power(arr, req, float(xi), rows)
            w = req.weights[j, rows]
            part = np.flatnonzero(w != 1.0)         # the fractional wavelet's rows only
            if part.size:
                logp[..., part, :] *= w[part, None].astype(logp.dtype)
            # a run of rows (sorted frequencies): a view, added in place
            run = (slice(int(rows[0]), int(rows[-1]) + 1)
                   if rows[-1] - rows[0] + 1 == rows.size else rows)
            acc[..., run, :] += logp
            const[rows] += w * c
    scale = (0.5 if req.output == "magnitude" else 1.0) / req.weights.sum(axis=0)
    acc += const[:, None]
    acc *= scale[:, None]
    np.exp(acc, out=acc)
    return acc.astype(req.dtype, copy=False)


def superlet(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    order_max: int,
    order_min: int = 1,
    c_1: float = 3.0,
    adaptive: bool = False,
    multiplicative: bool = True,
    output: str = "power",
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    decim: int = 1,
    workers: int | None = None,
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
    engine: str | None = None,
) -> np.ndarray:
    """The superlet transform (Moca et al. 2021): time-frequency super-resolution.

    At each frequency, the geometric mean of the moduli of Morlet transforms
    with rising numbers of cycles (the module's conventions): multiplicative
    (``c_1 i`` cycles, ``i = order_min .. order_max``) or additive
    (``c_1 + i - 1``), of one order at every frequency or, with
    ``adaptive=True``, of an order rising linearly with frequency (the
    fractional adaptive superlet).  Every wavelet is computed by
    :func:`sftwave.cwt`, whose cost per sample does not depend on the
    cycles: the cost grows with the number of wavelets, not their lengths.
    The arguments are Syncopy's ``freqanalysis(method='superlet')``'s.

    Parameters
    ----------
    x : array_like
        The signal(s), real or complex (complex input: each wavelet's
        ``T(re) + 1j T(im)``, as :func:`sftwave.cwt`); integer input is
        computed as float64.
    freqs : float or sequence of float
        Frequencies, in the unit of ``fs``, each in ``(0, fs/2]``; any order.
    fs : float, optional
        Sampling rate (default 1).
    order_max : int
        The highest order of the set (positive): with ``adaptive=False``
        every frequency's; with ``adaptive=True`` the highest frequency's.
    order_min : int, optional
        The lowest order (default 1, at most ``order_max``): the set's first
        wavelet, and the lowest frequency's order with ``adaptive=True``.
    c_1 : float, optional
        Cycles of the first-order wavelet (default 3; Moca et al. advise at
        least 3 cycles in every wavelet).  Every wavelet's cycles must lie in
        about ``[0.008, 238]`` (sftwave's Morlet designs, ``xi`` in
        ``[0.01, 300]``).
    adaptive : bool, optional
        The fractional adaptive superlet: the order rises linearly from
        ``order_min`` at the lowest frequency to ``order_max`` at the highest,
        fractional orders taking their last wavelet to the power of their
        fraction.  Needs two distinct frequencies at least.  Default False.
    multiplicative : bool, optional
        Multiplicative (default) or additive superlets.
    output : {'power', 'magnitude'}, optional
        The geometric mean's square (default) or the mean itself.  A
        sinusoid of amplitude ``A`` at a row's frequency gives ``A^2`` or
        ``A`` there.
    axis : int, optional
        The time axis of ``x``.  Default -1.
    mode : str, optional
        How ``x`` is extended beyond its ends (scipy.ndimage's modes, as
        :func:`sftwave.cwt`; Syncopy pads with zeros: ``'constant'``).
        Default 'reflect'.
    cval : float, optional
        The value beyond the ends with ``mode='constant'``.  Default 0.
    tol : float, optional
        Each wavelet's accuracy target, as :func:`sftwave.cwt`'s.
    decim : int, optional
        Keep every ``decim``-th sample.  Default 1.
    workers : int, optional
        Threads, as :func:`sftwave.cwt`'s.
    nan_policy : {'propagate', 'omit'}, optional
        Non-finite input, as :func:`sftwave.cwt`'s for each wavelet: with
        'propagate' a coefficient is NaN where any wavelet of its set reaches
        a non-finite sample.
    min_weight : float, optional
        With ``nan_policy='omit'``, as :func:`sftwave.cwt`'s.
    engine : {None, 'numba'}, optional
        The CPU engine (numpy arrays).

    Returns
    -------
    ndarray
        Shape ``x.shape`` without ``axis``, then ``(len(freqs), ceil(n / decim))``;
        float32 for float32 input, float64 otherwise.

    Raises
    ------
    ValueError, TypeError
        For a bad argument, naming it; and as :func:`sftwave.cwt` for a
        wavelet far longer than the signal.

    See Also
    --------
    sftwave.cwt : One Morlet transform (the set's members).
    sftwave.superlets.superlet_cycles : The cycles of a set.
    sftwave.mne.tfr_array_superlet : MNE's array layout and argument names.

    Notes
    -----
    Moca, V. V., Bârzan, H., Nagy-Dăbâcan, A., Mureșan, R. C. (2021).
    Time-frequency super-resolution with superlets.  *Nature
    Communications* 12, 337.

    Examples
    --------
    >>> import numpy as np
    >>> fs = 1000.0
    >>> t = np.arange(3000) / fs
    >>> x = 2.0 * np.cos(2 * np.pi * 40 * t)
    >>> p = superlet(x, [20.0, 40.0, 80.0], fs, order_max=5, output="magnitude")
    >>> p.shape, int(np.argmax(p[:, 1500])), round(float(p[1, 1500]), 3)
    ((3, 3000), 1, 2.0)
    >>> fa = superlet(x, np.linspace(10, 100, 10), fs, order_max=10, adaptive=True)
    >>> fa.shape
    (10, 3000)
    """
    arr = check_superlet_input(x)
    req = superlet_request(arr.shape, arr.dtype, freqs, fs, order_max=order_max,
                           order_min=order_min, c_1=c_1, adaptive=adaptive,
                           multiplicative=multiplicative, output=output, axis=axis, mode=mode,
                           cval=cval, tol=tol, decim=decim, workers=workers,
                           nan_policy=nan_policy, min_weight=min_weight, engine=engine)
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    return _superlet(arr, req)
