"""``sftwave scalogram FILE`` and ``sftwave smooth IMAGE``: the work behind the command line.

Both raise :class:`~sftwave.experiments.files.FileProblem` (or ``ValueError``
from the library's checks) with a one-line message for anything wrong; the
command line prints it and exits non-zero.  Outputs are written atomically.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

import sftwave

from .files import FileProblem, read_image, read_signal, write_atomically, write_image

__all__ = ["scalogram_command", "smooth_command", "default_band"]

#: Above this many samples x frequencies, a progress bar (if tqdm is installed and stderr a tty).
_PROGRESS_WORK = 5e7


def default_band(n: int, fs: float, xi: float) -> tuple[float, float]:
    """``(fmin, fmax)`` when not given: the lowest frequency whose wavelet (+-3 sigma) fits in
    the signal, and 0.45 fs."""
    fmin = 3.0 * xi * fs / (math.pi * n)
    return fmin, 0.45 * fs


def scalogram_command(path: str, *, fs: float | None, fmin: float | None, fmax: float | None,
                      per_octave: int, nfreqs: int | None, xi: float, channel: int,
                      column: str | None, key: str | None, decim: int, mode: str, output: str,
                      out: str | None, save_npy: str | None, save_csv: str | None,
                      nan: str, progress: bool | None, dpi: int = 110) -> list[Path]:
    """Compute a file's scalogram and write what was asked; returns the paths written."""
    sig = read_signal(path, channel=channel, column=column, key=key)
    if fs is None:
        fs = sig.fs
    if fs is None:
        raise FileProblem(f"{path}: the file gives no sampling rate; pass --fs")
    if sig.fs is not None and fs != sig.fs:
        print(f"note: --fs {fs:g} overrides the file's {sig.fs:g}", file=sys.stderr)
    x = sig.x
    bad = ~np.isfinite(x)
    if bad.any() and nan == "error":
        first = int(np.flatnonzero(bad)[0])
        raise FileProblem(f"{path}: sample {first} is {x[first]} ({int(bad.sum())} non-finite in "
                          "all); pass --nan propagate or --nan omit to accept them")
    if x.size < 8:
        raise FileProblem(f"{path}: {x.size} samples are too few for a scalogram")
    lo, hi = default_band(x.size, fs, xi)
    fmin = lo if fmin is None else fmin
    fmax = hi if fmax is None else fmax
    if not 0 < fmin < fmax <= fs / 2:
        raise ValueError(f"the band must satisfy 0 < fmin < fmax <= fs/2 = {fs / 2:g}; got "
                         f"fmin={fmin:g}, fmax={fmax:g}")
    count = nfreqs if nfreqs is not None else max(2, round(per_octave * math.log2(fmax / fmin)) + 1)
    freqs = np.geomspace(fmin, fmax, count)
    power = _power(x, freqs, fs, xi=xi, decim=decim, mode=mode, nan=nan, progress=progress)
    values = power if output == "power" else np.sqrt(power)
    written = []
    if save_npy:
        with write_atomically(save_npy, ".npy") as tmp:
            with open(tmp, "wb") as fh:
                np.save(fh, values)
        written.append(Path(save_npy))
    if save_csv:
        with write_atomically(save_csv, ".csv") as tmp:
            times = np.arange(values.shape[1]) * decim / fs
            header = "frequency," + ",".join(f"{t:.6g}" for t in times)
            table = np.column_stack([freqs, values])
            np.savetxt(tmp, table, delimiter=",", header=header, comments="", fmt="%.8g")
        written.append(Path(save_csv))
    if out:
        written.append(_figure(out, values, freqs, fs, xi, decim, x, Path(path).name, output,
                               dpi))
    return written


def _power(x, freqs, fs, *, xi, decim, mode, nan, progress) -> np.ndarray:
    """The power, frequencies in blocks with a progress bar on long work."""
    work = x.size * freqs.size
    bar = None
    if progress or (progress is None and work > _PROGRESS_WORK and sys.stderr.isatty()):
        try:
            from tqdm import tqdm

            bar = tqdm(total=freqs.size, unit="freq", desc="scalogram", file=sys.stderr)
        except ImportError:
            bar = None
    if bar is None:
        return sftwave.cwt(x, freqs, fs, xi=xi, mode=mode, decim=decim, output="power",
                           nan_policy="omit" if nan == "omit" else "propagate")
    rows = []
    with bar:
        for block in np.array_split(freqs, min(freqs.size, 20)):
            rows.append(sftwave.cwt(x, block, fs, xi=xi, mode=mode, decim=decim, output="power",
                                    nan_policy="omit" if nan == "omit" else "propagate"))
            bar.update(block.size)
    return np.concatenate(rows, axis=0)


def _figure(out, values, freqs, fs, xi, decim, x, name, output, dpi) -> Path:
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        raise FileProblem(f"{out}: drawing the PNG needs matplotlib: pip install "
                          "'sftwave[plot]' (or pass --save-npy / --save-csv only)") from None
    import matplotlib.pyplot as plt

    from sftwave.plot import scalogram

    kind = "power" if output == "power" else "amplitude"
    drawn = values if output == "power" else values ** 2
    fig = scalogram(drawn, freqs, fs, xi=xi, decim=decim, kind=kind, signal=x,
                    title=f"{name}: Morlet scalogram, xi = {xi:g}, {freqs.size} frequencies")
    try:
        with write_atomically(out, ".png") as tmp:
            fig.figure.savefig(tmp, format="png", dpi=dpi)
    finally:
        plt.close(fig.figure)
    return Path(out)


def smooth_command(path: str, *, sigma: list[float], order: int, mode: str, out: str) -> Path:
    """Smooth an image (its two spatial axes; colour channels apart) and write it."""
    img = read_image(path)
    axes = (0, 1)
    if img.dtype == np.bool_:
        img = img.astype(np.uint8) * 255
    result = sftwave.gaussian_filter(img, sigma if len(sigma) > 1 else sigma[0], order=order,
                                     mode=mode, axes=axes)
    write_image(out, result)
    return Path(out)
