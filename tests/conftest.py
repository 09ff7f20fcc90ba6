"""Make the helper module ``naive`` importable under ``--import-mode=importlib``.

The suite designs its plans afresh in a private plan cache (sftwave.plans.cache)
that is removed at the end, unless SFTWAVE_CACHE_DIR is set by the caller.
"""

import atexit
import os
import shutil
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

if "SFTWAVE_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="sftwave-test-plans-")
    os.environ["SFTWAVE_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
