"""Reading the command line's inputs and writing its outputs, with one-line errors.

Every problem with a file is a :class:`FileProblem` whose message is one line
naming the file (the command line prints it and exits non-zero); outputs are
checked before any work (no output may be an input, or another output), then
written to temporary names in their folders and renamed onto their paths all
together at the end (:class:`StagedOutputs`), so that no half-written file, and
no new output beside an old one, is ever left.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._atomic import atomic_path, new_file_mode

__all__ = ["FileProblem", "Signal", "read_signal", "read_image", "write_atomically",
           "write_image", "image_writer", "check_outputs", "check_figure_suffix",
           "check_suffix", "StagedOutputs",
           "SIGNAL_SUFFIXES", "IMAGE_SUFFIXES", "plain"]

#: What ``sftwave scalogram`` reads, by suffix.
SIGNAL_SUFFIXES = (".wav", ".csv", ".txt", ".tsv", ".dat", ".npy", ".npz")
#: What ``sftwave smooth`` reads and writes, by suffix (PNG/TIFF/JPEG through Pillow).
IMAGE_SUFFIXES = (".npy", ".png", ".tif", ".tiff", ".jpg", ".jpeg", ".bmp")


class FileProblem(Exception):
    """A file that cannot be used, with a one-line message naming it."""


@dataclass
class Signal:
    """One channel of a recording: its samples, and its sampling rate if the file gives one.

    ``fs_from`` says where ``fs`` came from (``'header'`` for a WAV file, or
    ``"time column 'time'"``); ``time_step`` is that column's step (in its
    own unit) and ``fs_problem`` why a time column gave no rate (not evenly
    spaced); ``notes`` are one-line remarks for the user (a truncated file).
    """

    x: np.ndarray
    fs: float | None
    channels: int
    fs_from: str | None = None
    time_step: float | None = None
    fs_problem: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Whether the time column's header names its unit (``time (ms)``, ``seconds``); if not,
    #: its values were read as seconds.
    unit_named: bool = False


def _check_exists(path: Path) -> None:
    if not path.exists():
        raise FileProblem(f"{path}: no such file")
    if path.is_dir():
        raise FileProblem(f"{path}: is a directory, not a file")
    if path.stat().st_size == 0:
        raise FileProblem(f"{path}: the file is empty")


def check_suffix(path: Path, allowed: tuple[str, ...], what: str, verb: str) -> str:
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
    suffix = check_suffix(path, SIGNAL_SUFFIXES, "format", "reads")
    found = Signal(np.empty(0), None, 1)            # what the reader learns besides the data
    if suffix == ".wav":
        fs, data = _read_wav(path, found.notes)
        found.fs_from = "header"
    elif suffix in (".npy", ".npz"):
        fs, data = None, _read_numpy(path, key)
    else:
        fs, data = None, _read_text(path, column, found)
        fs = found.fs
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
    found.x = np.ascontiguousarray(data, dtype=np.float64)
    found.fs = fs
    found.channels = channels
    return found


def _read_wav(path: Path, notes: list[str]) -> tuple[float, np.ndarray]:
    """A WAV file as scipy reads it; a file cut short (a recorder that died) is read up to
    its last whole frame, with a note saying so."""
    from scipy.io import wavfile

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fs, data = wavfile.read(path)
    except Exception as exc:
        raise FileProblem(f"{path}: not a readable WAV file ({_one_line(exc)})") from None
    for w in caught:
        text = _one_line(w.message)
        cut = re.search(r"finished at (\d+) bytes, expected (\d+) bytes", text)
        if cut:
            frames = data.shape[0]
            notes.append(f"{path}: the file ends early ({int(cut[1])} of the {int(cut[2])} bytes "
                         f"its header announces): reading the {frames} whole frames it holds")
        else:
            notes.append(f"{path}: {text}")
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


#: Header names of a time column (any case; a unit may follow: ``time (ms)``, ``t_s``).
_TIME_WORDS = ("time", "times", "t", "timestamp", "timestamps", "elapsed", "seconds", "second",
               "sec", "secs", "s", "ms", "milliseconds", "millisecond", "msec")
#: Units of a time column, in seconds.
_TIME_UNITS = {"s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
               "ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
               "us": 1e-6, "µs": 1e-6, "microsecond": 1e-6, "microseconds": 1e-6,
               "min": 60.0, "minute": 60.0, "minutes": 60.0}
#: Header names of a sample counter (never the signal, and no sampling rate).
_INDEX_WORDS = ("index", "idx", "i", "n", "sample", "samples", "sample_index", "frame", "row")


def _time_unit(name: str) -> float | None:
    """The unit (seconds) of a column whose header names a time, else None."""
    text = name.strip().lower()
    m = re.fullmatch(r"([a-zµ]+)(?:\s*[_\-\s]?\s*[\(\[]?\s*([a-zµ]+)\s*[\)\]]?)?", text)
    if not m or m[1] not in _TIME_WORDS:
        return None
    word, unit = m[1], m[2]
    if unit is None:
        return _TIME_UNITS.get(word, 1.0)
    return _TIME_UNITS.get(unit)


def _names_unit(name: str) -> bool:
    """Whether a time column's header names its unit (``seconds``, ``t_ms``), not only a time."""
    found = re.fullmatch(r"([a-zµ]+)(?:\s*[_\-\s]?\s*[\(\[]?\s*([a-zµ]+)\s*[\)\]]?)?",
                     name.strip().lower())
    return found is not None and (found[2] is not None or found[1] in _TIME_UNITS)


def _read_text(path: Path, column: str | None, found: Signal) -> np.ndarray:
    """The signal column of a CSV/TXT file; a time column gives ``found.fs``.

    A column whose first value is not a number (a label) is never the signal.
    A time column (a header such as ``time``, ``t``, ``seconds``, ``time (ms)``,
    or, among several numeric columns, a strictly increasing first column) is
    never the signal either: evenly spaced, it gives the sampling rate.  A
    sample counter (``index``, ``sample``, or a first column 0, 1, 2, ...)
    is skipped and gives none.  Without ``column``, exactly one other
    numeric column must remain.
    """
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
    second = split(rows[1][1]) if len(rows) > 1 else None
    if (all(not _is_number(c) for c in first)
            or (second is not None and any(not _is_number(a) and _is_number(b)
                                           for a, b in zip(first, second)))):
        header, rows = first, rows[1:]
        if not rows:
            raise FileProblem(f"{path}: a header and no samples")
    ncols = len(split(rows[0][1]))
    # a column is text (a label) when its first value is; an empty first cell is a missing number
    numeric = [c == "" or _is_number(c) for c in split(rows[0][1])]

    def name(i: int) -> str:
        return repr(header[i]) if header is not None and i < len(header) else str(i)

    def values_of(i: int) -> np.ndarray:
        out = np.empty(len(rows))
        for k, (lineno, line) in enumerate(rows):
            cells = split(line)
            if i >= len(cells):
                raise FileProblem(f"{path}: line {lineno} has {len(cells)} column(s), not "
                                  f"{i + 1}")
            try:
                out[k] = float(cells[i])
            except ValueError:
                raise FileProblem(f"{path}: line {lineno}: {cells[i]!r} is not a number") from None
        return out

    # the time (or sample counter) column, if any
    time_col, unit, counter = None, 1.0, False
    names = header or []
    named = [i for i in range(min(ncols, len(names))) if numeric[i]]
    for i in named:
        if names[i].strip().lower() in _INDEX_WORDS:
            time_col, counter = i, True
            break
        u = _time_unit(names[i])
        if u is not None:
            time_col, unit = i, u
            found.unit_named = _names_unit(names[i])
            break
    times = None
    if time_col is None and sum(numeric) >= 2 and numeric[0] and len(rows) >= 2:
        t = values_of(0)
        if np.all(np.diff(t) > 0):
            time_col, times = 0, t
            steps = np.diff(t)
            counter = bool(t[0] in (0.0, 1.0) and np.all(steps == 1.0))
    idx = _column_index(path, column, header, ncols)
    if idx is not None and not numeric[idx]:
        raise FileProblem(f"{path}: column {name(idx)} holds text "
                          f"({split(rows[0][1])[idx]!r}), not numbers")
    if idx is None:
        candidates = [i for i in range(ncols) if numeric[i] and i != time_col]
        if not candidates:
            what = f" besides the time column {name(time_col)}" if time_col is not None else ""
            raise FileProblem(f"{path}: no numeric column{what} to analyse")
        if len(candidates) > 1:
            listed = ", ".join(header[i] if header is not None and i < len(header) else str(i)
                               for i in candidates)
            raise FileProblem(f"{path}: {len(candidates)} signal columns ({listed}); choose one "
                              "with --column")
        idx = candidates[0]
    if time_col is not None and time_col != idx and not counter:
        t = times if times is not None else values_of(time_col)
        _time_rate(path, t, unit, f"time column {name(time_col)}", found)
    return values_of(idx)


def _time_rate(path: Path, t: np.ndarray, unit: float, what: str, found: Signal) -> None:
    """``found.fs`` from an evenly spaced time column, else ``found.fs_problem``."""
    found.fs_from = what
    if t.size < 2:
        found.fs_problem = f"{path}: the {what} has a single value: pass --fs"
        return
    steps = np.diff(t)
    if not np.all(np.isfinite(t)) or np.any(steps <= 0):
        bad = int(np.flatnonzero(~(np.isfinite(steps) & (steps > 0)))[0]) if t.size > 1 else 0
        found.fs_problem = (f"{path}: the {what} does not increase (at its value {bad + 1}: "
                            f"{float(t[bad + 1])!r} after {float(t[bad])!r}); pass --fs to analyse the samples "
                            "as evenly spaced")
        return
    step = (t[-1] - t[0]) / (t.size - 1)
    drift = np.abs(t - (t[0] + step * np.arange(t.size))).max()
    if not step > 0 or drift > 0.25 * step:
        found.fs_problem = (f"{path}: the {what} is not evenly spaced (steps from "
                            f"{steps.min():.6g} to {steps.max():.6g}); resample it, or pass --fs "
                            "to analyse the samples as evenly spaced")
        return
    found.time_step = float(step)
    found.fs = float(1.0 / (step * unit))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _column_index(path: Path, column: str | None, header: list[str] | None,
                  ncols: int) -> int | None:
    if column is None:
        return None
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
    suffix = check_suffix(path, IMAGE_SUFFIXES, "image format", "reads")
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


#: NumPy's repr of a scalar, ``np.float64(0.25)``: a person reads ``0.25``.
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:float|int|uint|complex)\d*\(([^()]*)\)|\bnp\.(?:bool_?|str_)\(([^()]*)\)")


def plain(text: object) -> str:
    r"""``text`` on one line, NumPy scalars written as numbers (``np.float64(0.25)`` -> ``0.25``).

    Examples
    --------
    >>> plain("fs must be positive, got np.float64(-2.0)\n  (or None)")
    'fs must be positive, got -2.0 (or None)'
    """
    one = " ".join(str(text).split())
    return _NUMPY_SCALAR.sub(lambda m: m[1] if m[1] is not None else m[2], one)


def _one_line(exc: BaseException | str) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


@contextlib.contextmanager
def write_atomically(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path next to ``path`` to write to; renamed onto ``path`` if the block ends
    normally, removed otherwise (:func:`sftwave._atomic.atomic_path`, with one-line errors)."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileProblem(f"{path}: the folder {path.parent} does not exist")
    with atomic_path(path) as tmp:
        yield tmp


def image_writer(path: Path, img: np.ndarray) -> Callable[[Path], None]:
    """A function writing ``img`` to a temporary file in the format of ``path``'s suffix."""
    suffix = check_suffix(path, IMAGE_SUFFIXES, "image format", "writes")
    if suffix == ".npy":
        def save(tmp: Path) -> None:
            with open(tmp, "wb") as fh:
                np.save(fh, img)
        return save
    Image = _pillow(path)

    def save_image(tmp: Path) -> None:
        try:
            Image.fromarray(img).save(tmp, format=Image.registered_extensions()[suffix])
        except (TypeError, ValueError, OSError, KeyError) as exc:
            raise FileProblem(f"{path}: cannot write a {img.dtype} image of shape "
                              f"{img.shape} as {suffix} ({_one_line(exc)}); try .npy") from None
    return save_image


def write_image(path: str | os.PathLike, img: np.ndarray) -> None:
    """Write ``img`` by ``path``'s suffix (NPY, or an image format through Pillow), atomically."""
    path = Path(path)
    save = image_writer(path, img)
    with write_atomically(path) as tmp:
        save(tmp)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: the same resolved path, or (both existing) one inode."""
    try:
        if a.resolve() == b.resolve():
            return True
    except (OSError, RuntimeError):
        pass
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(inputs: dict[str, str | os.PathLike],
                  outputs: dict[str, str | os.PathLike | None]) -> dict[str, Path]:
    """Refuse outputs that would destroy an input or each other; returns them as paths.

    ``inputs`` and ``outputs`` map how the user named each file (``'-o'``,
    ``'--save-npy'``) to its path (``None``: not asked).  An output may not be
    an input (same resolved path, or the same file through a link), nor
    another output, nor an existing folder, and its folder must exist.

    Examples
    --------
    >>> check_outputs({"FILE": "s.npy"}, {"-o": "s.png"})
    {'-o': PosixPath('s.png')}
    >>> check_outputs({"FILE": "s.npy"}, {"-o": "./s.npy"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sftwave.cli.files.FileProblem: -o ./s.npy is the input file s.npy: it would be ...
    """
    given = {opt: Path(p) for opt, p in outputs.items() if p is not None}
    seen: list[tuple[str, Path]] = []
    for opt, out in given.items():
        for inp in inputs.values():
            if _same_file(out, Path(inp)):
                raise FileProblem(f"{opt} {outputs[opt]} is the input file {inp}: it would be "
                                  "overwritten; choose another name")
        for other_opt, other in seen:
            if _same_file(out, other):
                raise FileProblem(f"{other_opt} {outputs[other_opt]} and {opt} {outputs[opt]} "
                                  "name the same file; choose two names")
        if out.is_dir():
            raise FileProblem(f"{out}: is a folder; {opt} needs a file name")
        folder = out.parent
        if not folder.is_dir():
            raise FileProblem(f"{out}: the folder {folder} does not exist")
        seen.append((opt, out))
    return given


def check_figure_suffix(path: str | os.PathLike) -> str:
    """The format of a figure file by its suffix, if matplotlib can write it (else FileProblem).

    Examples
    --------
    >>> check_figure_suffix("scalogram.PDF")
    'pdf'
    >>> check_figure_suffix("scalogram.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sftwave.cli.files.FileProblem: scalogram.txt: matplotlib cannot write '.txt' figures; ...
    """
    path = Path(path)
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise FileProblem(f"{path}: drawing the figure needs matplotlib: pip install matplotlib "
                          "(or pass -o none with --save-npy / --save-csv)") from None
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in formats:
        what = f"'.{suffix}' figures" if suffix else "a figure without a suffix"
        raise FileProblem(f"{path}: matplotlib cannot write {what}; use one of "
                          f"{', '.join('.' + f for f in formats)}")
    return suffix


class StagedOutputs:
    """Outputs written to temporary files in their folders, renamed onto their paths together.

    ``stage(path)`` creates (at once, so an unwritable folder fails before any
    work) a hidden temporary file beside ``path`` and returns its name; the
    caller writes into it.  Leaving the ``with`` block normally renames every
    temporary file onto its path (an old file there is restored if a later
    rename fails); leaving it by an exception, ``KeyboardInterrupt`` or a
    signal turned into an exception removes them all, so that one run's
    outputs are all written or none is.  Errors name the user's path, never a
    temporary name.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with StagedOutputs() as stage:
    ...     _ = stage.write(d / "a.txt", lambda tmp: tmp.write_text("a"))
    ...     _ = stage.write(d / "b.txt", lambda tmp: tmp.write_text("b"))
    >>> sorted(p.name for p in d.iterdir())
    ['a.txt', 'b.txt']
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path]] = []

    def __enter__(self) -> StagedOutputs:
        return self

    def stage(self, path: str | os.PathLike) -> Path:
        """A new temporary file beside ``path`` (same suffix), to be renamed onto it."""
        path = Path(path)
        for tmp, dest in self._staged:
            if dest == path:
                return tmp
        folder = path.parent
        if not folder.is_dir():
            raise FileProblem(f"{path}: the folder {folder} does not exist")
        for _ in range(100):
            # registered before it exists: an interruption at any point leaves nothing behind
            tmp = folder / f".{path.stem}-{secrets.token_hex(6)}{path.suffix}"
            self._staged.append((tmp, path))
            try:
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                return tmp
            except FileExistsError:
                self._staged.pop()
            except OSError as exc:
                self._staged.pop()
                raise FileProblem(f"{path}: cannot write there ({exc.strerror or _one_line(exc)})"
                                  ) from None
        raise FileProblem(f"{path}: cannot create a temporary file beside it")

    def write(self, path: str | os.PathLike, writer: Callable[[Path], object]) -> Path:
        """Stage ``path`` (if not yet) and run ``writer(temporary path)``; errors name ``path``."""
        tmp = self.stage(path)
        try:
            writer(tmp)
        except FileProblem:
            raise
        except (OSError, ValueError, TypeError, RuntimeError) as exc:
            text = _one_line(exc).replace(str(tmp), str(path)).replace(tmp.name, Path(path).name)
            raise FileProblem(f"{path}: cannot write it ({text})") from None
        return Path(path)

    def _commit(self) -> None:
        mode = new_file_mode()
        replaced: list[tuple[Path, bool, Path | None]] = []   # (destination, existed, backup)
        backups: list[Path] = []
        current = None
        try:
            for tmp, dest in self._staged:
                current = dest
                os.chmod(tmp, mode)
                existed, backup = dest.exists(), None
                if existed:                    # a hard link keeps the old file, to restore it
                    backup = dest.parent / f".{dest.stem}-old-{secrets.token_hex(6)}{dest.suffix}"
                    try:
                        os.link(dest, backup)
                        backups.append(backup)
                    except OSError:
                        backup = None
                os.replace(tmp, dest)
                replaced.append((dest, existed, backup))
        except BaseException as exc:
            for dest, existed, backup in reversed(replaced):
                with contextlib.suppress(OSError):
                    if backup is not None:
                        os.replace(backup, dest)
                    elif not existed:
                        dest.unlink()
            if isinstance(exc, OSError):
                raise FileProblem(f"{current}: cannot write it ({exc.strerror or _one_line(exc)}); "
                                  "no output was changed") from None
            raise
        finally:
            for backup in backups:
                with contextlib.suppress(OSError):
                    backup.unlink()

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self._commit()
        finally:
            for tmp, _ in self._staged:
                with contextlib.suppress(OSError):
                    tmp.unlink()
            self._staged.clear()
