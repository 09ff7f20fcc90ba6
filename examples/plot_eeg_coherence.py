"""
Wavelet coherence of two EEG channels, with significance and phase arrows
=========================================================================

Where in time and frequency do two channels share their oscillations, and with
what phase?  :func:`sftwave.coherence.wct` computes the squared wavelet
coherence of Torrence & Webster (1999) and Grinsted et al. (2004): the
cross-spectrum and both power spectra smoothed in time by a Gaussian as wide as
each scale (exact, no circular wrap) and across scales by a boxcar of 0.6
octaves.  :func:`sftwave.coherence.wct_significance` gives the level that pairs
of independent AR(1) series with the channels' lag-1 autocorrelations exceed
5 % of the time, by Monte Carlo, seeded and cached on disk.

The data are :func:`sftwave.datasets.eeg_epochs` (synthetic, with a 1/f
background independent across channels and alpha bursts that occipital and
central channels share), eight epochs end to end.
"""

import matplotlib.pyplot as plt
import numpy as np

from sftwave import analysis, coherence
from sftwave.datasets import eeg_epochs

eeg = eeg_epochs(n_epochs=8)
fs = eeg.sfreq
x = eeg.data[:, eeg.ch_names.index("O1")].ravel()
y = eeg.data[:, eeg.ch_names.index("Cz")].ravel()
x, y = x - x.mean(), y - y.mean()                  # the amplifier's DC offsets
t = np.arange(x.size) / fs

freqs = 2.0 ** np.arange(np.log2(3.0), np.log2(40.0), 1 / 12)   # 12 rows per octave
r = coherence.wct(x, y, freqs, fs)
level = coherence.wct_significance(analysis.ar1(x)[0], analysis.ar1(y)[0], freqs, fs,
                                   n=x.size, mc_count=60, seed=0)

fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
mesh = ax.pcolormesh(t, freqs, r.coherence, shading="nearest", cmap="viridis", vmin=0, vmax=1)
ax.contour(t, freqs, r.coherence / level[:, None], [1.0], colors="w", linewidths=0.8)
ax.fill_between(t, 1 / r.coi, freqs[0], color="k", alpha=0.35, lw=0)   # the cone of influence
sig = r.coherence > level[:, None]
inside = ~analysis.coi_mask(freqs, x.size, fs)            # outside the cone of influence
ti, fi = np.meshgrid(np.arange(0, t.size, 40), np.arange(0, freqs.size, 4))
keep = (sig & inside)[fi, ti] & (freqs[fi] < 20)          # arrows where significant, below 20 Hz
ax.quiver(t[ti][keep], freqs[fi][keep], np.cos(r.phase[fi, ti][keep]),
          np.sin(r.phase[fi, ti][keep]), scale=60, width=0.002, color="w")
ax.set_yscale("log")
ax.set_ylim(freqs[0], freqs[-1])
ax.set_yticks([4, 6, 8, 10, 15, 20, 30], labels=["4", "6", "8", "10", "15", "20", "30"])
ax.minorticks_off()
ax.set_xlabel("time (s), eight epochs end to end")
ax.set_ylabel("frequency (Hz)")
ax.set_title("O1 and Cz: squared coherence, 95 % level (white), phase (arrows: right = in phase)")
fig.colorbar(mesh, ax=ax, label="R²")
plt.show()

# %%
# The shared alpha rhythm stands out: the share of the plane above the 95 %
# level near 10 Hz against elsewhere (outside the cone of influence).
alpha = (freqs > 8.5) & (freqs < 11.5)
print(f"above the 95 % level: {sig[alpha][inside[alpha]].mean():.0%} of the alpha band, "
      f"{sig[~alpha][inside[~alpha]].mean():.0%} elsewhere")
print(f"median phase in the significant alpha cells: "
      f"{np.degrees(np.median(r.phase[alpha][sig[alpha]])):.0f} degrees")
