"""Reading the command line's inputs and writing its outputs, with one-line errors.

Every problem with a file is a :class:`FileProblem` whose message is one line
naming the file (the command line prints it and exits non-zero); outputs are
written to a temporary name in the target's directory and renamed onto it,
so that no half-written file is ever left.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["FileProblem", "Signal", "read_signal", "read_image", "write_atomically",
           "write_image", "SIGNAL_SUFFIXES", "IMAGE_SUFFIXES"]

#: What ``sftwave scalogram`` reads, by suffix.
SIGNAL_SUFFIXES = (".wav", ".csv", ".txt", ".tsv", ".dat", ".npy", ".npz")
#: What ``sftwave smooth`` reads and writes, by suffix (PNG/TIFF/JPEG through Pillow).
IMAGE_SUFFIXES = (".npy", ".png", ".tif", ".tiff", ".jpg", ".jpeg", ".bmp")


class FileProblem(Exception):
    """A file that cannot be used, with a one-line message naming it."""


@dataclass
class Signal:
    """One channel of a recording: its samples, and its sampling rate if the file gives one."""

    x: np.ndarray
    fs: float | None
    channels: int


def _check_exists(path: Path) -> None:
    if not path.exists():
        raise FileProblem(f"{path}: no such file")
    if path.is_dir():
        raise FileProblem(f"{path}: is a directory, not a file")
    if path.stat().st_size == 0:
        raise FileProblem(f"{path}: the file is empty")


def _suffix(path: Path, allowed: tuple[str, ...], what: str, verb: str) -> str:
    """``path``'s suffix (lower case), if sftwave handles it."""
    suffix = path.suffix.lower()
    if suffix not in allowed:
        raise FileProblem(f"{path}: unknown {what} {suffix or '(no suffix)'!r}; sftwave {verb} "
                          f"{', '.join(allowed)}")
    return suffix


def read_signal(path: str | os.PathLike, *, channel: int = 0, column: str | None = None,
                key: str | None = None) -> Signal:
    """One channel of a WAV, CSV/TXT, NPY or NPZ file, as float64.

    ``channel`` picks a WAV channel or a row of a 2-D array (channels x
    time); ``column`` a CSV column (by header name or 0-based index;
    default the first); ``key`` an NPZ array (default: the only one, else
    ``'x'``, ``'data'`` or ``'signal'``).
    """
    path = Path(path)
    _check_exists(path)
    suffix = _suffix(path, SIGNAL_SUFFIXES, "format", "reads")
    if suffix == ".wav":
        fs, data = _read_wav(path)
    elif suffix in (".npy", ".npz"):
        fs, data = None, _read_numpy(path, key)
    else:
        fs, data = None, _read_text(path, column)
    data = np.asarray(data)
    if data.ndim == 2 and suffix == ".wav":
        data = data.T                                   # (channels, time)
    if data.ndim == 0 or data.size == 0:
        raise FileProblem(f"{path}: holds no samples")
    if data.ndim > 2:
        raise FileProblem(f"{path}: a {data.ndim}-D array; give a 1-D signal or a 2-D "
                          "(channels x time) array")
    channels = 1 if data.ndim == 1 else data.shape[0]
    if data.ndim == 2:
        if not 0 <= channel < channels:
            raise FileProblem(f"{path}: has {channels} channel(s); --channel {channel} is not one "
                              f"of 0..{channels - 1}")
        data = data[channel]
    elif channel != 0:
        raise FileProblem(f"{path}: has one channel; --channel {channel} is not 0")
    if data.dtype.kind not in "biuf":
        raise FileProblem(f"{path}: holds {data.dtype} values, not numbers")
    return Signal(np.ascontiguousarray(data, dtype=np.float64), fs, channels)


def _read_wav(path: Path) -> tuple[float, np.ndarray]:
    from scipy.io import wavfile

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")             # a truncated file warns, then reads garbage
            fs, data = wavfile.read(path)
    except Exception as exc:
        raise FileProblem(f"{path}: not a readable WAV file ({_one_line(exc)})") from None
    if data.dtype.kind in "iu":                         # PCM: scaled to [-1, 1] as soundfile does
        info = np.iinfo(data.dtype)
        offset = (int(info.max) + 1) // 2 if data.dtype.kind == "u" else 0
        data = (data.astype(np.float64) - offset) / (int(info.max) + 1 - offset)
    return float(fs), data


def _read_numpy(path: Path, key: str | None) -> np.ndarray:
    try:
        loaded = np.load(path, allow_pickle=False)
    except Exception as exc:
        raise FileProblem(f"{path}: not a readable {path.suffix.lower()} file "
                          f"({_one_line(exc)})") from None
    if not isinstance(loaded, np.lib.npyio.NpzFile):
        return loaded
    with loaded:
        names = list(loaded.files)
        if key is None:
            preferred = [n for n in ("x", "data", "signal", "image") if n in names]
            if len(names) == 1:
                key = names[0]
            elif preferred:
                key = preferred[0]
            else:
                raise FileProblem(f"{path}: holds {len(names)} arrays ({', '.join(names)}); "
                                  "choose one with --key")
        if key not in names:
            raise FileProblem(f"{path}: has no array {key!r} (it has {', '.join(names)})")
        return loaded[key]


def _read_text(path: Path, column: str | None) -> np.ndarray:
    try:
        lines = path.read_text().splitlines()
    except UnicodeDecodeError:
        raise FileProblem(f"{path}: not a text file") from None
    rows = [(i + 1, line) for i, line in enumerate(lines) if line.strip()
            and not line.lstrip().startswith("#")]
    if not rows:
        raise FileProblem(f"{path}: holds no samples")
    delim = next((d for d in (",", "\t", ";") if d in rows[0][1]), None)

    def split(line: str) -> list[str]:
        return [c.strip() for c in (line.split(delim) if delim else line.split())]

    header = None
    first = split(rows[0][1])
    if not all(_is_number(c) for c in first):
        header, rows = first, rows[1:]
        if not rows:
            raise FileProblem(f"{path}: a header and no samples")
    idx = _column_index(path, column, header, len(split(rows[0][1])))
    values = np.empty(len(rows))
    for k, (lineno, line) in enumerate(rows):
        cells = split(line)
        if idx >= len(cells):
            raise FileProblem(f"{path}: line {lineno} has {len(cells)} column(s), not "
                              f"{idx + 1}")
        try:
            values[k] = float(cells[idx])
        except ValueError:
            raise FileProblem(f"{path}: line {lineno}: {cells[idx]!r} is not a number") from None
    return values


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _column_index(path: Path, column: str | None, header: list[str] | None, ncols: int) -> int:
    if column is None:
        return 0
    if header is not None and column in header:
        return header.index(column)
    try:
        idx = int(column)
    except ValueError:
        names = f" (the header has {', '.join(header)})" if header else " (there is no header)"
        raise FileProblem(f"{path}: no column {column!r}{names}") from None
    if not 0 <= idx < ncols:
        raise FileProblem(f"{path}: column {idx} is not one of 0..{ncols - 1}")
    return idx


def read_image(path: str | os.PathLike) -> np.ndarray:
    """An image as an array: NPY directly, PNG/TIFF/JPEG/BMP through Pillow (if installed)."""
    path = Path(path)
    _check_exists(path)
    suffix = _suffix(path, IMAGE_SUFFIXES, "image format", "reads")
    if suffix == ".npy":
        img = _read_numpy(path, None)
    else:
        Image = _pillow(path)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with Image.open(path) as im:
                    img = np.asarray(im)
        except Exception as exc:
            raise FileProblem(f"{path}: not a readable image ({_one_line(exc)})") from None
    if img.ndim < 2 or img.size == 0:
        raise FileProblem(f"{path}: not an image (shape {img.shape})")
    if img.dtype.kind not in "biuf":
        raise FileProblem(f"{path}: holds {img.dtype} values, not numbers")
    return img


def _pillow(path: Path):
    try:
        from PIL import Image
    except ImportError:
        raise FileProblem(f"{path}: reading and writing {path.suffix} needs Pillow: pip install "
                          "pillow (or use .npy)") from None
    return Image


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


@contextlib.contextmanager
def write_atomically(path: str | os.PathLike, suffix: str) -> Iterator[Path]:
    """A temporary path next to ``path`` to write to; renamed onto ``path`` if the block ends
    normally, removed otherwise."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileProblem(f"{path}: the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_image(path: str | os.PathLike, img: np.ndarray) -> None:
    """Write ``img`` by ``path``'s suffix (NPY, or an image format through Pillow), atomically."""
    path = Path(path)
    suffix = _suffix(path, IMAGE_SUFFIXES, "image format", "writes")
    save: Callable[[Path], None]
    if suffix == ".npy":
        def save(tmp: Path) -> None:
            with open(tmp, "wb") as fh:
                np.save(fh, img)
    else:
        Image = _pillow(path)

        def save(tmp: Path) -> None:
            try:
                Image.fromarray(img).save(tmp, format=Image.registered_extensions()[suffix])
            except (TypeError, ValueError, OSError, KeyError) as exc:
                raise FileProblem(f"{path}: cannot write a {img.dtype} image of shape "
                                  f"{img.shape} as {suffix} ({_one_line(exc)}); try .npy") from None
    with write_atomically(path, suffix) as tmp:
        save(tmp)
