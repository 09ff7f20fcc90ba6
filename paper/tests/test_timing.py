"""Section V-B of the paper (computation time), measured by sftwave_paper.timing.

One ``--quick`` run of the command (every engine that can run here) feeds
most tests.  No test looks at how long anything took: the times are only
checked to be there, positive and consistent (minimum <= median); what is
checked numerically is the accuracy each timed method reaches, recomputed here
independently from the naive references of ``tests/naive.py``.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import math
import os
import subprocess
import sys

import cudasim
import naive
import numpy as np
import pytest

from sftwave.plans.fit import plan_kernel
from sftwave_paper import timing as tm

HAVE_XP = importlib.util.find_spec("array_api_compat") is not None
HAVE_TORCH = HAVE_XP and importlib.util.find_spec("torch") is not None
HAVE_NUMBA_CUDA = importlib.util.find_spec("numba_cuda") is not None

#: The measured relative RMSE of an output against the exact convolution, for
#: white noise, has the kernel's relative RMSE as its expected value (away from
#: the borders).  The estimate from one signal of N samples fluctuates by about
#: sqrt(L / N) in the mean square (L the window, at most 1741 here for N = 6400),
#: and the 'reflect' borders fold the kernel's tails back, so a measured value
#: can exceed the kernel error by some tens of percent; 1.5 allows that while
#: catching a wrong kernel, a wrong direction (the Morlet wavelet reversed is
#: off by ~140 %) or a wrong plan (the next smaller P is 4-5 times worse).
STATED_FACTOR = 1.5

#: Agreement between the JSON's accuracy figures and the recomputation here:
#: the timed outputs are float32 (rounding ~6e-8 relative) summed over at most
#: ~2000 taps or components (torch's float32 conv accumulates ~1e-6); 2e-5 is
#: under 1 % of the errors measured (2e-3 .. 6e-3).
RECOMPUTE_ATOL = 2e-5


def _env() -> dict:
    env = dict(os.environ)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    return env


def _run(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sftwave_paper", "timing", *args],
                          check=False, capture_output=True, text=True, timeout=timeout,
                          env=env or _env())


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """``python -m sftwave_paper timing --quick --threads 1``: (outdir, stdout, JSON)."""
    out = tmp_path_factory.mktemp("timing")
    proc = _run("--quick", "--threads", "1", "--json", str(out / "timing.json"), "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with open(out / "timing.json", encoding="utf-8") as fh:
        data = json.load(fh)
    return out, proc.stdout, data


def _must_run_here() -> set[str]:
    engines = {"numba"}
    if HAVE_XP:
        engines.add("xp-numpy")
    if HAVE_TORCH:
        engines.add("xp-torch-cpu")
    return engines


def _engines_run(data) -> set[str]:
    """Engines whose proposed method was timed (each engine has exactly one)."""
    return {d["engine"] for d in data["series"].values() if d["method"] == "proposed"}


# --------------------------------------------------------------------------- the command


def test_quick_run_writes_figures_and_json(quick):
    out, stdout, _ = quick
    for name in tm.FIGURES.values():
        png = (out / name).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    # written atomically: no temporary files left behind
    assert sorted(p.name for p in out.iterdir()) == sorted([*tm.FIGURES.values(), "timing.json"])
    assert "paper (RTX 3090)" in stdout and "wrote" in stdout


def test_every_engine_runs_or_says_why_not(quick):
    _, stdout, data = quick
    ran = _engines_run(data)
    assert _must_run_here() <= ran
    assert ran | set(data["skipped"]) == set(tm.ENGINES)
    assert not ran & set(data["skipped"])
    for engine, why in data["skipped"].items():
        assert why and f"skipped engine {engine!r}" in stdout
    expected = {"sft-numba", "trunc-scipy"}
    if HAVE_XP:
        expected.add("sft-xp-numpy")
    if HAVE_TORCH:
        expected |= {"sft-xp-torch-cpu", "trunc-torch-cpu"}
    assert expected <= set(data["series"])
    for name, desc in data["series"].items():
        assert desc["method"] == ("proposed" if name.startswith("sft-") else "truncated")


def test_json_structure(quick):
    _, _, data = quick
    assert data["settings"]["quick"] is True and data["settings"]["threads"] == 1
    assert data["settings"]["dtype"] == "float32" and data["settings"]["xi"] == tm.XI
    assert data["machine"]["cpu_count"] >= 1 and "numpy" in data["machine"]["versions"]
    assert data["machine"]["numba_threads"] == 1
    max_reps = data["settings"]["policy"]["max_reps"]
    for kernel in tm.KERNELS:
        vs_n, vs_s = data["sweeps"][kernel]["vs_n"], data["sweeps"][kernel]["vs_sigma"]
        assert vs_n["n"] == list(tm.N_GRID_QUICK) and vs_n["sigma"] == tm.SIGMA_FIXED
        assert vs_s["sigma"] == list(tm.SIGMA_GRID_QUICK) and vs_s["n"] == tm.N_FIXED_QUICK
        for sweep, size in ((vs_n, len(tm.N_GRID_QUICK)), (vs_s, len(tm.SIGMA_GRID_QUICK))):
            assert set(sweep["results"]) == set(data["series"])
            for name, r in sweep["results"].items():
                assert r["errors"] == [], name
                for key in ("first_s", "median_s", "min_s", "reps"):
                    assert len(r[key]) == size, (name, key)
                assert all(0 < m <= med for m, med in zip(r["min_s"], r["median_s"])), name
                assert all(f > 0 for f in r["first_s"]), name
                assert all(1 <= k <= max_reps for k in r["reps"]), name
            plans = sweep["plans"]
            assert all(e <= t for e, t in zip(plans["kernel_error"], plans["tol"]))
    pap = data["summary"]["paper"]
    assert pap["morlet_n102400_sigma8192_ms"] == 0.545 and pap["morlet_speedup_over_mct3"] == 413.6
    for row in data["summary"]["speedups"]:
        assert row["speedup"] == pytest.approx(row["truncated_ms"] / row["proposed_ms"])


# --------------------------------------------------------------------------- accuracy


def test_accuracy_within_stated_tolerance(quick):
    """Each timed method is as accurate as its kernel says: the proposed plan's kernel
    error is at most the truncated kernel's, and every measured output error is within
    STATED_FACTOR of its method's kernel error."""
    _, _, data = quick
    for kernel in tm.KERNELS:
        rows = data["accuracy"][kernel]
        assert [r["sigma"] for r in rows] == list(tm.SIGMA_GRID_QUICK)
        for row in rows:
            assert row["proposed_kernel_error"] <= row["truncated_kernel_error"]
            assert set(row["measured"]) == set(data["series"])
            for name, e in row["measured"].items():
                stated = row["proposed_kernel_error" if name.startswith("sft-")
                             else "truncated_kernel_error"]
                assert 0 < e <= STATED_FACTOR * stated, (kernel, row["sigma"], name, e, stated)


def _convolve_reflect(x: np.ndarray, k: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``y[n] = sum_k h[k] x[n - k]`` over the lags ``k`` (contiguous), scipy's 'reflect'."""
    assert np.all(np.diff(k) == 1) and k[0] <= 0 <= k[-1]
    xe = naive.extend(x.astype(np.float64), int(k[-1]), int(-k[0]), "reflect")
    return np.convolve(xe, h, mode="valid")


def test_accuracy_figures_match_naive_recomputation(quick):
    """The JSON's accuracy figures, recomputed from the naive references: the same input
    (seeded), the exact convolution by direct sums, the truncated kernels and the
    proposed plans' kernels applied by np.convolve."""
    _, _, data = quick
    n = data["sweeps"]["gaussian"]["vs_sigma"]["n"]
    x = np.random.default_rng(tm.SEED).standard_normal(n).astype(np.float32)
    for kernel in tm.KERNELS:
        for row in data["accuracy"][kernel]:
            sigma = row["sigma"]
            if kernel == "gaussian":
                ref = naive.exact_gaussian_filter1d(x, sigma)
            else:
                ref = naive.exact_morlet_transform(x, sigma, tm.XI)
            h = tm.truncated_kernel(kernel, sigma)
            r = h.size // 2
            e_trunc = naive.rel_rmse(_convolve_reflect(x, np.arange(-r, r + 1), h), ref)
            k, hp = plan_kernel(tm.proposed_plan(kernel, sigma, n))
            e_prop = naive.rel_rmse(_convolve_reflect(x, k, hp), ref)
            for name, e in row["measured"].items():
                want = e_prop if name.startswith("sft-") else e_trunc
                assert e == pytest.approx(want, abs=RECOMPUTE_ATOL), (kernel, sigma, name)


def test_exact_reference_matches_naive():
    """The experiment's FFT reference against the naive direct sums, on a line shorter than
    the kernel (repeated reflections)."""
    x = np.random.default_rng(1).standard_normal(50)
    np.testing.assert_allclose(tm.exact_reference(x, "gaussian", 8.0),
                               naive.exact_gaussian_filter1d(x, 8.0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(tm.exact_reference(x, "morlet", 8.0),
                               naive.exact_morlet_transform(x, 8.0, tm.XI), rtol=0, atol=1e-12)


@pytest.mark.parametrize("sigma", [16.0, 60.0, 100.5])
def test_truncated_kernels(sigma):
    from scipy import ndimage

    r = int(3 * sigma + 0.5)
    g = tm.truncated_kernel("gaussian", sigma)
    assert g.size == 2 * r + 1 and math.isclose(g.sum(), 1.0, rel_tol=1e-12)
    x = np.random.default_rng(2).standard_normal(400)
    np.testing.assert_allclose(_convolve_reflect(x, np.arange(-r, r + 1), g),
                               ndimage.gaussian_filter1d(x, sigma, truncate=3.0), atol=1e-13)
    # the kernel error is that of the direct definition (naive, continuous normalisation)
    assert tm.truncated_error("gaussian", sigma) == pytest.approx(
        naive.kernel_rel_error(g, sigma, 0), rel=1e-6)
    m = tm.truncated_kernel("morlet", sigma)
    np.testing.assert_allclose(m, naive.exact_morlet(sigma, tm.XI, np.arange(-r, r + 1)),
                               rtol=0, atol=1e-15)
    R = naive.exact_support(sigma) + r
    full = np.zeros(2 * R + 1, dtype=complex)
    full[R - r:R + r + 1] = m
    assert tm.truncated_error("morlet", sigma) == pytest.approx(
        naive.rel_rmse(full, naive.exact_morlet(sigma, tm.XI, np.arange(-R, R + 1))), rel=1e-9)


# --------------------------------------------------------------------------- GPU paths


@pytest.mark.simulator
@pytest.mark.skipif(not HAVE_NUMBA_CUDA, reason="numba-cuda is not installed")
def test_cuda_series_under_the_simulator():
    """The 'cuda' engine and the plain CUDA convolution, run by numba-cuda's simulator on
    a tiny grid (the simulator is slow): their accuracy figures are right."""
    code = (
        cudasim.PRELUDE          # numba-cuda's simulator: a shorter switch interval (cudasim.py)
        + "import json\n"
        "from sftwave_paper import timing as t\n"
        "p = t.Policy(max_reps=1, min_reps=1, budget_s=0.0, slow_s=0.0)\n"
        "d = t.compute(engines=['cuda'], n_grid=(100,), sigma_grid=(4.0,), sigma_fixed=4.0,\n"
        "              n_fixed=100, policy=p)\n"
        "print(json.dumps({k: d[k] for k in ('series', 'skipped', 'accuracy')}))\n"
    )
    env = _env()
    env["NUMBA_ENABLE_CUDASIM"] = "1"
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(data["series"]) == {"sft-cuda", "trunc-cuda"} and data["skipped"] == {}
    assert "simulator" in data["series"]["sft-cuda"]["device"]
    x = np.random.default_rng(tm.SEED).standard_normal(100).astype(np.float32)
    for kernel in tm.KERNELS:
        (row,) = data["accuracy"][kernel]
        ref = (naive.exact_gaussian_filter1d(x, 4.0) if kernel == "gaussian"
               else naive.exact_morlet_transform(x, 4.0, tm.XI))
        h = tm.truncated_kernel(kernel, 4.0)
        r = h.size // 2
        e_trunc = naive.rel_rmse(_convolve_reflect(x, np.arange(-r, r + 1), h), ref)
        k, hp = plan_kernel(tm.proposed_plan(kernel, 4.0, 100))
        e_prop = naive.rel_rmse(_convolve_reflect(x, k, hp), ref)
        assert row["measured"]["trunc-cuda"] == pytest.approx(e_trunc, abs=RECOMPUTE_ATOL)
        assert row["measured"]["sft-cuda"] == pytest.approx(e_prop, abs=RECOMPUTE_ATOL)


@pytest.mark.skipif(not HAVE_NUMBA_CUDA, reason="numba-cuda is not installed")
def test_simulator_is_not_timed_unless_asked(monkeypatch):
    monkeypatch.setenv("NUMBA_ENABLE_CUDASIM", "1")
    _, skipped = tm.available_series(None)
    assert "simulator" in skipped["cuda"]


def test_failed_points_are_recorded_and_drawn(quick, tmp_path):
    """A series that raises at a point gets None there and its error; the others go on,
    and the figures draw the gap."""
    good, _ = tm.available_series("numba")

    def broken(kernel, sigma, n):
        raise MemoryError("out of memory")

    bad = copy.copy(good[0])
    bad.name, bad.build = "broken", broken
    res, acc = tm._sweep([good[1], bad], "gaussian", [(200, 16.0)], tm.QUICK_POLICY, tm.XI,
                         np.dtype(np.float32), {(200, 16.0)}, lambda line: None)
    assert res["results"]["broken"]["median_s"] == [None]
    assert "MemoryError: out of memory" in res["results"]["broken"]["errors"][0]["error"]
    assert res["results"]["trunc-scipy"]["median_s"][0] > 0
    assert acc[0]["measured"]["broken"] is None and acc[0]["measured"]["trunc-scipy"] > 0
    _, _, data = quick
    data = copy.deepcopy(data)
    name = next(iter(data["series"]))
    data["sweeps"]["morlet"]["vs_sigma"]["results"][name]["median_s"][1] = None
    paths = tm.write_figures(data, tmp_path)
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("args, message", [
    (["--engines", "numba,gpu"], "unknown engine 'gpu'"),
    (["--dtype", "int8"], "argument --dtype: invalid choice: 'int8'"),
    (["--threads", "0"], "threads must be a positive integer or -1; got '0'"),
    (["--threads", "two"], "threads must be a positive integer or -1; got 'two'"),
])
def test_bad_cli_arguments(args, message, capsys):
    from sftwave_paper.__main__ import main

    with pytest.raises(SystemExit) as exc:
        main(["timing", *args])
    assert exc.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("kwargs, match", [
    ({"engines": ["gpu"]}, "engines: unknown engine 'gpu'"),
    ({"engines": []}, "engines: no engine given"),
    ({"kernels": ["box"]}, "kernel must be one of"),
    ({"kernels": []}, "kernels must name at least one"),
    ({"dtype": "int8"}, "dtype must be float32 or float64; got 'int8'"),
    ({"n_grid": []}, "n_grid must not be empty"),
    ({"n_grid": [100, 0]}, "n_grid must hold positive integers; got 0"),
    ({"n_grid": [100.5]}, "n_grid must hold positive integers; got 100.5"),
    ({"sigma_grid": [16.0, -1.0]}, "sigma must be positive and finite; got -1.0"),
    ({"sigma_grid": [0.5]}, "sigma must be at least 1 sample"),
    ({"sigma_grid": [1.5], "kernels": ["morlet"]}, "exceeds Nyquist"),
    ({"xi": -6.0}, "xi must be positive; got -6.0"),
    ({"threads": 0}, "threads must be a positive integer or -1; got 0"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tm.compute(**kwargs)


def test_bad_argument_types():
    with pytest.raises(TypeError, match="sigma must be a real number; got 'big'"):
        tm.compute(sigma_grid=["big"])
    with pytest.raises(TypeError, match="threads must be None or an integer; got 1.5"):
        tm.compute(threads=1.5)


def test_import_is_light():
    """Importing the experiment imports neither torch, numba.cuda nor matplotlib."""
    code = ("import sys, sftwave_paper.timing\n"
            "print([m for m in ('torch', 'numba.cuda', 'matplotlib', 'array_api_compat') "
            "if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, timeout=120, env=_env())
    assert proc.stdout.strip() == "[]"
