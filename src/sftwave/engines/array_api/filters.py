r"""The array-API engine: the SFT by the kernel integral on top of the sliding sum.

For a plan without decay (:math:`\alpha = 0`, the SFT), component :math:`p` is

.. math::

    S_p[n] = \sum_{j=0}^{L-1} w_p^j\, x_e[n + L - 1 - j]
           = e^{-i\omega_p (n + L - 1)} \sum_{m=n}^{n+L-1} x_e[m]\, e^{i\omega_p m},
    \qquad w_p = e^{-i\omega_p},

on the line :math:`x_e` extended by the boundary mode (output :math:`n` of the
signal reads :math:`x[n + \ell - j]`, :math:`\ell` the plan's lag, so
:math:`x_e[m] = x[m - (L - 1 - \ell)]`).  The sum is the paper's kernel
integral over one window (eq. kernelInt): the sliding sum
(``sftwave.engines.array_api.sliding``, Algorithm 1) of the modulated signal
:math:`x_e[m] e^{i\omega_p m}`.  The outputs combine :math:`\operatorname{Re}
S_p` and :math:`\operatorname{Im} S_p` with the plan's coefficients exactly as
the CPU bank does (:func:`sftwave.engines.numba.bank.apply`); with
:math:`c_p[t] = e^{i\omega_p t}` the combination and the demodulation fold into
one table,

.. math::

    y[n] = \sum_p U^r_p[n] \bigl(A_p \operatorname{Re} c_p - B_p \operatorname{Im} c_p\bigr)
         + U^i_p[n] \bigl(A_p \operatorname{Im} c_p + B_p \operatorname{Re} c_p\bigr),

evaluated at :math:`t = n + L - 1`, where :math:`U^r + iU^i` is the sliding sum.

Phases.  The line is cut into blocks of :math:`B \ge 2L` outputs, each read
with its :math:`L - 1` samples of overlap, and phases are counted from each
block's start: :math:`t < B + L`, whatever the signal's length.  The table
:math:`c_p[t]` is computed once in float64 with :math:`\omega_p t` exact (the
frequency split into a 26-bit head, whose product with :math:`t` is exact, and a
small tail) and rounded once to the working dtype, so a long line loses no phase
accuracy, in float32 as in float64.  The boundary
extension and the cutting into blocks are one ``take`` with an index array
built as scipy.ndimage extends a line.

Precision.  Each output is a sum of only :math:`L` modulated samples (a tree of
depth :math:`2\log_2 L`), so in float32 its rounding error is bounded by the
window, not by the position along the line: the SFT needs no attenuation here
(tests/engines/array_api/test_filters.py shows it on a 400 000-sample float32 signal with an
offset).  Each block is filtered minus its own mean, and that mean times the
kernel's sum is added back (exact: every output of a block reads only that
block's samples), so an offset, or a slowly wandering level, costs no digits.

The code uses only array-API operations (``array_api_compat``): it runs on
numpy arrays and on torch tensors on any device (CuPy too), returns the input's
array type on its device, and is differentiable with torch's autograd.  The
ASFT (decay) is not done here: the kernel integral needs none.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._checks import check_axis, check_mode
from ...plans.fit import SFTPlan
from .._boundary import MODE_CODES
from .._boundary import source_index as _source_index
from .sliding import check_length, sliding_sum

__all__ = ["MIN_BLOCK", "components", "filter1d", "fir1d", "source_index"]

#: Outputs per block at least (and at least 2 L): phases are counted from each
#: block's start, and each block costs L - 1 extra samples.
MIN_BLOCK = 4096


# ----------------------------------------------------------------------------- arrays


def namespace(x: Any):
    from array_api_compat import array_namespace

    return array_namespace(x)


def device_of(x: Any):
    from array_api_compat import device

    return device(x)


def dtypes(xp, dtype) -> tuple[Any, Any, Any]:
    """(work, real output, complex output) dtypes for an input dtype.

    float64 and complex128 work in float64; other floating dtypes (float32,
    float16, bfloat16, complex64) in float32; integers in float64.  Real
    outputs keep a floating input's dtype.
    """
    if dtype in (xp.float64, xp.complex128):
        return xp.float64, xp.float64, xp.complex128
    if dtype == xp.complex64:
        return xp.float32, xp.float32, xp.complex64
    if xp.isdtype(dtype, "real floating"):
        return xp.float32, dtype, xp.complex64
    if xp.isdtype(dtype, "integral"):
        return xp.float64, xp.float64, xp.complex128
    raise TypeError(f"input must have a numeric (integer, float or complex) dtype; got dtype {dtype}")


def source_index(pos: np.ndarray, n: int, mode: str) -> tuple[np.ndarray, np.ndarray | None]:
    """Where scipy.ndimage reads position ``pos`` of a line of ``n`` samples extended by ``mode``.

    The shared rule (:func:`sftwave.engines._boundary.source_index`) on an
    index array.  Returns ``(index, inside)``: ``index`` in ``[0, n)``;
    ``inside`` is None except for ``'constant'``, where it marks the positions
    inside the line (the others read ``cval``).

    Examples
    --------
    >>> import numpy as np
    >>> pos = np.arange(-3, 7)
    >>> source_index(pos, 4, "reflect")[0].tolist()     # d c b a | a b c d | d c
    [2, 1, 0, 0, 1, 2, 3, 3, 2, 1]
    >>> source_index(pos, 4, "mirror")[0].tolist()      # d c b | a b c d | c b a
    [3, 2, 1, 0, 1, 2, 3, 2, 1, 0]
    """
    pos = np.asarray(pos, dtype=np.int64)
    mode = check_mode(mode)
    idx = _source_index(pos, n, MODE_CODES[mode])
    if mode != "constant":
        return idx, None
    inside = idx >= 0
    return np.where(inside, idx, 0), inside


def _gather(xp, x, pos: np.ndarray, mode: str, fill):
    """``x`` (..., n) read at positions ``pos`` (1-D) as extended by ``mode``: (..., pos.size)."""
    n = int(x.shape[-1])
    idx, inside = source_index(pos, n, mode)
    dev = device_of(x)
    out = xp.take(x, xp.asarray(idx, device=dev), axis=-1)
    if inside is not None and not inside.all():
        fill_arr = xp.asarray(fill, dtype=x.dtype, device=dev)
        out = xp.where(xp.asarray(inside, device=dev), out, fill_arr)
    return out


def _block_layout(n_out: int, L: int) -> tuple[int, int, int]:
    """(B, nb, seg): outputs per block, blocks, samples per block (B + L - 1)."""
    B = min(max(2 * L, MIN_BLOCK), n_out)
    nb = -(-n_out // B)
    return B, nb, B + L - 1


def _segment_positions(B: int, nb: int, seg: int) -> np.ndarray:
    """Positions of the extended line read by each block, flattened (nb * seg)."""
    return (B * np.arange(nb, dtype=np.int64)[:, None] + np.arange(seg, dtype=np.int64)).ravel()


def _phase_table(omegas: np.ndarray, T: int) -> tuple[np.ndarray, np.ndarray]:
    """``cos(omega_p t)`` and ``sin(omega_p t)`` for ``t < T``, float64 (P, T), to a few ulp.

    ``omega t`` rounded to float64 would be off by up to half an ulp of
    ``omega t`` (2e-12 rad at t = 8192), so ``omega`` is split (Veltkamp) into
    ``hi`` with 26 significant bits, whose product with ``t < 2**26`` is exact,
    and a small ``lo``; ``cos(hi t + lo t)`` is expanded, and numpy's cos and
    sin reduce the exact ``hi t`` correctly.
    """
    om = np.asarray(omegas, dtype=np.float64)
    if T > 1 << 26:
        raise ValueError(f"phase table too long: {T} > 2**26 samples per block")
    c = om * 134217729.0  # 2**27 + 1
    hi = c - (c - om)
    lo = om - hi
    t = np.arange(T, dtype=np.float64)
    a = np.multiply.outer(hi, t)  # exact
    b = np.multiply.outer(lo, t)  # |b| <= 2**-26 |omega t|: its rounding is negligible
    ca, sa, cb, sb = np.cos(a), np.sin(a), np.cos(b), np.sin(b)
    return ca * cb - sa * sb, sa * cb + ca * sb


def _sliding_components(xp, segs, omegas: np.ndarray, L: int, work, dev):
    """Sliding sums ``U`` of the modulated segments: (..., nb, 2P, B); and the phase table.

    ``segs`` is (..., nb, seg) in the working dtype; rows ``0..P-1`` of ``U``
    are the real parts, ``P..2P-1`` the imaginary parts.
    """
    seg = int(segs.shape[-1])
    cos, sin = _phase_table(omegas, seg)
    table = xp.asarray(np.concatenate([cos, sin]), dtype=work, device=dev)  # (2P, seg)
    U = sliding_sum(xp.expand_dims(segs, axis=-2) * table, L)
    return U, cos, sin


def _check_plan(plan: SFTPlan) -> None:
    if not isinstance(plan, SFTPlan):
        raise TypeError(f"plan must be a sftwave.plans.SFTPlan; got {type(plan).__name__}")
    if plan.alpha != 0:
        raise ValueError(
            f"the 'xp' engine computes the SFT only (plan.alpha == 0); got plan.alpha={plan.alpha!r} "
            "(pass transform='sft')"
        )
    if plan.coef.shape[0] != 1:
        raise ValueError(f"plan must have one output; got coef of shape {plan.coef.shape}")


def _weights(plan: SFTPlan) -> tuple[np.ndarray, np.ndarray]:
    """(W_re, W_im), each (channels, P): channel c is sum_p W_re Re S_p + W_im Im S_p.

    A real plan has one channel; a complex plan two (its real and imaginary
    parts), as :func:`sftwave.engines.numba.bank.apply` splits it.
    """
    c = plan.coef[0]
    if np.iscomplexobj(c):
        return np.stack([c[0].real, c[0].imag]), np.stack([c[1].real, c[1].imag])
    return np.asarray(c[0:1], dtype=np.float64), np.asarray(c[1:2], dtype=np.float64)


def _centres(xp, segs):
    """Each block's centre (..., nb, 1): the median of at most 63 evenly spaced samples.

    As the CPU engine's (:func:`sftwave.engines.numba.lanes.row_centres`): a
    spike cannot move it, where it moves the block's mean by its amplitude
    over the block (the rounding of the sums then scales with the spike).
    """
    seg = int(segs.shape[-1])
    step = max(1, -(-seg // 63))
    picks = xp.sort(segs[..., ::step], axis=-1)
    mid = int(picks.shape[-1]) // 2
    return picks[..., mid:mid + 1]


def _filter_real(xp, x, plan: SFTPlan, mode: str, cval: float, work):
    """A real plan or a complex plan on real ``x`` (..., n) in dtype ``work``: channels (..., C, n)."""
    n = int(x.shape[-1])
    L = int(plan.length)
    omegas = np.asarray(plan.omegas, dtype=np.float64)
    dev = device_of(x)
    B, nb, seg = _block_layout(n, L)
    pos = _segment_positions(B, nb, seg) - plan.pad_before
    segs = xp.reshape(_gather(xp, x, pos, mode, cval), (*x.shape[:-1], nb, seg))
    centre = _centres(xp, segs)  # (..., nb, 1): each block's own centre
    U, cos, sin = _sliding_components(xp, segs - centre, omegas, L, work, dev)  # (..., nb, 2P, B)
    W_re, W_im = _weights(plan)
    dcos, dsin = cos[:, L - 1:L - 1 + B], sin[:, L - 1:L - 1 + B]  # c_p at t = i + L - 1
    sums = plan.window_sums
    dc = W_re @ sums.real + W_im @ sums.imag  # each channel's kernel sum
    # a Gaussian derivative's kernel sums to zero by construction (its fitted sum is
    # rounding, which times a large offset would leak it): the centre is not added back
    derivative = plan.info.get("kind") == "gaussian" and int(plan.info.get("order", 0)) >= 1
    channels = []
    for ch in range(W_re.shape[0]):
        a, b = W_re[ch][:, None], W_im[ch][:, None]
        M = np.concatenate([a * dcos - b * dsin, a * dsin + b * dcos])  # (2P, B), float64
        y = xp.sum(U * xp.asarray(M, dtype=work, device=dev), axis=-2)  # (..., nb, B)
        if not derivative:
            y = y + centre * float(dc[ch])
        channels.append(xp.reshape(y, (*x.shape[:-1], nb * B))[..., :n])
    return channels


def _prepare(x, axis: int, mode: str):
    xp = namespace(x)
    ndim = len(x.shape)
    axis = check_axis(axis, ndim)
    mode = check_mode(mode)
    work, real_out, complex_out = dtypes(xp, x.dtype)
    return xp, axis, mode, work, real_out, complex_out


def _parts(xp, x, cval, work):
    """[(real part, its cval)] or, for complex input, the real and imaginary parts."""
    if xp.isdtype(x.dtype, "complex floating"):
        c = complex(cval)
        return [(xp.astype(xp.real(x), work), c.real), (xp.astype(xp.imag(x), work), c.imag)]
    if isinstance(cval, complex) and cval.imag != 0:
        raise TypeError(f"cval must be a real number for real input; got {cval!r}")
    return [(xp.astype(x, work), float(np.real(cval)))]


def _assemble(xp, parts_out, complex_input: bool, complex_plan: bool, real_out, complex_out):
    """Channels per part -> the output: real, or complex (Re + i Im, parts combined)."""
    if not complex_input and not complex_plan:
        return xp.astype(parts_out[0][0], real_out)

    def as_complex(chs):
        if len(chs) == 1:
            return xp.astype(chs[0], complex_out)
        return xp.astype(chs[0], complex_out) + xp.astype(chs[1], complex_out) * 1j

    y = as_complex(parts_out[0])
    if complex_input:
        y = y + as_complex(parts_out[1]) * 1j
    return y


def filter1d(x: Any, plan: SFTPlan, *, axis: int = -1, mode: str = "reflect",
             cval: complex = 0.0) -> Any:
    """Apply an SFT plan along one axis of an array-API array, by the kernel integral.

    ``y[n] = sum_k h[k] x[n - k]`` with the plan's kernel ``h`` (see
    ``sftwave.plans.fit``), the line extended by ``mode`` as scipy.ndimage
    extends it: the same result as the CPU bank (:func:`sftwave.engines.numba.bank.apply`)
    with the same plan, to rounding.

    Parameters
    ----------
    x : array
        numpy array, torch tensor (any device) or other array-API array:
        integer, float or complex (real and imaginary parts are filtered
        separately).
    plan : SFTPlan
        A plan without decay (``plan.alpha == 0``): an SFT plan from
        :func:`sftwave.plans.gaussian.gaussian_plan` or :func:`sftwave.plans.morlet.morlet_plan`
        with transform ``'sft'``.
    axis : int, optional
        The axis to filter.  Default -1.
    mode : {'reflect', 'mirror', 'nearest', 'wrap', 'constant', 'grid-*'}, optional
        Boundary extension, as in scipy.ndimage.  Default 'reflect'.
    cval : scalar, optional
        Fill value for ``mode='constant'`` (complex only for complex input:
        each part is extended with its own part of ``cval``).

    Returns
    -------
    array
        Same array type and device as ``x``.  A real plan on real input gives
        ``x``'s floating dtype (float64 for integer input); a complex plan, or
        complex input, gives complex64 for single-precision input (float32,
        float16, bfloat16, complex64) and complex128 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.plans.gaussian import gaussian_plan
    >>> plan = gaussian_plan(16.0, 0, 1e-5, "sft")
    >>> y = filter1d(np.ones(100, dtype=np.float32), plan)
    >>> y.dtype, bool(np.allclose(y, 1.0, atol=1e-6))
    (dtype('float32'), True)
    """
    _check_plan(plan)
    xp, axis, mode, work, real_out, complex_out = _prepare(x, axis, mode)
    complex_input = bool(xp.isdtype(x.dtype, "complex floating"))
    complex_plan = bool(np.iscomplexobj(plan.coef))
    moved = xp.moveaxis(x, axis, -1)
    if math.prod(moved.shape) == 0:
        dt = complex_out if (complex_input or complex_plan) else real_out
        return xp.zeros(x.shape, dtype=dt, device=device_of(x))
    outs = [_filter_real(xp, part, plan, mode, c, work) for part, c in _parts(xp, moved, cval, work)]
    y = _assemble(xp, outs, complex_input, complex_plan, real_out, complex_out)
    return xp.moveaxis(y, -1, axis)


def fir1d(x: Any, kernel: np.ndarray, *, axis: int = -1, mode: str = "reflect",
          cval: complex = 0.0) -> Any:
    """Convolve along one axis with a centred FIR kernel, as array-API code.

    ``y[n] = sum_{k=-r}^{r} kernel[k + r] x[n - k]`` (``kernel`` of odd length
    ``2r + 1``, real or complex), the line extended by ``mode`` as
    scipy.ndimage extends it; one shifted multiply-add per tap, so the cost
    grows with the kernel.  Same dtype and array-type rules as :func:`filter1d`.
    This is how the engines other than 'numba' run the small scales that no SFT
    plan reaches.

    Examples
    --------
    >>> import numpy as np
    >>> fir1d(np.arange(5.0), np.array([0.25, 0.5, 0.25]), mode="nearest")
    array([0.25, 1.  , 2.  , 3.  , 3.75])
    """
    h = np.asarray(kernel)
    if h.ndim != 1 or h.size % 2 != 1:
        raise ValueError(f"kernel must be 1-D of odd length; got shape {h.shape}")
    xp, axis, mode, work, real_out, complex_out = _prepare(x, axis, mode)
    complex_input = bool(xp.isdtype(x.dtype, "complex floating"))
    complex_plan = bool(np.iscomplexobj(h))
    moved = xp.moveaxis(x, axis, -1)
    n = int(moved.shape[-1])
    if math.prod(moved.shape) == 0:
        dt = complex_out if (complex_input or complex_plan) else real_out
        return xp.zeros(x.shape, dtype=dt, device=device_of(x))
    r = h.size // 2
    kernels = [h.real, h.imag] if complex_plan else [h.astype(np.float64)]
    outs = []
    for part, c in _parts(xp, moved, cval, work):
        xe = _gather(xp, part, np.arange(-r, n + r), mode, c)
        chs = []
        for hk in kernels:
            acc = None
            for j in range(h.size):  # x[n - k] = xe[n + r - k], k = j - r
                wgt = float(hk[j])
                if wgt == 0.0:
                    continue
                term = xe[..., 2 * r - j:2 * r - j + n] * wgt
                acc = term if acc is None else acc + term
            chs.append(acc if acc is not None else part * 0.0)
        outs.append(chs)
    y = _assemble(xp, outs, complex_input, complex_plan, real_out, complex_out)
    return xp.moveaxis(y, -1, axis)


def components(x_ext: Any, omegas, L: int) -> Any:
    """The SFT components ``S_p[n]`` of already extended lines: (..., P, len - L + 1), complex.

    ``S_p[n] = sum_{j<L} exp(-i omega_p j) x_ext[..., n + L - 1 - j]``: the
    contract of :func:`sftwave.engines.numba.bank.components` (with ``alpha = 0``), computed
    as :func:`filter1d` computes it (blocks, phase table, sliding sum).  Meant
    for tests and experiments.

    Examples
    --------
    >>> import numpy as np
    >>> S = components(np.arange(6.0), [0.0], 3)
    >>> S.real.tolist()   # sliding sums of three samples
    [[3.0, 6.0, 9.0, 12.0]]
    """
    L = check_length(L)
    xp = namespace(x_ext)
    work, _, complex_out = dtypes(xp, x_ext.dtype)
    if xp.isdtype(x_ext.dtype, "complex floating"):
        raise TypeError(f"x_ext must be real; got dtype {x_ext.dtype}")
    omegas = np.atleast_1d(np.asarray(omegas, dtype=np.float64))
    P = omegas.size
    n_out = int(x_ext.shape[-1]) - L + 1
    dev = device_of(x_ext)
    if n_out <= 0:
        return xp.zeros((*x_ext.shape[:-1], P, 0), dtype=complex_out, device=dev)
    B, nb, seg = _block_layout(n_out, L)
    xs = _gather(xp, xp.astype(x_ext, work), _segment_positions(B, nb, seg), "nearest", 0.0)
    segs = xp.reshape(xs, (*x_ext.shape[:-1], nb, seg))
    U, cos, sin = _sliding_components(xp, segs, omegas, L, work, dev)
    dcos = xp.asarray(cos[:, L - 1:L - 1 + B], dtype=work, device=dev)
    dsin = xp.asarray(sin[:, L - 1:L - 1 + B], dtype=work, device=dev)
    Ur, Ui = U[..., :P, :], U[..., P:, :]
    re = dcos * Ur + dsin * Ui  # conj(c) (Ur + i Ui)
    im = dcos * Ui - dsin * Ur
    S = xp.astype(re, complex_out) + xp.astype(im, complex_out) * 1j  # (..., nb, P, B)
    S = xp.moveaxis(S, -3, -2)  # (..., P, nb, B)
    return xp.reshape(S, (*x_ext.shape[:-1], P, nb * B))[..., :n_out]
