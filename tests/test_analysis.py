"""Torrence & Compo's analysis (sftwave.analysis) against pycwt on the Nino3 series.

pycwt's conventions, and the conversions used here:

* pycwt labels rows by Fourier frequency ``1 / lambda``; sftwave by ``f = xi / (2 pi s)``.
  The tests put sftwave's rows on pycwt's scales (``f = 6 / (2 pi s)``).
* pycwt zero-pads the 504 quarters to 512 and convolves circularly (its FFT): the
  same computation is sftwave's ``mode='wrap'`` on the series with 8 zeros appended.
* pycwt's wavelet is defined by its Fourier transform, cut at the Nyquist
  frequency; sftwave's by its samples in time.  They differ where the wavelet
  reaches the Nyquist frequency: the rows with periods below 1 year (4 samples)
  are left out of the coefficient comparison.
* pycwt uses the paper's ``C_delta = 0.776``; sftwave computes it (0.7784):
  ``cdelta=0.776`` is passed where the numbers are compared.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import sftwave
from sftwave import analysis, datasets

pycwt = pytest.importorskip("pycwt")

DT = 0.25
FS = 1.0 / DT


@pytest.fixture(scope="module")
def nino3():
    dat = datasets.nino3().sst
    ref = np.loadtxt(Path(importlib.util.find_spec("pycwt").origin).parent / "sample"
                     / "sst_nino3.dat")
    assert np.array_equal(dat, ref)          # sftwave ships the series pycwt ships
    return (dat - dat.mean()) / dat.std()


@pytest.fixture(scope="module")
def transforms(nino3):
    mother = pycwt.Morlet(6)
    W, scales, freqs, coi, _, _ = pycwt.cwt(nino3, DT, 1 / 12, -1, -1, mother)
    f_sft = 6.0 / (2 * np.pi * scales)
    padded = np.r_[nino3, np.zeros(512 - nino3.size)]
    ours = sftwave.cwt(padded, f_sft, FS, mode="wrap", tol=1e-6)[:, :nino3.size]
    return dict(mother=mother, W=W, scales=scales, freqs=freqs, coi=coi, f=f_sft, ours=ours)


def test_periods_and_cone_of_influence(nino3, transforms):
    t = transforms
    assert np.allclose(analysis.fourier_period(t["f"]), 1 / t["freqs"], rtol=1e-12)
    assert np.allclose(analysis.frequencies_for_periods(1 / t["freqs"]), t["f"], rtol=1e-12)
    assert np.allclose(analysis.cone_of_influence(nino3.size, FS), t["coi"], rtol=1e-12)
    mask = analysis.coi_mask(t["f"], nino3.size, FS)
    assert np.array_equal(mask, (1 / t["freqs"])[:, None] > t["coi"][None, :])
    assert abs(analysis.fourier_factor(6.0) - t["mother"].flambda()) < 1e-12


def test_coefficients_and_global_spectrum(transforms):
    """Rows of periods from 1 year: coefficients within 1e-5 of the row's RMS, and the
    global spectrum within 1e-5 relative."""
    t = transforms
    rows = 1 / t["freqs"] >= 1.0
    for W, ours in zip(t["W"][rows], t["ours"][rows]):
        scale = np.sqrt(np.mean(np.abs(W) ** 2))
        assert np.sqrt(np.mean(np.abs(ours - W) ** 2)) <= 1e-5 * scale
    g_pycwt = (np.abs(t["W"][rows]) ** 2).mean(axis=1)
    g_ours = analysis.global_spectrum(np.abs(t["ours"][rows]) ** 2)
    assert np.allclose(g_ours, g_pycwt, rtol=1e-5)


def test_ar1_and_significance_levels(nino3, transforms):
    t = transforms
    alpha = pycwt.ar1(nino3)
    assert np.allclose(analysis.ar1(nino3), alpha, rtol=1e-12)
    var = nino3.std() ** 2
    mine, theor = analysis.significance(1.0, t["f"], FS, alpha=alpha[0], test="local")
    theirs, theor_p = pycwt.significance(1.0, DT, t["scales"], 0, alpha[0],
                                         significance_level=0.95, wavelet=t["mother"])
    assert np.allclose(mine, theirs, rtol=1e-12) and np.allclose(theor, theor_p, rtol=1e-12)
    dof = nino3.size - t["scales"]
    mine, _ = analysis.significance(nino3, t["f"], FS, alpha=alpha[0], test="global", dof=dof)
    theirs, _ = pycwt.significance(var, DT, t["scales"], 1, alpha[0], significance_level=0.95,
                                   dof=dof.copy(), wavelet=t["mother"])
    assert np.allclose(mine, theirs, rtol=1e-12)
    periods = 1 / t["freqs"]
    sel = (periods >= 2) & (periods < 8)
    band = (t["f"][sel].min(), t["f"][sel].max())
    mine, _ = analysis.significance(nino3, t["f"], FS, alpha=alpha[0], test="scale", band=band,
                                    cdelta=0.776)
    theirs, _ = pycwt.significance(var, DT, t["scales"], 2, alpha[0], significance_level=0.95,
                                   dof=[t["scales"][sel][0], t["scales"][sel][-1]],
                                   wavelet=t["mother"])
    assert np.allclose(mine, theirs, rtol=1e-10)


def test_scale_average_as_pycwt_recipe(nino3, transforms):
    """pycwt's sample: var * dj * dt / C_delta * sum over the 2-8 year band of power / scale."""
    t = transforms
    periods = 1 / t["freqs"]
    sel = (periods >= 2) & (periods < 8)
    power = np.abs(t["W"]) ** 2
    theirs = nino3.var() * (1 / 12) * DT / 0.776 * (power[sel] / t["scales"][sel, None]).sum(0)
    band = (t["f"][sel].min(), t["f"][sel].max())
    mine = nino3.var() * analysis.scale_average(power, t["f"], FS, band=band, axis=0, cdelta=0.776)
    assert np.allclose(mine, theirs, rtol=1e-9)


def test_reconstruction_factor_against_the_paper():
    """C_delta for xi = 6 within 1 % of Torrence & Compo's 0.776 (Table 2)."""
    assert abs(analysis.reconstruction_factor(6.0) / 0.776 - 1) < 0.01


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="periods"):
        analysis.frequencies_for_periods([1.0, -2.0])
    with pytest.raises(ValueError, match="xi = 6"):
        analysis.significance(1.0, [0.1, 0.2], 1.0, xi=5.0, alpha=0.0, test="global", dof=10)
    with pytest.raises(ValueError, match="test"):
        analysis.significance(1.0, [0.1, 0.2], 1.0, alpha=0.0, test="both")
    with pytest.raises(ValueError, match="alpha"):
        analysis.significance(1.0, [0.1, 0.2], 1.0)
    with pytest.raises(ValueError, match="band"):
        analysis.scale_average(np.ones((2, 5)), [0.1, 0.2], 1.0, band=(0.3, 0.4), axis=0)
    with pytest.raises(ValueError, match="ar1"):
        analysis.ar1([1.0, 2.0])


# ----------------------------------------------------------------------------- DOG wavelets


@pytest.mark.parametrize("m", [2, 6])
def test_dog_periods_and_cone_as_pycwt(m):
    """The DOG rows' Fourier periods, cone and Fourier factor are pycwt's DOG(m)'s."""
    mother = pycwt.DOG(m)
    x = np.random.default_rng(m).standard_normal(300)
    _, scales, freqs, coi, _, _ = pycwt.cwt(x, DT, 1 / 12, -1, -1, mother)
    wav = f"dog{m}"
    assert abs(analysis.fourier_factor(wavelet=wav) - mother.flambda()) < 1e-12
    assert np.allclose(analysis.fourier_period(freqs, wavelet=wav), 1 / freqs, rtol=1e-12)
    assert np.allclose(analysis.frequencies_for_periods(1 / freqs, wavelet=wav), freqs, rtol=1e-12)
    assert np.allclose(analysis.cone_of_influence(x.size, FS, wavelet=wav), coi, rtol=1e-12)
    mask = analysis.coi_mask(freqs, x.size, FS, wavelet=wav)
    assert np.array_equal(mask, (1 / freqs)[:, None] > coi[None, :])
    # the rows' scales are pycwt's: sftwave.cwt at pycwt's freqs is at its scales
    from sftwave.plans.dog import dog_scale

    assert np.allclose(dog_scale(freqs, FS, m) / FS, scales, rtol=1e-12)


@pytest.mark.parametrize("m", [2, 6])
def test_dog_significance_as_pycwt(nino3, m):
    """Local, global and scale-averaged levels of the DOG wavelets equal pycwt's (dofmin 1,
    Table 2's gamma and delta j0), with pycwt's C_delta passed."""
    mother = pycwt.DOG(m)
    _, scales, freqs, _, _, _ = pycwt.cwt(nino3, DT, 1 / 12, -1, -1, mother)
    wav = f"dog{m}"
    alpha = pycwt.ar1(nino3)[0]
    var = nino3.std() ** 2
    mine, theor = analysis.significance(1.0, freqs, FS, alpha=alpha, wavelet=wav)
    theirs, theor_p = pycwt.significance(1.0, DT, scales, 0, alpha, wavelet=mother)
    assert np.allclose(mine, theirs, rtol=1e-12) and np.allclose(theor, theor_p, rtol=1e-12)
    dof = nino3.size - scales
    mine, _ = analysis.significance(nino3, freqs, FS, alpha=alpha, test="global", dof=dof,
                                    wavelet=wav)
    theirs, _ = pycwt.significance(var, DT, scales, 1, alpha, dof=dof.copy(), wavelet=mother)
    assert np.allclose(mine, theirs, rtol=1e-12)
    sel = (1 / freqs >= 2) & (1 / freqs < 8)
    band = (freqs[sel].min(), freqs[sel].max())
    mine, _ = analysis.significance(nino3, freqs, FS, alpha=alpha, test="scale", band=band,
                                    cdelta=mother.cdelta, wavelet=wav)
    theirs, _ = pycwt.significance(var, DT, scales, 2, alpha, dof=[scales[sel][0], scales[sel][-1]],
                                   wavelet=mother)
    assert np.allclose(mine, theirs, rtol=1e-10)


@pytest.mark.parametrize("m", [2, 4, 6, 8])
def test_dog_reconstruction_factor_by_definition(m):
    """C_delta's closed form against eq. 13 computed literally (naive.cdelta_by_definition),
    and against Table 2 (3.541 for m = 2, 1.966 for m = 6: the paper's finite scale sets,
    within 2.5 %)."""
    import math

    from naive import cdelta_by_definition, exact_dog

    g = math.sqrt(math.gamma(m + 0.5))

    def psi_hat(u):      # Table 1: -i^m u^m exp(-u^2/2) / sqrt(Gamma(m + 1/2))
        return -(1j ** m) / g * u ** m * np.exp(-u * u / 2)

    ours = analysis.reconstruction_factor(wavelet=f"dog{m}")
    ref = cdelta_by_definition(psi_hat, float(exact_dog(m, 0.0)))
    assert abs(ours / ref - 1) < 1e-3          # the literal sum's dj = 1/32 and cut-offs
    table = {2: 3.541, 6: 1.966}
    if m in table:
        assert abs(ours / table[m] - 1) < 0.025


def test_dog_scale_average_uses_its_cdelta():
    power = np.ones((3, 10))
    freqs = [0.1, 0.2, 0.4]
    a = analysis.scale_average(power, freqs, wavelet="mexh")
    b = analysis.scale_average(power, freqs, wavelet="mexh",
                               cdelta=analysis.reconstruction_factor(wavelet="dog2"))
    assert np.array_equal(a, b)


def test_dog_bad_arguments_are_named():
    with pytest.raises(ValueError, match="xi"):
        analysis.fourier_factor(5.0, wavelet="dog2")
    with pytest.raises(ValueError, match="xi"):
        analysis.coi_mask([0.1], 10, xi=[6.0], wavelet="dog2")
    with pytest.raises(ValueError, match="wavelet"):
        analysis.fourier_period([0.1], wavelet="dog12")
    with pytest.raises(ValueError, match="odd order"):
        analysis.reconstruction_factor(wavelet="dog3")
    with pytest.raises(ValueError, match="order 2 and 6"):
        analysis.significance(1.0, [0.1, 0.2], 1.0, alpha=0.0, test="global", dof=10,
                              wavelet="dog4")
    # local levels exist for every order: chi-square with one degree of freedom
    lev, theor = analysis.significance(1.0, [0.1, 0.2], 1.0, alpha=0.0, wavelet="dog4")
    assert np.allclose(lev / theor, 3.841458820694124)
