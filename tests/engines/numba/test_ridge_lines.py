"""The ridge lines' kernel against scipy's own ``_identify_ridge_lines`` and ``_filter_ridge_lines``.

scipy's private functions (``scipy/signal/_peak_finding.py``) are the
definition :func:`sftwave.signal.find_peaks_cwt` follows; they are compared
here exactly (integers) on random matrices chosen to reach every branch:

* small integers: equal neighbours (no maximum), a maximum at equal distances
  from two lines (the first in scipy's list wins), several maxima of a row
  joining one line (scipy's lines then have repeated rows, which its final
  ``rows[argsort(rows)] = rows`` scatters; the test applies the same scatter);
* rows of zeros (no maxima: gaps grow, lines die, new ones start below);
* one row, fewer than three columns, no maximum anywhere;
* NaN and infinite values (no comparison with NaN is true);
* gap thresholds below zero (every line ends after one row), zero, fractional,
  infinite; distances zero, integral (a maximum exactly at the distance
  joins), fractional and wider than the matrix.

The peaks (``_filter_ridge_lines`` and ``find_peaks_cwt``'s sorted columns)
are compared for windows from 1 to wider than the row, percentiles 0 to 100,
``min_snr`` 0 and above (a zero noise gives an infinite or NaN ratio; NaN
keeps the line, as in scipy).  The matrix given as rows, a column offset and
row scales is compared with the same products formed by numpy.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.stats import scoreatpercentile

peak_finding = pytest.importorskip("scipy.signal._peak_finding")

from sftwave.engines.numba.ridge_lines import (  # noqa: E402
    _heapsort,
    _percentile,
    ridge_line_peaks,
    ridge_lines,
)


def _matrix(rng, kind, nr, n):
    if kind == "normal":
        return rng.standard_normal((nr, n))
    if kind == "ties":
        return rng.integers(0, 3, (nr, n)).astype(float)
    if kind == "walks":                     # lines that persist down the rows
        return np.cumsum(rng.standard_normal((nr, n)), axis=0)
    if kind == "gaps":                      # rows of zeros: lines die and others start
        m = np.cumsum(rng.standard_normal((nr, n)), axis=0)
        m[rng.random(nr) < 0.4] = 0.0
        return m
    m = rng.standard_normal((nr, n))        # "special": NaN and infinities
    m[rng.random((nr, n)) < 0.05] = np.nan
    m[rng.random((nr, n)) < 0.03] = np.inf
    m[rng.random((nr, n)) < 0.03] = -np.inf
    return m


KINDS = ("normal", "ties", "walks", "gaps", "special")


def _cases(seed, count):
    rng = np.random.default_rng(seed)
    for t in range(count):
        nr = int(rng.integers(1, 14))
        n = int(rng.integers(1, 70))
        m = _matrix(rng, KINDS[t % len(KINDS)], nr, n)
        md = [rng.uniform(0, 6, nr), rng.integers(0, 4, nr).astype(float), np.full(nr, 1e9),
              np.zeros(nr)][t % 4]
        gap = [-1.0, 0.0, 1.0, 2.0, 3.5, np.inf][t % 6]
        yield rng, m, md, gap


def _as_scipy(order, line, row, col):
    """The kernel's lines in scipy's form: each line's points scattered by ``argsort`` of its rows."""
    out = []
    for i in order:
        r, c = row[line == i], col[line == i]
        sortargs = np.array(np.argsort(r))
        rows, cols = np.zeros_like(sortargs), np.zeros_like(sortargs)
        rows[sortargs] = r
        cols[sortargs] = c
        out.append((rows, cols))
    return out


def test_ridge_lines_are_scipys():
    repeated = ended = lines = 0
    for _, m, md, gap in _cases(0, 600):
        ref = peak_finding._identify_ridge_lines(m, md, gap)
        got = _as_scipy(*ridge_lines(m, md, gap))
        assert len(got) == len(ref)
        for (rows, cols), (ref_rows, ref_cols) in zip(got, ref):
            assert np.array_equal(rows, ref_rows) and np.array_equal(cols, ref_cols)
            repeated += len(set(ref_rows.tolist())) < len(ref_rows)
            ended += ref_rows.max() > 0 and ref_rows.min() > 0
        lines += len(ref)
    # the random matrices do reach the branches: several maxima of a row on one line,
    # lines that end above the first row
    assert lines > 2000 and repeated > 20 and ended > 200


def test_no_maxima_no_lines():
    for m in (np.zeros((3, 10)), np.ones((1, 2)), np.arange(12.0).reshape(2, 6),
              np.full((2, 5), np.nan)):
        order, line, row, col = ridge_lines(m, np.ones(len(m)), 1.0)
        assert order.size == line.size == row.size == col.size == 0
        assert ridge_line_peaks(m, np.ones(len(m)), 1.0, 1, 3, 1.0, 10.0).size == 0


def _scipy_peaks(m, md, gap, min_length, window_size, min_snr, noise_perc):
    lines = peak_finding._identify_ridge_lines(m, md, gap)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        kept = peak_finding._filter_ridge_lines(m, lines, window_size=window_size,
                                                min_length=min_length, min_snr=min_snr,
                                                noise_perc=noise_perc)
    peaks = np.asarray([line[1][0] for line in kept])
    peaks.sort()
    return peaks


def test_ridge_line_peaks_are_scipys():
    found = 0
    for rng, m, md, gap in _cases(1, 600):
        n = m.shape[1]
        min_length = [1, 2, 3, 2.5][int(rng.integers(0, 4))]
        window_size = int(rng.integers(1, n + 8))
        min_snr = [0.0, 0.5, 1.0, 3.0][int(rng.integers(0, 4))]
        noise_perc = [0.0, 100.0, 50.0, float(rng.uniform(0, 100))][int(rng.integers(0, 4))]
        ref = _scipy_peaks(m, md, gap, min_length, window_size, min_snr, noise_perc)
        got = ridge_line_peaks(m, md, gap, min_length, window_size, min_snr, noise_perc)
        assert np.array_equal(got, ref.astype(got.dtype))
        found += got.size
    assert found > 1000


def test_rows_with_offset_and_scale_are_the_products():
    rng = np.random.default_rng(2)
    for t in range(150):
        nr, n = int(rng.integers(1, 12)), int(rng.integers(1, 60))
        first = int(rng.integers(0, 4))
        rows = _matrix(rng, KINDS[t % len(KINDS)], nr, first + n + int(rng.integers(0, 3)))
        # scales that round some products to equal values (or underflow them to zero)
        scale = np.exp(rng.uniform(-700, 5, nr)) if t % 3 == 0 else rng.uniform(0.1, 10, nr)
        scale[0] = [1.0, 3.0, 1e-310][t % 3]
        matr = scale[:, None] * rows[:, first:first + n]
        md, gap = rng.uniform(0, 5, nr), float(rng.integers(0, 3))
        for a, b in zip(ridge_lines(rows, md, gap, first=first, n=n, scale=scale),
                        ridge_lines(matr, md, gap)):
            assert np.array_equal(a, b)
        args = (md, gap, 2, int(rng.integers(1, n + 3)), 1.0, 30.0)
        assert np.array_equal(ridge_line_peaks(rows, *args, first=first, n=n, scale=scale),
                              ridge_line_peaks(matr, *args))


def test_percentile_is_scoreatpercentile():
    rng = np.random.default_rng(3)
    for t in range(400):
        w = int(rng.integers(1, 300))
        x = [rng.standard_normal(w), rng.integers(0, 4, w).astype(float), np.sort(rng.random(w)),
             np.sort(rng.random(w))[::-1].copy(), np.zeros(w)][t % 5]
        if t % 7 == 0:
            x[rng.random(w) < 0.2] = np.nan
        per = [0.0, 100.0, 10.0, float(rng.uniform(0, 100))][t % 4]
        ref = scoreatpercentile(x, per)
        got = _percentile(x.copy(), per)
        assert got == ref or (np.isnan(got) and np.isnan(ref))


def test_heapsort_is_numpys_sort():
    rng = np.random.default_rng(4)
    for w in (1, 2, 3, 10, 257):
        for x in (rng.standard_normal(w), rng.integers(0, 3, w).astype(float)):
            x[rng.random(w) < 0.2] = np.nan
            got = x.copy()
            _heapsort(got)
            assert np.array_equal(got, np.sort(x), equal_nan=True)


@pytest.mark.parametrize("kwargs,match", [
    (dict(first=3, n=10), "columns"),
    (dict(scale=np.ones(2)), "scale"),
])
def test_bad_layout(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ridge_lines(np.zeros((3, 12)), np.ones(3), 1.0, **kwargs)


def test_bad_arguments():
    with pytest.raises(ValueError, match="max_distances"):
        ridge_lines(np.zeros((3, 12)), np.ones(2), 1.0)
    with pytest.raises(ValueError, match="window_size"):
        ridge_line_peaks(np.zeros((3, 12)), np.ones(3), 1.0, 1, 0, 1.0, 10.0)


def test_many_points_widen_the_arrays():
    # far more points than the first allocation (twice the columns): the kernel is run again
    m = np.cumsum(np.random.default_rng(5).standard_normal((60, 300)), axis=0)
    md = np.linspace(0.25, 8.0, 60)
    order, line, row, col = ridge_lines(m, md, 1.0)
    assert line.size > 4 * 2 * m.shape[1]
    ref = peak_finding._identify_ridge_lines(m, md, 1.0)
    got = _as_scipy(order, line, row, col)
    assert len(got) == len(ref)
    assert all(np.array_equal(a, c) and np.array_equal(b, d) for (a, b), (c, d) in zip(got, ref))
    assert np.array_equal(ridge_line_peaks(m, md, 1.0, 15, 30, 1.0, 10.0),
                          _scipy_peaks(m, md, 1.0, 15, 30, 1.0, 10.0))
