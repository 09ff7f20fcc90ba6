r"""The scalogram's FFT rows: :class:`~sftwave.plans.spectral.FFTPlan`, the exact wavelet by FFT.

One forward transform of every input row, then, for a few scales at a time,
the product with each wavelet's transfer function
(:func:`sftwave.plans.spectral.transfer`) and the inverse transforms,
batched over rows and scales on scipy's FFT with the engine's threads; the
output is written once in its kind, every ``decim``-th sample.  Per mode (the
derivations: ``sftwave.plans.spectral``):

``reflect`` (period ``2n``, even about ``-1/2``)
    ``C = DCT-II(x)``; the real part ``IDCT-II(C A)``, the imaginary part
    ``IDST-II(C S)``, ``A`` and ``S`` the even and odd parts of ``Psi`` on
    ``pi k / n``.
``mirror`` (period ``2n - 2``, even about 0)
    The same with the type-I transforms on ``pi k / (n - 1)`` (the imaginary
    part is zero at both ends).
``wrap``
    ``IFFT(FFT(x) Psi)`` on ``2 pi k / n``.
``constant``, ``nearest``
    The signal less its constants, zero-padded to
    :func:`~sftwave.plans.spectral.transform_length`, then the constants'
    exact contributions added: ``cval Psi(0)``, or for ``nearest``
    ``x[0] Psi(0) + (x[n-1] - x[0]) T[m]``, ``T[m] = sum_{k <= m} psi[k]``.

The arithmetic is float64, or float32 where the output is single precision
and ``tol`` at least :data:`FLOAT32_MIN_TOL`.  The same plans give the same
bits on any number of threads (each one-dimensional transform runs on one
thread).
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from ...plans.morlet import morlet_constants, morlet_target
from ...plans.spectral import reach, transfer, transform_length
from .._boundary import MODE_CODES, source_index
from .pool import parallel_for, threads

__all__ = ["run", "FLOAT32_MIN_TOL", "BLOCK_POINTS", "SPECTRA_BYTES", "clear_spectra"]

#: Single-precision output is computed in float32 from this ``tol`` on (float32's
#: transforms are within some 1e-6 of the exact transform); below it, in float64.
FLOAT32_MIN_TOL = 1e-5

#: Most bytes of transfer functions kept per process, least recently used dropped first:
#: a scalogram of ``n`` points and ``F`` scales keeps about ``16 n F`` bytes (8.5 MB for
#: Torrence & Compo's 133 scales on 4,000 samples), so that a script's repeated calls
#: evaluate them once.
SPECTRA_BYTES = 64 << 20

_spectra: OrderedDict[tuple, tuple[np.ndarray, ...]] = OrderedDict()
_spectra_bytes = 0
_spectra_lock = threading.Lock()


def clear_spectra() -> None:
    """Forget the transfer functions kept by :func:`_kept` (for tests and memory)."""
    global _spectra_bytes
    with _spectra_lock:
        _spectra.clear()
        _spectra_bytes = 0


def _kept(key: tuple, compute: Callable[[], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """``compute()`` (read-only arrays), kept under ``key`` within :data:`SPECTRA_BYTES`."""
    global _spectra_bytes
    with _spectra_lock:
        hit = _spectra.get(key)
        if hit is not None:
            _spectra.move_to_end(key)
            return hit
    value = compute()
    for a in value:
        a.flags.writeable = False
    size = sum(a.nbytes for a in value)
    with _spectra_lock:
        if key not in _spectra and size <= SPECTRA_BYTES:
            _spectra[key] = value
            _spectra_bytes += size
            while _spectra_bytes > SPECTRA_BYTES:
                _, old = _spectra.popitem(last=False)
                _spectra_bytes -= sum(a.nbytes for a in old)
    return value


#: Points of one batch of inverse transforms (rows times scales times length): a few
#: MB, so that the products, the transforms and the output's kind stay in cache.
BLOCK_POINTS = 1 << 17


#: Rows at least this long have their transforms split among the threads (scipy.fft's
#: ``workers``) where the call is one batch (where it is several, the batches run side by
#: side instead, :func:`_each_block`), and in the forward transform; shorter ones run on one:
#: there the threads' hand-off costs more than it saves (whole ``cwt`` calls at 20 to 85
#: scales on two threads against one: 100, 504 and 1,000 samples 1.6, 2.0 and 1.5 times
#: slower; 10,000 samples 1.3 times faster, 1e5 1.2 times).  The transforms' results do not
#: depend on it.
THREADED_LENGTH = 8192


def run(x2d: np.ndarray, plans: list, index: list[int], out3: np.ndarray, *, mode: str, cval,
        kind: str, decim: int, single: bool) -> None:
    """Write the rows ``out3[:, index[j], :]`` of ``plans[j]`` (FFT plans) for the lines of ``x2d``.

    ``x2d`` (lines, n) is real or complex, C-contiguous; ``out3`` (lines,
    scales, ceil(n / decim)) of the output's dtype; ``cval`` a number
    (complex for complex input).
    """
    import scipy.fft as sf

    lines, n = x2d.shape
    real_dtype = np.float32 if single else np.float64
    cplx = np.complex64 if single else np.complex128
    workers = threads() if n >= THREADED_LENGTH else 1
    x = x2d.astype(cplx if np.iscomplexobj(x2d) else real_dtype, copy=False)
    if mode == "reflect" or (mode == "mirror" and n > 2):
        _symmetric(sf, x, plans, index, out3, kind=kind, decim=decim, type_=2 if mode == "reflect"
                   else 1, real_dtype=real_dtype, workers=workers)
        return
    if mode in ("wrap", "mirror"):
        if mode == "mirror":      # n <= 2: one period by the boundary rule (mirror of 1 sample)
            P = max(2 * n - 2, 1)
            x = x[:, source_index(np.arange(P), n, MODE_CODES["mirror"])]
        X = sf.fft(x, axis=-1, workers=workers)
        P = X.shape[-1]

        def spectrum(plan: Any, M: Any = None) -> Any:
            return transfer(plan.sigma, plan.xi, 0.0, 2.0 * math.pi / P, P)

        _inverse(sf, X, plans, index, out3, spectrum, n=n, kind=kind, decim=decim,
                 real_dtype=real_dtype, workers=workers, key="periodic")
        return
    # constant, nearest: the signal less its constants, zero-padded
    c = complex(cval) if np.iscomplexobj(x) else float(np.real(cval))
    if mode == "constant":
        z = x - c if c != 0 else x
    else:
        first, last = x[:, :1], x[:, n - 1:]
        z = x - last
    by_length: dict[int, list[int]] = {}
    for j, plan in enumerate(plans):
        by_length.setdefault(transform_length(plan.sigma, n, mode)[0], []).append(j)
    sums: dict[int, np.ndarray] = {}

    def extra(plan, r0, r1):
        """The constants' contribution to the lines ``r0:r1`` (None: nothing)."""
        if mode == "constant":
            return c * _wavelet_sum(plan.sigma, plan.xi) if c != 0 else None
        psi0 = _wavelet_sum(plan.sigma, plan.xi)
        if id(plan) not in sums:
            sums[id(plan)] = _kept(("running", plan.sigma, plan.xi, n),
                                   lambda: (_running_sum(plan, n),))[0]
        f = first[r0:r1]
        return f * psi0 + (last[r0:r1] - f) * sums[id(plan)][None, :]

    for M, js in by_length.items():
        X = sf.fft(z, M, axis=-1, workers=workers)

        def spectrum(plan: Any, M: Any = M) -> Any:
            return _padded_spectrum(sf, plan, n, M, mode)

        _inverse(sf, X, [plans[j] for j in js], [index[j] for j in js], out3, spectrum, n=n,
                 kind=kind, decim=decim, real_dtype=real_dtype, workers=workers,
                 key=f"padded {n}", extra=extra)


def _padded_spectrum(sf, plan, n: int, M: int, mode: str) -> np.ndarray:
    """The transfer function on ``2 pi k / M``: ``Psi`` where the reach fits, else the
    FFT of the wavelet's samples ``|k| < n`` (exact: no output reads a tap beyond)."""
    if transform_length(plan.sigma, n, mode)[1]:
        return transfer(plan.sigma, plan.xi, 0.0, 2.0 * math.pi / M, M)
    k = np.arange(-(n - 1), n)
    h = np.zeros(M, dtype=np.complex128)
    h[k % M] = morlet_target(plan.sigma, plan.xi)(k)
    return sf.fft(h).real               # Hermitian taps: a real transfer function


@functools.lru_cache(maxsize=4096)
def _wavelet_sum(sigma: float, xi: float) -> float:
    """``Psi(0) = sum_k psi[k]``: what a constant's transform is, per unit."""
    return float(transfer(sigma, xi, 0.0, 1.0, 1)[0])


def _running_sum(plan, n: int) -> np.ndarray:
    """``T[m] = sum_{k <= m} psi[k]`` for ``m = 0 .. n - 1`` (complex).

    ``sum_{k <= -1} psi[k]`` is the conjugate of ``V = sum_{k >= 1} psi[k]``
    (the wavelet is Hermitian), whose real part is ``(Psi(0) - psi[0]) / 2``
    and whose imaginary part is summed over the reach (:func:`_half_sine_sum`).
    """
    psi = morlet_target(plan.sigma, plan.xi)
    psi0 = _wavelet_sum(plan.sigma, plan.xi)
    centre = float(psi(np.zeros(1)).real[0])
    v = complex(0.5 * (psi0 - centre), _half_sine_sum(plan.sigma, plan.xi))
    return v.conjugate() + np.cumsum(psi(np.arange(n)))


@functools.lru_cache(maxsize=4096)
def _half_sine_sum(sigma: float, xi: float) -> float:
    """``Im sum_{k >= 1} psi[k]``: ``A sum_k exp(-k^2 / (2 sigma^2)) sin(xi k / sigma)`` over
    the reach, in pieces (the reach may be many times the signal), kept per process."""
    C, _ = morlet_constants(xi)
    amp = C / (math.pi ** 0.25 * math.sqrt(sigma))
    R = reach(sigma)
    total = 0.0
    for lo in range(1, R + 1, 1 << 16):
        k = np.arange(lo, min(R, lo + (1 << 16) - 1) + 1, dtype=np.float64)
        u = k / sigma
        total += float(np.sum(np.exp(-0.5 * u * u) * np.sin(xi * u)))
    return amp * total


def _symmetric(sf, x: np.ndarray, plans, index, out3, *, kind: str, decim: int, type_: int,
               real_dtype, workers: int) -> None:
    """``reflect`` (type 2) and ``mirror`` (type 1): cosine and sine transforms of ``n`` points."""
    lines, n = x.shape
    C = sf.dct(x, type=type_, axis=-1, workers=workers)
    if type_ == 2 and not np.iscomplexobj(x):
        _reflect_real(sf, C, plans, index, out3, kind=kind, decim=decim, real_dtype=real_dtype,
                      workers=workers)
        return
    span = n if type_ == 2 else n - 1          # the grid: pi k / span, k = 0 .. n - 1
    # the sine transform's coefficients C[k] S[k]: k = 1 .. n - 1 and a zero for k = n
    # (type 2: C[n] = 0), or k = 1 .. n - 2 (type 1)
    width = n if type_ == 2 else n - 2
    Cs = np.zeros((lines, width), dtype=C.dtype)
    Cs[:, :n - 1 if type_ == 2 else n - 2] = C[:, 1:n if type_ == 2 else n - 1]
    odd = n - 1 if type_ == 2 else n - 2
    complex_input = np.iscomplexobj(x)
    def block(lo: int, hi: int, r0: int, r1: int, workers: int) -> None:
        A = np.empty((hi - lo, n), dtype=real_dtype)
        S = np.empty((hi - lo, width), dtype=real_dtype)
        for i, plan in enumerate(plans[lo:hi]):
            A[i], S[i] = _kept(("symmetric", type_, plan.sigma, plan.xi, n, real_dtype),
                               functools.partial(_even_odd, plan, n, span, width, odd, real_dtype))
        re = sf.idct(C[r0:r1, None, :] * A[None], type=type_, axis=-1, workers=workers,
                     overwrite_x=True)
        im = sf.idst(Cs[r0:r1, None, :] * S[None], type=type_, axis=-1, workers=workers,
                     overwrite_x=True)
        if type_ == 1:                             # the interior; zero at both ends
            full = np.zeros(re.shape, dtype=im.dtype)
            full[..., 1:n - 1] = im
            im = full
        if complex_input:
            _write(out3, r0, r1, index[lo:hi], (re + 1j * im)[..., ::decim], None, kind)
        else:
            _write(out3, r0, r1, index[lo:hi], re[..., ::decim], im[..., ::decim], kind)

    _each_block(lines, len(plans), n, block, workers)


def _reflect_real(sf, C: np.ndarray, plans, index, out3, *, kind: str, decim: int, real_dtype,
                  workers: int) -> None:
    """``reflect`` on real lines: both parts by one inverse cosine transform of complex input.

    The sine transform is the cosine transform of the reversed coefficients
    with every other output negated (``IDST-II(b)[m] = (-1)^m IDCT-II(b[::-1])[m]``),
    so ``IDCT-II(C A + i rev(C' S))`` holds the real part and, odd samples
    negated, the imaginary part.  Written straight into the output where it is
    complex, consecutive and not decimated (the transform runs in place there).
    """
    lines, n = C.shape
    # rev(C' S)[j] = C[n - j] S[n - j] for j = 1 .. n - 1, and 0 for j = 0 (C[n] = 0)
    Cr = np.zeros_like(C)
    Cr[:, 1:] = C[:, :0:-1]
    cplx = np.complex64 if real_dtype == np.float32 else np.complex128
    direct = kind == "complex" and decim == 1 and out3.dtype == cplx
    # every scale's A and reversed S, as (scales, n) arrays kept for the set of scales
    key = ("reflect", tuple((p.sigma, p.xi) for p in plans), n, np.dtype(real_dtype).char)
    A, Sr = _kept(key, lambda: _stacked(plans, n, real_dtype))
    def block(lo: int, hi: int, r0: int, r1: int, workers: int) -> None:
        cols = index[lo:hi]
        in_place = direct and _consecutive(cols)
        if in_place:
            u = out3[r0:r1, cols[0]:cols[-1] + 1]
        else:
            u = np.empty((r1 - r0, hi - lo, n), dtype=cplx)
        np.multiply(C[r0:r1, None, :], A[None, lo:hi], out=u.real)
        np.multiply(Cr[r0:r1, None, :], Sr[None, lo:hi], out=u.imag)
        z = sf.idct(u, type=2, axis=-1, workers=workers, overwrite_x=True)
        if not _same_array(z, u):
            u[...] = z
        if kind == "power" or kind == "abs":      # the sign of the imaginary part is moot
            _write(out3, r0, r1, cols, u[..., ::decim], None, kind)
            return
        u.imag[..., 1::2] *= -1.0
        if not in_place:
            _write(out3, r0, r1, cols, u[..., ::decim], None, kind)

    _each_block(lines, len(plans), n, block, workers)


def _stacked(plans, n: int, dtype) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_even_reversed_odd` of every plan, as two (plans, n) arrays."""
    A = np.empty((len(plans), n), dtype=dtype)
    Sr = np.empty((len(plans), n), dtype=dtype)
    for i, plan in enumerate(plans):
        A[i], Sr[i] = _even_reversed_odd(plan, n, dtype)
    return A, Sr


def _same_array(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` is ``b``'s memory with ``b``'s layout (an in-place result)."""
    return (a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _even_reversed_odd(plan, n: int, dtype) -> tuple[np.ndarray, ...]:
    """``A`` (the even part of ``Psi`` on ``pi k / n``) and ``Sr[j] = S(pi (n - j) / n)`` for
    ``j = 1 .. n - 1`` (``Sr[0] = 0``): the odd part, reversed for :func:`_reflect_real`."""
    pos = transfer(plan.sigma, plan.xi, 0.0, math.pi / n, n + 1)
    neg = transfer(plan.sigma, -plan.xi, 0.0, math.pi / n, n + 1)    # Psi(-omega)
    odd = 0.5 * (pos - neg)                     # S on k = 0 .. n
    Sr = np.zeros(n, dtype=dtype)
    Sr[1:] = odd[n - 1:0:-1]
    return (0.5 * (pos[:n] + neg[:n])).astype(dtype), Sr


def _even_odd(plan, n: int, span: int, width: int, odd: int, dtype) -> tuple[np.ndarray, ...]:
    """The even part of ``Psi`` on ``pi k / span`` (``k < n``) and its odd part on ``k = 1 ..
    odd`` (zero-padded to ``width``)."""
    pos = transfer(plan.sigma, plan.xi, 0.0, math.pi / span, n)
    neg = transfer(plan.sigma, -plan.xi, 0.0, math.pi / span, n)    # Psi(-omega)
    S = np.zeros(width, dtype=dtype)
    S[:odd] = 0.5 * (pos[1:odd + 1] - neg[1:odd + 1])
    return (0.5 * (pos + neg)).astype(dtype), S


def _inverse(sf, X: np.ndarray, plans, index, out3, spectrum, *, n: int, kind: str, decim: int,
             real_dtype, workers: int, key: str, extra=None) -> None:
    """Rows ``ifft(X H)[:n]`` (plus ``extra``) for each plan, in blocks of rows and scales."""
    lines, M = X.shape
    def block(lo: int, hi: int, r0: int, r1: int, workers: int) -> None:
        H = np.empty((hi - lo, M), dtype=real_dtype)
        for i, plan in enumerate(plans[lo:hi]):
            def grid(plan: Any = plan) -> tuple[np.ndarray]:
                return (spectrum(plan).astype(real_dtype),)

            H[i] = _kept(("grid", plan.sigma, plan.xi, M, key, real_dtype), grid)[0]
        Y = X[r0:r1, None, :] * H[None]
        if decim > 1 and M % decim == 0:
            # only every decim-th sample: the spectrum folded decim times, a transform
            # of M / decim points (y[d j] = ifft_{M/d}(sum_r Y[k + r M/d])[j] / d)
            Y = Y.reshape(Y.shape[:-1] + (decim, M // decim)).sum(axis=-2)
            y = sf.ifft(Y, axis=-1, workers=workers, overwrite_x=True)[..., :-(-n // decim)]
            y *= 1.0 / decim
            step, kept = 1, decim
        else:
            y = sf.ifft(Y, axis=-1, workers=workers, overwrite_x=True)[..., :n]
            step, kept = decim, 1
        if extra is not None:
            for i, plan in enumerate(plans[lo:hi]):
                add = extra(plan, r0, r1)
                if add is not None:
                    y[:, i, :] += add[..., ::kept] if np.ndim(add) else add
        _write(out3, r0, r1, index[lo:hi], y[..., ::step], None, kind)

    _each_block(lines, len(plans), M, block, workers)


def _each_block(lines: int, scales: int, points: int, block: Callable[..., None],
                workers: int) -> None:
    """``block(lo, hi, r0, r1, workers)`` for each of :func:`_blocks`: side by side on the
    engine's threads, each block's transforms on one, where there are several blocks and
    threads; else one after another, each block's transforms on ``workers`` threads.

    Each block writes its own part of the output, and a transform's result does not depend
    on the thread that runs it: the same bits either way.  (Many short lines, an EEG
    recording's epochs, are many blocks: one block's transforms, a few hundred short ones
    each, gained little from scipy's threads, while whole blocks side by side share out the
    products and the output's kind as well.)
    """
    blocks = list(_blocks(lines, scales, points))
    if len(blocks) > 1 and threads() > 1:
        def run_blocks(i0: int, i1: int) -> None:
            for i in range(i0, i1):
                block(*blocks[i], 1)

        # about ten operations per point and block (the products, the transform, the kind)
        parallel_for(run_blocks, len(blocks), work=10.0 * lines * scales * points)
        return
    for b in blocks:
        block(*b, workers)


def _blocks(lines: int, scales: int, points: int):
    """``(scale_lo, scale_hi, line_lo, line_hi)`` blocks of about :data:`BLOCK_POINTS` points."""
    per_scale = max(1, BLOCK_POINTS // max(points, 1))
    if lines >= per_scale:
        step_r, step_s = per_scale, 1
    else:
        step_r, step_s = lines, max(1, per_scale // lines)
    for lo in range(0, scales, step_s):
        for r0 in range(0, lines, step_r):
            yield lo, min(scales, lo + step_s), r0, min(lines, r0 + step_r)


def _write(out3: np.ndarray, r0: int, r1: int, cols: list[int], re: np.ndarray,
           im: np.ndarray | None, kind: str) -> None:
    """The output's kind into ``out3[r0:r1, cols]``: from a complex ``re`` (``im`` None), or
    from the real and imaginary parts apart."""
    target = out3[r0:r1, cols[0]:cols[-1] + 1] if _consecutive(cols) else None
    if im is None:
        if kind == "complex":
            value = re
        elif kind == "power":
            value = re.real * re.real + re.imag * re.imag
        elif kind == "abs":
            # (not np.abs: numpy 1.24's np.abs of complex gave bits that varied from call to call)
            value = np.hypot(re.real, re.imag)
        else:
            value = phase(re.real, re.imag)
    elif kind == "complex":
        if target is not None:
            target.real = re
            target.imag = im
            return
        value = re + 1j * im
    elif kind == "power":
        value = re * re + im * im
    elif kind == "abs":
        value = np.hypot(re, im)
    else:
        value = phase(re, im)
    if target is not None:
        target[...] = value
    else:
        out3[r0:r1, cols] = value


def phase(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """``arctan2(im, re)`` of contiguous copies: numpy 1.24 gave other bits for strided parts (its
    vector loop runs on contiguous arrays only), so the same values gave another phase by
    another path."""
    return np.arctan2(np.ascontiguousarray(im), np.ascontiguousarray(re))


def _consecutive(cols: list[int]) -> bool:
    return cols[-1] - cols[0] == len(cols) - 1
