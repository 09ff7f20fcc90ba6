"""``sftwave compile``: runs the common calls through the engine's ``precompile`` operation and
reports, per call, the kernels compiled and loaded (numba's own counters)."""

import numpy as np

import sftwave
from sftwave.cli import compile as compile_cli
from sftwave.cli import main
from sftwave.engines import operation
from sftwave.engines.numba.precompile import kernel_counts


def test_common_calls_cover_each_family():
    labels = " ".join(label for label, _ in compile_cli.common_calls())
    for family in ("Gaussian", "float32", "uint8", "cwt float64", "power", "MNE", "wct_pairs",
                   "long lines", "superlet", "multiscale_basic_features"):
        assert family in labels


def test_precompile_counts_what_a_call_compiles():
    precompile = operation("numba", "precompile")
    lines = []
    x = np.random.default_rng(0).standard_normal(300)
    call = ("smooth", lambda: sftwave.gaussian_filter1d(x, 3.0))
    first, again = precompile([call, call], progress=lines.append)
    # the call ran kernels: this process compiled or loaded them (now or in an earlier
    # test), so numba's counters are read; the same call again needs neither
    assert sum(kernel_counts()) >= 1
    assert first["compiled"] >= 0 and first["loaded"] >= 0
    assert again["compiled"] == again["loaded"] == 0
    assert lines[0] == "[1/2] smooth ..." and lines[1].startswith("[1/2] smooth: ")
    assert len(lines) == 4


def test_compile_subcommand_prints_progress(monkeypatch, capsys):
    x = np.ones(200)
    monkeypatch.setattr(compile_cli, "common_calls",
                        lambda: [("one", lambda: sftwave.gaussian_filter1d(x, 2.0))])
    assert main(["compile"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "[1/1] one ..."
    assert out[-1].startswith("done: ") and "kernels compiled" in out[-1]
