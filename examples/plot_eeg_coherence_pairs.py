"""
Wavelet coherence of every pair of EEG channels
===============================================

Which channels share their alpha rhythm?  :func:`sftwave.coherence.wct_pairs`
computes :func:`sftwave.coherence.wct` of every pair of channels (in
mne-connectivity's order), transforming each channel
and smoothing its power once: only each pair's cross-spectrum is smoothed.  With
``significance=True`` the Monte-Carlo level of
:func:`sftwave.coherence.wct_significance` comes for each pair, drawn once per
distinct pair of the channels' (rounded) AR(1) coefficients.

The data are :func:`sftwave.datasets.eeg_epochs` (synthetic: a 1/f background
independent across channels, alpha bursts that occipital and central channels
share), six epochs end to end.  The matrix shows, per pair, the share of the
alpha band's time-frequency plane (outside the cone of influence) where the
coherence exceeds its 95 % level.
"""

import matplotlib.pyplot as plt
import numpy as np

from sftwave import analysis, coherence
from sftwave.datasets import eeg_epochs

eeg = eeg_epochs(n_epochs=6)
fs = eeg.sfreq
x = np.concatenate(list(eeg.data), axis=-1)           # (channels, time), epochs end to end
x = x - x.mean(axis=-1, keepdims=True)                  # the amplifier's DC offsets
c = x.shape[0]

freqs = 2.0 ** np.arange(np.log2(4.0), np.log2(30.0), 1 / 8)
# the channels' AR(1) coefficients to one decimal: the pairs share few Monte-Carlo runs
r = coherence.wct_pairs(x, freqs, fs, significance=True, mc_count=40, seed=0, ar1_decimals=1)
alphas = {round(analysis.ar1(v)[0], 1) for v in x}
print(f"{r.seeds.size} pairs, coherence {r.coherence.shape}, levels {r.significance.shape}, "
      f"AR(1) coefficients {sorted(alphas)}")

alpha = (freqs > 8.5) & (freqs < 11.5)
inside = ~analysis.coi_mask(freqs, x.shape[-1], fs)     # outside the cone of influence
share = np.full((c, c), np.nan)
for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
    above = r.coherence[p] > r.significance[p][:, None]
    share[i, j] = share[j, i] = above[alpha][inside[alpha]].mean()

fig, ax = plt.subplots(figsize=(5.5, 4.5), layout="constrained")
im = ax.imshow(share, vmin=0, vmax=1, cmap="viridis")
ax.set_xticks(range(c), eeg.ch_names)
ax.set_yticks(range(c), eeg.ch_names)
ax.set_title("share of the alpha band above the 95 % level")
fig.colorbar(im, ax=ax)
plt.show()

# %%
# The pairs that share the rhythm stand out against the rest.
order = np.argsort([-share[i, j] for i, j in zip(r.seeds, r.targets)])
for p in order[:3]:
    i, j = r.seeds[p], r.targets[p]
    print(f"{eeg.ch_names[i]}-{eeg.ch_names[j]}: {share[i, j]:.0%}")
print(f"median over all pairs: {np.nanmedian(share):.0%}")
