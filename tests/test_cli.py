"""The command line ``python -m sftwave``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sftwave import cli


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sftwave", *args],
                          capture_output=True, text=True, timeout=120)


def test_help_exits_zero():
    proc = _run("--help")
    assert proc.returncode == 0
    assert "demo" in proc.stdout and "paper" in proc.stdout


def test_paper_help_lists_table1():
    proc = _run("paper", "--help")
    assert proc.returncode == 0
    assert "table1" in proc.stdout


@pytest.mark.parametrize("args", [(), ("nonsense",), ("paper",), ("paper", "table99"),
                                  ("paper", "table1", "--bogus")])
def test_bad_usage_exits_two(args):
    proc = _run(*args)
    assert proc.returncode == 2
    assert "usage:" in proc.stderr


def test_main_in_process(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    assert "sftwave" in capsys.readouterr().out


# ----------------------------------------------------------------------------- scalogram, smooth

np = pytest.importorskip("numpy")


def _files_in(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def recordings(tmp_path):
    from scipy.io import wavfile

    fs = 8000
    t = np.arange(fs) / fs
    pcm = (0.5 * np.sin(2 * np.pi * 440 * t) * 32767).astype(np.int16)
    wavfile.write(tmp_path / "tone.wav", fs, np.stack([pcm, pcm // 2], axis=1))
    np.savetxt(tmp_path / "slow.csv", np.c_[t[:1500], np.sin(2 * np.pi * 5 * t[:1500])],
               delimiter=",", header="time,value", comments="")
    np.save(tmp_path / "noise.npy", np.random.default_rng(0).standard_normal(2000))
    np.savez(tmp_path / "two.npz", a=np.ones(100), b=np.zeros(100))
    return tmp_path


def test_scalogram_of_a_wav_writes_png_and_arrays(recordings):
    proc = _run("scalogram", str(recordings / "tone.wav"), "--fmin", "100", "--fmax", "2000",
                "--per-octave", "6", "--decim", "4", "--save-npy", str(recordings / "p.npy"),
                "--save-csv", str(recordings / "p.csv"), "--channel", "1")
    assert proc.returncode == 0, proc.stderr
    assert (recordings / "tone.png").stat().st_size > 1000
    power = np.load(recordings / "p.npy")
    freqs = np.geomspace(100, 2000, round(6 * np.log2(20)) + 1)
    assert power.shape == (freqs.size, 2000)
    # the 440 Hz tone of channel 1 (amplitude 0.25 of full scale) peaks at the row nearest 440
    assert abs(freqs[np.argmax(power[:, 1000])] / 440 - 1) < 0.07
    table = np.loadtxt(recordings / "p.csv", delimiter=",", skiprows=1)
    assert np.allclose(table[:, 0], freqs) and np.allclose(table[:, 1:], power, rtol=1e-7)
    assert not [n for n in _files_in(recordings) if n.startswith(".")]


def test_scalogram_of_csv_npy_with_fs(recordings):
    proc = _run("scalogram", str(recordings / "slow.csv"), "--fs", "8000", "--column", "value",
                "-o", str(recordings / "slow_fig.png"), "--nfreqs", "10")
    assert proc.returncode == 0, proc.stderr
    assert (recordings / "slow_fig.png").exists()
    proc = _run("scalogram", str(recordings / "noise.npy"), "--fs", "100", "-o", "none",
                "--save-npy", str(recordings / "n.npy"))
    assert proc.returncode == 0, proc.stderr
    assert np.load(recordings / "n.npy").ndim == 2 and not (recordings / "noise.png").exists()


def _bad(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    return path


@pytest.mark.parametrize("name,content,extra,expected", [
    ("missing.wav", None, (), "no such file"),
    ("empty.csv", "", ("--fs", "10"), "empty"),
    ("data.xyz", "1\n2\n", ("--fs", "10"), "unknown format"),
    ("fake.wav", "this is text, not audio\n" * 10, (), "not a readable WAV"),
    ("words.csv", "value\n1.0\n2.0\nthree\n4.0\n", ("--fs", "10"), "line 4: 'three' is not"),
    ("gappy.csv", "\n".join(["1.0"] * 50 + ["nan"] + ["2.0"] * 50), ("--fs", "10"),
     "non-finite"),
    ("noise.npy", None, (), "no sampling rate"),
    ("two.npz", None, ("--fs", "10"), "choose one with --key"),
    ("tone.wav", None, ("--channel", "5"), "channel"),
    ("tone.wav", None, ("--fmin", "5000"), "fmin"),
])
def test_bad_files_one_line_no_output(recordings, name, content, extra, expected):
    path = recordings / name if content is None else _bad(recordings, name, content)
    before = _files_in(recordings)
    out = recordings / "out.png"
    proc = _run("scalogram", str(path), "-o", str(out), "--save-npy",
                str(recordings / "out.npy"), *extra)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sftwave: error:"), proc.stderr
    assert expected in lines[0], lines[0]
    assert "Traceback" not in proc.stderr
    assert _files_in(recordings) == before          # no output, no temporary file left


def test_truncated_wav(recordings):
    data = (recordings / "tone.wav").read_bytes()
    path = _bad(recordings, "cut.wav", data[: len(data) // 3])
    proc = _run("scalogram", str(path), "-o", str(recordings / "cut.png"))
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (recordings / "cut.png").exists()


def test_smooth_png_and_npy(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    import scipy.ndimage as ndi

    img = (np.random.default_rng(0).random((60, 70, 3)) * 255).astype(np.uint8)
    Image.fromarray(img).save(tmp_path / "in.png")
    proc = _run("smooth", str(tmp_path / "in.png"), "--sigma", "2.5", "-o", str(tmp_path / "o.png"))
    assert proc.returncode == 0, proc.stderr
    got = np.asarray(Image.open(tmp_path / "o.png"))
    ref = ndi.gaussian_filter(img, 2.5, axes=(0, 1))
    assert got.shape == img.shape and np.abs(got.astype(int) - ref).max() <= 1
    np.save(tmp_path / "in.npy", img[..., 0].astype(float))
    proc = _run("smooth", str(tmp_path / "in.npy"), "--sigma", "2,4", "-o", str(tmp_path / "o.npy"))
    assert proc.returncode == 0, proc.stderr
    # the library's default accuracy: no worse than scipy's at truncate=4, against truncate=8
    exact = ndi.gaussian_filter(img[..., 0].astype(float), (2, 4), truncate=8)
    scipy_err = np.abs(ndi.gaussian_filter(img[..., 0].astype(float), (2, 4)) - exact).max()
    assert np.abs(np.load(tmp_path / "o.npy") - exact).max() <= scipy_err


@pytest.mark.parametrize("args,expected", [
    (("missing.png", "--sigma", "2", "-o", "x.png"), "no such file"),
    (("in.npy", "--sigma", "2", "-o", "x.gif"), "unknown image format"),
    (("in.npy", "--sigma", "2", "-o", "nofolder/x.npy"), "does not exist"),
])
def test_smooth_bad_files(tmp_path, args, expected):
    np.save(tmp_path / "in.npy", np.ones((10, 10)))
    proc = subprocess.run([sys.executable, "-m", "sftwave", "smooth", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.npy"]


def test_bad_option_values_are_usage_errors():
    proc = _run("scalogram", "x.wav", "--fs", "-3")
    assert proc.returncode == 2 and "must be positive" in proc.stderr
