"""The anchors' harness itself: the switch's call counter, and the targets still pending."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.ndimage as ndi

import sftwave.patch as switch
from sftwave._checks.patch import TARGETS

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from conftest import PENDING, has_routes, target_of  # noqa: E402


def test_the_counter_counts_routed_calls_only():
    with switch.patched("scipy", every_size=True), warnings.catch_warnings():
        warnings.simplefilter("ignore", switch.RoutedWarning)
        route = next(r for r in switch._ACTIVE if r.name == "gaussian_filter")
        before = switch._CALLS[route]
        ndi.gaussian_filter(np.ones((8, 8)), 2.0)                 # in sftwave's scope: routed
        with pytest.raises(RuntimeError):                          # float16: scipy's own refusal
            ndi.gaussian_filter(np.ones((8, 8), np.float16), 2.0)
        assert switch._CALLS[route] == before + 1


def test_pending_targets_have_no_routes_yet():
    """Once a pending target's routes exist, its entry must go: its tests then run patched,
    and a later loss of its routes fails them."""
    arrived = sorted(t for t in PENDING if has_routes(t))
    assert not arrived, (f"routes now exist for {arrived}: remove them from PENDING in "
                         "tests/anchors/conftest.py")


def test_every_folder_is_a_target():
    folders = {p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_")}
    assert folders <= set(TARGETS), folders
    assert target_of(HERE / "skimage" / "test_blob.py") == "skimage"
    assert target_of(Path(__file__)) is None
