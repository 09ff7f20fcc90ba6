"""Reproductions of the tables and figures of Yamashita & Wakahara's paper.

Each experiment is a module with a ``main()`` that prints its result and can
write it as JSON; the command line runs them as ``python -m sftwave paper NAME``.

``table1``
    Table 1: relative RMSE of the Fourier-series fits of the Gaussian and its
    first and second derivatives, SFT and ASFT, ``P = 2 .. 6``.
"""

__all__ = ["table1"]
