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
