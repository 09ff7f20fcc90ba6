"""The demo: scalograms of real data (figure, accuracy, time) and Gaussian smoothing."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest

import sftwave
from sftwave import frequency_to_scale
from sftwave_paper import demo

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("pywt")
pytest.importorskip("matplotlib")

HAS_MNE = importlib.util.find_spec("mne") is not None

_FLOAT = r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
_OPT = rf"(?:{_FLOAT}|-)"
_GAUSS_ROW = re.compile(
    rf"^(?P<case>(?:image|1-D) [\w ]+?)\s+(?P<sigma>{_FLOAT})\s+(?P<t1>{_FLOAT})\s+(?P<t2>{_FLOAT})"
    rf"\s+(?P<speedup>{_FLOAT})\s+(?P<vs>{_FLOAT})\s+(?P<e1>{_FLOAT})\s+(?P<e2>{_FLOAT})$"
)
_SCALOGRAM_ROW = re.compile(
    rf"^(?P<record>nino3|ecg)\s+(?P<n>\d+)\s+(?P<band>\S+ \S+)\s+(?P<rows>\d+)\s+(?P<sftwave>{_FLOAT})"
    rf"\s+(?P<at>{_FLOAT} \S+)\s+(?P<mne>{_OPT})\s+(?P<pywt>{_OPT})\s+(?P<vs_mne>{_OPT})$"
)
_TIMING_ROW = re.compile(
    rf"^(?P<library>sftwave\.cwt|MNE tfr_array_morlet \(FFT\)|pywt\.cwt cmor \(FFT\))"
    rf"\s+(?P<ms>{_FLOAT})\s+(?P<ratio>{_FLOAT})$"
)


def _number(text: str) -> float | None:
    return None if text == "-" else float(text)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """Run the quick demo once: its status, its output and where it was asked to draw."""
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "scalogram.png"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = demo.main(quick=True, out=path)
    return status, buf.getvalue(), path


def _matches(pattern: re.Pattern, out: str) -> list[dict]:
    return [m.groupdict() for m in map(pattern.match, out.splitlines()) if m]


def test_quick_demo_writes_the_figure(quick_run):
    status, out, path = quick_run
    assert status == 0
    assert f"figure: {path.resolve()}" in out
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    tc = path.with_name(path.stem + demo.TC_SUFFIX + path.suffix)
    assert f"figure: {tc.resolve()}" in out and tc.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # no temporary file left
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, tc.name])
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's private 0600


def test_quick_demo_scalogram_accuracy(quick_run):
    _, out, _ = quick_run
    assert "pywt.data.nino()" in out and "pywt.data.ecg()" in out and "xi=6" in out
    rows = {r["record"]: r for r in _matches(_SCALOGRAM_ROW, out)}
    assert list(rows) == ["nino3", "ecg"]
    assert rows["nino3"]["band"] == "1-16 yr" and rows["ecg"]["band"] == "4-64 Hz"
    assert int(rows["nino3"]["n"]) == 264 and int(rows["ecg"]["n"]) == 1024
    for r in rows.values():
        assert int(r["rows"]) == 17  # 4 octaves, 4 frequencies to the octave
        assert float(r["sftwave"]) < 1e-3  # the default tol's documented bound
        assert 0 < _number(r["pywt"]) < 2.0  # parses; PyWavelets is far less accurate
    assert rows["nino3"]["mne"] == "-"  # MNE refuses wavelets longer than 264 samples
    if HAS_MNE:
        assert _number(rows["ecg"]["mne"]) < 1e-4  # MNE cuts its wavelet at 5 sigma
        assert _number(rows["ecg"]["vs_mne"]) < 1e-3
    else:
        assert rows["ecg"]["mne"] == "-"


def test_quick_demo_timings(quick_run):
    _, out, _ = quick_run
    assert "tiled end to end to 10000 samples" in out
    rows = _matches(_TIMING_ROW, out)
    expected = ["sftwave.cwt", *(["MNE tfr_array_morlet (FFT)"] if HAS_MNE else []),
                "pywt.cwt cmor (FFT)"]
    assert [r["library"] for r in rows] == expected
    assert all(float(r["ms"]) > 0 for r in rows) and float(rows[0]["ratio"]) == 1.0
    first = re.search(rf"first sftwave\.cwt call .*: (?P<ms>{_FLOAT}) ms$", out, re.MULTILINE)
    assert first and float(first["ms"]) >= 0
    if HAS_MNE:
        vs = re.search(rf"sqrt\(2\) \* sftwave against MNE on this signal: worst row ({_FLOAT})", out)
        assert vs and float(vs[1]) < 1e-3


def test_quick_demo_gaussian_rows(quick_run):
    _, out, _ = quick_run
    assert "columns:" in out and "truncate=12" in out
    assert "pywt.data.camera()" in out and "tiled" in out
    rows = _matches(_GAUSS_ROW, out)
    cases = [(r["case"], float(r["sigma"])) for r in rows]
    assert cases == [
        ("image float64", 2.0), ("image float64", 8.0),
        ("1-D smooth", 32.0), ("1-D 1st derivative", 32.0), ("1-D 2nd derivative", 32.0),
    ]
    for r in rows:
        t1, t2, vs, e1, e2 = (float(r[k]) for k in ("t1", "t2", "vs", "e1", "e2"))
        assert t1 >= 0 and t2 >= 0
        assert e1 < 1e-3  # sftwave against the exact result
        assert e2 < 1e-2  # scipy (truncate=4) against the exact result
        assert vs < 1e-2
        assert e1 <= 1.01 * e2  # sftwave at least as accurate as scipy


@pytest.mark.parametrize("energy, admissible", [(1.0, True), (2.0, True), (0.25, False)])
def test_exact_cwt_is_the_sampled_wavelet(energy, admissible):
    sigma, xi = 7.5, 6.0
    x = np.zeros(301)
    x[150] = 1.0  # an impulse: the transform is the wavelet itself
    psi = demo.exact_cwt(x, [sigma], xi, mode="constant", energy=energy, admissible=admissible)[0]
    k = np.arange(-150, 151) / sigma
    shape = np.exp(-0.5 * k**2) * (np.exp(1j * xi * k) - (math.exp(-xi**2 / 2) if admissible else 0))
    assert np.allclose(psi / psi[150], shape / shape[150], rtol=0, atol=1e-12)
    assert np.sum(np.abs(psi) ** 2) == pytest.approx(energy, rel=1e-9)
    if admissible:
        assert abs(psi.sum()) < 1e-9 * np.abs(psi).sum()


def test_exact_cwt_reflects_like_numpy_symmetric_padding():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(40)  # shorter than the wavelet: the extension repeats
    sigma = 4.0
    y = demo.exact_cwt(x, [sigma])[0]
    m = math.ceil(demo.EXACT_HALF_WIDTH * sigma)
    psi = demo.exact_cwt(np.eye(1, 2 * m + 1, m)[0], [sigma], mode="constant")[0]
    ref = np.convolve(np.pad(x, m, mode="symmetric"), psi, mode="valid")
    assert np.allclose(y, ref, rtol=0, atol=1e-12)


def test_sftwave_matches_exact_on_white_noise():
    x = np.random.default_rng(0).standard_normal(2000)
    freqs = demo.log_frequencies(4.0, 64.0, 2)
    y = sftwave.cwt(x, freqs, 360.0)
    err, _ = demo.worst_row(y, demo.exact_cwt(x, frequency_to_scale(freqs, 360.0, 6.0)))
    assert err < 1e-3


@pytest.mark.skipif(not HAS_MNE, reason="MNE is not installed")
def test_mne_is_sqrt2_times_sftwave_with_zero_padding():
    x = np.random.default_rng(1).standard_normal(3000)
    freqs = demo.log_frequencies(8.0, 64.0, 2)
    y_mne = demo.mne_cwt(x, freqs, 360.0)
    ours = math.sqrt(2.0) * sftwave.cwt(x, freqs, 360.0, mode="constant")
    assert demo.worst_row(ours, y_mne)[0] < 1e-3
    assert demo.mne_cwt(x[:100], freqs, 360.0) is None  # its wavelets are longer than 100 samples


def test_pywt_cmor_is_our_wavelet_at_scale_sigma():
    # at a large scale PyWavelets' sampling jitter is small: a wrong scale or
    # normalisation would show as an O(1) error
    rec = demo.ecg_record(per_octave=1)
    sigma = frequency_to_scale(rec.freqs[:1], rec.fs)
    wavelet = demo.pywt_wavelet()
    err, _ = demo.worst_row(demo.pywt_cwt(rec.x, sigma, wavelet), demo._pywt_exact(rec.x, sigma, wavelet))
    assert err < 0.05


def test_rel_rmse_and_rows():
    x = np.linspace(0.0, 1.0, 200) ** 2
    rows = demo.signal_rows(x, (5.0,), orders=(0,))
    assert len(rows) == 1 and rows[0].case == "1-D smooth"
    assert rows[0].err_sftwave < 1e-4 and rows[0].speedup > 0
    assert demo.rel_rmse(2 * x, x) == pytest.approx(1.0)
    assert demo.rel_rmse(x + 1j * x, x) == pytest.approx(1.0)  # complex kept complex


def test_format_rows_header():
    text = demo.format_rows([demo.Row("case", 8.0, 0.002, 0.004, 1e-6, 1e-7, 1e-5)])
    head, line = text.splitlines()
    assert head.split()[:2] == ["case", "sigma"]
    assert line.split()[-3:] == ["1.0e-06", "1.0e-07", "1.0e-05"]
    assert line.split()[4] == "2.0"  # speed-up


def test_format_scalogram_rows_parse():
    rows = [demo.ScalogramRow("nino3", 264, "1-16 yr", 33, 3.8e-4, "1.19 yr", None, 0.37, None),
            demo.ScalogramRow("ecg", 1024, "4-64 Hz", 33, 7e-4, "45.3 Hz", 1.7e-5, 0.48, 7e-4)]
    parsed = _matches(_SCALOGRAM_ROW, demo.format_scalogram_rows(rows))
    assert [(p["record"], p["at"], p["mne"]) for p in parsed] == [
        ("nino3", "1.19 yr", "-"), ("ecg", "45.3 Hz", "1.7e-05")]


def test_the_experiments_read_the_shipped_series(tmp_path):
    """The demo's Torrence & Compo figure draws from sftwave.datasets (no second copy)."""
    source = (ROOT / "src" / "sftwave_paper" / "demo.py").read_text()
    assert "from sftwave.datasets import nino3" in source
    assert not list((ROOT / "src").rglob("*.dat"))
    pytest.importorskip("matplotlib")
    from sftwave_paper.demo import nino3_torrence_compo

    path = nino3_torrence_compo(tmp_path / "nino3.png", per_octave=4, dpi=40)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
