r"""``python -m sftwave_paper demo``: Morlet scalograms of real recordings, and Gaussian smoothing.

The data ship with PyWavelets (the ``demo`` extra, :mod:`pywt.data`):

* ``nino()``: the Nino3 sea-surface temperature, 264 quarterly means
  (1950-2015), standardised.  It keeps the seasonal cycle (PyWavelets reads
  the SST column, not the anomaly); the demo removes it (each quarter's mean
  over the years) to get the anomaly of Torrence & Compo's (1998) classic
  example, whose El Nino band has periods of 2-8 years;
* ``ecg()``: 1024 samples of an electrocardiogram.  PyWavelets does not state
  its sampling rate; the demo assumes 360 Hz (the MIT-BIH arrhythmia
  database's), at which its beats come every 0.91 s (66 per minute) and its
  QRS complexes last about 60 ms, both plausible;
* ``camera()``: a 512 x 512 photograph, for the Gaussian part.

Three experiments:

(a) The scalogram (``sftwave.cwt``, ``xi = 6``) of both recordings, drawn in a
    PNG (the signal above, the power below, with the cone of influence), and
    the worst row's relative RMSE ``||y_f - exact_f|| / ||exact_f||`` of
    sftwave, MNE's ``tfr_array_morlet`` and PyWavelets' ``cwt`` with a matched
    complex Morlet, each against *its own* exact transform: the direct
    convolution with its sampled wavelet over ``|k| <= 13 sigma``
    (:func:`exact_cwt`), with its normalisation and border extension.
(b) The time of the three on a longer signal, the ECG tiled (repeated end to
    end) to 100 000 samples, all with zero padding and complex output; the
    median of a few runs after a warm-up, and the time of the demo's first
    ``sftwave.cwt`` call (which loads or compiles numba's kernels and designs
    the plans) on its own.
(c) Gaussian smoothing of the photograph and of the tiled ECG, against
    ``scipy.ndimage`` (time, and accuracy against scipy at ``truncate=12``).

The conventions that make the libraries comparable (see :mod:`sftwave.wavelets`):
frequency ``f`` has the scale ``sigma = xi fs / (2 pi f)`` samples; MNE's
``n_cycles`` is ``xi``, its wavelet has energy 2 and it pads with zeros, so
``sqrt(2) * cwt(x, freqs, fs, xi=xi, mode='constant')`` is its output;
PyWavelets' ``cmorB-C`` wavelet is ``(pi B)^(-1/2) exp(-t^2/B) exp(2i pi C t)``,
so ``B = 2``, ``C = xi / (2 pi)`` at the scale ``sigma`` is the same Gaussian and
oscillation, of energy ``(2 pi B)^(-1/2)``, without the admissibility term.
"""

from __future__ import annotations

import importlib.metadata
import math
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import scipy
import scipy.ndimage as ndi

import sftwave
from sftwave import frequency_to_scale
from sftwave._atomic import atomic_path
from sftwave.plans.select import DEFAULT_TOL_FACTOR

__all__ = [
    "Record", "Row", "ScalogramRow", "Timing", "exact_cwt", "format_rows", "format_scalogram_rows",
    "format_timings", "image_rows", "log_frequencies", "main", "median_time", "mne_cwt",
    "plot_scalograms", "pywt_cwt", "rel_rmse", "scalogram_row", "signal_rows", "timings", "worst_row",
]

#: scipy's ``truncate`` for the exact Gaussian reference.
EXACT_TRUNCATE = 12.0

#: Half-width of the exact Morlet reference, in scales (the Gaussian is below 1e-36 there).
EXACT_HALF_WIDTH = 13.0

#: The wavelet's radians per standard deviation (MNE's ``n_cycles``).
XI = 6.0

#: What ``sftwave.cwt`` documents for every row with its default ``tol``.
DOCUMENTED_ROW_ERROR = 1e-3

#: PyWavelets' ``cmor`` bandwidth: with ``B = 2`` its scale is sftwave's ``sigma``.
PYWT_BANDWIDTH = 2.0

#: Where the figure goes unless ``main(out=...)`` says otherwise (the current directory).
DEFAULT_FIGURE = "sftwave_demo_scalogram.png"
#: The Torrence & Compo figure: beside the first, its name with this ending.
TC_SUFFIX = "_nino3"

HEADER = (
    "columns: sftwave and scipy = median time (ms); speed-up = scipy / sftwave; "
    "vs scipy = rel. RMSE of sftwave against scipy's default result;\n"
    "         err sftwave, err scipy = rel. RMSE against the exact result "
    f"(scipy, float64, truncate={EXACT_TRUNCATE:g}); rel. RMSE = ||a - b|| / ||b||"
)


# ----------------------------------------------------------------------------- shared helpers


def rel_rmse(a: np.ndarray, ref: np.ndarray) -> float:
    """Relative RMSE ``||a - ref|| / ||ref||``, computed in float64 (complex kept complex).

    Examples
    --------
    >>> rel_rmse(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    0.0
    """
    a = np.asarray(a)
    ref = np.asarray(ref)
    dtype = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(ref) else np.float64
    a, ref = a.astype(dtype), ref.astype(dtype)
    return float(np.linalg.norm(a - ref) / np.linalg.norm(ref))


def worst_row(a: np.ndarray, ref: np.ndarray) -> tuple[float, int]:
    """The largest of the rows' relative RMSEs (``a[i]`` against ``ref[i]``), and its row.

    Examples
    --------
    >>> ref = np.ones((3, 4))
    >>> a = ref.copy(); a[1, 0] = 3.0
    >>> worst_row(a, ref)
    (1.0, 1)
    """
    errs = [rel_rmse(a[i], ref[i]) for i in range(ref.shape[0])]
    i = int(np.argmax(errs))
    return errs[i], i


def median_time(func: Callable[[], object], *, budget: float = 0.3, max_runs: int = 5) -> float:
    """Median wall time of ``func()`` in seconds, over 1 to ``max_runs`` calls.

    Stops early once the calls have taken ``budget`` seconds in all; the
    caller does the warm-up call.

    Examples
    --------
    >>> median_time(lambda: None) >= 0.0
    True
    """
    times: list[float] = []
    total = 0.0
    while len(times) < max_runs and (not times or total < budget):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
        total += times[-1]
    return statistics.median(times)


def log_frequencies(lo: float, hi: float, per_octave: int) -> np.ndarray:
    """Log-spaced frequencies from ``lo`` to ``hi`` (both included), ``per_octave`` to an octave.

    Examples
    --------
    >>> log_frequencies(4.0, 16.0, 2).round(3).tolist()
    [4.0, 5.657, 8.0, 11.314, 16.0]
    """
    n = round(per_octave * math.log2(hi / lo))
    return np.geomspace(lo, hi, n + 1)


# ----------------------------------------------------------------------------- the scalogram part


@dataclass(frozen=True)
class Record:
    """A recording and the band of its scalogram.

    ``freqs`` are in cycles per ``time_unit``; ``by_period`` draws and names
    them as periods (``1 / f``).
    """

    name: str
    title: str
    x: np.ndarray
    fs: float
    t0: float
    time_unit: str
    freqs: np.ndarray
    by_period: bool
    ylabel: str

    @property
    def time(self) -> np.ndarray:
        """The time of each sample."""
        return self.t0 + np.arange(self.x.size) / self.fs

    def describe(self, f: float) -> str:
        """A frequency in the record's terms: ``'4.0 yr'`` (a period) or ``'45.3 Hz'``."""
        return f"{1.0 / f:.3g} {self.time_unit}" if self.by_period else f"{f:.3g} Hz"

    @property
    def band(self) -> str:
        """The scalogram's band, e.g. ``'1-16 yr'`` or ``'4-64 Hz'``."""
        if self.by_period:
            return f"{1 / self.freqs.max():g}-{1 / self.freqs.min():g} {self.time_unit}"
        return f"{self.freqs.min():g}-{self.freqs.max():g} Hz"


def nino_record(per_octave: int = 8) -> Record:
    """Nino3 SST anomaly (``pywt.data.nino()`` less its seasonal cycle): periods 1 to 16 years.

    Examples
    --------
    >>> rec = nino_record()
    >>> rec.x.size, rec.fs, rec.band, round(float(rec.x.std(ddof=1)), 6)
    (264, 4.0, '1-16 yr', 1.0)
    """
    import pywt.data

    years, sst = pywt.data.nino()
    quarters = np.asarray(sst, dtype=np.float64).reshape(-1, 4)  # whole years, from January
    anomaly = (quarters - quarters.mean(axis=0)).ravel()
    return Record("nino3", "Nino3 SST anomaly, pywt.data.nino() less its seasonal cycle",
                  anomaly / anomaly.std(ddof=1), fs=4.0, t0=float(years[0]), time_unit="yr",
                  freqs=1.0 / log_frequencies(1.0, 16.0, per_octave)[::-1], by_period=True,
                  ylabel="SST anomaly (standardised)")


def ecg_record(per_octave: int = 8) -> Record:
    """ECG (``pywt.data.ecg()``), taken at 360 Hz: 4 to 64 Hz."""
    import pywt.data

    return Record("ecg", "ECG, pywt.data.ecg() (360 Hz assumed)",
                  pywt.data.ecg().astype(np.float64), fs=360.0, t0=0.0, time_unit="s",
                  freqs=log_frequencies(4.0, 64.0, per_octave), by_period=False,
                  ylabel="ECG (raw units)")


def exact_cwt(x: np.ndarray, sigmas, xi: float = XI, *, mode: str = "reflect",
              energy: float = 1.0, admissible: bool = True) -> np.ndarray:
    r"""The exact transform: direct convolution with the sampled Morlet wavelet.

    Row ``i`` is ``y[n] = sum_{|k| <= 13 sigma} psi[k] x[n - k]`` with
    ``psi[k] = A exp(-k^2 / (2 sigma^2)) (exp(i xi k / sigma) - kappa)``,
    ``sigma = sigmas[i]``, ``x`` extended by ``mode`` as in scipy.ndimage.

    Parameters
    ----------
    x : ndarray
        A real 1-D signal.
    sigmas : sequence of float
        Scales in samples.
    xi : float, optional
        Radians per standard deviation.
    mode : str, optional
        Border extension (``'reflect'``: sftwave's default; ``'constant'``:
        zero padding, as MNE and PyWavelets).
    energy : float, optional
        The wavelet's energy ``sum |psi|^2`` (in the continuous limit): 1 for
        sftwave, 2 for MNE, ``(2 pi B)^(-1/2)`` for PyWavelets' ``cmorB-C``.
    admissible : bool, optional
        Subtract ``kappa = exp(-xi^2/2)`` (sftwave; MNE's ``zero_mean``) or not
        (PyWavelets' ``cmor``).

    Returns
    -------
    ndarray
        Complex, shape ``(len(sigmas), x.size)``.

    Examples
    --------
    >>> x = np.cos(2 * np.pi * np.arange(400) / 20.0)     # period 20 samples
    >>> sigma = 6.0 * 20.0 / (2 * np.pi)                   # the scale centred on it
    >>> y = exact_cwt(x, [sigma])
    >>> bool(np.isclose(abs(y[0, 200]), np.pi**0.25 * np.sqrt(sigma / 2)))  # half the peak gain
    True
    """
    x = np.asarray(x, dtype=np.float64)
    kappa = math.exp(-0.5 * xi * xi) if admissible else 0.0
    # unit-energy constant of exp(-t^2/2)(exp(i xi t) - kappa): the paper's C_xi (1 when kappa = 0)
    c = (1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-0.75 * xi * xi)) ** -0.5 if admissible else 1.0
    out = np.empty((len(sigmas), x.size), dtype=np.complex128)
    for i, sigma in enumerate(sigmas):
        m = math.ceil(EXACT_HALF_WIDTH * sigma)
        k = np.arange(-m, m + 1) / sigma
        amp = math.sqrt(energy) * c / (math.pi**0.25 * math.sqrt(sigma))
        psi = amp * np.exp(-0.5 * k * k) * (np.exp(1j * xi * k) - kappa)
        out[i].real = ndi.convolve1d(x, psi.real, mode=mode)
        out[i].imag = ndi.convolve1d(x, psi.imag, mode=mode)
    return out


def mne_cwt(x: np.ndarray, freqs: np.ndarray, fs: float, xi: float = XI) -> np.ndarray | None:
    """MNE's ``tfr_array_morlet`` (complex, ``n_cycles = xi``, ``zero_mean``), or None.

    None if MNE is not installed, or if it refuses the signal (a wavelet,
    which MNE cuts at 5 standard deviations, longer than the signal).
    """
    # MNE and the packages it imports may emit deprecation or runtime warnings
    # of their own, which have nothing to do with this comparison and which
    # pytest's filterwarnings=error would turn into failures: ignore them here only.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from mne.time_frequency import tfr_array_morlet
        except ImportError:
            return None
        try:
            out = tfr_array_morlet(x[None, None, :], fs, np.asarray(freqs, float), n_cycles=xi,
                                   zero_mean=True, use_fft=True, output="complex", verbose=False)
        except ValueError:  # "At least one of the wavelets is longer than the signal"
            return None
    return out[0, 0]


def pywt_wavelet(xi: float = XI):
    """PyWavelets' complex Morlet ``cmor2-C``, ``C = xi / (2 pi)``: at scale ``sigma`` it is ours."""
    import pywt

    return pywt.ContinuousWavelet(f"cmor{PYWT_BANDWIDTH:g}-{xi / (2 * math.pi):.15g}")


def pywt_cwt(x: np.ndarray, sigmas, wavelet, method: str = "fft") -> np.ndarray:
    """``pywt.cwt`` of ``x`` at the scales ``sigmas`` (samples; exact for ``B = 2``)."""
    import pywt

    coefs, _ = pywt.cwt(x, np.asarray(sigmas, float), wavelet, method=method)
    return coefs


def _pywt_exact(x: np.ndarray, sigmas, wavelet) -> np.ndarray:
    """PyWavelets' own exact transform: its sampled ``cmor``, its energy, zero padding."""
    bandwidth, centre = float(wavelet.bandwidth_frequency), float(wavelet.center_frequency)
    return exact_cwt(x, sigmas, 2 * math.pi * centre, mode="constant",
                     energy=(2 * math.pi * bandwidth) ** -0.5, admissible=False)


@dataclass(frozen=True)
class ScalogramRow:
    """Accuracy of one record's scalogram: the worst rows against the exact transforms."""

    record: str
    n: int
    band: str
    rows: int
    err_sftwave: float
    worst_at: str
    err_mne: float | None
    err_pywt: float
    sftwave_vs_mne: float | None


def scalogram_row(rec: Record, xi: float = XI) -> tuple[ScalogramRow, np.ndarray]:
    """Score the record's scalogram; returns the row and sftwave's power ``|y|^2``.

    Examples
    --------
    >>> rec = ecg_record(per_octave=1)
    >>> row, power = scalogram_row(rec)
    >>> power.shape, row.err_sftwave < 1e-3
    ((5, 1024), True)
    """
    sigmas = frequency_to_scale(rec.freqs, rec.fs, xi)
    y = sftwave.cwt(rec.x, rec.freqs, rec.fs, xi=xi)
    err, i = worst_row(y, exact_cwt(rec.x, sigmas, xi))
    wavelet = pywt_wavelet(xi)
    err_pywt, _ = worst_row(pywt_cwt(rec.x, sigmas, wavelet), _pywt_exact(rec.x, sigmas, wavelet))
    err_mne = vs_mne = None
    y_mne = mne_cwt(rec.x, rec.freqs, rec.fs, xi)
    if y_mne is not None:
        err_mne, _ = worst_row(y_mne, exact_cwt(rec.x, sigmas, xi, mode="constant", energy=2.0))
        ours = math.sqrt(2.0) * sftwave.cwt(rec.x, rec.freqs, rec.fs, xi=xi, mode="constant")
        vs_mne, _ = worst_row(ours, y_mne)
    row = ScalogramRow(rec.name, rec.x.size, rec.band, rec.freqs.size, err, rec.describe(rec.freqs[i]),
                       err_mne, err_pywt, vs_mne)
    return row, y.real**2 + y.imag**2


def _sci(value: float | None) -> str:
    return "-" if value is None else f"{value:.1e}"


def format_scalogram_rows(rows: list[ScalogramRow]) -> str:
    """The accuracy rows as an aligned table (``-`` where a library could not run).

    Examples
    --------
    >>> row = ScalogramRow("ecg", 1024, "4-64 Hz", 33, 2e-4, "45.3 Hz", 4e-5, 0.3, 2e-4)
    >>> format_scalogram_rows([row]).splitlines()[1].split()
    ['ecg', '1024', '4-64', 'Hz', '33', '2.0e-04', '45.3', 'Hz', '4.0e-05', '3.0e-01', '2.0e-04']
    """
    head = (f"{'record':<7} {'n':>5} {'band':<9} {'rows':>4} {'sftwave':>8} {'(worst at)':<10} "
            f"{'MNE':>8} {'pywt':>8} {'sftwave vs MNE':>15}")
    lines = [head]
    for r in rows:
        lines.append(f"{r.record:<7} {r.n:>5} {r.band:<9} {r.rows:>4} {_sci(r.err_sftwave):>8} "
                     f"{r.worst_at:<10} {_sci(r.err_mne):>8} {_sci(r.err_pywt):>8} "
                     f"{_sci(r.sftwave_vs_mne):>15}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Timing:
    """One library's median time on the long signal."""

    library: str
    seconds: float


def timings(x: np.ndarray, freqs: np.ndarray, fs: float,
            xi: float = XI) -> tuple[list[Timing], float | None]:
    """Time sftwave, MNE and PyWavelets on ``x`` (zero padding, complex output).

    Returns the timings (sftwave first; MNE left out where it is not
    installed) and the worst row of ``sqrt(2) * sftwave`` against MNE.

    Examples
    --------
    >>> rec = ecg_record(per_octave=1)
    >>> rows, vs_mne = timings(rec.x, rec.freqs, rec.fs)
    >>> rows[0].library, rows[0].seconds > 0
    ('sftwave.cwt', True)
    """
    sigmas = frequency_to_scale(freqs, fs, xi)
    mne = "MNE tfr_array_morlet (FFT)"
    runs = {
        "sftwave.cwt": partial(sftwave.cwt, x, freqs, fs, xi=xi, mode="constant"),
        mne: partial(mne_cwt, x, freqs, fs, xi),
        "pywt.cwt cmor (FFT)": partial(pywt_cwt, x, sigmas, pywt_wavelet(xi), "fft"),
    }
    results = {name: run() for name, run in runs.items()}  # warm-up, and the results
    vs_mne = None
    if results[mne] is None:  # MNE not installed, or the signal too short for it
        del runs[mne]
    else:
        vs_mne, _ = worst_row(math.sqrt(2.0) * results["sftwave.cwt"], results[mne])
    rows = [Timing(name, median_time(run, budget=0.5, max_runs=3)) for name, run in runs.items()]
    return rows, vs_mne


def format_timings(rows: list[Timing]) -> str:
    """The timings as a table: median ms, and each library's time over sftwave's.

    Examples
    --------
    >>> print(format_timings([Timing("sftwave.cwt", 0.2), Timing("other", 0.1)]))
    library                        time (ms)  time / sftwave's
    sftwave.cwt                        200.0              1.00
    other                              100.0              0.50
    """
    lines = [f"{'library':<30} {'time (ms)':>9}  time / sftwave's"]
    for r in rows:
        lines.append(f"{r.library:<30} {1e3 * r.seconds:>9.1f} {r.seconds / rows[0].seconds:>17.2f}")
    return "\n".join(lines)


def plot_scalograms(records: list[Record], powers: list[np.ndarray], path: str | os.PathLike,
                    *, xi: float = XI, dpi: int = 120) -> Path:
    """Draw each record (above) and its power scalogram (below) side by side; write a PNG.

    Each scalogram is :func:`sftwave.plot.scalogram` into the figure's lower
    axes.  The power is divided by the signal's variance (white noise of the
    same variance has power 1 on average: the wavelet has unit energy) and
    drawn on a log colour scale over three decades.  The file is written
    atomically (a temporary file in the same directory, then renamed).

    Returns
    -------
    Path
        The absolute path of the PNG.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from sftwave.plot import scalogram

    fig = Figure(figsize=(6.2 * len(records), 6.4), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, len(records), sharex="col", squeeze=False,
                        gridspec_kw={"height_ratios": [1, 2.6]})
    for col, (rec, power) in enumerate(zip(records, powers)):
        top, bottom = axes[0, col], axes[1, col]
        top.plot(rec.time, rec.x, lw=0.7, color="0.15")
        top.set_ylabel(rec.ylabel)
        top.set_title(rec.title, fontsize=10)
        drawn = scalogram(power / np.var(rec.x), rec.freqs, rec.fs, xi=xi, t0=rec.t0,
                          y="period" if rec.by_period else "frequency",
                          time_unit=rec.time_unit, ax=bottom)
        drawn.colorbar.set_label("power |W|² / variance (white noise: 1)")
    fig.suptitle(f"sftwave.cwt Morlet scalograms: xi = {xi:g} (MNE's n_cycles), unit-energy wavelet, "
                 "mode 'reflect'; hatched: cone of influence", fontsize=10)
    return _save_atomically(fig, path, dpi)


def nino3_torrence_compo(path: str | os.PathLike, *, per_octave: int = 12, dpi: int = 120
                         ) -> Path:
    """Torrence & Compo's Fig. 1 on their Nino3 series, with :mod:`sftwave.analysis` and
    :func:`sftwave.plot.scalogram`: the power of the normalised anomaly at Fourier periods
    0.5 to 64 years with the paper's zero padding, the cone of influence hatched, the 95 %
    red-noise (lag-1 autocorrelation estimated) contours, and the global spectrum beside,
    with its 95 % level (time-averaged test over the times outside the cone).

    Writes the PNG atomically; returns its absolute path.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sftwave import analysis
    from sftwave.datasets import nino3
    from sftwave.plot import scalogram

    sst = nino3().sst
    x = (sst - sst.mean()) / sst.std()
    fs = 4.0
    periods = 0.5 * 2.0 ** (np.arange(7 * per_octave + 1) / per_octave)
    freqs = analysis.frequencies_for_periods(periods)
    W = sftwave.cwt(x, freqs, fs, mode="constant")
    alpha = analysis.ar1(x)[0]
    local, _ = analysis.significance(x, freqs, fs, alpha=alpha)
    outside = (~analysis.coi_mask(freqs, x.size, fs)).sum(axis=1)
    glob, _ = analysis.significance(x, freqs, fs, alpha=alpha, test="global",
                                    dof=np.maximum(outside, 1))
    drawn = scalogram(W, freqs, fs, t0=1871.0, y="fourier_period", time_unit="yr", signal=sst,
                      signal_label="Nino3 SST (°C)", significance=local, global_spectrum=True,
                      global_significance=glob,
                      title="Nino3 after Torrence & Compo (1998), Fig. 1: sftwave.cwt, xi = 6, "
                            f"zero padding; 95 % red noise (lag-1 {alpha:.2f})")
    try:
        return _save_atomically(drawn.figure, path, dpi)
    finally:
        plt.close(drawn.figure)


def _save_atomically(fig, path: str | os.PathLike, dpi: int) -> Path:
    """Save ``fig`` as PNG to ``path``, whole or not at all."""
    path = Path(path).resolve()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=dpi)
    return path


# ----------------------------------------------------------------------------- the Gaussian part


@dataclass(frozen=True)
class Row:
    """One line of the Gaussian part's output."""

    case: str
    sigma: float
    t_sftwave: float
    t_scipy: float
    vs_scipy: float
    err_sftwave: float
    err_scipy: float

    @property
    def speedup(self) -> float:
        """scipy's time over sftwave's."""
        return self.t_scipy / self.t_sftwave if self.t_sftwave > 0 else float("inf")


def _compare(case: str, sigma: float, ours: Callable[[], np.ndarray],
             theirs: Callable[[], np.ndarray], exact: np.ndarray) -> Row:
    """Warm up, time and score one case."""
    y_ours = ours()  # warm-up (numba compilation on first use) and result
    y_theirs = theirs()
    return Row(
        case=case,
        sigma=sigma,
        t_sftwave=median_time(ours),
        t_scipy=median_time(theirs),
        vs_scipy=rel_rmse(y_ours, y_theirs),
        err_sftwave=rel_rmse(y_ours, exact),
        err_scipy=rel_rmse(y_theirs, exact),
    )


def image_rows(image: np.ndarray, sigmas: tuple[float, ...],
               dtypes: tuple[type, ...] = (np.float32, np.float64)) -> list[Row]:
    """Blur ``image`` with :func:`sftwave.gaussian_filter` and with scipy.

    Examples
    --------
    >>> rows = image_rows(np.arange(64.0).reshape(8, 8), (1.0,), (np.float64,))
    >>> rows[0].case, rows[0].err_sftwave < 1e-3
    ('image float64', True)
    """
    rows = []
    for sigma in sigmas:
        exact = ndi.gaussian_filter(image.astype(np.float64), sigma, truncate=EXACT_TRUNCATE)
        for dtype in dtypes:
            x = image.astype(dtype)
            rows.append(_compare(
                f"image {np.dtype(dtype).name}", sigma,
                partial(sftwave.gaussian_filter, x, sigma),
                partial(ndi.gaussian_filter, x, sigma),
                exact,
            ))
    return rows


def signal_rows(signal: np.ndarray, sigmas: tuple[float, ...],
                orders: tuple[int, ...] = (0, 1, 2)) -> list[Row]:
    """Filter a 1-D ``signal`` (float64) with :func:`sftwave.gaussian_filter1d` and with scipy."""
    names = {0: "smooth", 1: "1st derivative", 2: "2nd derivative"}
    x = np.asarray(signal, dtype=np.float64)
    rows = []
    for sigma in sigmas:
        for order in orders:
            exact = ndi.gaussian_filter1d(x, sigma, order=order, truncate=EXACT_TRUNCATE)
            rows.append(_compare(
                f"1-D {names[order]}", sigma,
                partial(sftwave.gaussian_filter1d, x, sigma, order=order),
                partial(ndi.gaussian_filter1d, x, sigma, order=order),
                exact,
            ))
    return rows


def format_rows(rows: list[Row]) -> str:
    """The rows as an aligned text table (times in ms, errors in scientific notation).

    Examples
    --------
    >>> format_rows([Row("x", 2.0, 0.001, 0.002, 1e-7, 1e-6, 2e-6)]).splitlines()[1].split()
    ['x', '2', '1.00', '2.00', '2.0', '1.0e-07', '1.0e-06', '2.0e-06']
    """
    head = (f"{'case':<18} {'sigma':>5} {'sftwave':>10} {'scipy':>10} {'speed-up':>8} "
            f"{'vs scipy':>9} {'err sftw':>9} {'err scipy':>9}")
    lines = [head]
    for r in rows:
        lines.append(
            f"{r.case:<18} {r.sigma:>5g} {1e3 * r.t_sftwave:>10.2f} {1e3 * r.t_scipy:>10.2f} "
            f"{r.speedup:>8.1f} {r.vs_scipy:>9.1e} {r.err_sftwave:>9.1e} {r.err_scipy:>9.1e}"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- main


def _print_scalograms(records: list[Record], out: str | os.PathLike, dpi: int) -> None:
    """Part (a): the accuracy table and the figure."""
    scored = [scalogram_row(rec) for rec in records]
    print(f"(a) Morlet scalograms, sftwave.cwt(x, freqs, fs, xi={XI:g}), "
          f"{records[0].freqs.size} log-spaced frequencies each:")
    for rec in records:
        print(f"    {rec.name}: {rec.title}, {rec.x.size} samples at {rec.fs:g} per {rec.time_unit}, "
              f"{'periods' if rec.by_period else 'frequencies'} {rec.band}")
    print("    worst row's relative RMSE ||y_f - exact_f|| / ||exact_f||, each library against its own "
          "exact transform\n    (direct convolution with its sampled wavelet over |k| <= 13 sigma, "
          "its normalisation and border extension:\n    sftwave unit energy, mode 'reflect'; MNE "
          "tfr_array_morlet energy 2, zero padding; pywt.cwt 'cmor2-0.95493' (FFT), zero padding);\n"
          "    sftwave vs MNE = sqrt(2) * cwt(..., mode='constant') against MNE's output; "
          "'-': MNE refuses wavelets longer than the signal;\n"
          "    pywt's integrated-wavelet method samples its wavelet with jitter and shifts some scales "
          "by half a sample\n    (PyWavelets bug reports #531, #535)")
    rows = [row for row, _ in scored]
    print(format_scalogram_rows(rows))
    for row in rows:
        if row.err_sftwave > DOCUMENTED_ROW_ERROR:
            print(f"note: {row.record}'s row at {row.worst_at} is off by {row.err_sftwave:.1e}, more "
                  f"than the {DOCUMENTED_ROW_ERROR:g} that sftwave.cwt documents for its default tol")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("(no figure: it needs matplotlib: pip install 'sftwave[plot]')")
        return
    path = plot_scalograms(records, [power for _, power in scored], out, dpi=dpi)
    print(f"figure: {path}")
    tc = Path(out).with_name(Path(out).stem + TC_SUFFIX + Path(out).suffix)
    print(f"figure: {nino3_torrence_compo(tc, dpi=dpi)} (Torrence & Compo's Nino3, with "
          "sftwave.analysis and sftwave.plot)")


def _print_timings(ecg: np.ndarray, freqs: np.ndarray, fs: float, n: int, first: float) -> None:
    """Part (b): the libraries' times on the tiled ECG."""
    signal = np.resize(ecg, n)
    rows, vs_mne = timings(signal, freqs, fs)
    print(f"(b) time: pywt.data.ecg() ({ecg.size} samples) tiled end to end to {n} samples, "
          f"{freqs.size} frequencies {freqs.min():g}-{freqs.max():g} Hz, complex output, zero padding, "
          f"float64;\n    median of up to 3 runs after a warm-up; sftwave on {sftwave.get_workers()} "
          "thread(s), MNE and pywt on one (their FFTs)")
    print(format_timings(rows))
    if vs_mne is not None:
        print(f"sqrt(2) * sftwave against MNE on this signal: worst row {vs_mne:.1e}")
    else:
        print("(MNE is not installed: pip install mne, to compare with it)")
    print(f"the demo's first sftwave.cwt call (loads or compiles numba's kernels, designs the plans; "
          f"on the {ecg.size}-sample ECG): {1e3 * first:.0f} ms")


def main(quick: bool = False, out: str | os.PathLike | None = None) -> int:
    """Run the demo: print its tables and write the scalogram figure; returns the exit status.

    Parameters
    ----------
    quick : bool, optional
        A small variant for the tests: 4 frequencies an octave, the ECG tiled
        to 10 000 samples, a 128 x 128 crop of the image at sigma 2 and 8
        (float64), the ECG tiled to 20 000 samples at sigma 32, a coarse figure.
    out : path, optional
        Where to write the figure (default ``sftwave_demo_scalogram.png`` in
        the current directory).

    Returns
    -------
    int
        0, or 1 if PyWavelets (which ships the data) is not installed.
    """
    try:
        import pywt.data
    except ImportError:
        print("the demo needs PyWavelets for its data: pip install 'sftwave[demo]'")
        return 1

    per_octave = 4 if quick else 8
    records = [nino_record(per_octave), ecg_record(per_octave)]
    ecg = records[1]
    t0 = time.perf_counter()
    sftwave.cwt(ecg.x, ecg.freqs, ecg.fs, xi=XI)
    first = time.perf_counter() - t0

    print(f"sftwave {sftwave.__version__}, scipy {scipy.__version__}, numpy {np.__version__}, "
          f"PyWavelets {_version('PyWavelets')}, MNE {_version('mne')}, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print()
    _print_scalograms(records, DEFAULT_FIGURE if out is None else out, dpi=60 if quick else 120)
    print()
    _print_timings(ecg.x, ecg.freqs, ecg.fs, 10_000 if quick else 100_000, first)
    print()
    _print_gaussian(pywt.data.camera(), ecg.x, quick)
    return 0


def _version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``'not installed'``."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _print_gaussian(image: np.ndarray, ecg: np.ndarray, quick: bool) -> None:
    """Part (c): Gaussian smoothing against scipy.ndimage."""
    if quick:
        image, img_sigmas, dtypes = image[192:320, 192:320], (2.0, 8.0), (np.float64,)
        n_signal, sig_sigmas = 20_000, (32.0,)
    else:
        img_sigmas, dtypes = (8.0, 64.0), (np.float32, np.float64)
        n_signal, sig_sigmas = 200_000, (32.0, 512.0)
    signal = np.resize(ecg, n_signal)  # the ECG repeated end to end
    print("(c) Gaussian smoothing against scipy.ndimage")
    print(HEADER)
    print(f"pywt.data.camera(), {image.shape[0]} x {image.shape[1]} photograph: "
          "gaussian_filter(image, sigma), mode 'reflect'")
    print(format_rows(image_rows(image, img_sigmas, dtypes)))
    print(f"pywt.data.ecg() ({ecg.size} samples) tiled to {n_signal} samples: "
          "gaussian_filter1d(signal, sigma, order), float64")
    print(format_rows(signal_rows(signal, sig_sigmas)))
    print("Small sigma goes to a direct FIR (scipy's own kernel up to sigma about 2.5, then one "
          "as accurate as the bank, on every thread);\nbeyond it sftwave's time "
          "does not grow with sigma, and its result is closer to the exact one than scipy's\n"
          f"(it aims at {DEFAULT_TOL_FACTOR:g} times scipy's kernel error at truncate=4).")
