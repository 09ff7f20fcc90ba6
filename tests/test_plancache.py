"""The on-disk plan cache (sftwave.plans.cache): what is stored is what is returned.

The cache may only ever change how long a call takes, never its result: a
stored plan must come back bit for bit, a damaged file must be designed again,
errors must be raised again with their message, and a cache that cannot be
written must be no cache at all.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from sftwave.plans import cache as _plancache
from sftwave.plans.cache import on_disk


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(_plancache.ENV, str(tmp_path))
    return tmp_path


def _counting(name):
    calls = []

    @on_disk(name)
    def design(sigma: float, order: int = 0):
        calls.append((sigma, order))
        if sigma < 0:
            raise ValueError(f"sigma must be positive; got {sigma!r}")
        return {"coef": np.arange(5) * sigma, "order": order}

    return design, calls


def test_second_call_reads_the_file(cache_dir):
    design, calls = _counting("t1")
    a = design(2.5, order=1)
    b = design(2.5, order=1)
    assert calls == [(2.5, 1)]
    assert np.array_equal(a["coef"], b["coef"]) and b["order"] == 1
    files = list((_plancache.cache_root() / "t1").glob("*.pkl"))
    assert len(files) == 1


def test_keys_are_exact(cache_dir):
    """Neighbouring floats, ints against floats and keyword arguments are different keys."""
    design, calls = _counting("t2")
    design(1.0)
    design(np.nextafter(1.0, 2.0))
    design(1)
    design(1.0, order=2)
    assert len(calls) == 4


def test_damaged_file_is_designed_again(cache_dir):
    design, calls = _counting("t3")
    design(3.0)
    (path,) = (_plancache.cache_root() / "t3").glob("*.pkl")
    path.write_bytes(b"\x80\x05 truncated")
    again = design(3.0)
    assert len(calls) == 2
    assert np.array_equal(again["coef"], np.arange(5) * 3.0)
    design(3.0)  # rewritten whole
    assert len(calls) == 2


def test_swapped_file_is_not_used(cache_dir):
    """A valid file moved to another key's place is designed again, not returned (issue 9.8)."""
    design, calls = _counting("t8")
    design(2.0)
    design(5.0)
    a, b = sorted((_plancache.cache_root() / "t8").glob("*.pkl"))
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)
    assert np.array_equal(design(2.0)["coef"], np.arange(5) * 2.0)
    assert np.array_equal(design(5.0)["coef"], np.arange(5) * 5.0)
    assert len(calls) == 4
    design(2.0)  # overwritten with the right content
    assert len(calls) == 4


@pytest.mark.parametrize("foreign", [
    ("ok", "a plan of someone else"),   # the old unchecked layout
    {"some": "dict"},
    [1, 2, 3],
])
def test_foreign_pickle_is_not_used(cache_dir, foreign):
    """A readable pickle that is not this cache's record is designed again (issue 9.8)."""
    import pickle

    design, calls = _counting("t9")
    design(4.0)
    (path,) = (_plancache.cache_root() / "t9").glob("*.pkl")
    path.write_bytes(pickle.dumps(foreign))
    assert np.array_equal(design(4.0)["coef"], np.arange(5) * 4.0)
    assert len(calls) == 2


def test_corrupted_content_is_not_used(cache_dir):
    """A record whose content no longer matches its checksum is designed again."""
    import pickle

    design, calls = _counting("t10")
    design(6.0)
    (path,) = (_plancache.cache_root() / "t10").glob("*.pkl")
    box = pickle.loads(path.read_bytes())
    box["payload"] = box["payload"].replace(b"order", b"ordex")
    path.write_bytes(pickle.dumps(box))
    assert design(6.0)["order"] == 0
    assert len(calls) == 2


def test_errors_are_kept_and_raised_again(cache_dir):
    design, calls = _counting("t4")
    for _ in range(2):
        with pytest.raises(ValueError, match=r"sigma must be positive; got -1\.0"):
            design(-1.0)
    assert len(calls) == 1


def test_empty_variable_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.setenv(_plancache.ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    design, calls = _counting("t5")
    design(1.0)
    design(1.0)
    assert len(calls) == 2
    assert _plancache.cache_root() is None
    assert not any(tmp_path.iterdir())


def test_unwritable_path_is_no_cache(tmp_path, monkeypatch):
    """A cache 'folder' below a plain file cannot be created (even by root): no cache, no error."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(_plancache.ENV, str(blocker / "cache"))
    design, calls = _counting("t7")
    assert design(2.0)["order"] == 0
    assert design(2.0)["order"] == 0
    assert len(calls) == 2


_PROCESS = r"""
import sys
import numpy as np
import sftwave.plans.fit, sftwave.plans.gaussian, sftwave.plans.morlet
if sys.argv[1] == "load":
    def refuse(*a, **k):
        raise AssertionError("designed again")
    sftwave.plans.fit.fit_plan = refuse
    sftwave.plans.gaussian.fit_plan = refuse
    sftwave.plans.morlet.fit_plan = refuse
plan = sftwave.plans.morlet.morlet_plan(37.5, 6.0, 1e-4, "direct", "sft")
g = sftwave.plans.gaussian.gaussian_plan(40.0, 1, 1e-5, "asft")
np.save(sys.argv[2], np.concatenate([plan.coef.ravel().view(np.float64), plan.omegas,
                                     g.coef.ravel(), g.omegas, [plan.length, g.length]]))
"""


def test_plans_survive_a_new_process(tmp_path):
    """A second process gets the same plans bit for bit without designing them."""
    env = dict(os.environ, SFTWAVE_CACHE_DIR=str(tmp_path / "cache"))
    outs = []
    for step in ("design", "load"):
        out = tmp_path / f"{step}.npy"
        subprocess.run([sys.executable, "-c", _PROCESS, step, str(out)], env=env, check=True)
        outs.append(np.load(out))
    assert np.array_equal(outs[0], outs[1])
