"""Streaming: the Gaussian filters and the CWT on a live signal, chunk by chunk, equal to the batch.

The SFT is a recursion, so it runs on a signal as it arrives, at a constant
cost per sample and with constant memory: :class:`GaussianFilter1D` and
:class:`CWT` take chunks of any length (one sample to millions; channels as
leading axes) through :meth:`CWT.process`, and :meth:`CWT.flush`
ends the stream by extending its end with ``mode``.  The concatenated outputs
equal :func:`sftwave.gaussian_filter1d` and :func:`sftwave.cwt` of the
concatenated input (within 1e-12 relative in float64, ``tests/test_stream.py``;
the same plans run, by the same first-order recursion, in float64).  The CWT's
plans are those with a window: where the batch ``method='auto'`` runs a scale
of a short signal by FFT (the exact wavelet), the stream equals the batch
computed by ``sftwave.wavelets.windowed_cwt``, and the batch's own
``'auto'`` within the plans' ``tol``.

Latency.  Output ``n`` needs input up to ``n + latency`` (``latency``: the
plan's half-window after the sample, the largest over the CWT's scales); it
is emitted by the call that brings that sample.  The start needs more: the
extension before the first sample reads the first ``latency`` or so samples
(``reflect``, ``mirror``, ``nearest``), so nothing comes out until
:attr:`CWT.startup` samples have arrived (``constant`` needs none of
them, but waits as long, for one rule).  A stream shorter than that is
computed by the batch function at :meth:`CWT.flush`.

Modes.  ``reflect``, ``mirror``, ``nearest`` and ``constant`` (and scipy's
``grid-`` synonyms of the last); ``wrap`` cannot stream (its start is the
signal's end): ``ValueError``.

Checkpoints.  ``save(path)`` writes a stream's state to a ``.npz`` file
(atomically: a half-written file never replaces a good one) and the
classmethod ``load(path)`` (or :func:`load`, for either class) resumes it, in
another process too, exactly where it was (tested).  The file holds numbers
and one JSON string, read with ``np.load(allow_pickle=False)``: loading it
cannot run code.  The state is a versioned record: the format, the sftwave
version that wrote it (another version is refused at load: its filters may
differ), the constructor's arguments and the state arrays.  Loading calls
the constructor with those arguments, so every table and index is rebuilt
from them, then checks each state array's shape and dtype and each counter
against the rebuilt stream (``ValueError`` naming the field otherwise):
nothing a damaged or crafted file holds reaches the kernel as an index, so
it is refused or, if every field fits, runs on its numbers; it never
crashes the process (tested).  ``pickle`` goes through the same record and
the same checks, but a pickle is code: unpickling any pickle can run
arbitrary code, whatever it claims to hold, so use ``load`` for files from
anyone else.  The format and its checks are ``sftwave.stream.checkpoint``.

Dtypes.  The outputs take the dtype the batch function gives for the first
chunk's dtype: float32 (and float16) input gives float32 outputs (complex64
for the CWT's complex output; :class:`GaussianFilter1D` keeps each floating
dtype, as :func:`sftwave.gaussian_filter1d`); integer and bool input gives
float64 (complex128), where the batch Gaussian would keep the integer dtype
(scipy's rule).  The computation is float64 whatever the input; the result
is cast.  Later chunks may have any real dtype; their outputs take the
stream's.  A chunk of no samples returns an empty result of the right shape
and dtype and leaves the stream as it was.

Only the CPU engine streams (``engine=`` as for
:func:`sftwave.gaussian_filter`; the kernel is the engine's operation
``'stream_advance'``, which only ``'numba'`` has); complex input is
refused.  A chunk holding NaN or inf is refused (``ValueError``) and leaves
the stream as it was: a recursion would carry it for ever, where the batch
functions confine it (``sftwave.engines.nonfinite``).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import engines
from .._checks import scalogram_dtype
from .._checks.stream import STREAM_MODES as _STREAM_MODES
from .._checks.stream import (
    check_open,
    check_wavelet_widths,
    check_window_plan,
    chunk_request,
    cwt_stream_request,
    gaussian_stream_request,
)
from .._docs import docfiller
from ..engines._boundary import MODE_CODES, source_index
from ..plans import (
    DEFAULT_MORLET_TOL,
    MORLET_METHODS,
    FIRPlan,
    SFTPlan,
    select_gaussian,
    select_morlet,
)
from ..plans.select import max_kernel_sigma, wavelet_too_long
from ..wavelets import OUTPUTS, frequency_to_scale
from . import checkpoint
from .checkpoint import CHECKPOINT_FORMAT

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ..plans import WidePlan

__all__ = ["GaussianFilter1D", "CWT", "STREAM_MODES", "CHECKPOINT_FORMAT", "load"]

#: The boundary modes a stream honours.
STREAM_MODES = _STREAM_MODES

# (CHECKPOINT_FORMAT, the version of the checkpoint record this sftwave writes and reads, and
# the record's checks: sftwave.stream.checkpoint)


def _window(plan: SFTPlan | FIRPlan | WidePlan) -> tuple[int, int, int]:
    """(length, samples before, samples after) of a plan's window."""
    check_window_plan(isinstance(plan, (SFTPlan, FIRPlan)), type(plan).__name__)
    if isinstance(plan, SFTPlan):
        return plan.length, plan.pad_before, plan.lag
    assert isinstance(plan, FIRPlan)
    return plan.size, plan.radius, plan.radius


class _Stream:
    """The state machine shared by the streaming filters (see the module's docstring)."""

    #: The constructor's scalar arguments as the checkpoint holds them (JSON): name -> kind.
    _ARG_KINDS: dict[str, str] = {}
    #: The constructor's array arguments (float64, 1-D), held as ``arg_<name>`` fields.
    _ARG_ARRAYS: tuple[str, ...] = ()

    def __init__(self, plans: Iterable[SFTPlan | FIRPlan | WidePlan], *, mode: str, cval: float,
                 decim: int = 1, engine: str) -> None:
        """``mode``, ``cval``, ``decim``: checked (the request's); ``engine``: resolved."""
        self._plans = list(plans)
        self.mode, self.cval, self.decim = mode, float(cval), int(decim)
        #: The engine that runs the stream (its operation ``'stream_advance'``).
        self.engine = engine
        self._advance = engines.operation(engine, "stream_advance")
        windows = [_window(p) for p in self._plans]
        self._L = np.array([w[0] for w in windows], np.int64)
        before = np.array([w[1] for w in windows], np.int64)
        self._lag = np.array([w[2] for w in windows], np.int64)
        self._pb = int(before.max())
        self._a0 = self._pb - before
        #: Output ``n`` is emitted once input ``n + latency`` has arrived.
        self.latency = int(self._lag.max())
        #: Samples needed before the first output (the start's extension reads them).
        self.startup = max(self._pb, self.latency) + 1
        # outputs written by some plan but not yet by all: what a checkpoint keeps of them
        self._pending = self.latency - int(self._lag.min())
        self._tables()
        self._lead: tuple | None = None
        self._dtype: np.dtype | None = None
        self._buffer: list[np.ndarray] = []
        self._n_in = 0
        self._started = False
        self._finished = False

    # ------------------------------------------------------------------ plans as kernel tables

    def _tables(self) -> None:
        Q = len(self._plans)
        kind, lo, hi, taps_lo = (np.zeros(Q, np.int64) for _ in range(4))
        w: list[np.ndarray] = []
        c: list[np.ndarray] = []
        tap_rows: list[np.ndarray] = []
        pmax = max([p.omegas.size for p in self._plans if isinstance(p, SFTPlan)] or [1])
        coef = np.zeros((Q, 2, 2, pmax))
        ksum = np.zeros((Q, 2))
        count = ntaps = 0
        for q, plan in enumerate(self._plans):
            if isinstance(plan, SFTPlan):
                P = plan.omegas.size
                kind[q], lo[q], hi[q] = 0, count, count + P
                w.append(plan.w)
                c.append(np.exp(plan.length * np.log(plan.w)))
                k = plan.coef[0]
                coef[q, 0, :, :P] = k.real
                coef[q, 1, :, :P] = k.imag if np.iscomplexobj(k) else 0.0
                s = complex(plan.kernel_sum[0])
                count += P
            else:
                assert isinstance(plan, FIRPlan)        # (_window refused the others)
                kind[q], taps_lo[q] = 1, ntaps
                h = np.asarray(plan.kernel)
                tap_rows.append(np.stack([h.real, h.imag if np.iscomplexobj(h) else 0 * h.real]))
                s = complex(h.sum())
                ntaps += h.size
            ksum[q] = s.real, s.imag
        w_all = np.concatenate(w) if w else np.zeros(1, complex)
        c_all = np.concatenate(c) if c else np.zeros(1, complex)
        self._kind, self._lo, self._hi, self._taps_lo = kind, lo, hi, taps_lo
        self._wr, self._wi = np.ascontiguousarray(w_all.real), np.ascontiguousarray(w_all.imag)
        self._cr, self._ci = np.ascontiguousarray(c_all.real), np.ascontiguousarray(c_all.imag)
        self._coef, self._ksum = coef, ksum
        self._taps = (np.concatenate(tap_rows, axis=1) if tap_rows else np.zeros((2, 1)))
        self._ncomp = max(count, 1)

    # ------------------------------------------------------------------ the public calls

    def process(self, chunk: ArrayLike) -> np.ndarray:
        """Take the next samples and return the outputs they complete.

        Parameters
        ----------
        chunk : array_like
            Real samples, time last; the leading axes are channels (the same
            for every chunk).  Any length, none included.

        Returns
        -------
        ndarray
            The outputs this chunk completed, possibly none (a zero-length
            last axis), in the stream's dtype (set by its first chunk).

        See Also
        --------
        flush : End the stream and return the outputs still held.
        save : Checkpoint the stream between chunks.

        Examples
        --------
        >>> import numpy as np
        >>> f = GaussianFilter1D(5.0)
        >>> f.latency, f.startup
        (23, 24)
        >>> f.process(np.ones(10)).shape        # fewer than startup samples: nothing yet
        (0,)
        >>> f.process(np.ones(90)).shape        # outputs up to sample 100 - latency
        (77,)
        """
        check_open(self._finished)
        x, lead, dtype = self._as_chunk(chunk)
        if x.shape[1] == 0:          # no samples: nothing changes, not even the channels
            return self._shape(np.zeros((x.shape[0], len(self._plans), 2, 0)), lead, dtype)
        self._lead, self._dtype = lead, dtype
        if not self._started:
            self._buffer.append(x)
            self._n_in += x.shape[1]
            if self._n_in < self.startup:
                return self._empty()
            self._start(np.concatenate(self._buffer, axis=1))
            self._buffer = []
            return self._collect()
        self._n_in += x.shape[1]
        self._feed(x, raw=True)
        return self._collect()

    def flush(self) -> np.ndarray:
        """End the stream: extend its end by ``mode`` and return the remaining outputs.

        Returns
        -------
        ndarray
            The outputs not yet returned (all of them for a stream shorter
            than :attr:`startup`, computed by the batch function).

        See Also
        --------
        process : Feed the next samples.

        Examples
        --------
        >>> import numpy as np
        >>> f = GaussianFilter1D(5.0)
        >>> f.process(np.ones(100)).shape, f.flush().shape      # the last latency outputs
        ((77,), (23,))
        >>> g = GaussianFilter1D(5.0)
        >>> _ = g.process(np.ones(10))          # shorter than startup: the batch filter
        >>> bool(np.allclose(g.flush(), 1.0))
        True
        """
        check_open(self._finished, again=True)
        self._finished = True
        if not self._started:
            if not self._buffer:
                return self._empty()
            data = np.concatenate(self._buffer, axis=1)
            assert self._lead is not None               # (set with the first chunk buffered)
            return self._batch(data.reshape(self._lead + (data.shape[1],))).astype(
                self._dtype, copy=False)
        n = self._n_in
        pos = np.arange(n, n + self.latency, dtype=np.int64)
        src = source_index(pos, n, MODE_CODES[self.mode])
        tail = self._tail                              # the last samples, raw
        first = n - tail.shape[1]
        ext = np.where(src[None, :] >= 0, tail[:, np.maximum(src - first, 0)], self.cval)
        self._feed(ext, raw=False)
        return self._collect(final=True)

    # ------------------------------------------------------------------ checkpoints

    def save(self, path: str | os.PathLike) -> None:
        """Write the stream's state to ``path`` (an ``.npz`` file), atomically.

        The record holds the format, the sftwave version, the constructor's
        arguments and the state arrays (the module's docstring).  It is
        written to a temporary file in the same folder and moved over
        ``path`` when complete: a failure leaves ``path`` as it was.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (exactly this name: no suffix is added).

        See Also
        --------
        load : Resume the stream from the file.
        sftwave.stream.load : Resume a stream of either class.

        Examples
        --------
        >>> import os, tempfile, numpy as np
        >>> x = np.random.default_rng(0).standard_normal(3000)
        >>> f = GaussianFilter1D(10.0)
        >>> head = f.process(x[:1000])
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = os.path.join(folder, "smooth.npz")
        ...     f.save(path)
        ...     g = GaussianFilter1D.load(path)
        >>> rest = g.process(x[1000:])
        >>> bool(np.array_equal(rest, f.process(x[1000:])))
        True
        """
        checkpoint.write(path, self._record())

    @classmethod
    def load(cls, path: str | os.PathLike) -> _Stream:
        """Resume a stream written by :meth:`save`; refuse a file that does not check out.

        The file is read with ``np.load(path, allow_pickle=False)``: it holds
        numbers and one JSON string, so reading it cannot run code, whoever
        wrote it.  The stream is rebuilt by its constructor from the
        arguments the file holds, then every state array and counter is
        checked against it.

        Parameters
        ----------
        path : str or os.PathLike
            A file written by :meth:`save`.

        Returns
        -------
        GaussianFilter1D or CWT
            The stream, where it was when saved (of the class ``load`` is
            called on; :func:`sftwave.stream.load` takes either).

        Raises
        ------
        ValueError
            The file is no checkpoint of this class, was written by another
            sftwave version or checkpoint format, or a field has another type,
            shape, dtype or range than the rebuilt stream expects (named in
            the message).

        See Also
        --------
        save : Write the file.
        sftwave.stream.load : The same for a file of either class.

        Examples
        --------
        >>> import os, tempfile, numpy as np
        >>> s = CWT([0.05, 0.2], output="power")
        >>> _ = s.process(np.ones((2, 500)))
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     s.save(os.path.join(folder, "cwt.npz"))
        ...     r = CWT.load(os.path.join(folder, "cwt.npz"))
        >>> r.process(np.ones((2, 10))).shape
        (2, 2, 10)
        """
        return cast("_Stream", checkpoint.restore(cls, checkpoint.read(path), _CLASSES))

    def __getstate__(self) -> dict[str, np.ndarray]:
        return self._record()

    def __setstate__(self, state: Any) -> None:
        self.__dict__.update(checkpoint.restore(type(self), state, _CLASSES).__dict__)

    def _record(self) -> dict[str, np.ndarray]:
        """The checkpoint (``sftwave.stream.checkpoint``): a JSON ``meta`` string, float64 arrays."""
        scalars, arrays = self._arguments()
        kind = checkpoint.stream_class(type(self), _CLASSES)
        assert kind is not None                    # (every stream is one of the classes)
        meta = checkpoint.meta_record(
            kind.__name__, scalars, self._n_in, self._started, self._finished,
            None if self._lead is None else [int(d) for d in self._lead],
            None if self._dtype is None else self._dtype.name)
        record = {"meta": np.array(json.dumps(meta))}
        record.update({f"arg_{k}": np.array(v, np.float64) for k, v in arrays.items()})
        if self._finished:
            return record
        if not self._started:
            if self._n_in:
                record["buffer"] = np.concatenate(self._buffer, axis=1)
            return record
        k = self._emitted - self._obase
        record.update(centre=self._centre, history=self._hist, state_re=self._tr,
                      state_im=self._ti, tail=self._tail,
                      pending=self._out[..., k:k + self._pending])
        return record

    def _state_shapes(self, C: int) -> dict[str, tuple[int, ...]]:
        """The state arrays of a started stream of ``C`` channels, by checkpoint field."""
        return {"centre": (C,), "history": (C, int(self._L.max())),
                "state_re": (C, self._ncomp), "state_im": (C, self._ncomp),
                "tail": (C, self.latency + 1),
                "pending": (C, len(self._plans), 2, self._pending)}

    def _resume(self, fields: dict[str, np.ndarray]) -> None:
        """Take a started stream's checked state arrays (see :meth:`_start`)."""
        self._centre, self._hist = fields["centre"], fields["history"]
        self._tr, self._ti = fields["state_re"], fields["state_im"]
        self._base = np.ascontiguousarray(self._centre[:, None, None] * self._ksum[None, :, :])
        self._tail = fields["tail"]
        self._next = self._pb + self._n_in
        self._emitted = self._n_in - self.latency
        self._obase = self._emitted
        self._out = fields["pending"]
        self._started = True

    # ------------------------------------------------------------------ internals

    def _as_chunk(self, chunk: ArrayLike) -> tuple[np.ndarray, tuple, np.dtype]:
        """(samples as (channels, time) float64, the channel shape, the output dtype)."""
        x, lead = chunk_request(chunk, self._lead)
        dtype = self._out_dtype(x.dtype) if self._dtype is None else self._dtype
        x = np.ascontiguousarray(x.reshape(math.prod(lead), x.shape[-1]), dtype=np.float64)
        return x, lead, dtype

    def _start(self, data: np.ndarray) -> None:
        C, n0 = data.shape
        m = min(n0, 63)
        picks = (np.arange(m) * n0) // m
        self._centre = np.median(data[:, picks], axis=1)
        self._hist = np.zeros((C, int(self._L.max())))   # the last samples fed (centred)
        self._tr = np.zeros((C, self._ncomp))
        self._ti = np.zeros((C, self._ncomp))
        self._base = np.ascontiguousarray(self._centre[:, None, None] * self._ksum[None, :, :])
        self._tail = np.zeros((C, 0))
        self._next = 0                                 # the next absolute position
        self._out = np.zeros((C, len(self._plans), 2, 0))   # outputs by sample, from _obase
        self._obase = 0
        self._emitted = 0
        self._started = True
        pos = np.arange(-self._pb, 0, dtype=np.int64)
        src = source_index(pos, n0, MODE_CODES[self.mode])
        ext = np.where(src[None, :] >= 0, data[:, np.maximum(src, 0)], self.cval)
        self._feed(ext, raw=False)
        self._feed(data, raw=True)

    def _feed(self, values: np.ndarray, *, raw: bool) -> None:
        C, M = values.shape
        if M == 0:
            return
        # the output buffer: emitted samples dropped, room for every sample this call writes
        if self._emitted > self._obase:
            self._out = self._out[..., self._emitted - self._obase:]
            self._obase = self._emitted
        need = self._next + M - self._pb - int(self._lag.min()) - self._obase
        if self._out.shape[-1] < need:
            grown = np.zeros(self._out.shape[:-1] + (max(need, 2 * self._out.shape[-1]),))
            grown[..., :self._out.shape[-1]] = self._out
            self._out = grown
        ext = np.concatenate([self._hist, values - self._centre[:, None]], axis=1)
        H = self._hist.shape[1]
        self._advance(ext, H, self._next, self._a0, self._L, self._kind, self._lo, self._hi, self._wr,
                self._wi, self._cr, self._ci, self._coef, self._taps_lo, self._taps, self._base,
                self._tr, self._ti, self._pb + self._lag + self._obase, self._out)
        self._hist = ext[:, -H:]
        self._next += M
        if raw:
            keep = self.latency + 1
            self._tail = np.concatenate([self._tail, values], axis=1)[:, -keep:]

    def _collect(self, final: bool = False) -> np.ndarray:
        # every plan has written the outputs before the latest's window end
        stop = self._next - self._pb - self.latency
        if final:
            stop = self._n_in
        count = max(stop - self._emitted, 0)
        k = self._emitted - self._obase
        rows = self._out[..., k:k + count]
        first = self._emitted
        self._emitted += count
        assert self._lead is not None and self._dtype is not None   # (set by the first chunk)
        return self._shape(rows[..., (-first) % self.decim::self.decim], self._lead, self._dtype)

    def _empty(self) -> np.ndarray:
        lead = () if self._lead is None else self._lead
        dtype = self._out_dtype(np.dtype(np.float64)) if self._dtype is None else self._dtype
        return self._shape(np.zeros((math.prod(lead), len(self._plans), 2, 0)), lead, dtype)

    # ------------------------------------------------------------------ what the filters define

    def _shape(self, rows: np.ndarray, lead: tuple, dtype: np.dtype) -> np.ndarray:
        raise NotImplementedError                                    # pragma: no cover

    def _batch(self, data: np.ndarray) -> np.ndarray:
        raise NotImplementedError                                    # pragma: no cover

    def _out_dtype(self, dtype: np.dtype) -> np.dtype:
        """The output dtype for input of ``dtype`` (the batch function's rule)."""
        raise NotImplementedError                                    # pragma: no cover

    def _out_dtypes(self) -> tuple[np.dtype, ...]:
        """Every output dtype this stream can have (what a checkpoint may name)."""
        raise NotImplementedError                                    # pragma: no cover

    def _arguments(self) -> tuple[dict, dict]:
        """The constructor's arguments: (scalars as JSON takes them, float64 arrays)."""
        raise NotImplementedError                                    # pragma: no cover


def load(path: str | os.PathLike) -> GaussianFilter1D | CWT:
    """Resume a stream of either class from a file written by its ``save``.

    As :meth:`GaussianFilter1D.load` and :meth:`CWT.load` (the class the file
    names): read with ``np.load(allow_pickle=False)``, so it cannot run code;
    refused with ``ValueError`` unless every field checks out.

    Parameters
    ----------
    path : str or os.PathLike
        A file written by ``save``.

    Returns
    -------
    GaussianFilter1D or CWT
        The stream, where it was when saved.

    See Also
    --------
    GaussianFilter1D : A smoothing stream.
    CWT : A Morlet transform stream.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> f = GaussianFilter1D(3.0)
    >>> _ = f.process(np.arange(100.0))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     f.save(os.path.join(folder, "f.npz"))
    ...     g = load(os.path.join(folder, "f.npz"))
    >>> type(g).__name__, g.sigma
    ('GaussianFilter1D', 3.0)
    """
    return cast("GaussianFilter1D | CWT", _Stream.load(path))   # (of the class the file names)


# ---------------------------------------------------------------------- the streaming filters


@docfiller
class GaussianFilter1D(_Stream):
    """:func:`sftwave.gaussian_filter1d` (orders 0 to 2) on a stream, chunk by chunk.

    Parameters
    ----------
    sigma : float
        Standard deviation in samples.
    order : {0, 1, 2}
        Derivative order.
    mode : {'reflect', 'mirror', 'nearest', 'constant'}
        The extension at both ends, as the batch function's.
    cval : float
        The padding value of ``mode='constant'``.
    truncate, tol, method, transform
        As :func:`sftwave.gaussian_filter1d`'s: the same plan runs.
    %(stream_engine)s

    Attributes
    ----------
    latency : int
        Output ``n`` comes out once input ``n + latency`` has arrived.
    startup : int
        Samples needed before the first output.

    See Also
    --------
    sftwave.gaussian_filter1d : The same filter on a whole signal.
    CWT : The Morlet transform as a stream.
    sftwave.stream.load : Resume a saved stream.

    Notes
    -----
    The outputs have the first chunk's dtype if it is floating (float32 in,
    float32 out, as the batch function), float64 otherwise.  :meth:`save` and
    :meth:`load` checkpoint the stream (see :mod:`sftwave.stream`).

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> x = np.random.default_rng(0).standard_normal(5000)
    >>> f = GaussianFilter1D(20.0)
    >>> y = np.concatenate([f.process(c) for c in np.array_split(x, 37)] + [f.flush()])
    >>> bool(np.allclose(y, sftwave.gaussian_filter1d(x, 20.0), rtol=0, atol=1e-12))
    True
    """

    _ARG_KINDS = {"sigma": "number", "order": "int", "mode": "str", "cval": "number",
                  "truncate": "number", "tol": "number?", "method": "str", "transform": "str",
                  "engine": "str"}

    def __init__(self, sigma: float, order: int = 0, *, mode: str = "reflect", cval: float = 0.0,
                 truncate: float = 4.0, tol: float | None = None, method: str = "auto",
                 transform: str = "sft", engine: str | None = None):
        req = gaussian_stream_request(sigma, order, mode=mode, cval=cval, truncate=truncate,
                                      tol=tol, method=method, transform=transform,
                                      engine=engines.resolve_engine(engine, None))
        self.sigma, self.order = req.sigma, req.order
        self._kw: dict[str, Any] = dict(truncate=req.truncate, tol=req.tol, method=req.method,
                                        transform=req.transform)
        eng = engines.get(req.engine)
        # the plan of gaussian_filter1d on a line (the figures of a 1-D float64 input)
        cost, design = engines.gaussian_figures(eng, np.float64, None, self.order, 1)
        plan = select_gaussian(self.sigma, self.order, fir_taps_per_order=cost,
                               design_taps_per_order=design, **self._kw)
        super().__init__([plan], mode=req.mode, cval=req.cval, engine=req.engine)

    def _shape(self, rows: np.ndarray, lead: tuple, dtype: np.dtype) -> np.ndarray:
        return rows[:, 0, 0, :].reshape(lead + (rows.shape[-1],)).astype(dtype)

    def _batch(self, data: np.ndarray) -> np.ndarray:
        from ..ndimage import gaussian_filter1d

        # NumPy rows: a NumPy array back from every engine
        return cast(np.ndarray, gaussian_filter1d(data.astype(np.float64), self.sigma,
                                                  order=self.order, mode=self.mode, cval=self.cval,
                                                  engine=self.engine, **self._kw))

    def _out_dtype(self, dtype: np.dtype) -> np.dtype:
        return dtype if dtype.kind == "f" else np.dtype(np.float64)

    def _out_dtypes(self) -> tuple[np.dtype, ...]:
        return tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.longdouble))

    def _arguments(self) -> tuple[dict, dict]:
        return dict(sigma=self.sigma, order=self.order, mode=self.mode, cval=self.cval,
                    engine=self.engine, **self._kw), {}


@docfiller
class CWT(_Stream):
    """:func:`sftwave.cwt` on a stream, chunk by chunk: rows of every frequency, any output kind.

    Parameters
    ----------
    freqs, fs, xi
        As :func:`sftwave.cwt`'s (``xi`` one value or one per frequency).
    mode, cval
        The extension at both ends (not ``'wrap'``).
    output : {'complex', 'power', 'abs', 'phase'}
        What is emitted.
    decim : int
        Keep every ``decim``-th output (``[::decim]`` of the whole stream).
    tol, method
        As :func:`sftwave.cwt`'s (float64 state: the SFT plans of a float64
        transform).
    %(stream_engine)s

    See Also
    --------
    sftwave.cwt : The same transform on a whole signal.
    GaussianFilter1D : Gaussian smoothing as a stream.
    sftwave.stream.load : Resume a saved stream.

    Notes
    -----
    Each call returns ``channels + (len(freqs), k)``: the ``k`` outputs the
    chunk completed, every ``decim``-th, complex128 (float64 for the real
    outputs), or complex64 (float32) if the first chunk is float32 or float16,
    as :func:`sftwave.cwt`.  :meth:`save` and :meth:`load` checkpoint the
    stream (see :mod:`sftwave.stream`).

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> x = np.random.default_rng(1).standard_normal((2, 3000))
    >>> s = CWT([0.02, 0.1], output="power", decim=2)
    >>> y = np.concatenate([s.process(x[:, i:i + 100]) for i in range(0, 3000, 100)]
    ...                    + [s.flush()], axis=-1)
    >>> from sftwave.wavelets import windowed_cwt   # the stream's plans (those with a window)
    >>> ref = windowed_cwt(x, [0.02, 0.1], output="power", decim=2)
    >>> y.shape == ref.shape and bool(np.allclose(y, ref, rtol=1e-10, atol=1e-12))
    True
    """

    _ARG_KINDS = {"fs": "number", "mode": "str", "cval": "number", "output": "str",
                  "decim": "int", "tol": "number", "method": "str", "engine": "str"}
    _ARG_ARRAYS = ("freqs", "xi")

    def __init__(self, freqs: ArrayLike, fs: float = 1.0, *, xi: float | ArrayLike = 6.0,
                 mode: str = "reflect", cval: float = 0.0, output: str = "complex", decim: int = 1,
                 tol: float | None = None, method: str = "auto", engine: str | None = None):
        req = cwt_stream_request(freqs, fs, xi=xi, mode=mode, cval=cval, output=output, decim=decim,
                                 tol=tol, method=method, engine=engines.resolve_engine(engine, None),
                                 outputs=OUTPUTS, methods=MORLET_METHODS,
                                 default_tol=DEFAULT_MORLET_TOL)
        self.fs, self.freqs, self.xi = req.fs, req.freqs, req.xi
        self.output, self.tol, self.method = req.output, req.tol, req.method
        eng = engines.get(req.engine)
        sigmas = frequency_to_scale(self.freqs, self.fs, self.xi)
        # a stream has no length: only the absolute bound on a wavelet's width
        check_wavelet_widths(self.freqs, self.fs, sigmas, self.xi, max_kernel_sigma(None),
                             lambda what, s, w: wavelet_too_long(what, s, w, None))
        # (no FFT plan: method='fft' is refused above, and 'auto' weighs the FFT only with n)
        plans = cast("list[SFTPlan | FIRPlan]",
                     [select_morlet(float(s), float(w), self.tol, method=self.method, transform="sft",
                                    fir_taps_per_order=eng.fir_taps_per_order())
                      for s, w in zip(sigmas, self.xi)])
        super().__init__(plans, mode=req.mode, cval=req.cval, decim=req.decim, engine=req.engine)

    def _shape(self, rows: np.ndarray, lead: tuple, dtype: np.dtype) -> np.ndarray:
        re, im = rows[:, :, 0, :], rows[:, :, 1, :]
        if self.output == "power":
            z = re * re + im * im
        elif self.output == "abs":
            z = np.hypot(re, im)
        elif self.output == "phase":
            # contiguous parts: numpy 1.24's arctan2 varied with strides
            z = np.arctan2(np.ascontiguousarray(im), np.ascontiguousarray(re))
        else:
            z = np.empty(re.shape, np.complex128)
            z.real, z.imag = re, im
        return z.reshape(lead + z.shape[1:]).astype(dtype, copy=False)

    def _batch(self, data: np.ndarray) -> np.ndarray:
        from ..wavelets import windowed_cwt

        # the stream's own kind of plans (those with a window), also for a short stream
        dtype = np.complex128 if self.output == "complex" else np.float64
        y = windowed_cwt(data.astype(np.float64), self.freqs, self.fs, xi=self.xi, mode=self.mode,
                         cval=self.cval, output=self.output, decim=self.decim, tol=self.tol,
                         method=self.method, dtype=dtype, engine=self.engine)
        return cast(np.ndarray, y)      # NumPy in: the CPU engine's NumPy out

    def _out_dtype(self, dtype: np.dtype) -> np.dtype:
        return scalogram_dtype(None, dtype in (np.float32, np.float16), self.output)

    def _out_dtypes(self) -> tuple[np.dtype, ...]:
        return tuple(scalogram_dtype(None, single, self.output) for single in (False, True))

    def _arguments(self) -> tuple[dict, dict]:
        return (dict(fs=self.fs, mode=self.mode, cval=self.cval, output=self.output,
                     decim=self.decim, tol=self.tol, method=self.method, engine=self.engine),
                dict(freqs=self.freqs, xi=self.xi))


#: The stream classes a checkpoint may name, by the name it holds.
_CLASSES: dict[str, type[_Stream]] = {"GaussianFilter1D": GaussianFilter1D, "CWT": CWT}
