"""A pytest plugin for tests/suites/test_scipy_suite.py: sftwave's Gaussian family in scipy's place.

Loaded with ``-p scipy_in_place`` into a child pytest that runs scipy's own
``scipy/ndimage/tests/test_filters.py``.  scipy's tests look its functions up
in a capability table while they are collected, so the functions are swapped
after collection; every call is counted and the count written to the file
named by ``SFTWAVE_CALLS_FILE``, to show that sftwave's functions ran.

With ``SFTWAVE_IN_PLACE=patch`` the swap is the zero-edit switch itself,
``sftwave.patch("scipy")``: only the calls in sftwave's scope reach sftwave (those
counted), every other one scipy's own function.
"""

from __future__ import annotations

import functools
import os

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


def pytest_collection_finish(session):
    if os.environ.get("SFTWAVE_IN_PLACE") == "patch":
        import warnings

        switch = sftwave.patch
        for name in NAMES:  # the replacements the switch calls, counted
            switch._REPLACEMENTS[f"sftwave.ndimage:{name}"] = _counted(name)
        switch("scipy")
        warnings.simplefilter("ignore", switch.RoutedWarning)
        return
    for name in NAMES:
        setattr(ndi, name, _counted(name))


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("SFTWAVE_CALLS_FILE")
    if path:
        with open(path, "w") as f:
            f.write(" ".join(f"{k}={v}" for k, v in CALLS.items()))
