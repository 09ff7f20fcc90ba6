r"""The inverse Morlet transform: a signal (or a band of it) back from its scalogram.

(And of the DOG wavelets of even order, ``wavelet='mexh'`` etc.: the same two
methods on their real coefficients; their T&C weights lose more, 1 to 18 %,
pycwt's own 9 to 25 %, and ours about 1e-3: ``tests/test_inverse.py``.)

:func:`icwt` sums the real parts of the rows, each weighted:

``method='tc'``
    Torrence & Compo's delta-function reconstruction (their eq. 11):
    ``x_n = 1 / (C_delta psi_0(0)) sum_j dj_j Re W_n(s_j) / sqrt(sigma_j)``,
    ``dj_j`` each row's share of the octave axis (the paper's constant ``dj``
    for geometric frequencies), ``C_delta`` from
    :func:`sftwave.analysis.reconstruction_factor`.
``method='lsq'`` (default)
    Weights of our design: the real weights ``a_j`` whose sum of the rows'
    real-part responses is closest to 1 (least squares on a logarithmic
    grid, the wavelets' aliases included, lightly damped towards the paper's
    weights) from one octave above the lowest row to the highest row.  The
    same one-pass sum, but flat where the paper's weights fall short (near
    the Nyquist frequency, whose wavelets alias) and between rows.

The mean (and what lies outside the rows' span) is not in the coefficients:
the reconstruction is of the band the rows cover, which is what a band of
rows gives (``rows=``: a band-pass filter).

Measured (``tests/test_inverse.py`` recomputes this table and holds it):
relative RMS error in the middle half of 4096 samples of signals band-limited
to ``[fs/256, 0.4 fs]`` (white noise, the ECG of PyWavelets) or sweeping
``fs/256`` to ``fs/4`` (a linear chirp), rows geometric from ``fs/2`` down to
``fs/512``, ``mode='reflect'``:

==================  =========  =========  =========  =========
voices per octave       4          8         12         24
==================  =========  =========  =========  =========
white noise, tc     3.8e-2     8.0e-3     1.4e-3     1.1e-2
white noise, lsq    5.4e-5     3.5e-5     3.2e-5     3.1e-5
chirp, tc           7.7e-4     4.5e-4     3.9e-4     3.6e-4
chirp, lsq          7.6e-4     4.5e-4     3.9e-4     3.5e-4
ECG, tc             1.0e-3     2.8e-4     1.7e-4     3.2e-4
ECG, lsq            3.1e-4     1.9e-4     1.7e-4     1.6e-4
==================  =========  =========  =========  =========

The paper's weights lose up to 4 % of white noise, whose power reaches the
Nyquist frequency; the chirp's error is its start and end, at the edges of
the rows' span, the same for both.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ._checks import check_choice, check_positive
from ._checks.wavelets import Array, check_rows_along, icwt_rows, selected_rows
from .plans.families import WaveletFamily, gauss, wavelet_family

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["icwt", "reconstruction_weights", "METHODS"]

#: ``method`` values of :func:`icwt`.
METHODS = ("lsq", "tc")


def _family(wavelet: Any, xi: Any) -> WaveletFamily:
    """The family of ``wavelet``, with ``xi`` checked by it and a delta reconstruction
    (``ValueError`` for a wavelet with ``psi_0(0) = 0``, the DOG wavelets of odd order)."""
    family = wavelet_family(wavelet)
    family.check_xi(xi, int(np.size(xi)), design=False)
    family.psi0_at_zero(6.0 if np.ndim(xi) else float(xi))
    return family


#: The Gaussian of :func:`sftwave.plans.families.gauss`, under this module's private name.
_gauss = gauss


def reconstruction_weights(freqs: ArrayLike, fs: float = 1.0, xi: float = 6.0, method: str = "lsq",
                           *, wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """The weight of each row's real part in :func:`icwt` (one per frequency).

    Parameters
    ----------
    freqs, fs, xi
        As given to :func:`sftwave.cwt` (one ``xi`` for all rows; each frequency once).
    method : {'lsq', 'tc'}, optional
        Our least-squares weights (default) or Torrence & Compo's
        ``dj / (C_delta psi_0(0) sqrt(sigma))``.
    wavelet : str, tuple or WaveletFamily, optional
        As :func:`sftwave.cwt` takes it (default 'morlet'); a wavelet with
        ``psi_0(0) = 0`` (a DOG wavelet of odd order) is refused.

    Returns
    -------
    ndarray
        One weight per frequency.

    See Also
    --------
    sftwave.icwt : The reconstruction that uses them.

    Examples
    --------
    >>> w = reconstruction_weights(np.geomspace(0.5, 0.01, 40))
    >>> w.shape, bool(np.all(w > 0))
    ((40,), True)
    """
    method = check_choice(method, METHODS, "method")
    fs = check_positive(fs, "fs")
    family = _family(wavelet, xi)
    f, xi0 = icwt_rows(freqs, xi)
    return _weights(f.tobytes(), fs, xi0, method, family).copy()


@functools.lru_cache(maxsize=64)
def _weights(f_bytes: bytes, fs: float, xi0: float, method: str,
             family: WaveletFamily) -> np.ndarray:
    """:func:`reconstruction_weights` of checked rows, kept per process (read-only).

    The least-squares weights cost some milliseconds (the rows' responses on a grid of
    16 frequencies per row); a script reconstructs from the same rows again and again.
    """
    w = _solve_weights(np.frombuffer(f_bytes, dtype=np.float64), fs, xi0, method, family)
    w.flags.writeable = False
    return w


def _solve_weights(f: np.ndarray, fs: float, xi0: float, method: str,
                   family: WaveletFamily) -> np.ndarray:
    """The weights of the rows of frequencies ``f`` of ``family``."""
    sigma = family.scale(f, fs, xi0)          # samples
    if f.size == 1 or method == "tc":
        dj = np.abs(np.gradient(np.log2(sigma))) if f.size > 1 else np.ones(1)
        return dj / (family.reconstruction_factor(xi0) * family.psi0_at_zero(xi0) * np.sqrt(sigma))
    # least squares: the response of sum_j a_j Re(psi_j) closest to 1 over the rows' span,
    # from one octave above the lowest row (below, the lowest rows' weights would swing)
    lo, hi = (2 * math.pi * f.min() / fs * 2.0), (2 * math.pi * f.max() / fs)
    omega = np.geomspace(lo, hi, 16 * f.size)
    A = family.response(sigma, xi0, omega).T           # (omegas, rows)
    tc = _solve_weights(f, fs, xi0, "tc", family)
    # solve for a relative correction of the paper's weights, damped towards them (1e-4 of
    # the mean diagonal): stable where the wavelets overlap
    M = A * tc[None, :]
    lam = 1e-4 * np.trace(M.T @ M) / f.size
    c = np.linalg.solve(M.T @ M + lam * np.eye(f.size), M.T @ np.ones(omega.size) + lam)
    return tc * c


def icwt(W: ArrayLike, freqs: ArrayLike, fs: float = 1.0, xi: float = 6.0, *, axis: int = -2,
         rows: slice | tuple[float, float] | ArrayLike | None = None, method: str = "lsq",
         wavelet: str | WaveletFamily = "morlet") -> Array:
    """The signal back from its complex scalogram (``cwt(..., output='complex')``).

    Parameters
    ----------
    W : ndarray, complex
        The coefficients; rows (one per frequency) along ``axis``, time last.
    freqs, fs, xi
        As given to :func:`sftwave.cwt` (one ``xi`` for all rows); each
        frequency once (a repeated frequency is a ``ValueError``: its rows'
        weights would be undetermined).
    axis : int, optional
        The rows' axis of ``W`` (default -2, as :func:`sftwave.cwt` returns them).
    rows : slice, boolean mask, index array or (f_lo, f_hi), optional
        Reconstruct from these rows only: a band-pass filter of the signal
        (a pair of numbers is the band of frequencies ``f_lo <= f <= f_hi``).
    method : {'lsq', 'tc'}, optional
        The rows' weights (see the module's docstring): ours (default) or
        Torrence & Compo's.
    wavelet : str, tuple or WaveletFamily, optional
        The wavelet of ``W``, as :func:`sftwave.cwt` takes it: 'morlet'
        (default), or a DOG wavelet of even order (``'mexh'``, ``'dog2'``,
        ``'dog4'``, ``DOG(4)``, ...; ``W`` then its real coefficients): T&C's
        eq. 11 for a real wavelet (``method='tc'``) or our least-squares
        weights.  Odd orders have ``psi_0(0) = 0``: no such reconstruction
        (``ValueError``).

    Returns
    -------
    ndarray
        Real, ``W``'s shape without ``axis``: the part of the signal in the
        band of the rows used (the mean is not in the coefficients).

    See Also
    --------
    cwt : The forward transform.
    sftwave.inverse.reconstruction_weights : The weights of each row in the sum.
    sftwave.analysis.reconstruction_factor : Torrence & Compo's C_delta.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> t = np.arange(4096)
    >>> x = np.sin(2 * np.pi * t / 50) + 0.5 * np.sin(2 * np.pi * t / 300)
    >>> freqs = np.geomspace(0.5, 1 / 2000, 100)
    >>> xr = icwt(sftwave.cwt(x, freqs), freqs)
    >>> bool(np.sqrt(np.mean((xr - x)[1024:3072] ** 2)) < 0.01 * np.std(x))
    True
    >>> slow = icwt(sftwave.cwt(x, freqs), freqs, rows=(1 / 1000, 1 / 100))  # the band
    >>> bool(np.std(slow[1024:3072] - 0.5 * np.sin(2 * np.pi * t / 300)[1024:3072]) < 0.02)
    True
    """
    fs = check_positive(fs, "fs")
    W = np.asarray(W)
    family = _family(wavelet, xi)
    family.check_coefficients(W)
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    Wm = np.moveaxis(W, axis, -2)
    check_rows_along("W", Wm.shape[-2], axis, f.size)
    sel = selected_rows(f, rows)
    weights = reconstruction_weights(f[sel], fs, xi, method, wavelet=family)
    return np.einsum("...jt,j->...t", Wm[..., sel, :].real, weights)
