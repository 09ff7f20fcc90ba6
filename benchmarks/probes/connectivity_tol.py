"""What ``tol`` costs and buys in sftwave.connectivity, against MNE-Connectivity in the same run.

Run: ``.venv/bin/python benchmarks/probes/connectivity_tol.py [--quick]`` (about a minute).

On ``sftwave.datasets.eeg_epochs`` (20 epochs x 8 channels x 1,000 samples at
250 Hz; ``--quick``: 6 x 4 x 600) and 16 frequencies from 3 to 110 Hz, every
bivariate measure at once: ``spectral_connectivity_time`` at ``tol=1e-4`` and
``1e-5`` and ``spectral_connectivity_epochs`` (``mode='cwt_morlet'``) at
``1e-5`` and ``1e-6``, each against MNE-Connectivity's same call.  The calls
take turns over 3 rounds after one untimed call each; printed are the medians,
their ratio to MNE-Connectivity's, and the largest absolute difference of each
measure's scores.  Also the same call given MNE's ``Epochs`` (with a bad
channel) and the array of its good channels, to show that the object costs
nothing extra.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from functools import partial

import numpy as np


def _median(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(quick: bool) -> None:
    import mne
    import mne_connectivity as mnec

    from sftwave.connectivity import (
        EPOCH_METHODS,
        METHODS,
        spectral_connectivity_epochs,
        spectral_connectivity_time,
    )
    from sftwave.datasets import eeg_epochs

    mne.set_log_level("ERROR")
    warnings.simplefilter("ignore")
    shape = (6, 4, 600) if quick else (20, 8, 1000)
    rounds = 1 if quick else 3
    data = eeg_epochs(*shape, sfreq=250.0).data
    freqs = np.geomspace(3.0, 110.0, 16)
    kw_t = dict(method=list(METHODS), sfreq=250.0)
    kw_e = dict(method=list(EPOCH_METHODS), sfreq=250.0, mode="cwt_morlet",
                cwt_freqs=freqs[freqs > 5])
    print(f"eeg_epochs {shape}, {freqs.size} frequencies 3-110 Hz, medians of {rounds}")
    for name, peer, mine, kw, tols in [
            ("spectral_connectivity_time", mnec.spectral_connectivity_time,
             lambda **k: spectral_connectivity_time(data, freqs, output="array", **k), kw_t,
             (1e-4, 1e-5)),
            ("spectral_connectivity_epochs", mnec.spectral_connectivity_epochs,
             lambda **k: spectral_connectivity_epochs(data, output="array", **k), kw_e,
             (1e-5, 1e-6))]:
        args = (data, freqs) if name.endswith("time") else (data,)
        want = peer(*args, verbose=False, **kw)
        calls = {"mne_connectivity": partial(peer, *args, verbose=False, **kw)}
        for tol in tols:
            calls[f"tol={tol:g}"] = partial(mine, tol=tol, **kw)
        for fn in calls.values():
            fn()
        times = {k: [] for k in calls}
        for _ in range(rounds):
            for k, fn in calls.items():
                times[k].append(_median(fn, 1))
        t_peer = statistics.median(times["mne_connectivity"])
        print(f"{name}: MNE-Connectivity {t_peer:.3f} s")
        for tol in tols:
            t = statistics.median(times[f"tol={tol:g}"])
            got = mine(tol=tol, **kw)
            diffs = {m: float(np.nanmax(np.abs(a.get_data() - b)))
                     for m, a, b in zip(kw["method"], want, got)}
            print(f"  tol={tol:g}: {t:.3f} s ({t_peer / t:.1f}x); largest differences "
                  + ", ".join(f"{m} {d:.1e}" for m, d in diffs.items()))
    info = mne.create_info([f"c{i}" for i in range(shape[1])], 250.0, "eeg")
    epochs = mne.EpochsArray(data, info)
    epochs.info["bads"] = ["c1"]
    good = np.delete(data, 1, axis=1)
    t_obj = _median(lambda: spectral_connectivity_time(epochs, freqs, **kw_t), rounds)
    t_arr = _median(lambda: spectral_connectivity_time(good, freqs, output="array", **kw_t),
                    rounds)
    print(f"spectral_connectivity_time on Epochs with a bad channel {t_obj:.3f} s, on the array "
          f"of its good channels {t_arr:.3f} s")


if __name__ == "__main__":
    main("--quick" in sys.argv[1:])
