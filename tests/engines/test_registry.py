"""The engine registry: names, capabilities checked in one place, missing packages named."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import sftwave
from sftwave import engines


def test_every_registered_engine_is_a_valid_name():
    assert engines.names() == ("auto", "numba", "xp", "cuda")
    assert all(engines.CAPABILITIES[n].module.startswith("sftwave.engines.") for n in engines.names()[1:])


@pytest.mark.parametrize("call, match", [
    (lambda: sftwave.gaussian_filter1d(np.ones(20), 3.0, engine="xp", output=np.float32),
     "output is not supported with engine='xp'"),
    (lambda: sftwave.gaussian_filter(np.ones((4, 20)), 3.0, engine="xp", bank_method="iir2"),
     r"bank_method='iir2' is not supported with engine='xp' \(use 'auto', 'integral', or engine='numba'\)"),
    (lambda: sftwave.cwt(np.ones(20), [0.1], engine="xp", workers=2),
     "workers is not supported with engine='xp'"),
    (lambda: sftwave.morlet_transform(np.ones(20), 5.0, engine="xp", transform="asft"),
     "transform='asft' is not supported with engine='xp'"),
    (lambda: sftwave.cwt(np.ones(20), [0.1], engine="numba", bank_method="fast"),
     "bank_method must be one of"),
])
def test_capabilities_are_checked_before_any_work(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("engine, module, extra", [("xp", "array_api_compat", "xp"),
                                                    ("cuda", "numba_cuda", "cuda")])
def test_a_missing_package_names_itself_and_the_extra(monkeypatch, engine, module, extra):
    """Through the capability table: an ImportError naming the package and how to install it
    (the package itself: sftwave's extras need sftwave on the package index)."""
    monkeypatch.setitem(sys.modules, module, None)      # find_spec then reports it missing
    package = module.replace("_", "-")
    with pytest.raises(ImportError, match=rf"engine='{engine}' needs the {package} package.*"
                                          rf"pip install {package}$"):
        sftwave.gaussian_filter1d(np.ones(20), 3.0, engine=engine)
    assert engines.available(engine) is False


def test_available_engines_here():
    assert engines.available("numba") and engines.available("xp")
