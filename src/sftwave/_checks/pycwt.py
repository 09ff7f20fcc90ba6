"""Argument checks of :mod:`sftwave.pycwt` (pycwt's API): series, scales, mothers, tests.

Every builder here normalises pycwt's arguments once (its ``-1`` defaults
resolved) and raises ``ValueError``/``TypeError`` naming the parameter; none
computes a transform.  The zero-edit switch asks the same builders whether a
call lies inside the module's scope.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import check_input_array, check_positive

#: pycwt's ``wavelet=`` strings -> (kind, default parameter).
MOTHER_STRINGS = {
    "morlet": ("morlet", 6.0),
    "paul": ("paul", 4.0),
    "dog": ("dog", 2.0),
    "mexicanhat": ("mexicanhat", 2.0),
}

#: pycwt's mother classes' ``name`` attribute -> (kind, the attribute holding the parameter).
MOTHER_NAMES = {
    "Morlet": ("morlet", "f0"),
    "Paul": ("paul", "m"),
    "DOG": ("dog", "m"),
    "Mexican Hat": ("mexicanhat", "m"),
}


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def _is_real_number(value: Any) -> bool:
    value = _scalar(value)
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


#: The most scales one call may ask for.
MAX_SCALES = 100_000


def mother_kind(wavelet: Any) -> tuple[str, float] | None:
    """``(kind, parameter)`` of a pycwt mother given by name or object.

    ``None``: another object with pycwt's mother interface (``psi_ft``,
    ``flambda``, ``coi``), used as it is.
    """
    if isinstance(wavelet, str):
        if wavelet not in MOTHER_STRINGS:
            raise ValueError(
                f"wavelet must be one of {', '.join(map(repr, MOTHER_STRINGS))} or a "
                f"mother object (Morlet(), Paul(), DOG(), MexicanHat()); got "
                f"{wavelet!r}"
            )
        return MOTHER_STRINGS[wavelet]
    name = getattr(wavelet, "name", None)
    if isinstance(name, str) and name in MOTHER_NAMES:
        kind, attribute = MOTHER_NAMES[name]
        value = _scalar(getattr(wavelet, attribute, None))
        if not _is_real_number(value) or not math.isfinite(float(value)) or float(value) <= 0:
            raise ValueError(f"wavelet.{attribute} must be a positive number; got {value!r}")
        if kind != "morlet" and float(value) != int(value):
            raise ValueError(f"wavelet.m must be a positive integer; got {value!r}")
        return kind, float(value)
    if all(callable(getattr(wavelet, a, None)) for a in ("psi_ft", "flambda", "coi")):
        return None
    raise TypeError(
        f"wavelet must be a name or a mother object with psi_ft, flambda and coi "
        f"(pycwt's interface); got {type(wavelet).__name__}"
    )


def check_series(signal: Any, name: str, *, real: bool = False, min_size: int = 2) -> np.ndarray:
    """A 1-D series as float64 (or complex128 where not ``real``), never the caller's array."""
    a = check_input_array(signal, name)
    if real and a.dtype.kind == "c":
        raise TypeError(f"{name} must be a real series; got dtype {a.dtype}")
    if a.ndim != 1 or a.size < min_size:
        raise ValueError(f"{name} must be 1-D with at least {min_size} samples; got shape {a.shape}")
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def check_J(J: Any, name: str = "J") -> int | None:
    """``None`` for pycwt's ``-1`` (its default), else a non-negative integer."""
    if not _is_real_number(J) or not float(_scalar(J)).is_integer():
        raise ValueError(f"{name} must be a non-negative integer or -1; got {J!r}")
    j = int(_scalar(J))
    if j == -1:
        return None
    if j < 0 or j + 1 > MAX_SCALES:
        raise ValueError(f"{name} must be -1 or an integer in [0, {MAX_SCALES - 1}]; got {J!r}")
    return j


@dataclass(frozen=True)
class ScalesRequest:
    """pycwt's scales of one call, its ``-1`` defaults resolved.

    Attributes
    ----------
    dt, dj, s0 : float
        The sampling interval, the spacing in octaves, the smallest scale.
    J : int
        The number of scales less one.
    sj, freqs : ndarray
        The scales (time units) and their Fourier frequencies ``1 / (flambda sj)``.
    """

    dt: float
    dj: float
    s0: float
    J: int
    sj: np.ndarray
    freqs: np.ndarray


def scales_request(
    n: int | None, dt: Any, dj: Any, s0: Any, J: Any, flambda: float, freqs: Any = None
) -> ScalesRequest:
    """pycwt's scales: ``s0 = -1`` is ``2 dt / flambda``, ``J = -1`` is
    ``round(log2(n dt / s0) / dj)`` (``n`` None: refused), or the scales of ``freqs``."""
    dt = check_positive(dt, "dt")
    dj = check_positive(dj, "dj")
    if freqs is not None:
        f = np.asarray(freqs, dtype=np.float64) if _all_real(freqs) else None
        if f is None or f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f)) or np.any(f <= 0):
            raise ValueError(f"freqs must be a 1-D sequence of positive frequencies; got {freqs!r}")
        sj = 1.0 / (flambda * f)
        return ScalesRequest(dt, dj, float(sj[0]), sj.size - 1, sj, f)
    s0v = 2 * dt / flambda if _is_minus_one(s0) else check_positive(s0, "s0")
    j = check_J(J)
    if j is None:
        if n is None:
            raise ValueError(
                "J=-1 (pycwt's default from the series' length) needs the series; "
                "pass J = round(log2(N dt / s0) / dj) for a series of N samples"
            )
        j = int(np.round(np.log2(n * dt / s0v) / dj))
        if j < 0 or j + 1 > MAX_SCALES:
            raise ValueError(
                f"J=-1 gives {j + 1} scales for {n} samples with dt={dt!r} and s0={s0!r}; pass J"
            )
    sj = s0v * 2 ** (np.arange(j + 1) * dj)
    return ScalesRequest(dt, dj, s0v, j, sj, 1.0 / (flambda * sj))


def _all_real(v: Any) -> bool:
    try:
        a = np.asarray(v)
    except Exception:
        return False
    return a.dtype.kind in "iuf"


def _is_minus_one(v: Any) -> bool:
    return _is_real_number(v) and float(_scalar(v)) == -1


def check_level(level: Any, name: str = "significance_level") -> float:
    """A probability in ``(0, 1)``."""
    v = check_positive(level, name)
    if not v < 1:
        raise ValueError(f"{name} must lie in (0, 1); got {level!r}")
    return v


def check_ar1(g: Any, name: str) -> float:
    """A lag-1 autocorrelation in ``(-1, 1)``."""
    if not _is_real_number(g):
        raise TypeError(f"{name} must be a real number; got {g!r}")
    v = float(_scalar(g))
    if not abs(v) < 1:
        raise ValueError(f"{name} must lie in (-1, 1); got {g!r}")
    return v


def check_count(value: Any, name: str, minimum: int = 1) -> int:
    """An integer at least ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(_scalar(value), numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {value!r}")
    v = int(_scalar(value))
    if v < minimum:
        raise ValueError(f"{name} must be at least {minimum}; got {value!r}")
    return v


@dataclass(frozen=True)
class SignificanceRequest:
    """pycwt's ``significance`` arguments, normalised.

    Attributes
    ----------
    variance : float
        The signal's variance (its ``std() ** 2``, or the number given).
    n0 : int
        ``len(signal)`` (1 for a number), which pycwt's red-noise formula reads.
    scales : ndarray
        The scales.
    sigma_test : int
        0, 1 or 2.
    alpha : float or None
        The lag-1 autocorrelation (None: fitted to the signal).
    level : float
        The significance level.
    dof : ndarray or None
        Per scale (test 1), ``[s1, s2]`` (test 2), or None (test 0 / default).
    """

    variance: float
    n0: int
    scales: np.ndarray
    sigma_test: int
    alpha: float | None
    level: float
    dof: np.ndarray | None


def significance_request(
    signal: Any, dt: Any, scales: Any, sigma_test: Any, alpha: Any, significance_level: Any, dof: Any
) -> SignificanceRequest:
    """Check pycwt's ``significance`` arguments (a number or a series for ``signal``)."""
    check_positive(dt, "dt")
    if _is_real_number(signal):
        variance, n0 = float(_scalar(signal)), 1
    else:
        s = check_series(signal, "signal", real=True)
        variance, n0 = float(s.std() ** 2), s.size
    sc = np.asarray(scales, dtype=np.float64) if _all_real(scales) else None
    if sc is None or sc.ndim != 1 or sc.size < 2 or not np.all(np.isfinite(sc) & (sc > 0)):
        raise ValueError(f"scales must be a 1-D sequence of at least 2 positive scales; got {scales!r}")
    if sigma_test not in (0, 1, 2) or isinstance(sigma_test, (bool, np.bool_)):
        raise ValueError(f"sigma_test must be either 0, 1, or 2; got {sigma_test!r}")
    a = None if alpha is None else check_ar1(alpha, "alpha")
    if a is None and n0 == 1:
        raise ValueError(
            "alpha=None fits the lag-1 autocorrelation to the signal: pass the "
            "series, or alpha, when signal is its variance"
        )
    d = None
    if sigma_test in (1, 2) and not (_is_real_number(dof) and float(_scalar(dof)) == -1):
        d = np.asarray(dof, dtype=np.float64) if _all_real(dof) else None
        if d is None or d.ndim > 1 or not np.all(np.isfinite(d)):
            raise ValueError(f"dof must be a number or a 1-D sequence of numbers; got {dof!r}")
        if sigma_test == 2 and d.size != 2:
            raise ValueError(f"dof must be set to [s1, s2], the range of scale-averages; got {dof!r}")
        if sigma_test == 1 and d.size not in (1, sc.size):
            raise ValueError(f"dof must be one number or one per scale ({sc.size}); got {d.size} values")
    elif sigma_test == 2:
        raise ValueError("sigma_test=2 needs dof=[s1, s2], the range of scale-averages")
    return SignificanceRequest(variance, n0, sc, int(sigma_test), a, check_level(significance_level), d)


def check_scale_average(cdelta: float, sel: np.ndarray, dof: np.ndarray, name: str) -> None:
    """The scale-average test needs T&C's factors and at least one scale in ``[s1, s2]``."""
    if cdelta == -1:
        raise ValueError(f"sigma_test=2: Cdelta and dj0 are not defined for wavelet {name}")
    if sel.size == 0:
        raise ValueError(f"No valid scales between {dof[0]} and {dof[1]}.")


def check_icwt(W: Any, sj: Any, dt: Any, dj: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """``(W, sj, axis)``: ``axis`` 0 where ``W``'s rows are the scales, 1 where its columns are."""
    w = check_input_array(W, "W")
    s = np.asarray(sj, dtype=np.float64) if _all_real(sj) else None
    if w.ndim != 2:
        raise ValueError(f"W must be 2-D (scales, times); got shape {w.shape}")
    if s is None or s.ndim != 1 or not np.all(np.isfinite(s) & (s > 0)):
        raise ValueError(f"sj must be a 1-D sequence of positive scales; got {sj!r}")
    check_positive(dt, "dt")
    check_positive(dj, "dj")
    if w.shape[0] == s.size:
        return w, s, 0
    if w.shape[1] == s.size:
        return w, s, 1
    raise ValueError(f"W's dimensions {w.shape} do not match sj ({s.size} scales)")


def check_pair(y1: Any, y2: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two real series of the same length (at least 3 samples: their AR(1) is fitted)."""
    a = check_series(y1, "y1", real=True, min_size=3)
    b = check_series(y2, "y2", real=True, min_size=3)
    if a.size != b.size:
        raise ValueError(f"y1 and y2 must have the same length; got {a.size} and {b.size}")
    return a, b


def check_coherence_mother(kind: tuple[str, float] | None, wavelet: Any) -> None:
    """Coherence needs the Morlet of ``f0 = 6`` (pycwt's only mother with ``smooth``)."""
    if kind != ("morlet", 6.0):
        raise ValueError(
            f"wavelet coherence is pycwt's for the Morlet wavelet with f0=6 only "
            f"(its only mother with smooth() and T&C's factors); got "
            f"wavelet={wavelet!r}"
        )


def check_rednoise(N: Any, g: Any, a: Any) -> tuple[int, float, float]:
    """``rednoise``'s length, coefficient and innovation scale."""
    n = check_count(N, "N")
    gv = check_ar1(g, "g")
    if not _is_real_number(a):
        raise TypeError(f"a must be a real number; got {a!r}")
    return n, gv, float(_scalar(a))


def known_mother(wavelet: Any) -> tuple[str, float]:
    """:func:`mother_kind` of one of pycwt's four mothers; another object is refused."""
    kind = mother_kind(wavelet)
    if kind is None:
        raise ValueError(f"wavelet: a mother object other than pycwt's four; got {wavelet!r}")
    return kind


def check_significance_keywords(kwargs: dict) -> None:
    """``wct``'s keywords for ``wct_significance``: pycwt's own (``mc_count``, ``progress``,
    ``cache``) only."""
    unknown = set(kwargs) - {"mc_count", "progress", "cache"}
    if unknown:
        raise TypeError(f"wct_significance() got an unexpected keyword argument {sorted(unknown)[0]!r}")
