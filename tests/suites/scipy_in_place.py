"""A pytest plugin for tests/suites/test_scipy_suite.py: sftwave's Gaussian family in scipy's place.

Loaded with ``-p scipy_in_place`` into a child pytest that runs scipy's own
``scipy/ndimage/tests/test_filters.py``.  scipy's tests look its functions up
in a capability table while they are collected, so the functions are swapped
after collection; every call is counted and the count written to the file
named by ``SFTWAVE_CALLS_FILE``, to show that sftwave's functions ran.

With ``SFTWAVE_IN_PLACE=patch`` the swap is the zero-edit switch itself,
``sftwave.patch("scipy")``: only the calls in sftwave's scope reach sftwave (those
counted), every other one scipy's own function.

Only the tests that can reach the Gaussian family run: those whose own source names
one of its functions, or whose parameters hold one (scipy passes the filter under
test as a parameter: ``filter_func``, cases tuples).  The file's other tests (median,
rank, uniform, generic and vectorized filters: nine tenths of its 2,400 tests) call
none of the four, so they say nothing about sftwave; they are deselected, and counted
in the calls file as ``deselected``.  A test that reached the family through a helper
named elsewhere would lower the calls counted; run scipy's file with
``SFTWAVE_SCIPY_ALL=1`` to run every test and compare the counts.
"""

from __future__ import annotations

import functools
import inspect
import os
import re

import scipy.ndimage as ndi

import sftwave

NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")
CALLS = {name: 0 for name in NAMES}

def _counted(name):
    func = getattr(sftwave, name)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        CALLS[name] += 1
        return func(*args, **kwargs)

    return wrapper

_MENTION = re.compile(r"\b(" + "|".join(NAMES) + r")\b")
DESELECTED = []

def _holds(value, funcs, depth=0):
    """Whether ``value`` is one of ``funcs`` or a tuple/list/dict holding one."""
    if any(value is f for f in funcs):
        return True
    if depth < 4 and isinstance(value, (tuple, list)):
        return any(_holds(v, funcs, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return any(_holds(v, funcs, depth + 1) for v in value.values())
    return False

def _reaches_gaussians(item, funcs) -> bool:
    try:
        source = inspect.getsource(item.function)
    except (OSError, TypeError, AttributeError):
        return True                          # cannot tell: run it
    if _MENTION.search(source):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and _holds(list(callspec.params.values()), funcs)

def pytest_collection_modifyitems(session, config, items):
    if os.environ.get("SFTWAVE_SCIPY_ALL", "") not in ("", "0"):
        return
    funcs = [getattr(ndi, name) for name in NAMES]    # scipy's own, before the swap
    keep = [item for item in items if _reaches_gaussians(item, funcs)]
    kept = {id(item) for item in keep}
    DESELECTED.extend(item for item in items if id(item) not in kept)
    if DESELECTED:
        config.hook.pytest_deselected(items=list(DESELECTED))
        items[:] = keep

def pytest_collection_finish(session):
    if os.environ.get("SFTWAVE_IN_PLACE") == "patch":
        import warnings

        switch = sftwave.patch
        for name in NAMES:  # the replacements the switch calls, counted
            switch._REPLACEMENTS[f"sftwave.ndimage:{name}"] = _counted(name)
        switch("scipy", every_size=True)  # every in-scope call, however small
        warnings.simplefilter("ignore", switch.RoutedWarning)
        return
    for name in NAMES:
        setattr(ndi, name, _counted(name))

def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("SFTWAVE_CALLS_FILE")
    if path:
        with open(path, "w") as f:
            f.write(" ".join(f"{k}={v}" for k, v in CALLS.items()))
            f.write(f" deselected={len(DESELECTED)}")
