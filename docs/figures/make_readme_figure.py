"""Draw the README's figure: docs/figures/readme_nino3.png.

Torrence & Compo's (1998) classic example, computed and drawn by sftwave alone:
the wavelet power of the Nino3 sea-surface temperature anomaly (quarterly, 1871
to 1996, shipped in :mod:`sftwave.datasets`), with the cone of influence, the
95 % red-noise significance contours and the global wavelet spectrum.

Run it from the repository root (needs the ``plot`` extra)::

    .venv/bin/python docs/figures/make_readme_figure.py

The figure is small on purpose (a PNG of 96 colours, about 55 KB): it is the README's.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import sftwave  # noqa: E402
from sftwave import analysis, plot  # noqa: E402
from sftwave.datasets import nino3  # noqa: E402

OUT = Path(__file__).resolve().parent / "readme_nino3.png"


def main(out: Path = OUT) -> Path:
    data = nino3()
    x = (data.sst - data.sst.mean()) / data.sst.std()                 # normalised anomaly
    periods = 0.5 * 2.0 ** (np.arange(7 * 8 + 1) / 8)                 # 0.5 to 64 years
    freqs = analysis.frequencies_for_periods(periods)
    W = sftwave.cwt(x, freqs, data.fs, mode="constant")               # T&C's zero padding
    alpha = analysis.ar1(x)[0]
    local, _ = analysis.significance(x, freqs, data.fs, alpha=alpha)
    outside = (~analysis.coi_mask(freqs, x.size, data.fs)).sum(axis=1)
    glob, _ = analysis.significance(x, freqs, data.fs, alpha=alpha, test="global",
                                    dof=np.maximum(outside, 1))
    drawn = plot.scalogram(W, freqs, data.fs, t0=data.time[0], y="fourier_period",
                           time_unit="yr", signal=data.sst, signal_label="Nino3 SST (°C)",
                           significance=local, global_spectrum=True, global_significance=glob,
                           title="sftwave: Nino3 wavelet power, 95 % red-noise contours")
    fig = drawn.figure
    fig.set_size_inches(7.5, 4.2)
    # a palette of 96 colours (Pillow, a dependency of matplotlib) keeps the file small
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight", pad_inches=0.05)
    image = Image.open(buffer).convert("RGB").quantize(colors=96)
    image.save(out, format="png", optimize=True)
    return out


if __name__ == "__main__":
    path = main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KB)")
