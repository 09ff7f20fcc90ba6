"""Make the helper module ``naive`` importable under ``--import-mode=importlib``.

The suite designs its plans afresh in a private plan cache (sftwave.plans.cache)
that is removed at the end, unless SFTWAVE_CACHE_DIR is set by the caller.
"""

import atexit
import os
import shutil
import sys
import tempfile

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import cudasim  # noqa: E402  (found through the path set above)

# numba-cuda's simulator: a shorter thread switch interval (cudasim.py says why)
cudasim.set_up()

if "SFTWAVE_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="sftwave-test-plans-")
    os.environ["SFTWAVE_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


# ----------------------------------------------------------------------------- kernel-free files

#: Test files that reach no numba kernel: they never load a module that makes kernels (nor
#: start a process that could).  Marked ``no_kernel``; ``make test-boundscheck`` and ``make test-oldest`` run every
#: other test with numba's bounds checks on, then these files alone with
#: SFTWAVE_CHECK_NO_KERNEL=1, which fails the run if a module that makes kernels
#: (:data:`KERNEL_MODULES`) was imported (so the list stays true as the files change).
NO_KERNEL_FILES = (
    "tests/suites/test_layers.py",
    "tests/suites/test_public_api.py",
    "tests/suites/test_api_docs.py",
    "tests/engines/test_registry.py",
    "tests/engines/array_api/test_sliding.py",
    "tests/engines/numba/test_extended_rows.py",
    "tests/plans/test_fit.py",
    "tests/plans/test_tables.py",
    "tests/plans/test_morlet_any_xi.py",
    "tests/test_naive.py",
    "tests/test_deprecation.py",
)
_ROOT = os.path.dirname(_HERE)
_NO_KERNEL_PATHS = {os.path.join(_ROOT, *f.split("/")) for f in NO_KERNEL_FILES}
_CHECK_NO_KERNEL = os.environ.get("SFTWAVE_CHECK_NO_KERNEL", "") not in ("", "0")
#: Every CPU kernel is made by ``sftwave.engines.numba._jit.kernel``, every GPU kernel in
#: ``sftwave.engines.cuda.kernels``: a run that imported neither reached no kernel.  (numba itself
#: may be imported by another library: MNE 1.9 imports it when it is installed.)
KERNEL_MODULES = ("sftwave.engines.numba._jit", "sftwave.engines.cuda.kernels")


def pytest_ignore_collect(collection_path, config):
    """With SFTWAVE_CHECK_NO_KERNEL set, only the kernel-free files are collected (imported)."""
    if _CHECK_NO_KERNEL and collection_path.is_file() and collection_path.suffix == ".py":
        return str(collection_path) not in _NO_KERNEL_PATHS or None
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if str(item.path) in _NO_KERNEL_PATHS:
            item.add_marker("no_kernel")


def pytest_sessionfinish(session, exitstatus):
    loaded = [m for m in KERNEL_MODULES if m in sys.modules]
    if _CHECK_NO_KERNEL and loaded:
        sys.stderr.write(f"SFTWAVE_CHECK_NO_KERNEL: {', '.join(loaded)} imported while running the "
                         "files of NO_KERNEL_FILES (tests/conftest.py); a file that reaches a kernel "
                         "must leave that list (the bounds-checked stage then runs it)\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
