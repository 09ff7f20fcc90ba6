"""Writing a file whole or not at all: a temporary file beside it, renamed onto it at the end.

Every file sftwave writes (plan-cache entries, the shipped plan table, stream
checkpoints, the command line's outputs, the workbench's results) goes through
:func:`atomic_path`, so that a crash, a full disk or Ctrl-C never leaves a
half-written file, nor a truncated old one, at the destination.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["atomic_path", "new_file_mode"]


def new_file_mode() -> int:
    """The mode a new file gets here (``0o666`` less the process's umask).

    Examples
    --------
    >>> 0 <= new_file_mode() <= 0o666
    True
    """
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, *, mode: int | None = None, prefix: str | None = None,
                fsync: bool = False) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to, renamed onto ``path`` if the block ends normally.

    The temporary file exists (empty, private) when the block starts; if the
    block raises, it is removed and ``path`` is left as it was.  On success it
    gets ``mode`` (default: a new file's mode under the umask), is flushed to
    disk if ``fsync``, and replaces ``path`` in one ``os.replace``.  An
    ``OSError`` from the rename or the chmod names ``path``, never the
    temporary name.

    Parameters
    ----------
    path : str or os.PathLike
        The destination.  Its folder must exist.
    mode : int, optional
        The file's permission bits (for example ``0o600`` for a private file).
    prefix : str, optional
        The temporary file's name prefix (default ``'.<name>-'``); its suffix
        is ``path``'s, so that writers that go by the suffix still work.
    fsync : bool, default False
        Flush the file to the disk before the rename.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> dest = pathlib.Path(tempfile.mkdtemp()) / "result.txt"
    >>> with atomic_path(dest) as tmp:
    ...     _ = tmp.write_text("done")
    >>> dest.read_text()
    'done'
    >>> try:
    ...     with atomic_path(dest) as tmp:
    ...         _ = tmp.write_text("half")
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt:
    ...     pass
    >>> dest.read_text(), sorted(p.name for p in dest.parent.iterdir())
    ('done', ['result.txt'])
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, name = tempfile.mkstemp(prefix=prefix if prefix is not None else f".{path.stem}-",
                                    suffix=path.suffix, dir=folder)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        try:
            os.chmod(tmp, new_file_mode() if mode is None else mode)
            if fsync:
                fd = os.open(tmp, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            os.replace(tmp, path)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
