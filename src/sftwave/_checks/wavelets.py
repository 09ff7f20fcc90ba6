"""The CWT's request (:class:`CwtRequest`) and the wavelet family's other argument checks.

:func:`cwt_request` turns the arguments of :func:`sftwave.cwt` (``freqs``), and
:func:`morlet_request` those of :func:`sftwave.morlet_transform` (``sigma``), into a frozen
:class:`CwtRequest`: the rows (scale in samples and ``xi`` of each), every
option normalised with its default resolved, the result's dtype and shape,
``out`` checked in that shape.  It reads the input's shape and two facts of
its dtype (complex, single precision), never its values, and never computes:
a call of any size is checked at the cost of its arguments.

What the layers above know is passed in, as for the other families' builders:
the wavelet family (an object of ``sftwave.plans.families``, resolved by
:func:`~sftwave.plans.families.wavelet_family`; it checks ``xi``, ``output``,
``method`` and the engine, and gives the scales), the engine's name (resolved
by :func:`sftwave.engines.resolve_engine`, its capabilities checked by
:func:`sftwave.engines.check_request`) and whether that engine has an FFT
path, the plans' default ``tol`` and their largest ``sigma`` on ``n``
samples.  :func:`sftwave.wavelets.cwt_request` does that resolution and calls
this builder.

(The wavelet itself is parsed once by :func:`sftwave.plans.families.wavelet_family`,
which lives with the family objects in the plans layer: a family carries its plan selection.)

Examples
--------
>>> from sftwave.plans.families import Morlet
>>> facts = dict(engine="numba", engine_fft=True, default_tol=1e-4,
...              sigma_limit=lambda n: max(8.0 * n, 16384.0))
>>> r = cwt_request((3, 10**12), [0.1, 0.01], 1.0, family=Morlet(), output="power", **facts)
>>> r.out_shape, r.dtype, r.tol                    # a terabyte's call, checked without it
((3, 2, 1000000000000), dtype('float64'), 0.0001)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import (
    check_axis,
    check_below_nyquist,
    check_choice,
    check_cval,
    check_decim,
    check_freqs,
    check_mode,
    check_out,
    check_positive,
    check_sigma,
    check_tol,
    check_workers,
    check_xi,
    is_dataarray,
    scalogram_dtype,
)
from .ndimage import NAN_POLICIES, Array

__all__ = ["Array", "CwtRequest", "cwt_request", "morlet_request", "scalogram_request", "family_rows",
           "sigma_rows", "check_cwt_input", "check_keywords", "check_factors", "refuse_out",
           "check_wavelet_lengths", "check_rows_along", "check_scalogram_rows", "icwt_rows",
           "selected_rows", "check_plan", "check_plan_engine", "input_precision"]

#: ``scales_of(xi)``: the rows ``(sigma in samples, xi)`` of a call, ``xi`` checked; its
#: ``describe(i)`` names row ``i`` in the error of a wavelet too long for the signal.
ScalesOf = Callable[[Any], list[tuple[float, float]]]


@dataclass(frozen=True, eq=False)
class CwtRequest:
    """A checked call of :func:`sftwave.cwt` or :func:`sftwave.morlet_transform` (not the signal).

    ``shape`` is the input's; ``axis`` its time axis (non-negative), of ``n``
    samples.  ``sigmas`` and ``xis`` are the rows' scales (samples) and ``xi``
    (NaN for a family without one); ``freqs`` and ``fs`` the frequencies and
    sampling rate that gave them (None for :func:`sftwave.morlet_transform`,
    whose one row is ``sigma``).  ``in_place``: :func:`sftwave.morlet_transform`'s
    layout (the result on the input's axes); otherwise :func:`sftwave.cwt`'s
    (``axis`` moved last, one row per scale before it).  ``dtype`` is the
    result's, ``tol`` resolved, ``out`` the caller's array checked against
    :attr:`out_shape` (or None).  ``transform`` and ``bank_method`` are as
    given: the engine resolves ``'auto'`` when it plans.
    """

    shape: tuple[int, ...]
    axis: int
    sigmas: tuple[float, ...]
    xis: np.ndarray
    freqs: np.ndarray | None
    fs: float | None
    family: Any
    in_place: bool
    complex_input: bool
    mode: str
    cval: float | complex
    output: str
    tol: float
    dtype: np.dtype
    method: str
    transform: str
    bank_method: str
    decim: int
    out: np.ndarray | None
    workers: int | None
    nan_policy: str
    min_weight: float
    engine: str
    windowed: bool

    @property
    def n(self) -> int:
        """Samples along the time axis."""
        return self.shape[self.axis]

    @property
    def out_shape(self) -> tuple[int, ...]:
        """The result's shape (``ceil(n / decim)`` samples along time)."""
        return _out_shape(self.shape, self.axis, len(self.sigmas), self.decim, self.in_place)


def _out_shape(shape: tuple[int, ...], axis: int, rows: int, decim: int,
               in_place: bool) -> tuple[int, ...]:
    n_out = -(-shape[axis] // decim)
    if in_place:
        return tuple(n_out if i == axis else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i != axis) + (rows, n_out)


def input_precision(dtype: Any) -> tuple[bool, bool]:
    """``(complex, single)`` of an input of numpy ``dtype``, as the CPU engine reads them.

    Examples
    --------
    >>> input_precision(np.float32), input_precision(np.complex128)
    ((False, True), (True, False))
    """
    dt = np.dtype(dtype)
    return dt.kind == "c", dt in (np.float32, np.float16, np.complex64)


def check_cwt_input(x: Any, function: str = "cwt") -> None:
    """Refuse what :func:`sftwave.cwt` does not take as its input (an xarray DataArray)."""
    if is_dataarray(x):
        raise TypeError(f"{function} takes arrays; for an xarray DataArray call "
                        f"sftwave.xarray.{function}(x, freqs), which keeps its coordinates and "
                        "reads fs from its time axis")


def check_keywords(given: Iterable[str], allowed: Iterable[str], function: str) -> None:
    """``TypeError`` as Python words it for a keyword ``function`` does not take."""
    unknown = set(given) - set(allowed)
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {sorted(unknown)[0]!r}")


def refuse_out(out: Any, function: str) -> None:
    """``TypeError`` where ``out`` is given to a function that returns a new (lazy) array."""
    if out is not None:
        raise TypeError(f"{function} takes no 'out': it returns a new dask array")


def family_rows(family: Any, f: np.ndarray, fs: float) -> ScalesOf:
    """``scales_of(xi)``: the ``(sigma, xi)`` of each checked frequency of ``f`` at ``fs`` for
    ``family`` (``xi`` checked by the family), naming the frequency in errors."""

    def scales_of(xi: Any) -> list[tuple[float, float]]:
        xis = family.check_xi(xi, f.size)
        return [(float(s), float(w)) for s, w in zip(family.scale(f, fs, xis), xis)]

    scales_of.describe = lambda i: f"freqs (its {float(f[i])!r} with fs={fs!r})"  # type: ignore[attr-defined]
    return scales_of


def sigma_rows(sigma: float) -> ScalesOf:
    """``scales_of(xi)`` of :func:`sftwave.morlet_transform`'s one Morlet row of ``sigma``
    (checked) samples: ``xi`` one number in range, the centre frequency below Nyquist."""

    def scales_of(xi: Any) -> list[tuple[float, float]]:
        xi = float(check_xi(check_positive(xi, "xi"), 1)[0])
        check_below_nyquist(sigma, xi)
        return [(sigma, xi)]

    scales_of.describe = lambda i: f"sigma={sigma!r}"  # type: ignore[attr-defined]
    return scales_of


def check_wavelet_lengths(sigmas: Iterable[float], xis: Iterable[float], n: int,
                          limit: float, too_long: Callable[[str, float, float, int], str],
                          describe: Callable[[int], str]) -> None:
    """Refuse a row whose wavelet (``sigma`` samples) exceeds ``limit`` on ``n`` samples, with
    the message ``too_long(describe(i), sigma, xi, n)`` (the family's)."""
    for i, (s, w) in enumerate(zip(sigmas, xis)):
        if s > limit:
            raise ValueError(too_long(describe(i), float(s), float(w), n))


def _out_dtype(out: Any, dtype: Any, output: str) -> Any:
    """``dtype``, or ``out``'s where ``dtype`` is None (refused in ``out``'s name where its
    kind does not fit ``output``)."""
    if out is None or dtype is not None or not isinstance(out, np.ndarray):
        return dtype
    if (output == "complex") != (out.dtype.kind == "c") or out.dtype.kind not in "fc":
        kind = "complex" if output == "complex" else "real floating"
        raise ValueError(f"out must have a {kind} dtype for output={output!r}; "
                         f"got dtype {out.dtype}")
    return out.dtype


def scalogram_request(shape: tuple[int, ...], scales_of: ScalesOf, *, family: Any, engine: str,
                      engine_fft: bool, default_tol: float, sigma_limit: Callable[[int], float],
                      complex_input: bool = False, single: bool = False, xi: Any = 6.0,
                      axis: Any = -1, mode: Any = "reflect", cval: Any = 0.0,
                      output: Any = "complex", tol: Any = None, dtype: Any = None,
                      method: Any = "auto", transform: str = "auto", bank_method: str = "auto",
                      decim: Any = 1, out: Any = None, workers: Any = None,
                      nan_policy: Any = "propagate", min_weight: Any = 0.5, in_place: bool = False,
                      windowed: bool = False, freqs: np.ndarray | None = None,
                      fs: float | None = None) -> CwtRequest:
    """The request of rows ``scales_of(xi)`` on an input of ``shape`` (see :func:`cwt_request`,
    which makes ``scales_of`` from ``freqs`` and ``fs``, or from ``sigma``).

    ``transform`` and ``bank_method`` are taken as checked by
    :func:`sftwave.engines.check_request`.

    Examples
    --------
    >>> from sftwave.plans.families import Morlet
    >>> r = scalogram_request((100,), sigma_rows(8.0), family=Morlet(), engine="numba",
    ...                       engine_fft=True, default_tol=1e-4, sigma_limit=lambda n: 1e4,
    ...                       in_place=True, decim=3)
    >>> r.sigmas, r.out_shape
    ((8.0,), (34,))
    """
    nan_policy = check_choice(nan_policy, NAN_POLICIES, "nan_policy")
    weight = check_positive(min_weight, "min_weight")
    if weight > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {min_weight!r}")
    family.check_engine(engine)
    rows = scales_of(xi)
    shape = tuple(int(d) for d in shape)
    axis = check_axis(axis, len(shape))
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=complex_input)
    output = family.check_output(output)
    method = family.check_method(method)
    checked_tol = check_tol(tol)
    workers = check_workers(workers)
    decim = check_decim(decim)
    out_dtype = scalogram_dtype(_out_dtype(out, dtype, output), single, output)
    if out is not None:
        check_out(out, _out_shape(shape, axis, len(rows), decim, in_place), out_dtype)
    if method == "fft" and not engine_fft:
        raise ValueError(f"method='fft' runs on the CPU engine only (engine='numba'); got "
                         f"engine={engine!r}")
    sigmas, xis, n = tuple(s for s, _ in rows), np.array([w for _, w in rows]), shape[axis]
    describe = getattr(scales_of, "describe", lambda i: "sigma")
    check_wavelet_lengths(sigmas, xis, n, sigma_limit(n), family.too_long, describe)
    return CwtRequest(shape, axis, sigmas, xis, freqs, fs, family, in_place, complex_input, mode,
                      cval, output, default_tol if checked_tol is None else checked_tol,
                      out_dtype, method, transform, bank_method, decim, out, workers, nan_policy,
                      weight, engine, windowed)


def cwt_request(shape: tuple[int, ...], freqs: Any, fs: Any = 1.0, *, family: Any, engine: str,
                engine_fft: bool, default_tol: float, sigma_limit: Callable[[int], float],
                **options: Any) -> CwtRequest:
    """The request of ``cwt(x, freqs, fs, **options)`` on an input of ``shape``
    (:func:`morlet_request`: of ``morlet_transform(x, sigma, **options)``).

    Parameters
    ----------
    shape : tuple of int
        The input's shape (its values are never read).
    freqs, fs : optional
        :func:`sftwave.cwt`'s frequencies and sampling rate.
    family : WaveletFamily
        The wavelet, :func:`sftwave.plans.families.wavelet_family`'s object.
    engine : str
        The resolved engine.
    engine_fft : bool
        Whether that engine has the FFT path (``method='fft'``).
    default_tol : float
        ``tol`` where the call gives None (the plans' default).
    sigma_limit : callable
        The largest ``sigma`` (samples) a row may have on ``n`` samples.
    **options
        The other arguments of :func:`sftwave.cwt`, with their defaults; and
        ``complex_input``, ``single`` (the input's dtype: complex, single
        precision) and ``windowed`` (no FFT under ``method='auto'``).

    Returns
    -------
    CwtRequest

    Raises
    ------
    ValueError, TypeError
        Naming the parameter and echoing the value.

    Examples
    --------
    >>> from sftwave.plans.families import DOG
    >>> facts = dict(engine="numba", engine_fft=True, default_tol=1e-4,
    ...              sigma_limit=lambda n: 16384.0)
    >>> cwt_request((50,), [0.1], 1.0, family=DOG(2), output="real", **facts).dtype
    dtype('float64')
    >>> cwt_request((50,), [0.1], -1.0, family=DOG(2), **facts)
    Traceback (most recent call last):
    ...
    ValueError: fs must be a positive finite number; got -1.0
    """
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    return scalogram_request(shape, family_rows(family, f, fs), freqs=f, fs=fs, family=family,
                             engine=engine, engine_fft=engine_fft, default_tol=default_tol,
                             sigma_limit=sigma_limit, **options)


def morlet_request(shape: tuple[int, ...], sigma: Any, **options: Any) -> CwtRequest:
    """The request of ``morlet_transform(x, sigma, **options)`` on an input of ``shape``: one
    Morlet row of ``sigma`` samples, the result on the input's axes; ``options`` as
    :func:`cwt_request`'s (``family`` the Morlet's).

    Examples
    --------
    >>> from sftwave.plans.families import Morlet
    >>> r = morlet_request((4, 100), 8.0, family=Morlet(), engine="numba", engine_fft=True,
    ...                    default_tol=1e-4, sigma_limit=lambda n: 16384.0, axis=0)
    >>> r.in_place, r.out_shape
    (True, (4, 100))
    """
    return scalogram_request(shape, sigma_rows(check_sigma(sigma)), in_place=True, **options)




def check_factors(factors: Any, f: np.ndarray) -> np.ndarray:
    """Positive factors, one per frequency (the rows' scale factors of :mod:`sftwave.mne`)."""
    values = np.asarray(factors, dtype=np.float64)
    if values.shape != f.shape or not np.all(values > 0):
        raise ValueError(f"factors must be positive, one per frequency; got {factors!r}")
    return values


# ----------------------------------------------------------------------------- plans, inverse


def check_plan(plan: Any, kinds: tuple[type, ...]) -> None:
    """:func:`sftwave.apply_plan`'s ``plan``: one of the plan types ``kinds``."""
    if not isinstance(plan, kinds):
        names = ", ".join(k.__name__ for k in kinds[:-1]) + f" or {kinds[-1].__name__}"
        raise TypeError(f"plan must be an {names}; got {type(plan).__name__}")


def check_plan_engine(fft: bool, engine: str, engine_fft: bool) -> None:
    """An FFT plan (``fft``) runs only on an engine that runs one (``engine_fft``)."""
    if fft and not engine_fft:
        raise ValueError(f"an FFTPlan runs on the CPU engine only (engine='numba'); got "
                         f"engine={engine!r}")


def check_rows_along(name: str, rows: int, axis: Any, n_freqs: int) -> None:
    """``name`` (a scalogram) must have one row per frequency along ``axis``."""
    if rows != n_freqs:
        raise ValueError(f"{name} has {rows} rows along axis {axis}; freqs has {n_freqs}")


def check_scalogram_rows(name: str, shape: tuple[int, ...], n_freqs: int) -> None:
    """``name`` must have the shape ``(..., n_freqs, n)``: rows on axis -2, time last."""
    if len(shape) < 2 or shape[-2] != n_freqs:
        raise ValueError(f"{name} must have shape (..., len(freqs)={n_freqs}, n); got {shape}")


def icwt_rows(freqs: Any, xi: Any) -> tuple[np.ndarray, float]:
    """:func:`sftwave.icwt`'s frequencies (1-D, positive, each once) and their one ``xi``."""
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    if f.ndim != 1 or f.size == 0 or np.any(~np.isfinite(f)) or np.any(f <= 0):
        raise ValueError(f"freqs must be a non-empty 1-D array of positive frequencies; got "
                         f"{freqs!r}")
    values, counts = np.unique(f, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"freqs must not repeat a frequency (each row's weight is solved with "
                         f"the others', and two equal rows leave it undetermined: pass each "
                         f"frequency once, with its row of W); got {float(values[counts > 1][0])!r} "
                         f"{int(counts.max())} times")
    xis = np.broadcast_to(np.asarray(xi, dtype=np.float64), f.shape)
    if np.ptp(xis) != 0:
        raise ValueError("icwt needs one xi for all rows (the weights assume one wavelet shape)")
    return f, float(check_positive(float(xis[0]), "xi"))


def selected_rows(f: np.ndarray, rows: Any) -> np.ndarray:
    """The indices of the rows of frequencies ``f`` that ``rows`` selects (all for None): a
    pair of numbers is a band of frequencies; a slice, mask or index array indexes them."""
    sel = np.arange(f.size)
    if rows is None:
        return sel
    if isinstance(rows, tuple) and len(rows) == 2 and all(
            isinstance(v, (int, float, np.floating, np.integer)) for v in rows):
        lo, hi = sorted(float(v) for v in rows)
        sel = np.flatnonzero((f >= lo) & (f <= hi))
    else:   # a slice, mask or index array (numpy checks it)
        sel = sel[rows]
    if sel.size == 0:
        raise ValueError(f"rows={rows!r} selects no row")
    return sel
