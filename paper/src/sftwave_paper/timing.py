r"""Section V-B of the paper: computation time against truncated convolution.

The paper times Gaussian smoothing and the Morlet wavelet transform by the
proposed method (SFT by the kernel integral on a GPU) against the
*truncated convolution* with the kernel cut to :math:`[-3\sigma, 3\sigma]`
(GCT3 for the Gaussian, MCT3 for the Morlet wavelet: a direct sum of
:math:`6\sigma + 1` taps per output), in two sweeps:

* time against the signal length :math:`N = 100 .. 102400` at :math:`\sigma = 16`;
* time against :math:`\sigma = 16 .. 8192` at :math:`N = 102400`.

Its headline: the Morlet transform of :math:`N = 102400` samples at
:math:`\sigma = 8192` took 0.545 ms, 413.6 times faster than MCT3, on an
RTX 3090 (see :data:`PAPER`).  This module runs both sweeps on every engine
the machine has and writes the paper's two figures and the numbers; the
timed series of each engine are built in :mod:`sftwave_paper.series`.

What is timed
-------------
For each engine, the proposed method and the truncated convolution on the
same array library and device:

=================  ==============================================  ====================================
engine             proposed method                                 truncated convolution (GCT3, MCT3)
=================  ==============================================  ====================================
``numba``          ``engine='numba'``: the CPU bank, SFT by the    ``scipy.ndimage.correlate1d`` (numpy)
                   first-order recursive filter (``'iir1'``)
``xp-numpy``       ``engine='xp'`` on numpy: kernel integral on    ``scipy.ndimage.correlate1d`` (numpy)
                   the sliding sum (Algorithm 1)
``xp-torch-cpu``   ``engine='xp'`` on a torch CPU tensor           ``torch.nn.functional.conv1d``
``xp-torch-cuda``  ``engine='xp'`` on a torch CUDA tensor          ``torch.nn.functional.conv1d`` (cuDNN)
``cuda``           ``engine='cuda'``: the numba-cuda kernel of     a plain numba-cuda kernel: one thread
                   Algorithms 2-3, on numba device arrays          per output, a loop over the taps
=================  ==============================================  ====================================

Engines that cannot run here are skipped with the reason (no torch, no GPU);
the CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) is not timed unless
``engines`` names ``'cuda'``.  Data stay on the engine's device: the
transfers to and from a GPU are not timed.  GPU calls are timed by wall clock
around a device synchronisation after the call (``torch.cuda.synchronize``,
``numba.cuda.synchronize``).

Like with like.  The proposed method is asked for the accuracy of the
truncated kernel: the Gaussian plan (:func:`sftwave.plans.gaussian.gaussian_plan`,
SFT) and the Morlet plan (:func:`sftwave.plans.morlet.morlet_plan`, direct method,
SFT) are the cheapest whose kernel error (relative RMSE against the exact,
untruncated sampled kernel) is at most that of the truncated kernel, about
0.5 %: the library picks the number of frequencies (4, i.e. ``P = 3``, for
the Gaussian; 7 or 8 for the Morlet wavelet at ``xi = 6``; the paper used
its GDP6 and MDP6, more accurate than GCT3).  For signals shorter than the
window the target is tightened, as the public functions tighten it.  The
truncated Gaussian is scipy's (normalised to sum one, ``truncate=3``), the
truncated wavelet is :math:`\psi_{\sigma,\xi}` on :math:`|k| \le 3\sigma`
as it is.  ``xi = 6`` (the paper does not give it for
section V-B).  Boundary mode ``'reflect'`` everywhere.

Accuracy.  At a few points of the sweep against :math:`\sigma` (its first,
middle and last :math:`\sigma`) every series' output is compared with the
exact convolution (float64, the untruncated kernel on :math:`\pm 13\sigma`
by FFT, the same boundary extension): relative RMSE over the whole output.
The input is white noise, for which the expected output error equals the
kernel's relative RMSE (away from the borders), so the measured values can
be set beside the kernel errors.

Timing.  Each (series, point) is called once (``first_s``: includes JIT
compilation, plan design, cuDNN's choice, where they happen) and then
repeated: at most :attr:`Policy.max_reps` times, at least
:attr:`Policy.min_reps` times, stopping once the repeats took
:attr:`Policy.budget_s`, and after one repeat if that took longer than
:attr:`Policy.slow_s` (the slowest truncated convolutions).  Reported: the
median and the minimum of the repeats.

Examples
--------
>>> plan = proposed_plan("gaussian", 16.0, 102400)
>>> plan.error <= truncated_error("gaussian", 16.0)
True
>>> h = truncated_kernel("gaussian", 16.0)
>>> h.size                                  # 6 sigma + 1 taps
97
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import sftwave
from sftwave._checks import check_workers

from .morlet_error import write_figures_reporting
from .output import save_png_atomic, write_json_reporting
from .series import available_series as _available_series
from .timed_kernels import (
    ENGINES,
    KERNELS,
    MODE,
    TRUNC_SIGMAS,
    XI,
    check_dtype,
    check_engines,
    check_grid,
    check_kernel,
    check_sigma,
    exact_reference,
    proposed_plan,
    relative_rmse,
    truncated_error,
    truncated_kernel,
)
from .timer import FULL_POLICY, QUICK_POLICY, Policy, time_calls

__all__ = [
    "ENGINES",
    "FIGURES",
    "KERNELS",
    "N_FIXED",
    "N_FIXED_QUICK",
    "N_GRID",
    "N_GRID_QUICK",
    "PAPER",
    "SIGMA_FIXED",
    "SIGMA_GRID",
    "SIGMA_GRID_QUICK",
    "XI",
    "Policy",
    "available_series",
    "check_engines",
    "compute",
    "exact_reference",
    "main",
    "proposed_plan",
    "relative_rmse",
    "truncated_error",
    "truncated_kernel",
    "write_figures",
]

#: Signal lengths of the sweep against N (the paper: 100 to 102400).
N_GRID: tuple[int, ...] = tuple(100 * 2**k for k in range(11))
#: Scales of the sweep against sigma (the paper: 16 to 8192).
SIGMA_GRID: tuple[float, ...] = tuple(float(2**k) for k in range(4, 14))
#: sigma of the sweep against N.
SIGMA_FIXED = 16.0
#: N of the sweep against sigma.
N_FIXED = 102400
#: The grids of ``--quick``.
N_GRID_QUICK: tuple[int, ...] = (100, 400, 1600, 6400)
SIGMA_GRID_QUICK: tuple[float, ...] = (16.0, 64.0, 256.0)
N_FIXED_QUICK = 6400
#: Seed of the white-noise input.
SEED = 20240501

#: What the paper reports (section V-B and the abstract).  Its figures are
#: missing from the text: only these numbers and the qualitative claims are known.
PAPER = {
    "machine": "AMD Ryzen 9 3900X (12 cores, 3.8 GHz), NVIDIA RTX 3090 (10496 CUDA cores, 1.70 GHz)",
    "morlet_n102400_sigma8192_ms": 0.545,
    "morlet_speedup_over_mct3": 413.6,
    "grids": "N = 100 .. 102400 at sigma = 16; sigma = 16 .. 8192 at N = 102400",
    "methods": "GDP6 (Gaussian, SFT, P = 6) and the Morlet direct method against GCT3 / MCT3 "
               "(truncated convolution on [-3 sigma, 3 sigma], parallel reduction on the GPU)",
    "claims": [
        "if N or sigma is large the proposed method has a clear advantage",
        "only when both N and sigma are small is the truncated convolution a little faster",
        "for large sigma the proposed method is much faster (its cost does not grow with sigma)",
    ],
}

#: File names of the figures, per transform.
FIGURES = {"gaussian": "timing_gaussian.png", "morlet": "timing_morlet.png"}

_ABBREV = {"gaussian": "GCT3", "morlet": "MCT3"}




# --------------------------------------------------------------------------- series


def available_series(engines: Sequence[str] | str | None = None, *, xi: float = XI,
                     dtype: Any = np.float32) -> tuple[list, dict[str, str]]:
    """The series that can run here for ``engines``, and ``{engine: reason}`` for those skipped.

    ``engines`` defaults to all of :data:`ENGINES`.  The engines ``'numba'``
    and ``'xp-numpy'`` share the scipy truncated convolution.  The CUDA
    simulator counts as a GPU only where ``engines`` names ``'cuda'``.  Each
    series is a :class:`sftwave_paper.series.Series`.

    Examples
    --------
    >>> series, skipped = available_series("numba")
    >>> [s.name for s in series], skipped
    (['sft-numba', 'trunc-scipy'], {})
    """
    return _available_series(engines, xi=xi, dtype=dtype)


# --------------------------------------------------------------------------- timing


def _sweep(series: list, kernel: str, points: list[tuple[int, float]], policy: Policy,
           xi: float, dtype: np.dtype, accuracy_at: set[tuple[int, float]],
           progress: Callable[[str], None]) -> tuple[dict, list[dict]]:
    """Time every series at every (n, sigma); accuracy where asked.  (results, accuracy rows).

    A series that fails at a point (an error of its library, say out of
    memory) gets None there and the error under ``errors``; the run goes on.
    """
    keys = ("first_s", "median_s", "min_s", "reps")
    results = {s.name: {**{k: [] for k in keys}, "errors": []} for s in series}
    plans = {k: [] for k in ("P", "orders", "length", "kernel_error", "tol")}
    acc_rows = []
    rng = np.random.default_rng(SEED)
    inputs: dict[int, np.ndarray] = {}
    for n, sigma in points:
        if n not in inputs:
            inputs[n] = rng.standard_normal(n).astype(dtype)
        x = inputs[n]
        plan = proposed_plan(kernel, sigma, n, xi)
        plans["P"].append(int(plan.info["P"]))
        plans["orders"].append(int(plan.omegas.size))
        plans["length"].append(int(plan.length))
        plans["kernel_error"].append(float(plan.error))
        plans["tol"].append(truncated_error(kernel, sigma, xi))
        want_acc = (n, sigma) in accuracy_at
        ref = exact_reference(x, kernel, sigma, xi) if want_acc else None
        measured: dict[str, float | None] = {}
        for s in series:
            res = results[s.name]
            try:
                handle = s.put(x)
                s.sync()
                r = time_calls(s.build(kernel, sigma, n), handle, sync=s.sync, policy=policy)
                if want_acc:
                    measured[s.name] = relative_rmse(s.get(r["output"]), ref)
            except Exception as exc:  # noqa: BLE001 - reported, and the other series go on
                message = f"{type(exc).__name__}: {exc}"[:500]
                res["errors"].append({"n": n, "sigma": sigma, "error": message})
                progress(f"  {s.name} failed at N = {n}, sigma = {sigma:g}: {message}")
                r = dict.fromkeys(keys)
                if want_acc:
                    measured[s.name] = None
            for k in keys:
                res[k].append(r[k])
            del r
        progress(f"  {kernel:8s} N = {n:6d}  sigma = {sigma:6g}: "
                 + ", ".join(f"{s.name} {_ms(results[s.name]['median_s'][-1])}" for s in series))
        if want_acc:
            acc_rows.append({"n": n, "sigma": sigma, "truncated_kernel_error": plans["tol"][-1],
                             "proposed_kernel_error": plans["kernel_error"][-1],
                             "proposed_orders": plans["orders"][-1], "measured": measured})
    return {"results": results, "plans": plans}, acc_rows


def _ms(seconds: float | None, width: int = 0) -> str:
    """Seconds as milliseconds (with unit unless in a column of ``width``), or 'failed'."""
    if seconds is None:
        text = "failed"
    else:
        text = f"{1e3 * seconds:.4g}" + ("" if width else " ms")
    return f"{text:>{width}}"


def _machine(series: list) -> dict:
    info: dict[str, Any] = {"platform": platform.platform(), "python": platform.python_version(),
                            "cpu_count": os.cpu_count()}
    with contextlib.suppress(OSError):
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            names = [ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")]
        if names:
            info["cpu_model"] = names[0]
    with contextlib.suppress(OSError):
        info["load_average_start"] = [round(v, 2) for v in os.getloadavg()]
    versions = {}
    for mod in ("numpy", "scipy", "numba", "torch", "numba_cuda", "array_api_compat"):
        m = sys.modules.get(mod)
        if m is not None:
            versions[mod] = str(getattr(m, "__version__", "?"))
    info["versions"] = versions
    info["numba_threads"] = sftwave.get_workers()
    if "torch" in sys.modules:
        info["torch_threads"] = int(sys.modules["torch"].get_num_threads())
    info["devices"] = sorted({s.device for s in series if s.device != "cpu"})
    return info


def compute(*, engines: Sequence[str] | str | None = None, quick: bool = False,
            n_grid: Sequence[int] | None = None, sigma_grid: Sequence[float] | None = None,
            sigma_fixed: float | None = None, n_fixed: int | None = None,
            kernels: Sequence[str] = KERNELS, xi: float = XI, dtype: Any = np.float32,
            threads: int | None = None, policy: Policy | None = None,
            progress: Callable[[str], None] | None = None) -> dict:
    """Run both sweeps for each kernel on every available series; the results as a dict.

    Parameters
    ----------
    engines : str or sequence of str, optional
        Engine groups (:data:`ENGINES`); default all, those that cannot run
        here skipped (``result["skipped"]`` says why).
    quick : bool
        The small grids (:data:`N_GRID_QUICK`, :data:`SIGMA_GRID_QUICK` at
        :data:`N_FIXED_QUICK`) and the quick repetition policy.
    n_grid, sigma_grid, sigma_fixed, n_fixed : optional
        Override the grids (tests).
    kernels : sequence of {'gaussian', 'morlet'}
    xi : float
        The Morlet wavelet's xi.
    dtype : {float32, float64}
        The input's dtype (float32 by default, as on a GPU).
    threads : int, optional
        CPU threads for numba and torch (-1: all cores); default: as they are
        (numba's and torch's defaults, all cores).  On a busy machine, one
        thread gives far steadier times: a parallel region waits for its
        slowest thread, which the other processes delay.
    policy : Policy, optional
        Repetitions; default :data:`FULL_POLICY` (:data:`QUICK_POLICY` with ``quick``).
    progress : callable, optional
        Called with a line of text after each point.

    Returns
    -------
    dict
        ``series`` (name -> description), ``skipped`` (engine -> reason),
        ``sweeps`` (kernel -> ``vs_n`` / ``vs_sigma`` -> grid, ``results``
        (series -> ``first_s``, ``median_s``, ``min_s``, ``reps`` lists) and
        ``plans`` (the proposed plan's ``P``, ``orders``, ``length``,
        ``kernel_error``, ``tol`` at each point)), ``accuracy`` (kernel -> rows
        with ``n``, ``sigma``, the kernel errors and ``measured`` relative
        RMSE per series), ``settings``, ``machine``.

    Raises
    ------
    ValueError
        An unknown engine or kernel, an empty or invalid grid, or no engine
        that can run here.
    """
    engines_checked = check_engines(engines)
    kernels = tuple(dict.fromkeys(check_kernel(k) for k in kernels))
    if not kernels:
        raise ValueError("kernels must name at least one of 'gaussian', 'morlet'; got none")
    dtype = check_dtype(dtype)
    xi = float(xi)
    if not (math.isfinite(xi) and xi > 0):
        raise ValueError(f"xi must be positive; got {xi!r}")
    n_grid = check_grid(n_grid if n_grid is not None else (N_GRID_QUICK if quick else N_GRID),
                         "n_grid", True)
    sigma_grid = check_grid(sigma_grid if sigma_grid is not None
                             else (SIGMA_GRID_QUICK if quick else SIGMA_GRID), "sigma_grid", False)
    sigma_fixed = check_sigma(SIGMA_FIXED if sigma_fixed is None else sigma_fixed)
    n_fixed = check_grid([N_FIXED_QUICK if quick else N_FIXED] if n_fixed is None else [n_fixed],
                          "n_fixed", True)[0]
    if "morlet" in kernels:
        worst = xi / min(min(sigma_grid), sigma_fixed)
        if worst > math.pi:
            raise ValueError(f"xi / sigma = {worst:.3g} exceeds Nyquist (pi): the smallest sigma "
                             f"must be above xi / pi = {xi / math.pi:.3g}")
    threads = check_workers(threads, "threads")
    policy = policy or (QUICK_POLICY if quick else FULL_POLICY)
    progress = progress or (lambda line: None)

    series, skipped = available_series(engines if engines is not None else None, xi=xi, dtype=dtype)
    if not series:
        raise ValueError(f"engines: none of {list(engines_checked)} can run here: "
                         + "; ".join(f"{e}: {why}" for e, why in skipped.items()))
    with _cpu_threads(threads):
        return _compute(series, skipped, engines_checked, kernels, xi, dtype, threads, policy,
                        progress, quick, n_grid, sigma_grid, sigma_fixed, n_fixed)


@contextlib.contextmanager
def _cpu_threads(threads: int | None):
    """numba's and (if imported) torch's thread counts set to ``threads`` (None: unchanged)."""
    torch = sys.modules.get("torch")
    previous = torch.get_num_threads() if torch is not None else None
    with sftwave.set_workers(threads) if threads is not None else contextlib.nullcontext():
        try:
            if threads is not None and torch is not None:
                torch.set_num_threads(threads)
            yield
        finally:
            if previous is not None:
                torch.set_num_threads(previous)


def _compute(series, skipped, engines_checked, kernels, xi, dtype, threads, policy, progress, quick,
             n_grid, sigma_grid, sigma_fixed, n_fixed) -> dict:
    machine = _machine(series)
    acc_sigmas = sorted({sigma_grid[0], sigma_grid[len(sigma_grid) // 2], sigma_grid[-1]})
    accuracy_at = {(n_fixed, s) for s in acc_sigmas}
    start = time.perf_counter()
    sweeps: dict = {}
    accuracy: dict = {}
    for kernel in kernels:
        vs_n, _ = _sweep(series, kernel, [(n, sigma_fixed) for n in n_grid], policy, xi, dtype,
                         set(), progress)
        vs_sigma, acc = _sweep(series, kernel, [(n_fixed, s) for s in sigma_grid], policy, xi,
                               dtype, accuracy_at, progress)
        sweeps[kernel] = {"vs_n": {"sigma": sigma_fixed, "n": list(n_grid), **vs_n},
                          "vs_sigma": {"n": n_fixed, "sigma": list(sigma_grid), **vs_sigma}}
        accuracy[kernel] = acc
    seconds = time.perf_counter() - start
    with contextlib.suppress(OSError):
        machine["load_average_end"] = [round(v, 2) for v in os.getloadavg()]
    return {
        "series": {s.name: s.describe() for s in series},
        "skipped": skipped,
        "sweeps": sweeps,
        "accuracy": accuracy,
        "settings": {
            "quick": bool(quick), "dtype": dtype.name, "xi": xi, "mode": MODE,
            "truncation_sigmas": TRUNC_SIGMAS, "kernels": list(kernels),
            "engines_requested": list(engines_checked), "threads": threads,
            "policy": {"max_reps": policy.max_reps, "min_reps": policy.min_reps,
                       "budget_s": policy.budget_s, "slow_s": policy.slow_s},
            "input": f"white noise, standard normal, seed {SEED}",
            "proposed": "SFT plan with kernel error <= the truncated kernel's (tightened for "
                        "lines shorter than the window, as the public functions do)",
            "accuracy": "relative RMSE of the whole output against the exact convolution "
                        "(float64, untruncated kernel, same boundary extension)",
            "seconds": round(seconds, 2),
        },
        "machine": machine,
    }


# --------------------------------------------------------------------------- summary


def _ratio_rows(data: dict, kernel: str) -> list[dict]:
    """Each proposed series against the truncated one on its library and device, at each sweep's end."""
    series = data["series"]
    out = []
    for sweep in ("vs_n", "vs_sigma"):
        sw = data["sweeps"][kernel][sweep]
        n = sw["n"] if sweep == "vs_sigma" else sw["n"][-1]
        sigma = sw["sigma"][-1] if sweep == "vs_sigma" else sw["sigma"]
        for name, desc in series.items():
            if desc["method"] != "proposed":
                continue
            trunc = next((t for t, d in series.items() if d["method"] == "truncated"
                          and (d["library"], d["device"]) == (desc["library"], desc["device"])), None)
            if trunc is None:
                continue
            p = sw["results"][name]["median_s"][-1]
            t = sw["results"][trunc]["median_s"][-1]
            if p is None or t is None:
                continue
            out.append({"kernel": kernel, "sweep": sweep, "n": n, "sigma": sigma, "proposed": name,
                        "truncated": trunc, "proposed_ms": 1e3 * p, "truncated_ms": 1e3 * t,
                        "speedup": t / p})
    return out


def summary(data: dict) -> dict:
    """Speed-ups at the last point of each sweep and the paper's headline beside ours."""
    rows = [r for k in data["sweeps"] for r in _ratio_rows(data, k)]
    return {"speedups": rows, "paper": PAPER}


def _format(data: dict) -> str:
    lines = []
    names = list(data["series"])
    for kernel, sw in data["sweeps"].items():
        for sweep, var, fixed in (("vs_n", "n", "sigma"), ("vs_sigma", "sigma", "n")):
            s = sw[sweep]
            lines.append(f"{kernel}: median time (ms) against {var} at {fixed} = {s[fixed]:g}; "
                         f"proposed orders {s['plans']['orders']}")
            head = f"{var:>8} " + " ".join(f"{nm:>18}" for nm in names)
            lines += [head, "-" * len(head)]
            for i, v in enumerate(s[var]):
                lines.append(f"{v:8g} " + " ".join(
                    _ms(s["results"][nm]["median_s"][i], 18) for nm in names))
            lines.append("")
        for row in data["accuracy"].get(kernel, []):
            lines.append(f"{kernel} accuracy at N = {row['n']}, sigma = {row['sigma']:g}: kernel "
                         f"error truncated {row['truncated_kernel_error']:.3g}, proposed "
                         f"{row['proposed_kernel_error']:.3g}; measured "
                         + ", ".join(f"{k} {v:.3g}" if v is not None else f"{k} failed"
                                     for k, v in row["measured"].items()))
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- figures


def _style(desc: dict, engines: list[str]) -> dict:
    color = f"C{engines.index(desc['engine']) % 10}"
    if desc["method"] == "proposed":
        return {"color": color, "ls": "-", "marker": "o", "ms": 4}
    return {"color": color, "ls": "--", "marker": "s", "ms": 4, "mfc": "none"}


def _as_float(values) -> np.ndarray:
    """A list with None (failed points) as a float array with NaN there."""
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def write_figures(data: dict, outdir: str | os.PathLike = ".") -> list[Path]:
    """One PNG per transform in the paper's layout; returns their paths.

    Panels: (a) time against N (log axes), (b) its first half on linear axes
    ("magnified horizontal scale"), (c) time against sigma (log axes), (d) the
    same on linear axes with the vertical scale cut to the proposed methods'
    times ("magnified vertical scale").  Needs matplotlib (the Agg canvas,
    without pyplot).
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    outdir = Path(outdir)
    engines = list(dict.fromkeys(d["engine"] for d in data["series"].values()))
    dev = ", ".join(data["machine"].get("devices") or []) or data["machine"].get("cpu_model", "CPU")
    paths = []
    for kernel, sw in data["sweeps"].items():
        fig = Figure(figsize=(12, 9), layout="constrained")
        axes = fig.subplots(2, 2)
        vs_n, vs_s = sw["vs_n"], sw["vs_sigma"]
        n = np.asarray(vs_n["n"], dtype=float)
        s = np.asarray(vs_s["sigma"], dtype=float)
        half = max(2, (len(n) + 1) // 2)
        prop_max = 0.0
        for name, desc in data["series"].items():
            label = desc["label"].replace("truncated", _ABBREV[kernel])
            st = _style(desc, engines)
            tn = 1e3 * _as_float(vs_n["results"][name]["median_s"])
            ts = 1e3 * _as_float(vs_s["results"][name]["median_s"])
            axes[0, 0].loglog(n, tn, label=label, **st)
            axes[0, 1].plot(n[:half], tn[:half], label=label, **st)
            axes[1, 0].loglog(s, ts, label=label, **st)
            axes[1, 1].plot(s, ts, label=label, **st)
            if desc["method"] == "proposed" and np.isfinite(ts).any():
                prop_max = max(prop_max, float(np.nanmax(ts)))
        if prop_max > 0:
            axes[1, 1].set_ylim(0, 1.15 * prop_max)
        titles = [f"(a) time against N ($\\sigma$ = {vs_n['sigma']:g})",
                  "(b) magnified horizontal scale of (a)",
                  f"(c) time against $\\sigma$ (N = {vs_s['n']})",
                  "(d) magnified vertical scale of (c)"]
        for ax, title in zip(axes.flat, titles):
            ax.set_title(title, fontsize=10)
            ax.set_ylabel("time (ms), median")
            ax.grid(True, which="both", alpha=0.3)
        for ax in axes[0]:
            ax.set_xlabel("N")
        for ax in axes[1]:
            ax.set_xlabel(r"$\sigma$")
        axes[1, 0].set_xscale("log", base=2)
        axes[1, 0].xaxis.set_major_formatter(ScalarFormatter())
        axes[1, 0].xaxis.set_minor_formatter(NullFormatter())
        axes[0, 0].legend(fontsize=7)
        what = "Gaussian smoothing" if kernel == "gaussian" else \
            f"Morlet wavelet transform ($\\xi$ = {data['settings']['xi']:g})"
        fig.suptitle(f"Computation time of {what}: SFT against truncated convolution "
                     f"{_ABBREV[kernel]} ({data['settings']['dtype']}); {dev}"
                     + (" [quick]" if data["settings"]["quick"] else ""), fontsize=10)
        path = outdir / FIGURES[kernel]
        save_png_atomic(fig, path)
        paths.append(path)
    return paths


# --------------------------------------------------------------------------- main


def main(json_path: str | os.PathLike | None = None, outdir: str | os.PathLike = ".",
         quick: bool = False, engines: Sequence[str] | str | None = None,
         dtype: str = "float32", threads: int | None = None) -> int:
    """Run the timing experiment, print the tables, write the figures (and JSON).

    Parameters
    ----------
    json_path : path, optional
        Where to write everything :func:`compute` returns plus ``summary``
        (speed-ups and the paper's numbers).  Written atomically.
    outdir : path
        Folder for the PNG figures (default: the current one).
    quick : bool
        Small grids, few repetitions (seconds).
    engines : str or sequence of str, optional
        Engine groups to run (:data:`ENGINES`); default all that can run here.
    dtype : {'float32', 'float64'}
        The input's dtype.
    threads : int, optional
        CPU threads for numba and torch (see :func:`compute`).

    Returns
    -------
    int
        0; 1 if a file cannot be written, matplotlib is missing, or no engine
        can run.

    Raises
    ------
    ValueError
        An unknown engine or dtype name.
    """
    check_engines(engines)
    check_dtype(dtype)
    check_workers(threads, "threads")
    try:
        data = compute(engines=engines, quick=quick, dtype=dtype, threads=threads,
                       progress=lambda line: print(line, flush=True))
    except ValueError as exc:
        if str(exc).startswith("engines: none of"):
            print(f"error: {exc}", file=sys.stderr)
            return 1
        raise
    data["summary"] = summary(data)

    print()
    for engine, why in data["skipped"].items():
        print(f"skipped engine {engine!r}: {why}")
    print(_format(data))
    for r in data["summary"]["speedups"]:
        print(f"{r['kernel']:8s} N = {r['n']:6d} sigma = {r['sigma']:6g}: {r['proposed']} "
              f"{r['proposed_ms']:.4g} ms, {r['truncated']} {r['truncated_ms']:.4g} ms: "
              f"{r['speedup']:.3g}x")
    print(f"paper (RTX 3090): Morlet, N = 102400, sigma = 8192: "
          f"{PAPER['morlet_n102400_sigma8192_ms']} ms, {PAPER['morlet_speedup_over_mct3']}x faster "
          f"than MCT3")
    print(f"\ncomputed in {data['settings']['seconds']:.1f} s")

    status = write_figures_reporting(write_figures, data, outdir)
    if json_path is not None and write_json_reporting(json_path, data):
        return 1
    return status
