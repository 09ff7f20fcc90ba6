"""Read-only installs: where numba finds no folder to cache in, kernels are cached in a private
per-user folder under the temporary folder, so that a second process compiles nothing."""

import json
import os
import stat
import subprocess
import sys
import tempfile
import textwrap

import pytest

from sftwave.engines.numba import _jit

CHILD = textwrap.dedent(
    """
    import json, sys
    from numba.core import caching
    # as if neither the package's __pycache__ nor numba's user-wide folder could be written
    caching.CompileResultCacheImpl._locator_classes = []
    from sftwave.engines.numba._jit import kernel, private_cache_dir

    @kernel(nogil=True)
    def twice(x):
        return 2 * x

    assert twice(21) == 42
    s = twice.stats
    json.dump({"hits": sum(s.cache_hits.values()), "misses": sum(s.cache_misses.values()),
               "folder": str(private_cache_dir())}, sys.stdout)
    """
)


def test_second_process_loads_from_the_private_folder(tmp_path):
    script = tmp_path / "prog.py"      # numba caches a kernel by its source file
    script.write_text(CHILD)
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"))
    env.pop("NUMBA_CACHE_DIR", None)
    (tmp_path / "tmp").mkdir()
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    first, second = runs
    assert first["misses"] == 1 and first["hits"] == 0      # compiled once ...
    assert second["misses"] == 0 and second["hits"] == 1    # ... and loaded by the next process
    folder = tmp_path / "tmp" / f"sftwave-{os.geteuid()}" / "numba"
    assert first["folder"] == str(folder)
    assert any(folder.rglob("*.nbi")) and any(folder.rglob("*.nbc"))
    for path in (folder, folder.parent):
        assert stat.S_IMODE(os.lstat(path).st_mode) == 0o700


@pytest.fixture
def temp_root(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path / f"sftwave-{os.geteuid()}"


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owner and mode checks")
def test_private_folder_is_created_private(temp_root):
    folder = _jit.private_cache_dir()
    assert folder == temp_root / "numba"
    assert stat.S_IMODE(os.lstat(temp_root).st_mode) == 0o700


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owner and mode checks")
def test_private_folder_that_others_may_write_is_not_used(temp_root):
    temp_root.mkdir()
    os.chmod(temp_root, 0o777)
    assert _jit.private_cache_dir() is None


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owner and mode checks")
def test_private_folder_behind_a_symbolic_link_is_not_used(temp_root, tmp_path):
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    temp_root.symlink_to(tmp_path / "elsewhere")
    assert _jit.private_cache_dir() is None


REAL_CALL = textwrap.dedent(
    """
    import json, sys
    from numba.core import caching
    # a read-only install: neither the package's __pycache__ nor numba's user-wide folder
    caching.CompileResultCacheImpl._locator_classes = []
    import numpy as np
    import sftwave
    from sftwave.engines.numba.precompile import kernel_counts

    x = np.random.default_rng(0).standard_normal(3000)
    y = sftwave.gaussian_filter1d(x, 4.0)
    compiled, loaded = kernel_counts()
    json.dump({"compiled": compiled, "loaded": loaded, "finite": bool(np.isfinite(y).all())},
              sys.stdout)
    """
)


def test_read_only_install_second_process_compiles_nothing(tmp_path):
    # the engine's own kernels, as a first call after a read-only install compiles them: the
    # second process loads every one from the private folder (warm from its first call)
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), HOME=str(tmp_path / "home"))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("SFTWAVE_CACHE_DIR", None)
    (tmp_path / "tmp").mkdir()
    (tmp_path / "home").mkdir()
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", REAL_CALL], env=env, capture_output=True,
                              text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    first, second = runs
    assert first["finite"] and second["finite"]
    assert first["compiled"] >= 1
    assert second["compiled"] == 0 and second["loaded"] >= 1
    folder = tmp_path / "tmp" / f"sftwave-{os.geteuid()}" / "numba"
    assert any(folder.rglob("*.nbc"))
