"""Designed plans kept on disk, so that a new process does not design them again.

Designing a plan is a few constrained least-squares fits (milliseconds each);
a scalogram of 200 frequencies needs a few hundred of them, seconds in all.
Like numba's ``cache=True`` and FFTW's wisdom, the results are stored on disk
and loaded by later processes.

Where
    ``$SFTWAVE_CACHE_DIR`` if set (an empty value turns the disk cache off),
    else ``platformdirs.user_cache_dir("sftwave")`` (``$XDG_CACHE_HOME/sftwave``
    or ``~/.cache/sftwave`` on Linux).  Below it one folder per version of the
    plans' source (the first 16 hex digits of a hash of ``sftwave/plans/*.py``
    and the shipped tables), so a changed design never reads an old plan, and
    in it one folder per cached function.  Folders are created with mode 0700,
    files with mode 0600.

What a file holds
    Plain data that cannot run code: a magic line, the length of a JSON text
    (8 bytes, little-endian), the JSON text, and the raw bytes of the result's
    numeric arrays.  The JSON names the format, the function, the full key of
    the arguments and the result, with type tags so that a float stays a float
    (stored by its hex form, exactly), a tuple a tuple, and each array's dtype
    (one of a fixed list of native bool, integer, float and complex types),
    shape and order, so it comes back bit for bit.  Only these results are
    stored: an :class:`~sftwave.plans.fit.SFTPlan` (its ``info`` a dict of
    scalars, strings, tuples and nested plans), a
    :class:`~sftwave.plans.fit.FIRPlan`, a numeric ``numpy.ndarray``, a tuple
    of floats and ints, a tuple of plans (a scalogram's, one file for all its
    frequencies), and the message of a ``ValueError``; any other result is
    computed each time.  Nothing is ever unpickled (there is no
    pickle, and no ``numpy.load``, in this module).  A file is written to a
    temporary name and renamed into place (concurrent processes see a whole
    file or none).  Reading checks the full key stored in the file (a file
    copied to another key's place is not used) and validates every type,
    dtype, shape and length: a plan must have ``coef`` of shape
    ``(n_outputs, 2, P)`` with ``P == omegas.size``, ``1 <= length``,
    ``0 <= lag < length`` and finite numbers; a kernel must be 1-D, of odd
    length and finite.  A file that fails any check is designed again and
    overwritten.

One file for many plans
    A function whose result gathers many cached results (a scalogram's plans)
    computes them inside :func:`one_file`: its parts read their files but
    write none, and the whole result is stored in the function's own file, so
    that a later process reads one file instead of one per frequency.

Which folders and files are used
    On POSIX systems a folder (the cache folder itself, the version folder and
    each function's folder) or file is used only if it is not a symbolic link,
    is owned by the effective user and is not writable by its group or by
    others; otherwise it is ignored: nothing is read from it or written into
    it, and plans are designed anew.  Files are opened with ``O_NOFOLLOW``
    and checked again once open.  (On Windows the user's cache folder is
    protected by its access lists; no owner or mode check is made there.)  A
    folder that cannot be created or written is simply not used.

Size
    At most ``$SFTWAVE_CACHE_MAX_BYTES`` bytes (64 MiB by default; ``0`` turns
    the disk cache off) under the cache folder.  A process counts what it
    writes; when the count passes the cap (and at its first write) it scans the
    folder once and deletes the least recently used files (a file's time is
    renewed when it is read) until three quarters of the cap are left, so
    folders are scanned once per process and once per quarter of the cap
    written, never on a read.  At its first write a process also deletes the
    folders of other versions (16-hex names, owned by the user, not writable by
    others) that have not been used for an hour.

What this protects against
    Code execution from cache content (a planted pickle is never loaded, since
    nothing is unpickled); tampering by other users, when the permissions are
    right (a folder or file they own or may write is ignored); truncated,
    corrupted, foreign or misplaced files (designed again).  It does not
    protect against an attacker running as the same user: one who can write
    the user's files can anyway change the installed package or plant a plan
    that is well formed but wrong.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import shutil
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .._atomic import atomic_path
from .fit import FIRPlan, SFTPlan

F = TypeVar("F", bound=Callable)

#: The variable naming the cache folder (an empty value turns the disk cache off).
ENV = "SFTWAVE_CACHE_DIR"
#: The variable setting the most bytes kept under the cache folder (0: no disk cache).
MAX_BYTES_ENV = "SFTWAVE_CACHE_MAX_BYTES"
#: The default of ``SFTWAVE_CACHE_MAX_BYTES``.
DEFAULT_MAX_BYTES = 64 * 2**20

#: Layout of a cache file (see the module's docstring).
_FORMAT = "sftwave-plan-cache-3"
_MAGIC = b"sftwave-plan-cache\n"
_SUFFIX = ".plan"
_FILE_RE = re.compile(r"[0-9a-f]{32}\.plan\Z")
_VERSION_RE = re.compile(r"[0-9a-f]{16}\Z")
_NAME_RE = re.compile(r"[a-z0-9_]{1,64}\Z")
_TMP_PREFIX = ".tmp-"
#: A file larger than this (or holding more, uncompressed) is not read: plans are kilobytes.
_MAX_FILE_BYTES = 16 * 2**20
#: Deepest nesting of a stored result (a plan's info holding a plan is depth 3).
_MAX_DEPTH = 8
#: Other versions' folders, and temporary files, unused for this long are deleted.
_STALE_SECONDS = 3600.0
#: After an eviction, this fraction of the cap is left.
_EVICT_TO = 0.75


# --------------------------------------------------------------------------- where


@functools.lru_cache(maxsize=1)
def source_hash() -> str:
    """A hash of the plans package's source files and shipped tables.

    Any change to them gives a new version folder in the cache.

    Examples
    --------
    >>> h = source_hash()
    >>> len(h), all(c in "0123456789abcdef" for c in h)
    (16, True)
    """
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted([*package.rglob("*.py"), *package.rglob("data/*.npz")]):
        h.update(str(path.relative_to(package)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def max_bytes() -> int:
    """The most bytes kept under the cache folder: ``$SFTWAVE_CACHE_MAX_BYTES`` or 64 MiB.

    Raises ``ValueError`` if the variable is set to anything but a whole
    number of bytes, 0 or more (0 turns the disk cache off).

    Examples
    --------
    >>> import os
    >>> max_bytes() == int(os.environ.get("SFTWAVE_CACHE_MAX_BYTES", 64 * 2**20))
    True
    """
    value = os.environ.get(MAX_BYTES_ENV)
    if value is None or value.strip() == "":
        return DEFAULT_MAX_BYTES
    try:
        cap = int(value.strip())
    except ValueError:
        cap = -1
    if cap < 0:
        raise ValueError(f"{MAX_BYTES_ENV} must be a whole number of bytes, 0 or more; got {value!r}")
    return cap


def _base_dir() -> Path | None:
    """The cache folder (all versions), or None when the disk cache is off."""
    value = os.environ.get(ENV)
    if value is not None:
        if value == "":
            return None
        base = Path(value).expanduser()
    else:
        import platformdirs  # imported when a plan is designed, not with sftwave

        base = Path(platformdirs.user_cache_dir("sftwave", appauthor=False))
    if max_bytes() == 0:
        return None
    return base


def cache_root() -> Path | None:
    """The disk cache's folder for this version of the plans' source, or None when it is off.

    Examples
    --------
    >>> root = cache_root()
    >>> root is None or root.name == source_hash()
    True
    """
    base = _base_dir()
    return None if base is None else base / source_hash()


# --------------------------------------------------------------------------- which folders


def _checks_owner() -> bool:
    return os.name != "nt" and hasattr(os, "geteuid")


def _is_ours(st: os.stat_result) -> bool:
    """Whether a folder or file is owned by the effective user (and not writable by others)."""
    if not _checks_owner():
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _trusted_dir(path: Path | str) -> bool:
    """A real folder (no symbolic link) that is ours and that no one else may write."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and _is_ours(st)


def _trusted_file(st: os.stat_result) -> bool:
    return stat.S_ISREG(st.st_mode) and _is_ours(st)


def _make_dirs(folders: tuple[Path, ...]) -> bool:
    """Create what is missing of ``folders`` (each inside the previous) with mode 0700; all trusted?"""
    try:
        os.makedirs(folders[0], mode=0o700, exist_ok=True)
        for folder in folders[1:]:
            try:
                os.mkdir(folder, 0o700)
            except FileExistsError:
                pass
    except OSError:
        return False
    return all(_trusted_dir(folder) for folder in folders)


# --------------------------------------------------------------------------- keys and names


def _key(args: tuple, kwargs: dict) -> str:
    """The full key of the arguments: exact (floats by their hex form)."""

    def canon(v):
        if isinstance(v, float):
            return ("f", v.hex())
        if isinstance(v, (tuple, list)):
            return tuple(canon(u) for u in v)
        return (type(v).__name__, repr(v))

    return repr((canon(args), tuple(sorted((k, canon(v)) for k, v in kwargs.items()))))


def _file_name(name: str, key: str) -> str:
    return hashlib.sha256(f"{name}\0{key}".encode()).hexdigest()[:32] + _SUFFIX


# --------------------------------------------------------------------------- encoding


class _Unsupported(Exception):
    """A result this cache does not store (it is computed each time)."""


class _Malformed(Exception):
    """A file that is not a valid record of this cache."""


#: The array dtypes a file may hold, by their ``dtype.str`` (native byte order only).
_DTYPES = {d.str: d for d in map(np.dtype, (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128))}
_MAX_NDIM = 32


def _encode(value: Any, arrays: list, depth: int = 0) -> dict:
    """A JSON-able tree for ``value``, its arrays appended to ``arrays`` (raises _Unsupported)."""
    if depth > _MAX_DEPTH:
        raise _Unsupported("too deep")
    t = type(value)
    if value is None:
        return {"t": "none"}
    if t is bool:
        return {"t": "bool", "v": value}
    if t is int:
        return {"t": "int", "v": value}
    if t is float:
        return {"t": "float", "v": value.hex()}
    if t is str:
        return {"t": "str", "v": value}
    if t in (tuple, list):
        return {"t": t.__name__, "v": [_encode(u, arrays, depth + 1) for u in value]}
    if t is dict:
        if not all(type(k) is str for k in value):
            raise _Unsupported("a dict with keys that are not strings")
        return {"t": "dict", "v": [[k, _encode(u, arrays, depth + 1)] for k, u in value.items()]}
    if t is np.ndarray or (isinstance(value, np.generic) and t is value.dtype.type):
        if _DTYPES.get(value.dtype.str) != value.dtype or value.ndim > _MAX_NDIM:
            raise _Unsupported(f"dtype {value.dtype}")
        arrays.append(np.asarray(value))
        if t is np.ndarray:
            return {"t": "array", "v": len(arrays) - 1, "writeable": bool(value.flags.writeable)}
        return {"t": "scalar", "v": len(arrays) - 1}
    if t is SFTPlan:
        return {"t": "plan", "v": [[f, _encode(getattr(value, f), arrays, depth + 1)]
                                   for f in _PLAN_FIELDS]}
    if t is FIRPlan:
        return {"t": "fir", "v": [[f, _encode(getattr(value, f), arrays, depth + 1)]
                                  for f in _FIR_FIELDS]}
    raise _Unsupported(t.__name__)


_PLAN_FIELDS = ("omegas", "alpha", "length", "lag", "coef", "error", "info")
_FIR_FIELDS = ("kernel", "error")


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise _Malformed(what)


def _decode(node: Any, arrays: list, used: set, depth: int = 0) -> Any:
    """The value of a tree written by :func:`_encode`, checked (raises _Malformed)."""
    _expect(depth <= _MAX_DEPTH, "too deep")
    _expect(type(node) is dict and type(node.get("t")) is str, "a node")
    t, v = node["t"], node.get("v")
    _expect(len(node) == (1 if t == "none" else 3 if t == "array" else 2), "node fields")
    if t == "none":
        return None
    if t == "bool":
        _expect(type(v) is bool, "a bool")
        return v
    if t == "int":
        _expect(type(v) is int, "an int")
        return v
    if t == "float":
        _expect(type(v) is str, "a float")
        try:
            return float.fromhex(v)
        except ValueError:
            raise _Malformed("a float") from None
    if t == "str":
        _expect(type(v) is str, "a str")
        return v
    if t in ("tuple", "list"):
        _expect(type(v) is list, "a sequence")
        items = [_decode(u, arrays, used, depth + 1) for u in v]
        return tuple(items) if t == "tuple" else items
    if t == "dict":
        _expect(type(v) is list and all(type(p) is list and len(p) == 2 and type(p[0]) is str
                                        for p in v), "a dict")
        out = {k: _decode(u, arrays, used, depth + 1) for k, u in v}
        _expect(len(out) == len(v), "distinct keys")
        return out
    if t in ("array", "scalar"):
        _expect(type(v) is int and 0 <= v < len(arrays) and v not in used, "an array reference")
        used.add(v)
        a = arrays[v]
        if t == "scalar":
            _expect(a.ndim == 0, "a scalar")
            return a[()]
        _expect(type(node.get("writeable")) is bool, "the writeable flag")
        if not node["writeable"]:
            a.setflags(write=False)
        return a
    if t == "plan":
        _expect(type(v) is list and len(v) == len(_PLAN_FIELDS)
                and all(type(p) is list and len(p) == 2 for p in v)
                and tuple(p[0] for p in v) == _PLAN_FIELDS, "a plan's fields")
        return _checked_plan(*(_decode(u, arrays, used, depth + 1) for _, u in v))
    if t == "fir":
        _expect(type(v) is list and len(v) == len(_FIR_FIELDS)
                and all(type(p) is list and len(p) == 2 for p in v)
                and tuple(p[0] for p in v) == _FIR_FIELDS, "a kernel's fields")
        return _checked_fir(*(_decode(u, arrays, used, depth + 1) for _, u in v))
    raise _Malformed(f"node type {t!r}")


def _real(x: Any) -> bool:
    return type(x) is float or isinstance(x, np.floating)


def _whole(x: Any) -> bool:
    return type(x) is int or isinstance(x, np.integer)


def _checked_plan(omegas, alpha, length, lag, coef, error, info) -> SFTPlan:
    """An SFTPlan of these fields if they are consistent (raises _Malformed)."""
    _expect(type(omegas) is np.ndarray and omegas.dtype == np.float64 and omegas.ndim == 1
            and omegas.size >= 1 and bool(np.isfinite(omegas).all()), "omegas")
    _expect(type(coef) is np.ndarray and coef.dtype in (np.float64, np.complex128)
            and coef.ndim == 3 and coef.shape[0] >= 1 and coef.shape[1:] == (2, omegas.size)
            and bool(np.isfinite(coef).all()), "coef")
    _expect(_real(alpha) and math.isfinite(alpha) and alpha >= 0.0, "alpha")
    _expect(_whole(length) and _whole(lag) and 1 <= length and 0 <= lag < length, "length and lag")
    _expect(_real(error) and error >= 0.0, "error")  # (NaN fails the comparison)
    _expect(type(info) is dict, "info")
    return SFTPlan(omegas, alpha, length, lag, coef, error, info)


def _checked_fir(kernel, error) -> FIRPlan:
    """A FIRPlan of these fields if they are consistent (raises _Malformed)."""
    _expect(type(kernel) is np.ndarray and kernel.dtype in (np.float64, np.complex128)
            and kernel.ndim == 1 and kernel.size % 2 == 1 and bool(np.isfinite(kernel).all()),
            "kernel")
    _expect(error is None or (_real(error) and error >= 0.0), "error")  # (NaN fails the comparison)
    return FIRPlan(kernel, error)


def _check_result(node: Any) -> None:
    """Only plans, arrays, tuples of floats and ints and tuples of plans are kept (raises _Malformed)."""
    t = node.get("t") if type(node) is dict else None
    if t in ("plan", "fir", "array"):
        return
    _expect(t == "tuple" and type(node.get("v")) is list
            and (all(type(u) is dict and u.get("t") in ("float", "int") for u in node["v"])
                 or all(type(u) is dict and u.get("t") in ("plan", "fir") for u in node["v"])),
            "a plan, an array, a tuple of numbers or a tuple of plans")


def _pack(meta: dict, arrays: list) -> bytes:
    """A file's bytes: magic line, header length, JSON header (``meta`` and the arrays' layout), raw data."""
    specs, chunks = [], []
    for a in arrays:
        fortran = a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous
        specs.append({"dtype": a.dtype.str, "shape": list(a.shape), "fortran": fortran})
        chunks.append(a.tobytes(order="F" if fortran else "C"))
    header = json.dumps({**meta, "arrays": specs}, allow_nan=False, separators=(",", ":")).encode()
    return b"".join([_MAGIC, len(header).to_bytes(8, "little"), header, *chunks])


def _refuse_constant(token: str):
    raise _Malformed(f"JSON constant {token}")


def _unpack(data: bytes) -> tuple[dict, list]:
    """The header and the arrays of a file's bytes, every layout checked (raises _Malformed)."""
    _expect(data.startswith(_MAGIC) and len(data) >= len(_MAGIC) + 8, "magic")
    start = len(_MAGIC) + 8
    end = start + int.from_bytes(data[len(_MAGIC):start], "little")
    _expect(end <= len(data), "header length")
    meta = json.loads(data[start:end].decode("utf-8"), parse_constant=_refuse_constant)
    _expect(type(meta) is dict and type(meta.get("arrays")) is list, "header")
    arrays = []
    for spec in meta.pop("arrays"):
        _expect(type(spec) is dict and set(spec) == {"dtype", "shape", "fortran"}, "array layout")
        dtype, shape, fortran = _DTYPES.get(spec["dtype"]), spec["shape"], spec["fortran"]
        _expect(dtype is not None and type(fortran) is bool and type(shape) is list
                and len(shape) <= _MAX_NDIM and all(type(n) is int and n >= 0 for n in shape),
                "array dtype and shape")
        assert dtype is not None                     # (checked just above: for mypy)
        count = math.prod(shape)
        nbytes = count * dtype.itemsize
        _expect(end + nbytes <= len(data), "array data")
        flat = np.frombuffer(data, dtype=dtype, count=count, offset=end)
        arrays.append(flat.reshape(shape, order="F" if fortran else "C").copy(order="K"))
        end += nbytes
    _expect(end == len(data), "no trailing bytes")
    return meta, arrays


def _encode_file(name: str, key: str, record: tuple) -> bytes:
    """The bytes of a cache file holding ``record`` (raises _Unsupported)."""
    arrays: list = []
    tree: dict[str, Any]
    if record[0] == "error":
        tree = {"t": "error", "message": str(record[1])}
    else:
        value = _encode(record[1], arrays)
        try:
            _check_result(value)
        except _Malformed:
            raise _Unsupported("not a plan, an array, a tuple of numbers or of plans") from None
        tree = {"t": "ok", "value": value}
    return _pack({"format": _FORMAT, "name": name, "key": key, "record": tree}, arrays)


def _decode_file(data: bytes, name: str, key: str) -> tuple | None:
    """The record in a cache file's bytes if it is valid and stored for ``key`` under ``name``."""
    try:
        _expect(len(data) <= _MAX_FILE_BYTES, "size")
        meta, arrays = _unpack(data)
        _expect(set(meta) == {"format", "name", "key", "record"}, "header fields")
        if not (meta["format"] == _FORMAT and meta["name"] == name and meta["key"] == key):
            return None
        tree = meta["record"]
        _expect(type(tree) is dict, "record")
        if tree.get("t") == "error":
            _expect(set(tree) == {"t", "message"} and type(tree["message"]) is str, "error")
            _expect(not arrays, "no arrays")
            return ("error", tree["message"])
        _expect(tree.get("t") == "ok" and set(tree) == {"t", "value"}, "record")
        _check_result(tree["value"])
        used: set = set()
        value = _decode(tree["value"], arrays, used)
        _expect(len(used) == len(arrays), "every array used once")
        return ("ok", value)
    except Exception:  # truncated by a crash, corrupted, foreign, malformed: design again
        return None


# --------------------------------------------------------------------------- reading and writing

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))


def _read_file(path: Path) -> bytes | None:
    """The bytes of a regular file of ours (no link), its use time renewed; None if not that."""
    try:
        if not hasattr(os, "O_NOFOLLOW") and os.path.islink(path):
            return None
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _trusted_file(st) or st.st_size > _MAX_FILE_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(_MAX_FILE_BYTES + 1)
        if len(data) > _MAX_FILE_BYTES:
            return None
        if os.utime in os.supports_fd:
            os.utime(fd)  # used now: evicted last
        return data
    except OSError:
        return None
    finally:
        os.close(fd)


def _load(folders: tuple[Path, ...], path: Path, name: str, key: str) -> tuple | None:
    """The record stored for ``key`` under ``name``, or None if the file is missing or not it."""
    if not all(_trusted_dir(folder) for folder in folders):
        return None
    data = _read_file(path)
    return None if data is None else _decode_file(data, name, key)


def _store(folders: tuple[Path, ...], path: Path, name: str, key: str, record: tuple) -> None:
    """Write ``record`` for ``key`` at ``path`` if it is storable and the folders are ours."""
    try:
        data = _encode_file(name, key, record)
    except _Unsupported:
        return
    if _decode_file(data, name, key) is None:  # only what would be read back is written
        return
    if not _make_dirs(folders):
        return
    try:
        with atomic_path(path, mode=0o600, prefix=_TMP_PREFIX) as tmp:
            with open(tmp, "wb") as f:
                f.write(data)
    except OSError:  # read-only or full disk: the cache is an optimisation only
        return
    _account(folders[0], len(data))


# --------------------------------------------------------------------------- size and clean-up

_lock = threading.Lock()


def _new_lock() -> None:  # a child forked while another thread held the lock gets a free one
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock)

#: This process's count of the bytes under each cache folder it has written to.
_usage: dict[str, int] = {}
#: Cache folders whose other versions this process has deleted.
_cleaned: set[str] = set()


def _account(base: Path, written: int) -> None:
    """Count ``written`` bytes; scan and evict at the first write and when past the cap."""
    cap = max_bytes()
    with _lock:
        here = str(base)
        if here in _usage:
            _usage[here] += written
            if _usage[here] <= cap:
                return
        _usage[here] = _tidy(base, cap, here not in _cleaned)
        _cleaned.add(here)


def _listing(folder: str, pattern: re.Pattern) -> list[tuple[str, os.stat_result]]:
    """The entries of ``folder`` whose names match ``pattern``, with their lstat (none if unreadable)."""
    out = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if pattern.match(entry.name):
                    try:
                        out.append((entry.path, entry.stat(follow_symlinks=False)))
                    except OSError:
                        pass
    except OSError:
        pass
    return out


_CACHE_FILE_RE = re.compile(rf"(?:{_FILE_RE.pattern}|{re.escape(_TMP_PREFIX)}.*)")


def _scan(base: Path) -> tuple[list, dict]:
    """Our files under ``base`` as (use time, size, path), and each version folder's last use."""
    files, last_use = [], {}
    now = time.time()
    for version, st in _listing(str(base), _VERSION_RE):
        if not (stat.S_ISDIR(st.st_mode) and _is_ours(st)):
            continue
        last_use[version] = st.st_mtime
        for folder, st in _listing(version, _NAME_RE):
            if not (stat.S_ISDIR(st.st_mode) and _is_ours(st)):
                continue
            last_use[version] = max(last_use[version], st.st_mtime)
            for path, st in _listing(folder, _CACHE_FILE_RE):
                if not _trusted_file(st):
                    continue
                if os.path.basename(path).startswith(_TMP_PREFIX) and st.st_mtime < now - _STALE_SECONDS:
                    _unlink(path)  # left by a crash
                    continue
                last_use[version] = max(last_use[version], st.st_mtime)
                files.append((st.st_mtime, st.st_size, path))
    return files, last_use


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _tidy(base: Path, cap: int, drop_other_versions: bool) -> int:
    """Delete stale other versions (if asked) and the least recently used files past the cap.

    Returns the bytes left under ``base``.
    """
    files, last_use = _scan(base)
    if drop_other_versions:
        current = str(base / source_hash())
        stale = {path for path, used in last_use.items()
                 if path != current and used < time.time() - _STALE_SECONDS}
        for path in stale:
            shutil.rmtree(path, ignore_errors=True)
        files = [f for f in files if os.path.dirname(os.path.dirname(f[2])) not in stale]
    total = sum(size for _, size, _ in files)
    if total > cap:
        for _, size, path in sorted(files):
            if total <= _EVICT_TO * cap:
                break
            _unlink(path)
            total -= size
    return total


# --------------------------------------------------------------------------- the decorator

#: Per thread: how many :func:`one_file` blocks are open (inside one, nothing is written).
_held = threading.local()


@contextlib.contextmanager
def one_file() -> Iterator[None]:
    """Within this block (in this thread), :func:`on_disk` functions read their files but write none.

    For a cached function whose result gathers many cached results (a
    scalogram's plans): it is stored whole in its own file when it returns,
    so one read serves it later, and a file per part would only cost time to
    write (some 0.4 ms each).  Results are the same with or without it.

    Examples
    --------
    >>> with one_file():
    ...     pass
    """
    depth = getattr(_held, "depth", 0)
    _held.depth = depth + 1
    try:
        yield
    finally:
        _held.depth = depth



def on_disk(name: str) -> Callable[[F], F]:
    """Keep ``func``'s results (and its ``ValueError``s) on disk under ``name``.

    ``func`` must be a pure function of hashable arguments whose result
    depends on nothing but them and sftwave's source.  Results that are an
    ``SFTPlan``, a ``FIRPlan``, a numeric ndarray, a tuple of floats and ints
    or a tuple of plans are stored (see the module's docstring); any other
    result is computed each time.  Nothing is written inside :func:`one_file`.
    Place it beneath ``functools.lru_cache``, so that a process reads each
    file at most once.

    Parameters
    ----------
    name : str
        The folder of this function's files: lowercase letters, digits and
        underscores.

    Returns
    -------
    callable
        The decorator.

    Examples
    --------
    >>> import numpy as np
    >>> @on_disk("doc_ramp")
    ... def ramp(n: int) -> np.ndarray:
    ...     return np.arange(n, dtype=np.float64)
    >>> ramp(3)
    array([0., 1., 2.])
    """
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ValueError(f"name must be 1 to 64 lowercase letters, digits or underscores; got {name!r}")

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            base = _base_dir()
            if base is None:
                return func(*args, **kwargs)
            key = _key(args, kwargs)
            version = base / source_hash()
            folders = (base, version, version / name)
            path = folders[-1] / _file_name(name, key)
            record = _load(folders, path, name, key)
            if record is None:
                try:
                    record = ("ok", func(*args, **kwargs))
                except ValueError as exc:
                    record = ("error", str(exc))
                if not getattr(_held, "depth", 0):
                    _store(folders, path, name, key, record)
            if record[0] == "error":
                raise ValueError(record[1])
            return record[1]

        return wrapper  # type: ignore[return-value]

    return decorate
