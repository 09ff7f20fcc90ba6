"""Designed plans kept on disk, so that a new process does not design them again.

Designing a plan is a few constrained least-squares fits (milliseconds each);
a scalogram of 200 frequencies needs a few hundred of them, seconds in all.
Like numba's ``cache=True`` and FFTW's wisdom, the results are stored on disk
and loaded by later processes.

Where: ``$SFTWAVE_CACHE_DIR`` if set (an empty value turns the disk cache
off), else ``$XDG_CACHE_HOME/sftwave`` or ``~/.cache/sftwave``; below it one
folder per version of the plans' source (a hash of ``sftwave/plans/*.py``), so a changed design never reads an old plan.  Files are written to a
temporary name and renamed into place (atomic: concurrent processes see a
whole file or none); a folder that cannot be written is simply not used.  The
files are pickles, read only from that folder (as numba's cache is).  Each
file holds the full key it was stored under and a SHA-256 of its content, and
both are checked when it is read: a file that is truncated, corrupted, foreign
or copied from another key's place is designed again and overwritten, never used.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

F = TypeVar("F", bound=Callable)

ENV = "SFTWAVE_CACHE_DIR"


@functools.lru_cache(maxsize=1)
def source_hash() -> str:
    """A hash of the plans package's source files and shipped tables (any change gives a new cache folder)."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted([*package.rglob("*.py"), *package.rglob("data/*.npz")]):
        h.update(str(path.relative_to(package)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path | None:
    """The disk cache's folder for this version of the source, or None when it is off."""
    value = os.environ.get(ENV)
    if value is not None:
        if value == "":
            return None
        base = Path(value).expanduser()
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "sftwave"
    return base / source_hash()


#: Layout of a cache file: a pickled dict with these fields.
_FORMAT = "sftwave-plan-cache-1"


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
    return hashlib.sha256(f"{name}\0{key}".encode()).hexdigest()[:32] + ".pkl"


def _digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def _load(path: Path, name: str, key: str):
    """The record stored for ``key`` under ``name``, or None if the file is missing or not it."""
    try:
        with open(path, "rb") as f:
            box = pickle.load(f)
        if not (isinstance(box, dict) and box.get("format") == _FORMAT
                and box.get("name") == name and box.get("key") == key
                and isinstance(box.get("payload"), bytes)
                and box.get("sha256") == _digest(box["payload"])):
            return None
        record = pickle.loads(box["payload"])
    except Exception:  # missing, truncated by a crash, corrupted, foreign: design again
        return None
    if isinstance(record, tuple) and len(record) == 2 and record[0] in ("ok", "error"):
        return record
    return None


def _store(path: Path, name: str, key: str, record) -> None:
    payload = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    box = {"format": _FORMAT, "name": name, "key": key, "sha256": _digest(payload),
           "payload": payload}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(box, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:  # read-only or full disk: the cache is an optimisation only
        pass


def on_disk(name: str) -> Callable[[F], F]:
    """Keep ``func``'s results (and its ``ValueError``s) on disk under ``name``.

    ``func`` must be a pure function of hashable, picklable arguments whose
    result depends on nothing but them and sftwave's source.  Place it beneath
    ``functools.lru_cache``, so that a process reads each file at most once.
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            root = cache_root()
            if root is None:
                return func(*args, **kwargs)
            key = _key(args, kwargs)
            path = root / name / _file_name(name, key)
            record = _load(path, name, key)
            if record is None:
                try:
                    record = ("ok", func(*args, **kwargs))
                except ValueError as exc:
                    record = ("error", str(exc))
                _store(path, name, key, record)
            if record[0] == "error":
                raise ValueError(record[1])
            return record[1]

        return wrapper  # type: ignore[return-value]

    return decorate
