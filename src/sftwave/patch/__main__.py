"""``python -m sftwave.patch [--only LIBS] [--every-size] script.py [args...]``: a script run with the switch on.

The script runs as ``__main__`` with ``sys.argv`` set to ``[script.py, args...]`` and its
directory first on ``sys.path``, as ``python script.py`` would run it (``-m module``
runs a module instead, as ``python -m module``); before it starts, :func:`sftwave.patch.patch`
routes every installed library or those of ``--only``, each as the script imports it (a
library the script never imports costs nothing);
``--every-size`` routes the small calls too (its ``every_size=True``).
"""

from __future__ import annotations

import os
import runpy
import sys

from .._checks.patch import check_only
from . import patch

USAGE = """usage: python -m sftwave.patch [--only LIBS] [--every-size] (script.py | -m module) [args ...]

Run a Python script (or module) unchanged, with the calls sftwave covers of
scipy.ndimage's Gaussian filters, scikit-image, MNE, mne-connectivity and pycwt
computed by sftwave where it is the faster (the calls too small to win back
sftwave's start-up stay with their library).

options:
  --only LIBS  route only these libraries, comma-separated, among
               scipy, skimage, mne, mne_connectivity, pycwt (default: every one installed)
  --every-size route the calls sftwave covers at every size, the small ones too
  -m module    run a library module as a script, as python -m does
  -h, --help   show this message and exit
"""


def _fail(message: str) -> int:
    sys.stderr.write(USAGE.splitlines()[0] + f"\npython -m sftwave.patch: error: {message}\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, patch, run the script; the exit status (the script's own
    ``SystemExit`` passes through)."""
    args = list(sys.argv[1:] if argv is None else argv)
    only, module, every_size = None, None, False
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        if option == "--":
            break
        if option == "--every-size":
            every_size = True
            continue
        if option == "-m" or option == "--only":
            if not args:
                return _fail(f"{option} needs a value")
            value = args.pop(0)
        elif option.startswith("--only="):
            option, value = "--only", option.partition("=")[2]
        else:
            return _fail(f"unknown option {option!r}")
        if option == "-m":
            module = value
            break
        only = value
    if module is None and not args:
        return _fail("a script to run is required")
    try:
        targets = check_only(only) if only is not None else ()
        patch(*targets, every_size=every_size, lazy=True)  # each library as the script imports it
    except (ValueError, ImportError) as exc:
        return _fail(str(exc))
    if module is not None:
        sys.argv = [module, *args]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    script = args[0]
    sys.argv = list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
