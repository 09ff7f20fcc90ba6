"""
Scalogram of a WAV file
=======================

A scalogram of audio read from a WAV file: here a short synthetic recording (a
chirp, a steady tone and a few clicks) written with :mod:`scipy.io.wavfile` into
a temporary folder, then read back as any recording would be.  The power is
kept at 200 frames per second with ``decim``: sftwave computes the outputs only
at the kept samples.  The command line does the same from a shell::

    sftwave scalogram recording.wav --fmin 50 --fmax 4000 --decim 40
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy.io import wavfile

import sftwave
from sftwave.plot import scalogram

fs = 8000
t = np.arange(int(1.5 * fs)) / fs
rng = np.random.default_rng(0)
sound = (0.4 * np.sin(2 * np.pi * (200 * t + 600 * t**2))      # a chirp, 200 to 2000 Hz
         + 0.2 * np.sin(2 * np.pi * 440 * t) * (t > 0.5)       # a tone from 0.5 s
         + 0.01 * rng.standard_normal(t.size))
for click in (0.3, 0.9, 1.2):                                   # three clicks
    sound[int(click * fs)] += 0.9

folder = tempfile.TemporaryDirectory()
path = Path(folder.name) / "recording.wav"
wavfile.write(path, fs, (sound * 32767 / np.abs(sound).max()).astype(np.int16))

# %%
# Read it back and compute the power at 120 frequencies, 50 Hz to 4 kHz.

rate, samples = wavfile.read(path)
folder.cleanup()
x = samples.astype(np.float32) / 32768        # float32 in, float32 out
freqs = np.geomspace(50.0, 4000.0, 120)
decim = rate // 200                            # 200 frames per second
power = sftwave.cwt(x, freqs, rate, xi=12.0, output="power", decim=decim)
print(power.shape, power.dtype)

drawn = scalogram(power, freqs, rate, xi=12.0, decim=decim, signal=x, signal_label="WAV",
                  title="recording.wav: chirp, 440 Hz tone and clicks (xi = 12)")
plt.show()
