"""One conformance test for every registered engine, against the direct definitions.

For each engine in :data:`sftwave.engines.CAPABILITIES` (a new engine is
covered by registering it), and for the 'xp' engine each array library it
runs here (numpy, and torch where installed: torch in, torch out), every
combination of

* the bank methods it accepts (and the FIR path, once per engine),
* boundary mode (all five),
* input dtype (float64, float32, complex128),
* public function: ``gaussian_filter1d`` (orders 0-2), ``gaussian_filter``
  (orders 1 and 2 over two axes), ``gaussian_laplace``,
  ``gaussian_gradient_magnitude``, ``morlet_transform`` and ``cwt`` (its
  complex, power, modulus and phase, decimated),

is computed through the public functions with ``engine=`` and compared with
the naive references of ``tests/naive.py`` (exact kernels, exact boundary
extension, direct sums).  The engines' own accuracy targets set the bounds:
the plans are designed to ``tol = 1e-6`` (kernel relative RMSE), and a
white-noise input's result then errs by about that much; the bound 2e-5
leaves a factor 20 for float32 rounding (the bank's float32 paths keep
errors below about 1e-6 at this length) and for the fits' pointwise error.

The CUDA engine is run in a subprocess with numba-cuda's simulator on
(``NUMBA_ENABLE_CUDASIM=1`` must be set before numba.cuda is first imported).
A mutant engine (the CPU engine reading ``'mirror'`` as ``'reflect'``) is
registered once to show that the test fails on a broken engine.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from naive import exact_gaussian_filter1d, exact_morlet_transform, rel_rmse

import sftwave
from sftwave import engines

TOL = 1e-6
BOUND = 2e-5
MODES = ("reflect", "mirror", "nearest", "wrap", "constant")
DTYPES = ("float64", "float32", "complex128")
KINDS = ("complex", "power", "abs", "phase")
SIMULATOR = os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")

#: Gaussian: two axes, one sigma and derivative order each (a bank for both sigmas).
G_SIGMAS, G_ORDERS = (6.0, 11.0), (1, 2)
#: Scalogram: scales in samples, xi, decimation.
M_SIGMAS, XI, DECIM = (3.0, 9.0, 20.0), 6.0, 3


#: Array libraries each engine runs on here: numpy for all; torch too for 'xp' where installed.
def libraries(name: str) -> tuple[str, ...]:
    if name == "xp" and importlib.util.find_spec("torch") is not None:
        return ("numpy", "torch")
    return ("numpy",)


def call(func, x: np.ndarray, library: str, *args, **kwargs) -> np.ndarray:
    """``func(x, ...)`` with ``x`` in ``library``; the result, checked to be of that library, as numpy."""
    if library == "numpy":
        return np.asarray(func(x, *args, **kwargs))
    import torch

    y = func(torch.from_numpy(x.copy()), *args, **kwargs)
    assert isinstance(y, torch.Tensor), f"{func.__name__} on torch returned {type(y).__name__}"
    return y.numpy()


def signal(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) + 0.5
    if dtype == "complex128":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def cases(name: str) -> list[tuple]:
    """(method, bank_method, mode, dtype) for engine ``name``: every bank method, and the FIR."""
    caps = engines.CAPABILITIES[name]
    methods = [("bank", bm) for bm in caps.bank_methods] + [("fir", "auto")]
    return [(m, bm, mode, dt) for (m, bm), mode, dt in itertools.product(methods, MODES, DTYPES)]


#: numba-cuda's simulator runs every device thread in Python (a 3-scale scalogram of
#: 120 samples takes 40 s; a 1-D filter of 2 x 40 samples 6 s), so the 'cuda'
#: engine gets small inputs, the bank only, one output kind per mode and the
#: dtypes once: its FIR plans, the loops over axes and scales and the output
#: kinds are the array-API engine's code, covered in full in-process.
SMALL = SIMULATOR


def exact_separable(x: np.ndarray, sigmas, orders, axes, mode: str, cval: float) -> np.ndarray:
    """The exact Gaussian filter of ``x`` along ``axes`` (complex: each part, the imaginary one
    extended with 0, as scipy extends it with cval.imag)."""
    parts = [(x.real, cval), (x.imag, 0.0)] if x.dtype.kind == "c" else [(x, cval)]
    refs = []
    for part, c in parts:
        ref = part.astype(np.float64)
        for axis, s, o in zip(axes, sigmas, orders):
            ref = exact_gaussian_filter1d(ref, s, o, mode, c, axis=axis)
        refs.append(ref)
    return refs[0] + 1j * refs[1] if x.dtype.kind == "c" else refs[0]


def check_gaussian(name: str, method: str, bank_method: str, mode: str, dtype: str,
                   library: str = "numpy") -> None:
    x = signal(dtype, (2, 40) if SMALL else (37, 90), 1)
    sigmas, orders, axes = ((4.0,), (1,), (1,)) if SMALL else (G_SIGMAS, G_ORDERS, (0, 1))
    cval = 0.7 if mode == "constant" else 0.0
    y = call(sftwave.gaussian_filter, x, library, sigmas, order=orders, mode=mode, cval=cval,
             method=method, bank_method=bank_method, tol=TOL, axes=axes, engine=name)
    ref = exact_separable(x, sigmas, orders, axes, mode, cval)
    assert y.shape == x.shape
    assert y.dtype == (np.float32 if dtype == "float32" else x.dtype)
    err = rel_rmse(y, ref)
    assert err <= BOUND, f"gaussian_filter on {name!r}: relative RMSE {err:.3g}"


def check_scalogram(name: str, method: str, bank_method: str, mode: str, dtype: str,
                    kind: str, library: str = "numpy") -> None:
    n = 40 if SMALL else 301
    sigmas = M_SIGMAS[:1] if SMALL else M_SIGMAS
    x = signal(dtype, (1 if SMALL else 2, n), 2)
    cval = 0.3 if mode == "constant" else 0.0
    freqs = sftwave.scale_to_frequency(np.array(sigmas), 1.0, XI)
    y = call(sftwave.cwt, x, library, freqs, xi=XI, mode=mode, cval=cval, output=kind,
             method=method, bank_method=bank_method, tol=TOL, decim=DECIM, engine=name)
    assert y.shape == (x.shape[0], len(sigmas), -(-n // DECIM))
    for r in range(x.shape[0]):
        for i, s in enumerate(sigmas):
            ref = (exact_morlet_transform(x[r].real, s, XI, mode, cval)
                   + 1j * exact_morlet_transform(x[r].imag, s, XI, mode, 0.0)
                   if x.dtype.kind == "c" else exact_morlet_transform(x[r], s, XI, mode, cval))
            ref = ref[::DECIM]
            got = y[r, i]
            if kind == "complex":
                err = rel_rmse(got, ref)
            elif kind == "power":
                err = rel_rmse(got, np.abs(ref) ** 2) / 2   # |y|^2 doubles a relative error
            elif kind == "abs":
                err = rel_rmse(got, np.abs(ref))
            else:   # the phase, weighted by the modulus it belongs to
                err = rel_rmse(np.abs(ref) * np.exp(1j * got), ref)
            assert err <= BOUND, (f"cwt output={kind!r} on {name!r}, scale {s}, row {r}: "
                                  f"relative RMSE {err:.3g}")


def _bound(err: float, what: str, name: str, library: str) -> None:
    assert err <= BOUND, f"{what} on {name!r} ({library}): relative RMSE {err:.3g}"


def check_filter1d(name: str, method: str, bank_method: str, mode: str, dtype: str,
                   library: str = "numpy") -> None:
    """gaussian_filter1d, orders 0 to 2, along the first axis (the last one on the simulator)."""
    x = signal(dtype, (2, 40) if SMALL else (37, 90), 3)
    sigma, axis = (4.0, 1) if SMALL else (G_SIGMAS[0], 0)
    cval = 0.7 if mode == "constant" else 0.0
    for order in ((1,) if SMALL else (0, 1, 2)):
        y = call(sftwave.gaussian_filter1d, x, library, sigma, axis=axis, order=order, mode=mode,
                 cval=cval, method=method, bank_method=bank_method, tol=TOL, engine=name)
        assert y.shape == x.shape and y.dtype == (np.float32 if dtype == "float32" else x.dtype)
        ref = exact_separable(x, (sigma,), (order,), (axis,), mode, cval)
        _bound(rel_rmse(y, ref), f"gaussian_filter1d order={order}", name, library)


def check_derivatives(name: str, method: str, bank_method: str, mode: str, dtype: str,
                      library: str = "numpy") -> None:
    """gaussian_laplace and gaussian_gradient_magnitude against their definitions on the exact filters."""
    x = signal(dtype, (2, 40) if SMALL else (37, 90), 4)
    # the simulator: the last axis only (the first has 2 samples); ggm's sigma is per dimension
    axes, sigmas = ((1,), (0.0, 4.0)) if SMALL else ((0, 1), G_SIGMAS)
    cval = 0.7 if mode == "constant" else 0.0
    kw = dict(mode=mode, cval=cval, method=method, bank_method=bank_method, tol=TOL, axes=axes,
              engine=name)
    filtered = [a for a in (0, 1) if sigmas[a] > 0]

    def exact(order_axis: int, order: int) -> np.ndarray:
        orders = [order if a == order_axis else 0 for a in filtered]
        return exact_separable(x, [sigmas[a] for a in filtered], orders, filtered, mode, cval)

    lap = call(sftwave.gaussian_laplace, x, library, [sigmas[a] for a in axes], **kw)
    _bound(rel_rmse(lap, sum(exact(a, 2) for a in axes)), "gaussian_laplace", name, library)
    ggm = call(sftwave.gaussian_gradient_magnitude, x, library, sigmas, **kw)
    squares = sum(exact(a, 1) ** 2 for a in axes)
    if x.dtype.kind == "c":   # the complex square root's branch cut: compare the squares
        _bound(rel_rmse(ggm ** 2, squares) / 2, "gaussian_gradient_magnitude", name, library)
    else:
        _bound(rel_rmse(ggm, np.sqrt(squares)), "gaussian_gradient_magnitude", name, library)
    for y in (lap, ggm):
        assert y.shape == x.shape and y.dtype == (np.float32 if dtype == "float32" else x.dtype)


def check_morlet(name: str, method: str, bank_method: str, mode: str, dtype: str,
                 library: str = "numpy") -> None:
    """morlet_transform along the last axis, row by row against the direct sum."""
    n = 40 if SMALL else 301
    sigma = M_SIGMAS[0] if SMALL else M_SIGMAS[1]
    x = signal(dtype, (1 if SMALL else 2, n), 5)
    cval = 0.3 if mode == "constant" else 0.0
    y = call(sftwave.morlet_transform, x, library, sigma, xi=XI, mode=mode, cval=cval,
             method=method, bank_method=bank_method, tol=TOL, engine=name)
    assert y.shape == x.shape
    for r in range(x.shape[0]):
        ref = (exact_morlet_transform(x[r].real, sigma, XI, mode, cval)
               + 1j * exact_morlet_transform(x[r].imag, sigma, XI, mode, 0.0)
               if x.dtype.kind == "c" else exact_morlet_transform(x[r], sigma, XI, mode, cval))
        _bound(rel_rmse(y[r], ref), f"morlet_transform row {r}", name, library)


IN_PROCESS = [n for n in engines.CAPABILITIES if n != "cuda" or SIMULATOR]
RUNS = [(n, lib) for n in IN_PROCESS for lib in libraries(n)]


@pytest.mark.parametrize("name, library", RUNS, ids=[f"{n}-{lib}" for n, lib in RUNS])
@pytest.mark.parametrize("mode", MODES)
def test_engine_conforms(name, library, mode):
    """Every public function, bank method, dtype and output kind of engine ``name`` on
    ``library``'s arrays in ``mode`` meets the bound."""
    if SMALL:   # the simulator: the bank only, one kind per mode, the dtypes and functions once
        kind = dict(zip(MODES, (*KINDS, "complex")))[mode]
        for dtype in (DTYPES if mode == "reflect" else DTYPES[:1]):
            check_gaussian(name, "bank", "auto", mode, dtype, library)
        check_scalogram(name, "bank", "auto", mode, "float64", kind, library)
        if mode == "reflect":
            for check in (check_filter1d, check_derivatives, check_morlet):
                check(name, "bank", "auto", mode, "float64", library)
        return
    for method, bank_method, m, dtype in cases(name):
        if m != mode:
            continue
        for check in (check_gaussian, check_filter1d, check_derivatives, check_morlet):
            check(name, method, bank_method, mode, dtype, library)
        for kind in KINDS:
            check_scalogram(name, method, bank_method, mode, dtype, kind, library)


@pytest.mark.slow
@pytest.mark.simulator
@pytest.mark.skipif(SIMULATOR, reason="this process runs the CUDA cases itself (test_engine_conforms)")
def test_cuda_engine_conforms_under_the_simulator():
    """The 'cuda' engine, in a fresh process with the simulator switched on."""
    pytest.importorskip("numba_cuda")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    here = Path(__file__).resolve().parent
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(Path(__file__)),
         "-k", "test_engine_conforms and cuda"],
        cwd=here.parents[1], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "5 passed" in out.stdout, out.stdout[-2000:]


class MirrorAsReflect:
    """A broken engine: the CPU engine, but it extends 'mirror' lines as 'reflect'."""

    name = "mutant"

    def __init__(self):
        self.base = engines.get("numba")

    def __getattr__(self, attr):
        return getattr(self.base, attr)

    def filter(self, x, steps, **kw):
        steps = [(ax, plan, "reflect" if m == "mirror" else m) for ax, plan, m in steps]
        return self.base.filter(x, steps, **kw)

    def scalogram(self, x, plans, *, mode, **kw):
        return self.base.scalogram(x, plans, mode="reflect" if mode == "mirror" else mode, **kw)


@pytest.fixture
def mutant():
    engines.register("mutant", engines.CAPABILITIES["numba"], MirrorAsReflect())
    try:
        yield "mutant"
    finally:
        engines.unregister("mutant")


def test_a_broken_engine_fails_the_conformance_test(mutant):
    """Registered, the mutant is covered like any engine, and its 'mirror' cases fail."""
    assert mutant in engines.names()
    for mode in ("reflect", "nearest", "wrap", "constant"):      # what it does right passes
        check_gaussian(mutant, "bank", "iir1", mode, "float64")
        check_scalogram(mutant, "bank", "iir1", mode, "float64", "complex")
    with pytest.raises(AssertionError, match="gaussian_filter on 'mutant'"):
        check_gaussian(mutant, "bank", "iir1", "mirror", "float64")
    with pytest.raises(AssertionError, match="cwt output='complex' on 'mutant'"):
        check_scalogram(mutant, "fir", "auto", "mirror", "float32", "complex")
