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
