"""The comparisons behind ``benchmarks/compare.py``: sftwave against the anchor libraries.

* :mod:`.common`: the machine, the anchors (which are installed, which are
  skipped and why), the scheduling of timed calls (on
  :func:`sftwave_paper.timer.measure`, the one timing helper), number and
  table formatting;
* :mod:`.gaussian`: Gaussian smoothing and derivatives against scipy.ndimage,
  OpenCV and SimpleITK, the FIR/bank crossover, the bank methods, float32
  drift, non-finite input;
* :mod:`.cwt`: the Morlet CWT against fCWT, ssqueezepy, PyWavelets, pycwt and
  MNE, and the users' workloads (first scalogram, EEG epochs, long signal,
  audio, plan design);
* :mod:`.dog`: the DOG (Mexican hat) CWT against pycwt and PyWavelets;
* :mod:`.features`: the scale-space image features against scikit-image;
* :mod:`.synchrosqueeze`: the synchrosqueezed transform against ssqueezepy;
* :mod:`.superlet`: the superlet transform against Syncopy's;
* :mod:`.peaks`: scipy.signal's ``find_peaks_cwt`` and scipy 1.14's ``cwt`` against
  ``sftwave.signal``;
* :mod:`.integrations`: MNE's ``tfr_array_morlet`` drop-in and its first call, the stream
  classes, dask on a local cluster, ``import sftwave``;
* :mod:`.connectivity`: MNE-Connectivity's ``spectral_connectivity_time`` and
  ``spectral_connectivity_epochs`` and MNE's
  ``csd_array_morlet`` against sftwave.connectivity;
* :mod:`.coherence`: wavelet coherence, the cross-wavelet transform and the
  Monte-Carlo significance against pycwt, and the coherence of every pair of
  many channels (``wct_pairs``) against loops of sftwave's and pycwt's ``wct``;
* :mod:`.sizes`: warm calls from 100 samples (32 x 32 images) up against scipy, pycwt and
  MNE: where a call's fixed cost stops mattering;
* :mod:`.fresh_process`: a script making one typical call, caches warm, as a whole fresh
  process, against the same script with the anchor;
* :mod:`.first_call`: the very first call after installing, empty caches, whole
  processes, against the anchors';
* :mod:`.report`: docs/benchmarks.md from the sections' JSON.

Every section is a function ``run(quick) -> dict`` (JSON-ready) listed in
:data:`SECTIONS`, with its renderer in :mod:`.report`.
"""

from __future__ import annotations

from . import (
    coherence,
    connectivity,
    cwt,
    dog,
    features,
    first_call,
    fresh_process,
    gaussian,
    integrations,
    peaks,
    sizes,
    superlet,
    synchrosqueeze,
)

#: name -> (function(quick) -> dict, one line on what it measures); the page's order is report.ORDER.
SECTIONS = {
    "reference_check": (gaussian.reference_check,
                        "the exact Gaussian reference against scipy at truncate=12"),
    "gaussian1d": (gaussian.gaussian1d, "gaussian_filter1d against scipy, sigma 2..2048, orders 0-2"),
    "flat_sigma": (gaussian.flat_sigma,
                   "gaussian_filter1d of 1e6 float64 at sigma 8..8192 next to a memcpy and scipy"),
    "gaussian2d": (gaussian.gaussian2d,
                   "gaussian_filter of an image against scipy, OpenCV and SimpleITK"),
    "everyday_gaussian": (gaussian.everyday,
                          "everyday images and volumes (uint8, uint16, strided, 3-D) against "
                          "scipy and OpenCV"),
    "derivatives": (gaussian.derivatives,
                    "gaussian_laplace and gaussian_gradient_magnitude against scipy"),
    "nonfinite": (gaussian.nonfinite, "the finite check, one NaN and nan_policy='omit'"),
    "crossover": (gaussian.crossover, "direct FIR against the bank at small sigma"),
    "bank_methods": (gaussian.bank_methods, "every bank method with the SFT and the ASFT"),
    "float32_drift": (gaussian.float32_drift, "block errors of a long float32 signal (not a timing)"),
    "gaussian_first_call": (gaussian.first_call,
                            "import, plan and first calls in fresh processes, cold and cached"),
    "first_call": (first_call.run,
                   "the very first call after installing (empty caches), whole process, against "
                   "the anchor's"),
    "cwt": (cwt.cwt, "the Morlet CWT against fCWT, ssqueezepy, PyWavelets, pycwt and MNE"),
    "cwt_first_call": (cwt.cwt_first_call, "each tool's first and second call, peak memory"),
    "cwt_few_scales": (cwt.few_scales, "the lane engine against line by line for few scales"),
    "first_scalogram": (cwt.first_scalogram,
                        "a script's first scalogram: whole fresh processes, every tool"),
    "fresh_process": (fresh_process.fresh_process,
                      "a one-call script, caches warm, whole fresh processes, against the anchor's"),
    "eeg": (cwt.eeg, "EEG epochs against MNE's tfr_array_morlet, 1 and 2 threads"),
    "long_signal": (cwt.long_signal, "N = 1e5, 200 frequencies against fCWT and the output floor"),
    "audio": (cwt.audio, "10 s of audio, power at 100 frames/s, against fCWT and ssqueezepy"),
    "design": (cwt.design, "plan design with no cache, xi 1..20"),
    "mne_dropin": (integrations.mne_dropin, "sftwave.mne.tfr_array_morlet against MNE's, every output"),
    "first_tfr": (integrations.first_tfr,
                  "tfr_array_morlet's first call in a fresh process, empty plan cache, against MNE"),
    "stream": (integrations.stream, "stream throughput against the batch functions; long-run drift"),
    "dask": (integrations.dask_scaling, "sftwave.dask on a 2-worker LocalCluster"),
    "import_time": (integrations.import_time, "import sftwave against scipy.ndimage, numba, numpy"),
    "features": (features.features,
                 "scale-space image features (Hessian, structure tensor, DoG, Frangi) against "
                 "scikit-image"),
    "multiscale_features": (features.multiscale,
                            "multiscale_basic_features against scikit-image's: camera and a "
                            "volume, the error per feature"),
    "synchrosqueeze": (synchrosqueeze.synchrosqueeze,
                       "ssq_cwt against ssqueezepy's ssq_cwt: time, ridges, peak memory"),
    "peaks": (peaks.peaks,
              "find_peaks_cwt (widths 1-200, 20,000 samples) and the Ricker cwt against scipy"),
    "superlet": (superlet.superlet,
                 "the adaptive superlet (orders 1-30) against Syncopy's, and the cost per order"),
    "connectivity": (connectivity.connectivity,
                     "spectral_connectivity_time, spectral_connectivity_epochs and "
                     "csd_array_morlet against MNE-Connectivity "
                     "and MNE"),
    "short_series": (cwt.short_series,
                     "pycwt's use, N = 4,000 with 133 scales and longer: cwt, icwt, the whole "
                     "Torrence & Compo analysis"),
    "dog": (dog.dog, "the Mexican hat (DOG m=2) CWT against pycwt's DOG(2) and PyWavelets' 'mexh'"),
    "coherence": (coherence.coherence,
                  "wavelet coherence, xwt and the Monte-Carlo significance against pycwt"),
    "coherence_pairs": (coherence.coherence_pairs,
                        "wavelet coherence of every pair of 16 channels: wct_pairs against "
                        "loops of sftwave's and pycwt's wct"),
    "sizes": (sizes.sizes, "warm calls from 100 samples and 32 x 32 up against scipy, pycwt "
                           "and MNE"),
}
