"""scipy's ridge lines of a wavelet matrix, followed serially: the CPU engine's side of ``find_peaks_cwt``.

:func:`ridge_lines` is scipy's ``_identify_ridge_lines``
(``scipy/signal/_peak_finding.py``) on a ``(widths, samples)`` matrix: the
relative maxima of each row (a value larger than both neighbours; never the
first or last column), the lines started at the highest row that has any,
then row by row downwards:

* every live line's gap grows by one;
* each maximum of the row, left to right, joins the line whose last column
  (as it was when the row began) is nearest, the first such line in scipy's
  list on a tie, if it is within ``max_distances[row]`` columns; otherwise it
  starts a line of its own, appended to the list (and not joinable before the
  next row).  Several maxima of a row may join one line;
* the lines whose gap exceeds ``gap_thresh`` leave the list, last first, for
  the list of finished lines.

The lines come in scipy's order (the finished ones, then those still live).
:func:`ridge_line_peaks` is scipy's ``_filter_ridge_lines`` and the peak list
of ``find_peaks_cwt`` on them: a line is kept where it has at least
``min_length`` points and ``abs(matr[row, col] / noise[col]) >= min_snr``
(false for a NaN ratio: such a line is kept, as in scipy) at its last point
``(row, col)`` (the ``[0]`` entry of scipy's line after its scatter
``rows[argsort(rows)] = rows``: the line's first point alone has its highest
row, so its last point lands there), the noise being scipy's
``scoreatpercentile`` of the first row in a window of ``window_size`` columns
about ``col``, computed for those lines only (by selection, not a sort).

The matrix may be given as ``scale[:, None] * rows[:, first:first + n]``:
the kernels form each product as they read it (the value numpy's product
has), so that a caller need not write the scaled matrix out.

The kernels are serial and release the GIL.  Their arrays are allocated and
widened outside them (:func:`_follow`) and handed to them as arguments:
numba counts the references of an array variable that is rebound inside a
loop at every pass of that loop, which in the per-point loops would cost more
than their work.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel

__all__ = ["ridge_lines", "ridge_line_peaks"]


@kernel(nogil=True)
def _maxima(rows, first, n, scale, r, cols):
    """The relative maxima of row ``r`` of the matrix into ``cols``, increasing; their number.

    The matrix is ``scale[:, None] * rows[:, first:first + n]``, each value
    the product, rounded, that numpy's ``*`` gives.
    """
    if n < 3:
        return 0
    s = scale[r]
    a = s * rows[r, first]
    b = s * rows[r, first + 1]
    k = 0
    for j in range(1, n - 1):
        c = s * rows[r, first + j + 1]
        if b > a and b > c:
            cols[k] = j
            k += 1
        a = b
        b = c
    return k


@kernel(nogil=True)
def _row(r, cols, k, md, srt, uv, upos, live, last, gap, n_live, length, last_row, last_col,
         n_lines, p_line, p_row, p_col, n_pts):
    """Row ``r`` (maxima ``cols[:k]``): the gaps grown, each maximum joined or started.

    ``srt[:n_live]`` orders the live lines by last column, then list
    position.  ``uv``, ``upos``: room for the distinct last columns and the
    first position of each; the line, live-list and point arrays have room
    for ``k`` more.  Returns ``(n_live, n_lines, n_pts)``.
    """
    for i in range(n_live):
        gap[i] += 1
    if k == 0:
        return n_live, n_lines, n_pts
    nu = 0                                      # the columns as they were when the row began
    for t in range(n_live):
        p = srt[t]
        if nu == 0 or uv[nu - 1] != last[p]:
            uv[nu] = last[p]
            upos[nu] = p
            nu += 1
    u = 0
    for j in range(k):
        c = cols[j]
        pos = -1
        if nu > 0:
            while u < nu and uv[u] < c:
                u += 1
            d = -1                              # the nearest column left, then right of c
            if u > 0:
                d = c - uv[u - 1]
                pos = upos[u - 1]
            if u < nu:
                dr = uv[u] - c
                if d < 0 or dr < d or (dr == d and upos[u] < pos):
                    d = dr
                    pos = upos[u]
            if not d <= md:
                pos = -1
        if pos < 0:                             # a new line, at the end of the list
            pos = n_live
            n_live += 1
            live[pos] = n_lines
            length[n_lines] = 0
            n_lines += 1
        line = live[pos]
        last[pos] = c
        gap[pos] = 0
        length[line] += 1
        last_row[line] = r
        last_col[line] = c
        p_line[n_pts] = line
        p_row[n_pts] = r
        p_col[n_pts] = c
        n_pts += 1
    return n_live, n_lines, n_pts


@kernel(nogil=True)
def _drop(live, last, gap, n_live, gap_thresh, finished, n_fin, new_pos):
    """The lines with a gap over ``gap_thresh`` finished, last first; the rest compacted.

    ``new_pos[i]``: position ``i``'s new position (-1: finished).  Returns the
    live and finished counts.
    """
    for i in range(n_live - 1, -1, -1):
        if gap[i] > gap_thresh:
            finished[n_fin] = live[i]
            n_fin += 1
    w = 0
    for i in range(n_live):
        new_pos[i] = -1
        if not gap[i] > gap_thresh:
            live[w] = live[i]
            last[w] = last[i]
            gap[w] = gap[i]
            new_pos[i] = w
            w += 1
    return w, n_fin


@kernel(nogil=True)
def _before(last_p, p, last_q, q):
    """Whether a line at position ``p`` with last column ``last_p`` sorts before one at ``q``."""
    return last_p < last_q or (last_p == last_q and p < q)


@kernel(nogil=True)
def _reorder(srt, spare, new_pos, n_old, n_live, last):
    """``srt`` made the compacted live positions by last column, then position.

    ``srt[:n_old]`` held the positions of the ``n_old`` lines live when the row
    began, in that order for their columns then; ``n_old .. n_live`` are the
    lines the row started (their columns increasing); ``new_pos`` maps a
    position to its compacted one (-1: the line left).  The old lines moved by
    a few columns at most: an insertion sort, then a merge with the new ones.
    """
    a = 0
    for t in range(n_old):
        q = new_pos[srt[t]]
        if q < 0:
            continue
        j = a
        while j > 0 and _before(last[q], q, last[srt[j - 1]], srt[j - 1]):
            srt[j] = srt[j - 1]
            j -= 1
        srt[j] = q
        a += 1
    b = 0
    for p in range(n_old, n_live):
        if new_pos[p] >= 0:
            spare[b] = new_pos[p]
            b += 1
    i = a - 1
    j = b - 1
    for t in range(a + b - 1, -1, -1):          # merge from the end, in place
        if j < 0:
            break
        if i >= 0 and _before(last[spare[j]], spare[j], last[srt[i]], srt[i]):
            srt[t] = srt[i]
            i -= 1
        else:
            srt[t] = spare[j]
            j -= 1


@kernel(nogil=True)
def _follow_rows(rows, first, n, scale, max_distances, gap_thresh, r, cols, pts, ln, counts):
    """Rows ``r``, ``r - 1``, ... of the matrix (as in :func:`_maxima`) while ``pts`` and ``ln`` have room.

    ``counts``: the live lines, the lines, the points and the finished lines,
    updated.  ``ln``'s rows, by line number: points, last row, last column;
    the live lines in scipy's list order: number, last column, rows since the
    last point; the live positions by last column, then position; a spare; the
    new positions; the distinct columns and their first positions; the
    finished lines.  ``pts``'s: the points' lines, rows, columns.  Returns
    the next row to follow (-1: none left).
    """
    n_live, n_lines, n_pts, n_fin = counts[0], counts[1], counts[2], counts[3]
    while r >= 0:
        k = _maxima(rows, first, n, scale, r, cols)
        if n_pts + k > pts.shape[1] or n_lines + k > ln.shape[1]:
            break
        n_old = n_live
        top = n_lines == 0                      # no line yet: this row starts them
        n_live, n_lines, n_pts = _row(r, cols, k, max_distances[r], ln[6], ln[9], ln[10], ln[3],
                                      ln[4], ln[5], n_live, ln[0], ln[1], ln[2], n_lines, pts[0],
                                      pts[1], pts[2], n_pts)
        if top:
            for i in range(n_live):
                ln[6, i] = i
        else:
            n_kept, n_fin = _drop(ln[3], ln[4], ln[5], n_live, gap_thresh, ln[11], n_fin, ln[8])
            _reorder(ln[6], ln[7], ln[8], n_old, n_live, ln[4])
            n_live = n_kept
        r -= 1
    counts[0], counts[1], counts[2], counts[3] = n_live, n_lines, n_pts, n_fin
    return r


def _wider(a: np.ndarray, need: int) -> np.ndarray:
    """``a`` with at least ``need`` columns (twice as many at least), its values kept."""
    b = np.empty((a.shape[0], max(need, 2 * a.shape[1])), np.intp)
    b[:, :a.shape[1]] = a
    return b


def _follow(rows: np.ndarray, first: int, n: int, scale: np.ndarray, max_distances: np.ndarray,
            gap_thresh: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ridge lines: ``(order, lines, points)``.

    Lines are numbered as they start; ``order`` lists them as scipy returns
    them; ``lines[:, l]`` is line ``l``'s number of points, last row and last
    column; ``points`` the points' line, row and column, in the order they
    joined their lines.  The kernel runs until its arrays are full; they are
    widened between its runs.
    """
    cols = np.empty(max(n, 1), np.intp)
    cap = max(64, 2 * n)
    pts = np.empty((3, cap), np.intp)
    ln = np.empty((12, cap), np.intp)
    counts = np.zeros(4, np.intp)
    r = rows.shape[0] - 1
    while r >= 0:
        r = _follow_rows(rows, first, n, scale, max_distances, gap_thresh, r, cols, pts, ln,
                         counts)
        if r >= 0:                              # row r needs more room
            pts = _wider(pts, counts[2] + n)
            ln = _wider(ln, counts[1] + n)
    n_live, n_lines, n_pts, n_fin = (int(c) for c in counts)
    order = np.concatenate([ln[11, :n_fin], ln[3, :n_live]])
    return order, ln[:3, :n_lines], pts[:, :n_pts]


@kernel(nogil=True)
def _lt(a, b):
    """numpy's sort order: ``a < b``, NaN after everything."""
    return a < b or (b != b and a == a)


@kernel(nogil=True)
def _heapsort(s):
    """``s`` sorted in place in numpy's order (NaN last)."""
    n = s.shape[0]
    for start in range(n // 2 - 1, -n, -1):
        # the heap built (start >= 0), then its largest moved to the end, one at a time
        if start >= 0:
            root = start
            end = n - 1
        else:
            end = n - 1 + start
            s[0], s[end + 1] = s[end + 1], s[0]
            root = 0
        while True:
            child = 2 * root + 1
            if child > end:
                break
            if child < end and _lt(s[child], s[child + 1]):
                child += 1
            if not _lt(s[root], s[child]):
                break
            s[root], s[child] = s[child], s[root]
            root = child


@kernel(nogil=True)
def _select(s, k):
    """``s`` rearranged so that ``s[k]`` is its ``k``-th value in numpy's order, none after it smaller.

    Quickselect (median-of-three pivots); where it has not finished after
    ``2 log2(len(s))`` partitions, the rest is heapsorted.
    """
    lo = 0
    hi = s.shape[0] - 1
    budget = 2 * int(np.log2(s.shape[0] + 1)) + 2
    while hi > lo:
        if budget == 0:
            _heapsort(s[lo:hi + 1])
            return
        budget -= 1
        mid = (lo + hi) // 2
        if _lt(s[mid], s[lo]):
            s[mid], s[lo] = s[lo], s[mid]
        if _lt(s[hi], s[mid]):
            s[hi], s[mid] = s[mid], s[hi]
            if _lt(s[mid], s[lo]):
                s[mid], s[lo] = s[lo], s[mid]
        pivot = s[mid]
        i = lo
        j = hi
        while i <= j:
            while _lt(s[i], pivot):
                i += 1
            while _lt(pivot, s[j]):
                j -= 1
            if i <= j:
                s[i], s[j] = s[j], s[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return


@kernel(nogil=True)
def _percentile(window, per):
    """scipy's ``scoreatpercentile(window, per)`` (``'fraction'``), with its roundings.

    Its values ``i`` and ``i + 1`` of the sorted window, found by selection
    (``window`` is reordered).
    """
    s = window
    idx = per / 100.0 * (s.shape[0] - 1)
    i = int(idx)
    _select(s, i)
    if i == idx:
        return s[i]
    nxt = s[i + 1]
    for t in range(i + 2, s.shape[0]):
        if _lt(s[t], nxt):
            nxt = s[t]
    w0 = (i + 1) - idx
    w1 = idx - i
    return (s[i] * w0 + nxt * w1) / (w0 + w1)


@kernel(nogil=True, error_model="numpy")
def _kept(rows, first, n, scale, order, lines, min_length, window_size, min_snr, per):
    """The last columns of scipy's kept lines, in ``order`` (the matrix as in :func:`_maxima`)."""
    hf_window = window_size // 2
    odd = window_size % 2
    out = np.empty(order.shape[0], np.intp)
    m = 0
    for t in range(order.shape[0]):
        line = order[t]
        if lines[0, line] < min_length:
            continue
        r = lines[1, line]
        c = lines[2, line]
        lo = max(c - hf_window, 0)
        window = np.empty(min(c + hf_window + odd, n) - lo)
        for i in range(window.shape[0]):
            window[i] = scale[0] * rows[0, first + lo + i]
        noise = _percentile(window, per)
        if abs(scale[r] * rows[r, first + c] / noise) < min_snr:
            continue
        out[m] = c
        m += 1
    return out[:m]


def _rows(rows: np.ndarray, first: int, n: int | None,
          scale: np.ndarray | None) -> tuple[np.ndarray, int, int, np.ndarray]:
    rows = np.ascontiguousarray(rows, dtype=np.float64)
    if rows.ndim != 2:
        raise ValueError(f"the matrix must be 2-D, got shape {rows.shape}")
    n = rows.shape[1] - first if n is None else int(n)
    if not 0 <= first <= first + n <= rows.shape[1]:
        raise ValueError(f"columns {first} .. {first + n} do not fit rows of {rows.shape[1]}")
    scale = (np.ones(rows.shape[0]) if scale is None
             else np.ascontiguousarray(scale, dtype=np.float64))
    if scale.shape != rows.shape[:1]:
        raise ValueError(f"scale must have one value per row ({rows.shape[0]}), got {scale.shape}")
    return rows, int(first), n, scale


def _distances(max_distances: np.ndarray, rows: np.ndarray) -> np.ndarray:
    md = np.ascontiguousarray(max_distances, dtype=np.float64)
    if md.ndim != 1 or md.shape[0] < rows.shape[0]:
        raise ValueError(f"max_distances must have at least {rows.shape[0]} values")
    return md


def ridge_lines(matr: np.ndarray, max_distances: np.ndarray, gap_thresh: float, *,
                first: int = 0, n: int | None = None,
                scale: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """scipy's ridge lines of a real matrix: ``(order, line, row, col)``.

    The matrix is ``matr``, or ``scale[:, None] * matr[:, first:first + n]``
    where those are given (the product as numpy rounds it).  ``line``, ``row``,
    ``col`` are the points in the order they joined their lines (lines
    numbered as they start); ``order`` the line numbers in scipy's order.
    ``max_distances`` has a value per row at least.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([[0., 1., 0., 0., 2., 0.], [0., 0., 1., 0., 0., 0.]])
    >>> order, line, row, col = ridge_lines(m, np.ones(2), 1.0)
    >>> order.tolist(), line.tolist(), row.tolist(), col.tolist()
    ([0, 1], [0, 0, 1], [1, 0, 0], [2, 1, 4])
    """
    rows, first, n, scale = _rows(matr, first, n, scale)
    order, _, points = _follow(rows, first, n, scale, _distances(max_distances, rows),
                               float(gap_thresh))
    return order, points[0], points[1], points[2]


def ridge_line_peaks(matr: np.ndarray, max_distances: np.ndarray, gap_thresh: float,
                     min_length: float, window_size: int, min_snr: float, noise_perc: float, *,
                     first: int = 0, n: int | None = None,
                     scale: np.ndarray | None = None) -> np.ndarray:
    """``find_peaks_cwt``'s peaks of a real matrix: the last columns of scipy's kept lines, sorted.

    The matrix as in :func:`ridge_lines`; ``window_size`` at least 1,
    ``noise_perc`` in ``[0, 100]``.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([[0., 1., 0., 0., 2., 0.], [0., 0., 1., 0., 0., 0.]])
    >>> ridge_line_peaks(m, np.ones(2), 1.0, 2, 6, 1.0, 10.0).tolist()
    [1]
    """
    if not (int(window_size) >= 1 and 0 <= noise_perc <= 100):
        raise ValueError(f"window_size must be at least 1 and noise_perc in [0, 100], got "
                         f"{window_size!r}, {noise_perc!r}")
    rows, first, n, scale = _rows(matr, first, n, scale)
    order, lines, _ = _follow(rows, first, n, scale, _distances(max_distances, rows),
                              float(gap_thresh))
    peaks = _kept(rows, first, n, scale, order, lines, float(min_length), int(window_size),
                  float(min_snr), float(noise_perc))
    peaks.sort()
    return peaks
