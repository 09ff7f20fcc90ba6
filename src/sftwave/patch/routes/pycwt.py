"""pycwt's functions, routed to :mod:`sftwave.pycwt`.

``cwt``, ``icwt``, ``significance``, ``xwt``, ``wct`` and ``wct_significance``
are replaced in ``pycwt.wavelet`` (which defines them, and whose functions
call each other through it) and in the package; ``ar1`` and ``ar1_spectrum``
in ``pycwt.helpers`` as well.  A call is routed only where
:mod:`sftwave.pycwt`'s checks accept it: a NumPy series (or a list), one of
pycwt's four mothers (by name, or pycwt's or sftwave's object), arguments
the checks take; ``wct`` and ``wct_significance`` with the Morlet of
``f0 = 6`` and pycwt's own keywords only.  Another mother object, a dask or
GPU array, or anything the checks refuse goes to pycwt unchanged.  ``ar1`` and
``ar1_spectrum`` are no faster in sftwave at any size: they are routed only
with ``every_size=True``.

Not routed: ``rednoise`` (pycwt's returns white noise; sftwave's the AR(1)
noise pycwt documents, so routing it would change a script's draws) and the
mother classes (every routed function takes pycwt's own mother objects, and
replacing a class by a function would break ``isinstance`` and pycwt's
``MexicanHat(DOG)`` subclassing).
"""

from __future__ import annotations

import inspect
import math
from types import ModuleType
from typing import Any

import numpy as np

from ..route import Route
from ..work import ELEMENT_S, WAVELET_CROSSOVER_S, fft_scales

#: sftwave's checks of pycwt's arguments, imported at the first call a predicate examines
#: (a script that never calls pycwt does not pay for their import).
_chk: Any = ModuleType("sftwave._checks.pycwt (not yet imported)")


def _load_checks() -> None:
    global _chk
    from ..._checks import pycwt

    _chk = pycwt


__all__ = [
    "routes",
    "accepts_cwt",
    "accepts_icwt",
    "accepts_significance",
    "accepts_xwt",
    "accepts_wct",
    "accepts_wct_significance",
    "accepts_ar1",
    "accepts_ar1_spectrum",
]

_WHERE = ("pycwt.wavelet", "pycwt")
_HELPERS = ("pycwt.helpers", "pycwt.wavelet", "pycwt")


def routes() -> list[Route]:
    """The routes of pycwt's functions to :mod:`sftwave.pycwt`.

    Returns
    -------
    list of Route
        One per routed function.

    See Also
    --------
    sftwave.patch.route.Route : The record.

    Examples
    --------
    >>> sorted(r.name for r in routes())[:3]
    ['ar1', 'ar1_spectrum', 'cwt']
    """
    out = [
        Route("pycwt", n, _WHERE, f"sftwave.pycwt:{n}", f"{__name__}:accepts_{n}",
              work=f"{__name__}:work_{n}", crossover=WAVELET_CROSSOVER_S)
        for n in ("cwt", "xwt", "wct")
    ]
    out += [
        Route("pycwt", n, _WHERE, f"sftwave.pycwt:{n}", f"{__name__}:accepts_{n}", work=f"{__name__}:work_{n}")
        for n in ("icwt", "significance")
    ]
    out.append(Route("pycwt", "wct_significance", _WHERE, "sftwave.pycwt:wct_significance",
                     f"{__name__}:accepts_wct_significance"))  # Monte Carlo: always long
    out += [  # as fast as pycwt's at every size: routed only with ``every_size=True``
        Route("pycwt", n, _HELPERS, f"sftwave.pycwt:{n}", f"{__name__}:accepts_{n}",
              work=f"{__name__}:work_{n}", crossover=math.inf)
        for n in ("ar1", "ar1_spectrum")
    ]
    return out


def _transform_seconds(n: int, a: dict[str, Any]) -> float:
    """pycwt's seconds for one transform of ``n`` samples on the call's scales (pycwt's
    defaults: ``s0 = 2 dt``, ``J`` to the series' length)."""
    if a.get("freqs") is not None:
        return fft_scales(n, len(np.atleast_1d(a["freqs"])))
    dt = float(a["dt"])
    s0 = float(a["s0"]) if float(a["s0"]) > 0 else 2 * dt
    dj = float(a["dj"]) if float(a["dj"]) > 0 else 1 / 12
    j = int(a["J"]) if int(a["J"]) >= 0 else int(round(np.log2(max(n * dt / s0, 1.0)) / dj))
    return fft_scales(n, j + 1)


def work_cwt(a: dict[str, Any]) -> float:
    """pycwt's estimated seconds for ``cwt`` (:mod:`sftwave.patch.work`)."""
    return _transform_seconds(np.size(a["signal"]), a)


def work_xwt(a: dict[str, Any]) -> float:
    """``xwt``: two transforms."""
    return 2 * _transform_seconds(np.size(a["y1"]), a)


def work_wct(a: dict[str, Any]) -> float:
    """``wct``: two transforms and the smoothing of three spectra in time and scale, which
    takes pycwt about ten transforms' time; with ``sig=True`` its Monte-Carlo test too."""
    seconds = 12 * _transform_seconds(np.size(a["y1"]), a)
    return seconds * 300 if a["sig"] else seconds


def work_icwt(a: dict[str, Any]) -> float:
    """``icwt``: a weighted sum over the scales of every coefficient."""
    return 40e-9 * float(np.size(a["W"]))


def work_significance(a: dict[str, Any]) -> float:
    """``significance``: the time-averaged test (``sigma_test=1``) evaluates the chi-square
    quantile once per scale; the others once."""
    scales = np.size(a["scales"])
    return 0.2e-3 * (scales if a["sigma_test"] == 1 else 1)


def work_ar1(a: dict[str, Any]) -> float:
    """``ar1``: a few passes over the series (no faster in sftwave: the route's crossover
    is infinite, so only ``every_size=True`` routes it)."""
    return ELEMENT_S * float(np.size(a["x"]))


def work_ar1_spectrum(a: dict[str, Any]) -> float:
    """``ar1_spectrum``: one expression per frequency (as :func:`work_ar1`, never routed by
    size)."""
    return ELEMENT_S * float(np.size(a["freqs"]))


def _plain(value: Any) -> bool:
    """A NumPy array, a number or a list/tuple: no dask, GPU or other array type."""
    if isinstance(value, (list, tuple, int, float, np.ndarray, np.generic)):
        return not isinstance(value, np.ndarray) or type(value) is np.ndarray
    return False


def _call(name: str, args: tuple, kwargs: dict) -> dict[str, Any] | None:
    from ... import pycwt as sp

    _load_checks()

    sig = inspect.signature(getattr(sp, name))
    if name == "wct_significance":  # ``seed`` is sftwave's, not pycwt's
        sig = sig.replace(parameters=[p for n, p in sig.parameters.items() if n != "seed"])
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return dict(bound.arguments)


def _ok(name: str, args: tuple, kwargs: dict, arrays: tuple[str, ...], check: Any) -> bool:
    a = _call(name, args, kwargs)
    if a is None or not all(_plain(a[k]) for k in arrays if a.get(k) is not None):
        return False
    try:
        check(a)
    except (ValueError, TypeError):
        return False
    return True


def accepts_cwt(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.cwt`` is :func:`sftwave.pycwt.cwt`'s.

    Examples
    --------
    >>> import numpy as np
    >>> accepts_cwt(np.zeros(64), 0.25), accepts_cwt(np.zeros(64), 0.25, wavelet="haar")
    (True, False)
    """

    def check(a: dict) -> None:
        from ...pycwt._mothers import CLASSES

        kind = _chk.known_mother(a["wavelet"])
        x = _chk.check_series(a["signal"], "signal")
        _chk.scales_request(
            x.size, a["dt"], a["dj"], a["s0"], a["J"], CLASSES[kind[0]](kind[1]).flambda(), a["freqs"]
        )

    return _ok("cwt", args, kwargs, ("signal", "freqs"), check)


def accepts_icwt(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.icwt`` is :func:`sftwave.pycwt.icwt`'s.

    Examples
    --------
    >>> import numpy as np
    >>> accepts_icwt(np.zeros((3, 8)), np.ones(3), 1.0), accepts_icwt(np.zeros(8), np.ones(3), 1.0)
    (True, False)
    """

    def check(a: dict) -> None:
        _chk.known_mother(a["wavelet"])
        _chk.check_icwt(a["W"], a["sj"], a["dt"], a["dj"])

    return _ok("icwt", args, kwargs, ("W", "sj"), check)


def accepts_significance(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.significance`` is :func:`sftwave.pycwt.significance`'s.

    Examples
    --------
    >>> accepts_significance(1.0, 0.25, [1.0, 2.0], 0, 0.5), accepts_significance(1.0, 0.25, [1.0], 0, 0.5)
    (True, False)
    """

    def check(a: dict) -> None:
        _chk.known_mother(a["wavelet"])
        _chk.significance_request(
            a["signal"], a["dt"], a["scales"], a["sigma_test"], a["alpha"], a["significance_level"], a["dof"]
        )

    return _ok("significance", args, kwargs, ("signal", "scales", "dof"), check)


def _pair_check(a: dict, coherence: bool) -> None:
    kind = _chk.known_mother(a["wavelet"])
    if coherence:
        _chk.check_coherence_mother(kind, a["wavelet"])
    y1, _ = _chk.check_pair(a["y1"], a["y2"])
    from ...pycwt._mothers import CLASSES

    _chk.scales_request(y1.size, a["dt"], a["dj"], a["s0"], a["J"], CLASSES[kind[0]](kind[1]).flambda())
    _chk.check_level(a["significance_level"])


def accepts_xwt(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.xwt`` is :func:`sftwave.pycwt.xwt`'s.

    Examples
    --------
    >>> import numpy as np
    >>> accepts_xwt(np.zeros(64), np.zeros(64), 1.0), accepts_xwt(np.zeros(64), np.zeros(9), 1.0)
    (True, False)
    """
    return _ok("xwt", args, kwargs, ("y1", "y2"), lambda a: _pair_check(a, False))


def accepts_wct(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.wct`` is :func:`sftwave.pycwt.wct`'s.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.zeros(64)
    >>> accepts_wct(x, x, 1.0, sig=False), accepts_wct(x, x, 1.0, wavelet="paul")
    (True, False)
    """

    def check(a: dict) -> None:
        _chk.check_significance_keywords(a["kwargs"])
        _pair_check(a, True)

    return _ok("wct", args, kwargs, ("y1", "y2"), check)


def accepts_wct_significance(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.wct_significance`` is :func:`sftwave.pycwt.wct_significance`'s.

    Examples
    --------
    >>> accepts_wct_significance(0.5, 0.5, 1.0, 0.25, 2.0, 8), accepts_wct_significance(0.5, 0.5, 1.0, 0.25, 2.0, -1)
    (True, False)
    """

    def check(a: dict) -> None:
        _chk.check_coherence_mother(_chk.known_mother(a["wavelet"]), a["wavelet"])
        _chk.check_ar1(a["al1"], "al1")
        _chk.check_ar1(a["al2"], "al2")
        _chk.scales_request(None, a["dt"], a["dj"], a["s0"], a["J"], 1.0)
        _chk.check_level(a["significance_level"])
        _chk.check_count(a["mc_count"], "mc_count")

    return _ok("wct_significance", args, kwargs, (), check)


def accepts_ar1(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.ar1`` is :func:`sftwave.pycwt.ar1`'s (a real 1-D series).

    Examples
    --------
    >>> accepts_ar1([1.0, 2.0, 0.5, 3.0]), accepts_ar1("abc")
    (True, False)
    """
    return _ok("ar1", args, kwargs, ("x",), lambda a: _chk.check_series(a["x"], "x", real=True, min_size=3))


def accepts_ar1_spectrum(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``pycwt.ar1_spectrum`` is :func:`sftwave.pycwt.ar1_spectrum`'s.

    Examples
    --------
    >>> accepts_ar1_spectrum([0.1, 0.2], 0.5), accepts_ar1_spectrum([0.1], "x")
    (True, False)
    """

    def check(a: dict) -> None:
        _chk.check_input_array(a["freqs"], "freqs")
        _chk.check_ar1(a["ar1"], "ar1")

    return _ok("ar1_spectrum", args, kwargs, ("freqs",), check)
