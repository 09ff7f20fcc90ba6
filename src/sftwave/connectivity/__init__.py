"""MNE's Morlet cross-spectral density and MNE-Connectivity's Morlet connectivity, by sftwave.

Switching is one line each::

    from sftwave.connectivity import csd_array_morlet               # was: mne.time_frequency
    from sftwave.connectivity import spectral_connectivity_time     # was: mne_connectivity
    from sftwave.connectivity import spectral_connectivity_epochs   # was: mne_connectivity

They take the same arguments and return the same objects (MNE's
``CrossSpectralDensity``, MNE-Connectivity's ``SpectralConnectivity``,
``EpochSpectralConnectivity`` or ``SpectroTemporalConnectivity``) where those
packages are installed, plain arrays otherwise (or with ``output='array'``).
The connectivity functions take what MNE-Connectivity takes in Morlet mode:
arrays, MNE's ``Epochs`` (their bad channels left out, their names, events and
metadata kept), ``EpochsTFR`` of complex Morlet coefficients, and (for
``spectral_connectivity_epochs``) lists and generators of arrays,
``SourceEstimate`` objects or tuples of them; and every keyword it takes.  The
other modes are not computed: ``spectral_connectivity_epochs``' default
``mode`` is MNE-Connectivity's ``'multitaper'``, refused by a ``ValueError``
that names ``mode='cwt_morlet'``.  None of them is imported by
``import sftwave``.

How.  The complex Morlet coefficients of one block of epochs (all the used
channels and frequencies, at most about 16 MB, or one epoch) are MNE's own
(:func:`sftwave.mne.tfr_array_morlet`, with MNE's wavelets, their norm and
zero padding), computed by sftwave's engine; the pair sums are then taken
from them by the engine's connectivity operations (``engine=``; the CPU
engine's kernels, looked up through :func:`sftwave.engines.operation`)
without ever storing a ``(pairs, freqs, times)`` array:

* the linear measures (CSD, ``'coh'``, ``'cohy'``, ``'imcoh'``) need only the
  time average of the smoothed cross spectrum, and a time average of a
  smoothed series is a weighted sum of the series itself: the smoothing
  becomes fixed weights per sample (edge-tapered where MNE-Connectivity's
  ``mode='same'`` smoothing meets the zeros outside the record), so their cost
  does not depend on ``sm_times`` at all; the sums of all pairs at one
  frequency run as one vectorised loop over channels;
* the non-linear measures (``'plv'``, ``'ciplv'``, ``'pli'``, ``'wpli'``) need
  the smoothed cross spectrum at every sample: it is made one sample at a time
  and smoothed by running sums (Hann as a boxcar and two modulated boxcars),
  at a cost that does not depend on ``sm_times`` either;
* connectivity across epochs (:func:`spectral_connectivity_epochs`, a score
  per pair, frequency and sample) needs, per pair, frequency and sample, a few
  sums over the epochs (of the cross spectrum, its unit phasor, the sign,
  value, magnitude and square of its imaginary part): they are accumulated
  from blocks of a few frequencies with every epoch (or of epochs), a tile of
  samples of all the channels at a time, and the measures then taken from
  them in one pass; the memory is one block of coefficients and those sums.

MNE-Connectivity's conventions kept: the Morlet wavelets with
``zero_mean=False`` (it passes that to MNE), ``padding`` cut off after the
transform and before the smoothing, ``sm_times`` in seconds rounded to samples
and divided by ``decim``, the 2-D Hann (or square) kernel normalised to a sum
of 1, ``indices=None`` meaning the lower triangle ``i > j`` and a result of
``n_signals ** 2`` connections (zeros elsewhere), and ``faverage``'s band
means exactly as MNE-Connectivity 0.9 takes them (see
:func:`spectral_connectivity_time`, Notes).  Where ``n_cycles`` makes
``exp(-n_cycles ** 2 / 2)`` (the wavelet's offset, which ``zero_mean=False``
leaves in) smaller than ``1e-3 * tol``, the zero-mean wavelets are used: they
differ from MNE's by less than that, relative, and skip a Gaussian smoothing
per frequency.

The package's parts: the requests (every argument check) in
``sftwave._checks.connectivity``; ``_csd``, ``_time`` and ``_epochs`` the
three functions' orchestration; ``_common`` the coefficients by blocks and the
engine's operations; ``_smoothing`` MNE-Connectivity's smoothing as weights;
``_results`` the MNE and MNE-Connectivity objects.
"""

from __future__ import annotations

from .._checks.connectivity import EPOCH_METHODS, METHODS, SM_KERNELS
from ._csd import csd_array_morlet
from ._epochs import spectral_connectivity_epochs
from ._time import spectral_connectivity_time

__all__ = ["csd_array_morlet", "spectral_connectivity_time", "spectral_connectivity_epochs", "METHODS",
           "EPOCH_METHODS", "SM_KERNELS"]
