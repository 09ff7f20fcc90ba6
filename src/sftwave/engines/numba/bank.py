r"""The exponential-sum bank: interchangeable methods behind one contract.

Every method computes, for each frequency :math:`\omega_p`, the windowed and
possibly damped exponential sum

.. math::

    S_p[n] = \sum_{j=0}^{L-1} w_p^j\, x_e[n + L - 1 - j], \qquad
    w_p = e^{-\alpha - i\omega_p},

of an extended line :math:`x_e` (for a centred window :math:`L = 2K + 1`, this
is the paper's :math:`c_p[n] - i s_p[n]` up to the factor :math:`w_p^{K}`), and
combines the components with a plan's coefficients.  :math:`\alpha = 0` is the
SFT, :math:`\alpha > 0` the ASFT.  The methods:

``'integral'``
    The kernel integral by prefix sums (paper eqs. kernel and kernelInter): a
    running sum of :math:`z^k x[k]` (:math:`z = 1/w`) differenced at lag
    :math:`L`.  The prefix restarts every block of outputs, so its growth, and
    the digits a large offset costs, are bounded by the block length
    (:math:`\max(L, 4096)`), not by the signal length.
``'window'``
    The windowed kernel integral by its own recurrence (eq. kernelIntZenka, with
    its typo mended: :math:`x[n - 2K - 1]`), re-referenced every block.
``'iir1'``
    The first-order complex recursive filter truncated by :math:`L = 2K+1`
    (eqs. iir1, iir12K1): :math:`T = wT + x[m] - w^L x[m-L]`.
``'iir1-2k'``
    The same truncated by :math:`L - 1 = 2K` plus the end sample (eqs. iir12K,
    sfiir12K); for the SFT :math:`w^{2K} = 1`, which saves a multiplication.
``'iir2'``
    The second-order real recursive filter (eq. iir2IntZenka and its ASFT form
    iir2AIntZenka): real coefficients only.  Poles on the unit circle make it
    the least accurate for the SFT at low frequencies.

``'auto'`` picks ``'iir1'``, the fastest accurate one on the CPU.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...plans.fit import SFTPlan, window_sums
from .._boundary import MODE_CODES
from . import bank_kernels as _numba
from . import pool as _pool

__all__ = ["METHODS", "resolve_method", "apply", "apply_runner", "runner", "components"]

#: Bank methods and their kernel codes.
METHODS = {
    "integral": _numba.INTEGRAL,
    "window": _numba.WINDOW,
    "iir1": _numba.IIR1,
    "iir1-2k": _numba.IIR1_2K,
    "iir2": _numba.IIR2,
}

AUTO_METHOD = "iir1"

#: A line is split into chunks of at least this many outputs (each chunk warms
#: up over L - 1 samples, so chunks are also at least 16 L long: the warm-ups
#: add at most 6 % to the work) ...
_MIN_CHUNK = 1 << 15

#: ... and of at most this many, whatever its row count: every chunk restarts
#: its recursion exactly from its own window, so rounding errors cannot
#: accumulate beyond one chunk (the SFT's only drift in float64).
_MAX_CHUNK = 1 << 22

#: Fewer rows than this are cut into about this many chunks in all (as finely as
#: ``_MIN_CHUNK`` allows), so that up to 16 threads share few long rows.  The
#: cut depends on the data's shape only, never on the thread count: a
#: restarted recursion rounds differently, and the result must be the same bits
#: on every machine (``tests/suites/test_determinism.py``).  Many rows run whole.
_SPLIT_CHUNKS = 16

#: Rows up to this long may be filtered in place (one work item each).
MAX_IN_PLACE = _MAX_CHUNK


def resolve_method(method: str) -> str:
    """A bank method name (checked by the caller, :func:`sftwave.engines.check_request`);
    ``'auto'`` becomes the default."""
    return AUTO_METHOD if method == "auto" else method


def threads() -> int:
    """Number of threads the bank runs on (sftwave's pool, :func:`sftwave.engines.numba.pool.threads`).

    Only the speed depends on it: how rows are cut into chunks does not
    (:func:`_work_items`).
    """
    return _pool.threads()


def _work_items(nrows: int, n: int, L: int,
                split: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split rows into (row, start, count) items by their shape alone (``split=False``: whole rows).

    Rows longer than ``_MAX_CHUNK`` are always cut; fewer rows than
    ``_SPLIT_CHUNKS`` are cut into about ``_SPLIT_CHUNKS`` chunks in all, each
    at least ``max(_MIN_CHUNK, 16 L)`` long.
    """
    chunks = -(-n // _MAX_CHUNK) if split else 1
    if split and nrows < _SPLIT_CHUNKS:
        want = -(-_SPLIT_CHUNKS // max(nrows, 1))
        chunks = max(chunks, min(want, n // max(_MIN_CHUNK, 16 * L)))
    size = -(-n // max(chunks, 1))
    starts = np.arange(0, n, size, dtype=np.int64)
    counts = np.minimum(size, n - starts).astype(np.int64)
    rows = np.repeat(np.arange(nrows, dtype=np.int64), starts.size)
    return rows, np.tile(starts, nrows), np.tile(counts, nrows)


def _two_level(base: np.ndarray, tmax: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Tables with base**t == coarse[:, t // S] * fine[:, t % S] for 0 <= t <= tmax."""
    S = max(1, int(math.isqrt(tmax)) + 1)
    C = tmax // S + 1
    logb = np.log(base.astype(np.complex128))
    fine = np.exp(np.multiply.outer(logb, np.arange(S, dtype=np.float64)))
    coarse = np.exp(np.multiply.outer(logb, S * np.arange(C, dtype=np.float64)))
    return np.ascontiguousarray(fine), np.ascontiguousarray(coarse), S


#: Largest growth exponent alpha * (block + L) the blocked integral methods allow.
_MAX_GROWTH = 40.0


def _block(L: int, alpha: float) -> int:
    """Outputs per block of the integral methods: at least L, at most the growth allows."""
    block = max(L, 4096)
    if alpha > 0:
        if alpha * (2 * L) > _MAX_GROWTH:
            raise ValueError(
                f"the integral methods need alpha * L <= {_MAX_GROWTH / 2:g} "
                f"(the damped prefix sum would overflow); got alpha={alpha!r}, L={L}"
            )
        block = max(L, min(block, int(_MAX_GROWTH / alpha) - L))
    return block


def _empty_tables():
    z = np.zeros((1, 1), dtype=np.complex128)
    return 1, z, z, z, z, 1


def run(
    x2d: np.ndarray,
    omegas: np.ndarray,
    alpha: float,
    L: int,
    pad_before: int,
    coef: np.ndarray,
    out: np.ndarray,
    *,
    mode: str = "reflect",
    cval: float = 0.0,
    method: str = "iir1",
    whole_rows: bool = False,
) -> np.ndarray:
    """Run a bank over the rows of ``x2d`` into ``out`` (rows, n_out, channels).

    ``coef`` has shape (channels, 2, P) and is real.  Output ``i`` of row ``r``
    uses the positions ``i - pad_before .. i - pad_before + L - 1`` of the row
    extended by ``mode``.  ``whole_rows`` runs each row as one work item (each
    copies its row before writing), so ``out`` may be ``x2d`` itself (in place,
    for rows of at most ``MAX_IN_PLACE`` samples); otherwise a row is split
    among the threads.
    """
    nrows = x2d.shape[0]
    n = out.shape[1]
    if n == 0 or nrows == 0:
        return out
    return runner(nrows, n, omegas, alpha, L, pad_before, coef, mode=mode, cval=cval,
                  method=method, whole_rows=whole_rows)(x2d, out)


def runner(nrows: int, n: int, omegas: np.ndarray, alpha: float, L: int, pad_before: int,
           coef: np.ndarray, *, mode: str, cval: float, method: str,
           whole_rows: bool = False) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """:func:`run` for ``nrows`` rows of ``n`` outputs, its arguments prepared: ``go(x2d, out)``.

    The kernel, its tables and work items are found once; each call of
    ``go`` runs the same kernel with the same arguments as :func:`run` would
    (so the same results), at the cost of the pool's dispatch alone.
    """
    omegas = np.ascontiguousarray(omegas, dtype=np.float64)
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    code = METHODS[method]
    tables = _bank_tables(omegas, float(alpha), int(L), coef, code)
    rows, starts, counts = _work_items_cached(nrows, n, int(L), not whole_rows)
    work = float(counts.sum() + L * counts.size) * (omegas.size + 1)
    head = (rows, starts, counts, int(pad_before), int(L), MODE_CODES[mode], float(cval), code)
    loop = _pool.prepared_for(_numba.RUN_BANK[code], rows.size, work=work)

    def go(x2d: np.ndarray, out: np.ndarray) -> np.ndarray:
        loop(x2d, *head, *tables, out)
        return out

    return go


#: The bank's per-plan tables and the work items per shape, kept for the next call with the
#: same arguments (at most this many of each; then they are forgotten all at once).
_MEMO_SIZE = 256
_TABLES: dict = {}
_ITEMS: dict = {}


def _bank_tables(omegas: np.ndarray, alpha: float, L: int, coef: np.ndarray, code: int) -> tuple:
    """The arguments of ``run_bank`` that depend on the plan alone (poles, their powers,
    the integral methods' tables, the coefficients and each channel's kernel sum), computed
    once per plan and method: the same arrays on every call, so the same results."""
    key = (omegas.tobytes(), alpha, L, coef.shape, coef.tobytes(), code)
    hit = _TABLES.get(key)
    if hit is not None:
        return hit
    w = np.exp(-alpha - 1j * omegas)
    if code == _numba.IIR1:
        c = np.exp(L * np.log(w))
    else:
        c = np.exp((L - 1) * np.log(w))
    if code in (_numba.INTEGRAL, _numba.WINDOW):
        B = _block(L, alpha)
        tmax = B + L + 1
        wf, wc, S = _two_level(w, tmax)
        zf, zc, _ = _two_level(1.0 / w, tmax)
    else:
        B, wf, wc, zf, zc, S = _empty_tables()
    sums = window_sums(w, L)
    dc = coef[:, 0, :] @ sums.real + coef[:, 1, :] @ sums.imag  # each channel's kernel sum
    tables = (np.ascontiguousarray(w.real), np.ascontiguousarray(w.imag),
              np.ascontiguousarray(c.real), np.ascontiguousarray(c.imag),
              B, wf, wc, zf, zc, S, coef.copy(), np.ascontiguousarray(dc))
    if len(_TABLES) >= _MEMO_SIZE:
        _TABLES.clear()
    _TABLES[key] = tables
    return tables


def _work_items_cached(nrows: int, n: int, L: int, split: bool) -> tuple[np.ndarray, ...]:
    """:func:`_work_items`, kept per shape (the kernels only read the items)."""
    key = (nrows, n, L, split)
    hit = _ITEMS.get(key)
    if hit is None:
        hit = _work_items(nrows, n, L, split)
        if len(_ITEMS) >= _MEMO_SIZE:
            _ITEMS.clear()
        _ITEMS[key] = hit
    return hit


def apply(plan: SFTPlan, x2d: np.ndarray, out: np.ndarray, *, mode: str, cval: float,
          method: str, whole_rows: bool = False) -> np.ndarray:
    """Filter every row of ``x2d`` with a real plan into ``out`` (rows, n, outputs); see :func:`run`."""
    return run(x2d, plan.omegas, plan.alpha, plan.length, plan.pad_before, _real_coef(plan), out,
               mode=mode, cval=cval, method=method, whole_rows=whole_rows)


def apply_runner(plan: SFTPlan, nrows: int, n: int, *, mode: str, cval: float,
                 method: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """:func:`apply` for ``nrows`` rows of ``n`` samples, prepared once (:func:`runner`)."""
    return runner(nrows, n, plan.omegas, plan.alpha, plan.length, plan.pad_before,
                  _real_coef(plan), mode=mode, cval=cval, method=method)


def _real_coef(plan: SFTPlan) -> np.ndarray:
    """The plan's coefficients as real channels (channels, 2, P)."""
    coef = plan.coef
    if np.iscomplexobj(coef):
        # complex target: real and imaginary parts are two real channels
        coef = np.stack([coef.real, coef.imag], axis=1).reshape(-1, 2, coef.shape[-1])
    return coef


def components(x_ext: np.ndarray, omegas, alpha: float, L: int, method: str = "iir1") -> np.ndarray:
    """The components ``S_p[n]`` of an already extended line, shape (P, len(x_ext) - L + 1).

    Runs the same kernels as :func:`apply`, with one output channel per real
    and imaginary part.  Meant for tests and experiments.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(6.0)
    >>> S = components(x, [0.0], 0.0, 3)
    >>> S.real.tolist()   # sliding sums of three samples
    [[3.0, 6.0, 9.0, 12.0]]
    """
    x_ext = np.ascontiguousarray(x_ext, dtype=np.float64)
    omegas = np.atleast_1d(np.asarray(omegas, dtype=np.float64))
    P = omegas.size
    n_out = x_ext.size - L + 1
    if n_out <= 0:
        return np.zeros((P, 0), dtype=np.complex128)
    coef = np.zeros((2 * P, 2, P))
    coef[2 * np.arange(P), 0, np.arange(P)] = 1.0
    coef[2 * np.arange(P) + 1, 1, np.arange(P)] = 1.0
    out = np.zeros((1, n_out, 2 * P))
    run(x_ext[None, :], omegas, alpha, L, 0, coef, out, method=resolve_method(method))
    return out[0].view(np.complex128).T.copy()
