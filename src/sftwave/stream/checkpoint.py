"""The checkpoint format of :mod:`sftwave.stream`: the record a stream's ``save`` writes, and its checks.

A checkpoint is an ``.npz`` file of uncompressed members: ``meta``, one JSON
string (the format tag, :data:`CHECKPOINT_FORMAT`, the sftwave version that
wrote it, the stream's class, the constructor's scalar arguments, the
counters, the channels and the output dtype), ``arg_<name>`` for the
constructor's array arguments (float64, 1-D) and the state arrays of the
stream's phase (none once flushed; ``buffer`` before it starts; ``centre``,
``history``, ``state_re``, ``state_im``, ``tail`` and ``pending`` once
started), all float64.  :func:`write` writes one atomically; :func:`read`
reads one with ``np.load(allow_pickle=False)`` (it cannot run code);
:func:`restore` rebuilds the stream by its constructor from the arguments,
then checks every field against it (``ValueError`` naming the field): nothing
a damaged or crafted file holds reaches the kernel as an index.

Examples
--------
>>> record = {"meta": np.array(json.dumps(meta_record("CWT", {}, 0, False, False, None, None)))}
>>> sorted(json.loads(str(record["meta"][()])))[:3]
['args', 'channels', 'class']
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._atomic import atomic_path
from .._checks.stream import check_path

__all__ = ["CHECKPOINT_FORMAT", "FORMAT_TAG", "MAX_SAMPLES", "MAX_CHANNEL_AXES", "meta_record",
           "write", "read", "restore", "stream_class"]

#: The version of the checkpoint record this sftwave writes and reads (2: the constructor's
#: arguments include ``engine``).
CHECKPOINT_FORMAT = 2

FORMAT_TAG = "sftwave.stream"
#: The largest sample count a checkpoint may hold (285 years at 1 MHz): the positions the
#: kernel and the end's extension compute from it stay far inside int64.
MAX_SAMPLES = 2**53
MAX_CHANNEL_AXES = 32


def meta_record(cls_name: str, args: dict, n_in: int, started: bool, finished: bool,
                channels: list[int] | None, dtype: str | None) -> dict:
    """The ``meta`` record of a checkpoint (JSON-ready), with the format and this sftwave's version.

    Examples
    --------
    >>> meta_record("GaussianFilter1D", {"sigma": 2.0}, 0, False, False, None, None)["format"]
    'sftwave.stream'
    """
    from .. import __version__

    return {"format": FORMAT_TAG, "format_version": CHECKPOINT_FORMAT,
            "sftwave_version": __version__, "class": cls_name, "args": args, "n_in": int(n_in),
            "started": bool(started), "finished": bool(finished), "channels": channels,
            "dtype": dtype}


def write(path: str | os.PathLike, record: dict[str, np.ndarray]) -> None:
    """Write a checkpoint ``record`` to ``path`` atomically, its members uncompressed.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write(os.path.join(folder, "r.npz"), {"meta": np.array("{}")})
    ...     sorted(np.load(os.path.join(folder, "r.npz")).files)
    ['meta']
    """
    check_path(path)
    with atomic_path(path, fsync=True) as tmp:
        with open(tmp, "wb") as f:
            np.savez(f, **dict[str, Any](record))


def read(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The fields of the checkpoint at ``path``, read without pickle (ValueError if it is none).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write(os.path.join(folder, "r.npz"), {"meta": np.array("{}")})
    ...     list(read(os.path.join(folder, "r.npz")))
    ['meta']
    """
    try:
        _check_stored(path)
        data = np.load(path, allow_pickle=False)
    except (ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path!r} is not a stream checkpoint (an .npz file written by "
                         f"save): {exc}") from exc
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"{path!r} is not a stream checkpoint (an .npz file written by save)")
    with data:
        try:
            return {name: data[name] for name in data.files}
        except (ValueError, EOFError, OSError, MemoryError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path!r} holds a field that cannot be read without "
                             f"pickle or at all: {exc}") from exc


_KIND_WORDS = {"int": "an integer", "number": "a number", "number?": "a number or null",
               "str": "a string", "bool": "true or false"}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _typed(value: Any, kind: str, name: str) -> Any:
    """A JSON value of the kind the field holds (bool is no number here), or ValueError."""
    number = type(value) in (int, float)
    ok = {"int": type(value) is int, "number": number, "number?": value is None or number,
          "str": type(value) is str, "bool": type(value) is bool}[kind]
    if not ok:
        raise ValueError(f"checkpoint field {name} must be {_KIND_WORDS[kind]}; "
                         f"got {_short(value)}")
    return value


def _count(value: Any, name: str, low: int, high: int) -> int:
    _typed(value, "int", name)
    if not low <= value <= high:
        raise ValueError(f"checkpoint field {name} must be in [{low}, {high}]; got {_short(value)}")
    return value


def _array(record: dict, name: str, shape: tuple | None = None, ndim: int | None = None
           ) -> np.ndarray:
    """A float64 field of this shape (or number of axes), finite, as a fresh C array."""
    a = record[name]
    if type(a) is not np.ndarray:
        raise ValueError(f"checkpoint field {name!r} must be an ndarray; got {type(a).__name__}")
    if a.dtype != np.dtype(np.float64):
        raise ValueError(f"checkpoint field {name!r} must have dtype float64; got {a.dtype}")
    if shape is not None and a.shape != shape:
        raise ValueError(f"checkpoint field {name!r} has shape {a.shape}, expected {shape}")
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"checkpoint field {name!r} must have {ndim} axis; got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"checkpoint field {name!r} holds NaN or inf")
    return np.array(a, dtype=np.float64, order="C", copy=True)


def stream_class(cls: type, classes: Mapping[str, type]) -> type | None:
    """The stream class of ``classes`` that ``cls`` is or derives from (None: their base).

    Examples
    --------
    >>> class A: pass
    >>> class B(A): pass
    >>> stream_class(B, {"A": A}).__name__, stream_class(object, {"A": A})
    ('A', None)
    """
    for c in cls.__mro__:
        if c in classes.values():
            return c
    return None


def _meta(record: Any) -> dict:
    """The checkpoint's ``meta`` record, its format and version checked."""
    from .. import __version__

    if not isinstance(record, dict) or "meta" not in record:
        raise ValueError("not a versioned stream checkpoint (a stream pickled by an sftwave "
                         "older than its checkpoint format, or another object): it cannot be "
                         "checked, so it is refused; restart the stream from its input")
    value = record["meta"]
    if type(value) is not np.ndarray or value.dtype.kind != "U" or value.shape != ():
        raise ValueError(f"checkpoint field 'meta' must be a 0-d string array (JSON); got "
                         f"{_short(value)}")
    try:
        meta = json.loads(str(value[()]))
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"checkpoint field 'meta' is not JSON: {exc}") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_TAG:
        raise ValueError(f"not a stream checkpoint: its 'meta' has no format {FORMAT_TAG!r}")
    written = meta.get("sftwave_version")
    if written != __version__:
        raise ValueError(f"checkpoint written by sftwave {_short(written)}, this is sftwave "
                         f"{__version__!r}: its filters may differ, so it is refused (restart "
                         f"the stream from its input)")
    if meta.get("format_version") != CHECKPOINT_FORMAT:
        raise ValueError(f"checkpoint format {_short(meta.get('format_version'))}; this "
                         f"sftwave ({__version__}) reads format {CHECKPOINT_FORMAT}")
    keys = {"format", "format_version", "sftwave_version", "class", "args", "n_in", "started",
            "finished", "channels", "dtype"}
    if set(meta) != keys:
        raise ValueError(f"checkpoint field 'meta' must hold the keys {sorted(keys)}; got "
                         f"{_short(sorted(meta))}")
    return meta


def _fields(record: dict, expected: set) -> None:
    missing = [k for k in expected if k not in record]
    extra = [k for k in record if k not in expected]
    if missing:
        raise ValueError(f"checkpoint lacks the field(s) {sorted(missing)}")
    if extra:
        raise ValueError(f"checkpoint has unexpected field(s) {_short(extra)}")


def _check_stored(path: str | os.PathLike) -> None:
    """Refuse an npz whose members are compressed: :func:`write` stores them as they are, so
    reading a checkpoint never takes more memory than the file's size (no zip bomb)."""
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
                    raise ValueError(f"member {info.filename!r} is compressed; save() stores "
                                     f"every member uncompressed")
    except zipfile.BadZipFile:
        return  # not a zip: np.load says what it is


def _target(cls: type, meta: dict, classes: Mapping[str, type]) -> tuple[Any, dict]:
    """The class to rebuild and the constructor's arguments, each of the type the record gives it."""
    name = _typed(meta["class"], "str", "class")
    want = stream_class(cls, classes)
    if name not in classes or (want is not None and classes[name] is not want):
        raise ValueError(f"checkpoint holds a {_short(name)} stream; this loads "
                         f"{want.__name__ if want is not None else 'a stream'}")
    target: Any = cls if want is not None else classes[name]
    args = meta["args"]
    if not isinstance(args, dict) or set(args) != set(target._ARG_KINDS):
        raise ValueError(f"checkpoint field args must hold {sorted(target._ARG_KINDS)}; got "
                         f"{_short(args)}")
    for key, kind in target._ARG_KINDS.items():
        _typed(args[key], kind, f"args.{key}")
    return target, args


def _counters(meta: dict) -> tuple[int, bool, bool, Any, Any]:
    """``n_in``, ``started``, ``finished``, ``channels`` and ``dtype``, each of its type and range."""
    n_in = _count(meta["n_in"], "n_in", 0, MAX_SAMPLES)
    started = _typed(meta["started"], "bool", "started")
    finished = _typed(meta["finished"], "bool", "finished")
    channels = meta["channels"]
    if channels is not None:
        if not isinstance(channels, list) or len(channels) > MAX_CHANNEL_AXES:
            raise ValueError(f"checkpoint field channels must be null or a list of at most "
                             f"{MAX_CHANNEL_AXES} sizes; got {_short(channels)}")
        for d in channels:
            _count(d, "channels", 0, MAX_SAMPLES)
    dtype = meta["dtype"]
    if dtype is not None:
        _typed(dtype, "str", "dtype")
    return n_in, started, finished, channels, dtype


def restore(cls: type, record: Any, classes: Mapping[str, type]) -> Any:
    """A stream rebuilt by its constructor from a checkpoint's arguments, its state checked.

    ``cls``: the class ``load`` was called on (one of ``classes``, a subclass
    of one, or their base: any of them).  Every table and index the kernel
    reads comes from the constructor; the checkpoint brings only state arrays,
    each checked for type, dtype, shape (what the rebuilt stream expects) and
    finiteness, and counters, each checked for type and range.  Anything
    else: ValueError naming the field.
    """
    meta = _meta(record)
    target, args = _target(cls, meta, classes)
    n_in, started, finished, channels, dtype = _counters(meta)
    # which state arrays this phase holds
    live = not finished
    state: set[str] = set()
    if live and started:
        state = {"centre", "history", "state_re", "state_im", "tail", "pending"}
    elif live and n_in:
        state = {"buffer"}
    _fields(record, {"meta"} | {f"arg_{a}" for a in target._ARG_ARRAYS} | state)
    # (Any: the arguments of the subclass's constructor, not of _Stream's)
    arrays: dict[str, Any] = {a: _array(record, f"arg_{a}", ndim=1) for a in target._ARG_ARRAYS}
    # rebuild: the constructor checks the arguments and makes every table (the plans depend
    # on the arguments only, never on the machine: the engine's cost figure is a constant)
    try:
        stream = target(**args, **arrays)
    except (TypeError, ValueError, ArithmeticError, MemoryError, ImportError) as exc:
        raise ValueError(f"checkpoint's arguments are refused by {target.__name__}: "
                         f"{type(exc).__name__}: {exc}") from exc
    allowed = {d.name: d for d in stream._out_dtypes()}
    if dtype is not None and dtype not in allowed:
        raise ValueError(f"checkpoint field dtype must be null or one of {sorted(allowed)}; "
                         f"got {_short(dtype)}")
    stream._n_in, stream._finished = n_in, finished
    if not live:
        stream._started = started
        return stream
    # the counters and the channels against the rebuilt stream
    if started and n_in < stream.startup:
        raise ValueError(f"checkpoint field n_in must be at least the stream's startup "
                         f"({stream.startup}) once it has started; got {n_in}")
    if not started and n_in >= stream.startup:
        raise ValueError(f"checkpoint field n_in must be below the stream's startup "
                         f"({stream.startup}) before it starts; got {n_in}")
    if (channels is None) != (n_in == 0) or (dtype is None) != (n_in == 0):
        raise ValueError(f"checkpoint fields channels and dtype must be null exactly when "
                         f"n_in is 0; got channels={_short(channels)}, dtype={_short(dtype)}, "
                         f"n_in={n_in}")
    if n_in == 0:
        return stream
    stream._lead, stream._dtype = tuple(channels), allowed[dtype]
    C = math.prod(channels)
    if not started:
        stream._buffer = [_array(record, "buffer", (C, n_in))]
        return stream
    stream._resume({k: _array(record, k, shape)
                    for k, shape in stream._state_shapes(C).items()})
    return stream
