"""The throughput engine: many plans run side by side on all cores.

The bank (``sftwave.engines.numba.bank``) runs one plan over rows; this engine runs a list
of *lanes* - each a plan applied to one stretch of one input row, written to
one output row - in groups of ``width`` side by side (structure of arrays, so
the innermost loop vectorises), the groups in parallel.  It computes the same
components as the bank's ``iir1`` method (a first-order complex recursion
truncated by ``L``) and runs the scalogram's bank plans for
``bank_method='iir1'`` (what ``'auto'`` resolves to from 8 lanes on): one lane
per (input row, frequency) (``sftwave.engines.numba.scalogram``).

The output is written once, in its final form (real, complex, power, modulus
or phase), optionally every ``decim``-th sample: between outputs only the
recursions advance.  Each input row is filtered minus its centre (the median
of evenly spaced samples, :func:`row_centres`, which a spike cannot move), and
the centre times each kernel's sum is added back, as in the bank.

The state runs in float64, or in float32 where the caller knows the ASFT keeps
it accurate (the Morlet transform at single-precision output and ordinary
tolerances; see docs/design.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...plans.fit import SFTPlan
from .._boundary import MODE_CODES
from . import lane_kernels as _k
from . import vectors
from ._jit import DISABLE_ENV, NOALIAS_REASON, internals_disabled, warn_fast_path_off
from .bank_kernels import CENTRE_SAMPLES
from .extended_rows import extend_rows
from .pool import parallel_for

__all__ = ["Lane", "LaneTable", "run", "row_centres", "vector_kernel_runs", "KINDS", "SUM_CHANNELS",
           "DEFAULT_WIDTH"]

#: Output kinds and their kernel codes.
KINDS = {"real": _k.REAL, "complex": _k.COMPLEX, "power": _k.POWER, "abs": _k.ABS, "phase": _k.PHASE,
         "sum_power": _k.SUM_POWER, "sum_unit": _k.SUM_UNIT, "sum_power_unit": _k.SUM_BOTH}

#: The kinds that add over the lanes of an output row (:func:`run`), and their channels.
SUM_CHANNELS = {"sum_power": 1, "sum_unit": 2, "sum_power_unit": 3}

#: Lanes of the same output row that a task of the summing kinds gathers at most (more
#: rows join a task until its groups are nearly full: see :func:`_sum_places`).
_SUM_TASK_LANES = 256

#: Lanes side by side: 16 float32 or float64 values fill two to four AVX registers,
#: enough independent work to hide the recursions' latency (the best width measured:
#: docs/performance.md, *Figures behind the code's choices*).
DEFAULT_WIDTH = 16

#: Few long rows are extended (copied, minus their centre) in about this many pieces in all.
_EXTEND_PIECES = 32

#: The vector kernel reads the rows in place (no extended copy) for at most this many plans:
#: a filter's.  A scalogram's many plans share one copy, which costs little next to them.
_DIRECT_PLANS = 1


@dataclass(frozen=True)
class Lane:
    """One plan on outputs ``n_lo <= n < n_hi`` of input row ``in_row``, into ``out_row``."""

    plan: SFTPlan
    in_row: int
    out_row: int
    n_lo: int
    n_hi: int


@dataclass(frozen=True, eq=False)
class LaneTable:
    """Many lanes as arrays: lane ``l`` runs ``plans[plan[l]]`` on outputs
    ``n_lo[l] <= n < n_hi[l]`` of input row ``in_row[l]``, into ``out_row[l]``.

    The engine's own form of a list of :class:`Lane`.  A scalogram of
    60 x 32 rows and 37 plans has 71,040 lanes, whose set-up one Python object
    at a time cost more than the kernel's own time (docs/performance.md, *The
    users' workloads*); from the table it is a few array operations.

    Examples
    --------
    >>> from sftwave.plans.gaussian import gaussian_plan
    >>> p = gaussian_plan(4.0, 0, 1e-4, "sft")
    >>> t = LaneTable.grid([p, p], rows=3, n=100)
    >>> len(t), t.out_row.tolist()
    (6, [0, 1, 2, 3, 4, 5])
    """

    plans: tuple
    plan: np.ndarray
    in_row: np.ndarray
    out_row: np.ndarray
    n_lo: np.ndarray
    n_hi: np.ndarray

    @classmethod
    def of(cls, lanes: list[Lane]) -> LaneTable:
        """The table of a list of :class:`Lane` (plans told apart by identity)."""
        index: dict[int, int] = {}
        plans: list = []
        for ln in lanes:
            if id(ln.plan) not in index:
                index[id(ln.plan)] = len(plans)
                plans.append(ln.plan)
        rows = [[index[id(ln.plan)], ln.in_row, ln.out_row, ln.n_lo, ln.n_hi] for ln in lanes]
        a = np.array(rows, dtype=np.int64).reshape(len(lanes), 5)
        return cls(tuple(plans), *(np.ascontiguousarray(a[:, i]) for i in range(5)))

    @classmethod
    def grid(cls, plans, rows: int, n: int) -> LaneTable:
        """Every plan on every whole row of ``n`` samples: lane ``(r, i)`` writes output row ``r * len(plans) + i``."""
        F = len(plans)
        r, i = np.divmod(np.arange(rows * F, dtype=np.int64), F)
        return cls(tuple(plans), i, r, r * F + i, np.zeros(rows * F, np.int64),
                   np.full(rows * F, n, np.int64))

    def __len__(self) -> int:
        return int(self.plan.size)

    def take(self, keep: np.ndarray) -> LaneTable:
        """The lanes that ``keep`` selects (a boolean mask or indices)."""
        return LaneTable(self.plans, self.plan[keep], self.in_row[keep], self.out_row[keep],
                         self.n_lo[keep], self.n_hi[keep])


def vector_kernel_runs(dtype=None) -> bool:
    """Whether groups of 16 lanes run on the explicit vectors (:data:`~.lane_kernels.RUN_LANES_16`),
    with state of ``dtype`` (float32 or float64; None: in both).

    Where numba's internals that the fast kernels use are unavailable (probed
    by ``.vectors`` and ``._jit``), the plain kernel
    (:func:`~.lane_kernels.run_lanes`) runs instead, and a
    :class:`~._jit.NumbaInternalsWarning` says why, once per process.
    """
    runs = vectors.usable(dtype)
    if internals_disabled():
        warn_fast_path_off([f"{DISABLE_ENV} is set: the lane engine runs its plain kernel, "
                            "without the 'noalias' option"])
    else:
        warn_fast_path_off(
            ([] if runs else [f"the lane engine runs its plain kernel, not the explicit "
                              f"vectors ({vectors.REASON})"])
            + ([] if NOALIAS_REASON is None else [f"the lane kernels run without the "
                                                  f"'noalias' option ({NOALIAS_REASON})"]))
    return runs


def row_centres(x2d: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The centre of each row in ``rows``: the median of at most 63 evenly spaced samples.

    As :func:`~sftwave.engines.numba.bank_kernels.segment_centre` (the bank's):
    a transient of any amplitude moves it by at most the spread of the
    other samples, where it moves the mean by its amplitude over the length
    (in float32, a spike of 1e3 over noise of 1e-3 made rows wrong by 17 %
    before the spike).

    Examples
    --------
    >>> x = np.zeros((1, 1000)); x[0, 500] = 1e12
    >>> row_centres(x, np.array([0])).tolist()
    [0.0]
    """
    n = x2d.shape[1]
    m = min(n, CENTRE_SAMPLES) if n else 0
    if m == 0:
        return np.zeros(rows.size)
    picks = (np.arange(m, dtype=np.int64) * n) // m
    return np.median(x2d[:, picks][rows].astype(np.float64), axis=1)


def _coefficients(plan: SFTPlan, kind: str) -> tuple[np.ndarray, ...]:
    """(ar, br, ai, bi): the real and imaginary output's weights on Re S_p and Im S_p."""
    c = plan.coef[0]
    if kind == "real":
        if np.iscomplexobj(c):
            raise ValueError("a real output needs a real plan")
        zero = np.zeros(c.shape[1])
        return c[0], c[1], zero, zero
    c = c.astype(np.complex128)
    return c[0].real, c[1].real, c[0].imag, c[1].imag


#: :func:`_plan_rows` of the plans seen so far, by the plans' identities, the kind and P (each
#: entry holds its plans, so the identities stay theirs; the arrays are read-only).  At most
#: ``_PLAN_ROWS_SIZE`` entries.
_PLAN_ROWS: dict[tuple, tuple[tuple, tuple[np.ndarray, ...]]] = {}
_PLAN_ROWS_SIZE = 256


def _plan_rows(plans, kind: str, P: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per plan, padded with zeros to P components: w, w^L, the weights (ar, br, ai, bi) and dc.

    ``dc`` is the output's kernel sum, the factor of the row mean added back.  Kept for
    the next call with the same plan objects (:data:`_PLAN_ROWS`).
    """
    key = (tuple(id(p) for p in plans), kind, P)
    hit = _PLAN_ROWS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], plans)):
        return hit[1]  # type: ignore[return-value]
    rows = _plan_rows_of(plans, kind, P)
    for a in rows:
        a.flags.writeable = False
    if len(_PLAN_ROWS) >= _PLAN_ROWS_SIZE:
        _PLAN_ROWS.clear()
    _PLAN_ROWS[key] = (tuple(plans), rows)
    return rows


def _plan_rows_of(plans, kind: str, P: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_plan_rows`, computed."""
    U = len(plans)
    w = np.zeros((U, P), np.complex128)
    wL = np.zeros((U, P), np.complex128)
    weights = np.zeros((4, U, P))
    dc = np.zeros(U, np.complex128)
    for u, plan in enumerate(plans):
        Pp = plan.omegas.size
        w[u, :Pp] = plan.w
        wL[u, :Pp] = np.exp(plan.length * np.log(plan.w))
        a_r, b_r, a_i, b_i = _coefficients(plan, kind)
        weights[:, u, :Pp] = a_r, b_r, a_i, b_i
        sums = plan.window_sums
        dc[u] = (a_r + 1j * a_i) @ sums.real + (b_r + 1j * b_i) @ sums.imag
    return w, wL, weights, dc


def _sum_places(out_row: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The places of lanes sorted by output row, for the summing kinds: ``(place, task_groups)``.

    Consecutive output rows (each a run of lanes) join a task until its lanes
    nearly fill whole groups (at most 2 % free) or reach :data:`_SUM_TASK_LANES`;
    each task's last group is padded with free places (``place`` -1; else the
    lane's index).  ``task_groups[k]`` is task ``k``'s first group.  No output
    row is split between tasks, and the cut depends on the rows alone.

    Examples
    --------
    >>> place, tasks = _sum_places(np.repeat([0, 1, 2], 12), 16)
    >>> tasks.tolist(), int((place < 0).sum())
    ([0, 3], 12)
    """
    starts = np.flatnonzero(np.r_[True, out_row[1:] != out_row[:-1]])
    sizes = np.diff(np.r_[starts, out_row.size]).tolist()
    place: list[np.ndarray] = []
    task_groups = [0]
    groups = 0
    lane = 0
    count = 0
    for size in sizes:
        count += size
        if count >= _SUM_TASK_LANES or (-count) % width <= 0.02 * count:
            pad = (-count) % width
            place.append(np.arange(lane, lane + count))
            place.append(np.full(pad, -1))
            lane += count
            groups += (count + pad) // width
            task_groups.append(groups)
            count = 0
    if count:
        pad = (-count) % width
        place += [np.arange(lane, lane + count), np.full(pad, -1)]
        task_groups.append(groups + (count + pad) // width)
    return np.concatenate(place).astype(np.int64), np.array(task_groups, np.int64)


def run(x2d: np.ndarray, lanes, out: np.ndarray, *, mode: str = "reflect",
        cval: float = 0.0, decim: int = 1, kind: str = "real", dtype=np.float64,
        width: int = DEFAULT_WIDTH) -> np.ndarray:
    """Run ``lanes`` (a :class:`LaneTable`, or a list of :class:`Lane`) over the rows of ``x2d`` into ``out``.

    ``out`` has shape (rows, ceil(n / decim), channels), channels 2 for
    ``kind='complex'`` and 1 otherwise (a float view of a complex array for
    complex output); it may be any floating dtype and strided (float32 and
    float64 are written directly, others through a float64 array).  Output ``n``
    of a lane (a multiple of ``decim``) lands at ``out[out_row, n // decim]``.

    The summing kinds (:data:`SUM_CHANNELS`) *add* each lane's output to its
    row instead, many lanes to one row: ``'sum_power'`` adds ``|y|^2``,
    ``'sum_unit'`` ``y / |y|`` (two channels, real and imaginary),
    ``'sum_power_unit'`` both (three channels); ``out`` (float64) holds the
    sums so far (zeros to start).  The sums of a row run in one thread, in an
    order set by the table alone: the same bits on any number of threads.
    """
    table = lanes if isinstance(lanes, LaneTable) else LaneTable.of(list(lanes))
    table = table.take(table.n_hi > table.n_lo)
    if len(table) == 0:
        return out
    summing = kind in SUM_CHANNELS
    if summing and (out.dtype != np.float64 or out.shape[2] != SUM_CHANNELS[kind]):
        raise ValueError(f"kind={kind!r} adds into float64 rows of {SUM_CHANNELS[kind]} channels; "
                         f"got {out.dtype} with {out.shape[2]}")
    if out.dtype not in (np.float32, np.float64):
        # the kernels write float32 or float64; any other floating dtype (float16,
        # longdouble) is written through a float64 array and rounded once
        tmp = np.empty(out.shape, dtype=np.float64)
        written = np.zeros(out.shape[:2], dtype=bool)
        for r, lo, hi in zip(table.out_row.tolist(), table.n_lo.tolist(), table.n_hi.tolist()):
            written[r, -(-lo // decim):-(-hi // decim)] = True
        run(x2d, table, tmp, mode=mode, cval=cval, decim=decim, kind=kind, dtype=dtype, width=width)
        out[written] = tmp[written]
        return out
    dtype = np.dtype(dtype)
    N = x2d.shape[1]
    code = KINDS[kind]
    # Only the outputs n < N that are multiples of decim are written, so any decim >= N
    # writes the same (n = 0) as decim = N: bounding it bounds the front room and the
    # idle steps below by the signal's length, whatever decim the caller asked for.
    decim = max(1, min(int(decim), N))
    lay = _layout(table, N, decim, kind, dtype, width)
    # (x2d[rows_used] would copy the rows first: 15 MB for the EEG epochs)
    centre = row_centres(x2d, lay.rows_used)
    # one plan on its rows (a filter): the vector kernel reads C-contiguous float rows as
    # they are, extending them where a lane reads beyond them, one pass over the samples
    # fewer.  Otherwise (many plans share the copy; strided or integer rows; an output that
    # may overlap them, filtering in place) they are copied once, extended and minus their
    # centre, into xe.
    direct = (lay.vector and lay.nplans <= _DIRECT_PLANS and x2d.flags.c_contiguous
              and x2d.dtype in (np.float32, np.float64) and not np.may_share_memory(x2d, out))
    if direct:
        xe = np.empty((lay.rows_used.size, 0), dtype=dtype)
    else:
        xe = np.empty((lay.rows_used.size, lay.front + lay.length + decim + 1), dtype=dtype)
        # few long rows are extended in pieces, about two for each of up to 16 threads (a
        # copy: the pieces change no value, but they too are cut by the shape alone)
        pieces = max(1, min(-(-_EXTEND_PIECES // lay.rows_used.size), xe.shape[1] // 65536))
        parallel_for(extend_rows, lay.rows_used.size * pieces, x2d, lay.rows_used, -lay.pad_l,
                     lay.length, lay.front, MODE_CODES[mode], float(cval), centre.astype(dtype), xe,
                     pieces, work=xe.size)
    base = centre[lay.row] * lay.dc_u
    base_r = lay.lanes_of(base.real.astype(dtype), 0)
    base_i = lay.lanes_of(base.imag.astype(dtype), 0)
    args: tuple = (lay.task_groups, xe, lay.lane_row_g, lay.lane_shift, lay.lane_L,
                   lay.lane_start, lay.lane_off, lay.lane_out, lay.lane_nlo, lay.lane_nhi,
                   lay.m_lo, lay.m_hi, lay.m_steady, lay.m_stop, lay.phase, lay.group_P,
                   lay.group_coefs, lay.coefs, base_r, base_i, decim, code, out)
    if lay.vector:
        xs = x2d if direct else None   # None: a specialisation without the direct reads
        args += (direct, xs, lay.rows_used, centre.astype(dtype), -lay.pad_l, lay.front,
                 lay.length, MODE_CODES[mode], float(cval), lay.m_in_lo, lay.m_in_hi)
    parallel_for(lay.run_groups, lay.ntasks, *args, work=lay.work, chunks=lay.ntasks)
    return out


class _Layout:
    """How :func:`run` lays a table's lanes out in groups, for rows of ``N`` samples: every
    array the kernels read but the samples, their centres and the output (attributes named
    as :func:`run` names them)."""

    G: int
    width: int
    real: np.ndarray
    work: float
    ntasks: int
    nplans: int
    pad_l: int
    front: int
    length: int
    vector: bool
    run_groups: Any
    rows_used: np.ndarray
    row: np.ndarray
    dc_u: np.ndarray
    task_groups: np.ndarray
    lane_row_g: np.ndarray
    lane_shift: np.ndarray
    lane_L: np.ndarray
    lane_start: np.ndarray
    lane_off: np.ndarray
    lane_out: np.ndarray
    lane_nlo: np.ndarray
    lane_nhi: np.ndarray
    m_lo: np.ndarray
    m_hi: np.ndarray
    m_steady: np.ndarray
    m_stop: np.ndarray
    phase: np.ndarray
    group_P: np.ndarray
    group_coefs: np.ndarray
    coefs: np.ndarray
    m_in_lo: np.ndarray
    m_in_hi: np.ndarray

    def lanes_of(self, values, fill=None):
        """Per-place values as (G, width); the free places' set to ``fill`` (else their lane's)."""
        a = np.array(values)
        if fill is not None:
            a[~self.real] = fill
        return a.reshape(self.G, self.width)


#: :func:`_layout` of small tables (at most ``_LAYOUT_LANES`` lanes), by the plans' identities,
#: the table's arrays and the other arguments (each entry holds its plans, so the identities
#: stay theirs): a repeated small transform lays its lanes out once.  The kernels only read
#: the arrays.  At most ``_LAYOUTS_SIZE`` entries.
_LAYOUTS: dict[tuple, tuple[tuple, _Layout]] = {}
_LAYOUTS_SIZE = 64
_LAYOUT_LANES = 4096


def _layout(table: LaneTable, N: int, decim: int, kind: str, dtype: np.dtype,
            width: int) -> _Layout:
    """The lanes' layout (:class:`_Layout`), kept for small tables (:data:`_LAYOUTS`)."""
    if len(table) > _LAYOUT_LANES:
        return _layout_of(table, N, decim, kind, dtype, width)
    key = (tuple(id(p) for p in table.plans), table.plan.tobytes(), table.in_row.tobytes(),
           table.out_row.tobytes(), table.n_lo.tobytes(), table.n_hi.tobytes(), N, decim, kind,
           dtype.str, width)
    hit = _LAYOUTS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], table.plans)):
        return hit[1]
    lay = _layout_of(table, N, decim, kind, dtype, width)
    if len(_LAYOUTS) >= _LAYOUTS_SIZE:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (tuple(table.plans), lay)
    return lay


def _layout_of(table: LaneTable, N: int, decim: int, kind: str, dtype: np.dtype,
               width: int) -> _Layout:
    """:func:`_layout`, computed."""
    lay = _Layout()
    summing = kind in SUM_CHANNELS
    used, lane_plan = np.unique(table.plan, return_inverse=True)
    plans = [table.plans[u] for u in used.tolist()]
    plan_L = np.array([p.length for p in plans], np.int64)
    plan_lag = np.array([p.lag for p in plans], np.int64)
    pad_l = int(np.max(plan_L - 1 - plan_lag))
    pad_r = int(np.max(plan_lag))
    front = decim  # room for the lanes' alignment shifts
    length = N + pad_l + pad_r
    rows_used, lane_row = np.unique(table.in_row, return_inverse=True)
    vector = width == _k.WIDTH and vector_kernel_runs(dtype)
    # the explicit-vector kernel of this output kind alone (each compiles only its own output code)
    run_groups = _k.RUN_LANES_16[KINDS[kind]] if vector else _k.run_lanes

    # group lanes of as many components and a similar window, so that a group's
    # components and common range waste little
    plan_P = np.array([p.omegas.size for p in plans], np.int64)
    if summing:
        # the lanes of an output row side by side, in tasks of whole rows
        order = np.lexsort((table.n_lo, table.in_row, table.out_row, lane_plan,
                            plan_L[lane_plan], plan_P[lane_plan]))
        place, task_groups = _sum_places(table.out_row[order], width)
    else:
        order = np.lexsort((table.n_lo, table.in_row, plan_L[lane_plan], plan_P[lane_plan]))
        place = np.arange(-(-order.size // width) * width, dtype=np.int64)
        place[order.size:] = -1
        task_groups = np.arange(place.size // width + 1, dtype=np.int64)
    G = place.size // width
    real = place >= 0
    # a free place takes its group's first lane (always a lane): it then changes no
    # group's range, and its range is emptied below (it writes nothing)
    src = np.where(real, place, np.repeat(place[::width], width))
    order = order[src]
    nl = G * width
    P = int(plan_P.max())
    w, wL, weights, dc = _plan_rows(plans, "complex" if summing else kind, P)

    u = lane_plan[order]
    row = lane_row[order]
    L = plan_L[u]
    n_lo = table.n_lo[order]
    n_hi = table.n_hi[order]
    # In xe, output n's window ends at C + n; the lane's first sample is p0.  Each lane
    # reads xe at m + shift, with the shift chosen so that every lane starts within the
    # group's first decim steps (they run in lockstep) and so that C - shift is the
    # same modulo decim for all (outputs fall on the same steps).
    C = front + pad_l + plan_lag[u]
    p0 = C + n_lo - (L - 1)
    first = np.arange(G) * width
    c0 = (C - p0)[first] % decim                      # each group's phase
    q = (np.repeat(c0, width)[:nl] - C + p0) % decim
    shift = p0 - q
    lay.G, lay.width, lay.real = G, width, real
    lanes_of = lay.lanes_of

    # groups whose places run the same plans share one block of coefficients (most groups
    # are one plan's lanes: building a block per group cost a fifth of an EEG job's time)
    patterns, group_coefs = np.unique(np.where(real, u, -1).reshape(G, width), axis=0,
                                      return_inverse=True)
    group_coefs = np.ascontiguousarray(group_coefs.reshape(G), dtype=np.int64)
    K = patterns.shape[0]
    pattern_u = patterns.reshape(K * width)
    used_place = pattern_u >= 0

    def components(values):
        """Per-plan component rows as (K, P, width) in the state's dtype; zero for free places."""
        a = np.zeros((K * width, P), dtype)
        a[used_place] = values[pattern_u[used_place]]
        return np.ascontiguousarray(a.reshape(K, width, P).transpose(0, 2, 1))

    # (K, P, 8, W): each component's w, w^L and output weights side by side (lane_kernels.WR ..)
    coefs = np.ascontiguousarray(np.stack(
        [components(v) for v in (w.real, w.imag, wL.real, wL.imag, *weights)], axis=2))
    lane_off = lanes_of(C - shift, 0)
    lane_out = lanes_of(table.out_row[order], 0)
    lane_nlo = lanes_of(n_lo, 0)
    lane_nhi = lanes_of(n_hi, 0)  # free places: an empty range, never written
    # free places read what their group's first lane reads
    lane_row_g, lane_shift, lane_L, lane_start = (lanes_of(v) for v in (row, shift, L, q))
    m_lo = np.zeros(G, np.int64)
    # the last output of each lane, its first step with L samples behind it, its stop
    # (over every place: a free place repeats its group's first lane)
    last = (C - shift + n_hi - 1).reshape(G, width).max(axis=1)
    m_hi = last + 1
    m_steady = np.maximum((q + L).reshape(G, width).max(axis=1), 1)
    # from the first lane's last output on, the reads are checked (lanes of a group
    # differ in window and range, and none reads beyond what its own outputs need)
    m_stop = (C - shift + n_hi).reshape(G, width).min(axis=1)
    group_P = plan_P[u].reshape(G, width).max(axis=1)
    lay.work = float(np.sum((m_hi - m_lo) * group_P)) * width
    lay.ntasks = task_groups.size - 1
    if vector:
        # xe's column s is row sample s - front - pad_l: the steps from m_in_lo to m_in_hi
        # read inside the rows (the sample leaving the window and the one entering it)
        first_in = front + pad_l
        lay.m_in_lo = np.max(first_in - lane_shift + lane_L, axis=1)
        lay.m_in_hi = np.min(first_in + N - lane_shift, axis=1)
    lay.nplans, lay.pad_l, lay.front, lay.length = used.size, pad_l, front, length
    lay.rows_used, lay.row, lay.dc_u = rows_used, row, dc[u]
    lay.vector, lay.run_groups = vector, run_groups
    lay.task_groups, lay.lane_row_g, lay.lane_shift, lay.lane_L = task_groups, lane_row_g, lane_shift, lane_L
    lay.lane_start, lay.lane_off, lay.lane_out = lane_start, lane_off, lane_out
    lay.lane_nlo, lay.lane_nhi, lay.m_lo, lay.m_hi = lane_nlo, lane_nhi, m_lo, m_hi
    lay.m_steady, lay.m_stop, lay.phase, lay.group_P = m_steady, m_stop, c0, group_P
    lay.group_coefs, lay.coefs = group_coefs, coefs
    return lay
