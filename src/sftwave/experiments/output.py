"""Result files of the experiments, written whole or not at all (a temporary file, then ``os.replace``)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["write_json_atomic", "write_json_reporting", "save_png_atomic"]


def _replace_from_temp(path: Path, write: Any) -> None:
    """Write through ``write(fd, tmp)`` to a temporary file, then rename it onto ``path``; an
    ``OSError`` names ``path``, never the temporary file."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        write(fd, tmp)
        os.chmod(tmp, 0o644)  # mkstemp creates the file private (0600)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str | os.PathLike, data: dict) -> None:
    """Write ``data`` as indented JSON to ``path``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.json"
    >>> write_json_atomic(p, {"a": 1})
    >>> json.loads(p.read_text())
    {'a': 1}
    """

    def write(fd: int, tmp: str) -> None:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")

    _replace_from_temp(Path(path), write)


def write_json_reporting(path: str | os.PathLike, data: dict, *, lead: str = "") -> int:
    """:func:`write_json_atomic` for a command: prints what it wrote, or one error line; 0 or 1.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> write_json_reporting(pathlib.Path(tempfile.mkdtemp()) / "r.json", {})  # doctest: +ELLIPSIS
    wrote .../r.json
    0
    >>> write_json_reporting("/nonexistent-dir/r.json", {})
    1
    """
    try:
        write_json_atomic(path, data)
    except OSError as exc:
        print(f"{lead}error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{lead}wrote {path}")
    return 0


def save_png_atomic(fig: Any, path: str | os.PathLike) -> None:
    """Save a matplotlib figure as PNG (110 dpi) to ``path``."""

    def write(fd: int, tmp: str) -> None:
        os.close(fd)
        fig.savefig(tmp, format="png", dpi=110)

    _replace_from_temp(Path(path), write)
