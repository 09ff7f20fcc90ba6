"""
Streaming a live signal
=======================

The SFT is a recursion, so it filters a signal as it arrives: chunk by chunk,
in chunks of any size, at a constant cost per sample and with a fixed latency.
:class:`sftwave.stream.GaussianFilter1D` and :class:`sftwave.stream.CWT` give
the batch functions' results, and a checkpoint resumes a stream elsewhere.
The "acquisition" here is a loop over blocks of a simulated two-channel
recording at 250 Hz.
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import sftwave
from sftwave.stream import CWT, GaussianFilter1D, load

fs = 250.0
rng = np.random.default_rng(0)
t = np.arange(int(20 * fs)) / fs
alpha = np.sin(2 * np.pi * 10 * t) * (np.abs(t - 12) < 3)          # 10 Hz from 9 s to 15 s
recording = np.stack([np.cumsum(rng.standard_normal(t.size)) * 0.1 + alpha,
                      rng.standard_normal(t.size) + 2 * alpha])    # (channels, samples)

smooth = GaussianFilter1D(sigma=25.0)
bands = CWT(freqs=[6.0, 10.0, 20.0], fs=fs, output="power", decim=5)
print(f"smoothing latency: {smooth.latency} samples ({smooth.latency / fs:.2f} s)")

# %%
# Feed the blocks as they come (any sizes), keep what comes out.  Halfway
# through, the streams are checkpointed to disk and resumed from the files, as
# a restarted process would.

smoothed, powers = [], []
edges = np.cumsum(rng.integers(1, 200, size=100))
blocks = np.split(recording, edges[edges < t.size], axis=-1)
folder = tempfile.TemporaryDirectory()
for i, block in enumerate(blocks):
    if i == len(blocks) // 2:
        smooth.save(Path(folder.name) / "smooth.npz")
        bands.save(Path(folder.name) / "bands.npz")
        smooth = load(Path(folder.name) / "smooth.npz")
        bands = CWT.load(Path(folder.name) / "bands.npz")
    smoothed.append(smooth.process(block))
    powers.append(bands.process(block))
smoothed.append(smooth.flush())  # the end, extended by mode
powers.append(bands.flush())
folder.cleanup()
smoothed = np.concatenate(smoothed, axis=-1)
powers = np.concatenate(powers, axis=-1)

# %%
# The stream equals the batch result:

batch_smooth = sftwave.gaussian_filter1d(recording, 25.0)
batch_power = sftwave.cwt(recording, [6.0, 10.0, 20.0], fs, output="power", decim=5)
print("smoothing:", np.abs(smoothed - batch_smooth).max())
print("power, relative:", np.abs(powers - batch_power).max() / np.abs(batch_power).max())

fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 4.5), sharex=True, layout="constrained")
ax1.plot(t, recording[0], lw=0.5, color="0.6", label="channel 0")
ax1.plot(t, smoothed[0], color="C0", label="streamed smoothing")
ax1.legend(loc="upper left", fontsize=8)
for k, f in enumerate((6.0, 10.0, 20.0)):
    ax2.plot(t[::5], powers[1, k], label=f"{f:.0f} Hz")
ax2.set(xlabel="time (s)", ylabel="power", title="channel 1, streamed band power")
ax2.legend(fontsize=8)
plt.show()
