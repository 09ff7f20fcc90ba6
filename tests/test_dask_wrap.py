"""sftwave.dask's wrappers are built from the in-memory functions: signature, defaults, Parameters.

As dask-image wraps scipy.ndimage's docstrings: each lazy wrapper's
``inspect.signature`` is the in-memory function's (parameters and defaults,
never restated), its docstring the in-memory Parameters under the wrapper's own
summary, See Also and Examples; an argument that cannot be lazy is a
``TypeError`` naming it; and a wrapper's reach is the support of the plan the
in-memory call selects.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import sftwave

da = pytest.importorskip("dask.array")
sd = pytest.importorskip("sftwave.dask")

#: each wrapper's in-memory function (module, name)
IN_MEMORY = {
    "gaussian_filter1d": "sftwave.ndimage", "gaussian_filter": "sftwave.ndimage",
    "cwt": "sftwave.wavelets", "xwt": "sftwave.coherence", "wct": "sftwave.coherence",
    "wct_pairs": "sftwave.coherence",
    "ssq_cwt": "sftwave.synchrosqueeze", "superlet": "sftwave.superlets",
    **{name: "sftwave.feature" for name in (
        "hessian_matrix", "hessian_matrix_eigvals", "structure_tensor",
        "structure_tensor_eigenvalues", "difference_of_gaussians", "frangi", "sato", "meijering",
        "blob_log", "blob_dog", "gabor", "gabor_bank", "multiscale_basic_features")},
}


def _in_memory(name):
    import importlib

    return getattr(importlib.import_module(IN_MEMORY[name]), name)


def test_every_wrapper_is_listed():
    assert set(IN_MEMORY) == set(sd.__all__)


@pytest.mark.parametrize("name", sorted(IN_MEMORY))
def test_the_signature_is_the_in_memory_one(name):
    lazy, ref = inspect.signature(getattr(sd, name)), inspect.signature(_in_memory(name))
    assert lazy.parameters == ref.parameters
    assert lazy.return_annotation not in ("Any", inspect.Signature.empty)


@pytest.mark.parametrize("name", sorted(IN_MEMORY))
def test_the_docstring_has_the_in_memory_parameters_and_its_own_examples(name):
    doc, ref = inspect.getdoc(getattr(sd, name)), inspect.getdoc(_in_memory(name))
    params = re.search(r"^Parameters\n-+\n(.*?)(?=^\w[\w ]*\n-{3,}$)", ref, re.M | re.S).group(1)
    described = re.findall(r"^(\w+)(?:, \w+)* :", params, re.M)
    assert described and all(re.search(rf"^{p}\b.* :", doc, re.M) for p in described)
    examples = doc.split("Examples\n--------\n", 1)[1]
    assert "da.from_array" in examples                   # the wrapper's, not the in-memory one's
    assert "lazily" in doc.splitlines()[0] or "dask" in doc.splitlines()[0]


def test_a_wrong_argument_is_the_in_memory_functions_type_error():
    x = da.zeros((4, 100), chunks=50)
    with pytest.raises(TypeError, match="bogus"):
        sd.gaussian_filter1d(x, 2.0, bogus=1)
    with pytest.raises(TypeError, match="sigma"):
        sd.gaussian_filter(x)


def test_what_cannot_be_lazy_is_refused_by_name():
    x = da.zeros((2, 1000), chunks=500)
    with pytest.raises(TypeError, match="out"):
        sd.cwt(x, [0.1], out=np.empty((2, 1, 1000), complex))
    with pytest.raises(TypeError, match="output"):
        sd.gaussian_filter(x, 2.0, output=np.empty((2, 1000)))


def test_the_in_memory_keywords_reach_the_blocks():
    """Keywords the old wrappers took through ``**kwargs`` only: now named, and honoured."""
    x = np.cumsum(np.random.default_rng(7).standard_normal((3, 5000)), axis=-1)
    dx = da.from_array(x, chunks=(3, 1200))
    for kw in (dict(method="fir"), dict(radius=30), dict(tol=1e-7), dict(nan_policy="omit")):
        got = sd.gaussian_filter(dx, (0.0, 12.0), **kw).compute()
        np.testing.assert_allclose(got, sftwave.gaussian_filter(x, (0.0, 12.0), **kw), rtol=0,
                                   atol=1e-12 * np.abs(x).max())


def test_the_reach_is_the_support_of_the_in_memory_plan():
    from sftwave.dask._reach import gaussian_reach
    from sftwave.engines import nonfinite
    from sftwave.plans import select_gaussian

    for sigma, order, n in ((2.0, 0, 1000), (40.0, 1, 20000), (300.0, 2, 50000)):
        plan = select_gaussian(sigma, order, truncate=4.0, n=n, wide=True,
                               fir_taps_per_order=sftwave.engines.get("numba").fir_taps_per_order())
        assert gaussian_reach(sigma, order, n, truncate=4.0) == max(nonfinite.support(plan, n))


def test_no_module_branches_on_the_wavelet_family():
    """family_reach asks the family object (its plans, outputs, FFT); nothing parses it again."""
    import pathlib

    package = pathlib.Path(sd.__file__).parent
    hits = {p.name for p in package.glob("*.py")
            if re.search(r"parse_wavelet|\bdog_scale\b|m is None|m is not None", p.read_text())}
    assert hits == set()


@pytest.mark.parametrize("call,match", [
    (lambda x: sd.cwt(x, [0.1], output="bogus"), "output"),
    (lambda x: sd.cwt(x, [0.1], wavelet="mexh", output="phase"), "output"),
    (lambda x: sd.cwt(x, [0.1], bank_method="bogus"), "bank_method"),
    (lambda x: sd.cwt(x, [0.1], nan_policy="bogus"), "nan_policy"),
    (lambda x: sd.cwt(x, [0.1], workers=0), "workers"),
    (lambda x: sd.gaussian_filter1d(x, 1.0, bank_method="bogus"), "bank_method"),
    (lambda x: sd.gaussian_filter(x, 1.0, min_weight=2), "min_weight"),
    (lambda x: sd.ssq_cwt(x, [0.1, 0.2], squeezing="bogus"), "squeezing"),
    (lambda x: sd.ssq_cwt(x, [0.1, 0.2], derivative="bogus"), "derivative"),
])
def test_the_options_are_checked_at_the_call(call, match):
    """Not when the blocks run: each wrapper checks what the in-memory function would refuse."""
    with pytest.raises(ValueError, match=match):
        call(da.zeros((2, 3000), chunks=1000))
