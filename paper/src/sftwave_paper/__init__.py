"""The workbench beside sftwave: its demo and the reproductions of Yamashita & Wakahara's paper.

Not part of the library (it is not in sftwave's wheel); it depends on
sftwave and studies it.  Run as ``python -m sftwave_paper NAME`` (or the
``sftwave-paper`` script):

``demo`` (:mod:`sftwave_paper.demo`)
    Scalograms of two real recordings against MNE, PyWavelets and the exact
    transform, and Gaussian filters against scipy: accuracy and time.
``table1`` (:mod:`sftwave_paper.table1`)
    Table 1: relative RMSE of the Fourier-series fits of the Gaussian and its
    first and second derivatives, SFT and ASFT, ``P = 2 .. 6``.
``morlet-error`` (:mod:`sftwave_paper.morlet_error`)
    Section V-A: the Morlet wavelet's kernel error against the number of
    components, for the direct and multiplication methods, SFT and ASFT.
``timing`` (:mod:`sftwave_paper.timing`)
    Section V-B: time against sigma and signal length, the proposed method
    against the truncated convolution, on every available engine.

The experiments use sftwave's public API, its plans (:mod:`sftwave.plans`:
the designs they study) and its engine registry (:mod:`sftwave.engines`),
never an engine's internals; :mod:`sftwave_paper.timer` is the one timing
helper of the workbench and of ``benchmarks/``.
"""

__version__ = "0.1.0"
