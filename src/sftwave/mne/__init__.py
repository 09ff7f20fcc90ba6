"""MNE's Morlet time-frequency API, computed by sftwave: the same signatures, objects and errors.

Switching is one line::

    from sftwave.mne import compute_tfr, tfr_morlet, tfr_array_morlet, csd_morlet

:func:`compute_tfr` takes MNE's Epochs, Evoked or Raw and returns MNE's own
EpochsTFR, AverageTFR or RawTFR (``compute_tfr(epochs, "morlet", freqs, ...)``
for ``epochs.compute_tfr("morlet", freqs, ...)``), built by MNE's constructors:
picks, bads, times, events, metadata are MNE's handling, only the coefficients
are sftwave's.  :func:`tfr_morlet` and :func:`csd_morlet` are MNE's functions
of those names.  Without editing a script, ``python -m sftwave.patch --only mne
script.py`` routes MNE's own calls here (:mod:`sftwave.patch`).  Only Morlet
wavelets: ``method='multitaper'`` or ``'stockwell'`` is refused with a message.
Beside them, :func:`tfr_array_superlet` gives :func:`sftwave.superlet`'s power in
``tfr_array_morlet``'s layout (MNE has no superlet of its own).

:func:`tfr_array_morlet` gives MNE's numbers (its wavelet, its normalisation
to a norm of sqrt(2) over its samples, its zero padding, ``zero_mean``,
``decim`` as an int or a slice, every ``output``) at sftwave's cost, which
does not grow with the wavelet's length.  MNE need not be installed: this
function only mirrors its API (the object functions need it).

How MNE's wavelet is sftwave's.  MNE's wavelet at frequency ``f`` is
``W = A g (exp(2 pi i f t) - k)`` on ``|t| < 5 sigma_t`` (``sigma_t =
n_cycles / (2 pi f)``, ``g`` the Gaussian of that width, ``k = exp(-n_cycles^2
/ 2)`` with ``zero_mean=True`` and 0 without), ``A`` making the samples' norm
sqrt(2).  sftwave's unit-energy wavelet is ``psi = B g (exp(...) - k)`` with
``xi = n_cycles`` (:mod:`sftwave.wavelets`).  So MNE's transform is
``(A / B) cwt(x)`` with ``zero_mean=True``, and with ``zero_mean=False``
``(A / B) cwt(x) + A k (g * x)``, the last term a Gaussian smoothing
(:func:`sftwave.gaussian_filter1d`); both with zero padding
(``mode='constant'``).  ``A`` is computed from MNE's own samples, so the only
difference is MNE's truncation at 5 sigma (a kernel error of about 4e-6) and
sftwave's own accuracy (``tol``: by default 1e-4 for power and complex
outputs, with the recursions in float32 as for :func:`sftwave.cwt`'s
single-precision output, rows within about 3e-4 of MNE's; 1e-5 for the phase
and the ITC, in float64, within about 1e-5 per row and 3e-4 at every point).
``A / B`` is folded into the plans' output weights.

The averaged outputs (``'avg_power'``, ``'itc'``, ``'avg_power_itc'``) are
added over the epochs inside the engine's kernel (its summing kinds: the sum
of ``|y|^2`` and of ``y / |y|`` per channel, frequency and kept sample), with
``zero_mean=True`` and finite data; with ``zero_mean=False`` (whose Gaussian
term the kernel does not compute) or non-finite samples they are accumulated
from the complex coefficients over blocks of channels (at most about 64 MB
of them at once).  ``decim`` as a slice ``start::step`` runs as the engine's
own ``decim`` on the epochs after ``(-start) % step`` zeros (exact: MNE pads
with zeros).
"""

from ._array import OUTPUTS, tfr_array_morlet
from ._csd import csd_morlet
from ._objects import compute_tfr, tfr_morlet
from ._superlet import tfr_array_superlet

__all__ = ["tfr_array_morlet", "OUTPUTS", "compute_tfr", "tfr_morlet", "csd_morlet",
           "tfr_array_superlet"]
