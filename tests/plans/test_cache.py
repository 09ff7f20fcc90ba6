"""The on-disk plan cache (sftwave.plans.cache): what is stored is what is returned, and nothing runs.

The cache may only ever change how long a call takes, never its result: a
stored plan must come back bit for bit, a damaged or malformed file must be
designed again, errors must be raised again with their message, and a cache
that cannot be written must be no cache at all.  Its content is plain data: a
pickle planted at any cache file's path is never loaded, and folders or files
that other users own or may write are ignored.
"""

import io
import json
import os
import pickle
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

from sftwave.plans import cache as _plancache
from sftwave.plans import select as _select
from sftwave.plans.cache import on_disk
from sftwave.plans.fit import FIRPlan, SFTPlan


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(_plancache.ENV, str(tmp_path))
    monkeypatch.delenv(_plancache.MAX_BYTES_ENV, raising=False)
    return tmp_path


def _counting(name):
    calls = []

    @on_disk(name)
    def design(sigma: float, order: int = 0):
        calls.append((sigma, order))
        if sigma < 0:
            raise ValueError(f"sigma must be positive; got {sigma!r}")
        return np.arange(5) * sigma + order

    return design, calls


def _plan(sigma: float) -> SFTPlan:
    return SFTPlan(np.array([0.0, 0.5, 1.0]), 0.0, 9, 4, np.ones((1, 2, 3)) * sigma, 1e-3,
                   {"kind": "test", "sigma": sigma, "P": 3})


def _counting_plans(name):
    calls = []

    @on_disk(name)
    def design(sigma: float):
        calls.append(sigma)
        return _plan(sigma)

    return design, calls


def _files(name):
    return sorted((_plancache.cache_root() / name).glob("*.plan"))


def _same(a, b) -> bool:
    """Equal bit for bit, with the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return (a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
                and a.flags.writeable == b.flags.writeable)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    if isinstance(a, float):
        return a.hex() == b.hex() if a == a else b != b
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, SFTPlan):
        return all(_same(getattr(a, f), getattr(b, f))
                   for f in ("omegas", "alpha", "length", "lag", "coef", "error", "info"))
    if isinstance(a, FIRPlan):
        return _same(a.kernel, b.kernel) and _same(a.error, b.error)
    return a == b


# --------------------------------------------------------------------------- reading back


def test_second_call_reads_the_file(cache_dir):
    design, calls = _counting("t1")
    a = design(2.5, order=1)
    b = design(2.5, order=1)
    assert calls == [(2.5, 1)]
    assert _same(a, b)
    assert len(_files("t1")) == 1
    assert not list(cache_dir.rglob("*.pkl"))


def test_keys_are_exact(cache_dir):
    """Neighbouring floats, ints against floats and keyword arguments are different keys."""
    design, calls = _counting("t2")
    design(1.0)
    design(np.nextafter(1.0, 2.0))
    design(1)
    design(1.0, order=2)
    assert len(calls) == 4


def _real_records():
    from sftwave.plans.gaussian import fir_kernel, gaussian_plan
    from sftwave.plans.morlet import fir_morlet, morlet_plan

    return {
        "gaussian_sft": gaussian_plan.__wrapped__(40.0, 0, 1e-5, "sft"),
        "gaussian_asft": gaussian_plan.__wrapped__(40.0, 1, 1e-5, "asft"),
        "morlet_direct": morlet_plan.__wrapped__(37.5, 6.0, 1e-4, "direct", "sft"),
        "morlet_multiply": morlet_plan.__wrapped__(37.5, 6.0, 1e-4, "multiply", "sft"),
        "fir_kernel": fir_kernel.__wrapped__(2.0, 2, 1e-4),
        "fir_morlet": fir_morlet.__wrapped__(4.0, 6.0, 1e-4),
        "fir_plan": FIRPlan(fir_morlet.__wrapped__(4.0, 6.0, 1e-4), 1e-4),
        "scipy_fir_plan": FIRPlan(np.array([0.25, 0.5, 0.25])),
        "scalogram": tuple(_select.select_morlet(s, 6.0, 1e-4, method=m, fir_taps_per_order=5.5)
                           for s, m in ((2.0, "auto"), (30.0, "direct"), (30.0, "multiply"))),
    }


_SYNTHETIC = {
    "ratio": (2.7182818284590455, 1.0000000000000002e-07),
    "layout": (2.35, -1, 3.3e-05),
    "tiny_and_huge": (5e-324, 1.7976931348623157e308, 2**70, -0.0),
    "float32_fortran": np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4) / 3),
    "read_only": np.frombuffer(np.arange(4, dtype=np.complex64).tobytes(), dtype=np.complex64),
    "ints": np.arange(-3, 3, dtype=np.int16),
    "plan_with_numpy_scalars": SFTPlan(
        np.array([0.25]), np.float64(0.125), np.int64(3), 1, np.full((2, 2, 1), 1 / 3), np.float64(0.5),
        {"flag": np.bool_(True), "n": np.int32(7), "x": np.float32(0.1), "shape": (1, 2.0, "a"),
         "items": [None, True, 3], "nested": {"deep": -1.5}}),
}


@pytest.mark.parametrize("kind", [*_SYNTHETIC, "error"])
def test_every_record_kind_comes_back_exactly(cache_dir, kind):
    """Tuples, arrays of any plain dtype and layout, plans with any info, errors: bit for bit."""
    calls = []

    @on_disk("kinds")
    def design(k):
        calls.append(k)
        if k == "error":
            raise ValueError("no plan reaches tol=1e-12; got 'error'")
        return _SYNTHETIC[k]

    for _ in range(2):
        try:
            design(kind)
        except ValueError as exc:
            assert str(exc) == "no plan reaches tol=1e-12; got 'error'"
    assert calls == [kind]  # stored, then read
    if kind != "error":
        data = _plancache._encode_file("kinds", "k", ("ok", _SYNTHETIC[kind]))
        back = _plancache._decode_file(data, "kinds", "k")
        assert back[0] == "ok" and _same(back[1], _SYNTHETIC[kind])


def test_real_plans_and_kernels_come_back_exactly(cache_dir):
    """Every kind the library keeps (nested envelope plans, complex coefficients) round-trips."""
    records = _real_records()
    for name, value in records.items():
        data = _plancache._encode_file(name, "key", ("ok", value))
        back = _plancache._decode_file(data, name, "key")
        assert back is not None and back[0] == "ok", name
        assert _same(back[1], value), name
    assert isinstance(records["morlet_multiply"].info["envelope"], SFTPlan)
    assert [type(p) for p in records["scalogram"]] == [FIRPlan, SFTPlan, SFTPlan]


def test_other_results_are_not_kept(cache_dir):
    """A result that is not a plan, an array or a tuple of numbers is computed each time."""
    calls = []

    @on_disk("t11")
    def design(k):
        calls.append(k)
        return {"coef": np.arange(3)} if k == 0 else ("a", 1.0) if k == 1 else np.array([None])

    for k in (0, 1, 2):
        design(k)
        design(k)
    assert len(calls) == 6
    assert not _plancache.cache_root().exists() or not any(_plancache.cache_root().rglob("*.plan"))


def test_errors_are_kept_and_raised_again(cache_dir):
    design, calls = _counting("t4")
    for _ in range(2):
        with pytest.raises(ValueError, match=r"sigma must be positive; got -1\.0"):
            design(-1.0)
    assert len(calls) == 1


# --------------------------------------------------------------------------- damaged files


def test_damaged_file_is_designed_again(cache_dir):
    design, calls = _counting("t3")
    design(3.0)
    (path,) = _files("t3")
    whole = path.read_bytes()
    for damage in (whole[:30], whole[:-40], whole + b"\0", b""):
        path.write_bytes(damage)
        again = design(3.0)
        assert _same(again, np.arange(5) * 3.0)
    assert len(calls) == 5
    design(3.0)  # rewritten whole
    assert len(calls) == 5


def test_swapped_file_is_not_used(cache_dir):
    """A valid file moved to another key's place is designed again, not returned."""
    design, calls = _counting("t8")
    design(2.0)
    design(5.0)
    a, b = _files("t8")
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)
    assert _same(design(2.0), np.arange(5) * 2.0)
    assert _same(design(5.0), np.arange(5) * 5.0)
    assert len(calls) == 4
    design(2.0)  # overwritten with the right content
    assert len(calls) == 4


def _npz_bytes():
    buf = io.BytesIO()
    np.savez(buf, coef=np.arange(5) * 4.0)
    return buf.getvalue()


@pytest.mark.parametrize("foreign", [
    pickle.dumps(("ok", "a plan of someone else")),
    pickle.dumps({"some": "dict"}),
    np.arange(3).tobytes(),
    _npz_bytes(),
], ids=["pickled_tuple", "pickled_dict", "raw_bytes", "npz"])
def test_foreign_content_is_not_used(cache_dir, foreign):
    """A file that is not this cache's (a pickle or an npz included) is designed again."""
    design, calls = _counting("t9")
    design(4.0)
    (path,) = _files("t9")
    path.write_bytes(foreign)
    assert _same(design(4.0), np.arange(5) * 4.0)
    assert len(calls) == 2


#: A cache file's layout, written out here so that the tests pin it: this magic line, the
#: length of a JSON header (8 bytes, little-endian), the header, the arrays' raw bytes.
_MAGIC = b"sftwave-plan-cache\n"


def _unpack(path):
    data = path.read_bytes()
    assert data.startswith(_MAGIC)
    start = len(_MAGIC) + 8
    end = start + int.from_bytes(data[len(_MAGIC):start], "little")
    meta = json.loads(data[start:end])
    arrays = []
    for spec in meta.pop("arrays"):
        dtype, shape = np.dtype(spec["dtype"]), spec["shape"]
        count = int(np.prod(shape))
        flat = np.frombuffer(data, dtype, count, end)
        arrays.append(flat.reshape(shape, order="F" if spec["fortran"] else "C").copy())
        end += count * dtype.itemsize
    assert end == len(data)
    return meta, arrays


def _pack(path, meta, arrays):
    specs = [{"dtype": a.dtype.str, "shape": list(a.shape), "fortran": False} for a in arrays]
    header = json.dumps({**meta, "arrays": specs}).encode()
    path.write_bytes(b"".join([_MAGIC, len(header).to_bytes(8, "little"), header,
                               *(np.ascontiguousarray(a).tobytes() for a in arrays)]))


def _fields(meta):
    return dict(meta["record"]["value"]["v"])


def _ref(meta, field):
    return _fields(meta)[field]["v"]


def _bad_coef_shape(meta, arrays):
    arrays[_ref(meta, "coef")] = np.ones((1, 2, 4))


def _nan_coef(meta, arrays):
    arrays[_ref(meta, "coef")][0, 0, 0] = np.nan


def _float32_omegas(meta, arrays):
    arrays[_ref(meta, "omegas")] = arrays[_ref(meta, "omegas")].astype(np.float32)


def _big_endian_omegas(meta, arrays):
    arrays[_ref(meta, "omegas")] = arrays[_ref(meta, "omegas")].astype(">f8")


def _object_coef(meta, arrays):  # (its raw bytes are pointers)
    arrays[_ref(meta, "coef")] = np.array([None, {"a": 1}], dtype=object)


def _lag_past_window(meta, arrays):
    _fields(meta)["lag"]["v"] = 9


def _zero_length(meta, arrays):
    _fields(meta)["length"]["v"] = 0
    _fields(meta)["lag"]["v"] = 0


def _string_alpha(meta, arrays):
    _fields(meta)["alpha"].update(t="str", v="0.0")


def _negative_error(meta, arrays):
    _fields(meta)["error"]["v"] = (-1.0).hex()


def _extra_array(meta, arrays):
    arrays.append(np.zeros(3))


def _unknown_node(meta, arrays):
    meta["record"]["value"]["v"][6][1] = {"t": "pickle", "v": "gASVAAAAAAAAAAB9lC4="}


def _not_a_plan(meta, arrays):
    meta["record"]["value"] = {"t": "dict", "v": []}


@pytest.mark.parametrize("craft", [
    _bad_coef_shape, _nan_coef, _float32_omegas, _big_endian_omegas, _object_coef,
    _lag_past_window, _zero_length, _string_alpha, _negative_error, _extra_array, _unknown_node,
    _not_a_plan,
], ids=lambda f: f.__name__.strip("_"))
def test_malformed_file_is_designed_again(cache_dir, craft):
    """A file with the right key but bad shapes, dtypes, values or nodes is never trusted."""
    design, calls = _counting_plans("t10")
    design(6.0)
    (path,) = _files("t10")
    meta, arrays = _unpack(path)
    assert meta["key"] and meta["name"] == "t10"
    craft(meta, arrays)
    _pack(path, meta, arrays)
    again = design(6.0)
    assert len(calls) == 2
    assert _same(again, _plan(6.0))
    assert _same(design(6.0), _plan(6.0)) and len(calls) == 2  # rewritten whole


def test_unchanged_file_is_used(cache_dir):
    """The helpers above rewrite a file faithfully: an unchanged one is read (the checks are not vacuous)."""
    design, calls = _counting_plans("t12")
    design(6.0)
    (path,) = _files("t12")
    _pack(path, *_unpack(path))
    assert _same(design(6.0), _plan(6.0))
    assert len(calls) == 1


# --------------------------------------------------------------------------- turning it off


def test_empty_variable_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.setenv(_plancache.ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    design, calls = _counting("t5")
    design(1.0)
    design(1.0)
    assert len(calls) == 2
    assert _plancache.cache_root() is None
    assert not any(tmp_path.iterdir())


def test_default_folder_is_the_platform_cache_folder(tmp_path, monkeypatch):
    import platformdirs

    monkeypatch.delenv(_plancache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    expected = platformdirs.user_cache_dir("sftwave", appauthor=False)
    assert _plancache.cache_root() == type(_plancache.cache_root())(expected) / _plancache.source_hash()


def test_zero_cap_turns_it_off(cache_dir, monkeypatch):
    monkeypatch.setenv(_plancache.MAX_BYTES_ENV, "0")
    design, calls = _counting("t13")
    design(1.0)
    design(1.0)
    assert len(calls) == 2
    assert not any(cache_dir.iterdir())


@pytest.mark.parametrize("value", ["64M", "-1", "1.5"])
def test_bad_cap_is_refused(cache_dir, monkeypatch, value):
    monkeypatch.setenv(_plancache.MAX_BYTES_ENV, value)
    design, _ = _counting("t14")
    with pytest.raises(ValueError, match=rf"SFTWAVE_CACHE_MAX_BYTES must be .*; got {value!r}"):
        design(1.0)


def test_unwritable_path_is_no_cache(tmp_path, monkeypatch):
    """A cache 'folder' below a plain file cannot be created (even by root): no cache, no error."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(_plancache.ENV, str(blocker / "cache"))
    design, calls = _counting("t7")
    assert _same(design(2.0), np.arange(5) * 2.0)
    assert _same(design(2.0), np.arange(5) * 2.0)
    assert len(calls) == 2


# --------------------------------------------------------------------------- permissions


def _mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_folders_are_0700_and_files_0600(tmp_path, monkeypatch):
    base = tmp_path / "fresh" / "cache"
    monkeypatch.setenv(_plancache.ENV, str(base))
    old = os.umask(0o022)
    try:
        design, _ = _counting("t15")
        design(1.0)
    finally:
        os.umask(old)
    root = _plancache.cache_root()
    assert [_mode(p) for p in (base, root, root / "t15")] == [0o700] * 3
    (path,) = _files("t15")
    assert _mode(path) == 0o600


@pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
@pytest.mark.parametrize("level,mode", [("base", 0o777), ("base", 0o770), ("version", 0o722),
                                        ("name", 0o707)])
def test_folder_others_may_write_is_ignored(cache_dir, level, mode):
    """A folder writable by its group or by others is neither read nor written into."""
    design, calls = _counting("t16")
    design(1.0)
    (path,) = _files("t16")
    before = path.read_bytes()
    folder = {"base": cache_dir, "version": _plancache.cache_root(),
              "name": _plancache.cache_root() / "t16"}[level]
    folder.chmod(mode)
    try:
        design(1.0)
        design(2.0)
        assert len(calls) == 3  # not read
        assert path.read_bytes() == before and len(_files("t16")) == 1  # not written
    finally:
        folder.chmod(0o700)
    design(1.0)
    assert len(calls) == 3


@pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
def test_folders_of_another_user_are_ignored(cache_dir, monkeypatch):
    """The tests run as root, so the owner is changed by faking the effective user."""
    design, calls = _counting("t17")
    design(1.0)
    (path,) = _files("t17")
    before = path.read_bytes()
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 4242)
    design(1.0)
    design(3.0)
    assert len(calls) == 3
    assert path.read_bytes() == before and len(_files("t17")) == 1


@pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
def test_file_of_another_user_or_writable_by_others_is_ignored(cache_dir, monkeypatch):
    design, calls = _counting("t18")
    design(1.0)
    (path,) = _files("t18")
    real = _plancache._is_ours
    foreign = os.stat(path).st_ino
    monkeypatch.setattr(_plancache, "_is_ours",
                        lambda st: st.st_ino != foreign and real(st))
    assert _same(design(1.0), np.arange(5) * 1.0)
    assert len(calls) == 2  # not read; replaced by a file of ours
    assert os.stat(path).st_ino != foreign
    monkeypatch.undo()
    path.chmod(0o666)
    design(1.0)
    assert len(calls) == 3
    design(1.0)
    assert len(calls) == 3


@pytest.mark.skipif(os.name == "nt", reason="symbolic links")
def test_symbolic_links_are_refused(cache_dir, tmp_path_factory):
    design, calls = _counting("t19")
    design(1.0)
    (path,) = _files("t19")
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "copy.plan"
    elsewhere.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(elsewhere)
    design(1.0)
    assert len(calls) == 2 and not path.is_symlink()  # replaced by a file
    folder = _plancache.cache_root() / "t19"
    moved = tmp_path_factory.mktemp("moved") / "t19"
    folder.rename(moved)
    folder.symlink_to(moved)
    design(1.0)
    assert len(calls) == 3 and folder.is_symlink()


# --------------------------------------------------------------------------- size and clean-up


def _plan_bytes(base):
    return sum(p.stat().st_size for p in base.rglob("*.plan"))


def test_eviction_keeps_the_folder_under_the_cap(cache_dir, monkeypatch):
    """Past the cap, the least recently used files go (a read counts as a use), the newest stay."""
    calls = []

    @on_disk("t20")
    def design(k: int):
        calls.append(k)
        return np.full(1000, float(k))  # files of one size

    def path_of(k):
        return _plancache.cache_root() / "t20" / _plancache._file_name("t20", _plancache._key((k,), {}))

    design(0)
    size = path_of(0).stat().st_size
    cap = int(7.5 * size)
    monkeypatch.setenv(_plancache.MAX_BYTES_ENV, str(cap))
    for k in range(1, 4):
        design(k)
    for k in range(4):  # distinct, known ages: 0 oldest
        t = time.time() - 1000 + k
        os.utime(path_of(k), (t, t))
    design(0)  # read: file 0 is now the most recently used of the four
    assert calls == [0, 1, 2, 3]
    for k in range(4, 8):  # the eighth file passes the cap: back to at most 3/4 of it
        design(k)
        assert _plan_bytes(cache_dir) <= cap
    assert [path_of(k).exists() for k in range(8)] == [True, False, False, False] + [True] * 4
    for k in range(8, 40):
        design(k)
        assert _plan_bytes(cache_dir) <= cap
        assert path_of(k).exists()


def test_folders_are_scanned_once_per_process_and_never_on_reads(cache_dir, monkeypatch):
    scans = []
    real = _plancache._tidy
    monkeypatch.setattr(_plancache, "_tidy", lambda *a: scans.append(a) or real(*a))
    design, calls = _counting("t21")
    for k in range(20):
        design(float(k))
    assert len(scans) == 1
    for k in range(20):  # (on_disk keeps nothing in memory: each call reads its file)
        design(float(k))
    assert len(scans) == 1 and len(calls) == 20


def _version_folder(base, name, age_s, mode=0o700):
    folder = base / name / "morlet_plan"
    folder.mkdir(parents=True)
    (folder / ("0" * 32 + ".plan")).write_bytes(b"old")
    for p in (folder / ("0" * 32 + ".plan"), folder, folder.parent):
        t = time.time() - age_s
        os.utime(p, (t, t))
    folder.parent.chmod(mode)
    return folder.parent


def test_other_versions_are_dropped_once_per_process(cache_dir):
    stale = _version_folder(cache_dir, "0123456789abcdef", 7200)
    fresh = _version_folder(cache_dir, "fedcba9876543210", 10)
    not_ours = _version_folder(cache_dir, "0000000000000000", 7200, mode=0o777)
    other_name = _version_folder(cache_dir, "plans-of-someone", 7200)
    names = _plancache.cache_root() / "t22"
    names.mkdir(parents=True, mode=0o700)
    crashed, writing = names / ".tmp-crashed.plan", names / ".tmp-writing.plan"
    for path, age in ((crashed, 7200), (writing, 10)):
        path.write_bytes(b"partial")
        os.utime(path, (time.time() - age, time.time() - age))
    design, _ = _counting("t22")
    design(1.0)
    assert not stale.exists()
    assert not crashed.exists() and writing.exists()  # temporary files left by a crash go
    assert fresh.exists() and not_ours.exists() and other_name.exists()
    assert _plancache.cache_root().exists()
    late = _version_folder(cache_dir, "1111111111111111", 7200)
    design(2.0)
    assert late.exists()  # at most once per process


# --------------------------------------------------------------------------- one file per scalogram

#: Scales (sigma, xi) whose plans are of every kind: a FIR, direct and multiplication banks.
_SCALES = ((2.0, 6.0), (9.0, 3.5), (30.0, 6.0), (30.0, 41.0), (80.0, 0.7))


def _scalogram(designs=None, method="auto"):
    """The plans of ``_SCALES`` with nothing kept in this process's memory; ``designs``
    (a list) counts the per-scale designs (none: the plans came from the file)."""
    from sftwave.plans import morlet

    for cached in (_select._select_morlet_scales, _select._select_morlet, morlet.morlet_plan,
                   morlet.fir_morlet):
        cached.cache_clear()
    real = _select._select_morlet
    if designs is not None:
        _select._select_morlet = lambda *a: designs.append(a) or real(*a)
    try:
        return _select.select_morlet_scales(_SCALES, 1e-5, n=1500, fir_taps_per_order=5.5,
                                            method=method)
    finally:
        _select._select_morlet = real


def _one_by_one(method="auto"):
    """The plans of ``_SCALES`` by select_morlet, scale by scale."""
    return [_select.select_morlet(s, w, 1e-5, n=1500, fir_taps_per_order=5.5, method=method)
            for s, w in _SCALES]


@pytest.mark.parametrize("method,kinds", [("auto", {"fir", "direct"}), ("multiply", {"multiply"})])
def test_scalogram_is_one_file_and_comes_back_exactly(cache_dir, monkeypatch, method, kinds):
    """A scalogram's plans go to one file (none per plan) and come back bit for bit."""
    designs: list = []
    first = _scalogram(designs, method)
    assert len(designs) == len(_SCALES)
    root = _plancache.cache_root()
    assert [p.parent.name for p in root.rglob("*.plan")] == ["morlet_scalogram"]
    assert {p.info["method"] if isinstance(p, SFTPlan) else "fir" for p in first} == kinds
    again: list = []
    second = _scalogram(again, method)
    assert again == []                       # read, not designed
    monkeypatch.setenv(_plancache.ENV, "")   # and equal to the plans designed one by one, no cache
    expected = _one_by_one(method)
    for a, b, c in zip(first, second, expected):
        assert _same(a, c) and _same(b, c)
    assert len(first) == len(second) == len(expected)


def _scalogram_file():
    (path,) = _files("morlet_scalogram")
    return path


def _plan_fields(meta, i):
    return dict(meta["record"]["value"]["v"][i]["v"])


def _nan_in_one_plan(meta, arrays):
    arrays[_plan_fields(meta, 2)["coef"]["v"]][0, 1, 0] = np.nan


def _even_kernel(meta, arrays):
    ref = _plan_fields(meta, 0)["kernel"]["v"]
    arrays[ref] = arrays[ref][:-1]


def _negative_kernel_error(meta, arrays):
    _plan_fields(meta, 0)["error"]["v"] = (-1e-5).hex()


def _one_plan_not_a_plan(meta, arrays):
    meta["record"]["value"]["v"][1] = {"t": "float", "v": (1.0).hex()}


def _plans_mixed_with_numbers(meta, arrays):
    meta["record"]["value"]["v"].append({"t": "int", "v": 3})


def _one_plan_fewer(meta, arrays):
    del meta["record"]["value"]["v"][-1]


def _other_key(meta, arrays):
    meta["key"] = meta["key"].replace("'0x1.0000000000000p+1'", "'0x1.0000000000000p+2'", 1)


def _truncated(path):
    path.write_bytes(path.read_bytes()[:-40])


def _pickled(path):
    path.write_bytes(pickle.dumps(_one_by_one()))


@pytest.mark.parametrize("damage", [
    _nan_in_one_plan, _even_kernel, _negative_kernel_error, _one_plan_not_a_plan,
    _plans_mixed_with_numbers, _one_plan_fewer, _other_key, _truncated, _pickled,
], ids=lambda f: f.__name__.strip("_"))
def test_scalogram_file_damaged_is_designed_again(cache_dir, damage):
    """A scalogram's file with a bad plan among good ones, another key, cut short or
    foreign is designed again whole (and rewritten), never returned."""
    expected = _scalogram()
    path = _scalogram_file()
    if damage in (_truncated, _pickled):
        damage(path)
    else:
        meta, arrays = _unpack(path)
        damage(meta, arrays)
        _pack(path, meta, arrays)
    designs: list = []
    again = _scalogram(designs)
    assert len(designs) == len(_SCALES)
    assert len(again) == len(expected) and all(_same(a, b) for a, b in zip(again, expected))
    designs.clear()
    _scalogram(designs)
    assert designs == []                     # rewritten whole


def test_scalogram_file_rewritten_unchanged_is_used(cache_dir):
    """The helpers above rewrite the file faithfully (so the damage tests are not vacuous)."""
    _scalogram()
    path = _scalogram_file()
    _pack(path, *_unpack(path))
    designs: list = []
    _scalogram(designs)
    assert designs == []


@pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
def test_scalogram_file_is_private_and_others_files_are_ignored(tmp_path, monkeypatch):
    base = tmp_path / "cache"
    monkeypatch.setenv(_plancache.ENV, str(base))
    _scalogram()
    path = _scalogram_file()
    assert _mode(path) == 0o600 and _mode(path.parent) == 0o700
    path.chmod(0o666)                        # writable by others: not read, replaced
    designs: list = []
    _scalogram(designs)
    assert len(designs) == len(_SCALES) and _mode(_scalogram_file()) == 0o600
    real = _plancache._is_ours
    monkeypatch.setattr(_plancache, "_is_ours", lambda st: not stat.S_ISREG(st.st_mode) and real(st))
    designs.clear()
    _scalogram(designs)                      # files not ours: not read
    assert len(designs) == len(_SCALES)


def test_inside_one_file_parts_are_read_but_not_written(cache_dir):
    design, calls = _counting("t23")
    design(1.0)                              # a file written outside
    with _plancache.one_file():
        design(1.0)                          # read
        design(2.0)                          # designed, not written
        with _plancache.one_file():
            design(3.0)
        design(4.0)
    assert calls == [(1.0, 0), (2.0, 0), (3.0, 0), (4.0, 0)]
    assert len(_files("t23")) == 1
    design(2.0)                              # written once out of the block
    assert len(_files("t23")) == 2


# --------------------------------------------------------------------------- in other processes

_PROCESS = r"""
import sys
import numpy as np
import sftwave.plans.fit, sftwave.plans.gaussian, sftwave.plans.morlet
if sys.argv[1] == "load":
    def refuse(*a, **k):
        raise AssertionError("designed again")
    sftwave.plans.fit.fit_plan = refuse
    sftwave.plans.gaussian.fit_plan = refuse
    sftwave.plans.morlet.fit_plan = refuse
plan = sftwave.plans.morlet.morlet_plan(37.5, 6.0, 1e-4, "direct", "sft")
g = sftwave.plans.gaussian.gaussian_plan(40.0, 1, 1e-5, "asft")
np.save(sys.argv[2], np.concatenate([plan.coef.ravel().view(np.float64), plan.omegas,
                                     g.coef.ravel(), g.omegas, [plan.length, g.length]]))
"""


def test_plans_survive_a_new_process(tmp_path):
    """A second process gets the same plans bit for bit without designing them."""
    env = dict(os.environ, SFTWAVE_CACHE_DIR=str(tmp_path / "cache"))
    outs = []
    for step in ("design", "load"):
        out = tmp_path / f"{step}.npy"
        subprocess.run([sys.executable, "-c", _PROCESS, step, str(out)], env=env, check=True,
                       timeout=600)
        outs.append(np.load(out))
    assert np.array_equal(outs[0], outs[1])


_TRANSFORMS = r"""
import sys
import numpy as np
import sftwave
import sftwave.plans.fit, sftwave.plans.gaussian, sftwave.plans.morlet
if sys.argv[1] == "load":  # everything must come from the disk cache
    def refuse(*a, **k):
        raise AssertionError("designed again")
    for mod in (sftwave.plans.fit, sftwave.plans.gaussian, sftwave.plans.morlet):
        mod.fit_plan = refuse
        mod.truncated_kernel = refuse
x = np.cumsum(np.random.default_rng(1).standard_normal(3000))
out = {}
freqs = np.geomspace(1.0, 200.0, 7)
out["direct"] = sftwave.cwt(x, freqs, 500.0)
out["multiply"] = sftwave.cwt(x, freqs, 500.0, method="multiply", tol=1e-5)
for order in (0, 1, 2):
    for sigma in (1.5, 40.0):
        out[f"g{order}_{sigma}"] = sftwave.gaussian_filter1d(x, sigma, order=order)
np.savez(sys.argv[2], **out)
"""


def _transforms(tmp_path, step, cache, tag):
    env = dict(os.environ, SFTWAVE_CACHE_DIR=cache)
    out = tmp_path / f"{tag}.npz"
    proc = subprocess.run([sys.executable, "-c", _TRANSFORMS, step, str(out)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    with np.load(out) as npz:
        return {k: npz[k] for k in npz.files}


def _same_results(a, b):
    assert list(a) == list(b)
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].tobytes() == b[k].tobytes(), k


@pytest.mark.slow
def test_warm_cache_gives_the_results_of_no_cache(tmp_path):
    """cwt and gaussian_filter1d from a warm disk cache equal those with it off, bit for bit."""
    off = _transforms(tmp_path, "design", "", "off")
    cache = str(tmp_path / "cache")
    cold = _transforms(tmp_path, "design", cache, "cold")
    warm = _transforms(tmp_path, "load", cache, "warm")
    _same_results(off, cold)
    _same_results(off, warm)


class _Planted:
    """A pickle that, when loaded, creates the file ``marker`` (and could run anything)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))


@pytest.mark.slow
def test_planted_pickles_never_run(tmp_path):
    """Whoever can write a cache file cannot run code in the next process that uses sftwave."""
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    pickle.loads(payload)  # the bait works: loading it does run code
    assert marker.exists()
    marker.unlink()
    cache = tmp_path / "cache"
    designed = _transforms(tmp_path, "design", str(cache), "designed")
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert files
    for path in files:
        path.write_bytes(payload)
        path.with_suffix(".pkl").write_bytes(payload)  # the names of earlier versions too
    attacked = _transforms(tmp_path, "design", str(cache), "attacked")
    assert not marker.exists()
    _same_results(designed, attacked)
