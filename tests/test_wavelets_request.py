"""The CWT's request (``sftwave._checks.wavelets.cwt_request``): every argument of
:func:`sftwave.cwt` and :func:`sftwave.morlet_transform` normalised once, every bad one refused
naming the parameter and its value, and a request built from the input's shape alone.

No transform is computed here but where a request is compared with the result it describes
(a few rows of a few hundred samples).
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import tracemalloc

import numpy as np
import pytest

import sftwave
from sftwave import wavelets
from sftwave._checks import wavelets as checks
from sftwave.plans import DEFAULT_MORLET_TOL
from sftwave.plans.families import DOG, Morlet
from sftwave.plans.select import max_kernel_sigma

#: What the layers above the checks tell the builder (as sftwave.wavelets does for numpy input).
FACTS = dict(engine="numba", engine_fft=True, default_tol=DEFAULT_MORLET_TOL,
             sigma_limit=max_kernel_sigma)

X = np.zeros((2, 300))
F = [0.05, 0.2]


def request(**kwargs):
    return wavelets.cwt_request(kwargs.pop("x", X), kwargs.pop("freqs", F), **kwargs)


# ----------------------------------------------------------------------------- normalisation


def test_rows_from_freqs_and_fs():
    r = request(freqs=0.1, fs=2)                       # a scalar frequency, an int fs
    assert r.fs == 2.0 and isinstance(r.fs, float)
    assert r.freqs.tolist() == [0.1] and r.freqs.dtype == np.float64
    np.testing.assert_allclose(r.sigmas, wavelets.frequency_to_scale([0.1], 2.0, 6.0), rtol=1e-15)
    assert r.xis.tolist() == [6.0] and not r.in_place


def test_xi_one_per_frequency():
    r = request(xi=np.array([3.0, 7.0]))
    assert r.xis.tolist() == [3.0, 7.0]
    np.testing.assert_allclose(r.sigmas, wavelets.frequency_to_scale(F, 1.0, np.array([3.0, 7.0])), rtol=1e-15)


def test_wavelet_family_resolved():
    r = request(wavelet="mexh", output="complex")
    assert r.family == DOG(2)
    assert np.isnan(r.xis).all()                       # a family without xi
    assert r.output == "real" and r.dtype == np.float64    # the DOG's real coefficients
    assert request(wavelet=Morlet()).family == Morlet()


@pytest.mark.parametrize("axis,expected", [(-1, 1), (0, 0), (-2, 0)])
def test_axis_normalised(axis, expected):
    r = request(x=np.zeros((300, 300)), axis=axis)
    assert r.axis == expected and r.n == 300


def test_mode_cval_and_complex_input():
    assert request(mode="grid-wrap").mode == "wrap"
    assert request(cval=np.float32(2)).cval == 2.0
    r = request(x=np.zeros(300, complex), cval=1 + 2j)
    assert r.complex_input and r.cval == 1 + 2j
    with pytest.raises(TypeError, match=re.escape("cval must be a real number (complex only for "
                                                  "complex input); got (1+2j)")):
        request(cval=1 + 2j)


@pytest.mark.parametrize("x,output,dtype,expected", [
    (np.zeros(300), "complex", None, np.complex128),
    (np.zeros(300), "power", None, np.float64),
    (np.zeros(300, np.float32), "complex", None, np.complex64),
    (np.zeros(300, np.float32), "abs", None, np.float32),
    (np.zeros(300, np.float32), "complex", np.complex128, np.complex128),
    (np.zeros(300), "phase", "float32", np.float32),
])
def test_result_dtype(x, output, dtype, expected):
    assert request(x=x, output=output, dtype=dtype).dtype == expected


def test_tol_method_transform_bank_method_decim_workers():
    r = request()
    assert r.tol == DEFAULT_MORLET_TOL and (r.method, r.transform, r.bank_method) == ("auto",) * 3
    r = request(tol=1e-6, method="bank", transform="asft", bank_method="iir2", decim=np.int64(3),
                workers=-1)
    assert (r.tol, r.method, r.transform, r.bank_method) == (1e-6, "bank", "asft", "iir2")
    assert r.decim == 3 and type(r.decim) is int
    assert r.workers == (os.cpu_count() or 1)
    assert r.out_shape == (2, 2, 100)


def test_nan_policy_min_weight_engine_and_windowed():
    r = request(nan_policy="omit", min_weight=0.25)
    assert (r.nan_policy, r.min_weight, r.engine, r.windowed) == ("omit", 0.25, "numba", False)
    assert request(engine="auto").engine == "numba"


def test_out_checked_in_the_result_layout_and_its_dtype_adopted():
    out = np.empty((2, 2, 150), np.complex64)
    r = request(out=out, decim=2)
    assert r.out is out and r.dtype == np.complex64
    # morlet_transform's layout: the input's axes
    out = np.empty((2, 100))
    r = wavelets._prepare(X, dict(sigma=8.0), output="power", decim=3, out=out)[0]
    assert r.in_place and r.out_shape == (2, 100) and r.out is out and r.sigmas == (8.0,)


def test_the_request_describes_the_result():
    """The shape and dtype a request promises are those of the transform it asks for."""
    x = np.random.default_rng(0).standard_normal((3, 256)).astype(np.float32)
    for kw in (dict(), dict(output="power", decim=3), dict(axis=0, output="abs"),
               dict(wavelet="dog4", output="power")):
        r = wavelets.cwt_request(x, F, **kw)
        y = sftwave.cwt(x, F, **kw)
        assert (y.shape, y.dtype) == (r.out_shape, r.dtype), kw
    r = wavelets._prepare(x, dict(sigma=6.0), axis=0, decim=2)[0]
    y = sftwave.morlet_transform(x, 6.0, axis=0, decim=2)
    assert (y.shape, y.dtype) == (r.out_shape, r.dtype)


def test_request_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        request().tol = 1.0          # type: ignore[misc]


def test_defaults_in_one_place():
    """The builder's defaults are cwt's and morlet_transform's (their signatures')."""
    builder = {k: p.default for k, p in inspect.signature(checks.scalogram_request).parameters.items()
               if p.default is not inspect.Parameter.empty}
    for fn in (sftwave.cwt, sftwave.morlet_transform):
        for name, p in inspect.signature(fn).parameters.items():
            if p.kind is p.KEYWORD_ONLY and name not in ("wavelet", "engine"):   # (resolved above)
                assert builder[name] == p.default, (fn.__name__, name)
    assert wavelets._CWT_DEFAULTS.keys() - {"engine"} <= builder.keys()


# ----------------------------------------------------------------------------- no computing


def test_built_from_a_shape_alone():
    """A terabyte's call is checked from its shape: nothing of that size is allocated."""
    tracemalloc.start()
    try:
        r = checks.cwt_request((10**3, 10**12), np.geomspace(0.001, 0.4, 50), 1.0, family=Morlet(),
                               output="power", decim=4, **FACTS)
        s = wavelets.shape_request((10**3, 10**12), np.float32, [0.1], engine="numba")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.out_shape == (10**3, 50, 25 * 10**10) and r.dtype == np.float64
    assert s.dtype == np.complex64
    assert peak < 1 << 20          # the arguments' arrays only (the input would be 8 TB)


def test_public_request_reads_the_input_without_copying_it():
    """wavelets.cwt_request on a broadcast view of one sample (1e10 elements on paper): built,
    with no copy of the input."""
    x = np.broadcast_to(np.zeros(1), (10**4, 10**6))
    tracemalloc.start()
    try:
        r = wavelets.cwt_request(x, [0.01, 0.1], output="abs")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.out_shape == (10**4, 2, 10**6) and peak < 1 << 20


# ----------------------------------------------------------------------------- errors

#: (arguments, exception, words of its message): each names the parameter and echoes the value.
BAD = [
    (dict(fs=-1.0), ValueError, "fs must be a positive finite number; got -1.0"),
    (dict(fs="1"), TypeError, "fs must be a real number; got '1'"),
    (dict(freqs=[0.1, 0.7]), ValueError, "freqs must not exceed the Nyquist frequency fs/2 = 0.5; got 0.7"),
    (dict(freqs=[[0.1]]), ValueError, "freqs must be a scalar or a 1-D sequence; got shape (1, 1)"),
    (dict(freqs="a"), TypeError, "freqs must be a positive number or a 1-D sequence of them; got 'a'"),
    (dict(wavelet="haar"), ValueError, "wavelet"),
    (dict(wavelet=3), TypeError, "wavelet must be a string"),
    (dict(xi=0.001), ValueError, "xi must be in [0.01, 300] (the Morlet designs' range); got 0.001"),
    (dict(xi=[6.0, 6.0, 6.0]), ValueError, "xi must be a number or hold one value per frequency (2); got shape (3,)"),
    (dict(wavelet="mexh", xi=5.0), ValueError, "xi"),
    (dict(axis=2), ValueError, "axis 2 is out of range for an input with 2 dimension(s)"),
    (dict(axis=0.5), TypeError, "axis must be an integer; got 0.5"),
    (dict(mode="edge"), ValueError, "mode must be one of"),
    (dict(cval="0"), TypeError, "cval must be a real number (complex only for complex input); got '0'"),
    (dict(output="real_part"), ValueError, "output must be one of 'complex', 'power', 'abs', 'phase'; got 'real_part'"),
    (dict(wavelet="mexh", output="phase"), ValueError, "output"),
    (dict(tol=1.0), ValueError, "tol must be None or in [1e-09, 0.1]; got 1.0"),
    (dict(tol="x"), TypeError, "tol must be None or a real number; got 'x'"),
    (dict(dtype=np.float64), ValueError, "dtype must be complex for output='complex'; got float64"),
    (dict(dtype="nope"), TypeError, "dtype must be a numpy dtype; got 'nope'"),
    (dict(method="wavelet"), ValueError, "method must be one of"),
    (dict(wavelet="mexh", method="fft"), ValueError, "method='fft' is the Morlet wavelet's"),
    (dict(transform="fast"), ValueError, "transform must be one of"),
    (dict(bank_method="iir9"), ValueError, "bank_method must be one of"),
    (dict(decim=0), ValueError, "decim must be a positive integer; got 0"),
    (dict(decim=2.0), TypeError, "decim must be a positive integer; got 2.0"),
    (dict(out=np.empty((2, 2, 299), complex)), ValueError, "out must have shape (2, 2, 300); got (2, 2, 299)"),
    (dict(out=np.empty((2, 2, 300))), ValueError,
     "out must have a complex dtype for output='complex'; got dtype float64"),
    (dict(out=[0.0]), TypeError, "out must be None or an ndarray; got list"),
    (dict(out=np.empty((2, 300, 2), complex).transpose(0, 2, 1)), ValueError, "out must be C-contiguous"),
    (dict(workers=0), ValueError, "workers must be a positive integer or -1; got 0"),
    (dict(workers=1.5), TypeError, "workers must be None or an integer; got 1.5"),
    (dict(nan_policy="raise"), ValueError, "nan_policy must be one of 'propagate', 'omit'; got 'raise'"),
    (dict(min_weight=2.0), ValueError, "min_weight must be in (0, 1]; got 2.0"),
    (dict(min_weight=0.0), ValueError, "min_weight must be a positive finite number; got 0.0"),
    (dict(engine="gpu"), ValueError, "engine must be one of"),
    (dict(freqs=[1e-6]), ValueError, "freqs (its 1e-06 with fs=1.0): the wavelet is longer than the signal"),
    (dict(colour="red"), TypeError, "cwt() got an unexpected keyword argument 'colour'"),
    (dict(freqs=None), TypeError, "freqs must be a positive number or a 1-D sequence of them; got None"),
]


@pytest.mark.parametrize("kwargs,exc,words", BAD, ids=[next(iter(k)) for k, _, _ in BAD])
def test_bad_argument_named(kwargs, exc, words):
    """The request refuses it with the words cwt itself raises (the same builder)."""
    with pytest.raises(exc, match=re.escape(words)):
        request(**dict(kwargs))
    with pytest.raises(exc, match=re.escape(words)):
        sftwave.cwt(X, **{"freqs": F, **kwargs})


def test_engine_capabilities_and_fft_refused_in_their_names():
    with pytest.raises(ValueError, match=re.escape("method='fft' runs on the CPU engine only "
                                                   "(engine='numba'); got engine='xp'")):
        checks.cwt_request((300,), F, family=Morlet(), method="fft", **{**FACTS, "engine_fft": False,
                                                                        "engine": "xp"})
    with pytest.raises(ValueError, match="the wavelet 'dog2' runs on the CPU engine only"):
        checks.cwt_request((300,), F, family=DOG(2), **{**FACTS, "engine": "xp"})


@pytest.mark.parametrize("kwargs,exc,words", [
    (dict(sigma=-1.0), ValueError, "sigma must be a positive finite number; got -1.0"),
    (dict(sigma=1.0, xi=6.0), ValueError, "exceeds Nyquist (pi): increase sigma (got 1.0)"),
    (dict(sigma=8.0, xi=[6.0]), TypeError, "xi must be a real number; got [6.0]"),
    (dict(sigma=1e7), ValueError, "sigma=10000000.0: the wavelet is longer than the signal"),
    (dict(sigma=8.0, out=np.empty((2, 299), complex)), ValueError, "out must have shape (2, 300)"),
])
def test_morlet_transform_request_errors(kwargs, exc, words):
    sigma = kwargs.pop("sigma")
    with pytest.raises(exc, match=re.escape(words)):
        checks.morlet_request((2, 300), sigma, family=Morlet(), **FACTS, **kwargs)
    with pytest.raises(exc, match=re.escape(words)):
        sftwave.morlet_transform(X, sigma, **kwargs)


def test_a_dataarray_is_sent_to_sftwave_xarray():
    xr = pytest.importorskip("xarray")
    with pytest.raises(TypeError, match=r"cwt takes arrays; for an xarray DataArray call "
                                        r"sftwave\.xarray\.cwt"):
        request(x=xr.DataArray(X))


def test_the_other_wavelet_parsers_name_their_argument():
    with pytest.raises(ValueError, match=re.escape("factors must be positive, one per frequency")):
        checks.check_factors([1.0, -1.0], np.array([0.1, 0.2]))
    with pytest.raises(ValueError, match=re.escape("rows=(0.3, 0.4) selects no row")):
        checks.selected_rows(np.array([0.1, 0.2]), (0.3, 0.4))
    assert checks.selected_rows(np.array([0.1, 0.2, 0.3]), (0.15, 0.3)).tolist() == [1, 2]
    with pytest.raises(ValueError, match=re.escape("W has 3 rows along axis -2; freqs has 2")):
        checks.check_rows_along("W", 3, -2, 2)
    with pytest.raises(ValueError, match=re.escape("values must have shape (..., len(freqs)=2, n); "
                                                   "got (5,)")):
        checks.check_scalogram_rows("values", (5,), 2)
    with pytest.raises(TypeError, match="sftwave.dask.cwt takes no 'out'"):
        checks.refuse_out(np.empty(2), "sftwave.dask.cwt")
    with pytest.raises(TypeError, match="plan must be an int or float; got str"):
        checks.check_plan("plan", (int, float))
    assert checks.input_precision(np.float16) == (False, True)
