"""Every call's cost is bounded by its input, whatever the arguments.

A Gaussian far wider than the signal is its exact limit, chosen before any
design; a Morlet wavelet far wider than the signal, an ``xi`` or ``tol`` no
plan serves, a sigma whose square underflows: a ``ValueError`` naming the
argument, at once.  The table of extreme calls on 300 samples runs in a child
process (a generous timeout guards against a hang only) and is held to
structural bounds: the peak of traced memory, and the length of every plan
the selectors design.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sftwave.stream
from sftwave import cwt, gaussian_filter1d, morlet_transform
from sftwave.mne import tfr_array_morlet
from sftwave.plans import FIRPlan, SFTPlan, WidePlan, select, select_gaussian, select_morlet
from sftwave.plans import morlet as morlet_design
from sftwave.plans.gaussian import gaussian_plan, shortest_window

N = 300
X = np.random.default_rng(0).standard_normal(N)
COST = 5.5     # an engine's fir_taps_per_order

#: (statement, what it must end in: "result" or the parameter its error names)
TABLE = [
    ("sw.gaussian_filter1d(x, 1e8)", "result"),
    ("sw.gaussian_filter1d(x, 1e20)", "result"),
    ("sw.gaussian_filter1d(x, 1e20, order=2)", "result"),
    ("sw.gaussian_filter1d(x, 1e8, order=2, tol=1e-6)", "result"),
    ("sw.gaussian_filter1d(x, 1e8, truncate=8.0)", "result"),
    ("sw.gaussian_filter1d(x, 3e3, mode='constant')", "result"),
    ("sw.gaussian_filter1d(x, 1e300)", "sigma"),
    ("sw.gaussian_filter1d(x, 1e-300)", "sigma"),
    ("sw.gaussian_filter1d(x, 1e8, method='fir')", "sigma"),
    ("sw.gaussian_filter1d(x, 1e8, method='bank')", "sigma"),
    ("sw.gaussian_filter1d(x, 1e8, order=3)", "sigma"),
    ("sw.gaussian_filter1d(x, 1e8, radius=20)", "result"),
    ("sw.gaussian_filter(x.reshape(3, 100), 1e9)", "result"),
    ("sw.morlet_transform(x, 1e7)", "sigma"),
    ("sw.morlet_transform(x, 1e20)", "sigma"),
    ("sw.morlet_transform(x, 1e300)", "sigma"),
    ("sw.morlet_transform(x, 5000.0)", "result"),
    ("sw.morlet_transform(x, 2400.0)", "result"),
    ("sw.cwt(x, [1e-9])", "freqs"),
    ("sw.cwt(x, [1e-9, 0.1])", "freqs"),
    ("sw.cwt(x, [1e-3, 0.1])", "result"),
    ("sw.cwt(x, [0.1], xi=1e6)", "xi"),
    ("sw.cwt(x, [0.1], xi=1e-10)", "xi"),
    ("sw.cwt(x, [0.1], xi=[1e6])", "xi"),
    ("sw.cwt(x, [0.4], xi=300.0)", "result"),
    ("sw.cwt(x, [0.1], tol=1e-9)", "result"),
    ("sw.cwt(x, [0.1], tol=1e-12)", "tol"),
    ("sw.cwt(x, [0.1], nan_policy='omit', xi=1e6)", "xi"),
    ("sw.stream.CWT([1e-9]).process(x)", "longer than the signal"),   # a stream: no length
    ("tfr(x[None, None], 1.0, [1e-9])", "wavelets is longer"),
    ("tfr(x[None, None], 1.0, [0.1], n_cycles=float('nan'))", "n_cycles"),
    ("sw.icwt(np.ones((2, 300), complex), [0.1, 0.1])", "freqs"),
]

_CHILD = r"""
import json, sys, tracemalloc
import numpy as np
import sftwave as sw
import sftwave.stream
from sftwave.mne import tfr_array_morlet as tfr
from sftwave.plans import select

designed = []

def spy(name, size_of):
    original = getattr(select, name)
    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        designed.append((name, int(size_of(result))))
        return result
    setattr(select, name, wrapper)

spy("gaussian_plan", lambda p: p.length)
spy("morlet_plan", lambda p: p.length)
spy("fir_kernel", lambda h: h.size)
spy("fir_morlet", lambda h: h.size)
spy("scipy_gaussian_kernel", lambda h: h.size)
select._select_morlet.cache_clear()

x = np.random.default_rng(0).standard_normal(300)
sw.gaussian_filter1d(x, 3.0); sw.cwt(x, [0.1])            # compile the kernels first
rows = json.loads(sys.argv[1])
for statement in rows:
    designed.clear()
    tracemalloc.start()
    try:
        exec(statement)
        outcome = "result"
    except Exception as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(json.dumps(dict(statement=statement, outcome=outcome, peak=peak,
                          designed=list(designed))), flush=True)
"""


@pytest.fixture(scope="module")
def table_run():
    """The whole table, in a child process; 120 s is a guard against a hang only."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([s for s, _ in TABLE])],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return {r["statement"]: r for r in rows}


@pytest.mark.parametrize("statement,expect", TABLE)
def test_extreme_calls_end_in_a_result_or_an_error_naming_the_argument(table_run, statement,
                                                                        expect):
    row = table_run[statement]
    if expect == "result":
        assert row["outcome"] == "result", row["outcome"]
    else:
        assert row["outcome"].startswith(("ValueError", "TypeError")), row["outcome"]
        assert expect in row["outcome"], row["outcome"]
    # memory: every row below 200 MB (the exact outputs are some kB; the old calls took GBs)
    assert row["peak"] < 200e6, row
    # work: no plan designed longer than the signal justifies (the kernels of scipy at an
    # explicit radius are the user's own support)
    bound = 16 * select.max_kernel_sigma(N)
    for name, size in row["designed"]:
        assert size <= bound, (name, size, row)


def test_a_wide_gaussian_runs_no_design_at_all(table_run):
    for statement in ("sw.gaussian_filter1d(x, 1e8)", "sw.gaussian_filter1d(x, 1e20)",
                      "sw.gaussian_filter1d(x, 1e8, truncate=8.0)",
                      "sw.gaussian_filter1d(x, 1e8, order=2, tol=1e-6)"):
        assert table_run[statement]["designed"] == [], table_run[statement]


# ----------------------------------------------------------------------------- the Gaussian


def test_wide_limit_is_chosen_before_any_design(monkeypatch):
    def no_design(*args, **kwargs):
        raise AssertionError("a design ran for a Gaussian far wider than the signal")

    for name in ("gaussian_plan", "fir_kernel", "scipy_gaussian_kernel"):
        monkeypatch.setattr(select, name, no_design)
    for sigma in (2e3, 1e5, 1e8, 1e20, 1e100):
        for order in (0, 1, 2):
            for tol in (None, 1e-3, 1e-9):
                for truncate in (4.0, 8.0):
                    plan = select_gaussian(sigma, order, n=N, wide=True, tol=tol,
                                           truncate=truncate, fir_taps_per_order=COST)
                    assert plan == WidePlan(sigma, order)


@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("tol", [1e-2, 1e-4, 1e-7])
def test_shortest_window_bounds_every_plan(order, tol):
    """The pre-design rule is sound: no plan is shorter than shortest_window (so a design
    it skips would have been replaced by the wide limit too)."""
    for sigma in (0.7, 1.5, 3.0, 11.0, 47.0, 48.0, 200.0, 3000.0):
        for transform in ("sft", "asft"):
            try:
                plan = gaussian_plan(sigma, order, tol, transform)
            except ValueError:
                continue
            assert shortest_window(sigma) <= plan.length, (sigma, plan.length)


def test_wide_choice_agrees_with_the_designs():
    """Where the design still runs (sigma near the signal's length), the wide limit is
    chosen as before, by the designed window; beyond, without it."""
    for n in (10, 100, 1000):
        for sigma in np.geomspace(0.2 * n, 20 * n, 9):
            plan = select_gaussian(float(sigma), 0, n=n, wide=True, fir_taps_per_order=COST)
            if shortest_window(sigma) > 4 * n:
                assert isinstance(plan, WidePlan)
            elif isinstance(plan, SFTPlan):
                assert plan.length <= 4 * n


@pytest.mark.parametrize("sigma", [1e-30, 1e-20, 1e-5])
def test_tiny_sigma_is_the_identity_as_in_scipy(sigma):
    from scipy import ndimage

    assert np.array_equal(gaussian_filter1d(X, sigma), ndimage.gaussian_filter1d(X, sigma))


@pytest.mark.parametrize("kwargs,name,echo", [
    (dict(sigma=0.0), "sigma", "got 0.0"),
    (dict(sigma=-1.0), "sigma", "got -1.0"),
    (dict(sigma=math.nan), "sigma", "got nan"),
    (dict(sigma=math.inf), "sigma", "got inf"),
    (dict(sigma=1e-300), "sigma", "got 1e-300"),
    (dict(sigma=1e300), "sigma", "got 1e+300"),
    (dict(sigma=1e20), "sigma", "sigma=1e+20"),          # no signal: no wide limit
    (dict(order=-1), "order", "got -1"),
    (dict(order=1.5), "order", "got 1.5"),
    (dict(tol=0.0), "tol", "got 0.0"),
    (dict(tol=-1.0), "tol", "got -1.0"),
    (dict(tol=math.nan), "tol", "got nan"),
    (dict(tol=2.0), "tol", "got 2.0"),
    (dict(tol=1e-12), "tol", "got 1e-12"),
    (dict(transform="bogus"), "transform", "got 'bogus'"),
    (dict(method="bogus"), "method", "got 'bogus'"),
    (dict(truncate=0.0), "truncate", "got 0.0"),
    (dict(radius=-2), "radius", "got -2"),
    (dict(n=-1), "n", "got -1"),
    (dict(fir_taps_per_order=math.nan), "fir_taps_per_order", "got nan"),
])
def test_select_gaussian_names_a_bad_argument(kwargs, name, echo):
    args = dict(sigma=3.0, order=0) | kwargs
    sigma, order = args.pop("sigma"), args.pop("order")
    with pytest.raises((ValueError, TypeError)) as info:
        select_gaussian(sigma, order, **args)
    assert name in str(info.value) and echo in str(info.value), str(info.value)


# ----------------------------------------------------------------------------- the Morlet wavelet


@pytest.mark.parametrize("kwargs,name,echo", [
    (dict(sigma=0.0), "sigma", "got 0.0"),
    (dict(sigma=-1.0), "sigma", "got -1.0"),
    (dict(sigma=math.nan), "sigma", "got nan"),
    (dict(sigma=math.inf), "sigma", "got inf"),
    (dict(sigma=1e-300), "sigma", "got 1e-300"),
    (dict(sigma=1e300), "sigma", "got 1e+300"),
    (dict(sigma=1e20), "sigma", "longer than the signal"),
    (dict(sigma=2e4, n=300), "sigma", "longer than the signal"),
    (dict(xi=0.0), "xi", "got 0.0"),
    (dict(xi=-6.0), "xi", "got -6.0"),
    (dict(xi=math.nan), "xi", "got nan"),
    (dict(xi=math.inf), "xi", "got inf"),
    (dict(xi=1e-10), "xi", "got 1e-10"),
    (dict(xi=1e6), "xi", "got 1000000.0"),
    (dict(sigma=1.0, xi=6.0), "xi", "Nyquist"),
    (dict(tol=0.0), "tol", "got 0.0"),
    (dict(tol=-1.0), "tol", "got -1.0"),
    (dict(tol=math.nan), "tol", "got nan"),
    (dict(tol=2.0), "tol", "got 2.0"),
    (dict(tol=1e-12), "tol", "got 1e-12"),
    (dict(transform="bogus"), "transform", "got 'bogus'"),
    (dict(method="bogus"), "method", "got 'bogus'"),
    (dict(n=2.5), "n", "got 2.5"),
])
def test_select_morlet_names_a_bad_argument(kwargs, name, echo):
    args = dict(sigma=30.0, xi=6.0, tol=1e-4) | kwargs
    sigma, xi, tol = args.pop("sigma"), args.pop("xi"), args.pop("tol")
    with pytest.raises((ValueError, TypeError)) as info:
        select_morlet(sigma, xi, tol, **args)
    assert name in str(info.value) and echo in str(info.value), str(info.value)


def test_a_wavelet_far_wider_than_the_signal_is_refused_naming_the_argument():
    with pytest.raises(ValueError, match=r"^freqs \(its 1e-09 with fs=1.0\): the wavelet is "
                                         r"longer than the signal"):
        cwt(X, [0.1, 1e-9])
    with pytest.raises(ValueError, match=r"^sigma=10000000.0: the wavelet is longer"):
        morlet_transform(X, 1e7)
    with pytest.raises(ValueError, match="longer than the signal"):
        sftwave.stream.CWT([1e-9])          # a stream has no length: the absolute bound


@pytest.mark.parametrize("n", [1, 50, 300, 2000])
def test_a_wavelet_somewhat_longer_than_the_signal_is_computed(n):
    x = np.random.default_rng(n).standard_normal(n)
    limit = select.max_kernel_sigma(n)
    assert limit >= 8 * n
    y = morlet_transform(x, limit, mode="constant")
    assert y.shape == (n,) and np.all(np.isfinite(y))
    with pytest.raises(ValueError, match="longer than the signal"):
        morlet_transform(x, limit * 1.01)


def test_tol_beyond_the_tabulated_layouts_searches_nothing(monkeypatch):
    """tol = 1e-9 (the floor) ends in the FIR from the shipped table alone."""
    def no_search(*args, **kwargs):
        raise AssertionError("a layout search ran")

    monkeypatch.setattr(morlet_design, "_best_direct_layout", no_search)
    monkeypatch.setattr(morlet_design, "_best_multiply_ratio", no_search)
    select._select_morlet.cache_clear()
    for sigma in (9.5, 300.0):
        plan = select_morlet(sigma, 6.0, 1e-9, n=N, fir_taps_per_order=COST)
        assert isinstance(plan, FIRPlan) and plan.error <= 1e-9
    assert cwt(X, [0.1], tol=1e-9).shape == (1, N)


@pytest.mark.parametrize("xi", [1e-10, 0.005, 301.0, 1e6, [1e6]])
def test_xi_beyond_the_designs_is_refused(xi):
    with pytest.raises(ValueError, match=r"xi must be in \[0.01, 300\]"):
        cwt(X, [0.1], xi=xi)
    if np.ndim(xi) == 0:
        with pytest.raises(ValueError, match=r"xi must be in \[0.01, 300\]"):
            morlet_transform(X, 500.0, xi=xi)


@pytest.mark.parametrize("xi", [0.01, 300.0])
def test_xi_range_is_inclusive(xi):
    sigma = max(30.0, 1.01 * xi / math.pi)
    y = morlet_transform(X, sigma, xi=xi)
    assert np.all(np.isfinite(y))


# ----------------------------------------------------------------------------- MNE's drop-in


@pytest.mark.parametrize("n_cycles,echo", [
    (math.nan, "nan"), (-3.0, "-3.0"), (0.0, "0.0"), (math.inf, "inf"), ([5.0, math.nan], "nan"),
])
def test_tfr_array_morlet_names_a_bad_n_cycles(n_cycles, echo):
    with pytest.raises(ValueError, match=f"n_cycles must be positive and finite, got {echo}"):
        tfr_array_morlet(X[None, None], 100.0, [10.0, 20.0], n_cycles=n_cycles)


def test_tfr_array_morlet_wrong_length_n_cycles():
    with pytest.raises(ValueError, match="n_cycles must be a float or an array of length 2"):
        tfr_array_morlet(X[None, None], 100.0, [10.0, 20.0], n_cycles=[5.0, 5.0, 5.0])


def test_tfr_array_morlet_refuses_a_long_wavelet_before_making_it():
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(ValueError, match="At least one of the wavelets is longer than the signal"):
        tfr_array_morlet(X[None, None], 1.0, [1e-9])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10e6      # MNE's samples of that wavelet would be 6e10 of them


# ----------------------------------------------------------------------------- the benchmark's table


def test_the_benchmark_runs_the_same_kind_of_rows():
    """benchmarks/probes/bounded_cost.py's child prints one JSON line per row (run on a cheap row)."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "probes" / "bounded_cost.py"
    code = textwrap.dedent(f"""
        import importlib.util, json
        spec = importlib.util.spec_from_file_location("bounded_cost", {str(path)!r})
        mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
        print(json.dumps(mod.run_row("sw.cwt(x, [1e-9])", 120.0, 3.0)))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    assert row["outcome"].startswith("ValueError: freqs") and row["peak"] < 200e6
