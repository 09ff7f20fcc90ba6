"""pycwt's own sample analysis of Nino3 (``pycwt/sample/sample.py``), run unchanged with
``import sftwave.pycwt as wavelet`` and with pycwt, every output compared.

``_analysis`` is the sample script's computation, line for line, with only its data
loading (pycwt's ``Dataset('NINO3')``: ``sst_nino3.dat``, ``t0 = 1871``, ``dt = 0.25``,
shipped in the installed pycwt's ``sample`` folder) and its plotting left out.
sftwave.pycwt computes pycwt's definitions, so every output agrees to rounding: 1e-12 of
each output's largest value (measured: about 1e-15).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sftwave.pycwt

pycwt = pytest.importorskip("pycwt")


def _analysis(wavelet, dat, dt, t0):
    from pycwt.helpers import find

    avg1, avg2 = (2, 8)  # Range of periods to average
    slevel = 0.95  # Significance level
    std = dat.std()  # Standard deviation
    std2 = std**2  # Variance
    dat = (dat - dat.mean()) / std  # Calculating anomaly and normalizing
    N = dat.size  # Number of measurements
    time = np.arange(0, N) * dt + t0  # Time array in years
    dj = 1 / 12  # Twelve sub-octaves per octaves
    s0 = -1  # 2 * dt                    # Starting scale, here 6 months
    J = -1  # 7 / dj                     # Seven powers of two with dj sub-octaves
    try:
        alpha, _, _ = wavelet.ar1(dat)  # Lag-1 autocorrelation for red noise
    except Warning:
        alpha = 1.0
    mother = wavelet.Morlet(6)  # Morlet mother wavelet with m=6
    wave, scales, freqs, coi, fft, fftfreqs = wavelet.cwt(dat, dt, dj, s0, J, mother)
    iwave = wavelet.icwt(wave, scales, dt, dj, mother)
    power = (np.abs(wave)) ** 2
    fft_power = np.abs(fft) ** 2
    period = 1 / freqs
    signif, fft_theor = wavelet.significance(
        1.0, dt, scales, 0, alpha, significance_level=slevel, wavelet=mother
    )
    sig95 = np.ones([1, N]) * signif[:, None]
    sig95 = power / sig95
    glbl_power = power.mean(axis=1)
    dof = N - scales  # Correction for padding at edges
    glbl_signif, tmp = wavelet.significance(
        std2, dt, scales, 1, alpha, significance_level=slevel, dof=dof, wavelet=mother
    )
    sel = find((period >= avg1) & (period < avg2))
    Cdelta = mother.cdelta
    scale_avg = (scales * np.ones((N, 1))).transpose()
    scale_avg = power / scale_avg
    scale_avg = std2 * dj * dt / Cdelta * scale_avg[sel, :].sum(axis=0)
    scale_avg_signif, tmp = wavelet.significance(
        std2,
        dt,
        scales,
        2,
        alpha,
        significance_level=slevel,
        dof=[scales[sel[0]], scales[sel[-1]]],
        wavelet=mother,
    )
    return dict(
        time=time,
        alpha=alpha,
        wave=wave,
        scales=scales,
        freqs=freqs,
        coi=coi,
        fft=fft,
        fftfreqs=fftfreqs,
        fft_power=fft_power,
        iwave=iwave,
        signif=signif,
        fft_theor=fft_theor,
        sig95=sig95,
        glbl_power=glbl_power,
        glbl_signif=glbl_signif,
        scale_avg=scale_avg,
        scale_avg_signif=scale_avg_signif,
        sel=sel,
    )


@pytest.fixture(scope="module")
def nino3():
    path = Path(pycwt.__file__).parent / "sample" / "sst_nino3.dat"
    return np.loadtxt(path)


def test_nino3_sample_gives_pycwts_numbers(nino3):
    ref = _analysis(pycwt, nino3.copy(), 0.25, 1871.0)
    got = _analysis(sftwave.pycwt, nino3.copy(), 0.25, 1871.0)
    assert ref.keys() == got.keys()
    assert got["wave"].shape == (97, 504)  # every row, down to a period of 2 dt
    for key, r in ref.items():
        g = got[key]
        r, g = np.asarray(r), np.asarray(g)
        assert g.shape == r.shape and g.dtype.kind == r.dtype.kind, key
        scale = max(float(np.abs(r).max()), 1e-300)
        np.testing.assert_allclose(g, r, rtol=0, atol=1e-12 * scale, err_msg=key)
        # and row by row, where a row's values are far below the largest (the power)
        if r.ndim == 2:
            rows = np.abs(r).max(axis=1, keepdims=True)
            np.testing.assert_allclose(g / rows, r / rows, rtol=0, atol=1e-12, err_msg=key)
