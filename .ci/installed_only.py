"""A pytest plugin of `make test-wheel`: the suite tests the installed sftwave, not a source tree.

    PYTHONPATH=.ci python -m pytest -p installed_only ...

Before the first test, ``import sftwave`` must resolve to the environment's
site-packages (the wheel's files); at the end, every module of sftwave (and of the
workbench, sftwave_paper, installed from the sdist) imported during the run must
have come from there.  The first failing is a usage error (exit status 4), the
second fails the run (exit status 1), whatever the tests said.  Under pytest-xdist each
worker checks its own modules and the controller fails the run for them.
"""

from __future__ import annotations

import os
import sys
import sysconfig

import pytest

SITE = os.path.realpath(sysconfig.get_paths()["purelib"])


def _outside(module) -> bool:
    path = getattr(module, "__file__", None)
    if path is None:                       # a namespace package would have none: not the wheel's
        return True
    return os.path.commonpath([os.path.realpath(path), SITE]) != SITE


def pytest_configure(config):
    import sftwave

    if _outside(sftwave):
        raise pytest.UsageError(f"import sftwave gives {sftwave.__file__}, not the installed "
                                f"package under {SITE}")


def pytest_report_header(config):
    import sftwave

    return f"sftwave {sftwave.__version__} from {os.path.dirname(sftwave.__file__)} (installed)"


_STRAY: list[str] = []     # the controller's: what its workers reported (pytest-xdist)


def pytest_sessionfinish(session, exitstatus):
    stray = sorted(name for name, mod in list(sys.modules.items())
                   if mod is not None and name.split(".")[0] in ("sftwave", "sftwave_paper")
                   and _outside(mod))
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:           # an xdist worker: the controller reports it
        workeroutput["installed_only_stray"] = stray
        return
    stray = sorted(set(stray) | set(_STRAY))
    if stray:
        sys.stderr.write("installed_only: these modules did not come from the installed wheel "
                         f"under {SITE}:\n  " + "\n  ".join(stray) + "\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: a worker ended; keep what it found."""
    _STRAY.extend(getattr(node, "workeroutput", {}).get("installed_only_stray", []))
