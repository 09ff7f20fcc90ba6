"""The command line ``python -m sftwave``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sftwave import cli


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sftwave", *args],
                          capture_output=True, text=True, timeout=120)


def test_help_exits_zero():
    proc = _run("--help")
    assert proc.returncode == 0
    assert "scalogram" in proc.stdout and "smooth" in proc.stdout
    assert "demo" not in proc.stdout          # the workbench's commands are not the library's


@pytest.mark.parametrize("args", [(), ("nonsense",), ("demo",), ("scalogram",),
                                  ("smooth", "x.npy", "--bogus")])
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


def test_wav_cut_at_a_frame_is_read_with_a_warning(recordings):
    """A recorder that died: the header promises more frames than the file holds."""
    from scipy.io import wavfile

    data = (recordings / "tone.wav").read_bytes()
    frames = 3000                                    # 44-byte header, 4 bytes per stereo frame
    cut = _bad(recordings, "cut.wav", data[:44 + 4 * frames])
    with pytest.warns(wavfile.WavFileWarning):
        _, expected = wavfile.read(cut)
    proc = _run("scalogram", str(cut), "-o", "none", "--save-npy", str(recordings / "cut.npy"),
                "--fmin", "100", "--fmax", "2000", "--nfreqs", "5")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sftwave: warning:"), proc.stderr
    assert "ends early" in lines[0] and str(frames) in lines[0]
    power = np.load(recordings / "cut.npy")
    # what scipy reads (channel 0, scaled as the command scales PCM) is what was analysed
    import sftwave

    ref = sftwave.cwt(expected[:, 0] / 32768.0, np.geomspace(100, 2000, 5), 8000.0,
                      output="power")
    assert power.shape == (5, frames) and np.allclose(power, ref)
    # cut inside a sample: scipy cannot read it; one line, nothing written
    bad = _bad(recordings, "cut2.wav", data[:44 + 4 * frames + 3])
    proc = _run("scalogram", str(bad), "-o", str(recordings / "cut2.png"))
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (recordings / "cut2.png").exists()


def test_smooth_png_and_npy(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    import scipy.ndimage as ndi

    img = (np.random.default_rng(0).random((60, 70, 3)) * 255).astype(np.uint8)
    Image.fromarray(img).save(tmp_path / "in.png")
    proc = _run("smooth", str(tmp_path / "in.png"), "--sigma", "2.5", "-o", str(tmp_path / "o.png"))
    assert proc.returncode == 0, proc.stderr
    got = np.asarray(Image.open(tmp_path / "o.png"))
    ref = ndi.gaussian_filter(img, (2.5, 2.5, 0))     # axes=(0, 1), also on scipy < 1.11
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


# ----------------------------------------------------------------------------- never destroy data

def _main(capsys, *args: str) -> tuple[int, list[str]]:
    """``sftwave ARGS`` in this process: its exit status and its stderr lines."""
    capsys.readouterr()
    code = cli.main([str(a) for a in args])
    return code, capsys.readouterr().err.strip().splitlines()


def _hidden(folder) -> list[str]:
    return [n for n in _files_in(folder) if n.startswith(".")]


@pytest.mark.parametrize("args,expected", [
    (("noise.npy", "--fs", "100", "-o", "noise.npy"), "is the input file"),
    (("noise.npy", "--fs", "100", "-o", "none", "--save-npy", "noise.npy"), "is the input file"),
    (("noise.npy", "--fs", "100", "-o", "none", "--save-csv", "sub/../noise.npy"),
     "is the input file"),
    (("noise.npy", "--fs", "100", "-o", "none", "--save-npy", "alias.npy"), "is the input file"),
    (("noise.npy", "--fs", "100", "-o", "none", "--save-npy", "p.npy", "--save-csv", "./p.npy"),
     "name the same file"),
    (("noise.npy", "--fs", "100", "-o", "p.png", "--save-npy", "p.png"), "name the same file"),
    (("noise.npy", "--fs", "100", "-o", "figure.txt"), "cannot write '.txt' figures"),
    (("noise.npy", "--fs", "100", "-o", "figure"), "without a suffix"),
    (("noise.npy", "--fs", "100", "-o", "none"), "nothing to write"),
    (("noise.npy", "--fs", "100", "-o", "sub"), "is a folder"),
])
def test_outputs_never_replace_an_input_or_each_other(recordings, capsys, monkeypatch, args,
                                                      expected):
    monkeypatch.chdir(recordings)
    (recordings / "sub").mkdir()
    (recordings / "alias.npy").symlink_to(recordings / "noise.npy")
    original = (recordings / "noise.npy").read_bytes()
    before = _files_in(recordings)
    code, err = _main(capsys, "scalogram", *args)
    assert code == 1 and len(err) == 1 and err[0].startswith("sftwave: error:"), err
    assert expected in err[0], err[0]
    assert (recordings / "noise.npy").read_bytes() == original
    assert _files_in(recordings) == before


def test_a_hard_link_to_the_input_is_the_input(recordings, capsys):
    import os

    os.link(recordings / "noise.npy", recordings / "same.png")
    original = (recordings / "noise.npy").read_bytes()
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100", "-o",
                      recordings / "same.png")
    assert code == 1 and "is the input file" in err[0], err
    assert (recordings / "noise.npy").read_bytes() == original


def test_smooth_never_replaces_its_image(tmp_path, capsys):
    img = np.arange(100.0).reshape(10, 10)
    np.save(tmp_path / "in.npy", img)
    original = (tmp_path / "in.npy").read_bytes()
    code, err = _main(capsys, "smooth", tmp_path / "in.npy", "--sigma", "2", "-o",
                      tmp_path / "sub" / ".." / "in.npy")
    assert code == 1 and len(err) == 1 and "is the input file" in err[0], err
    assert (tmp_path / "in.npy").read_bytes() == original


def test_figure_format_follows_the_suffix(recordings, capsys):
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100", "-o",
                      recordings / "fig.pdf", "--nfreqs", "6")
    assert code == 0, err
    assert (recordings / "fig.pdf").read_bytes()[:5] == b"%PDF-"
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100", "-o",
                      recordings / "fig.svg", "--nfreqs", "6")
    assert code == 0, err
    assert b"<svg" in (recordings / "fig.svg").read_bytes()[:2000]


# ----------------------------------------------------------------------------- the memory budget

def _decim_named(line: str) -> int:
    import re

    found = re.search(r"--decim (\d+) fits", line)
    assert found, line
    return int(found[1])


def test_saved_array_over_the_budget_names_the_smallest_decim(recordings, capsys):
    wav, npy = recordings / "tone.wav", recordings / "p.npy"
    common = ("scalogram", wav, "--nfreqs", "20", "--fmin", "50", "--fmax", "3000",
              "--save-npy", npy, "--max-memory", "1M")
    code, err = _main(capsys, *common)
    assert code == 1 and len(err) == 1 and "memory budget" in err[0], err
    assert not npy.exists() and not _hidden(recordings)
    decim = _decim_named(err[0])
    assert decim > 1
    code, err = _main(capsys, *common, "--decim", str(decim))
    assert code == 0, err
    assert np.load(npy).shape == (20, -(-8000 // decim))
    npy.unlink()
    code, err = _main(capsys, *common, "--decim", str(decim - 1))
    assert code == 1 and "memory budget" in err[0] and not npy.exists()


def test_figure_alone_is_computed_in_blocks_never_at_full_size(recordings, capsys, monkeypatch):
    """Under a budget too small for the full scalogram, the figure alone is still drawn: each
    call of the transform holds a few rows, and what is drawn equals the block maxima of the
    full-resolution scalogram (a click stays visible)."""
    import sftwave
    import sftwave.plot
    from sftwave.plot import reduce_time

    fs, n = 8000.0, 20000
    x = 0.01 * np.random.default_rng(3).standard_normal(n)
    x[12345] = 1.0                                        # a click
    np.save(recordings / "click.npy", x)
    budget = 2 * 2**20
    nfreqs = 30
    freqs = np.geomspace(50, 3500, nfreqs)
    full_bytes = nfreqs * n * 8
    assert full_bytes > budget
    calls, drawn = [], []
    real_cwt, real_plot = sftwave.cwt, sftwave.plot.scalogram

    def counting_cwt(*a, **k):
        y = real_cwt(*a, **k)
        calls.append(y.shape)
        return y

    def keeping_plot(values, *a, **k):
        drawn.append(values)
        return real_plot(values, *a, **k)

    monkeypatch.setattr(sftwave, "cwt", counting_cwt)
    monkeypatch.setattr(sftwave.plot, "scalogram", keeping_plot)
    code, err = _main(capsys, "scalogram", recordings / "click.npy", "--fs", fs, "--fmin", 50,
                      "--fmax", 3500, "--nfreqs", nfreqs, "-o", recordings / "click.png",
                      "--max-memory", budget)
    assert code == 0, err
    assert (recordings / "click.png").stat().st_size > 1000
    assert len(calls) > 1 and sum(rows for rows, _ in calls) == nfreqs
    assert all(rows * cols * 8 < budget / 2 for rows, cols in calls)
    (blocks,) = drawn
    full = real_cwt(x, freqs, fs, output="power")
    expected = reduce_time(full, blocks.values.shape[1])
    assert blocks.values.shape[1] < n
    # (the engine may pick another bank method for fewer rows: equal to its accuracy)
    assert np.allclose(blocks.values, expected.values, rtol=1e-6, atol=0)
    top = full[-1].argmax()                               # the click, at the highest frequency
    assert abs(top - 12345) < 10
    assert blocks.values[-1].max() == pytest.approx(full[-1].max(), rel=1e-6)   # the peak is kept


def test_figure_alone_decimates_only_when_one_row_exceeds_the_budget(recordings, capsys):
    code, err = _main(capsys, "scalogram", recordings / "tone.wav", "--nfreqs", "10",
                      "--fmin", "100", "--fmax", "2000", "-o", recordings / "t.png",
                      "--max-memory", "500K")
    assert code == 0, err
    assert len(err) == 1 and err[0].startswith("sftwave: note: drawing the scalogram at --decim")
    assert (recordings / "t.png").exists()


def test_memory_error_and_unexpected_errors_are_one_line(recordings, capsys, monkeypatch):
    import sftwave

    for exc, expected in ((MemoryError("cannot allocate 5.5 GiB"), "out of memory"),
                          (RuntimeError("engine\nexploded"), "unexpected RuntimeError: engine "
                                                             "exploded")):
        def failing(*a, exc=exc, **k):
            raise exc

        monkeypatch.setattr(sftwave, "cwt", failing)
        code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100",
                          "--save-npy", recordings / "p.npy")
        assert code == 1 and len(err) == 1 and err[0].startswith("sftwave: error:"), err
        assert expected in err[0]
        assert not (recordings / "p.npy").exists() and not _hidden(recordings)


def test_ctrl_c_is_status_130_and_removes_temporary_files(recordings, capsys, monkeypatch):
    import sftwave

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(sftwave, "cwt", interrupted)
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100",
                      "--save-npy", recordings / "p.npy")
    assert code == 130 and err == ["sftwave: interrupted"]
    assert not (recordings / "p.npy").exists() and not _hidden(recordings)


def test_max_memory_must_be_a_size():
    proc = _run("scalogram", "x.wav", "--max-memory", "lots")
    assert proc.returncode == 2 and "not a size" in proc.stderr


# ----------------------------------------------------------------------------- CSV time columns

def _eeg(folder, name="eeg.csv", fs=250.0, n=1000, time_scale=1.0, columns=("Cz",),
         label=True, header=True, jitter=0.0):
    rng = np.random.default_rng(5)
    t = np.arange(n) / fs
    signals = {c: np.sin(2 * np.pi * (8 + 4 * k) * t) + 0.1 * rng.standard_normal(n)
               for k, c in enumerate(columns)}
    stamps = t * time_scale + jitter * rng.uniform(-1, 1, n) / fs * time_scale
    lines = []
    if header:
        lines.append(",".join(["time", *columns] + (["label"] if label else [])))
    for k in range(n):
        cells = [repr(float(stamps[k]))] + [repr(float(signals[c][k])) for c in columns]
        lines.append(",".join(cells + (["rest" if k < n // 2 else "task"] if label else [])))
    (folder / name).write_text("\n".join(lines) + "\n")
    return folder / name, signals


def test_csv_time_column_gives_fs_and_is_never_the_signal(tmp_path, capsys):
    import sftwave

    path, signals = _eeg(tmp_path)
    code, err = _main(capsys, "scalogram", path, "--fmin", "2", "--fmax", "50", "--nfreqs", "8",
                      "-o", "none", "--save-npy", tmp_path / "p.npy")
    assert code == 0, err
    assert len(err) == 1 and "fs = 250 Hz from the time column 'time'" in err[0], err
    assert "--fs 250000" in err[0]          # its header names no unit: the ms reading is offered
    ref = sftwave.cwt(signals["Cz"], np.geomspace(2, 50, 8), 250.0, output="power")
    assert np.allclose(np.load(tmp_path / "p.npy"), ref)
    # --fs that agrees is fine; one that disagrees is an error
    code, err = _main(capsys, "scalogram", path, "--fs", "250", "--nfreqs", "8", "-o", "none",
                      "--save-npy", tmp_path / "q.npy")
    assert code == 0 and err == [], err
    code, err = _main(capsys, "scalogram", path, "--fs", "500", "--nfreqs", "8", "-o", "none",
                      "--save-npy", tmp_path / "r.npy")
    assert code == 1 and len(err) == 1 and "disagrees with the time column 'time'" in err[0]
    assert not (tmp_path / "r.npy").exists()


def test_csv_time_column_in_milliseconds_with_fs(tmp_path, capsys):
    path, _ = _eeg(tmp_path, time_scale=1000.0, label=False)
    code, err = _main(capsys, "scalogram", path, "--fs", "250", "--nfreqs", "8", "-o", "none",
                      "--save-npy", tmp_path / "p.npy")
    assert code == 0 and len(err) == 1 and "milliseconds" in err[0], err


def test_csv_several_signal_columns_need_a_choice(tmp_path, capsys):
    import sftwave

    path, signals = _eeg(tmp_path, columns=("Cz", "Fz", "Pz"))
    code, err = _main(capsys, "scalogram", path, "-o", "none", "--save-npy", tmp_path / "p.npy")
    assert code == 1 and len(err) == 1, err
    assert "3 signal columns (Cz, Fz, Pz)" in err[0] and "--column" in err[0]
    code, err = _main(capsys, "scalogram", path, "--column", "Fz", "--fmin", "2", "--fmax", "50",
                      "--nfreqs", "8", "-o", "none", "--save-npy", tmp_path / "p.npy")
    assert code == 0, err
    ref = sftwave.cwt(signals["Fz"], np.geomspace(2, 50, 8), 250.0, output="power")
    assert np.allclose(np.load(tmp_path / "p.npy"), ref)
    code, err = _main(capsys, "scalogram", path, "--column", "label", "-o", "none",
                      "--save-npy", tmp_path / "q.npy")
    assert code == 1 and "holds text" in err[0], err


def test_csv_headerless_increasing_first_column_is_time(tmp_path, capsys):
    import sftwave

    path, signals = _eeg(tmp_path, header=False, label=False)
    code, err = _main(capsys, "scalogram", path, "--fmin", "2", "--fmax", "50", "--nfreqs", "8",
                      "-o", "none", "--save-npy", tmp_path / "p.npy")
    assert code == 0, err
    ref = sftwave.cwt(signals["Cz"], np.geomspace(2, 50, 8), 250.0, output="power")
    assert np.allclose(np.load(tmp_path / "p.npy"), ref)


def test_csv_uneven_time_column_needs_fs(tmp_path, capsys):
    path, _ = _eeg(tmp_path, jitter=0.45)
    code, err = _main(capsys, "scalogram", path, "-o", "none", "--save-npy", tmp_path / "p.npy")
    assert code == 1 and len(err) == 1 and "not evenly spaced" in err[0], err
    code, err = _main(capsys, "scalogram", path, "--fs", "250", "--nfreqs", "8", "-o", "none",
                      "--save-npy", tmp_path / "p.npy")
    assert code == 0 and len(err) == 1 and err[0].startswith("sftwave: warning:"), err


# ----------------------------------------------------------------------------- all or nothing

def test_a_failed_figure_leaves_the_old_array(recordings, capsys, monkeypatch):
    from matplotlib.figure import Figure

    npy = recordings / "p.npy"
    np.save(npy, np.zeros(3))
    old = npy.read_bytes()
    names = []

    def failing_savefig(self, fname, *a, **k):
        names.append(str(fname))
        raise OSError(28, "No space left on device", str(fname))

    monkeypatch.setattr(Figure, "savefig", failing_savefig)
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100", "--nfreqs",
                      "6", "--save-npy", npy, "-o", recordings / "fig.png")
    assert code == 1 and len(err) == 1, err
    assert str(recordings / "fig.png") in err[0] and "No space left" in err[0]
    assert names and Path(names[0]).name not in err[0]     # the user's name, not the temporary
    assert npy.read_bytes() == old
    assert not (recordings / "fig.png").exists() and not _hidden(recordings)


def test_a_failed_rename_restores_every_output(recordings, capsys, monkeypatch):
    import os

    from sftwave.cli import files

    npy, csv = recordings / "p.npy", recordings / "p.csv"
    np.save(npy, np.zeros(3))
    csv.write_text("old\n")
    old_npy = npy.read_bytes()
    real_replace = os.replace
    seen = []

    def replace(src, dst):
        if Path(dst) in (npy, csv, recordings / "fig.png"):
            seen.append(Path(dst))
            if len(seen) == 2:
                raise PermissionError(13, "Permission denied", str(src))
        return real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "100", "--nfreqs",
                      "6", "--save-npy", npy, "--save-csv", csv, "-o", "none")
    assert code == 1 and len(err) == 1 and "no output was changed" in err[0], err
    assert npy.read_bytes() == old_npy and csv.read_text() == "old\n"
    assert not _hidden(recordings)


def test_sigterm_removes_temporary_files(tmp_path):
    """SIGTERM while the scalogram is computed (its temporary file exists): status 143, one
    line, and no file left behind (a figure of many frequencies over a long signal takes
    seconds; the signal is sent as soon as the temporary file appears)."""
    import os
    import signal
    import time

    x = np.random.default_rng(0).standard_normal(400_000)
    np.save(tmp_path / "long.npy", x)
    proc = subprocess.Popen([sys.executable, "-m", "sftwave", "scalogram",
                             str(tmp_path / "long.npy"), "--fs", "1000", "--fmin", "5",
                             "--fmax", "400", "--nfreqs", "300", "-o", str(tmp_path / "p.png")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120                 # a guard against hanging only
        while not _hidden(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _hidden(tmp_path), "the command wrote no temporary file"
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    said = [line for line in err.strip().splitlines() if not line.startswith("sftwave: note:")]
    assert said == ["sftwave: terminated"]
    assert _files_in(tmp_path) == ["long.npy"]


# ----------------------------------------------------------------------------- a first-time user


def test_help_is_plain_text():
    out = _run("--help").stdout
    assert "``" not in out and ":class:" not in out and ":func:" not in out, out
    assert "sftwave scalogram FILE" in out


def test_numpy_scalars_are_written_as_numbers():
    from sftwave.cli.files import plain

    assert plain("got np.float64(-2.5) and np.int64(3), np.True_") == "got -2.5 and 3, np.True_"
    assert plain("x\n  y") == "x y"


def test_default_band_hears_like_a_listener_for_sound():
    from sftwave.cli.commands import default_band

    assert default_band(44100 * 60, 44100.0, 6.0, audio=True) == (20.0, 19845.0)
    assert default_band(48000 * 60, 96000.0, 6.0, audio=True)[1] == 20000.0
    # a short sound: never below the lowest frequency whose wavelet fits
    lo, _ = default_band(4410, 44100.0, 6.0, audio=True)
    assert lo == pytest.approx(3 * 6.0 * 44100 / (np.pi * 4410))
    # other recordings: ten octaves below fmax (or what fits)
    lo, hi = default_band(250 * 600, 250.0, 6.0)
    assert hi == 112.5 and lo == pytest.approx(112.5 / 1024)
    # fmax given below 20 Hz for a sound: ten octaves below it
    lo, hi = default_band(44100 * 600, 44100.0, 6.0, audio=True, fmax=10.0)
    assert hi == 10.0 and lo == pytest.approx(10.0 / 1024)


def test_a_wav_scalogram_without_options_covers_the_audible_band(recordings, capsys):
    code, err = _main(capsys, "scalogram", recordings / "tone.wav", "-o", "none", "--save-npy",
                      recordings / "p.npy")
    assert code == 0, err
    # 20 Hz to 0.45 * 8000 = 3600 Hz at 12 per octave
    assert np.load(recordings / "p.npy").shape[0] == round(12 * np.log2(3600 / 20)) + 1


def test_an_image_given_to_scalogram_names_the_command_for_images(tmp_path, capsys):
    np.save(tmp_path / "x.npy", np.ones(10))
    (tmp_path / "photo.png").write_bytes(b"not read")
    code, err = _main(capsys, "scalogram", tmp_path / "photo.png")
    assert code == 1 and len(err) == 1
    assert "an image" in err[0] and "sftwave smooth" in err[0] and " -o " not in err[0], err


def test_a_long_run_says_what_and_how_long_and_reports_progress_without_a_terminal(
        recordings, capsys, monkeypatch):
    from sftwave.cli import commands

    monkeypatch.setattr(commands, "_PROGRESS_WORK", 1e4)     # the tone is "long" here
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "1000", "--fmin",
                      "5", "--fmax", "400", "--nfreqs", "40", "-o", "none", "--save-npy",
                      recordings / "p.npy")
    assert code == 0, err
    assert "40 frequencies from 5 Hz to 400 Hz" in err[0] and "2,000 samples" in err[0], err
    assert any(line.startswith("sftwave: note: about ") and line.endswith(" in all")
               for line in err), err
    progress = [line for line in err if line.startswith("sftwave: progress: ")]
    assert len(progress) >= 5 and all("of 40 frequencies" in line for line in progress), err
    # asked off: silent
    code, err = _main(capsys, "scalogram", recordings / "noise.npy", "--fs", "1000", "--fmin",
                      "5", "--fmax", "400", "--nfreqs", "40", "-o", "none", "--save-npy",
                      recordings / "q.npy", "--no-progress")
    assert code == 0 and not [line for line in err if "progress" in line], err


def test_a_derivative_is_never_written_black(tmp_path, capsys):
    Image = pytest.importorskip("PIL.Image")
    import sftwave

    img = np.zeros((40, 50), np.uint8)
    img[15:25, 20:30] = 200                 # a square: the mixed derivative (order 1 on both
                                            # axes) is non-zero at its corners, zero far away
    Image.fromarray(img).save(tmp_path / "in.png")
    code, err = _main(capsys, "smooth", tmp_path / "in.png", "--sigma", "2", "--order", "1",
                      "-o", tmp_path / "d.png")
    assert code == 0 and len(err) == 1 and "rescaled to 0-255" in err[0], err
    got = np.asarray(Image.open(tmp_path / "d.png")).astype(int)
    exact = sftwave.gaussian_filter(img, 2, order=1, axes=(0, 1), output=np.float32)
    flat = np.abs(exact) < 1e-6
    assert flat.any() and np.all(got[flat] == 128)                 # zero is mid-grey
    assert got.max() == 255                                        # the largest magnitude
    assert np.all(np.sign(got - 128) == np.sign(np.rint(exact / np.abs(exact).max() * 127)))
    # .npy and a one-channel .tif hold the values themselves
    for name in ("d.npy", "d.tif"):
        code, err = _main(capsys, "smooth", tmp_path / "in.png", "--sigma", "2", "--order", "1",
                          "-o", tmp_path / name)
        assert code == 0 and err == [], err
        vals = (np.load(tmp_path / name) if name.endswith(".npy")
                else np.asarray(Image.open(tmp_path / name)))
        assert vals.dtype == np.float32 and np.array_equal(vals, exact)
