"""sftwave.synchrosqueeze on the skeleton: its request, ``engine=`` and its one named result."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sftwave import engines
from sftwave._checks.synchrosqueeze import ssq_request
from sftwave.synchrosqueeze import SsqCwtResult, ssq_cwt

FREQS = np.geomspace(0.02, 0.3, 12)
X = np.cos(2 * np.pi * 0.08 * np.arange(600))


def _args(**kw):
    args = dict(fs=1.0, xi=6.0, ssq_freqs=None, squeezing="sum", gamma=None, axis=-1,
                mode="reflect", cval=0.0, tol=None, dtype=None, block=None, return_cwt=False,
                fft=True, derivative="auto", workers=None, engine="numba", default_tol=1e-4)
    return {**args, **kw}


def test_request_is_frozen_and_normalised():
    r = ssq_request(np.zeros((3, 50), np.float32), FREQS, **_args(axis=-2, mode="grid-wrap"))
    assert r.axis == 0 and r.mode == "wrap" and r.tol == 1e-4 and r.log_bins
    assert r.out_dtype == np.complex64 and r.bins is not None and r.engine == "numba"
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.tol = 1.0


@pytest.mark.parametrize("kw, err, msg", [
    (dict(block=0), ValueError, "block must be a positive integer; got 0"),
    (dict(fft=1), TypeError, "fft must be True or False; got 1"),
    (dict(xi=[6.0]), TypeError, "xi must be one real number for ssq_cwt"),
    (dict(squeezing="max"), ValueError, "squeezing must be one of"),
    (dict(dtype=np.clongdouble), ValueError, "dtype must be complex"),
])
def test_request_refuses_naming_the_parameter(kw, err, msg):
    with pytest.raises(err, match=msg):
        ssq_request(np.zeros(50), FREQS, **_args(**kw))


def test_return_cwt_gives_a_named_result_that_unpacks_as_before():
    plain = ssq_cwt(X, FREQS)
    r = ssq_cwt(X, FREQS, return_cwt=True)
    assert isinstance(plain, np.ndarray) and isinstance(r, SsqCwtResult)
    T, W = r
    assert T is r.ssq and W is r.cwt and r._fields == ("ssq", "cwt")
    assert np.array_equal(T, plain) and W.shape == (FREQS.size, X.size)
    empty = ssq_cwt(np.zeros((0, 40)), FREQS, return_cwt=True)
    assert isinstance(empty, SsqCwtResult) and empty.cwt.shape == (0, FREQS.size, 40)


def test_numba_engine_is_the_default():
    assert np.array_equal(ssq_cwt(X, FREQS, engine="numba"), ssq_cwt(X, FREQS))


def test_an_engine_without_the_operations_says_so():
    pytest.importorskip("array_api_compat")
    with pytest.raises(engines.UnsupportedOperation,
                       match="engine='xp' has no operation 'squeeze_block' .*'numba'"):
        ssq_cwt(X, FREQS, engine="xp")
    with pytest.raises(ValueError, match="engine must be one of"):
        ssq_cwt(X, FREQS, engine="cpu")
