"""Argument normalisation and error wording, in one place.

Every public function validates through these helpers so that a bad argument
always raises ``ValueError`` or ``TypeError`` naming the parameter and echoing
the value it got.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

#: Boundary modes in scipy.ndimage's spelling, mapped to the canonical name.
#: For filters, scipy treats the ``grid-*`` names as synonyms.
MODES = {
    "reflect": "reflect",
    "grid-mirror": "reflect",
    "mirror": "mirror",
    "nearest": "nearest",
    "wrap": "wrap",
    "grid-wrap": "wrap",
    "constant": "constant",
    "grid-constant": "constant",
}

TRANSFORMS = ("auto", "sft", "asft")

#: Smallest and largest accepted ``tol`` (relative RMSE of the kernel).
TOL_RANGE = (1e-9, 0.1)

#: Smallest and largest accepted Morlet ``xi`` (MNE's ``n_cycles``).  Below 0.01
#: the wavelet's normalisation loses its digits to cancellation (``1 + e^{-xi^2}
#: - 2 e^{-3 xi^2 / 4}`` is about ``xi^2 / 2``); above 300 the layouts' search
#: scale (96 samples) puts the carrier beyond the Nyquist frequency.
XI_RANGE = (0.01, 300.0)


def _scalar(value: Any) -> Any:
    """A 0-d array becomes its element (scipy accepts them as scalars)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    return value


def _is_real_number(value: Any) -> bool:
    if type(value) in (float, int):     # the common case, without the ABC's isinstance
        return True
    value = _scalar(value)
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_input_array(input: Any, name: str = "input") -> np.ndarray:
    """Return ``input`` as an ndarray of a supported numeric dtype, in native byte order.

    bool is a number here (False 0, True 1), as scipy.ndimage takes it.

    A non-native (big-endian on x86) array is converted once, so that every
    dtype rule downstream sees ``float32`` as ``float32`` (scipy.ndimage also
    returns native dtypes for such input).
    """
    try:
        arr = np.asarray(input)
    except ValueError:  # a ragged nested sequence
        raise ValueError(f"{name} must be a rectangular array of numbers (nested sequences of "
                         f"equal lengths); got a ragged {type(input).__name__}") from None
    except Exception as exc:
        raise TypeError(f"{name} must be array-like; got {type(input).__name__}") from exc
    if arr.dtype.kind not in "buifc":
        raise TypeError(
            f"{name} must have a numeric (bool, integer, float or complex) dtype; "
            f"got dtype {arr.dtype}"
        )
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def check_writeable(array: np.ndarray, name: str = "output") -> np.ndarray:
    """``array``, which the caller will write into: refuse a read-only one with scipy's words."""
    if not array.flags.writeable:
        raise ValueError(f"{name} array is read-only")
    return array


def check_sigma(sigma: Any, name: str = "sigma", *, allow_zero: bool = False) -> float:
    """Return ``sigma`` as a float, checking it is positive (or zero) and finite."""
    return check_positive(sigma, name, allow_zero=allow_zero)


def check_order(order: Any, name: str = "order") -> int:
    """Return the derivative order, a non-negative integer (as scipy takes it)."""
    if isinstance(order, (bool, np.bool_)) or not isinstance(order, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative integer; got {order!r}")
    if int(order) < 0:
        raise ValueError(f"{name} must be a non-negative integer; got {order!r}")
    return int(order)


def check_mode(mode: Any, name: str = "mode") -> str:
    """Return the canonical name of a scipy.ndimage boundary mode."""
    if not isinstance(mode, str) or mode not in MODES:
        valid = ", ".join(repr(m) for m in MODES)
        raise ValueError(f"{name} must be one of {valid}; got {mode!r}")
    return MODES[mode]


@overload
def check_cval(cval: Any, name: str = ..., *, complex_ok: Literal[False] = ...) -> float: ...
@overload
def check_cval(cval: Any, name: str = ..., *, complex_ok: bool) -> float | complex: ...
def check_cval(cval: Any, name: str = "cval", *, complex_ok: bool = False) -> float | complex:
    """A real fill value; complex only where ``complex_ok`` (complex input, as scipy allows)."""
    value = _scalar(cval)
    if complex_ok and isinstance(value, numbers.Complex) and not isinstance(value, (bool, np.bool_)):
        return complex(value) if complex(value).imag != 0 else float(complex(value).real)
    if not _is_real_number(value):
        kind = "a number" if complex_ok else "a real number (complex only for complex input)"
        raise TypeError(f"{name} must be {kind}; got {cval!r}")
    return float(value)


def check_axis(axis: Any, ndim: int, name: str = "axis") -> int:
    """Return ``axis`` normalised to ``0 <= axis < ndim``."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {axis!r}")
    if not -ndim <= int(axis) < ndim:
        raise ValueError(
            f"{name} {axis!r} is out of range for an input with {ndim} dimension(s)"
        )
    return int(axis) % ndim


def check_axes(axes: Any, ndim: int, name: str = "axes") -> tuple[int, ...]:
    """Return the normalised, duplicate-free tuple of axes (all axes for None)."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, numbers.Integral) and not isinstance(axes, (bool, np.bool_)):
        axes = (axes,)
    if not isinstance(axes, Sequence):
        raise TypeError(f"{name} must be None, an integer or a sequence of integers; got {axes!r}")
    out = tuple(check_axis(a, ndim, name) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must not contain duplicates; got {axes!r}")
    return out


def check_truncate(truncate: Any, name: str = "truncate") -> float:
    if not _is_real_number(truncate):
        raise TypeError(f"{name} must be a real number; got {truncate!r}")
    value = float(_scalar(truncate))
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number; got {truncate!r}")
    return value


def check_radius(radius: Any, name: str = "radius") -> int | None:
    """``radius`` as scipy takes it: None or a non-negative integer.

    A number that is not an integer (``2.5``, also ``3.0``) is a ``ValueError``,
    as in scipy; a bool or a non-number is a ``TypeError``.
    """
    if radius is None:
        return None
    radius = _scalar(radius)
    if isinstance(radius, (bool, np.bool_)) or not _is_real_number(radius):
        raise TypeError(f"{name} must be None or a non-negative integer; got {radius!r}")
    if not isinstance(radius, numbers.Integral):
        raise ValueError(f"{name} must be None or a non-negative integer; got {radius!r}")
    if int(radius) < 0:
        raise ValueError(f"{name} must be None or a non-negative integer; got {radius!r}")
    return int(radius)


def check_tol(tol: Any, name: str = "tol") -> float | None:
    """Return ``tol`` (a relative RMSE of the kernel) or None."""
    if tol is None:
        return None
    if not _is_real_number(tol):
        raise TypeError(f"{name} must be None or a real number; got {tol!r}")
    value = float(_scalar(tol))
    lo, hi = TOL_RANGE
    if not (math.isfinite(value) and lo <= value <= hi):
        raise ValueError(f"{name} must be None or in [{lo:g}, {hi:g}]; got {tol!r}")
    return value


def check_choice(value: Any, choices: Sequence[str], name: str) -> str:
    if not isinstance(value, str) or value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {valid}; got {value!r}")
    return value


def per_axis(value: Any, naxes: int, name: str) -> list:
    """Expand a scalar to ``naxes`` copies, or check a sequence's length (scipy's rule)."""
    value = _scalar(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        return [value] * naxes
    seq = list(value)
    if len(seq) != naxes:
        raise ValueError(
            f"{name} must be a scalar or a sequence with one entry per axis "
            f"({naxes}); got {value!r}"
        )
    return seq


def check_positive(value: Any, name: str, *, allow_zero: bool = False) -> float:
    """A positive (or, with ``allow_zero``, non-negative) finite real number: ``sigma``, ``fs``, ``xi``."""
    if not _is_real_number(value):
        raise TypeError(f"{name} must be a real number; got {value!r}")
    v = float(_scalar(value))
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        kind = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be a {kind} finite number; got {value!r}")
    return v


def check_xi(xi: Any, nfreqs: int, name: str = "xi") -> np.ndarray:
    """A number in :data:`XI_RANGE`, or one per frequency (MNE's ``n_cycles`` array): ``nfreqs`` values."""
    lo, hi = XI_RANGE
    if np.ndim(xi) == 0:
        value = check_positive(xi, name)
        if not lo <= value <= hi:
            raise ValueError(f"{name} must be in [{lo:g}, {hi:g}] (the Morlet designs' range); "
                             f"got {xi!r}")
        return np.full(nfreqs, value)
    try:
        values = np.asarray(xi, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a positive number or one per frequency; got {xi!r}") from exc
    if values.shape != (nfreqs,):
        raise ValueError(f"{name} must be a number or hold one value per frequency ({nfreqs}); "
                         f"got shape {values.shape}")
    bad = ~np.isfinite(values) | (values <= 0)
    if bad.any():
        raise ValueError(f"{name} must be positive and finite; got {float(values[bad][0])!r} among them")
    out = (values < lo) | (values > hi)
    if out.any():
        raise ValueError(f"{name} must be in [{lo:g}, {hi:g}] (the Morlet designs' range); got "
                         f"{float(values[out][0])!r} among them")
    return values


def check_freqs(freqs: Any, fs: float, name: str = "freqs") -> np.ndarray:
    """Frequencies: a positive number or a 1-D sequence of them, each at most ``fs / 2``."""
    if freqs is None or isinstance(freqs, (str, bytes)):
        raise TypeError(f"{name} must be a positive number or a 1-D sequence of them; got {freqs!r}")
    try:
        f = np.asarray(freqs, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a sequence of real numbers; got {freqs!r}") from exc
    if f.ndim > 1:
        raise ValueError(f"{name} must be a scalar or a 1-D sequence; got shape {f.shape}")
    f = np.atleast_1d(f)
    bad = ~np.isfinite(f) | (f <= 0)
    if bad.any():
        raise ValueError(f"{name} must be positive and finite; got {float(f[bad][0])!r} among them")
    if (f > fs / 2).any():
        raise ValueError(
            f"{name} must not exceed the Nyquist frequency fs/2 = {fs / 2!r}; "
            f"got {float(f.max())!r}"
        )
    return f


def check_below_nyquist(sigma: float, xi: float) -> None:
    """The wavelet's centre frequency ``xi / sigma`` must not exceed pi."""
    if xi / sigma > math.pi:
        raise ValueError(
            f"the wavelet's centre frequency xi/sigma = {xi / sigma:.4g} rad/sample exceeds "
            f"Nyquist (pi): increase sigma (got {sigma!r}) or decrease xi (got {xi!r})"
        )


def check_decim(decim: Any, name: str = "decim") -> int:
    """A positive integer (``[::decim]``)."""
    if isinstance(decim, (bool, np.bool_)) or not isinstance(decim, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer; got {decim!r}")
    if int(decim) < 1:
        raise ValueError(f"{name} must be a positive integer; got {decim!r}")
    return int(decim)


def check_spacing(spacing: Any, naxes: int, name: str = "spacing") -> tuple[float, ...] | None:
    """The physical size of a sample along each of ``naxes`` axes: None (every axis 1), a
    positive finite number for all axes, or a sequence of one per axis.

    Examples
    --------
    >>> check_spacing((5, 1, 1), 3)
    (5.0, 1.0, 1.0)
    >>> check_spacing(None, 2) is None
    True
    >>> check_spacing((1.0, 0.0), 2)
    Traceback (most recent call last):
    ...
    ValueError: spacing must hold positive finite numbers, one per axis (2); got (1.0, 0.0)
    """
    if spacing is None:
        return None
    values = per_axis(spacing, naxes, name)
    if not all(_is_real_number(v) for v in values):
        raise TypeError(f"{name} must be a real number or a sequence of them; got {spacing!r}")
    out = tuple(float(_scalar(v)) for v in values)
    if not all(math.isfinite(v) and v > 0 for v in out):
        raise ValueError(f"{name} must hold positive finite numbers, one per axis ({naxes}); "
                         f"got {spacing!r}")
    return out


def check_workers(workers: Any, name: str = "workers") -> int | None:
    """scipy.fft's convention: None (all threads), a positive count, or -1 for all cores."""
    import os

    if workers is None:
        return None
    if isinstance(workers, (bool, np.bool_)) or not isinstance(workers, numbers.Integral):
        raise TypeError(f"{name} must be None or an integer; got {workers!r}")
    workers = int(workers)
    cores = os.cpu_count() or 1
    if workers == -1:
        return cores
    if workers < 1:
        raise ValueError(f"{name} must be a positive integer or -1; got {workers!r}")
    return workers


def scalogram_dtype(dtype: Any, single: bool, output: str) -> np.dtype:
    """The dtype of a scalogram: ``dtype`` checked against ``output``, or the default.

    The default is complex64 (float32 for real outputs) for single-precision
    input (``single``), complex128 (float64) otherwise.
    """
    base = np.dtype(np.complex64 if single else np.complex128)
    if dtype is None:
        return base if output == "complex" else np.dtype(base.char.lower())  # F->f, D->d
    try:
        dt = np.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"dtype must be a numpy dtype; got {dtype!r}") from exc
    if output == "complex" and dt.kind != "c":
        raise ValueError(f"dtype must be complex for output='complex'; got {dt}")
    if output != "complex" and dt.kind != "f":
        raise ValueError(f"dtype must be a real floating dtype for output={output!r}; got {dt}")
    return dt


def check_out(out: Any, shape: tuple, dtype: np.dtype, name: str = "out") -> np.ndarray:
    """numpy's ``out=``: a writeable C-contiguous ndarray of exactly this shape and dtype."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name} must be None or an ndarray; got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"{name} must have shape {shape}; got {out.shape}")
    if out.dtype != dtype:
        raise ValueError(f"{name} must have dtype {dtype}; got {out.dtype}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return check_writeable(out, name)


def is_dataarray(x: Any) -> bool:
    """Whether ``x`` is an xarray ``DataArray`` (without importing xarray)."""
    return type(x).__name__ == "DataArray" and type(x).__module__.startswith("xarray")


def output_array(output: Any, x: np.ndarray) -> np.ndarray:
    """scipy.ndimage's ``output`` rule, with ValueError/TypeError instead of RuntimeError.

    None: a new array of ``x``'s dtype; a dtype: a new array of it; an array:
    itself, checked (shape, writeable, numeric or bool, complex for complex input).
    """
    complex_input = x.dtype.kind == "c"
    if output is None:
        return np.empty(x.shape, dtype=x.dtype)
    if isinstance(output, (type, np.dtype, str)):
        try:
            dtype = np.dtype(output)
        except TypeError as exc:
            raise TypeError(f"output must be an array or a numeric dtype; got {output!r}") from exc
        if dtype.kind not in "buifc":
            raise TypeError(f"output must have a numeric dtype; got {output!r}")
        if complex_input and dtype.kind != "c":
            raise TypeError(f"output must have a complex dtype for complex input; got {output!r}")
        return np.empty(x.shape, dtype=dtype)
    if not isinstance(output, np.ndarray):
        raise TypeError(f"output must be None, a dtype or an ndarray; got {type(output).__name__}")
    if output.shape != x.shape:
        raise ValueError(f"output shape {output.shape} does not match input shape {x.shape}")
    check_writeable(output, "output")
    if output.dtype.kind not in "buifc":
        raise TypeError(f"output must have a numeric dtype; got {output.dtype}")
    if complex_input and output.dtype.kind != "c":
        raise TypeError(f"output must have a complex dtype for complex input; got {output.dtype}")
    return output


#: Work bound of the exact overlap test (``np.shares_memory``): beyond it, two
#: arrays whose extents overlap count as overlapping (a copy too many, never one
#: too few).
_OVERLAP_MAX_WORK = 1 << 12

_TOO_HARD = getattr(np, "exceptions", np).TooHardError      # numpy < 1.25: np.TooHardError


def overlaps(a: Any, b: Any) -> bool:
    """Whether the ndarrays ``a`` and ``b`` share an element in memory (False if either is not one).

    ``np.may_share_memory`` first (their extents only, free); where the extents
    overlap, the exact test with a bounded amount of work, and True where that
    bound is reached.

    Examples
    --------
    >>> a = np.arange(10.0)
    >>> overlaps(a[1:], a[:-1]), overlaps(a[::2], a[1::2]), overlaps(a, a.copy())
    (True, False, False)
    """
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return False
    if not np.may_share_memory(a, b):
        return False
    try:
        # numpy's stubs take only -1 and 0, its documentation any bound
        return bool(np.shares_memory(a, b, max_work=_OVERLAP_MAX_WORK))  # type: ignore[arg-type]
    except _TOO_HARD:                       # the bound was reached
        return True


def apart_from(x: Any, out: Any) -> Any:
    """``x``, or a copy of it where the array ``out`` overlaps it (numpy's ufunc rule).

    A function that writes its result into ``out`` while still reading ``x``
    (a scalogram row by row, a Laplacian axis by axis) reads this instead, so
    that ``out`` may be ``x`` itself, a view of it, or overlap it anyhow, and
    the result is that of the call without the overlap.

    Examples
    --------
    >>> buf = np.zeros((2, 4))
    >>> apart_from(buf[0], buf) is buf[0]
    False
    >>> x = np.ones(3)
    >>> apart_from(x, np.empty(3)) is x
    True
    """
    return x.copy() if overlaps(x, out) else x
