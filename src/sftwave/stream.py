"""Streaming: the Gaussian filters and the CWT on a live signal, chunk by chunk, equal to the batch.

The SFT is a recursion, so it runs on a signal as it arrives, at a constant
cost per sample and with constant memory: :class:`GaussianFilter1D` and
:class:`CWT` take chunks of any length (one sample to millions; channels as
leading axes) through :meth:`~_Stream.process`, and :meth:`~_Stream.flush`
ends the stream by extending its end with ``mode``.  The concatenated outputs
equal :func:`sftwave.gaussian_filter1d` and :func:`sftwave.cwt` of the
concatenated input (within 1e-12 relative in float64, ``tests/test_stream.py``;
the same plans run, by the same first-order recursion, in float64).

Latency.  Output ``n`` needs input up to ``n + latency`` (``latency``: the
plan's half-window after the sample, the largest over the CWT's scales); it
is emitted by the call that brings that sample.  The start needs more: the
extension before the first sample reads the first ``latency`` or so samples
(``reflect``, ``mirror``, ``nearest``), so nothing comes out until
:attr:`~_Stream.startup` samples have arrived (``constant`` needs none of
them, but waits as long, for one rule).  A stream shorter than that is
computed by the batch function at :meth:`~_Stream.flush`.

Modes.  ``reflect``, ``mirror``, ``nearest`` and ``constant`` (and scipy's
``grid-`` synonyms of the last); ``wrap`` cannot stream (its start is the
signal's end): ``ValueError``.

Checkpoints.  A stream object is plain numpy state and its plans: ``pickle``
it, and ``pickle.loads`` resumes it (in another process too) exactly where it
was (tested).

Only the CPU engine streams (the kernel is numba's); inputs are converted to
float64 (complex input is refused).  A chunk holding NaN or inf is refused
(``ValueError``) and leaves the stream as it was: a recursion would carry it
for ever, where the batch functions confine it (:mod:`sftwave.engines.nonfinite`).
"""

from __future__ import annotations

import numpy as np

from . import engines
from ._checks import (
    check_choice,
    check_cval,
    check_decim,
    check_freqs,
    check_mode,
    check_order,
    check_positive,
    check_sigma,
    check_tol,
    check_truncate,
    check_xi,
)
from .engines._boundary import MODE_CODES, source_index
from .plans import DEFAULT_MORLET_TOL, FIRPlan, SFTPlan, select_gaussian, select_morlet
from .wavelets import OUTPUTS, frequency_to_scale

__all__ = ["GaussianFilter1D", "CWT", "STREAM_MODES"]

#: The boundary modes a stream honours.
STREAM_MODES = ("reflect", "mirror", "nearest", "constant")


def _window(plan) -> tuple[int, int, int]:
    """(length, samples before, samples after) of a plan's window."""
    if isinstance(plan, SFTPlan):
        return plan.length, plan.pad_before, plan.lag
    if isinstance(plan, FIRPlan):
        return plan.size, plan.radius, plan.radius
    raise ValueError(f"a stream runs SFT and FIR plans; this filter needs a "
                     f"{type(plan).__name__} (a kernel far wider than a stream can hold)")


class _Stream:
    """The state machine shared by the streaming filters (see the module's docstring)."""

    def __init__(self, plans, *, mode: str, cval: float, decim: int = 1):
        self._plans = list(plans)
        mode = check_mode(mode)
        if mode == "wrap":
            raise ValueError("mode='wrap' cannot stream: its start is the signal's end; use "
                             "'reflect', 'mirror', 'nearest' or 'constant'")
        self.mode, self.cval, self.decim = mode, float(cval), int(decim)
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
        self._tables()
        self._lead: tuple | None = None
        self._buffer: list[np.ndarray] = []
        self._n_in = 0
        self._started = False
        self._finished = False

    # ------------------------------------------------------------------ plans as kernel tables

    def _tables(self) -> None:
        Q = len(self._plans)
        kind, lo, hi, taps_lo = (np.zeros(Q, np.int64) for _ in range(4))
        w, c, tap_rows = [], [], []
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
                kind[q], taps_lo[q] = 1, ntaps
                h = np.asarray(plan.kernel)
                tap_rows.append(np.stack([h.real, h.imag if np.iscomplexobj(h) else 0 * h.real]))
                s = complex(h.sum())
                ntaps += h.size
            ksum[q] = s.real, s.imag
        w = np.concatenate(w) if w else np.zeros(1, complex)
        c = np.concatenate(c) if c else np.zeros(1, complex)
        self._kind, self._lo, self._hi, self._taps_lo = kind, lo, hi, taps_lo
        self._wr, self._wi = np.ascontiguousarray(w.real), np.ascontiguousarray(w.imag)
        self._cr, self._ci = np.ascontiguousarray(c.real), np.ascontiguousarray(c.imag)
        self._coef, self._ksum = coef, ksum
        self._taps = (np.concatenate(tap_rows, axis=1) if tap_rows else np.zeros((2, 1)))
        self._ncomp = max(count, 1)

    # ------------------------------------------------------------------ the public calls

    def process(self, chunk) -> np.ndarray:
        """Take the next samples (time last; the leading axes are channels) and return the
        outputs they complete (possibly none: a zero-length last axis)."""
        if self._finished:
            raise ValueError("the stream was flushed; start a new one")
        x = self._as_chunk(chunk)
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
        """End the stream: extend its end by ``mode`` and return the remaining outputs."""
        if self._finished:
            raise ValueError("the stream was flushed already")
        self._finished = True
        if not self._started:
            if not self._buffer:
                return self._empty()
            data = np.concatenate(self._buffer, axis=1)
            return self._batch(data.reshape(self._lead + (data.shape[1],)))
        n = self._n_in
        pos = np.arange(n, n + self.latency, dtype=np.int64)
        src = source_index(pos, n, MODE_CODES[self.mode])
        tail = self._tail                              # the last samples, raw
        first = n - tail.shape[1]
        ext = np.where(src[None, :] >= 0, tail[:, np.maximum(src - first, 0)], self.cval)
        self._feed(ext, raw=False)
        return self._collect(final=True)

    # ------------------------------------------------------------------ internals

    def _as_chunk(self, chunk) -> np.ndarray:
        x = np.asarray(chunk)
        if x.dtype.kind == "c":
            raise TypeError("a stream takes real samples; got a complex chunk")
        if x.dtype.kind not in "biuf":
            raise TypeError(f"chunk must hold numbers; got dtype {x.dtype}")
        if x.ndim == 0:
            x = x[None]
        lead = x.shape[:-1]
        if self._lead is None:
            self._lead = lead
        elif lead != self._lead:
            raise ValueError(f"chunk has channels {lead}; the stream's are {self._lead}")
        x = np.ascontiguousarray(x.reshape(-1, x.shape[-1]), dtype=np.float64)
        if not np.isfinite(x).all():
            # a NaN would stay in the recursions' state for ever: refused, the stream unchanged
            raise ValueError("a stream takes finite samples; this chunk holds NaN or inf (fill "
                             "the gap first, e.g. with the last value; the stream is unchanged)")
        return x

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
        from .engines.numba.stream_kernels import advance

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
        advance(ext, H, self._next, self._a0, self._L, self._kind, self._lo, self._hi, self._wr,
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
        return self._shape(rows[..., (-first) % self.decim::self.decim])

    def _empty(self) -> np.ndarray:
        C = int(np.prod(self._lead)) if self._lead is not None else 1
        return self._shape(np.zeros((C, len(self._plans), 2, 0)))

    def _shape(self, rows: np.ndarray) -> np.ndarray:           # pragma: no cover - abstract
        raise NotImplementedError

    def _batch(self, data: np.ndarray) -> np.ndarray:          # pragma: no cover - abstract
        raise NotImplementedError


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

    Attributes
    ----------
    latency : int
        Output ``n`` comes out once input ``n + latency`` has arrived.
    startup : int
        Samples needed before the first output.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> x = np.random.default_rng(0).standard_normal(5000)
    >>> f = GaussianFilter1D(20.0)
    >>> y = np.concatenate([f.process(c) for c in np.array_split(x, 37)] + [f.flush()])
    >>> bool(np.allclose(y, sftwave.gaussian_filter1d(x, 20.0), rtol=0, atol=1e-12))
    True
    """

    def __init__(self, sigma: float, order: int = 0, *, mode: str = "reflect", cval: float = 0.0,
                 truncate: float = 4.0, tol: float | None = None, method: str = "auto",
                 transform: str = "sft"):
        self.sigma = check_sigma(sigma)
        self.order = check_order(order)
        if self.order > 2:
            raise ValueError(f"order must be 0, 1 or 2 for a stream; got {order!r}")
        self._kw = dict(truncate=check_truncate(truncate), tol=check_tol(tol),
                        method=check_choice(method, ("auto", "fir", "bank"), "method"),
                        transform=check_choice(transform, ("sft", "asft"), "transform"))
        eng = engines.get("numba")
        plan = select_gaussian(self.sigma, self.order, fir_taps_per_order=eng.fir_taps_per_order(),
                               **self._kw)
        super().__init__([plan], mode=mode, cval=check_cval(cval))

    def _shape(self, rows: np.ndarray) -> np.ndarray:
        return rows[:, 0, 0, :].reshape((self._lead or ()) + (rows.shape[-1],)).copy()

    def _batch(self, data: np.ndarray) -> np.ndarray:
        from .ndimage import gaussian_filter1d

        return gaussian_filter1d(data.astype(np.float64), self.sigma, order=self.order,
                                 mode=self.mode, cval=self.cval, **self._kw)


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

    Each call returns ``channels + (len(freqs), k)``: the ``k`` outputs the
    chunk completed, every ``decim``-th.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> x = np.random.default_rng(1).standard_normal((2, 3000))
    >>> s = CWT([0.02, 0.1], output="power", decim=2)
    >>> y = np.concatenate([s.process(x[:, i:i + 100]) for i in range(0, 3000, 100)]
    ...                    + [s.flush()], axis=-1)
    >>> ref = sftwave.cwt(x, [0.02, 0.1], output="power", decim=2)
    >>> y.shape == ref.shape and bool(np.allclose(y, ref, rtol=1e-10, atol=1e-12))
    True
    """

    def __init__(self, freqs, fs: float = 1.0, *, xi=6.0, mode: str = "reflect",
                 cval: float = 0.0, output: str = "complex", decim: int = 1,
                 tol: float | None = None, method: str = "auto"):
        self.fs = check_positive(fs, "fs")
        self.freqs = check_freqs(freqs, self.fs)
        self.xi = check_xi(xi, self.freqs.size)
        self.output = check_choice(output, OUTPUTS, "output")
        tol = check_tol(tol)
        self.tol = DEFAULT_MORLET_TOL if tol is None else tol
        self.method = method
        eng = engines.get("numba")
        sigmas = frequency_to_scale(self.freqs, self.fs, self.xi)
        plans = [select_morlet(float(s), float(w), self.tol, method=method, transform="sft",
                               fir_taps_per_order=eng.fir_taps_per_order())
                 for s, w in zip(sigmas, self.xi)]
        super().__init__(plans, mode=mode, cval=check_cval(cval), decim=check_decim(decim))

    def _shape(self, rows: np.ndarray) -> np.ndarray:
        re, im = rows[:, :, 0, :], rows[:, :, 1, :]
        if self.output == "power":
            z = re * re + im * im
        elif self.output == "abs":
            z = np.hypot(re, im)
        elif self.output == "phase":
            z = np.arctan2(im, re)
        else:
            z = np.empty(re.shape, np.complex128)
            z.real, z.imag = re, im
        return z.reshape((self._lead or ()) + z.shape[1:])

    def _batch(self, data: np.ndarray) -> np.ndarray:
        from .wavelets import cwt

        return cwt(data.astype(np.float64), self.freqs, self.fs, xi=self.xi, mode=self.mode,
                   cval=self.cval, output=self.output, decim=self.decim, tol=self.tol,
                   method=self.method, dtype=np.complex128 if self.output == "complex"
                   else np.float64)
