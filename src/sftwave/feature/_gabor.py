"""Gabor filters and banks of them, untruncated: separable complex FIRs or Gaussian plans."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks import check_input_array
from .._checks.features import (
    GaborRequest,
    check_direct_kernel,
    complex_dtype,
    gabor_image,
    gabor_request,
    numpy_only,
    real_scalars,
)
from ._common import op, threads

#: The checked scalars (``sftwave._checks.features``), by their former names here.
_real_scalars = real_scalars


def _sigma_prefactor(bandwidth: float) -> float:
    """scikit-image's ``sigma * frequency`` for a bandwidth in octaves."""
    b = bandwidth
    return 1.0 / math.pi * math.sqrt(math.log(2) / 2.0) * (2.0**b + 1) / (2.0**b - 1)


def _half_sizes(theta: float, sigma_x: float, sigma_y: float, n_stds: float) -> tuple[int, int]:
    """scikit-image's ``gabor_kernel`` half-sizes ``(y0, x0)``: rows and columns each side."""
    ct, st = math.cos(theta), math.sin(theta)
    x0 = math.ceil(max(abs(n_stds * sigma_x * ct), abs(n_stds * sigma_y * st), 1))
    y0 = math.ceil(max(abs(n_stds * sigma_y * ct), abs(n_stds * sigma_x * st), 1))
    return y0, x0


def _gabor_kernel(frequency: float, theta: float, sigma_x: float, sigma_y: float, n_stds: float,
                  offset: float) -> np.ndarray:
    """scikit-image's ``gabor_kernel``: truncated at ``n_stds`` standard deviations (complex128)."""
    ct, st = math.cos(theta), math.sin(theta)
    y0, x0 = _half_sizes(theta, sigma_x, sigma_y, n_stds)
    y, x = np.meshgrid(np.arange(-y0, y0 + 1), np.arange(-x0, x0 + 1), indexing="ij", sparse=True)
    rotx = x * ct + y * st
    roty = -x * st + y * ct
    g = np.exp(-0.5 * (rotx**2 / sigma_x**2 + roty**2 / sigma_y**2)
               + 1j * (2 * np.pi * frequency * rotx + offset))
    return g * (1 / (2 * np.pi * sigma_x * sigma_y))


#: The direct kernel's largest area: this many times the image's pixels (or DIRECT_MIN_AREA).
DIRECT_AREA_FACTOR = 64
DIRECT_MIN_AREA = 1 << 22


def _check_direct_size(frequency: float, theta: float, sigma_x: float, sigma_y: float, n_stds: float,
                       shape: tuple) -> None:
    """Refuse a direct kernel far larger than the image (its memory and time would not be
    bounded by the image's): a ValueError naming the sigmas."""
    y0, x0 = _half_sizes(theta, sigma_x, sigma_y, n_stds)
    area = (2 * x0 + 1) * (2 * y0 + 1)
    check_direct_kernel(area > max(DIRECT_AREA_FACTOR * math.prod(shape), DIRECT_MIN_AREA),
                        (2 * y0 + 1, 2 * x0 + 1), shape, frequency, theta, sigma_x, sigma_y)


def _gabor_image(image: Any) -> np.ndarray:
    """The image as scikit-image's ``gabor`` takes it: float32/float64 kept, integers *not* rescaled."""
    numpy_only(image)
    arr = gabor_image(check_input_array(image, "image"))
    if arr.dtype == np.float16:
        return arr.astype(np.float32)
    if arr.dtype not in (np.float32, np.float64):
        return arr.astype(np.float64)
    return arr


#: |sin(2 theta)| below this is an axis-aligned orientation (cos or sin at rounding of 0).
_AXIS_ALIGNED = 1e-12


def _axis_sigmas(theta: float, sigma_x: float, sigma_y: float) -> tuple[float, float] | None:
    """The Gaussian envelope's (column, row) sigmas where it is separable along the axes, else None."""
    ct, st = math.cos(theta), math.sin(theta)
    if sigma_x != sigma_y and abs(math.sin(2.0 * theta)) > _AXIS_ALIGNED:
        return None
    # exp(-rotx^2/2sx^2 - roty^2/2sy^2) without its (vanishing) cross term x y
    col = 1.0 / math.sqrt(ct * ct / sigma_x**2 + st * st / sigma_y**2)
    row = 1.0 / math.sqrt(st * st / sigma_x**2 + ct * ct / sigma_y**2)
    return col, row


def _axis_plan(sigma: float, carrier: float, n: int, tol: float | None):
    """The 1-D complex plan of ``exp(-k^2 / 2 sigma^2) exp(i carrier k)`` and its kernel sum, or None."""
    from ..plans import FIRPlan, SFTPlan, select_gaussian
    from ..plans.gaussian import gaussian_norm
    from ..plans.morlet import modulated_plan

    # each axis as accurate as sftwave.gaussian_filter's default Gaussian (or tol / 2 each)
    axis_tol = _axis_tol(sigma, tol)
    try:
        plan = select_gaussian(sigma, 0, tol=axis_tol, n=n)
    except ValueError:  # a Gaussian too wide for the image: the direct kernel instead
        return None
    if not isinstance(plan, (SFTPlan, FIRPlan)):  # not selected without wide=True
        return None
    mod = modulated_plan(plan, carrier, gaussian_norm(sigma))
    total = complex(mod.kernel.sum() if isinstance(mod, FIRPlan) else mod.kernel_sum[0])
    return mod, total


#: The FIR path's largest ``Rv + Rh`` (the two factors' half-lengths, samples): below it a
#: group's separable FIR costs less than its recursive passes (the timings behind the bound:
#: docs/performance.md, *Gabor filters*).
FIR_MAX_RADII = 320


@lru_cache(maxsize=256)
def fir_radius(sigma: float, tol: float) -> int:
    """The shortest half-length ``R`` whose truncated factor ``exp(-k^2 / 2 sigma^2) exp(i c k)``,
    ``|k| <= R``, has a relative RMSE of at most ``tol`` against the untruncated one (the
    carrier has unit modulus, so ``R`` does not depend on it).

    Examples
    --------
    >>> fir_radius(4.0, 1e-5) < fir_radius(4.0, 1e-8) < fir_radius(8.0, 1e-8)
    True
    """
    kmax = int(math.ceil(13.0 * sigma)) + 8          # exp(-k^2 / sigma^2) < 1e-73 beyond
    k = np.arange(kmax + 1, dtype=np.float64)
    e = np.exp(-(k * k) / (sigma * sigma))           # |h_k|^2
    e[1:] *= 2.0                                      # both sides
    tail = np.cumsum(e[::-1])[::-1]                   # tail[R] = energy at |k| >= R
    total = tail[0]
    # the first r (0 <= r < kmax) with sqrt(tail[r + 1] / total) <= tol, elementwise as one scan
    within = np.flatnonzero(np.sqrt(tail[1:] / total) <= tol)
    return int(within[0]) if within.size else kmax


def _fir_radius_exceeds(sigma: float, tol: float, limit: int) -> bool:
    """True where ``fir_radius(sigma, tol) > limit`` is certain without building the kernel.

    Every ``|h_k|^2 <= 1``, so the energy at ``|k| <= limit`` is at most ``2 limit + 1``; the
    total is above ``sqrt(pi) sigma - 2`` (the sum of ``exp(-k^2 / sigma^2)`` over the integers
    exceeds its integral less the peak, 1, and the cut at ``kmax`` drops less than 1e-73).  The
    relative tail energy beyond ``limit`` is then at least ``1 - (2 limit + 1) / (sqrt(pi) sigma
    - 2)``; where that is above ``tol^2`` no radius up to ``limit`` is within ``tol`` (the tail
    only shrinks as ``R`` grows).  Its cost is bounded by the request, not by ``sigma``.
    """
    total_low = math.sqrt(math.pi) * sigma - 2.0
    return total_low > 0.0 and 1.0 - (2 * limit + 1) / total_low > tol * tol


def _fir_half(sigma: float, carrier: float, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """``exp(-k^2 / 2 sigma^2)`` times ``cos(carrier k)`` and ``sin(carrier k)``, ``k = 0..radius``."""
    k = np.arange(radius + 1, dtype=np.float64)
    g = np.exp(-0.5 * (k / sigma) ** 2)
    return g * np.cos(carrier * k), g * np.sin(carrier * k)


def _axis_tol(sigma: float, tol: float | None) -> float:
    """Each axis's accuracy: as :func:`sftwave.gaussian_filter`'s default, or ``tol / 2``."""
    from ..plans.select import gaussian_tol

    return gaussian_tol(sigma, 0, 4.0) if tol is None else max(tol / 2.0, 1e-9)


def _fir_radii(sig: tuple[float, float], tol: float | None) -> tuple[int, int] | None:
    """The FIR path's half-lengths ``(Rv, Rh)`` for an envelope of ``(column, row)`` sigmas
    ``sig``, or None where the recursive passes cost less."""
    tols = (_axis_tol(sig[0], tol), _axis_tol(sig[1], tol))
    if any(_fir_radius_exceeds(sg, t, FIR_MAX_RADII) for sg, t in zip(sig, tols)):
        return None                 # either radius alone above the bound: no scan of a wide kernel
    rh = fir_radius(sig[0], tols[0])
    rv = fir_radius(sig[1], tols[1])
    return (rv, rh) if rv + rh <= FIR_MAX_RADII else None


def _lines(eng: Any, arr: np.ndarray, plans: list, mode: str, cval: float) -> np.ndarray:
    """Each complex 1-D plan along the last axis of real ``arr``: the scalogram's layout,
    ``arr.shape[:-1] + (len(plans), arr.shape[-1])``, NaN confined to each plan's support."""
    from .._checks import scalogram_dtype
    from ..engines import nonfinite

    lines = math.prod(int(d) for d in arr.shape[:-1])
    return nonfinite.scalogram_confined(
        eng, arr, plans, axis=arr.ndim - 1, mode=mode, cval=cval, kind="complex", decim=1,
        dtype=scalogram_dtype(None, arr.dtype == np.float32, "complex"), out=None, workers=None,
        bank_method=eng.bank_method("auto", lines), tol=1.0)


def _fir_bank(engine: str, image: np.ndarray, fir_groups: list, groups: dict, mode: str,
              cval: float, scale: complex, out: np.ndarray) -> None:
    """The groups of one frequency whose separable FIRs cost less than the recursions,
    into ``out`` (``(n_theta,) + image.shape``), one pass over the image per group."""
    pv = max(r[0] for _, r in fir_groups)
    ph = max(r[1] for _, r in fir_groups)
    taps = []
    for key, (rv, rh) in fir_groups:
        hc, hs = _fir_half(key[0], key[2], rh)
        vc, vs = _fir_half(key[1], key[3], rv)
        members = groups[key]
        signs = np.array([(sgx, sgy) for _, sgx, sgy in members], dtype=np.float64)
        t_index = np.array([t for t, _, _ in members], dtype=np.int64)
        taps.append((vc, vs, hc, hs, signs, t_index))
    op(engine, "gabor_fir_groups")(image, taps, (pv, ph), mode, cval, scale, out)


def _truncated_bank(image: np.ndarray, req: GaborRequest) -> np.ndarray:
    """The bank as scikit-image computes it: each kernel truncated at ``n_stds`` (complex64
    for a float32 image), its real and imaginary parts convolved by ``scipy.ndimage.convolve``."""
    from scipy import ndimage as ndi

    cdtype = np.complex64 if image.dtype == np.float32 else np.complex128
    out = np.empty((len(req.frequencies), len(req.thetas)) + image.shape, dtype=cdtype)
    for i, f in enumerate(req.frequencies):
        for t, theta in enumerate(req.thetas):
            g = _kernel(f, theta, req.bandwidth, req.sigma_x, req.sigma_y, req.n_stds,
                        req.offset, cdtype)
            out[i, t].real = ndi.convolve(image, g.real, mode=req.mode, cval=req.cval)
            out[i, t].imag = ndi.convolve(image, g.imag, mode=req.mode, cval=req.cval)
    return out


def _kernel(frequency: float, theta: float, bandwidth: float, sigma_x: float | None,
            sigma_y: float | None, n_stds: float, offset: float, dtype: Any) -> np.ndarray:
    """scikit-image's ``gabor_kernel`` of checked arguments, in ``dtype`` (complex)."""
    sx = _sigma_prefactor(bandwidth) / frequency if sigma_x is None else sigma_x
    sy = _sigma_prefactor(bandwidth) / frequency if sigma_y is None else sigma_y
    ct, st = math.cos(theta), math.sin(theta)
    y0, x0 = _half_sizes(theta, sx, sy, n_stds)
    y, x = np.meshgrid(np.arange(-y0, y0 + 1), np.arange(-x0, x0 + 1), indexing="ij", sparse=True)
    rotx = x * ct + y * st
    roty = -x * st + y * ct
    g = np.empty(roty.shape, dtype=dtype)
    np.exp(-0.5 * (rotx**2 / sx**2 + roty**2 / sy**2) + 1j * (2 * np.pi * frequency * rotx + offset),
           out=g)
    g *= 1 / (2 * np.pi * sx * sy)
    return g


def gabor_kernel(frequency: float, theta: float = 0, bandwidth: float = 1,
                 sigma_x: float | None = None, sigma_y: float | None = None, n_stds: float = 3,
                 offset: float = 0, dtype: Any = np.complex128) -> np.ndarray:
    """scikit-image's complex Gabor kernel, truncated at ``n_stds`` standard deviations.

    With ``x`` the column and ``y`` the row offset, ``x' = x cos(theta) + y sin(theta)``,
    ``y' = -x sin(theta) + y cos(theta)``:
    ``g = exp(-x'^2 / 2 sigma_x^2 - y'^2 / 2 sigma_y^2) exp(i (2 pi frequency x' + offset))
    / (2 pi sigma_x sigma_y)``, on the grid of half-sizes
    ``ceil(max(|n_stds sigma_x cos|, |n_stds sigma_y sin|, 1))`` (columns) and
    ``ceil(max(|n_stds sigma_y cos|, |n_stds sigma_x sin|, 1))`` (rows).

    Parameters
    ----------
    frequency : float
        Spatial frequency of the harmonic, cycles per pixel (positive).
    theta : float, optional
        Orientation in radians; 0: the harmonic along x (the columns).
    bandwidth : float, optional
        Bandwidth in octaves, which sets the sigmas not given.
    sigma_x, sigma_y : float, optional
        Standard deviations along x' and y'.
    n_stds : float, optional
        The kernel's half-size in standard deviations.
    offset : float, optional
        Phase offset of the harmonic, radians.
    dtype : {np.complex64, np.complex128}, optional
        The kernel's dtype (complex).

    Returns
    -------
    g : complex ndarray
        The kernel, ``(2 y0 + 1, 2 x0 + 1)``.

    Raises
    ------
    ValueError
        A non-positive ``frequency``, ``bandwidth``, sigma or ``n_stds``, a
        non-finite ``theta`` or ``offset``, or a ``dtype`` that is not complex.
    TypeError
        A parameter that is not a real number.

    See Also
    --------
    gabor : The image's responses (the untruncated kernel by default).

    Examples
    --------
    >>> from sftwave.feature import gabor_kernel
    >>> g = gabor_kernel(0.2)
    >>> g.shape, g.dtype
    ((19, 19), dtype('complex128'))
    """
    req = gabor_request(frequency, theta, bandwidth, sigma_x, sigma_y, n_stds, offset,
                        engine=engines.resolve_engine(None, np.empty(0)), single=True)
    return _kernel(req.frequencies[0], req.thetas[0], req.bandwidth, req.sigma_x, req.sigma_y,
                   req.n_stds, req.offset, complex_dtype(dtype))


def _gabor_bank(image: np.ndarray, req: GaborRequest) -> np.ndarray:
    """The checked bank: complex, shape ``(n_freq, n_theta) + image.shape``."""
    from scipy import ndimage as ndi

    if req.truncated:
        return _truncated_bank(image, req)

    frequencies, thetas, bandwidth = req.frequencies, req.thetas, req.bandwidth
    sigma_x, sigma_y, n_stds, offset = req.sigma_x, req.sigma_y, req.n_stds, req.offset
    mode, cval, tol = req.mode, req.cval, req.tol
    eng = engines.get(req.engine)
    # the engine's operations, looked up before any work
    transpose, split_transpose, combine = (op(req.engine, f"tiles_{name}")
                                           for name in ("transpose", "split_transpose", "combine"))
    op(req.engine, "gabor_fir_groups")
    cdtype = np.complex64 if image.dtype == np.float32 else np.complex128
    out = np.empty((len(frequencies), len(thetas)) + image.shape, dtype=cdtype)
    rows, cols = image.shape
    # non-finite pixels (or cval): the recursions confine them
    all_finite = eng.all_finite(image) and math.isfinite(cval)
    shift = mode == "constant" and cval != 0 and math.isfinite(cval)
    work = image - image.dtype.type(cval) if shift else image
    ecval = 0.0 if shift else cval
    for i, f in enumerate(frequencies):
        sx = _sigma_prefactor(bandwidth) / f if sigma_x is None else sigma_x
        sy = _sigma_prefactor(bandwidth) / f if sigma_y is None else sigma_y
        scale = complex(math.cos(offset), math.sin(offset)) / (2 * math.pi * sx * sy)
        groups: dict[tuple, list[tuple[int, float, float]]] = {}
        direct = []
        for t, theta in enumerate(thetas):
            ct, st = math.cos(theta), math.sin(theta)
            kx, ky = 2 * math.pi * f * ct, 2 * math.pi * f * st
            sig = _axis_sigmas(theta, sx, sy)
            if sig is None:
                direct.append(t)
                continue
            # orientations sharing |kx|, |ky| share both passes (conjugate carriers)
            key = (sig[0], sig[1], round(abs(kx), 13), round(abs(ky), 13))
            groups.setdefault(key, []).append((t, math.copysign(1.0, kx), math.copysign(1.0, ky)))
        built = []
        fir_groups = []
        for key in groups:
            radii = _fir_radii((key[0], key[1]), tol) if all_finite else None
            if radii is not None:
                fir_groups.append((key, radii))
                continue
            col = _axis_plan(key[0], key[2], cols, tol)
            row = _axis_plan(key[1], key[3], rows, tol)
            if col is None or row is None:
                direct.extend(t for t, _, _ in groups[key])
            else:
                built.append((key, col, row))
        if built:
            # the columns (axis 0) as the rows of the transposed image, one pass for every |ky|
            # plan of this frequency: (cols, plans, rows); then per plan its real and imaginary
            # parts back in row order, each along the rows (axis 1, contiguous) with |kx|
            yT = _lines(eng, transpose(work), [r[0] for _, _, r in built], mode, ecval)
            for j, (key, (cplan, csum), (_, rsum)) in enumerate(built):
                p = _lines(eng, split_transpose(yT, j), [cplan], mode, ecval)  # (2, rows, 1, cols)
                pa, pb = p[0, :, 0, :], p[1, :, 0, :]
                for t, sgx, sgy in groups[key]:
                    # (c + i sgx s) * (a + i sgy b), with c + i s the row kernel at |kx| and
                    # a + i b the column pass at |ky|: Pa + i sgy Pb, or where sgx < 0 the
                    # conjugate of (c + i s) * (a - i sgy b) = Pa - i sgy Pb: scale * w, or
                    # conj(conj(scale) * w) where sgx < 0, in one pass
                    sc = scale if sgx > 0 else scale.conjugate()
                    add = 0j
                    if shift:
                        ksum = ((csum if sgx > 0 else csum.conjugate())
                                * (rsum if sgy > 0 else rsum.conjugate()))
                        add = cval * scale * ksum
                    combine(pa, pb, sc, sc * (1j * sgx * sgy), sgx < 0, add, out[i, t])
        if fir_groups:
            _fir_bank(req.engine, image, fir_groups, groups, mode, cval, scale, out[i])
        for t in direct:
            _check_direct_size(f, thetas[t], sx, sy, n_stds, image.shape)
            g = _gabor_kernel(f, thetas[t], sx, sy, n_stds, offset)
            img64 = image.astype(np.float64)
            out[i, t].real = ndi.convolve(img64, g.real, mode=mode, cval=cval)
            out[i, t].imag = ndi.convolve(img64, g.imag, mode=mode, cval=cval)
    return out


def gabor_bank(image: ArrayLike, frequencies: float | Sequence[float], thetas: float | Sequence[float],
               bandwidth: float = 1, sigma_x: float | None = None, sigma_y: float | None = None,
               n_stds: float = 3, offset: float = 0, mode: str = "reflect", cval: float = 0,
               *, truncated: bool = False, tol: float | None = None, engine: str | None = None,
               workers: int | None = None) -> np.ndarray:
    """Gabor responses for every frequency and orientation at once, as one complex array.

    ``out[i, j]`` is ``real + 1j * imag`` of :func:`gabor` ``(image,
    frequencies[i], thetas[j], ...)``, computed together: orientations whose
    carriers have the same ``|kx|`` and ``|ky|`` (``theta`` and ``pi - theta``,
    ``theta`` and ``-theta``) share both 1-D passes, and one pass over the image
    runs every column filter of a frequency; at small sigma each such group is
    one pass of a separable FIR over the image instead (see :func:`gabor`).

    Parameters
    ----------
    image : array_like
        The image, 2-D only (float32 stays float32; integers and bool become
        float64, not rescaled, as scikit-image's ``gabor`` does not rescale them).
    frequencies : float or sequence of float
        Spatial frequencies of the harmonic, cycles per pixel (positive).
    thetas : float or sequence of float
        Orientations in radians (0: the harmonic along x, the columns).
    bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval
        As :func:`gabor` (``sigma_x``/``sigma_y`` are shared by all frequencies
        when given).
    truncated : bool, optional
        As :func:`gabor`.
    tol : float or None, optional
        As :func:`gabor`.
    engine, workers : optional
        As :func:`gabor`.

    Returns
    -------
    ndarray
        Complex, shape ``(n_freq, n_theta) + image.shape`` (complex64 for a
        float32 image, else complex128).

    Raises
    ------
    ValueError
        A non-positive frequency, bandwidth, sigma or ``n_stds``, an image that
        is not 2-D, an unknown ``mode``, or a non-finite ``theta``/``offset``;
        and a kernel that must be convolved directly (see :func:`gabor`) whose
        area exceeds 64 times the image's pixels (and 2**22).
    TypeError
        A complex or non-numeric image or parameter.

    See Also
    --------
    gabor : One frequency and orientation, scikit-image's signature.

    Examples
    --------
    >>> from sftwave.feature import gabor, gabor_bank
    >>> image = np.random.default_rng(0).random((32, 32))
    >>> bank = gabor_bank(image, [0.1, 0.2], np.arange(4) * np.pi / 4)
    >>> bank.shape
    (2, 4, 32, 32)
    >>> real, imag = gabor(image, 0.2, np.pi / 4)
    >>> bool(np.allclose(bank[1, 1], real + 1j * imag))
    True
    """
    arr = _gabor_image(image)
    req = gabor_request(frequencies, thetas, bandwidth, sigma_x, sigma_y, n_stds, offset, mode,
                        cval, tol, engine=engines.resolve_engine(engine, arr), workers=workers,
                        truncated=truncated)
    with threads(req.engine, req.workers):
        return _gabor_bank(arr, req)


def gabor(image: ArrayLike, frequency: float, theta: float = 0, bandwidth: float = 1,
          sigma_x: float | None = None, sigma_y: float | None = None, n_stds: float = 3,
          offset: float = 0, mode: str = "reflect", cval: float = 0,
          *, truncated: bool = False, tol: float | None = None, engine: str | None = None,
          workers: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The real and imaginary responses to a Gabor filter (scikit-image's ``skimage.filters.gabor``).

    The kernel is scikit-image's ``gabor_kernel``: with ``x`` the column and
    ``y`` the row offset, ``x' = x cos(theta) + y sin(theta)``,
    ``y' = -x sin(theta) + y cos(theta)``,

    ``g(x, y) = exp(-x'^2 / 2 sigma_x^2 - y'^2 / 2 sigma_y^2) exp(i (2 pi frequency x' + offset))
    / (2 pi sigma_x sigma_y)``,

    convolved with the image (``real`` with its real part, ``imag`` with its
    imaginary part), the image extended beyond its borders by ``mode``.  Where
    the Gaussian is separable along the axes, the result is the *untruncated*
    kernel's to ``tol``, at a cost per pixel that does not depend on sigma.

    Parameters
    ----------
    image : array_like
        The image, 2-D (float32 stays float32, float16 becomes float32; integers
        and bool become float64 *without* rescaling, as scikit-image's ``gabor``
        does not rescale them).
    frequency : float
        Spatial frequency of the harmonic, cycles per pixel (positive).
    theta : float, optional
        Orientation in radians; 0: the harmonic along x (the columns).
    bandwidth : float, optional
        Bandwidth in octaves; sets ``sigma_x`` and ``sigma_y`` (those not given)
        to ``sqrt(ln 2 / 2) / pi * (2^b + 1) / (2^b - 1) / frequency``.
    sigma_x, sigma_y : float, optional
        Standard deviations along x' and y' (before the rotation).
    n_stds : float, optional
        The half-size of scikit-image's truncated kernel, in standard deviations:
        used with ``truncated=True`` and by the fallback (see Notes).
    offset : float, optional
        Phase offset of the harmonic, radians.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders (``scipy.ndimage`` modes).
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    truncated : bool, optional
        True: scikit-image's kernel, truncated at ``n_stds`` standard deviations
        (:func:`gabor_kernel`), convolved directly as scikit-image does: its
        numbers to rounding, at a cost that grows with ``sigma_x * sigma_y``.
        False (default): the untruncated Gabor filter to ``tol``, which differs
        from scikit-image's at ``n_stds=3`` by its truncation (see Notes).
    tol : float or None, optional
        The accuracy of each axis's 1-D filter: the relative RMSE of its kernel
        against the exact sampled Gaussian times the carrier (each axis gets
        ``tol / 2``).  None: as :func:`sftwave.gaussian_filter`'s default (a
        quarter of scipy's kernel error at 4 sigma).  A keyword scikit-image
        does not have.
    engine : {None, 'auto', 'numba'}, optional
        As :func:`sftwave.gaussian_filter`'s; the Gabor passes need the CPU
        engine (another raises :class:`sftwave.engines.UnsupportedOperation`).
    workers : int, optional
        Threads to use (-1: all cores), for this call only.

    Returns
    -------
    real, imag : ndarray
        The responses, the image's shape (float32 for float32 input, else float64).

    Raises
    ------
    ValueError
        A non-positive ``frequency``, ``bandwidth``, ``sigma_x``, ``sigma_y`` or
        ``n_stds``, an image that is not 2-D, an unknown ``mode``; a kernel
        convolved directly (below) whose area exceeds 64 times the image's
        pixels (and 2**22): its time and memory would not be bounded by the image's.
    TypeError
        A complex or non-numeric image or parameter.

    See Also
    --------
    gabor_bank : Many frequencies and orientations at once.
    sftwave.gaussian_filter : The Gaussian plans the 1-D filters are made from.

    Notes
    -----
    *What is exact and what falls back.*  Where ``sigma_x == sigma_y`` (the
    default) or ``theta`` is a multiple of ``pi/2``, the kernel is a product
    ``g_c(x) g_r(y)`` of two 1-D complex filters (a Gaussian times
    ``exp(i kx x)`` along the rows, times ``exp(i ky y)`` along the columns):
    each is sftwave's Gaussian plan with every component's frequency shifted by
    the carrier, run as two passes at a cost independent of sigma, or, where
    the two factors' half-lengths add up to at most ``FIR_MAX_RADII`` (320
    samples: sigma up to about 35 at the default ``tol``) and the image is
    finite, their exact taps cut where the omitted tail's relative RMSE falls
    below each axis's tolerance (``fir_radius``), in one pass over the image
    per group of orientations (the cheaper of the two there, measured).  The
    result is then the **untruncated** Gabor filter to ``tol``; scikit-image's is
    truncated at ``n_stds`` (3 by default) standard deviations, which differs
    from it by scikit-image's truncation: measured on ``skimage.data`` images,
    5.6 % to 11.8 % of the response's largest value at ``n_stds=3`` (see the
    guide's page for scikit-image users; ``truncated=True`` gives
    scikit-image's numbers).  Otherwise (an anisotropic Gaussian at an angle, not separable),
    and for a Gaussian too wide for the image to plan, sftwave convolves with
    scikit-image's truncated kernel directly (``scipy.ndimage.convolve``, at
    ``n_stds``; a cost that grows with ``sigma_x * sigma_y``).

    Integer images: scikit-image returns the responses in the image's integer
    dtype (truncated, negative responses wrapped for unsigned types); sftwave
    returns float64.  NaN and inf are confined: an output is NaN where its
    kernel's window reaches a non-finite pixel.

    Examples
    --------
    >>> from sftwave.feature import gabor
    >>> image = np.zeros((33, 33))
    >>> image[16, 16] = 1.0
    >>> real, imag = gabor(image, frequency=0.2)
    >>> sigma = 0.56217 / 0.2                      # bandwidth 1: sigma * frequency = 0.56217
    >>> bool(abs(real[16, 16] - 1 / (2 * np.pi * sigma**2)) < 1e-4 * real[16, 16])
    True
    >>> bool(np.allclose(imag[16], -imag[16, ::-1]))   # an odd imaginary part along x
    True
    """
    arr = _gabor_image(image)
    req = gabor_request(frequency, theta, bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval,
                        tol, engine=engines.resolve_engine(engine, arr), workers=workers, single=True,
                        truncated=truncated)
    with threads(req.engine, req.workers):
        out = _gabor_bank(arr, req)[0, 0]
    return np.ascontiguousarray(out.real), np.ascontiguousarray(out.imag)


def gabor_reach(shape: tuple, frequencies: float | Sequence[float], thetas: float | Sequence[float],
                bandwidth: float = 1, sigma_x: float | None = None, sigma_y: float | None = None,
                n_stds: float = 3, tol: float | None = None) -> list[int]:
    """Per axis of a 2-D image of ``shape``, the samples :func:`gabor_bank` reads from each
    side of an output pixel (the 1-D plans' half-windows, or the direct kernel's half-size)."""
    from ..engines import nonfinite

    rows, cols = (int(d) for d in shape)
    reach = [0, 0]
    for f in _real_scalars(frequencies, "frequencies", positive=True):
        sx = _sigma_prefactor(bandwidth) / f if sigma_x is None else sigma_x
        sy = _sigma_prefactor(bandwidth) / f if sigma_y is None else sigma_y
        for theta in _real_scalars(thetas, "thetas", positive=False):
            ct, st = math.cos(theta), math.sin(theta)
            sig = _axis_sigmas(theta, sx, sy)
            if sig is not None:
                col = _axis_plan(sig[0], abs(2 * math.pi * f * ct), cols, tol)
                row = _axis_plan(sig[1], abs(2 * math.pi * f * st), rows, tol)
                if col is not None and row is not None:
                    reach[0] = max(reach[0], *nonfinite.support(row[0], rows))
                    reach[1] = max(reach[1], *nonfinite.support(col[0], cols))
                    radii = _fir_radii(sig, tol)     # the FIR path, where it is taken
                    if radii is not None:
                        reach = [max(reach[0], radii[0]), max(reach[1], radii[1])]
                    continue
            y0, x0 = _half_sizes(theta, sx, sy, n_stds)      # the direct kernel
            reach = [max(reach[0], y0), max(reach[1], x0)]
    return reach
