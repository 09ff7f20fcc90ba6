"""An output that overlaps the input gives the result of the call without the overlap, exactly.

numpy's ufuncs read their input before it is overwritten, whatever the overlap
(``np.add(a[1:], 1, out=a[:-1])``); every sftwave function with ``output=``
or ``out=`` does the same.  For each, the input is

* the output itself (in place),
* a view of the same buffer shifted by one element, either way (each output
  element overwrites an input element that a later one still reads, or the
  other way round),
* the output reversed (or transposed): every element read from the far end,

and the result must equal, bit for bit, the call on a separate copy of the
input.  A Laplacian or gradient magnitude written axis by axis into its
output, and a scalogram written row by row, read an input already overwritten
(scipy's ``gaussian_laplace(x, s, output=x)`` is wrong too); the separable
filters were right already and are kept so.  Values: ordinary, far below one
(the scaled path of :mod:`sftwave.engines.nonfinite`) and with a NaN (the
confined path).
"""

from __future__ import annotations

import numpy as np
import pytest

import sftwave
from sftwave._checks import apart_from, overlaps


def _values(shape, kind: str, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(shape) + 0.3
    if kind == "tiny":
        x = x * 2.0 ** -1040               # subnormal numbers: the scaled path
    elif kind == "nan":
        x.flat[x.size // 3] = np.nan        # the confined path
    return x


def _aliased(data: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """``(x, out)``: ``x`` holds ``data``'s values, ``out`` overlaps it as ``layout`` says."""
    if layout == "itself":
        a = data.copy()
        return a, a
    if layout in ("shifted", "shifted back"):
        b = np.empty(data.size + 1, data.dtype)
        lo, hi = (b[1:], b[:-1]) if layout == "shifted" else (b[:-1], b[1:])
        lo[...] = data.ravel()
        return lo.reshape(data.shape), hi.reshape(data.shape)
    if layout == "reversed":
        a = np.ascontiguousarray(data[(slice(None, None, -1),) * data.ndim])
        return a[(slice(None, None, -1),) * data.ndim], a
    if layout == "transposed":
        a = np.ascontiguousarray(data.T)
        return a.T, a
    raise ValueError(layout)


LAYOUTS = ["itself", "shifted", "shifted back", "reversed", "transposed"]
VALUES = ["normal", "tiny", "nan"]


def _check(func, data: np.ndarray, layout: str, **kw) -> None:
    x, out = _aliased(data, layout)
    assert np.array_equal(x, data, equal_nan=True)
    expected = func(x.copy(), **kw)
    got = func(x, output=out, **kw)
    assert got is out
    assert np.array_equal(out, expected, equal_nan=True), (
        f"{func.__name__} {kw} with output {layout}: differs by "
        f"{np.nanmax(np.abs(out - expected)):.3g}")


# ----------------------------------------------------------------------------- the filters


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("sigma", [2.0, 9.0])         # the FIR and the bank
def test_gaussian_filter1d(sigma, layout, values):
    data = _values((48, 48), values)
    for axis in (0, 1):
        for order in (0, 1, 2):
            _check(sftwave.gaussian_filter1d, data, layout, sigma=sigma, axis=axis, order=order)


@pytest.mark.parametrize("layout", ["itself", "shifted", "shifted back", "reversed"])
def test_gaussian_filter1d_long_line(layout):
    """One long line: the lane engine (pieces of the line side by side), and the bank's methods."""
    data = _values(40000, "normal", 1)
    for bank_method in ("auto", "iir1-2k", "integral"):
        _check(sftwave.gaussian_filter1d, data, layout, sigma=12.0, bank_method=bank_method)


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_gaussian_filter(layout, values):
    data = _values((40, 40), values, 2)
    for order in ((0, 0), (1, 0), (0, 2)):
        _check(sftwave.gaussian_filter, data, layout, sigma=(2.0, 9.0), order=order)
    _check(sftwave.gaussian_filter, data, layout, sigma=4.0, nan_policy="omit")


@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_derivatives_written_axis_by_axis(func, layout, values):
    """The first axis's derivative is written into the output before the next is read."""
    data = _values((40, 40), values, 3)
    for sigma in (2.0, 9.0, (2.0, 9.0)):
        _check(getattr(sftwave, func), data, layout, sigma=sigma)


@pytest.mark.parametrize("layout", ["itself", "shifted", "reversed"])
def test_integer_and_complex_outputs(layout):
    """An integer output that is the input, and complex views whose real parts overlap the
    other's imaginary parts (a complex array shifted by one float)."""
    ints = (_values((30, 30), "normal", 4) * 50).astype(np.int32)
    for func in (sftwave.gaussian_filter, sftwave.gaussian_laplace,
                 sftwave.gaussian_gradient_magnitude):
        _check(func, ints, layout, sigma=3.0)
    b = _values(2 * 900 + 1, "normal", 5)
    x, out = b[1:].view(np.complex128).reshape(30, 30), b[:-1].view(np.complex128).reshape(30, 30)
    assert overlaps(x.real, out.imag)
    expected = {f: f(x.copy(), 3.0) for f in (sftwave.gaussian_filter, sftwave.gaussian_laplace)}
    for f, ref in expected.items():
        x, out = _aliased(b[1:].view(np.complex128).reshape(30, 30), layout)
        assert f(x, 3.0, output=out) is out
        assert np.array_equal(out, ref)


# ----------------------------------------------------------------------------- the scalogram

FREQS = [0.02, 0.09, 0.3]              # a bank plan at the first, FIR plans at the last


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("output", ["power", "abs", "phase"])
@pytest.mark.parametrize("bank_method", ["auto", "iir1", "iir1-2k"])
def test_cwt_input_is_a_row_of_out(bank_method, output, values):
    """``cwt(buf[r], freqs, out=buf)``: the input is one of the rows the transform writes."""
    n = 700
    for row in (0, 1, 2):
        buf = np.empty((len(FREQS), n))
        buf[row] = _values(n, values, 6)
        x = buf[row]
        expected = sftwave.cwt(x.copy(), FREQS, output=output, bank_method=bank_method)
        got = sftwave.cwt(x, FREQS, output=output, bank_method=bank_method, out=buf)
        assert got is buf
        assert np.array_equal(buf, expected, equal_nan=True), (row, output)


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("bank_method", ["iir1", "iir1-2k"])
def test_cwt_other_overlaps(bank_method, values):
    """A real input inside a complex output, a reversed row, a strided row of a 3-D output,
    and nan_policy='omit'."""
    n = 600
    kw = dict(freqs=FREQS, bank_method=bank_method)
    out = np.empty((len(FREQS), n), np.complex128)
    for x in (out.view(np.float64)[0, :n], out.view(np.float64)[1, ::2]):   # real parts of row 1
        x[...] = _values(n, values, 7)
        expected = sftwave.cwt(x.copy(), **kw)
        assert sftwave.cwt(x, out=out, **kw) is out
        assert np.array_equal(out, expected, equal_nan=True)
    power = np.empty((2, len(FREQS), n))                      # (rows, freqs, n)
    power[:, 1, :] = _values((2, n), values, 8)
    for x in (power[:, 1, :], power[:, 1, ::-1]):
        expected = sftwave.cwt(x.copy(), output="power", **kw)
        assert sftwave.cwt(x, output="power", out=power, **kw) is power
        assert np.array_equal(power, expected, equal_nan=True)
        power[:, 1, :] = _values((2, n), values, 8)
    buf = np.empty((len(FREQS), n))
    buf[0] = _values(n, values, 9)
    expected = sftwave.cwt(buf[0].copy(), output="abs", nan_policy="omit", **kw)
    sftwave.cwt(buf[0], output="abs", nan_policy="omit", out=buf, **kw)
    assert np.array_equal(buf, expected, equal_nan=True)


# ----------------------------------------------------------------------------- the helper


def test_overlap_helper():
    """The exact test with a work bound: strided views that interleave do not overlap; a copy
    is made only where they do."""
    a = np.arange(200.0).reshape(10, 20)
    assert not overlaps(a[:, ::2], a[:, 1::2])           # extents overlap, elements do not
    assert overlaps(a[::-1], a) and overlaps(a.T, a) and overlaps(a[3], a)
    assert not overlaps(a, a.copy()) and not overlaps(a, [1.0]) and not overlaps(a, np.float64)
    x = a[:, ::2]
    assert apart_from(x, a[:, 1::2]) is x
    y = apart_from(x, a)
    assert y is not x and np.array_equal(y, x) and not overlaps(y, a)


@pytest.mark.parametrize("order", [0, 1])
def test_in_place_filter_needs_no_second_array(order):
    """``gaussian_filter(x, s, output=x)`` on the bank filters ``x`` in place (each kernel copies
    a line or block of lines before writing it): no temporary of the array's size (the
    buffer it took before was 1.13 times the array, measured by tracemalloc)."""
    import tracemalloc

    x = _values((400, 500), "normal", 10)
    a = x.copy()
    sftwave.gaussian_filter(a, 6.0, order=order, output=a)        # designs and compiles
    a = x.copy()
    tracemalloc.start()
    try:
        sftwave.gaussian_filter(a, 6.0, order=order, output=a)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * x.nbytes, peak / x.nbytes
    assert np.array_equal(a, sftwave.gaussian_filter(x, 6.0, order=order))
