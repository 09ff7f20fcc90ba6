"""Connectivity from epochs: sftwave.connectivity against MNE-Connectivity and MNE.

* ``spectral_connectivity_time`` (Morlet mode) against MNE-Connectivity's, on
  the users' workload (30 epochs x 16 channels x 2,000 samples at 250 Hz, 30
  frequencies, the 120 pairs of the lower triangle), with and without
  ``sm_times=0.5``;
* ``spectral_connectivity_epochs`` (Morlet mode: a score per pair, frequency
  and sample, across the epochs) against MNE-Connectivity's on the same epochs;
* ``csd_array_morlet`` against MNE's on the same epochs.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .common import alternate, anchor, load_average

#: The issue's target: the MNE-Connectivity workload at least this many times faster.
TARGET = 5.0


def _quiet(fn):
    def call():
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    return call


def connectivity(quick: bool) -> dict:
    """sftwave.connectivity against MNE-Connectivity's spectral_connectivity_time and
    spectral_connectivity_epochs and MNE's csd_array_morlet, alternating calls, medians and
    their ratios, the largest differences.

    Epochs ``sftwave.datasets.eeg_epochs`` (1/f background, alpha bursts,
    evoked responses, a DC offset per channel) 30 x 16 x 2000 at 250 Hz, 30
    frequencies 4-40 Hz, ``n_cycles=7``; the peers' ``n_jobs=1``; sftwave on
    one thread (``n_jobs=1``) and on all (``n_jobs=-1``), in the same rounds.
    Difference: the largest absolute difference of the scores (for the CSD,
    relative to ``sqrt(C_ii C_jj)``).
    """
    from sftwave.connectivity import (
        csd_array_morlet,
        spectral_connectivity_epochs,
        spectral_connectivity_time,
    )
    from sftwave.datasets import eeg_epochs

    res: dict = {"load_start": load_average(), "cases": [], "epochs": [], "csd": None}
    shape = (4, 8, 1000) if quick else (30, 16, 2000)
    n_freqs = 8 if quick else 30
    rounds = 1 if quick else 3
    res.update(shape=list(shape), n_freqs=n_freqs, rounds=rounds, target=TARGET)
    data = eeg_epochs(*shape, sfreq=250.0, seed=0).data
    freqs = np.linspace(4.0, 40.0, n_freqs)
    if anchor("MNE-Connectivity") is not None:
        from mne_connectivity import spectral_connectivity_time as peer

        cases = [("coh", 0.0), ("coh", 0.5)] + ([] if quick else [("plv", 0.5), ("wpli", 0.5)])
        for method, sm in cases:
            kw = dict(method=method, sfreq=250.0, sm_times=sm, mode="cwt_morlet", n_cycles=7.0)
            first: dict = {}

            def keep(name, fn):
                def call():
                    first.setdefault(name, fn())
                return call

            t = alternate({
                "sftwave": keep("sftwave", partial(spectral_connectivity_time, data, freqs,
                                                   n_jobs=1, output="array", **kw)),
                "sftwave_all": partial(spectral_connectivity_time, data, freqs, n_jobs=-1,
                                       output="array", **kw),
                "peer": keep("peer", _quiet(partial(peer, data, freqs, n_jobs=1, verbose=False,
                                                    **kw)))}, rounds)
            diff = float(np.nanmax(np.abs(first["sftwave"] - first["peer"].get_data())))
            case = {"method": method, "sm_times": sm, "sftwave_s": t["sftwave"]["median_s"],
                    "sftwave_all_s": t["sftwave_all"]["median_s"],
                    "peer_s": t["peer"]["median_s"], "max_difference": diff}
            case["peer_over_sftwave"] = case["peer_s"] / case["sftwave_s"]
            case["peer_over_sftwave_all"] = case["peer_s"] / case["sftwave_all_s"]
            res["cases"].append(case)
    if anchor("MNE-Connectivity") is not None:
        from mne_connectivity import spectral_connectivity_epochs as peer_epochs

        for method in ["coh"] + ([] if quick else ["plv", "wpli"]):
            kw = dict(method=method, sfreq=250.0, mode="cwt_morlet", cwt_freqs=freqs,
                      cwt_n_cycles=7.0)
            first = {}
            t = alternate({
                "sftwave": lambda: first.setdefault("sftwave", spectral_connectivity_epochs(
                    data, n_jobs=1, output="array", **kw)),
                "sftwave_all": partial(spectral_connectivity_epochs, data, n_jobs=-1,
                                       output="array", **kw),
                "peer": _quiet(lambda: first.setdefault("peer", peer_epochs(
                    data, n_jobs=1, verbose=False, **kw)))}, rounds)
            diff = float(np.nanmax(np.abs(first["sftwave"] - first["peer"].get_data())))
            case = {"method": method, "sftwave_s": t["sftwave"]["median_s"],
                    "sftwave_all_s": t["sftwave_all"]["median_s"],
                    "peer_s": t["peer"]["median_s"], "max_difference": diff}
            case["peer_over_sftwave"] = case["peer_s"] / case["sftwave_s"]
            case["peer_over_sftwave_all"] = case["peer_s"] / case["sftwave_all_s"]
            res["epochs"].append(case)
    if anchor("MNE") is not None:
        from mne.time_frequency import csd_array_morlet as mne_csd

        first = {}
        t = alternate({
            "sftwave": lambda: first.setdefault("sftwave", csd_array_morlet(
                data, 250.0, freqs, n_jobs=1, output="array")),
            "peer": _quiet(lambda: first.setdefault("peer", mne_csd(data, 250.0, freqs, n_jobs=1,
                                                                    verbose=False)))}, rounds)
        a = np.array([first["peer"].get_data(index=i) for i in range(n_freqs)])
        d = np.sqrt(np.einsum("fii->fi", a).real)
        diff = float(np.max(np.abs(first["sftwave"] - a) / (d[:, :, None] * d[:, None, :])))
        res["csd"] = {"sftwave_s": t["sftwave"]["median_s"], "peer_s": t["peer"]["median_s"],
                      "peer_over_sftwave": t["peer"]["median_s"] / t["sftwave"]["median_s"],
                      "max_difference": diff}
    res["load_end"] = load_average()
    return res
