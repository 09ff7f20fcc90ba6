"""Whole user scripts, unchanged, with and without ``python -m sftwave.patch``.

Each script (written to a temporary directory) is what a user of one anchor library
runs, with no line of sftwave in it:

* ``scipy``: a scipy.ndimage pipeline on 1024 x 1024 float32 frames: a smoothed
  background subtracted, then a blob response by ``gaussian_laplace`` at three scales;
* ``mne``: MNE's ``Epochs.compute_tfr('morlet', ...)`` of 40 epochs x 32 EEG channels x
  1 s at 500 Hz, 30 frequencies, then the average power and the ITC;
* ``pycwt``: pycwt's own Nino3 sample analysis (``cwt``, ``icwt``, ``significance``, the
  global spectrum) repeated over 8 copies of the series at 20 samples per month;
* ``skimage``: ``filters.gaussian`` of an RGB photo, the Hessian's eigenvalues and
  ``blob_log`` of ``skimage.data.coins()`` (303 x 384); ``skimage_2048``: the same steps on
  2048 x 2048 images (the photo and the coins tiled).

Each variant runs in a fresh process (imports and sftwave's kernel cache included:
what a user waits for), the median of ``--repeats`` runs, the two alternating; the
ratio is plain time over patched time (above 1: the switch made the script faster).
Each script prints a checksum of its results; the two must agree within the
documented bounds (printed side by side).

    python benchmarks/patch_script.py [--repeats 5] [--only scipy mne pycwt skimage]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = {
    "scipy": """
import numpy as np
import scipy.ndimage as ndi

rng = np.random.default_rng(0)
total = 0.0
for _ in range(4):
    frame = rng.standard_normal((1024, 1024)).astype(np.float32)
    flat = frame - ndi.gaussian_filter(frame, 40.0)
    for s in (4.0, 8.0, 16.0):
        total += float(np.abs(ndi.gaussian_laplace(flat, s)).max())
print(f"{total:.6g}")
""",
    "mne": """
import numpy as np
import mne

mne.set_log_level("ERROR")
rng = np.random.default_rng(0)
info = mne.create_info(32, 500.0, "eeg")
t = np.arange(500) / 500.0
data = rng.standard_normal((40, 32, 500)) + np.sin(2 * np.pi * 10 * t)
epochs = mne.EpochsArray(data * 1e-6, info, verbose=False)
freqs = np.geomspace(4, 80, 30)
power, itc = epochs.compute_tfr("morlet", freqs, n_cycles=freqs / 2, average=True,
                                return_itc=True)
print(f"{float(power.data.mean()):.6g} {float(itc.data.mean()):.6g}")
""",
    "pycwt": """
import os
import numpy as np
import pycwt as wavelet

path = os.path.join(os.path.dirname(wavelet.__file__), "sample", "sst_nino3.dat")
base = np.genfromtxt(path, skip_header=19)
total = 0.0
for k in range(8):
    dat = np.interp(np.arange(base.size * 5) / 5, np.arange(base.size), np.roll(base, 7 * k))
    dt = 0.25 / 5
    std = dat.std()
    norm = (dat - dat.mean()) / std
    mother = wavelet.Morlet(6)
    alpha, _, _ = wavelet.ar1(dat)
    wave, scales, freqs, coi, fft, fftfreqs = wavelet.cwt(norm, dt, 1 / 12, 2 * dt, 7 * 12 + 5 * 12,
                                                          mother)
    iwave = wavelet.icwt(wave, scales, dt, 1 / 12, mother) * std
    power = np.abs(wave) ** 2
    signif, _ = wavelet.significance(1.0, dt, scales, 0, alpha, significance_level=0.95,
                                     wavelet=mother)
    glbl, _ = wavelet.significance(std ** 2, dt, scales, 1, alpha, significance_level=0.95,
                                   dof=dat.size - scales, wavelet=mother)
    total += float(power.mean() + np.abs(iwave).mean() + signif.mean() + glbl.mean())
print(f"{total:.6g}")
""",
    "skimage": """
import numpy as np
from skimage import data, feature, filters

photo = data.astronaut()
smooth = filters.gaussian(photo, sigma=8, channel_axis=-1)
coins = data.coins()
H = feature.hessian_matrix(coins, sigma=3, use_gaussian_derivatives=False)
ev = feature.hessian_matrix_eigvals(H)
blobs = feature.blob_log(coins, min_sigma=3, max_sigma=20, num_sigma=10, threshold=0.05)
print(f"{float(smooth.mean()):.6g} {float(np.abs(ev).mean()):.6g} {len(blobs)}")
""",
    "skimage_2048": """
import numpy as np
from skimage import data, feature, filters

photo = np.tile(data.astronaut(), (4, 4, 1))                  # 2048 x 2048 x 3
smooth = filters.gaussian(photo, sigma=8, channel_axis=-1)
coins = np.tile(data.coins(), (7, 6))[:2048, :2048]           # 2048 x 2048
H = feature.hessian_matrix(coins, sigma=3, use_gaussian_derivatives=False)
ev = feature.hessian_matrix_eigvals(H)
blobs = feature.blob_log(coins, min_sigma=3, max_sigma=20, num_sigma=10, threshold=0.05)
print(f"{float(smooth.mean()):.6g} {float(np.abs(ev).mean()):.6g} {len(blobs)}")
""",
}
#: The package each script needs.
NEEDS = {"scipy": "scipy", "mne": "mne", "pycwt": "pycwt", "skimage": "skimage",
         "skimage_2048": "skimage"}
#: The switch's target of each script.
TARGET = {"skimage_2048": "skimage"}


def run(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    return time.perf_counter() - t0, out


def measure(name: str, folder: Path, repeats: int) -> dict:
    script = folder / f"{name}_script.py"
    script.write_text(SCRIPTS[name])
    plain_cmd = [sys.executable, str(script)]
    patched_cmd = [sys.executable, "-W", "ignore::UserWarning", "-m", "sftwave.patch", "--only",
                   TARGET.get(name, name), str(script)]
    run(plain_cmd)                              # the anchor's own caches (numba, MNE's...)
    run(patched_cmd)                            # sftwave's kernels compiled once
    plain, patched = [], []
    for _ in range(repeats):
        t, out_plain = run(plain_cmd)
        plain.append(t)
        t, out_patched = run(patched_cmd)
        patched.append(t)
    return {"plain": statistics.median(plain), "patched": statistics.median(patched),
            "out_plain": out_plain, "out_patched": out_patched}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=list(SCRIPTS), default=list(SCRIPTS))
    args = parser.parse_args()
    print("| script | plain (s) | patched (s) | plain / patched | checksum plain | "
          "checksum patched |\n| --- | ---: | ---: | ---: | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only:
            if importlib.util.find_spec(NEEDS[name]) is None:
                print(f"| {name} | not installed | | | | |")
                continue
            m = measure(name, Path(tmp), args.repeats)
            print(f"| {name} | {m['plain']:.2f} | {m['patched']:.2f} | "
                  f"{m['plain'] / m['patched']:.2f} | {m['out_plain']} | {m['out_patched']} |",
                  flush=True)
    print(f"\nmedians of {args.repeats} fresh processes each, the two variants alternating")


if __name__ == "__main__":
    main()
