"""Result files of the experiments, written whole or not at all (:func:`sftwave._atomic.atomic_path`)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from sftwave._atomic import atomic_path

__all__ = ["write_json_atomic", "write_json_reporting", "save_png_atomic"]


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

    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")


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

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
