"""The scalogram figure: power (or amplitude) on a time-frequency plane, with its cone of influence.

:func:`scalogram` draws what a user of :func:`sftwave.cwt` draws by hand:
time and frequency (or period) axes with units, a log frequency axis, the
power on a log colour scale over a few decades, the cone of influence
hatched, optional significance contours, the signal above and the global
spectrum beside.  It returns the matplotlib objects, to change or save.
matplotlib is optional (``pip install 'sftwave[plot]'``) and imported here
only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import analysis

__all__ = ["scalogram", "ScalogramFigure", "Y_AXES"]

#: ``y`` values of :func:`scalogram`.
Y_AXES = ("frequency", "period", "fourier_period")


@dataclass
class ScalogramFigure:
    """What :func:`scalogram` drew: the figure, its axes and artists (None where not drawn)."""

    figure: Any
    ax: Any
    mesh: Any
    colorbar: Any
    coi: Any = None
    contours: Any = None
    signal_ax: Any = None
    global_ax: Any = None


def _matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError("sftwave.plot needs matplotlib: pip install 'sftwave[plot]'") from exc


def scalogram(values, freqs, fs: float = 1.0, *, xi=6.0, t0: float = 0.0, decim: int = 1,
              kind: str = "power", y: str = "frequency", time_unit: str = "s",
              freq_unit: str | None = None, signal=None, signal_label: str = "signal",
              coi: bool = True, significance=None, global_spectrum: bool = False,
              global_significance=None, decades: float = 3.0, cmap: str = "viridis",
              ax=None, title: str | None = None) -> ScalogramFigure:
    """Draw a scalogram: ``cwt``'s coefficients or power against time and frequency.

    Parameters
    ----------
    values : ndarray, shape (n_freqs, n_times)
        Complex coefficients (``cwt(..., output='complex')``) or power.
    freqs, fs, xi
        As given to :func:`sftwave.cwt`.
    t0 : float, optional
        Time of the first sample.
    decim : int, optional
        The ``decim`` the scalogram was computed with (times ``t0 + k decim / fs``).
    kind : {'power', 'amplitude'}
        What to draw (from complex ``values``; power ``values`` are drawn as
        they are for 'power', their square root for 'amplitude').
    y : {'frequency', 'period', 'fourier_period'}
        The vertical axis: ``freqs``, ``1 / freqs``, or Torrence & Compo's
        Fourier period (:func:`sftwave.analysis.fourier_period`); log scale,
        periods increasing downwards as in the paper.
    time_unit, freq_unit : str, optional
        Axis labels' units (``freq_unit`` defaults to ``'Hz'`` for seconds,
        else ``'1/<time_unit>'``).
    signal : array, optional
        The signal, drawn in a panel above (full rate: ``t0 + k / fs``).
    coi : bool
        Hatch the cone of influence (:func:`sftwave.analysis.coi_mask`).
    significance : array, optional
        Per row (or per coefficient) the power at the significance level
        (:func:`sftwave.analysis.significance`): contours where the power
        reaches it.
    global_spectrum : bool
        A panel beside with the time-averaged power outside the cone
        (:func:`sftwave.analysis.global_spectrum`); ``global_significance``
        (per row) drawn dashed in it.
    decades : float
        The colour scale spans this many decades below the largest value.
    ax : matplotlib Axes, optional
        Draw into it (no signal or global panel); default a new figure.

    Returns
    -------
    ScalogramFigure

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> fs = 100.0
    >>> x = np.sin(2 * np.pi * 5 * np.arange(1000) / fs)
    >>> freqs = np.geomspace(1, 40, 30)
    >>> fig = scalogram(sftwave.cwt(x, freqs, fs), freqs, fs, signal=x)
    >>> fig.ax.get_yscale(), fig.signal_ax is not None
    ('log', True)
    """
    _matplotlib()
    from matplotlib.colors import LogNorm, Normalize

    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    v = np.asarray(values)
    if v.ndim != 2 or v.shape[0] != f.size:
        raise ValueError(f"values must have shape (len(freqs), n_times) = ({f.size}, n); got "
                         f"{v.shape}")
    if kind not in ("power", "amplitude"):
        raise ValueError(f"kind must be 'power' or 'amplitude'; got {kind!r}")
    if y not in Y_AXES:
        raise ValueError(f"y must be one of {Y_AXES}; got {y!r}")
    power = np.abs(v) ** 2 if v.dtype.kind == "c" else v.astype(np.float64)
    img = power if kind == "power" else np.sqrt(power)
    n = img.shape[1]
    t = t0 + np.arange(n) * decim / fs
    yv = {"frequency": f, "period": 1.0 / f,
          "fourier_period": analysis.fourier_period(f, xi)}[y]
    freq_unit = freq_unit or ("Hz" if time_unit == "s" else f"1/{time_unit}")
    ylabel = {"frequency": f"frequency ({freq_unit})", "period": f"period ({time_unit})",
              "fourier_period": f"Fourier period ({time_unit})"}[y]

    fig, ax, signal_ax, global_ax = _layout(ax, signal is not None, global_spectrum)
    order = np.argsort(yv)
    top = np.nanmax(img) if np.isfinite(img).any() else 1.0
    norm = (LogNorm(vmin=top * 10.0 ** -decades, vmax=top) if top > 0
            else Normalize(vmin=0, vmax=1))
    mesh = ax.pcolormesh(t, yv[order], np.clip(img[order], top * 10.0 ** -decades, None),
                         shading="gouraud", cmap=cmap, norm=norm, rasterized=True)
    ax.set_yscale("log")
    ax.set_ylim(yv.min(), yv.max())
    if y != "frequency":
        ax.invert_yaxis()
    ax.set_ylabel(ylabel)
    _plain_log_ticks(ax, yv.min(), yv.max())
    ax.set_xlabel(f"time ({time_unit})")
    ax.set_xlim(t[0], t[-1] if n > 1 else t[0] + 1.0 / fs)
    bar = fig.colorbar(mesh, ax=ax, pad=0.01)
    bar.set_label("power |W|²" if kind == "power" else "amplitude |W|")
    coi_art = None
    mask = analysis.coi_mask(f, n * decim, fs, xi)[:, ::decim][:, :n] if coi else None
    if coi:
        coi_art = ax.contourf(t, yv[order], mask[order].astype(float), levels=[0.5, 1.5],
                              colors="none", hatches=["//"])
        ax.contour(t, yv[order], mask[order].astype(float), levels=[0.5], colors="white",
                   linewidths=0.8)
    contours = None
    if significance is not None:
        sig = np.asarray(significance, dtype=np.float64)
        sig = sig[:, None] if sig.ndim == 1 else sig
        ratio = power / sig
        contours = ax.contour(t, yv[order], ratio[order], levels=[1.0], colors="black",
                              linewidths=1.0)
    if signal_ax is not None:
        s = np.asarray(signal)
        signal_ax.plot(t0 + np.arange(s.size) / fs, s, lw=0.7, color="0.15")
        signal_ax.set_ylabel(signal_label)
        signal_ax.set_xlim(ax.get_xlim())
    if global_ax is not None:
        g = analysis.global_spectrum(power, mask)
        global_ax.plot(g[order], yv[order], color="0.15", label="global")
        if global_significance is not None:
            global_ax.plot(np.asarray(global_significance)[order], yv[order], "--",
                           color="0.4", label="significance")
        global_ax.set_xscale("log")
        global_ax.set_yscale("log")
        global_ax.set_ylim(ax.get_ylim())
        _plain_log_ticks(global_ax, yv.min(), yv.max())
        global_ax.set_xlabel("time-mean power")
        global_ax.tick_params(labelleft=False)
    if title:
        (signal_ax or ax).set_title(title, fontsize=10)
    return ScalogramFigure(fig, ax, mesh, bar, coi_art, contours, signal_ax, global_ax)


def _plain_log_ticks(ax, lo: float, hi: float) -> None:
    """Ticks at the powers of two (or of ten, over a wide range) in [lo, hi], as plain numbers."""
    from matplotlib.ticker import NullFormatter

    base = 2.0 if hi / lo <= 2.0 ** 12 else 10.0
    k = np.arange(np.floor(np.log(lo) / np.log(base)), np.ceil(np.log(hi) / np.log(base)) + 1)
    ticks = [v for v in base ** k if lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)]
    if len(ticks) >= 2:
        ax.set_yticks(ticks, [f"{v:g}" for v in ticks])
        ax.yaxis.set_minor_formatter(NullFormatter())


def _layout(ax, with_signal: bool, with_global: bool):
    """The figure and its axes: the scalogram, and the signal above and the spectrum beside."""
    if ax is not None:
        return ax.figure, ax, None, None
    import matplotlib.pyplot as plt

    rows = 2 if with_signal else 1
    cols = 2 if with_global else 1
    fig = plt.figure(figsize=(8.0 if with_global else 7.0, 6.0 if with_signal else 4.2),
                     layout="constrained")
    grid = fig.add_gridspec(rows, cols, height_ratios=[1, 2.6][-rows:] if rows == 2 else [1],
                            width_ratios=[4, 1][:cols] if cols == 2 else [1])
    ax = fig.add_subplot(grid[rows - 1, 0])
    signal_ax = fig.add_subplot(grid[0, 0], sharex=ax) if with_signal else None
    global_ax = fig.add_subplot(grid[rows - 1, 1]) if with_global else None
    return fig, ax, signal_ax, global_ax
