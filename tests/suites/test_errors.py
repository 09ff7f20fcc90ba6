"""Bad arguments raise ValueError/TypeError naming the parameter and echoing the value."""

import re

import numpy as np
import pytest

from sftwave import gaussian_filter, gaussian_filter1d

X = np.linspace(0.0, 1.0, 50)
IMG = np.ones((6, 7))

# both public functions take these keywords the same way
FUNCS = {
    "gaussian_filter1d": lambda **kw: gaussian_filter1d(kw.pop("input", X), kw.pop("sigma", 3.0), **kw),
    "gaussian_filter": lambda **kw: gaussian_filter(kw.pop("input", IMG), kw.pop("sigma", 3.0), **kw),
}


def _m(*parts):
    """A regex requiring every part, in order (each escaped)."""
    return ".*".join(re.escape(p) for p in parts)


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("sigma,exc,echo", [
    (-1.5, ValueError, "got -1.5"),
    (float("nan"), ValueError, "got nan"),
    (float("inf"), ValueError, "got inf"),
    (-float("inf"), ValueError, "got -inf"),
    ("3", TypeError, "got '3'"),
    (True, TypeError, "got True"),
    (None, TypeError, "got None"),
    (1 + 2j, TypeError, "got (1+2j)"),
])
def test_bad_sigma(fname, sigma, exc, echo):
    with pytest.raises(exc, match=_m("sigma", echo)):
        FUNCS[fname](sigma=sigma)


def test_zero_sigma_1d():
    # (for gaussian_filter, sigma=0 is valid and skips the axis, as in scipy)
    with pytest.raises(ValueError, match=_m("sigma", "positive", "got 0")):
        gaussian_filter1d(X, 0)
    with pytest.raises(ValueError, match=_m("sigma", "got 0.0")):
        gaussian_filter1d(X, 0.0)


def test_gaussian_filter_negative_sigma_in_sequence():
    with pytest.raises(ValueError, match=_m("sigma", "got -2.0")):
        gaussian_filter(IMG, (3.0, -2.0))


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("order,exc,echo", [
    (-1, ValueError, "got -1"),
    (1.5, TypeError, "got 1.5"),
    (1.0, TypeError, "got 1.0"),
    (True, TypeError, "got True"),
    ("1", TypeError, "got '1'"),
])
def test_bad_order(fname, order, exc, echo):
    with pytest.raises(exc, match=_m("order", echo)):
        FUNCS[fname](order=order)


@pytest.mark.parametrize("fname", list(FUNCS))
def test_unknown_mode_lists_valid_ones(fname):
    with pytest.raises(ValueError, match=_m("mode", "'reflect'", "'grid-constant'", "got 'refelct'")) as info:
        FUNCS[fname](mode="refelct")
    for m in ("reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant"):
        assert repr(m) in str(info.value)
    with pytest.raises(ValueError, match=_m("mode", "got None")):
        FUNCS[fname](mode=None)


@pytest.mark.parametrize("fname", list(FUNCS))
def test_unknown_method_and_transform(fname):
    with pytest.raises(ValueError, match=_m("method", "'fir'", "'bank'", "got 'fft'")):
        FUNCS[fname](method="fft")
    with pytest.raises(ValueError, match=_m("bank_method", "'iir1'", "got 'fft'")):
        FUNCS[fname](bank_method="fft")
    with pytest.raises(ValueError, match=_m("transform", "'asft'", "got 'dft'")):
        FUNCS[fname](transform="dft")
    with pytest.raises(ValueError, match=_m("method", "got 'IIR1'")):
        FUNCS[fname](method="IIR1")
    with pytest.raises(ValueError, match=_m("bank_method", "got 'IIR1'")):
        FUNCS[fname](bank_method="IIR1")
    # the old bank-method names are no longer values of method
    with pytest.raises(ValueError, match=_m("method", "got 'iir1'")):
        FUNCS[fname](method="iir1")


@pytest.mark.parametrize("axis", [1, -2, 5])
def test_axis_out_of_range(axis):
    with pytest.raises(ValueError, match=_m("axis", str(axis), "1 dimension")):
        gaussian_filter1d(X, 3.0, axis=axis)
    with pytest.raises(ValueError, match=_m("axis", str(axis + 1 if axis > 0 else axis - 1))):
        gaussian_filter1d(IMG, 3.0, axis=axis + 1 if axis > 0 else axis - 1)


def test_axis_not_an_integer():
    with pytest.raises(TypeError, match=_m("axis", "got 1.0")):
        gaussian_filter1d(IMG, 3.0, axis=1.0)
    with pytest.raises(TypeError, match=_m("axis", "got True")):
        gaussian_filter1d(IMG, 3.0, axis=True)


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("bad,echo", [
    (np.array(["a", "b", "c"]), "<U1"),
    (["a", "b"], "<U1"),
    (np.array([1, None, 3], dtype=object), "object"),
])
def test_non_numeric_input(fname, bad, echo):
    with pytest.raises(TypeError, match=_m("input", "dtype", echo)):
        FUNCS[fname](input=bad)


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("tol,exc,echo", [
    (1e-10, ValueError, "got 1e-10"),
    (0.0, ValueError, "got 0.0"),
    (-1e-3, ValueError, "got -0.001"),
    (0.2, ValueError, "got 0.2"),
    (float("nan"), ValueError, "got nan"),
    ("1e-3", TypeError, "got '1e-3'"),
    (True, TypeError, "got True"),
])
def test_bad_tol(fname, tol, exc, echo):
    with pytest.raises(exc, match=_m("tol", echo)):
        FUNCS[fname](tol=tol)


@pytest.mark.parametrize("tol", [1e-9, 0.1])
def test_tol_range_is_inclusive(tol):
    y = gaussian_filter1d(X, 20.0, tol=tol)
    assert y.shape == X.shape and np.all(np.isfinite(y))


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("truncate,exc,echo", [
    (0, ValueError, "got 0"),
    (-4.0, ValueError, "got -4.0"),
    (float("inf"), ValueError, "got inf"),
    ("4", TypeError, "got '4'"),
])
def test_bad_truncate(fname, truncate, exc, echo):
    with pytest.raises(exc, match=_m("truncate", echo)):
        FUNCS[fname](truncate=truncate)


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("radius,exc,echo", [
    (-1, ValueError, "got -1"),
    (2.5, ValueError, "got 2.5"),     # scipy's test_gaussian_radius_invalid: ValueError
    (3.0, ValueError, "got 3.0"),
    ("3", TypeError, "got '3'"),
    (True, TypeError, "got True"),
])
def test_bad_radius(fname, radius, exc, echo):
    with pytest.raises(exc, match=_m("radius", echo)):
        FUNCS[fname](radius=radius)


@pytest.mark.parametrize("name,two_axes_bad,one_axis_bad", [
    ("sigma", (1.0, 2.0, 3.0), (1.0, 2.0)),
    ("order", (0, 1, 2), (0, 1)),
    ("mode", ("reflect",), ("reflect", "wrap")),
    ("radius", (1, 2, 3), (1, 2)),
])
def test_sequence_length_mismatch(name, two_axes_bad, one_axis_bad):
    with pytest.raises(ValueError, match=_m(name, "one entry per axis", "(2)", repr(two_axes_bad))):
        gaussian_filter(IMG, **{"sigma": 2.0, name: two_axes_bad})
    # with axes= the expected length is the number of axes
    with pytest.raises(ValueError, match=_m(name, "one entry per axis", "(1)", repr(one_axis_bad))):
        gaussian_filter(IMG, **{"sigma": 2.0, name: one_axis_bad}, axes=(1,))


def test_bad_axes():
    with pytest.raises(ValueError, match=_m("axes", "duplicates", "(0, 0)")):
        gaussian_filter(IMG, 2.0, axes=(0, 0))
    with pytest.raises(ValueError, match=_m("axes", "duplicates", "(1, -1)")):
        gaussian_filter(IMG, 2.0, axes=(1, -1))
    with pytest.raises(ValueError, match=_m("axes", "2", "2 dimension")):
        gaussian_filter(IMG, 2.0, axes=(0, 2))
    with pytest.raises(TypeError, match=_m("axes", "got 1.5")):
        gaussian_filter(IMG, 2.0, axes=1.5)


def test_sigma_zero_with_derivative_skips_the_axis_as_scipy():
    """scipy leaves an axis whose sigma is at most 1e-15 unfiltered, whatever its order (it
    once raised here); the other axes are filtered as usual."""
    import scipy.ndimage as ndi

    for sigma in ((0.0, 2.0), (1e-16, 2.0)):
        got = gaussian_filter(IMG, sigma, order=(1, 0))
        np.testing.assert_array_equal(got, gaussian_filter(IMG, (0.0, 2.0)))
        np.testing.assert_allclose(got, ndi.gaussian_filter(IMG, sigma, order=(1, 0)),
                                   rtol=0, atol=1e-12 * np.abs(IMG).max())
    np.testing.assert_array_equal(gaussian_filter(IMG, 0.0, order=2), IMG)


@pytest.mark.parametrize("fname", list(FUNCS))
def test_output_wrong_shape(fname):
    inp = X if fname == "gaussian_filter1d" else IMG
    bad = np.zeros(inp.size + 1)
    with pytest.raises(ValueError, match=_m("output shape", str(bad.shape), str(inp.shape))):
        FUNCS[fname](output=bad)


@pytest.mark.parametrize("fname", list(FUNCS))
def test_output_rules_for_complex_and_non_numeric(fname):
    inp = (X if fname == "gaussian_filter1d" else IMG) + 0.5j
    with pytest.raises(TypeError, match=_m("output", "complex", "float64")):
        FUNCS[fname](input=inp, output=np.zeros(inp.shape))
    with pytest.raises(TypeError, match=_m("output", "complex")):
        FUNCS[fname](input=inp, output=np.float32)
    with pytest.raises(TypeError, match=_m("output", "numeric")):
        FUNCS[fname](output=np.dtype("U3"))
    with pytest.raises(TypeError, match=_m("output", "numeric")):
        FUNCS[fname](output=np.zeros(X.shape if fname == "gaussian_filter1d" else IMG.shape,
                                     dtype="datetime64[s]"))
    with pytest.raises(TypeError, match=_m("output", "list")):
        FUNCS[fname](output=[0.0] * 3)
    with pytest.raises(TypeError, match=_m("output", "'not-a-dtype'")):
        FUNCS[fname](output="not-a-dtype")


@pytest.mark.parametrize("fname", list(FUNCS))
def test_bad_cval(fname):
    with pytest.raises(TypeError, match=_m("cval", "got 'a'")):
        FUNCS[fname](cval="a")


def test_never_runtime_error_for_forced_method_beyond_reach():
    """A forced bank (whatever its bank_method) that cannot reach the accuracy is a ValueError,
    not a RuntimeError."""
    for bank_method in ("auto", "iir1"):
        with pytest.raises(ValueError, match="tol"):
            gaussian_filter1d(X, 50.0, truncate=12.0, method="bank", bank_method=bank_method)
        with pytest.raises(ValueError, match=_m("no SFT plan reaches", "tol=1e-07")):
            gaussian_filter1d(X, 1.5, order=2, tol=1e-7, method="bank", bank_method=bank_method)


# ----------------------------------------------------------------------------- messages and dtypes


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("sigma", [2.0, 30.0])          # the direct path and the bank
def test_read_only_output(fname, sigma):
    out = np.zeros_like(X if fname == "gaussian_filter1d" else IMG)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="output array is read-only"):
        FUNCS[fname](sigma=sigma, output=out)


def test_read_only_cwt_out():
    from sftwave import cwt

    out = np.zeros((1, X.size), np.complex128)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out array is read-only"):
        cwt(X, [0.1], out=out)


@pytest.mark.parametrize("fname", list(FUNCS))
def test_ragged_input(fname):
    with pytest.raises(ValueError, match=_m("input", "rectangular", "ragged list")):
        FUNCS[fname](input=[[1.0, 2.0], [3.0]])


def test_cwt_freqs_messages():
    from sftwave import cwt

    with pytest.raises(ValueError, match=_m("Nyquist", "fs/2 = 500.0", "got 500.0000001")):
        cwt(X, [500.0000001], 1000.0)
    with pytest.raises(TypeError, match=_m("freqs", "got None")):
        cwt(X, None)
    with pytest.raises(ValueError, match=_m("x", "rectangular", "ragged list")):
        cwt([[1.0, 2.0], [3.0]], [0.1])


@pytest.mark.parametrize("dt", [">f4", ">f8", ">c8", ">i2"])
def test_non_native_byte_order_gives_native_dtypes(dt):
    """Big-endian input behaves as its native twin (scipy returns native dtypes too)."""
    from sftwave import cwt

    x = (np.random.default_rng(0).standard_normal(300) * 100).astype(dt)
    native = x.astype(np.dtype(dt).newbyteorder("="))
    y, yn = cwt(x, [0.1, 0.3]), cwt(native, [0.1, 0.3])
    assert y.dtype == yn.dtype and np.array_equal(y, yn)
    g, gn = gaussian_filter1d(x, 5.0), gaussian_filter1d(native, 5.0)
    assert g.dtype == gn.dtype and np.array_equal(g, gn)
