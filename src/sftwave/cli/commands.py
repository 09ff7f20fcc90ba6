"""``sftwave scalogram FILE`` and ``sftwave smooth IMAGE``: the work behind the command line.

Both raise :class:`~sftwave.cli.files.FileProblem` (or ``ValueError``
from the library's checks) with a one-line message for anything wrong; the
command line prints it and exits non-zero.  The outputs are checked before
any work (none may be an input or another output; a figure's suffix must be
a format matplotlib writes) and written together at the end, all or none.

The scalogram is never larger than a memory budget (default a quarter of
the machine's memory): the arrays saved must fit in it (else the error says
the smallest ``--decim`` that fits), and the figure alone is computed a few
frequencies at a time, each reduced at once to the figure's columns by block
maxima, so no full-resolution array is ever built only to be drawn.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import cast

import numpy as np

import sftwave

from .._checks.spectral import check_band
from .files import (
    IMAGE_SUFFIXES,
    SIGNAL_SUFFIXES,
    FileProblem,
    Signal,
    StagedOutputs,
    check_figure_suffix,
    check_outputs,
    check_suffix,
    image_writer,
    plain,
    read_image,
    read_signal,
)

__all__ = ["scalogram_command", "smooth_command", "default_band", "memory_budget",
           "scalogram_bytes", "format_bytes"]

#: Above this many samples x frequencies, a progress bar (if tqdm is installed and stderr a tty).
_PROGRESS_WORK = 5e7
#: The transform's working memory per input sample (the signal, its padded copy, the engine's
#: complex buffers): an upper bound with a margin of more than two (the figure it bounds is in
#: docs/performance.md, *Figures behind the code's choices*).
WORK_BYTES_PER_SAMPLE = 48
#: Intermediate arrays per output value of a block of rows when the signal has non-finite
#: samples (the complex coefficients and the weights of ``nan_policy='omit'``), in output values.
_NONFINITE_FACTOR = 4
#: The figure's width in inches (:func:`sftwave.plot.scalogram`'s layout with a signal panel).
_FIGURE_WIDTH_IN = 7.0
#: The most rows a block of the figure-only computation holds beyond the budget's need: enough
#: for every core, few enough that no block comes near a full-resolution scalogram.
_BLOCK_BYTES = 64 * 2**20


def memory_budget() -> int:
    """The default memory budget: a quarter of the machine's memory (2 GiB if unknown).

    Examples
    --------
    >>> memory_budget() > 0
    True
    """
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        total = 0
    return total // 4 if total > 0 else 2 * 2**30


def format_bytes(n: float) -> str:
    """``n`` bytes for a person: ``'5.5 GiB'``, ``'512 MiB'``, ``'900 B'``.

    Examples
    --------
    >>> format_bytes(5.5 * 2**30), format_bytes(3 * 2**20), format_bytes(900)
    ('5.5 GiB', '3 MiB', '900 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.3g} {unit}"
    return f"{int(n)} B"


def scalogram_bytes(n: int, nfreqs: int, decim: int, *, rows: int | None = None,
                    nonfinite: bool = False) -> int:
    """The memory a scalogram of ``nfreqs`` x ``ceil(n / decim)`` float64 values needs to compute.

    The output, plus the transform's working memory
    (:data:`WORK_BYTES_PER_SAMPLE` per input sample), plus, for a signal
    with non-finite samples, the intermediate arrays of a block of ``rows``
    rows (default all).

    Examples
    --------
    >>> scalogram_bytes(1000, 10, 1) == 10 * 1000 * 8 + 1000 * WORK_BYTES_PER_SAMPLE
    True
    """
    n_out = -(-int(n) // int(decim))
    rows = nfreqs if rows is None else rows
    extra = _NONFINITE_FACTOR * rows * n_out * 8 if nonfinite else 0
    return int(nfreqs) * n_out * 8 + WORK_BYTES_PER_SAMPLE * int(n) + extra


def _smallest_decim(n: int, nfreqs: int, budget: int, *, rows: int, nonfinite: bool
                    ) -> int | None:
    """The smallest ``decim`` whose scalogram fits ``budget`` (None: none does)."""
    per_out = nfreqs * 8 + (_NONFINITE_FACTOR * rows * 8 if nonfinite else 0)
    room = budget - WORK_BYTES_PER_SAMPLE * n
    most = room // per_out                       # the most output columns that fit
    if most < 1:
        return None
    d = max(1, -(-n // most))
    while scalogram_bytes(n, nfreqs, d, rows=rows, nonfinite=nonfinite) > budget and d < n:
        d += 1
    return d if scalogram_bytes(n, nfreqs, d, rows=rows, nonfinite=nonfinite) <= budget else None


#: The band a listener hears, for sound (a WAV file).
AUDIBLE = (20.0, 20000.0)
#: The default band's width in octaves for other recordings (below the highest frequency).
DEFAULT_OCTAVES = 10


def default_band(n: int, fs: float, xi: float, *, audio: bool = False,
                 fmax: float | None = None) -> tuple[float, float]:
    """``(fmin, fmax)`` when not given.

    ``fmax`` (if not given) is 0.45 fs, at most 20 kHz for sound.  ``fmin``
    is 20 Hz for sound (if below ``fmax``) and :data:`DEFAULT_OCTAVES`
    octaves below ``fmax`` otherwise, but never below the lowest frequency
    whose wavelet (+-3 sigma) fits in the signal.

    Examples
    --------
    >>> default_band(44100 * 60, 44100.0, 6.0, audio=True)
    (20.0, 19845.0)
    >>> lo, hi = default_band(250 * 600, 250.0, 6.0)      # ten minutes of EEG at 250 Hz
    >>> round(lo, 3), hi
    (0.11, 112.5)
    """
    fits = 3.0 * xi * fs / (math.pi * n)
    if fmax is None:
        fmax = min(0.45 * fs, AUDIBLE[1]) if audio else 0.45 * fs
    low = fmax / 2.0**DEFAULT_OCTAVES
    if audio and AUDIBLE[0] < fmax:
        low = AUDIBLE[0]
    return max(fits, low), fmax


def _say(kind: str, text: str) -> None:
    print(f"sftwave: {kind}: {plain(text)}", file=sys.stderr)


def _rate(path: str, fs: float | None, sig: Signal) -> float:
    """The sampling rate: ``--fs``, checked against the file's own where it has one."""
    from_time = sig.fs_from is not None and sig.fs_from.startswith("time column")
    if from_time and sig.fs is None:             # a time column that is not evenly spaced
        if fs is None:
            raise FileProblem(sig.fs_problem or f"{path}: the file gives no sampling rate; pass "
                              "--fs")
        _say("warning", f"{sig.fs_problem}; analysing them at --fs {fs:g}")
        return fs
    if fs is None:
        if sig.fs is None:
            raise FileProblem(f"{path}: the file gives no sampling rate; pass --fs")
        if from_time and not sig.unit_named:
            _say("note", f"{path}: fs = {sig.fs:.6g} Hz from the {sig.fs_from}, whose header "
                         f"names no unit: its step of {sig.time_step:.6g} is read as seconds. "
                         f"If the times are milliseconds, pass --fs {sig.fs * 1e3:.6g} (or name "
                         "the column 'time (ms)')")
        return sig.fs
    if sig.fs is None or math.isclose(fs, sig.fs, rel_tol=1e-3):
        return fs
    if not from_time:
        _say("note", f"--fs {fs:g} overrides the file's {sig.fs:g}")
        return fs
    for scale, unit in ((1e3, "milliseconds"), (1e6, "microseconds")):
        if math.isclose(fs, sig.fs * scale, rel_tol=1e-3):
            _say("note", f"{path}: reading the {sig.fs_from} in {unit} (a step of "
                         f"{sig.time_step:.6g}), as --fs {fs:g} says")
            return fs
    raise FileProblem(f"{path}: --fs {fs:g} disagrees with the {sig.fs_from}, whose step "
                      f"{sig.time_step:.6g} gives fs = {sig.fs:.6g} in seconds (or "
                      f"{sig.fs * 1e3:.6g} in milliseconds); leave --fs out, or correct it")


def scalogram_command(path: str, *, fs: float | None, fmin: float | None, fmax: float | None,
                      per_octave: int, nfreqs: int | None, xi: float, channel: int,
                      column: str | None, key: str | None, decim: int, mode: str, output: str,
                      out: str | None, save_npy: str | None, save_csv: str | None,
                      nan: str, progress: bool | None, max_memory: int | None = None,
                      dpi: int = 110) -> list[Path]:
    """Compute a file's scalogram and write what was asked; returns the paths written."""
    _check_recording(path)
    outputs = check_outputs({"FILE": path}, {"--save-npy": save_npy, "--save-csv": save_csv,
                                             "-o": out})
    if not outputs:
        raise FileProblem("nothing to write: -o none and neither --save-npy nor --save-csv")
    figure_format = check_figure_suffix(out) if out else None
    budget = memory_budget() if max_memory is None else int(max_memory)
    sig = read_signal(path, channel=channel, column=column, key=key)
    for note in sig.notes:
        _say("warning", note)
    fs = _rate(path, fs, sig)
    x = sig.x
    bad = ~np.isfinite(x)
    nonfinite = bool(bad.any())
    if nonfinite and nan == "error":
        first = int(np.flatnonzero(bad)[0])
        raise FileProblem(f"{path}: sample {first} is {x[first]} ({int(bad.sum())} non-finite in "
                          "all); pass --nan propagate or --nan omit to accept them")
    if x.size < 8:
        raise FileProblem(f"{path}: {x.size} samples are too few for a scalogram")
    fmin, fmax = _band(path, x.size, fs, xi, fmin, fmax)
    count = nfreqs if nfreqs is not None else max(2, round(per_octave * math.log2(fmax / fmin)) + 1)
    freqs = np.geomspace(fmin, fmax, count)
    columns = 2 * round(_FIGURE_WIDTH_IN * dpi)
    bar = _wants_progress(progress, x.size * freqs.size)
    if bar or x.size * freqs.size > _PROGRESS_WORK:
        _say("note", f"{freqs.size} frequencies from {_hz(freqs[0])} to {_hz(freqs[-1])} (xi "
                     f"{xi:g}) on {x.size:,} samples at {fs:g} Hz: {x.size * freqs.size:.2g} "
                     "values (the time left is said once the first frequencies are done)")
    with StagedOutputs() as stage:
        for p in outputs.values():               # temporary files now: an unwritable folder
            stage.stage(p)                       # fails before the work
        if save_npy or save_csv:
            values, display = _saved_scalogram(path, x, freqs, fs, xi=xi, decim=decim, mode=mode,
                                               nan=nan, nonfinite=nonfinite, budget=budget,
                                               columns=columns if out else None, bar=bar)
            if output == "abs":
                np.sqrt(values, out=values)
            if save_npy:
                stage.write(save_npy, lambda tmp: _write_npy(tmp, values))
            if save_csv:
                stage.write(save_csv, lambda tmp: _write_csv(tmp, values, freqs, decim / fs))
            del values
            used = decim
        else:
            display, used = _display_scalogram(path, x, freqs, fs, xi=xi, decim=decim, mode=mode,
                                               nan=nan, nonfinite=nonfinite, budget=budget,
                                               columns=columns, bar=bar)
        if out:
            fig = _figure(display, freqs, fs, xi, used, x, Path(path).name, output, columns)
            try:
                stage.write(out, lambda tmp: fig.figure.savefig(tmp, format=figure_format,
                                                                dpi=dpi))
            finally:
                import matplotlib.pyplot as plt

                plt.close(fig.figure)
    return [Path(p) for p in (save_npy, save_csv, out) if p]


def _hz(f: float) -> str:
    """A frequency for a person: ``'20 Hz'``, ``'19.8 kHz'``, ``'0.0312 Hz'``."""
    return f"{f / 1e3:.3g} kHz" if f >= 1e3 else f"{f:.3g} Hz"


def _band(path: str, n: int, fs: float, xi: float, fmin: float | None, fmax: float | None
          ) -> tuple[float, float]:
    """The band analysed: ``--fmin``/``--fmax``, the defaults (:func:`default_band`) for the
    rest."""
    lo, hi = default_band(n, fs, xi, audio=Path(path).suffix.lower() == ".wav", fmax=fmax)
    fmin = lo if fmin is None else fmin
    fmax = hi if fmax is None else fmax
    return check_band(fmin, fmax, fs)


def _check_recording(path: str) -> None:
    """A file ``scalogram`` reads, or one line saying which command takes it."""
    suffix = Path(path).suffix.lower()
    if suffix in IMAGE_SUFFIXES and suffix not in SIGNAL_SUFFIXES:
        raise FileProblem(f"{path}: an image; sftwave scalogram reads recordings "
                          f"({', '.join(SIGNAL_SUFFIXES)}); sftwave smooth filters images")
    check_suffix(Path(path), SIGNAL_SUFFIXES, "format", "reads")


def _wants_progress(progress: bool | None, work: float) -> str | None:
    """How to report progress: ``'bar'`` (tqdm, at a terminal), ``'lines'`` (plain lines on
    stderr, e.g. into a log file) or None: asked for, or by default on long work."""
    if not (progress or (progress is None and work > _PROGRESS_WORK)):
        return None
    if sys.stderr.isatty():
        try:
            import tqdm  # noqa: F401
        except ImportError:
            return "lines"
        return "bar"
    return "lines"


class _Progress:
    """Progress of ``total`` frequencies: a tqdm bar, or a line at every tenth done; and, after
    the second block, the estimated time of the whole run (timed from the end of the first,
    which also pays for loading the kernels)."""

    def __init__(self, how: str | None, total: int) -> None:
        import time

        self.how, self.total, self.done, self.tenths, self.blocks = how, total, 0, 0, 0
        self.clock = time.monotonic
        self.start = self.clock()
        self.first: tuple[float, int] | None = None     # (time, frequencies) after block one
        self.bar = None
        if how == "bar":
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="freq", desc="scalogram", file=sys.stderr)

    def left(self) -> float | None:
        """Seconds left, from the blocks after the first (None before the second)."""
        if self.first is None or self.done <= self.first[1]:
            return None
        t0, n0 = self.first
        return (self.clock() - t0) * (self.total - self.done) / (self.done - n0)

    def update(self, n: int) -> None:
        self.done += n
        self.blocks += 1
        if self.blocks == 1:
            self.first = (self.clock(), self.done)
        if self.how is None:
            return
        left = self.left()
        if self.blocks == 2 and left is not None and self.done < self.total:
            _say("note", f"about {_duration(self.clock() - self.start + left)} in all")
        if self.bar is not None:
            self.bar.update(n)
            return
        tenths = 10 * self.done // self.total
        if tenths > self.tenths and self.done < self.total:
            self.tenths = tenths
            eta = f", about {_duration(left)} left" if left is not None else ""
            _say("progress", f"{100 * self.done // self.total}% ({self.done} of {self.total} "
                             f"frequencies){eta}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _duration(seconds: float) -> str:
    """``'45 s'``, ``'3 min'``, ``'1.5 h'``."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def _rows(x, freqs, fs, out, *, xi, decim, mode, nan, rows, bar):
    """Yield ``(i, j, power of freqs[i:j])``, ``rows`` frequencies at a time (into ``out[i:j]``
    when ``out`` is given), reporting progress as ``bar`` says (:func:`_wants_progress`)."""
    policy = "omit" if nan == "omit" else "propagate"
    progress = _Progress(bar, freqs.size)
    try:
        for i in range(0, freqs.size, rows):
            j = min(freqs.size, i + rows)
            block = sftwave.cwt(x, freqs[i:j], fs, xi=xi, mode=mode, decim=decim, output="power",
                                nan_policy=policy, out=None if out is None else out[i:j])
            progress.update(j - i)
            yield i, j, block
    finally:
        progress.close()


def _saved_scalogram(path, x, freqs, fs, *, xi, decim, mode, nan, nonfinite, budget, columns,
                     bar):
    """The full scalogram at ``decim`` (it must fit the budget), and the figure's reduction."""
    from sftwave.plot import TimeBlocks, reduce_time, time_block_edges

    nf, n = freqs.size, x.size
    rows = -(-nf // 20) if bar else nf
    if nonfinite:
        rows = min(rows, -(-nf // 8))
    need = scalogram_bytes(n, nf, decim, rows=rows, nonfinite=nonfinite)
    if need > budget:
        n_out = -(-n // decim)
        best = _smallest_decim(n, nf, budget, rows=rows, nonfinite=nonfinite)
        fix = (f"--decim {best} fits" if best is not None else
               f"no --decim fits (the transform of {n} samples alone needs "
               f"{format_bytes(WORK_BYTES_PER_SAMPLE * n)})")
        raise FileProblem(f"{path}: the scalogram ({nf} frequencies x {n_out} times, float64) "
                          f"needs {format_bytes(need)}, more than the memory budget of "
                          f"{format_bytes(budget)}; {fix} (or raise --max-memory)")
    values = np.empty((nf, -(-n // decim)))
    for _ in _rows(x, freqs, fs, values, xi=xi, decim=decim, mode=mode, nan=nan, rows=rows,
                   bar=bar):
        pass
    if columns is None:
        return values, None
    edges = time_block_edges(values.shape[1], columns)
    display = TimeBlocks(np.empty((nf, edges.size - 1)), values.shape[1], edges)
    for i in range(0, nf, max(1, rows)):         # block by block: no full-size temporary
        display.values[i:i + rows] = reduce_time(values[i:i + rows], columns).values
    return values, display


def _display_scalogram(path, x, freqs, fs, *, xi, decim, mode, nan, nonfinite, budget, columns,
                       bar):
    """The figure's scalogram alone: a few rows at a time, each reduced at once by block maxima
    to ``columns`` columns; ``decim`` raised (and said) only where one row does not fit."""
    from sftwave.plot import TimeBlocks, reduce_time, time_block_edges

    nf, n = freqs.size, x.size
    factor = 1 + (_NONFINITE_FACTOR if nonfinite else 0)

    def room(d: int) -> tuple[int, int]:
        n_out = -(-n // d)
        shown = time_block_edges(n_out, columns).size - 1
        return budget - WORK_BYTES_PER_SAMPLE * n - nf * shown * 8, n_out * 8 * factor

    avail, per_row = room(decim)
    used = decim
    if avail < per_row:
        if avail <= 0:
            fixed = budget - avail
            raise FileProblem(f"{path}: the transform of {n} samples and the figure's {nf} x "
                              f"{min(columns, -(-n // decim))} values need {format_bytes(fixed)} "
                              f"before any row is computed, more than the memory budget of "
                              f"{format_bytes(budget)}; raise --max-memory")
        used = max(decim + 1, -(-n * 8 * factor // avail))
        while room(used)[0] < room(used)[1] and used < n:
            used += 1
        _say("note", f"drawing the scalogram at --decim {used}: one frequency at --decim {decim} "
                     f"needs {format_bytes(per_row)}, more than the memory budget of "
                     f"{format_bytes(budget)} leaves (--max-memory)")
        avail, per_row = room(used)
    rows = max(1, min(nf, avail // per_row,
                      max(os.cpu_count() or 1, _BLOCK_BYTES // per_row)))
    if bar:
        rows = min(rows, -(-nf // 20))
    n_out = -(-n // used)
    edges = time_block_edges(n_out, columns)
    display = TimeBlocks(np.empty((nf, edges.size - 1)), n_out, edges)
    for i, j, block in _rows(x, freqs, fs, None, xi=xi, decim=used, mode=mode, nan=nan,
                             rows=rows, bar=bar):
        display.values[i:j] = reduce_time(block, columns).values
        del block
    return display, used


def _write_npy(tmp: Path, values: np.ndarray) -> None:
    with open(tmp, "wb") as fh:                  # a handle: np.save adds no suffix
        np.save(fh, values)


def _write_csv(tmp: Path, values: np.ndarray, freqs: np.ndarray, step: float) -> None:
    """A row per frequency (the frequency first), the times in the header; row by row."""
    times = np.arange(values.shape[1]) * step
    with open(tmp, "w") as fh:
        fh.write("frequency," + ",".join(f"{t:.6g}" for t in times) + "\n")
        for f, row in zip(freqs, values):
            np.savetxt(fh, np.concatenate([[f], row])[None, :], delimiter=",", fmt="%.8g")


def _figure(display, freqs, fs, xi, decim, x, name, output, columns):
    import matplotlib

    matplotlib.use("Agg")
    from sftwave.plot import scalogram

    kind = "power" if output == "power" else "amplitude"
    return scalogram(display, freqs, fs, xi=xi, decim=decim, kind=kind, signal=x,
                     max_columns=columns,
                     title=f"{name}: Morlet scalogram, xi = {xi:g}, {freqs.size} frequencies")


def smooth_command(path: str, *, sigma: list[float], order: int, mode: str, out: str) -> Path:
    """Smooth an image (its two spatial axes; colour channels apart) and write it.

    A derivative (``order`` > 0) is computed in float32; it is written as its
    values to ``.npy`` and to a one-channel ``.tif``, and to the other formats
    (8 or 16 bits) rescaled so that zero is mid-grey and the largest magnitude
    reaches black or white (said on stderr): cast as it is, every negative
    value would be black.
    """
    check_outputs({"IMAGE": path}, {"-o": out})
    suffix = check_suffix(Path(out), IMAGE_SUFFIXES, "image format", "writes")
    img = read_image(path)
    axes = (0, 1)
    if img.dtype == np.bool_:
        img = img.astype(np.uint8) * 255
    s = sigma if len(sigma) > 1 else sigma[0]
    with StagedOutputs() as stage:
        stage.stage(out)
        if order == 0:
            # a NumPy image on the CPU engine: a NumPy array
            result = cast(np.ndarray, sftwave.gaussian_filter(img, s, order=order, mode=mode,
                                                              axes=axes))
        else:
            values = cast(np.ndarray, sftwave.gaussian_filter(img, s, order=order, mode=mode,
                                                              axes=axes, output=np.float32))
            result = _derivative_image(out, suffix, values, img.dtype)
        stage.write(out, image_writer(Path(out), result))
    return Path(out)


def _derivative_image(out: str, suffix: str, values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A derivative as written to ``out``: its values where the format holds them, else
    rescaled to the input's integer type (8 bits for a float input), zero at mid-grey."""
    if suffix == ".npy" or (suffix in (".tif", ".tiff") and values.ndim == 2):
        return values
    kind = np.dtype(dtype) if np.dtype(dtype).kind == "u" and np.dtype(dtype).itemsize <= 2 \
        else np.dtype(np.uint8)
    top = np.iinfo(kind).max
    mid = (top + 1) // 2
    finite = values[np.isfinite(values)]
    scale = float(np.abs(finite).max()) if finite.size else 0.0
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
    _say("note", f"{out}: the derivative's values ({lo:.4g} to {hi:.4g}) are rescaled to "
                 f"0-{top}: zero at {mid}, -{scale:.4g} at 1 and +{scale:.4g} at {top}; write "
                 ".npy (or a one-channel .tif) for the values themselves")
    if scale == 0.0:
        return np.full(values.shape, mid, dtype=kind)
    scaled = mid + (mid - 1) * np.nan_to_num(values, nan=0.0) / scale
    return np.clip(np.rint(scaled), 0, top).astype(kind)
