"""The workbench's tests share the library's direct references (``tests/naive.py``) and its
private plan cache for the run."""

import os
import sys

_LIBRARY_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests")
_LIBRARY_TESTS = os.path.normpath(_LIBRARY_TESTS)
if _LIBRARY_TESTS not in sys.path:
    sys.path.insert(0, _LIBRARY_TESTS)
