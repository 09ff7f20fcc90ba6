"""The ``data`` argument of :mod:`sftwave.connectivity`, unpacked as MNE-Connectivity unpacks it.

MNE-Connectivity takes, besides arrays: MNE's ``Epochs`` (its good channels
only where ``indices`` is None, its channel names, events, event id and
metadata), ``EpochsTFR`` holding complex Morlet coefficients (computed
connectivity from those, ``mode`` ignored), and, in
``spectral_connectivity_epochs``, lists or generators of arrays, of
``SourceEstimate`` objects, or of tuples of them (stacked as one epoch's
signals).  :func:`connectivity_data` turns any of them into a
:class:`DataSource`: the shape and the facts the requests need, read without
loading or computing anything; :meth:`DataSource.load` reads the values.

Nothing here imports MNE: an object is MNE's only where ``mne`` is already
imported (it cannot be otherwise).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["DataSource", "connectivity_data", "is_one_shot", "ANNOTATION_COLUMNS"]

#: The metadata columns MNE's ``add_annotations_to_metadata`` writes.
ANNOTATION_COLUMNS = ("annot_onset", "annot_duration", "annot_description")


@dataclass(frozen=True, eq=False)
class DataSource:
    """The connectivity functions' ``data``, unpacked.

    ``shape`` is ``(n_epochs, n_signals, n_times)`` for time series and
    ``(n_epochs, n_signals, n_freqs, n_times)`` for coefficients
    (``tfr_freqs`` not None); ``times`` the input's times (None: sample
    ``k`` at ``k / sfreq``); ``sfreq`` None where the caller's is used;
    ``picks`` the good channels (MNE objects' channels not in ``info['bads']``)
    or None; ``names`` None where the caller's are used.
    """

    shape: tuple[int, ...]
    loader: Callable[[], np.ndarray] = field(repr=False)
    sfreq: float | None = None
    times: np.ndarray | None = None
    names: Any = None
    picks: np.ndarray | None = None
    events: Any = None
    event_id: Any = None
    metadata: Any = None
    tfr_freqs: np.ndarray | None = None
    tfr_method: str | None = None
    is_mne: bool = False
    dtype: np.dtype | None = None

    def load(self) -> np.ndarray:
        """The values: the time series, or the complex coefficients."""
        return self.loader()


def _mne_class(obj: Any, *names: str) -> bool:
    """Whether ``obj`` is an instance of one of MNE's classes ``names`` (False where MNE is not
    imported)."""
    if "mne" not in sys.modules:
        return False
    return any(c.__name__ in names and c.__module__.startswith("mne.") for c in type(obj).__mro__)


def is_one_shot(data: Any) -> bool:
    """Whether ``data`` is an iterator that reading would consume (a generator, ``iter(list)``;
    not MNE's Epochs, iterators that can be read again).

    Examples
    --------
    >>> is_one_shot(x for x in []), is_one_shot([]), is_one_shot(np.zeros(3))
    (True, False, False)
    """
    return isinstance(data, Iterator) and not _mne_class(data, "BaseEpochs", "EpochsTFR")


def _epochs_metadata(inst: Any) -> Any:
    """The metadata MNE-Connectivity stores for ``inst``: with the annotations' columns added as it
    adds them (it writes them into the user's object; here a copy gets them)."""
    metadata = inst.metadata
    kept = metadata is not None and all(c not in metadata.columns for c in ANNOTATION_COLUMNS)
    if kept or getattr(inst, "annotations", None) is None:
        return metadata
    shallow = copy.copy(inst)
    shallow._metadata = None if metadata is None else metadata.copy()
    shallow.add_annotations_to_metadata(overwrite=True)
    return shallow.metadata


def _mne_source(data: Any, indices: Any, function: str) -> DataSource:
    """An ``Epochs`` or an ``EpochsTFR``, unpacked (refusals as MNE-Connectivity's)."""
    from mne._fiff.pick import _picks_to_idx

    info = data.info
    picks = _picks_to_idx(info, picks="all", exclude="bads") if indices is None else None
    common = dict(sfreq=float(info["sfreq"]), names=list(data.ch_names), picks=picks,
                  events=data.events, event_id=data.event_id, metadata=_epochs_metadata(data),
                  times=np.asarray(data.times, float), is_mne=True)
    if _mne_class(data, "BaseEpochs"):
        n = (len(data.events), info["nchan"], len(data.times))
        return DataSource(n, lambda: np.asarray(data.get_data(copy=False)),
                          dtype=np.dtype(np.float64), **common)
    if "taper" in getattr(data, "_dims", ()):
        raise ValueError(f"data holds multitaper coefficients (method={data.method!r}): sftwave "
                         "computes connectivity from Morlet coefficients (mode='cwt_morlet') "
                         "only; use mne_connectivity for these")
    coefs = data.data
    if not np.iscomplexobj(coefs):
        raise TypeError("if `data` is an EpochsTFR object, it must contain complex-valued "
                        "Fourier coefficients, such as that returned from Epochs.compute_tfr() "
                        "with `output='complex'`")
    method = "cwt_morlet" if function == "time" else data.method
    return DataSource(coefs.shape, lambda: data.get_data(picks=np.arange(info["nchan"])),
                      dtype=coefs.dtype, tfr_freqs=np.asarray(data.freqs, float),
                      tfr_method=method, **common)


def _epoch_parts(epoch: Any) -> tuple[list[Any], np.ndarray | None]:
    """One epoch of a list: its parts (arrays or source estimates) and the times of the first
    source estimate among them (MNE-Connectivity's times)."""
    parts = list(epoch) if isinstance(epoch, (list, tuple)) else [epoch]
    times = None
    for p in parts:
        if _mne_class(p, "_BaseSourceEstimate"):
            times = np.asarray(p.times, float)
            break
        if not hasattr(p, "shape") or len(p.shape) != 2:
            raise ValueError(f"each epoch of data must be an array (n_signals, n_times), a "
                             f"SourceEstimate or a tuple of them; got {type(p).__name__} with "
                             f"shape {getattr(p, 'shape', None)}")
    return parts, times


def _stack(parts: list[Any]) -> np.ndarray:
    """One epoch's signals: the parts' rows one after the other."""
    rows = [np.asarray(p.data if _mne_class(p, "_BaseSourceEstimate") else p) for p in parts]
    return rows[0] if len(rows) == 1 else np.concatenate(rows, axis=0)


def _sequence_source(data: Iterable[Any]) -> DataSource:
    """A list, tuple or generator of epochs (arrays, source estimates or tuples of them)."""
    epochs = list(data)
    if not epochs:
        raise ValueError("data must hold at least one epoch; got an empty sequence")
    shapes: list[tuple[int, int]] = []
    times = None
    for epoch in epochs:
        parts, t = _epoch_parts(epoch)
        times = t if times is None else times
        n_signals = sum(int(p.shape[0]) for p in parts)
        n_times = {int(p.shape[1]) for p in parts}
        if len(n_times) != 1 or (shapes and n_times != {shapes[0][1]}):
            raise ValueError("all input time series must have the same number of time points")
        if shapes and n_signals != shapes[0][0]:
            raise ValueError("the number of time series has to be the same in each epoch")
        shapes.append((n_signals, n_times.pop()))

    def load() -> np.ndarray:
        return np.stack([_stack(_epoch_parts(e)[0]) for e in epochs])

    dtypes = {np.asarray(p).dtype for e in epochs for p in _epoch_parts(e)[0]
              if isinstance(p, np.ndarray)}
    dtype = np.result_type(*dtypes) if dtypes else np.dtype(np.float64)
    return DataSource((len(epochs),) + shapes[0], load, times=times, dtype=dtype)


def connectivity_data(data: Any, indices: Any, function: str) -> DataSource:
    """``data`` of ``spectral_connectivity_epochs`` (``function='epochs'``) or
    ``spectral_connectivity_time`` (``'time'``), unpacked; a generator is read to its end.

    Examples
    --------
    >>> src = connectivity_data(np.zeros((2, 3, 100)), None, "time")
    >>> src.shape, src.names, src.picks, src.tfr_freqs
    ((2, 3, 100), None, None, None)
    >>> connectivity_data([np.zeros((3, 100))] * 4, None, "epochs").shape
    (4, 3, 100)
    """
    if _mne_class(data, "BaseEpochs", "EpochsTFR"):
        return _mne_source(data, indices, function)
    if _mne_class(data, "BaseSpectrum", "EpochsSpectrum"):
        raise ValueError("data is a spectrum (no time axis): its connectivity is MNE-"
                         "Connectivity's multitaper or Fourier mode; sftwave computes "
                         "mode='cwt_morlet' only: use mne_connectivity for spectra")
    if isinstance(data, np.ndarray) or hasattr(data, "__array__") or function == "time":
        arr = data if isinstance(data, np.ndarray) else np.asarray(data)
        return DataSource(arr.shape, lambda: arr, dtype=arr.dtype)
    if isinstance(data, (list, tuple)) or is_one_shot(data):
        return _sequence_source(data)
    raise TypeError(f"data must be an array, an Epochs or EpochsTFR object, or a list or "
                    f"generator of epochs; got {type(data).__name__}")
