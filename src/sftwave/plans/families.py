r"""Wavelet families: one object per wavelet, carrying everything its consumers need.

As pycwt's ``mothers.py``: the transform (:func:`sftwave.cwt`), the analysis
(:mod:`sftwave.analysis`), the inverse (:func:`sftwave.icwt`) and the
wrappers take a family, resolved once from their ``wavelet=`` by
:func:`wavelet_family`, and ask it; none of them branches on which wavelet
it is.  A family holds

* its **scales**: the scale ``sigma`` (samples) of the row of frequency ``f``
  (:meth:`WaveletFamily.scale`), and the check of ``xi`` (which only the
  Morlet has);
* its **plan selection**: the plans of a scalogram's rows
  (:meth:`WaveletFamily.select_plans`), the ``method`` and ``output``
  values it takes, the engines that run it;
* its **Fourier factor**: Fourier period over scale (Torrence & Compo's
  Table 1), and from it the Fourier period of a row and the frequencies of
  given periods;
* its **cone of influence**: the e-folding time of a spike's power, in scales;
* its **reconstruction constants**: ``C_delta`` (T&C's eq. 13, the limit of
  dense scales), ``psi_0(0)`` and the response of a row's real part, used by
  :func:`sftwave.icwt`'s weights;
* its **significance constants**: the degrees of freedom of one
  coefficient's power and T&C's Table 2 decorrelation factors ``gamma`` and
  ``delta j0``.

A new wavelet is a subclass of :class:`WaveletFamily` (CONTRIBUTING.md,
*Adding a wavelet*), registered in :data:`FAMILIES`; ``tests/test_wavelets_family.py``
runs the family contract over every registered family.

Examples
--------
>>> wavelet_family("mexh")
DOG(m=2)
>>> round(Morlet().fourier_factor(6.0), 4), round(DOG(2).fourier_factor(), 4)
(1.033, 3.9738)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from .._checks import check_choice, check_positive, check_xi
from .dog import DOG_METHODS, DOG_ORDERS, check_dog_order, select_dog_scales
from .responses import gauss, morlet_cdelta, morlet_normalisation, morlet_response
from .select import MORLET_METHODS, max_kernel_sigma, select_morlet_scales, wavelet_too_long

__all__ = ["WaveletFamily", "Morlet", "DOG", "FAMILIES", "wavelet_family", "DEFAULT_XI"]

#: ``xi`` of every function's signature: the Morlet's default, the value a family without
#: ``xi`` requires (any other is refused in its name).
DEFAULT_XI = 6.0

#: Plan lists: one plan per row (SFTPlan, FIRPlan or FFTPlan).
Plans = list


class WaveletFamily:
    """The contract of a wavelet family (see the module's docstring).

    Subclasses set the class attributes and implement the methods marked
    *abstract*; the rest (Fourier period, cone, frequencies of periods) follow.
    A family is immutable, compares by value and is hashable.

    See Also
    --------
    Morlet : sftwave's Morlet wavelet.
    DOG : The derivative-of-Gaussian wavelets.
    wavelet_family : The family of a ``wavelet=`` argument.

    Examples
    --------
    >>> isinstance(wavelet_family("mexh"), WaveletFamily)
    True
    """

    #: Canonical name (as :func:`wavelet_family` takes it and ``xarray`` attributes record it).
    name: str = ""
    #: Its name in prose (``long_name`` of :func:`sftwave.xarray.cwt`'s result).
    title: str = ""
    #: ``output`` values of :func:`sftwave.cwt` (the first is the default's spelling).
    outputs: ClassVar[tuple[str, ...]] = ()
    #: ``method`` values of :func:`sftwave.cwt`.
    methods: ClassVar[tuple[str, ...]] = ()
    #: Engines that run it (None: every engine).
    engines: ClassVar[tuple[str, ...] | None] = None
    #: The dtype kind of its coefficients: 'c' (complex) or 'f' (real).
    coefficient_kind: ClassVar[str] = "c"
    #: Degrees of freedom of one coefficient's power (T&C's Table 2 ``dofmin``).
    dofmin: ClassVar[float] = 2.0
    #: E-folding time of a spike's power at an edge, in scales (T&C's Table 1).
    efolding: ClassVar[float] = math.sqrt(2.0)

    # -- identity ---------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (type(self).__name__,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WaveletFamily) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # -- abstract: scales and xi ------------------------------------------------------------

    def check_xi(self, xi: Any, n: int, *, design: bool = True) -> np.ndarray:
        """``xi`` checked, one value per row: the family's parameter, or NaN where it has none.

        Parameters
        ----------
        xi : float or array_like
            The ``xi=`` argument: one value, or one per row.
        n : int
            The number of rows.
        design : bool, optional
            Check against :func:`sftwave.cwt`'s range (the designs'), else any positive value.

        Returns
        -------
        ndarray, shape (n,)

        See Also
        --------
        scale : The rows' scales, which take these values.

        Examples
        --------
        >>> Morlet().check_xi(6.0, 2), DOG(2).check_xi(6.0, 2)
        (array([6., 6.]), array([nan, nan]))
        """
        raise NotImplementedError

    def scale(self, freqs: Any, fs: float, xis: Any) -> np.ndarray:
        """The scale ``sigma`` (in samples at ``fs``; in time units at ``fs = 1``) of each row.

        Parameters
        ----------
        freqs : array_like
            The rows' frequencies, in the unit of ``fs``.
        fs : float
            The sampling rate.
        xis : float or ndarray
            The rows' ``xi`` (:meth:`check_xi`'s; ignored by a family without ``xi``).

        Returns
        -------
        ndarray
            ``sigma``, the shape of ``freqs``.

        See Also
        --------
        sftwave.frequency_to_scale : The Morlet's, checked.

        Examples
        --------
        >>> float(Morlet().scale(1.0, 2 * np.pi, 6.0)[()])
        6.0
        """
        raise NotImplementedError

    def fourier_factor(self, xi: Any = DEFAULT_XI) -> float | np.ndarray:
        """Fourier period over scale (Torrence & Compo's Table 1).

        Parameters
        ----------
        xi : float or array_like, optional
            The wavelet's ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        float or ndarray
            A float for a number, an array for an array.

        See Also
        --------
        fourier_period : The factor times each row's scale.

        Examples
        --------
        >>> round(Morlet().fourier_factor(6.0), 4), round(DOG(2).fourier_factor(), 4)
        (1.033, 3.9738)
        """
        raise NotImplementedError

    # -- abstract: plans --------------------------------------------------------------------

    def select_plans(self, sigmas: Sequence[float], xis: np.ndarray, tol: float, *, method: str,
                     transform: str, n: int | None, fir_taps_per_order: float | None,
                     mode: str | None, fft_point_cost: float | None) -> Plans:
        """One plan per row of scale ``sigmas`` (samples) and parameter ``xis``.

        Parameters
        ----------
        sigmas, xis : sequence of float, ndarray
            The rows' scales (samples) and ``xi`` (:meth:`check_xi`'s).
        tol : float
            The relative RMSE each plan must meet.
        method, transform : str
            One of :attr:`methods`, and the bank's ``'sft'`` or ``'asft'``.
        n, mode, fir_taps_per_order, fft_point_cost : optional
            The signal's length and boundary mode, the engine's cost figures of
            FIR taps and of the FFT; None where unknown (no FFT without them).

        Returns
        -------
        list
            One plan per row (``SFTPlan``, ``FIRPlan`` or ``FFTPlan``).

        See Also
        --------
        sftwave.plans.select_morlet : The plan of one Morlet row.

        Examples
        --------
        >>> unknown = dict.fromkeys(["n", "fir_taps_per_order", "mode", "fft_point_cost"])
        >>> plans = Morlet().select_plans([50.0, 25.0], [6.0, 6.0], 1e-4, method="auto",
        ...                               transform="sft", **unknown)
        >>> [p.error <= 1e-4 for p in plans]
        [True, True]
        """
        raise NotImplementedError

    def too_long(self, what: str, sigma: float, xi: float, n: int) -> str:
        """The message of a row whose wavelet is longer than the signal allows.

        Parameters
        ----------
        what : str
            The argument it names (``'freqs'``).
        sigma, xi : float
            The row's scale (samples) and ``xi``.
        n : int
            The signal's length, which bounds ``sigma``.

        Returns
        -------
        str

        See Also
        --------
        select_plans : The plans of the rows that are not too long.

        Examples
        --------
        >>> DOG(2).too_long("freqs", 1e6, 6.0, 300)[:45]
        'freqs: the wavelet is longer than the signal:'
        """
        raise NotImplementedError

    def uses_fft(self) -> bool:
        """Whether ``method='auto'`` may run its rows by FFT (a plan without a window).

        Returns
        -------
        bool

        See Also
        --------
        select_plans : Where the choice is made.

        Examples
        --------
        >>> Morlet().uses_fft(), DOG(2).uses_fft()
        (True, False)
        """
        return False

    # -- abstract: reconstruction and significance ------------------------------------------

    def reconstruction_factor(self, xi: float = DEFAULT_XI) -> float:
        """``C_delta`` (T&C's eq. 13) in the limit of dense scales reaching Nyquist.

        Parameters
        ----------
        xi : float, optional
            The wavelet's ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        float

        See Also
        --------
        sftwave.analysis.reconstruction_factor : The same, by the ``wavelet=`` argument.

        Examples
        --------
        >>> round(Morlet().reconstruction_factor(6.0), 4), round(DOG(2).reconstruction_factor(), 3)
        (0.7784, 3.616)
        """
        raise NotImplementedError

    def psi0_at_zero(self, xi: float = DEFAULT_XI) -> float:
        """``psi_0(0)``: the mother wavelet's (real part's) value at 0.

        Parameters
        ----------
        xi : float, optional
            The wavelet's ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        float

        See Also
        --------
        reconstruction_factor : ``C_delta``, which divides by it.

        Examples
        --------
        >>> round(Morlet().psi0_at_zero(6.0), 4), round(DOG(2).psi0_at_zero(), 4)
        (0.7511, 0.8673)
        """
        raise NotImplementedError

    def response(self, sigma: np.ndarray, xi: float, omega: np.ndarray) -> np.ndarray:
        """Response of each row's real part to a cosine, the wavelets' aliases included.

        Parameters
        ----------
        sigma : ndarray
            The rows' scales, in samples.
        xi : float
            The wavelet's ``xi`` (ignored by a family without ``xi``).
        omega : ndarray
            The cosines' frequencies, radians per sample (positive).

        Returns
        -------
        ndarray, shape (len(sigma), len(omega))

        See Also
        --------
        sftwave.inverse.reconstruction_weights : The weights that use it.

        Examples
        --------
        >>> DOG(2).response(np.array([4.0, 8.0]), 6.0, np.array([0.5, 1.0, 1.5])).shape
        (2, 3)
        """
        raise NotImplementedError

    def decorrelation(self, xis: np.ndarray, test: str) -> tuple[float, float]:
        """T&C's Table 2 ``(gamma, delta_j0)`` for averaged power (``ValueError`` where unknown).

        Parameters
        ----------
        xis : ndarray
            The rows' ``xi`` (ignored by a family without ``xi``).
        test : str
            The test that needs them (named in the ``ValueError``).

        Returns
        -------
        gamma, delta_j0 : float

        See Also
        --------
        sftwave.analysis.significance : The tests that use them.

        Examples
        --------
        >>> Morlet().decorrelation(np.array([6.0]), "global"), DOG(6).decorrelation(None, "scale")
        ((2.32, 0.6), (1.37, 0.97))
        """
        raise NotImplementedError

    # -- shared -----------------------------------------------------------------------------

    def check_output(self, output: Any) -> str:
        """``output`` checked against :attr:`outputs`; returns the engine's kind of result.

        Parameters
        ----------
        output : str
            The ``output=`` argument of :func:`sftwave.cwt`.

        Returns
        -------
        str

        See Also
        --------
        check_method : The same for ``method``.

        Examples
        --------
        >>> Morlet().check_output("power"), DOG(2).check_output("complex")
        ('power', 'real')
        """
        return check_choice(output, self.outputs, "output")

    def check_method(self, method: Any) -> str:
        """``method`` checked against :attr:`methods`.

        Parameters
        ----------
        method : str
            The ``method=`` argument of :func:`sftwave.cwt`.

        Returns
        -------
        str

        See Also
        --------
        check_output : The same for ``output``.

        Examples
        --------
        >>> Morlet().check_method("auto")
        'auto'
        """
        return check_choice(method, self.methods, "method")

    def check_engine(self, engine: str) -> None:
        """``ValueError`` where the (resolved) engine does not run this wavelet.

        Parameters
        ----------
        engine : str
            The engine's name, checked against :attr:`engines`.

        See Also
        --------
        sftwave.engines.get : The engine registered under a name.

        Examples
        --------
        >>> DOG(2).check_engine("xp")
        Traceback (most recent call last):
        ...
        ValueError: the wavelet 'dog2' runs on the CPU engine only (engine='numba'); got engine='xp'
        """
        if self.engines is not None and engine not in self.engines:
            only = ", ".join(f"engine={e!r}" for e in self.engines)
            raise ValueError(f"the wavelet {self.name!r} runs on the CPU engine only ({only}); "
                             f"got engine={engine!r}")

    def check_coefficients(self, W: np.ndarray) -> None:
        """``TypeError`` where ``W`` is not of the kind of this wavelet's coefficients.

        Parameters
        ----------
        W : ndarray
            Coefficients, whose dtype kind must be :attr:`coefficient_kind`.

        See Also
        --------
        sftwave.icwt : The inverse, which checks its ``W``.

        Examples
        --------
        >>> DOG(2).check_coefficients(np.zeros(3, complex))
        Traceback (most recent call last):
        ...
        TypeError: W must be the real coefficients of wavelet DOG(m=2) (cwt's output 'complex'); got dtype complex128
        """
        if W.dtype.kind != self.coefficient_kind:
            kind = "complex" if self.coefficient_kind == "c" else "real"
            raise TypeError(f"W must be the {kind} coefficients of wavelet {self!r} (cwt's output "
                            f"{self.outputs[0]!r}); got dtype {W.dtype}")

    def fourier_period(self, freqs: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        """T&C's Fourier period of each row: ``fourier_factor * scale`` (time units).

        Parameters
        ----------
        freqs : array_like
            The rows' frequencies.
        xis : float or array_like, optional
            The rows' ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        ndarray

        See Also
        --------
        frequencies_for_periods : Its inverse.

        Examples
        --------
        >>> DOG(2).fourier_period([2.0, 4.0])
        array([0.5 , 0.25])
        """
        f = np.asarray(freqs, dtype=np.float64)
        return self.fourier_factor(xis) * self.scale(f, 1.0, xis)

    def frequencies_for_periods(self, periods: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        """The frequencies whose rows have these Fourier periods.

        Parameters
        ----------
        periods : array_like
            Fourier periods, in time units.
        xis : float or array_like, optional
            The rows' ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        ndarray

        See Also
        --------
        fourier_period : Its inverse.

        Examples
        --------
        >>> Morlet().frequencies_for_periods(Morlet().fourier_period([1.0, 2.0]))
        array([1., 2.])
        """
        p = np.asarray(periods, dtype=np.float64)
        return self.fourier_factor(xis) * self.scale(p, 1.0, xis)

    def cone_of_influence(self, n: int, fs: float, xi: float = DEFAULT_XI) -> np.ndarray:
        """The cone as a Fourier period at each of ``n`` times (pycwt's ``coi``).

        Parameters
        ----------
        n : int
            The number of times (samples).
        fs : float
            The sampling rate.
        xi : float, optional
            The wavelet's ``xi`` (ignored by a family without ``xi``).

        Returns
        -------
        ndarray, shape (n,)

        See Also
        --------
        sftwave.analysis.cone_of_influence : The same, by the ``wavelet=`` argument.

        Examples
        --------
        >>> int(DOG(2).cone_of_influence(5, 1.0).argmax())
        2
        """
        k = np.arange(n)
        dist = np.minimum(k, n - 1 - k) + 0.5
        return self.fourier_factor(xi) / self.efolding * dist / fs


# ----------------------------------------------------------------------------- Morlet


class Morlet(WaveletFamily):
    r"""sftwave's Morlet wavelet, of unit energy, with its admissibility term.

    ``psi_0(t) = C_xi pi^{-1/4} (exp(i xi t) - kappa_xi) exp(-t^2/2)``; the row
    of frequency ``f`` has the scale ``sigma = xi fs / (2 pi f)`` samples.
    Its parameter ``xi`` (MNE's ``n_cycles``) is given to the functions that
    take the family, not to the family.

    See Also
    --------
    DOG : The real derivative-of-Gaussian wavelets.
    sftwave.cwt : The transform (``wavelet=Morlet()``, the default 'morlet').

    Examples
    --------
    >>> m = Morlet()
    >>> round(m.fourier_factor(6.0), 4), round(m.reconstruction_factor(6.0), 4)
    (1.033, 0.7784)
    >>> m.decorrelation(np.array([6.0]), "global")
    (2.32, 0.6)
    """

    name = "morlet"
    title = "Morlet"
    outputs = ("complex", "power", "abs", "phase")
    methods = MORLET_METHODS
    coefficient_kind = "c"
    dofmin = 2.0
    #: T&C's Table 2 for ``xi = 6``: ``gamma`` (time averages) and ``delta j0`` (scale averages).
    GAMMA = 2.32
    DELTAJ0 = 0.60

    def check_xi(self, xi: Any, n: int, *, design: bool = True) -> np.ndarray:
        if design:
            return check_xi(xi, n)
        x = np.broadcast_to(np.asarray(xi, dtype=np.float64), (n,)) if np.ndim(xi) else np.full(
            n, float(xi))
        if np.any(~np.isfinite(x)) or np.any(x <= 0):
            raise ValueError(f"xi must be positive and finite; got {xi!r}")
        return x

    def scale(self, freqs: Any, fs: float, xis: Any) -> np.ndarray:
        return xis * fs / (2.0 * math.pi * np.asarray(freqs, dtype=np.float64))

    def fourier_factor(self, xi: Any = DEFAULT_XI) -> float | np.ndarray:
        if np.ndim(xi) == 0:
            xi = check_positive(xi, "xi")
            return 4.0 * math.pi / (xi + math.sqrt(2.0 + xi * xi))
        xis = np.asarray(xi, dtype=np.float64)
        return 4.0 * np.pi / (xis + np.sqrt(2.0 + xis * xis))

    def fourier_period(self, freqs: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        f = np.asarray(freqs, dtype=np.float64)
        xis = self.check_xi(xis, f.size, design=False).reshape(f.shape)
        return self.fourier_factor(xis) * xis / (2.0 * np.pi * f)

    def frequencies_for_periods(self, periods: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        return self.fourier_period(periods, xis)      # the same formula both ways

    def select_plans(self, sigmas: Sequence[float], xis: np.ndarray, tol: float, *, method: str,
                     transform: str, n: int | None, fir_taps_per_order: float | None,
                     mode: str | None, fft_point_cost: float | None) -> Plans:
        return list(select_morlet_scales([(float(s), float(w)) for s, w in zip(sigmas, xis)], tol,
                                         method=method, transform=transform, n=n,
                                         fir_taps_per_order=fir_taps_per_order, mode=mode,
                                         fft_point_cost=fft_point_cost))

    def too_long(self, what: str, sigma: float, xi: float, n: int) -> str:
        return wavelet_too_long(what, sigma, xi, n)

    def uses_fft(self) -> bool:
        return True

    def reconstruction_factor(self, xi: float = DEFAULT_XI) -> float:
        return morlet_cdelta(check_positive(xi, "xi"))

    def psi0_at_zero(self, xi: float = DEFAULT_XI) -> float:
        return morlet_normalisation(xi) * math.pi ** -0.25 * (1 - math.exp(-0.5 * xi * xi))

    def response(self, sigma: np.ndarray, xi: float, omega: np.ndarray) -> np.ndarray:
        return morlet_response(sigma, xi, omega)

    def decorrelation(self, xis: np.ndarray, test: str) -> tuple[float, float]:
        if np.any(xis != DEFAULT_XI):
            raise ValueError(f"test={test!r} uses Torrence & Compo's empirical decorrelation "
                             "factors, known for xi = 6 only")
        return self.GAMMA, self.DELTAJ0


# ----------------------------------------------------------------------------- DOG


class DOG(WaveletFamily):
    r"""Torrence & Compo's derivative-of-Gaussian wavelet of order ``m`` (pycwt's ``DOG(m)``).

    ``psi_0(eta) = (-1)^(m+1) Gamma(m + 1/2)^(-1/2) d^m/deta^m exp(-eta^2/2)``,
    real, of unit energy; ``DOG(2)`` is the Mexican hat.  The row of frequency
    ``f`` has the scale ``s = sqrt(m + 1/2) / (2 pi f)`` whose Fourier period is
    ``1 / f`` (``sftwave.plans.dog``).  No ``xi``: any value but the default is
    refused.

    Parameters
    ----------
    m : int, optional
        The order, 1 to 8.  Default 2.

    See Also
    --------
    Morlet : The complex Morlet wavelet.
    sftwave.cwt : The transform (``wavelet=DOG(m)``, or ``'dog<m>'``, ``'mexh'``).

    Examples
    --------
    >>> hat = DOG(2)
    >>> hat == DOG(), round(hat.reconstruction_factor(), 3), hat.decorrelation(None, "global")
    (True, 3.616, (1.43, 1.4))
    >>> float(hat.fourier_period(4.0))
    0.25
    """

    outputs = ("complex", "real", "power", "abs")
    methods = DOG_METHODS
    engines = ("numba",)
    coefficient_kind = "f"
    dofmin = 1.0
    #: T&C's Table 2 (their only orders): ``gamma`` and ``delta j0`` by ``m``.
    GAMMA: ClassVar[dict[int, float]] = {2: 1.43, 6: 1.37}
    DELTAJ0: ClassVar[dict[int, float]] = {2: 1.40, 6: 0.97}

    def __init__(self, m: int = 2) -> None:
        self.m = check_dog_order(m)

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"dog{self.m}"

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"DOG{self.m}"

    def _key(self) -> tuple:
        return ("DOG", self.m)

    def __repr__(self) -> str:
        return f"DOG(m={self.m})"

    def _no_xi(self, xi: Any) -> None:
        if (isinstance(xi, (bool, np.bool_)) or np.ndim(xi) != 0
                or not isinstance(xi, numbers.Real) or float(xi) != DEFAULT_XI):
            raise ValueError(f"xi applies to the Morlet wavelet only; wavelet={self.name!r} has no "
                             f"xi (leave it at its default); got xi={xi!r}")

    def check_xi(self, xi: Any, n: int, *, design: bool = True) -> np.ndarray:
        self._no_xi(xi)
        return np.full(n, np.nan)

    def scale(self, freqs: Any, fs: float, xis: Any = None) -> np.ndarray:
        return math.sqrt(self.m + 0.5) * fs / (2.0 * math.pi * np.asarray(freqs, dtype=np.float64))

    def fourier_factor(self, xi: Any = DEFAULT_XI) -> float | np.ndarray:
        return 2.0 * math.pi / math.sqrt(self.m + 0.5)

    def fourier_period(self, freqs: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        return 1.0 / np.asarray(freqs, dtype=np.float64)      # the rows are on Fourier periods

    def frequencies_for_periods(self, periods: Any, xis: Any = DEFAULT_XI) -> np.ndarray:
        return 1.0 / np.asarray(periods, dtype=np.float64)

    def check_output(self, output: Any) -> str:
        if output == "phase":
            raise ValueError(f"output='phase': the DOG wavelet (order {self.m}) is real, its "
                             f"coefficients have no phase; use 'real', 'power' or 'abs'")
        output = check_choice(output, self.outputs, "output")
        return "real" if output == "complex" else output

    def check_method(self, method: Any) -> str:
        if method in ("direct", "multiply", "fft"):
            raise ValueError(f"method={method!r} is the Morlet wavelet's; the DOG wavelets take "
                             f"{', '.join(repr(d) for d in DOG_METHODS)}")
        return check_choice(method, DOG_METHODS, "method")

    def select_plans(self, sigmas: Sequence[float], xis: np.ndarray, tol: float, *, method: str,
                     transform: str, n: int | None, fir_taps_per_order: float | None,
                     mode: str | None, fft_point_cost: float | None) -> Plans:
        return list(select_dog_scales([float(s) for s in sigmas], self.m, tol, method=method,
                                      transform=transform, n=n, fir_taps_per_order=fir_taps_per_order))

    def too_long(self, what: str, sigma: float, xi: float, n: int) -> str:
        return (f"{what}: the wavelet is longer than the signal: its scale is sigma = {sigma:.4g} "
                f"samples, at most {max_kernel_sigma(n):g} on a signal of {n} samples; use a "
                f"longer signal or a higher frequency (is fs right?)")

    def _even(self) -> None:
        if self.m % 2:
            raise ValueError(f"wavelet={self.name!r}: a DOG wavelet of odd order has psi_0(0) = 0, "
                             f"so no reconstruction factor (Torrence & Compo's eq. 13); use an "
                             f"even order")

    def psi0_at_zero(self, xi: float = DEFAULT_XI) -> float:
        # -He_m(0) / sqrt(Gamma(m + 1/2)), He_m(0) = (-1)^(m/2) (m - 1)!!
        self._even()
        m = self.m
        return -((-1) ** (m // 2)) * math.prod(range(m - 1, 0, -2)) / math.sqrt(math.gamma(m + 0.5))

    def reconstruction_factor(self, xi: float = DEFAULT_XI) -> float:
        m = self.m
        psi00 = self.psi0_at_zero()
        g = math.sqrt(math.gamma(m + 0.5))
        # psi_hat_0(u) = -i^m u^m exp(-u^2/2) / g: h(u) = 2 psi_hat_0(u), and
        # integral_0^inf u^(m-1) exp(-u^2/2) du = 2^(m/2 - 1) (m/2 - 1)!
        total = -2.0 * (1j ** m).real / g * 2.0 ** (m // 2 - 1) * math.factorial(m // 2 - 1)
        return float(math.pi / math.log(2.0) / math.sqrt(2 * math.pi) / psi00 * total)

    def response(self, sigma: np.ndarray, xi: float, omega: np.ndarray) -> np.ndarray:
        # sqrt(2 pi sigma) c (sigma u)^m exp(-(sigma u)^2 / 2), c = -(-1)^(m/2) / sqrt(Gamma(m + 1/2)),
        # summed over the aliases u = omega - 2 pi j, |j| <= 3
        m = self.m
        c = -((-1) ** (m // 2)) / math.sqrt(math.gamma(m + 0.5))
        total = np.zeros((sigma.size, omega.size))
        for j in range(-3, 4):
            z = sigma[:, None] * (omega[None, :] - 2 * math.pi * j)
            total += z ** m * gauss(-0.5 * z * z)
        return (c * np.sqrt(2 * math.pi * sigma))[:, None] * total

    def decorrelation(self, xis: Any, test: str) -> tuple[float, float]:
        if self.m not in self.GAMMA:
            raise ValueError(f"test={test!r} uses Torrence & Compo's empirical decorrelation "
                             f"factors, known for the DOG wavelets of order 2 and 6 only; got "
                             f"wavelet={self.name!r}")
        return self.GAMMA[self.m], self.DELTAJ0[self.m]


# ----------------------------------------------------------------------------- the parser

#: The registered families: name -> a factory of the family from its order/parameter
#: (``None``: its default).  :func:`wavelet_family` reads it; the family contract test runs
#: over it.
FAMILIES: dict[str, Callable[..., WaveletFamily]] = {"morlet": Morlet, "dog": DOG}

#: Other names of registered families (PyWavelets' ``'mexh'``).
ALIASES: dict[str, WaveletFamily] = {"mexh": DOG(2), "mexican_hat": DOG(2)}

_SPELLINGS = (f"'morlet', 'mexh', 'dog1' .. 'dog{DOG_ORDERS[-1]}' or a family object "
              f"(Morlet(), DOG(m))")


def wavelet_family(wavelet: Any) -> WaveletFamily:
    """The family object of ``wavelet=`` as every function taking a wavelet accepts it.

    A family object (:class:`Morlet`, :class:`DOG`, or another
    :class:`WaveletFamily`); ``'morlet'``; ``'dog1'`` .. ``'dog8'`` (Torrence &
    Compo's and pycwt's ``DOG(m)``); ``'mexh'`` or ``'mexican_hat'`` (the
    Mexican hat, ``DOG(2)``); names case-insensitive.  ``TypeError`` for
    anything but a string or a family, ``ValueError`` for an unknown name,
    both naming ``wavelet``.

    Parameters
    ----------
    wavelet : str or WaveletFamily
        The ``wavelet=`` argument.

    Returns
    -------
    WaveletFamily
        Its family object (``wavelet`` itself where it is one).

    See Also
    --------
    Morlet, DOG : The registered families.

    Examples
    --------
    >>> wavelet_family("morlet"), wavelet_family("dog6"), wavelet_family("MEXH")
    (Morlet(), DOG(m=6), DOG(m=2))
    >>> wavelet_family(DOG(3)) == wavelet_family("dog3")
    True
    """
    if isinstance(wavelet, WaveletFamily):
        return wavelet
    if not isinstance(wavelet, str):
        raise TypeError(f"wavelet must be a string ({_SPELLINGS}); got {wavelet!r}")
    name = wavelet.strip().lower()
    if name in ALIASES:
        return ALIASES[name]
    if name == "morlet":
        return Morlet()
    head = name.rstrip("0123456789")
    if head in FAMILIES and head != name and FAMILIES[head] is not Morlet:
        try:
            return FAMILIES[head](int(name[len(head):]))
        except ValueError:
            pass
    raise ValueError(f"wavelet must be {_SPELLINGS} (the derivative-of-Gaussian wavelet of that "
                     f"order); got {wavelet!r}")
