"""The result objects of MNE and MNE-Connectivity, built from sftwave's arrays (where installed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from mne.time_frequency import CrossSpectralDensity
    from mne_connectivity import (
        EpochSpectralConnectivity,
        SpectralConnectivity,
        SpectroTemporalConnectivity,
    )

    from .._checks.connectivity import CsdRequest, EpochsRequest, TimeRequest

__all__ = ["csd_object", "time_object", "epochs_object"]


def csd_object(total: np.ndarray, req: CsdRequest) -> CrossSpectralDensity:
    """MNE's ``CrossSpectralDensity`` of the Hermitian matrices ``total`` (its upper triangles)."""
    from mne.time_frequency import CrossSpectralDensity

    iu = np.triu_indices(total.shape[1])
    frequencies = req.frequencies
    return CrossSpectralDensity(np.ascontiguousarray(total[:, iu[0], iu[1]].T), ch_names=req.names,
                                tmin=req.times[0], tmax=req.times[-1], frequencies=list(frequencies)
                                if not np.isscalar(frequencies) else frequencies, n_fft=1,
                                projs=req.projs)


def time_object(con: np.ndarray, method: str,
                req: TimeRequest) -> SpectralConnectivity | EpochSpectralConnectivity:
    """MNE-Connectivity's ``SpectralConnectivity`` (``average=True``) or
    ``EpochSpectralConnectivity`` of one measure's scores."""
    import mne_connectivity

    n_signals = req.shape[1]
    source = req.source
    params = dict(data=con, patterns=None, freqs=req.out_freqs, n_nodes=n_signals,
                  names=req.names, indices=req.indices, method=method, spec_method=req.mode,
                  events=source.events, event_id=source.event_id, metadata=source.metadata,
                  rank=None, n_lags=None)
    return (mne_connectivity.SpectralConnectivity(**params) if req.average
            else mne_connectivity.EpochSpectralConnectivity(**params))


def epochs_object(con: np.ndarray, method: str, req: EpochsRequest) -> SpectroTemporalConnectivity:
    """MNE-Connectivity's ``SpectroTemporalConnectivity`` of one measure's scores."""
    import mne_connectivity

    freqs = req.freqs
    if req.faverage:
        out_freqs: Any = [float(np.mean(freqs[b])) for b in req.bands]
        freqs_used: Any = [[float(np.min(freqs[b])), float(np.max(freqs[b]))] for b in req.bands]
    else:
        out_freqs = freqs_used = freqs
    source = req.source
    return mne_connectivity.SpectroTemporalConnectivity(
        data=con, patterns=None, names=req.names, freqs=out_freqs, method=method,
        n_nodes=req.shape[1], spec_method=req.mode, indices=req.indices,
        n_epochs_used=req.shape[0], freqs_used=freqs_used, times_used=req.times, n_tapers=None,
        metadata=source.metadata, events=source.events, event_id=source.event_id, rank=None,
        n_lags=None, times=req.times)
