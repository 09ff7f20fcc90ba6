"""Reproductions of the tables and figures of Yamashita & Wakahara's paper.

Each experiment is a module with a ``main()`` that prints its result and can
write it as JSON (and figures); the command line runs them as
``python -m sftwave paper NAME``.

``table1``
    Table 1: relative RMSE of the Fourier-series fits of the Gaussian and its
    first and second derivatives, SFT and ASFT, ``P = 2 .. 6``.
``morlet-error`` (:mod:`~sftwave.experiments.paper.morlet_error`)
    The Morlet wavelet's kernel error against the number of components, for
    the direct and multiplication methods, SFT and ASFT.
``timing`` (:mod:`~sftwave.experiments.paper.timing`)
    Section V-B: time against sigma and signal length, the proposed method
    against the truncated convolution, on every available engine.
"""

__all__ = ["table1", "morlet_error", "timing"]
