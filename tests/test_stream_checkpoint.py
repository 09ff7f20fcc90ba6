"""Stream checkpoints (save/load and pickle) and the streams' edge cases.

A checkpoint is a versioned record rebuilt by the constructor and checked
field by field.  The crafted-checkpoint tests push every counter out of range
and reshape or retype every array, then load each one and run the result in a
subprocess: the process must end normally (a crash in the kernel would end it
by a signal, a negative exit code), every load being refused with
``ValueError`` or giving a stream that runs.  Also here: zero-length chunks
and the outputs' dtype for float32 (and other) input.
"""

from __future__ import annotations

import copy
import copyreg
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import sftwave
from sftwave import stream as stream_module
from sftwave.stream import CWT, GaussianFilter1D


def _run(s, x, cut):
    """Outputs of ``s`` over ``x`` cut at ``cut`` (time last), flushed."""
    return np.concatenate([s.process(x[..., :cut]), s.process(x[..., cut:]), s.flush()], axis=-1)


def _makers():
    return {
        "gauss-fir": lambda: GaussianFilter1D(0.8),
        "gauss-bank": lambda: GaussianFilter1D(20.0, 1, mode="constant", cval=0.3),
        "cwt": lambda: CWT([0.01, 0.05, 0.3], decim=3),
        "cwt-phase": lambda: CWT([0.02, 0.2], output="phase", mode="mirror", xi=[5.0, 7.0]),
    }


def _save_load(s, how, tmp_path):
    if how == "pickle":
        return pickle.loads(pickle.dumps(s))
    path = tmp_path / f"{how}.npz"
    s.save(path)
    return {"load": type(s).load, "module": stream_module.load}[how](path)


# ---------------------------------------------------------------------- resuming exactly


@pytest.mark.parametrize("how", ["pickle", "load", "module"])
@pytest.mark.parametrize("name", list(_makers()))
@pytest.mark.parametrize("cut", [0, 7, 900])
def test_checkpoint_resumes_exactly(name, cut, how, tmp_path):
    """Fresh, still buffering (7 samples) or running (900): the resumed stream's outputs are
    those of the stream that was never interrupted, bit for bit, in its dtype."""
    x = np.random.default_rng(cut).standard_normal((2, 2500)) + 1.0
    make = _makers()[name]
    a, b = make(), make()
    head = [b.process(x[:, :cut])]
    b = _save_load(b, how, tmp_path)
    assert type(b) is type(a)
    got = np.concatenate(head + [b.process(x[:, cut:]), b.flush()], axis=-1)
    want = _run(a, x, cut)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_flushed_stream_stays_flushed(tmp_path):
    s = CWT([0.1])
    s.process(np.ones(300))
    s.flush()
    for how in ("pickle", "load"):
        with pytest.raises(ValueError, match="flushed"):
            _save_load(s, how, tmp_path).process(np.ones(3))


def test_deepcopy_is_an_independent_stream():
    x = np.random.default_rng(2).standard_normal(2000)
    s = GaussianFilter1D(6.0)
    s.process(x[:500])
    t = copy.deepcopy(s)
    assert np.array_equal(t.process(x[500:]), s.process(x[500:]))


# ---------------------------------------------------------------------- refusals at load


def _record(s):
    """The checkpoint record of ``s`` with its ``meta`` decoded (a dict to edit)."""
    rec = dict(s.__getstate__())
    rec["meta"] = json.loads(str(rec["meta"][()]))
    return rec


def _encode(rec):
    out = dict(rec)
    if isinstance(out.get("meta"), dict):
        out["meta"] = np.array(json.dumps(out["meta"]))
    return out


class _Crafted:
    """Pickles as an object of class ``cls`` whose pickled state is ``state``, whatever."""

    def __init__(self, cls, state):
        self.cls, self.state = cls, state

    def __reduce__(self):
        return copyreg._reconstructor, (self.cls, object, None), self.state


def _started(name="cwt"):
    s = _makers()[name]()
    s.process(np.random.default_rng(0).standard_normal((2, 900)))
    return s


def test_another_version_is_refused_at_load_naming_both(tmp_path):
    s = _started()
    rec = _record(s)
    rec["meta"]["sftwave_version"] = "0.0.1"
    msg = f"written by sftwave '0.0.1', this is sftwave '{sftwave.__version__}'"
    with pytest.raises(ValueError, match=msg):
        pickle.loads(pickle.dumps(_Crafted(CWT, _encode(rec))))
    np.savez(tmp_path / "old.npz", **_encode(rec))
    with pytest.raises(ValueError, match=msg):
        CWT.load(tmp_path / "old.npz")
    rec = _record(s)
    rec["meta"]["format_version"] = 99
    np.savez(tmp_path / "new.npz", **_encode(rec))
    with pytest.raises(ValueError, match="checkpoint format 99; .* reads format 2"):
        CWT.load(tmp_path / "new.npz")


def test_an_unversioned_pickle_is_refused():
    """A stream pickled as its raw attributes (as sftwave once did) cannot be checked."""
    s = _started("gauss-bank")
    blob = pickle.dumps(_Crafted(GaussianFilter1D, dict(s.__dict__)))
    with pytest.raises(ValueError, match="not a versioned stream checkpoint"):
        pickle.loads(blob)


def test_load_refuses_a_field_naming_it(tmp_path):
    s = _started()
    C = 2
    cases = [
        ("history", lambda a: a[:, 1:], r"'history' has shape \(2, \d+\), expected \(2, \d+\)"),
        ("state_re", lambda a: a.astype(np.float32), "'state_re' must have dtype float64"),
        ("centre", lambda a: a * np.nan, "'centre' holds NaN or inf"),
        ("arg_freqs", lambda a: a[None], "'arg_freqs' must have 1 axis"),
    ]
    for field, change, msg in cases:
        rec = _record(s)
        rec[field] = change(rec[field])
        np.savez(tmp_path / "bad.npz", **_encode(rec))
        with pytest.raises(ValueError, match=msg):
            CWT.load(tmp_path / "bad.npz")
    for key, value, msg in [("n_in", -1, r"n_in must be in \[0, "),
                            ("n_in", 5, r"n_in must be at least the stream's startup"),
                            ("channels", [C, 2], r"'centre' has shape \(2,\), expected \(4,\)"),
                            ("dtype", "int64", "dtype must be null or one of"),
                            ("started", 1, "started must be true or false")]:
        rec = _record(s)
        rec["meta"][key] = value
        np.savez(tmp_path / "bad.npz", **_encode(rec))
        with pytest.raises(ValueError, match=msg):
            CWT.load(tmp_path / "bad.npz")
    rec = _record(s)
    rec["meta"]["args"]["decim"] = 0
    np.savez(tmp_path / "bad.npz", **_encode(rec))
    with pytest.raises(ValueError, match="refused by CWT: .*decim"):
        CWT.load(tmp_path / "bad.npz")
    s.save(tmp_path / "cwt.npz")
    with pytest.raises(ValueError, match="holds a 'CWT' stream; this loads GaussianFilter1D"):
        GaussianFilter1D.load(tmp_path / "cwt.npz")
    with pytest.raises(TypeError, match="path must be a str or os.PathLike; got 3.5"):
        s.save(3.5)


def _mutations(s, lead, how):
    """(record, chunk's channels, must be refused, label) for crafted checkpoints of ``s``
    (``how``: 'pickle' adds what only a pickle can hold, a list where an array belongs)."""
    base = _record(s)
    out = [(base, lead, False, "as saved")]

    def meta(key, value, refuse=True, chunk_lead=lead):
        rec = copy.deepcopy(base)
        rec["meta"][key] = value
        out.append((rec, chunk_lead, refuse, f"meta {key}={value!r}"))

    def arg(key, value, refuse):
        rec = copy.deepcopy(base)
        rec["meta"]["args"][key] = value
        out.append((rec, lead, refuse, f"args {key}={value!r}"))

    m = base["meta"]
    n = m["n_in"]
    bad_ints = [-1, -2**63, 2**53 + 1, 2**63, 10**40, True, 1.5, "3", None]
    for v in bad_ints:
        meta("n_in", v)
    for v in (n - 1, n + 1, 0, 1, 2**53):        # in range: refused or a sound stream
        meta("n_in", v, refuse=False)
    for k in ("started", "finished"):
        meta(k, not m[k], refuse=False)
        meta(k, 0)
    for v in ("object", "int64", "complex256", "", 5, [1]):
        meta("dtype", v)
    if m["channels"] is not None:
        C = int(np.prod(m["channels"]))
        for v in ([-1], [2**53 + 1], "2", [0.5], [True], list(range(40))):
            meta("channels", v)
        for v in ([2**53], [C + 1], [C - 1], [C, 2]):     # the arrays' channels differ
            meta("channels", v, refuse=not m["finished"])
        meta("channels", [C, 1], refuse=False, chunk_lead=(C, 1))
    for v in ("sftwave.other", None):
        meta("format", v)
    meta("sftwave_version", "0.0.1")
    meta("format_version", 0)
    meta("class", "Other")
    meta("class", 3)
    # another type: refused; another value of the type: refused by the constructor, or a
    # stream that runs (another cval, say)
    for key, kind in type(s)._ARG_KINDS.items():
        for v in {"int": [True, 2.0, "1", None], "number": ["x", None, True, [1.0]],
                  "number?": ["x", True], "str": ["", "wrap", "bogus", 3, None]}[kind]:
            arg(key, v, True)
        for v in {"int": [-1, 0, 1, 2**63, 10**40],
                  "number": [-1.0, 0, 1e308, 1e-300, float("nan"), 2.5],
                  "number?": [-1.0, 1e308, 1e-300, 0.5], "str": []}[kind]:
            arg(key, v, False)
    for key in list(base):
        rec = dict(base)
        del rec[key]
        out.append((rec, lead, True, f"without {key}"))
        if key == "meta":
            for v in (np.array(["{}"]), np.array(b"{}"), np.array("{not json"), np.array("[]"),
                      np.array("[" * 100000 + "]" * 100000), np.zeros(3)):
                out.append(({**base, key: v}, lead, True, f"meta={v!r:.40}"))
            continue
        a = base[key]
        variants = {"float32": a.astype(np.float32), "int64": a.astype(np.int64),
                    "complex": a.astype(np.complex128), "object": a.astype(object),
                    "big-endian": a.astype(">f8"), "flat": a.ravel(), "transposed": a.T,
                    "0-d": np.array(1.0), "one more": np.concatenate([a.ravel(), [0.0]])}
        if how == "pickle":
            variants["list"] = a.tolist()
        if a.ndim:
            variants["one less"] = a[..., :-1] if a.shape[-1] else a[..., :1]
            variants["first axis shorter"] = a[:-1] if a.shape[0] else a[:1]
            variants["first axis longer"] = np.concatenate([a, a[:1] + 1.0])
            if a.size:
                nan = a.copy()
                nan.flat[-1] = np.nan
                variants["NaN"] = nan
        for label, v in variants.items():
            same = type(v) is np.ndarray and v.dtype.str == a.dtype.str and v.shape == a.shape
            if label != "NaN" and same:
                continue
            # the same numbers in the other byte order: the same stream, or refused
            out.append(({**base, key: v}, lead, label != "big-endian", f"{key} {label}"))
    out.append(({**base, "junk": np.zeros(2)}, lead, True, "an extra field"))
    return out


def _streams():
    """Checkpoints of every phase: fresh, buffering, running (FIR, bank, CWT), flushed."""
    rng = np.random.default_rng(5)
    fresh = CWT([0.1])
    buffering = GaussianFilter1D(30.0)
    buffering.process(rng.standard_normal((2, 10)))
    fir = GaussianFilter1D(0.8, 2, mode="nearest")
    fir.process(rng.standard_normal((3, 50)).astype(np.float32))
    bank = GaussianFilter1D(12.0, 1)
    bank.process(rng.standard_normal(700))
    cwt = _started("cwt")
    flushed = GaussianFilter1D(2.0)
    flushed.process(np.ones(40))
    flushed.flush()
    return [(fresh, ()), (buffering, (2,)), (fir, (3,)), (bank, ()), (cwt, (2,)), (flushed, ())]


_CHILD = r"""
import json, pickle, sys
import numpy as np
from sftwave import stream
folder, how = sys.argv[1], sys.argv[2]
cases = json.load(open(folder + "/cases.json"))
report = []
for i, case in enumerate(cases):
    try:
        if how == "pickle":
            s = pickle.loads(open(f"{folder}/{i}.pkl", "rb").read())
        else:
            s = {"GaussianFilter1D": stream.GaussianFilter1D.load, "CWT": stream.CWT.load,
                 "any": stream.load}[case["loader"]](f"{folder}/{i}.npz")
    except ValueError as exc:
        report.append(["refused", str(exc)])
        continue
    x = np.random.default_rng(i).standard_normal(tuple(case["lead"]) + (300,))
    try:
        ys = [s.process(x), s.process(x[..., :1]), s.flush()]
    except ValueError as exc:
        if "flushed" not in str(exc):
            raise
        report.append(["resumed, flushed", ""])
        continue
    for y in ys:
        assert y.shape[:len(case["lead"])] == tuple(case["lead"]), (y.shape, case)
        assert np.isfinite(y).all(), case
    report.append(["resumed", ""])
json.dump(report, open(folder + "/report.json", "w"))
"""


def _crafted_run(tmp_path, how):
    cases, labels, refuse = [], [], []
    i = 0
    for s, lead in _streams():
        cls = type(s)
        for rec, chunk_lead, must_refuse, label in _mutations(s, lead, how):
            enc = _encode(rec)
            if how == "pickle":
                (tmp_path / f"{i}.pkl").write_bytes(pickle.dumps(_Crafted(cls, enc)))
            else:
                with open(tmp_path / f"{i}.npz", "wb") as f:
                    np.savez(f, **enc)
            loader = ["any", cls.__name__][i % 2]
            cases.append({"lead": list(chunk_lead), "loader": loader})
            labels.append(f"{cls.__name__} {label}")
            refuse.append(must_refuse)
            i += 1
    if how == "npz":             # files that are no checkpoint at all
        good = (tmp_path / "0.npz").read_bytes()
        np.save(tmp_path / "plain.npy", np.zeros(3))
        junk = [b"", b"garbage" * 50, good[:len(good) // 2], good[:-30],
                (tmp_path / "plain.npy").read_bytes(), pickle.dumps({"meta": "x"})]
        for blob in junk:
            (tmp_path / f"{i}.npz").write_bytes(blob)
            cases.append({"lead": [], "loader": "any"})
            labels.append(f"junk file {blob[:20]!r}")
            refuse.append(True)
            i += 1
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), how],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report) == len(cases)
    wrong = [(label, outcome) for label, outcome, must in zip(labels, report, refuse)
             if must and outcome[0] != "refused"]
    assert not wrong, wrong
    assert all(outcome[0] != "refused" for label, outcome in zip(labels, report)
               if label.endswith(" as saved")), list(zip(labels, report))
    return labels, report


def test_crafted_pickles_are_refused_or_run_never_crash(tmp_path):
    labels, report = _crafted_run(tmp_path, "pickle")
    assert len(report) > 300


def test_crafted_npz_files_are_refused_or_run_never_crash(tmp_path):
    labels, report = _crafted_run(tmp_path, "npz")
    assert len(report) > 300


def test_raw_state_with_the_kernels_indices_out_of_range_never_crashes(tmp_path):
    """A pickle of a stream's raw attributes, its indices pushed out of range (what once
    went straight into the kernel's writes): refused, in a process that ends normally."""
    s = _started("gauss-bank")
    blobs = []
    for key in ("_lag", "_hi", "_L", "_lo", "_a0", "_obase", "_next", "_emitted"):
        for bump in (-1000, 1000, 10**9):
            raw = dict(s.__dict__)
            raw[key] = raw[key] + bump
            blobs.append(pickle.dumps(_Crafted(GaussianFilter1D, raw)))
    raw = dict(s.__dict__)
    raw["_tr"] = raw["_tr"][:, :1]
    blobs.append(pickle.dumps(_Crafted(GaussianFilter1D, raw)))
    (tmp_path / "blobs.pkl").write_bytes(pickle.dumps(blobs))
    code = ("import pickle, sys, numpy as np\n"
            "blobs = pickle.loads(open(sys.argv[1], 'rb').read())\n"
            "refused = 0\n"
            "for b in blobs:\n"
            "    try:\n"
            "        s = pickle.loads(b)\n"
            "    except ValueError:\n"
            "        refused += 1\n"
            "        continue\n"
            "    s.process(np.ones((2, 5000))); s.flush()\n"
            "print(refused, len(blobs))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "blobs.pkl")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    refused, total = map(int, proc.stdout.split())
    assert refused == total


def test_save_is_atomic(tmp_path, monkeypatch):
    """A save that fails half-way leaves the previous file as it was and no temporary file."""
    s = _started("gauss-bank")
    path = tmp_path / "s.npz"
    s.save(path)
    before = path.read_bytes()
    s.process(np.ones((2, 100)))

    def failing(f, **arrays):
        f.write(b"PK half a file")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", failing)
    with pytest.raises(OSError, match="disk full"):
        s.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["s.npz"]
    s.save(path)
    assert path.read_bytes() != before and os.listdir(tmp_path) == ["s.npz"]


# ---------------------------------------------------------------------- edge cases


def _phases(make, lead):
    """The same stream fresh, buffering and running."""
    x = np.random.default_rng(9).standard_normal(lead + (1200,))
    fresh, buffering, running = make(), make(), make()
    buffering.process(x[..., :3])
    running.process(x[..., :1000])
    return {"fresh": fresh, "buffering": buffering, "running": running}, x


@pytest.mark.parametrize("lead", [(), (3,), (2, 2)])
@pytest.mark.parametrize("name", ["gauss-bank", "cwt"])
def test_an_empty_chunk_returns_an_empty_result_and_changes_nothing(name, lead):
    make = _makers()[name]
    nf = 0 if name.startswith("gauss") else 3
    streams, x = _phases(make, lead)
    for phase, s in streams.items():
        twin = pickle.loads(pickle.dumps(s))
        before = s.__getstate__()
        for dtype in (np.float64, np.float32, np.int16):
            y = s.process(np.empty(lead + (0,), dtype))
            want = make()._out_dtype(np.dtype(dtype)) if phase == "fresh" else s._dtype
            assert y.shape == lead + ((nf,) if nf else ()) + (0,), (phase, y.shape)
            assert y.dtype == want, (phase, y.dtype, want)
        after = s.__getstate__()
        assert before.keys() == after.keys()
        assert all(np.array_equal(before[k], after[k]) for k in before), phase
        rest = x[..., 1000:]
        assert np.array_equal(np.concatenate([s.process(rest), s.flush()], axis=-1),
                              np.concatenate([twin.process(rest), twin.flush()], axis=-1))
    # an empty chunk with other channels than the stream's is refused like any other
    running = _phases(make, lead)[0]["running"]
    with pytest.raises(ValueError, match="channels"):
        running.process(np.empty(lead + (4, 0)))


def test_a_fresh_stream_takes_its_channels_from_its_first_samples_not_an_empty_chunk():
    s = GaussianFilter1D(2.0)
    assert s.process(np.empty((5, 0))).shape == (5, 0)
    x = np.random.default_rng(0).standard_normal((2, 400))
    got = np.concatenate([s.process(x), s.flush()], axis=-1)
    ref = sftwave.gaussian_filter1d(x, 2.0)
    assert got.shape == ref.shape and np.max(np.abs(got - ref)) <= 1e-12 * np.max(np.abs(ref))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16, np.float64])
@pytest.mark.parametrize("n", [3000, 20])            # streaming, and the batch at flush
def test_output_dtype_follows_the_batch_functions(dtype, n):
    """float32 in, float32 out (complex64 for the complex CWT), as the batch functions; the
    values are the float64 computation's, cast."""
    x = (np.random.default_rng(n).standard_normal((2, n)) * 50).astype(dtype)
    x64 = x.astype(np.float64)
    cut = n // 3
    gauss = _run(GaussianFilter1D(4.0), x, cut)
    batch = sftwave.gaussian_filter1d(x, 4.0)
    want = batch.dtype if batch.dtype.kind == "f" else np.dtype(np.float64)
    assert gauss.dtype == want
    assert np.array_equal(gauss, _run(GaussianFilter1D(4.0), x64, cut).astype(want))
    if dtype in (np.float32, np.float64):
        ref = batch.astype(np.float64)
        assert np.max(np.abs(gauss - ref)) <= 1e-4 * np.max(np.abs(ref))
    for output in ("complex", "power"):
        got = _run(CWT([0.05, 0.2], output=output), x, cut)
        batch = sftwave.cwt(x, [0.05, 0.2], output=output)
        assert got.dtype == batch.dtype, (output, got.dtype, batch.dtype)
        assert np.array_equal(got, _run(CWT([0.05, 0.2], output=output), x64, cut)
                              .astype(batch.dtype))
        ref = batch.astype(np.complex128)
        assert np.max(np.abs(got - ref)) <= 1e-4 * np.max(np.abs(ref))


def test_later_chunks_take_the_streams_dtype():
    x = np.random.default_rng(4).standard_normal(2000)
    s = CWT([0.1])
    y = [s.process(x[:1000].astype(np.float32)), s.process(x[1000:]), s.flush()]
    assert all(part.dtype == np.complex64 for part in y)


def test_load_refuses_compressed_members(tmp_path):
    """A compressed member could expand far beyond the file (a zip bomb): load reads stored
    members only, so its memory is bounded by the file's size."""
    from sftwave.stream import GaussianFilter1D

    s = GaussianFilter1D(4.0)
    s.process(np.zeros(300))
    plain = tmp_path / "plain.npz"
    s.save(plain)
    with np.load(plain, allow_pickle=False) as data:
        record = {name: data[name] for name in data.files}
    packed = tmp_path / "packed.npz"
    np.savez_compressed(packed, **record)
    GaussianFilter1D.load(plain)  # the uncompressed original loads
    with pytest.raises(ValueError, match="compressed"):
        GaussianFilter1D.load(packed)
