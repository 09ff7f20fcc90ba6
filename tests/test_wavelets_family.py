"""The wavelet family contract, run over every registered family (sftwave.plans.families).

A family (CONTRIBUTING.md, *Adding a wavelet*) must give: its scales and a
transform that matches the naive reference of its wavelet (tests/naive.py),
a Fourier factor that is where a sine's power peaks over the scales, a cone
of influence from it, a reconstruction (C_delta, psi_0(0), responses) that
gives a band-limited signal back, and its significance constants.  Consumers
ask the family only; a new family is covered here by adding its instances to
``CASES`` and, where one exists, its naive reference to ``REFERENCES``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import exact_dog_transform, exact_morlet_transform, rel_rmse

import sftwave
from sftwave import analysis
from sftwave.plans import families
from sftwave.plans.dog import DOG_ORDERS
from sftwave.plans.families import DOG, FAMILIES, Morlet, WaveletFamily, wavelet_family

#: Instances of every registered family (its parameters' range).
CASES = [Morlet()] + [DOG(m) for m in DOG_ORDERS]

#: The naive transform of one row at a scale of ``sigma`` samples, by family type.
REFERENCES = {
    Morlet: lambda fam, x, sigma, xi: exact_morlet_transform(x, sigma, xi),
    DOG: lambda fam, x, sigma, xi: exact_dog_transform(x, sigma, fam.m),
}

XI = families.DEFAULT_XI


def test_every_registered_family_is_covered():
    assert {type(f) for f in CASES} == set(FAMILIES.values())
    assert all(issubclass(t, WaveletFamily) for t in FAMILIES.values())


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_parser_and_identity(family):
    assert wavelet_family(family) is family
    assert wavelet_family(family.name) == family
    assert wavelet_family(family.name.upper()) == family
    assert hash(wavelet_family(family.name)) == hash(family)
    assert family.title and family.outputs and family.methods
    assert family.coefficient_kind in "cf"
    assert family.engines is None or "numba" in family.engines


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_transform_matches_the_naive_reference(family):
    reference = REFERENCES.get(type(family))
    if reference is None:
        pytest.skip(f"no naive reference for {family!r}")
    x = np.random.default_rng(1).standard_normal(1200)
    f, fs = 0.05, 1.0
    sigma = float(family.scale(f, fs, XI))
    y = sftwave.cwt(x, [f], fs, wavelet=family, dtype=np.complex128 if family.coefficient_kind == "c"
                    else np.float64, tol=1e-6)[0]
    assert y.dtype.kind == family.coefficient_kind
    assert rel_rmse(y, reference(family, x, sigma, XI)) < 1e-4


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_fourier_factor_is_where_a_sines_power_peaks(family):
    """T&C's Fourier period: the period of the sine whose power peaks at that scale.  The power
    of a row is the square of its response; over a fine grid of scales, its peak for a cosine
    of ``omega`` lies at ``sigma = 2 pi / (omega * fourier_factor)``."""
    omega = 0.3
    sigma = np.geomspace(1.0, 200.0, 40001)
    power = family.response(sigma, XI, np.array([omega]))[:, 0] ** 2
    peak = sigma[np.argmax(power)]
    assert peak * family.fourier_factor(XI) == pytest.approx(2 * math.pi / omega, rel=2e-4)
    periods = np.array([3.0, 17.0, 250.0])
    f = family.frequencies_for_periods(periods, XI)
    assert np.allclose(family.fourier_period(f, XI), periods, rtol=1e-13)
    assert np.allclose(family.fourier_period(f, XI), family.fourier_factor(XI) * family.scale(f, 1.0, XI),
                       rtol=1e-13)


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_cone_of_influence(family):
    coi = analysis.cone_of_influence(9, 2.0, wavelet=family)
    k = np.arange(9)
    assert np.allclose(coi, family.fourier_factor(XI) / family.efolding
                       * (np.minimum(k, 8 - k) + 0.5) / 2.0)
    mask = analysis.coi_mask([0.25, 0.01], 40, wavelet=family)
    assert mask[1].sum() >= mask[0].sum()


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_reconstruction_gives_a_band_back(family):
    t = np.arange(2048)
    x = np.sin(2 * np.pi * t / 40) + 0.5 * np.sin(2 * np.pi * t / 200)
    freqs = np.geomspace(0.5, 1 / 1000, 80)
    W = sftwave.cwt(x, freqs, wavelet=family, dtype=np.complex128 if family.coefficient_kind == "c"
                    else np.float64)
    try:
        psi00 = family.psi0_at_zero(XI)
    except ValueError as exc:        # no delta reconstruction (psi_0(0) = 0): said so
        assert "psi_0(0)" in str(exc)
        with pytest.raises(ValueError, match="psi_0"):
            sftwave.icwt(W, freqs, wavelet=family)
        return
    assert psi00 != 0.0 and family.reconstruction_factor(XI) > 0
    xr = sftwave.icwt(W, freqs, wavelet=family)
    middle = slice(512, 1536)
    assert rel_rmse(xr[middle], x[middle]) < 2e-2


@pytest.mark.parametrize("family", CASES, ids=repr)
def test_significance_constants(family):
    assert family.dofmin == (2.0 if family.coefficient_kind == "c" else 1.0)
    freqs = np.geomspace(0.25, 0.02, 12)
    signif, theor = analysis.significance(1.0, freqs, alpha=0.0, wavelet=family)
    assert np.allclose(signif / theor, np.interp(family.dofmin, [1, 2], [3.8415, 2.9957]), rtol=1e-4)
    try:
        gamma, deltaj0 = family.decorrelation(np.full(freqs.size, XI), "global")
    except ValueError as exc:        # Table 2 knows none: the averages are refused by name
        assert "test='global'" in str(exc)
        return
    assert gamma > 0 and deltaj0 > 0
    g, _ = analysis.significance(1.0, freqs, alpha=0.0, test="global", dof=100, wavelet=family)
    assert np.all(g < signif)        # averaging narrows the chi-square
