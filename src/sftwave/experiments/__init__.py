"""Experiments outside the core: the demo and the reproductions of the paper.

``demo``
    ``python -m sftwave demo``: scalograms of two recordings against MNE,
    PyWavelets and the exact transform, and Gaussian filters against scipy.
``paper``
    ``python -m sftwave paper NAME``: the paper's Table 1, its Morlet error
    figures and its timing (section V-B).

They import only the public API, :mod:`sftwave.plans` (the designs they
study) and the engine registry (:mod:`sftwave.engines`: which engines can run
here); never an engine's internals.
"""
