"""sftwave.stream on the skeleton: the constructors' requests, ``engine=``, the checkpoint module."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import sftwave
from sftwave import engines, stream
from sftwave._checks.stream import cwt_stream_request, gaussian_stream_request
from sftwave.stream import CWT, GaussianFilter1D, checkpoint


def test_gaussian_request_is_frozen_and_normalised():
    r = gaussian_stream_request(3, 1, mode="grid-mirror", cval=1, truncate=4, tol=None,
                                method="auto", transform="sft", engine="numba")
    assert (r.sigma, r.order, r.mode, r.cval, r.truncate) == (3.0, 1, "reflect", 1.0, 4.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.sigma = 2.0


def test_cwt_request_resolves_tol_and_refuses_fft_and_wrap():
    kw = dict(xi=6.0, mode="reflect", cval=0.0, output="complex", decim=1, tol=None,
              method="auto", engine="numba", outputs=("complex",), methods=("auto", "fft"),
              default_tol=1e-4)
    assert cwt_stream_request([0.1], 1.0, **kw).tol == 1e-4
    with pytest.raises(ValueError, match="method='fft' transforms a whole signal at once"):
        cwt_stream_request([0.1], 1.0, **{**kw, "method": "fft"})
    with pytest.raises(ValueError, match="mode='wrap' cannot stream"):
        cwt_stream_request([0.1], 1.0, **{**kw, "mode": "grid-wrap"})


def test_engine_is_resolved_and_held():
    x = np.random.default_rng(0).standard_normal(800)
    f, g = GaussianFilter1D(5.0), GaussianFilter1D(5.0, engine="numba")
    assert f.engine == g.engine == "numba"
    a = np.concatenate([f.process(x), f.flush()])
    b = np.concatenate([g.process(x), g.flush()])
    assert np.array_equal(a, b)
    assert np.allclose(a, sftwave.gaussian_filter1d(x, 5.0), rtol=0, atol=1e-12)
    assert CWT([0.1], engine="auto").engine == "numba"


@pytest.mark.parametrize("make", [lambda e: GaussianFilter1D(2.0, engine=e),
                                  lambda e: CWT([0.1], engine=e)])
def test_an_engine_without_the_operation_says_so(make):
    pytest.importorskip("array_api_compat")
    with pytest.raises(engines.UnsupportedOperation,
                       match="engine='xp' has no operation 'stream_advance' .*'numba'"):
        make("xp")
    with pytest.raises(ValueError, match="engine must be one of"):
        make("gpu")


def test_checkpoint_holds_the_engine_and_its_module_reads_it(tmp_path):
    s = CWT([0.05, 0.2], output="power")
    s.process(np.ones((2, 500)))
    s.save(tmp_path / "s.npz")
    record = checkpoint.read(tmp_path / "s.npz")
    meta = json.loads(str(record["meta"][()]))
    assert meta["args"]["engine"] == "numba"
    assert meta["format_version"] == checkpoint.CHECKPOINT_FORMAT == stream.CHECKPOINT_FORMAT
    r = checkpoint.restore(stream.CWT, record, {"CWT": CWT, "GaussianFilter1D": GaussianFilter1D})
    assert isinstance(r, CWT) and r.engine == "numba"
    np.testing.assert_array_equal(r.process(np.ones((2, 10))), s.process(np.ones((2, 10))))


def test_checkpoint_naming_another_engine_is_refused(tmp_path):
    s = GaussianFilter1D(3.0)
    record = s._record()
    meta = json.loads(str(record["meta"][()]))
    for bad in ("gpu", "cuda", "xp"):
        meta["args"]["engine"] = bad
        record["meta"] = np.array(json.dumps(meta))
        np.savez(tmp_path / "bad.npz", **record)
        try:
            stream.load(tmp_path / "bad.npz")
        except ValueError as exc:             # refused, naming the constructor; never another error
            assert "refused by GaussianFilter1D" in str(exc)
        else:                                 # pragma: no cover - an engine that streams
            raise AssertionError(f"engine={bad!r} was taken")
