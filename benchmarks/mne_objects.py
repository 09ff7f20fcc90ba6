"""sftwave.mne.compute_tfr against MNE's own Epochs.compute_tfr, in the same run.

An Epochs of 40 epochs x 32 EEG channels x 1 s at 500 Hz (EEG-like data from
sftwave.datasets.eeg_epochs), 30 frequencies from 4 to 100 Hz with
``n_cycles = freqs / 2``: single-trial power (EpochsTFR), averaged power and
ITC (two AverageTFR), and the phase.  Each call timed ``--repeats`` times after
one warm-up call; the medians and their ratio are printed (MNE's time / sftwave's).

Run: ``PYTHONPATH=src python benchmarks/mne_objects.py [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def _median_time(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    import mne

    import sftwave.mne as smne
    from sftwave.datasets import eeg_epochs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    mne.set_log_level("error")
    d = eeg_epochs(n_epochs=40, n_channels=32, n_times=500, sfreq=500.0)
    info = mne.create_info(list(d.ch_names), d.sfreq, "eeg")
    epochs = mne.EpochsArray(d.data * 1e-6, info, tmin=d.times[0])
    freqs = np.geomspace(4.0, 100.0, 30)
    cases = {
        "power (EpochsTFR)": dict(),
        "average power + ITC": dict(average=True, return_itc=True),
        "phase (EpochsTFR)": dict(output="phase"),
    }
    print(f"{'call':<24}{'MNE (s)':>10}{'sftwave (s)':>13}{'ratio':>8}")
    for name, kw in cases.items():
        theirs = _median_time(lambda kw=kw: epochs.compute_tfr("morlet", freqs, n_cycles=freqs / 2,
                                                               **kw), args.repeats)
        ours = _median_time(lambda kw=kw: smne.compute_tfr(epochs, "morlet", freqs,
                                                           n_cycles=freqs / 2, **kw), args.repeats)
        print(f"{name:<24}{theirs:>10.3f}{ours:>13.3f}{theirs / ours:>8.1f}")


if __name__ == "__main__":
    main()
