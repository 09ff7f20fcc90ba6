"""The scalogram figure: power (or amplitude) on a time-frequency plane, with its cone of influence.

:func:`scalogram` draws what a user of :func:`sftwave.cwt` draws by hand:
time and frequency (or period) axes with units, a log frequency axis, the
power on a log colour scale over a few decades, the cone of influence
hatched, optional significance contours, the signal above and the global
spectrum beside.  It returns the matplotlib objects, to change or save.
matplotlib is optional (``pip install matplotlib``; the ``plot`` extra) and imported here
only.

A figure never draws more time columns than it has pixels: a longer
scalogram is reduced along time by block maxima (:func:`reduce_time`), which
keep a one-sample click visible where skipping samples would lose it, and a
long signal is drawn as its per-column minimum and maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import analysis
from ._checks import plot as _checks
from ._checks.plot import reduce_time_request, scalogram_request, time_blocks_request

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

__all__ = ["scalogram", "ScalogramFigure", "TimeBlocks", "reduce_time", "time_block_edges",
           "Y_AXES", "REDUCTIONS"]

#: ``y`` values of :func:`scalogram`.
Y_AXES = _checks.Y_AXES
#: ``how`` values of :func:`reduce_time` (``reduce`` of :func:`scalogram`).
REDUCTIONS = _checks.REDUCTIONS


@dataclass
class TimeBlocks:
    """A scalogram reduced along time: column ``k`` summarises the times ``edges[k]:edges[k+1]``.

    :func:`scalogram` draws it as it draws the full array.

    Parameters
    ----------
    values : ndarray, shape (n_freqs, len(edges) - 1)
        One column per block of times.
    n_times : int
        The number of columns of the scalogram it was reduced from.
    edges : ndarray of int
        The blocks' edges, from 0 to ``n_times`` (:func:`time_block_edges`).
    how : {'max', 'mean'}
        The reduction of each block.

    See Also
    --------
    reduce_time : The function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> blocks = reduce_time(np.ones((3, 1000)), 300)
    >>> blocks.values.shape, blocks.n_times, blocks.edges[:3].tolist()
    ((3, 250), 1000, [0, 4, 8])
    """

    values: np.ndarray
    n_times: int
    edges: np.ndarray
    how: str = "max"


def time_block_edges(n_times: int, max_columns: int) -> np.ndarray:
    """Edges of at most ``max_columns`` equal blocks (the last one shorter) covering ``n_times``.

    Parameters
    ----------
    n_times : int
        The number of samples (time columns) to cover, at least 1.
    max_columns : int
        The most blocks, at least 1.

    Returns
    -------
    ndarray of int
        Increasing edges from 0 to ``n_times``: block ``k`` is ``edges[k]:edges[k+1]``.

    See Also
    --------
    reduce_time : The reduction over these blocks.

    Examples
    --------
    >>> time_block_edges(10, 4).tolist()
    [0, 3, 6, 9, 10]
    >>> time_block_edges(3, 100).tolist()
    [0, 1, 2, 3]
    """
    n_times, max_columns = time_blocks_request(n_times, max_columns)
    block = -(-n_times // max_columns)
    return np.append(np.arange(0, n_times, block), n_times)


def reduce_time(values: ArrayLike, max_columns: int, how: str = "max") -> TimeBlocks:
    """Reduce a scalogram along time (its last axis) to at most ``max_columns`` columns.

    Each column is the maximum (``how='max'``) or the mean (``'mean'``) of a
    block of consecutive times, NaN left out (NaN only where a whole block is
    NaN).  Maxima are the right choice for display: a one-sample click keeps
    its full height, where skipping samples (``[::step]``) would most likely
    miss it and means would flatten it by the block's length.

    Parameters
    ----------
    values : array_like, shape (n_freqs, n_times)
        Power or amplitude (real).
    max_columns : int
        The most columns kept; a scalogram no longer than that is kept whole.
    how : {'max', 'mean'}
        The reduction of each block.

    Returns
    -------
    TimeBlocks

    See Also
    --------
    time_block_edges : The blocks it reduces.
    scalogram : The figure that uses it.

    Examples
    --------
    >>> import numpy as np
    >>> p = np.zeros((2, 1000)); p[1, 637] = 5.0
    >>> r = reduce_time(p, 100)
    >>> r.values.shape, float(r.values.max()), int(r.values[1].argmax())
    ((2, 100), 5.0, 63)
    >>> float(reduce_time(p, 100, how="mean").values.max())
    0.5
    """
    v = reduce_time_request(values, how)
    edges = time_block_edges(v.shape[1], max_columns)
    if edges.size - 1 == v.shape[1]:
        return TimeBlocks(np.array(v, dtype=np.float64), v.shape[1], edges, how)
    v = v.astype(np.float64, copy=False)
    starts = edges[:-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "max":
            out = np.fmax.reduceat(v, starts, axis=1)
        else:
            finite = np.isfinite(v)
            total = np.add.reduceat(np.where(finite, v, 0.0), starts, axis=1)
            count = np.add.reduceat(finite, starts, axis=1)
            out = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return TimeBlocks(out, v.shape[1], edges, how)


def _envelope(s: np.ndarray, max_columns: int) -> tuple[np.ndarray, np.ndarray]:
    """A long signal as its per-block minimum and maximum: ``(sample positions, values)``.

    Each block gives two points (its minimum, then its maximum) at the block's
    centre, so a line through them draws the envelope; a signal no longer than
    ``max_columns`` is returned whole.
    """
    n = s.size
    if n <= max_columns:
        return np.arange(n, dtype=np.float64), s
    edges = time_block_edges(n, max(1, max_columns // 2))
    starts = edges[:-1]
    centre = (edges[:-1] + edges[1:] - 1) / 2.0
    with np.errstate(invalid="ignore"):
        lo = np.fmin.reduceat(s, starts)
        hi = np.fmax.reduceat(s, starts)
    return np.repeat(centre, 2), np.column_stack([lo, hi]).ravel()


def _coi_at(f: np.ndarray, xi: float | ArrayLike, fs: float, samples: np.ndarray, total: int
            ) -> np.ndarray:
    """:func:`sftwave.analysis.coi_mask` at given sample indices of a ``total``-sample signal."""
    xis = np.broadcast_to(np.asarray(xi, dtype=np.float64), f.shape)
    dist = (np.minimum(samples, total - 1 - samples) + 0.5) / fs
    scale = xis / (2.0 * np.pi * f)
    return np.sqrt(2.0) * scale[:, None] > dist[None, :]


@dataclass
class ScalogramFigure:
    """What :func:`scalogram` drew: the figure, its axes and artists (None where not drawn).

    Parameters
    ----------
    figure : matplotlib Figure
        The figure drawn into.
    ax : matplotlib Axes
        The scalogram's axes.
    mesh : matplotlib QuadMesh
        The scalogram itself (``pcolormesh``).
    colorbar : matplotlib Colorbar
        Its colour scale.
    coi : matplotlib artist, optional
        The hatched cone of influence.
    contours : matplotlib ContourSet, optional
        The significance contours.
    signal_ax, global_ax : matplotlib Axes, optional
        The panels of the signal (above) and of the global spectrum (beside).

    See Also
    --------
    scalogram : The function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> drawn = scalogram(np.ones((4, 50)), np.geomspace(1.0, 8.0, 4), 20.0, coi=False)
    >>> drawn.figure is drawn.ax.figure, drawn.coi is None, drawn.global_ax is None
    (True, True, True)
    """

    figure: Any
    ax: Any
    mesh: Any
    colorbar: Any
    coi: Any = None
    contours: Any = None
    signal_ax: Any = None
    global_ax: Any = None


def _matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError("sftwave.plot needs matplotlib: pip install matplotlib") from exc


def scalogram(values: ArrayLike | TimeBlocks, freqs: ArrayLike, fs: float = 1.0, *,
              xi: float | ArrayLike = 6.0, t0: float = 0.0, decim: int = 1,
              kind: str = "power", y: str = "frequency", time_unit: str = "s",
              freq_unit: str | None = None, signal: ArrayLike | None = None,
              signal_label: str = "signal", coi: bool = True, significance: ArrayLike | None = None,
              global_spectrum: bool = False, global_significance: ArrayLike | None = None,
              decades: float = 3.0, cmap: str = "viridis", ax: Axes | None = None,
              title: str | None = None, max_columns: int | None = None,
              reduce: str = "max") -> ScalogramFigure:
    """Draw a scalogram: ``cwt``'s coefficients or power against time and frequency.

    Parameters
    ----------
    values : ndarray, shape (n_freqs, n_times), or TimeBlocks
        Complex coefficients (``cwt(..., output='complex')``) or power, or
        power already reduced along time by :func:`reduce_time`.
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
    signal_label : str, optional
        The signal panel's vertical axis label.
    coi : bool
        Hatch the cone of influence (:func:`sftwave.analysis.coi_mask`).
    significance : array, optional
        Per row (or per coefficient) the power at the significance level
        (:func:`sftwave.analysis.significance`): contours where the power
        reaches it.
    global_spectrum : bool
        A panel beside with the time-averaged power outside the cone
        (:func:`sftwave.analysis.global_spectrum`).
    global_significance : array, optional
        Per row, the global spectrum's significance level, drawn dashed in
        that panel.
    decades : float
        The colour scale spans this many decades below the largest value.
    cmap : str, optional
        matplotlib's colour map.
    ax : matplotlib Axes, optional
        Draw into it (no signal or global panel); default a new figure.
    title : str, optional
        The scalogram's title.
    max_columns : int, optional
        The most time columns drawn (default: twice the figure's width in
        pixels at its dpi).  A longer scalogram is reduced along time by
        :func:`reduce_time`, never by skipping samples; the signal above is
        drawn as its minimum and maximum per column.
    reduce : {'max', 'mean'}
        The reduction: block maxima (default) keep a short event such as a
        click at its full power, which block means would dilute; the
        significance contours use the maxima of power / level in either case.
        The global spectrum is always the mean of the full-resolution power.

    Returns
    -------
    ScalogramFigure

    See Also
    --------
    sftwave.cwt : The coefficients it draws.
    sftwave.analysis.significance : The levels of its contours.
    sftwave.analysis.coi_mask : The cone of influence it hatches.
    reduce_time : How a long scalogram is reduced along time.

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
    blocks = values if isinstance(values, TimeBlocks) else None
    r = scalogram_request(blocks.values if blocks is not None else values, freqs, kind=kind, y=y,
                          reduce=reduce, max_columns=max_columns,
                          global_of_blocks=blocks is not None and global_spectrum)
    v, f = r.values, r.freqs
    fig, ax, signal_ax, global_ax = _layout(ax, signal is not None, global_spectrum)
    columns = (int(max_columns) if max_columns is not None
               else max(2, 2 * int(round(fig.get_figwidth() * fig.dpi))))
    full = None                                  # the full-resolution power, where given
    if blocks is None:
        full = np.abs(v) ** 2 if v.dtype.kind == "c" else v.astype(np.float64, copy=False)
        blocks = reduce_time(full, columns, reduce)
    n, edges = blocks.n_times, blocks.edges
    # each column at its block's centre; the first and last at the first and last time
    centre = (edges[:-1] + edges[1:] - 1) / 2.0
    if edges.size - 1 < n:
        centre[0], centre[-1] = 0.0, n - 1.0
    t = t0 + centre * decim / fs
    yv = {"frequency": f, "period": 1.0 / f, "fourier_period": analysis.fourier_period(f, xi)}[y]
    order = np.argsort(yv)
    mesh, bar = _draw_power(fig, ax, t, yv, order, blocks.values, kind, decades, cmap)
    _label_axes(ax, yv, y, time_unit, freq_unit, t0, t0 + (n - 1) * decim / fs, n, fs)
    coi_art = (_draw_coi(ax, t, yv, order, _coi_at(f, xi, fs, np.rint(centre * decim).astype(np.int64),
                                                   n * decim)) if coi else None)
    contours = None
    if significance is not None:
        contours = _draw_significance(ax, t, yv, order, significance, full, blocks.values, columns)
    if signal_ax is not None:
        _draw_signal(signal_ax, ax, signal, signal_label, columns, t0, fs)
    if global_ax is not None:
        assert full is not None                  # (global_spectrum refuses TimeBlocks above)
        _draw_global(global_ax, ax, full, f, yv, order, n, decim, fs, xi, coi, global_significance)
    if title:
        (signal_ax or ax).set_title(title, fontsize=10)
    return ScalogramFigure(fig, ax, mesh, bar, coi_art, contours, signal_ax, global_ax)


def _draw_power(fig: Any, ax: Axes, t: np.ndarray, yv: np.ndarray, order: np.ndarray,
                power: np.ndarray, kind: str, decades: float, cmap: str) -> tuple[Any, Any]:
    """The image of the power (or amplitude), ``decades`` below its top on a log scale, and
    its colour bar."""
    from matplotlib.colors import LogNorm, Normalize

    img = power if kind == "power" else np.sqrt(power)
    top = np.nanmax(img) if np.isfinite(img).any() else 1.0
    norm = (LogNorm(vmin=top * 10.0 ** -decades, vmax=top) if top > 0
            else Normalize(vmin=0, vmax=1))
    mesh = ax.pcolormesh(t, yv[order], np.clip(img[order], top * 10.0 ** -decades, None),
                         shading="gouraud", cmap=cmap, norm=norm, rasterized=True)
    bar = fig.colorbar(mesh, ax=ax, pad=0.01)
    bar.set_label("power |W|²" if kind == "power" else "amplitude |W|")
    return mesh, bar


def _label_axes(ax: Axes, yv: np.ndarray, y: str, time_unit: str, freq_unit: str | None,
                t0: float, t_end: float, n: int, fs: float) -> None:
    """The log frequency (or period) axis with plain ticks, and the time axis."""
    freq_unit = freq_unit or ("Hz" if time_unit == "s" else f"1/{time_unit}")
    ylabel = {"frequency": f"frequency ({freq_unit})", "period": f"period ({time_unit})",
              "fourier_period": f"Fourier period ({time_unit})"}[y]
    ax.set_yscale("log")
    ax.set_ylim(yv.min(), yv.max())
    if y != "frequency":
        ax.invert_yaxis()
    ax.set_ylabel(ylabel)
    _plain_log_ticks(ax, yv.min(), yv.max())
    ax.set_xlabel(f"time ({time_unit})")
    ax.set_xlim(t0, t_end if n > 1 else t0 + 1.0 / fs)


def _draw_coi(ax: Axes, t: np.ndarray, yv: np.ndarray, order: np.ndarray,
              mask: np.ndarray | None) -> Any:
    """The cone of influence hatched, with a white edge (None where there is no mask)."""
    if mask is None:
        return None
    art = ax.contourf(t, yv[order], mask[order].astype(float), levels=[0.5, 1.5],
                      colors="none", hatches=["//"])
    ax.contour(t, yv[order], mask[order].astype(float), levels=[0.5], colors="white",
               linewidths=0.8)
    return art


def _draw_significance(ax: Axes, t: np.ndarray, yv: np.ndarray, order: np.ndarray,
                       significance: ArrayLike, full: np.ndarray | None, power: np.ndarray,
                       columns: int) -> Any:
    """The contour where the power reaches the significance level (ratio 1)."""
    sig = np.asarray(significance, dtype=np.float64)
    sig = sig[:, None] if sig.ndim == 1 else sig
    ratio = reduce_time(full / sig, columns, "max").values if full is not None else power / sig
    return ax.contour(t, yv[order], ratio[order], levels=[1.0], colors="black", linewidths=1.0)


def _draw_signal(signal_ax: Axes, ax: Axes, signal: ArrayLike | None, label: str, columns: int,
                 t0: float, fs: float) -> None:
    """The signal's envelope above the scalogram, on its time axis."""
    where, s = _envelope(np.asarray(signal, dtype=np.float64).ravel(), columns)
    signal_ax.plot(t0 + where / fs, s, lw=0.7, color="0.15")
    signal_ax.set_ylabel(label)
    signal_ax.set_xlim(ax.get_xlim())


def _draw_global(global_ax: Axes, ax: Axes, full: np.ndarray, f: np.ndarray, yv: np.ndarray,
                 order: np.ndarray, n: int, decim: int, fs: float, xi: Any, coi: bool,
                 global_significance: ArrayLike | None) -> None:
    """The time-mean power outside the cone (and its significance) beside the scalogram."""
    full_mask = (analysis.coi_mask(f, n * decim, fs, xi)[:, ::decim][:, :n] if coi else None)
    g = analysis.global_spectrum(full, full_mask)
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


def _plain_log_ticks(ax: Axes, lo: float, hi: float) -> None:
    """Ticks at the powers of two (or of ten, over a wide range) in [lo, hi], as plain numbers."""
    from matplotlib.ticker import NullFormatter

    base = 2.0 if hi / lo <= 2.0 ** 12 else 10.0
    k = np.arange(np.floor(np.log(lo) / np.log(base)), np.ceil(np.log(hi) / np.log(base)) + 1)
    ticks = [v for v in base ** k if lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)]
    if len(ticks) >= 2:
        ax.set_yticks(ticks, [f"{v:g}" for v in ticks])
        ax.yaxis.set_minor_formatter(NullFormatter())


def _layout(ax: Axes | None, with_signal: bool, with_global: bool) -> tuple[Any, Axes, Any, Any]:
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
