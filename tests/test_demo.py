"""The demo: real data, accuracy and time against scipy."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sftwave import demo

pytest.importorskip("pywt")

_FLOAT = r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
_ROW = re.compile(
    rf"^(?P<case>(?:image|1-D) [\w ]+?)\s+(?P<sigma>{_FLOAT})\s+(?P<t1>{_FLOAT})\s+(?P<t2>{_FLOAT})"
    rf"\s+(?P<speedup>{_FLOAT})\s+(?P<vs>{_FLOAT})\s+(?P<e1>{_FLOAT})\s+(?P<e2>{_FLOAT})$"
)


@pytest.fixture(scope="module")
def quick_output():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = demo.main(quick=True)
    return status, buf.getvalue()


def test_quick_demo_rows(quick_output):
    status, out = quick_output
    assert status == 0
    assert "columns:" in out and "truncate=12" in out
    assert "pywt.data.camera()" in out and "tiled" in out
    rows = [m.groupdict() for m in map(_ROW.match, out.splitlines()) if m]
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


def test_rel_rmse_and_rows():
    x = np.linspace(0.0, 1.0, 200) ** 2
    rows = demo.signal_rows(x, (5.0,), orders=(0,))
    assert len(rows) == 1 and rows[0].case == "1-D smooth"
    assert rows[0].err_sftwave < 1e-4 and rows[0].speedup > 0
    assert demo.rel_rmse(2 * x, x) == pytest.approx(1.0)


def test_format_rows_header():
    text = demo.format_rows([demo.Row("case", 8.0, 0.002, 0.004, 1e-6, 1e-7, 1e-5)])
    head, line = text.splitlines()
    assert head.split()[:2] == ["case", "sigma"]
    assert line.split()[-3:] == ["1.0e-06", "1.0e-07", "1.0e-05"]
    assert line.split()[4] == "2.0"  # speed-up
