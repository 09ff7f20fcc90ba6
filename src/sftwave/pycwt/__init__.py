"""pycwt's public API, same signatures and returns: switching is one line::

    import sftwave.pycwt as wavelet          # was: import pycwt as wavelet

``cwt`` (its 6-tuple), ``icwt``, ``significance``, ``xwt``, ``wct``,
``wct_significance``, ``ar1``, ``ar1_spectrum``, ``rednoise`` and the mothers
``Morlet``, ``Paul``, ``DOG``, ``MexicanHat`` (with pycwt's attributes and
methods).  pycwt need not be installed.

How the numbers are computed.  pycwt defines its wavelets by their Fourier
transforms, evaluated on the grid of the series zero-padded to the next
power of two (a circular convolution over the padded length), and cut at the
Nyquist frequency.  :func:`cwt` here computes exactly that definition, on
every row and for every mother, by FFT, forming the product only where the
wavelet's transform is above ``1e-18`` of its peak: pycwt's numbers to
rounding (measured: 1e-15 relative on Nino3), and faster than pycwt's full
products (``benchmarks/pycwt_dropin.py``).  sftwave's own :func:`sftwave.cwt`
keeps its sampled wavelet: it agrees with pycwt's to its ``tol`` (about 1e-4)
on the rows of Fourier period at least 3.5 samples; below, pycwt's wavelet is
cut at the Nyquist frequency and the two differ (measured on noise of 504
samples: 3.6e-4 at a period of 3.2 samples, 1.1 % at 2.8, 11 % at 2.5, 41 %
at 2.2, 100 % at 2: the rows pycwt's ``s0 = -1`` default starts with).  That
is why this module does not call :func:`sftwave.cwt`: measured at Nino3's
size (504 samples) and at 20,000, the sampled wavelet by SFT over the padded
series was also no faster than this Fourier product.  The Paul wavelet has
no Gaussian form and has always been computed this way.

:func:`wct` smooths pycwt's way (a Gaussian in time of the scale, circular
over the padded length; a boxcar of ``round(1.2 / dj)`` scales), the
Gaussian by :func:`sftwave.gaussian_filter1d` (its ``tol``: coherence within
about 1e-4 of pycwt's); :func:`wct_significance` is
:func:`sftwave.coherence.wct_significance` with pycwt's settings: seeded, so
it differs from pycwt's own draws within their Monte-Carlo error, and its
last row is not left NaN.  Deliberate differences (each in the docs' pycwt
page): :func:`rednoise` returns the AR(1) noise pycwt documents (pycwt's
filters along an axis of length one and returns white noise), so the
coherence surrogates are red; a bad argument raises ``ValueError`` or
``TypeError`` naming it; ``sup()`` works; the caller's arrays are never
written over (pycwt's ``significance`` writes over ``dof``).
"""

from __future__ import annotations

from ._coherence import wct, wct_significance, xwt
from ._mothers import DOG, MexicanHat, Morlet, Paul
from ._transform import ar1, ar1_spectrum, cwt, icwt, rednoise, significance

__all__ = [
    "cwt",
    "icwt",
    "significance",
    "xwt",
    "wct",
    "wct_significance",
    "ar1",
    "ar1_spectrum",
    "rednoise",
    "Morlet",
    "Paul",
    "DOG",
    "MexicanHat",
]

for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
