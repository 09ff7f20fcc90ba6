"""pycwt's mother wavelet classes: ``Morlet``, ``Paul``, ``DOG``, ``MexicanHat``.

Same attributes and methods as pycwt's (``name``, ``f0``/``m``, ``dofmin``,
``cdelta``, ``gamma``, ``deltaj0``, ``psi_ft``, ``psi``, ``flambda``, ``coi``,
``sup``, and the Morlet's ``smooth``), with the same numbers.  Each also says
where its Fourier transform is above ``1e-18`` of its peak (``_support``), so
that :func:`sftwave.pycwt.cwt` evaluates it only there.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

#: Below this fraction of its peak a wavelet's Fourier transform is left out of a product.
_FLOOR = 1e-18


@lru_cache(maxsize=64)
def _support_of(gaussian: bool, m: float) -> tuple[float, float]:
    """``(lo, hi)`` of ``u`` where ``|u|^m exp(-u^2 / 2)`` (``gaussian``) or ``u^m exp(-u)``
    is at least :data:`_FLOOR` of its peak."""
    u = np.linspace(1e-9, 80.0 + 4.0 * m, 400_001)
    if gaussian:
        v, peak = m * np.log(u) - u * u / 2, (m / 2) * (math.log(m) - 1) if m > 0 else 0.0
    else:
        v, peak = m * np.log(u) - u, m * (math.log(m) - 1) if m > 0 else 0.0
    hi = float(u[np.flatnonzero(v >= peak + math.log(_FLOOR))[-1]]) + 2 * float(u[1] - u[0])
    return (-hi if gaussian else 0.0), hi


class Morlet:
    """pycwt's Morlet wavelet (Torrence & Compo's, its Fourier transform a Gaussian).

    ``psi_ft(f) = pi^(-1/4) exp(-(f - f0)^2 / 2)``, defined for every angular
    frequency ``f`` (no admissibility correction); ``psi(t) = pi^(-1/4)
    exp(i f0 t - t^2 / 2)``.  T&C's factors (``cdelta``, ``gamma``,
    ``deltaj0``) are known for ``f0 = 6`` only (else -1, as pycwt).

    Parameters
    ----------
    f0 : float, optional
        The wave number (default 6).

    See Also
    --------
    Paul, DOG : pycwt's other mothers.
    sftwave.wavelets.Morlet : sftwave's own Morlet family (its sampled wavelet).

    Examples
    --------
    >>> w = Morlet(6)
    >>> round(w.flambda(), 4), w.cdelta, w.dofmin
    (1.033, 0.776, 2)
    """

    def __init__(self, f0: float = 6) -> None:
        self._set_f0(f0)
        self.name = "Morlet"

    def psi_ft(self, f: Any) -> np.ndarray:
        """Fourier transform of the approximate Morlet wavelet.

        Parameters
        ----------
        f : array_like
            Angular frequencies (radians per unit of scale).

        Returns
        -------
        numpy.ndarray
            ``pi^(-1/4) exp(-(f - f0)^2 / 2)`` at each ``f``, real, its peak at ``f0``.

        See Also
        --------
        Morlet.psi : The wavelet in time.
        sftwave.pycwt.cwt : The transform that evaluates it.

        Examples
        --------
        >>> round(float(Morlet(6).psi_ft(6.0)), 4)  # the peak, pi^(-1/4)
        0.7511
        """
        return (np.pi**-0.25) * np.exp(-0.5 * (np.asarray(f) - self.f0) ** 2)

    def psi(self, t: Any) -> np.ndarray:
        """The Morlet wavelet as described in Torrence and Compo (1998).

        Parameters
        ----------
        t : array_like
            Times, in units of the scale.

        Returns
        -------
        numpy.ndarray
            ``pi^(-1/4) exp(i f0 t - t^2 / 2)`` at each ``t``, complex.

        See Also
        --------
        Morlet.psi_ft : Its Fourier transform.

        Examples
        --------
        >>> round(abs(complex(Morlet(6).psi(0.0))), 4)  # pi^(-1/4)
        0.7511
        """
        t = np.asarray(t)
        return (np.pi**-0.25) * np.exp(1j * self.f0 * t - t**2 / 2)

    def flambda(self) -> float:
        """Fourier wavelength as of Torrence and Compo (1998).

        Returns
        -------
        float
            The Fourier period of the wavelet at scale 1 (T&C's Table 1:
            ``4 pi / (f0 + sqrt(2 + f0^2))``): a scale ``s`` has period ``flambda() * s``.

        See Also
        --------
        Morlet.coi : The e-folding factor of the cone of influence.
        sftwave.pycwt.cwt : Gives ``freqs = 1 / (flambda() * scales)``.

        Examples
        --------
        >>> round(Morlet(6).flambda(), 4)
        1.033
        """
        return float((4 * np.pi) / (self.f0 + np.sqrt(2 + self.f0**2)))

    def coi(self) -> float:
        """e-Folding time as of Torrence and Compo (1998).

        Returns
        -------
        float
            The inverse of the e-folding time ``tau_s / s`` of T&C's Table 1
            (``sqrt(2) s``): at a distance ``d`` from an edge the cone of influence is the
            Fourier period ``flambda() * coi() * d``, as :func:`sftwave.pycwt.cwt` computes it.

        See Also
        --------
        Morlet.sup : Its inverse, the e-folding time in units of scale.
        Morlet.flambda : The Fourier period of scale 1.

        Examples
        --------
        >>> round(Morlet().coi(), 4)
        0.7071
        """
        return 1.0 / math.sqrt(2)

    def sup(self) -> float:
        """Wavelet support defined by the e-folding time (pycwt's raises a TypeError).

        Returns
        -------
        float
            ``1 / coi()``: the e-folding time ``tau_s / s`` in units of scale (``sqrt(2)``).

        See Also
        --------
        Morlet.coi : Its inverse.

        Examples
        --------
        >>> round(Morlet().sup(), 4)
        1.4142
        """
        return 1.0 / self.coi()

    def _support(self) -> tuple[float, float]:
        half = math.sqrt(-2 * math.log(_FLOOR))
        return self.f0 - half, self.f0 + half

    def _set_f0(self, f0: float) -> None:
        self.f0 = f0
        self.dofmin = 2
        if self.f0 == 6:
            self.cdelta, self.gamma, self.deltaj0 = 0.776, 2.32, 0.60
        else:
            self.cdelta = self.gamma = self.deltaj0 = -1

    def smooth(self, W: Any, dt: float, dj: float, scales: Any) -> np.ndarray:
        """pycwt's smoothing for coherence: a Gaussian of ``scales / dt`` samples in time
        (by FFT over the next power of two, circular) and its boxcar of
        ``round(2 deltaj0 / dj)`` scales.

        Parameters
        ----------
        W : array_like, shape (n_scales, n_times)
            The values to smooth, one row per scale (a wavelet spectrum).
        dt : float
            The sampling interval.
        dj : float
            The spacing of the scales, in octaves.
        scales : array_like, shape (n_scales,)
            The scale of each row, in the units of ``dt``.

        Returns
        -------
        numpy.ndarray, shape (n_scales, n_times)
            ``W`` smoothed in time and then in scale; real where ``W`` is real.

        See Also
        --------
        sftwave.pycwt.wct : The coherence that smooths with it.

        Examples
        --------
        >>> import numpy as np
        >>> T = Morlet(6).smooth(np.ones((8, 32)), 1.0, 0.25, 2 ** (np.arange(8) / 4))
        >>> T.shape, round(float(T[3, 10]), 12)  # a constant stays constant away from the edges
        ((8, 32), 1.0)
        """
        from scipy import fft as sfft
        from scipy.signal import convolve2d

        W = np.asarray(W)
        m, n = W.shape
        npad = int(2 ** np.ceil(np.log2(n)))
        k = 2 * np.pi * sfft.fftfreq(npad)
        snorm = np.asarray(scales) / dt
        F = np.exp(-0.5 * (snorm[:, np.newaxis] ** 2) * k**2)
        T = sfft.ifft(F * sfft.fft(W, n=npad, axis=1), axis=1, overwrite_x=True)[:, :n]
        if np.isreal(W).all():
            T = T.real
        wsize = int(np.round(self.deltaj0 / dj * 2))
        win = np.ones(wsize)
        win[0] = win[-1] = 0.5
        win /= win.sum()
        return convolve2d(T, win[:, np.newaxis], "same")


class Paul:
    """pycwt's Paul wavelet of order ``m``, computed exactly as pycwt does (by FFT).

    ``psi_ft(f) = 2^m / sqrt(m (2m - 1)!) f^m exp(-f) H(f)``.  The Paul
    wavelet has no Gaussian form, so no SFT plan: :func:`sftwave.pycwt.cwt`
    computes it as pycwt does, by FFT of the zero-padded series.  ``psi`` is
    pycwt's formula as pycwt writes it (its constant has ``(m - 2)!`` where
    T&C's eq. has ``m!``: :func:`sftwave.pycwt.icwt` with Paul gives pycwt's
    numbers, not T&C's).

    Parameters
    ----------
    m : int, optional
        The order (default 4; T&C's factors are known for 4 only, else -1).

    See Also
    --------
    Morlet, DOG : pycwt's other mothers.

    Examples
    --------
    >>> w = Paul()
    >>> round(w.flambda(), 4), w.cdelta, w.deltaj0
    (1.3963, 1.132, 1.5)
    """

    def __init__(self, m: int = 4) -> None:
        self._set_m(m)
        self.name = "Paul"

    def psi_ft(self, f: Any) -> np.ndarray:
        """Fourier transform of the Paul wavelet.

        Parameters
        ----------
        f : array_like
            Angular frequencies (radians per unit of scale).

        Returns
        -------
        numpy.ndarray
            ``2^m / sqrt(m (2m - 1)!) f^m exp(-f)`` at each positive ``f``, 0 elsewhere;
            real, its peak at ``f = m``.

        See Also
        --------
        Paul.psi : The wavelet in time.
        sftwave.pycwt.cwt : The transform that evaluates it.

        Examples
        --------
        >>> w = Paul(4)
        >>> round(float(w.psi_ft(1.0)), 4), float(w.psi_ft(-1.0))
        (0.0415, 0.0)
        """
        f = np.asarray(f)
        return 2**self.m / np.sqrt(self.m * np.prod(range(2, 2 * self.m))) * f**self.m * np.exp(-f) * (f > 0)

    def psi(self, t: Any) -> np.ndarray:
        """The Paul wavelet as pycwt writes it.

        Parameters
        ----------
        t : array_like
            Times, in units of the scale.

        Returns
        -------
        numpy.ndarray
            ``2^m i^m (m - 2)! / sqrt(pi (2m)!) (1 - i t)^(-(m + 1))`` at each ``t``, complex
            (pycwt's constant: T&C's eq. has ``m!`` where it has ``(m - 2)!``).

        See Also
        --------
        Paul.psi_ft : Its Fourier transform.

        Examples
        --------
        >>> round(abs(complex(Paul(4).psi(0.0))), 4)
        0.0899
        """
        t = np.asarray(t)
        return (
            2**self.m
            * 1j**self.m
            * np.prod(range(2, self.m - 1))
            / np.sqrt(np.pi * np.prod(range(2, 2 * self.m + 1)))
            * (1 - 1j * t) ** (-(self.m + 1))
        )

    def flambda(self) -> float:
        """Fourier wavelength as of Torrence and Compo (1998).

        Returns
        -------
        float
            The Fourier period of the wavelet at scale 1 (T&C's Table 1:
            ``4 pi / (2m + 1)``): a scale ``s`` has period ``flambda() * s``.

        See Also
        --------
        Paul.coi : The e-folding factor of the cone of influence.
        sftwave.pycwt.cwt : Gives ``freqs = 1 / (flambda() * scales)``.

        Examples
        --------
        >>> round(Paul(4).flambda(), 4)
        1.3963
        """
        return 4 * math.pi / (2 * self.m + 1)

    def coi(self) -> float:
        """e-Folding time as of Torrence and Compo (1998).

        Returns
        -------
        float
            The inverse of the e-folding time ``tau_s / s`` of T&C's Table 1
            (``s / sqrt(2)``): at a distance ``d`` from an edge the cone of influence is the
            Fourier period ``flambda() * coi() * d``, as :func:`sftwave.pycwt.cwt` computes it.

        See Also
        --------
        Paul.sup : Its inverse, the e-folding time in units of scale.
        Paul.flambda : The Fourier period of scale 1.

        Examples
        --------
        >>> round(Paul().coi(), 4)
        1.4142
        """
        return math.sqrt(2)

    def sup(self) -> float:
        """Wavelet support defined by the e-folding time (pycwt's raises a TypeError).

        Returns
        -------
        float
            ``1 / coi()``: the e-folding time ``tau_s / s`` in units of scale (``1 / sqrt(2)``).

        See Also
        --------
        Paul.coi : Its inverse.

        Examples
        --------
        >>> round(Paul().sup(), 4)
        0.7071
        """
        return 1 / self.coi()

    def _support(self) -> tuple[float, float]:
        return _support_of(False, float(self.m))

    def _set_m(self, m: int) -> None:
        self.m = m
        self.dofmin = 2
        if self.m == 4:
            self.cdelta, self.gamma, self.deltaj0 = 1.132, 1.17, 1.50
        else:
            self.cdelta = self.gamma = self.deltaj0 = -1


class DOG:
    """pycwt's derivative-of-a-Gaussian wavelet of order ``m`` (``DOG(2)``: the Mexican hat).

    ``psi_ft(f) = -i^m / sqrt(Gamma(m + 1/2)) f^m exp(-f^2 / 2)``;
    ``psi(t) = (-1)^(m+1) He_m(t) exp(-t^2 / 2) / sqrt(Gamma(m + 1/2))``.
    T&C's factors are known for ``m`` 2 and 6 (else -1, as pycwt).

    Parameters
    ----------
    m : int, optional
        The order (default 2).

    See Also
    --------
    sftwave.wavelets.DOG : sftwave's own DOG family (its sampled wavelet).

    Examples
    --------
    >>> w = DOG(6)
    >>> round(w.flambda(), 4), w.cdelta, w.dofmin
    (2.4645, 1.966, 1)
    """

    def __init__(self, m: int = 2) -> None:
        self._set_m(m)
        self.name = "DOG"

    def psi_ft(self, f: Any) -> np.ndarray:
        """Fourier transform of the DOG wavelet.

        Parameters
        ----------
        f : array_like
            Angular frequencies (radians per unit of scale).

        Returns
        -------
        numpy.ndarray
            ``-i^m / sqrt(Gamma(m + 1/2)) f^m exp(-f^2 / 2)`` at each ``f``, complex,
            its modulus peaking at ``f = sqrt(m)``.

        See Also
        --------
        DOG.psi : The wavelet in time.
        sftwave.pycwt.cwt : The transform that evaluates it.

        Examples
        --------
        >>> round(abs(complex(DOG(2).psi_ft(1.0))), 4)
        0.5261
        """
        from scipy.special import gamma

        f = np.asarray(f)
        return -(1j**self.m) / np.sqrt(gamma(self.m + 0.5)) * f**self.m * np.exp(-0.5 * f**2)

    def psi(self, t: Any) -> np.ndarray:
        """The DOG wavelet as described in Torrence and Compo (1998).

        Parameters
        ----------
        t : array_like
            Times, in units of the scale.

        Returns
        -------
        numpy.ndarray
            ``(-1)^(m+1) He_m(t) exp(-t^2 / 2) / sqrt(Gamma(m + 1/2))`` at each ``t``
            (``He_m`` the probabilists' Hermite polynomial), real.

        See Also
        --------
        DOG.psi_ft : Its Fourier transform.

        Examples
        --------
        >>> round(float(DOG(2).psi(0.0)), 4)  # the Mexican hat's peak
        0.8673
        """
        from scipy.special import gamma, hermitenorm

        t = np.asarray(t)
        p = hermitenorm(self.m)
        return (-1) ** (self.m + 1) * np.polyval(p, t) * np.exp(-(t**2) / 2) / np.sqrt(gamma(self.m + 0.5))

    def flambda(self) -> float:
        """Fourier wavelength as of Torrence and Compo (1998).

        Returns
        -------
        float
            The Fourier period of the wavelet at scale 1 (T&C's Table 1:
            ``2 pi / sqrt(m + 1/2)``): a scale ``s`` has period ``flambda() * s``.

        See Also
        --------
        DOG.coi : The e-folding factor of the cone of influence.
        sftwave.pycwt.cwt : Gives ``freqs = 1 / (flambda() * scales)``.

        Examples
        --------
        >>> round(DOG(2).flambda(), 4)
        3.9738
        """
        return 2 * math.pi / math.sqrt(self.m + 0.5)

    def coi(self) -> float:
        """e-Folding time as of Torrence and Compo (1998).

        Returns
        -------
        float
            The inverse of the e-folding time ``tau_s / s`` of T&C's Table 1
            (``sqrt(2) s``): at a distance ``d`` from an edge the cone of influence is the
            Fourier period ``flambda() * coi() * d``, as :func:`sftwave.pycwt.cwt` computes it.

        See Also
        --------
        DOG.sup : Its inverse, the e-folding time in units of scale.
        DOG.flambda : The Fourier period of scale 1.

        Examples
        --------
        >>> round(DOG().coi(), 4)
        0.7071
        """
        return 1 / math.sqrt(2)

    def sup(self) -> float:
        """Wavelet support defined by the e-folding time (pycwt's raises a TypeError).

        Returns
        -------
        float
            ``1 / coi()``: the e-folding time ``tau_s / s`` in units of scale (``sqrt(2)``).

        See Also
        --------
        DOG.coi : Its inverse.

        Examples
        --------
        >>> round(DOG().sup(), 4)
        1.4142
        """
        return 1 / self.coi()

    def _support(self) -> tuple[float, float]:
        return _support_of(True, float(self.m))

    def _set_m(self, m: int) -> None:
        self.m = m
        self.dofmin = 1
        factors = {2: (3.541, 1.43, 1.40), 6: (1.966, 1.37, 0.97)}
        self.cdelta, self.gamma, self.deltaj0 = factors.get(self.m, (-1, -1, -1))


class MexicanHat(DOG):
    """pycwt's Mexican hat: :class:`DOG` of order 2, named ``'Mexican Hat'``.

    See Also
    --------
    DOG : The family.

    Examples
    --------
    >>> w = MexicanHat()
    >>> w.name, w.m, w.cdelta
    ('Mexican Hat', 2, 3.541)
    """

    def __init__(self) -> None:
        self.name = "Mexican Hat"
        self._set_m(2)


#: pycwt's ``wavelet=`` kinds -> the class building the mother from its parameter.
CLASSES: dict[str, Any] = {
    "morlet": Morlet,
    "paul": lambda m: Paul(int(m)),
    "dog": lambda m: DOG(int(m)),
    "mexicanhat": lambda m: MexicanHat(),
}
