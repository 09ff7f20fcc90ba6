"""sftwave.plot.scalogram: what it draws, on matplotlib's Agg backend."""

from __future__ import annotations

import numpy as np
import pytest

import sftwave
from sftwave import analysis

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sftwave.plot import scalogram  # noqa: E402

FS = 100.0
FREQS = np.geomspace(1.0, 40.0, 24)
X = np.sin(2 * np.pi * 5 * np.arange(800) / FS)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_axes_units_and_cone():
    fig = scalogram(sftwave.cwt(X, FREQS, FS), FREQS, FS, signal=X, title="t")
    ax = fig.ax
    assert ax.get_yscale() == "log" and "frequency (Hz)" in ax.get_ylabel()
    assert "time (s)" in ax.get_xlabel()
    lo, hi = ax.get_ylim()
    assert np.isclose(lo, FREQS.min()) and np.isclose(hi, FREQS.max())
    assert fig.coi is not None and fig.signal_ax is not None and fig.global_ax is None
    # the colour scale: three decades below the largest power
    vmin, vmax = fig.mesh.norm.vmin, fig.mesh.norm.vmax
    assert np.isclose(vmax / vmin, 1e3)


def test_periods_significance_and_global_panel():
    x = np.random.default_rng(1).standard_normal(504)
    freqs = analysis.frequencies_for_periods(np.geomspace(0.5, 32, 40))
    power = sftwave.cwt(x, freqs, 4.0, mode="constant", output="power")
    sig, _ = analysis.significance(x, freqs, 4.0, alpha=0.0)
    fig = scalogram(power, freqs, 4.0, y="fourier_period", time_unit="yr", t0=1871.0,
                    significance=sig, global_spectrum=True, global_significance=sig)
    lo, hi = fig.ax.get_ylim()
    assert lo > hi                               # periods grow downwards, as in the paper
    assert "Fourier period (yr)" in fig.ax.get_ylabel()
    assert fig.contours is not None and fig.global_ax is not None
    assert fig.ax.get_xlim()[0] == 1871.0


def test_into_given_axes_amplitude_and_decim():
    _, ax = plt.subplots()
    W = sftwave.cwt(X, FREQS, FS, decim=4)
    fig = scalogram(W, FREQS, FS, ax=ax, kind="amplitude", decim=4, y="period")
    assert fig.ax is ax and fig.signal_ax is None
    assert np.isclose(ax.get_xlim()[1], (W.shape[1] - 1) * 4 / FS)
    assert "amplitude" in fig.colorbar.ax.get_ylabel()


def test_bad_arguments():
    W = sftwave.cwt(X, FREQS, FS)
    with pytest.raises(ValueError, match="shape"):
        scalogram(W[:3], FREQS, FS)
    with pytest.raises(ValueError, match="kind"):
        scalogram(W, FREQS, FS, kind="phase")
    with pytest.raises(ValueError, match="y must"):
        scalogram(W, FREQS, FS, y="scale")


def test_a_long_scalogram_is_drawn_by_block_maxima_keeping_a_click():
    """No more columns than twice the figure's pixels, and a one-sample click keeps its height
    (skipping samples would lose it; block maxima cannot)."""
    n, click = 200_000, 123_457
    rng = np.random.default_rng(0)
    power = 1e-3 * rng.random((len(FREQS), n))
    power[-1, click] = 7.0
    x = 0.01 * rng.standard_normal(n)
    x[click] = 3.0
    fig = scalogram(power, FREQS, FS, signal=x)
    limit = 2 * round(fig.figure.get_figwidth() * fig.figure.dpi)
    drawn = np.asarray(fig.mesh.get_array())
    assert drawn.shape[0] == len(FREQS) and drawn.shape[1] <= limit
    assert drawn.max() == 7.0
    # the click's column is where its block lies in time
    t = fig.mesh.get_coordinates()[0, :, 0]
    column = int(np.argmax(drawn.max(axis=0)))
    assert abs(t[column] - click / FS) <= n / FS / drawn.shape[1]
    (line,) = fig.signal_ax.get_lines()
    assert len(line.get_ydata()) <= limit and np.max(line.get_ydata()) == 3.0
    # the axes still span the whole signal
    assert np.isclose(fig.ax.get_xlim()[1], (n - 1) / FS)


def test_reduction_by_means_and_explicit_columns():
    power = np.zeros((len(FREQS), 10_000))
    power[3, 5_000] = 100.0
    fig = scalogram(power, FREQS, FS, max_columns=100, reduce="mean", coi=False)
    drawn = np.asarray(fig.mesh.get_array())
    assert drawn.shape[1] == 100 and np.isclose(drawn.max(), 1.0)    # 100 / a block of 100
    with pytest.raises(ValueError, match="reduce"):
        scalogram(power, FREQS, FS, reduce="median")
    with pytest.raises(ValueError, match="max_columns"):
        scalogram(power, FREQS, FS, max_columns=0)


def test_time_blocks_are_drawn_like_the_array_they_reduce():
    from sftwave.plot import TimeBlocks, reduce_time

    power = sftwave.cwt(np.random.default_rng(2).standard_normal(5000), FREQS, FS,
                        output="power")
    whole = scalogram(power, FREQS, FS, max_columns=300)
    blocks = reduce_time(power, 300)
    assert isinstance(blocks, TimeBlocks) and blocks.values.shape[1] <= 300
    reduced = scalogram(blocks, FREQS, FS, max_columns=300)
    assert np.array_equal(np.asarray(whole.mesh.get_array()), np.asarray(reduced.mesh.get_array()))
    assert np.array_equal(whole.mesh.get_coordinates(), reduced.mesh.get_coordinates())
    with pytest.raises(ValueError, match="global_spectrum"):
        scalogram(blocks, FREQS, FS, global_spectrum=True)


def test_reduce_time_leaves_nan_out():
    from sftwave.plot import reduce_time

    v = np.array([[np.nan, 1.0, 2.0, np.nan, np.nan, np.nan]])
    assert np.array_equal(reduce_time(v, 2).values, [[2.0, np.nan]], equal_nan=True)
    assert np.array_equal(reduce_time(v, 2, how="mean").values, [[1.5, np.nan]], equal_nan=True)
    with pytest.raises(ValueError, match="how"):
        reduce_time(v, 2, how="min")
