"""The Morlet CWT: sftwave against fCWT, ssqueezepy, PyWavelets, pycwt and MNE; the users' workloads.

:func:`cwt`: every tool computes the same scalogram: a random walk of ``n``
samples (float32 where the tool takes it), ``nfreq`` log-spaced frequencies
from 1 to 100 Hz at fs = 1 kHz (fCWT's own log-spaced grid, which every tool
is then given), Morlet wavelets with xi = 6 radians per standard deviation
(MNE's ``n_cycles=6``; fCWT's ``Morlet(6 / 2 pi)``; ssqueezepy's ``mu=6``;
PyWavelets' ``cmor2-0.955``; pycwt's ``Morlet(6)`` at the scales of the same
standard deviations).  Times are medians over repetitions after one untimed
warm-up call (plans, FFTW plans and numba compilation excluded;
:func:`cwt_first_call` measures those separately, in fresh processes, with the
peak memory).

Accuracy: each tool's rows against the exact transform *of the definition
that tool implements* (the conventions differ, and a tool is judged on what it
claims to compute):

========== ========================= =================================================
tool       boundary                  wavelet
========== ========================= =================================================
sftwave    scipy 'reflect'           zero-mean Morlet (kappa subtracted)
MNE        zeros                     zero-mean Morlet (``zero_mean=True``)
fCWT       zeros                     Gaussian-windowed carrier (no kappa)
PyWavelets zeros                     Gaussian-windowed carrier (no kappa)
pycwt      zeros (to a power of 2)   Gaussian-windowed carrier (no kappa)
ssqueezepy numpy 'reflect'           zero-mean (its analytic Morlet, kappa subtracted)
========== ========================= =================================================

The exact transform is a float64 FFT convolution with the sampled wavelet
over |k| <= 13 sigma.  Each row is first scaled by the complex number that
best fits it to the reference (least squares), since the tools normalise
their wavelets differently (L1, L2, sqrt(2)); the error is then the row's
relative RMSE, and a tool's figure is its worst row.  sftwave's error is also
given without that fit (its normalisation is the exact one).  Rows checked:
about 21, evenly spread over the frequencies, the first and last included.

The users' workloads (:func:`first_scalogram`, :func:`eeg`,
:func:`long_signal`, :func:`audio`, :func:`design`) run every tool in the
same run with the calls alternating (:func:`~.common.alternate`); the first
scalogram is whole fresh processes.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from functools import partial

import numpy as np
import scipy.signal

import sftwave
from sftwave.engines.numba.scalogram import ENGINE_MIN_LANES

from .common import alternate, anchor, have, load_average, seconds_once, timed_s

XI = 6.0
FS = 1000.0
F_LO, F_HI = 1.0, 100.0
SUPPORT = 13.0  # sigmas of wavelet kept in the exact reference (envelope < exp(-84))


# ----------------------------------------------------------------------------- helpers


def signal(n: int) -> np.ndarray:
    """A random walk (a 1/f^2 spectrum, as EEG and climate series roughly have), float64."""
    return np.cumsum(np.random.default_rng(0).standard_normal(n))


def frequencies(nfreq: int) -> np.ndarray:
    """fCWT's log-spaced grid from 1 to 100 Hz (so fCWT gets exactly its own scales)."""
    fcwt = anchor("fCWT")
    if fcwt is None:
        return np.geomspace(F_LO, F_HI, nfreq)
    sc = fcwt.Scales(fcwt.Morlet(XI / (2 * math.pi)), fcwt.FCWT_LOGSCALES, int(FS), F_LO, F_HI,
                     nfreq)
    f = np.zeros(nfreq, np.float32)
    sc.getFrequencies(f)
    return np.sort(f.astype(np.float64))


def exact_rows(x: np.ndarray, sigmas: np.ndarray, rows: list[int], *, kappa: bool,
               pad: str) -> dict[int, np.ndarray]:
    """The exact transform's rows: FFT convolution with the sampled wavelet, |k| <= 13 sigma.

    ``pad`` is numpy's pad mode ('symmetric' is scipy's 'reflect', 'reflect'
    is scipy's 'mirror', 'constant' zeros).  Amplitude 1 (rows are fitted).
    """
    x = np.asarray(x, dtype=np.float64)
    k0 = math.exp(-0.5 * XI * XI) if kappa else 0.0
    out = {}
    for i in rows:
        s = float(sigmas[i])
        m = math.ceil(SUPPORT * s)
        u = np.arange(-m, m + 1) / s
        psi = np.exp(-0.5 * u * u) * (np.exp(1j * XI * u) - k0)
        xp = np.pad(x, (m, m), mode=pad)
        out[i] = scipy.signal.fftconvolve(xp, psi, mode="valid")
    return out


def row_errors(y: np.ndarray, ref: dict[int, np.ndarray], *, fit: bool = True,
               amplitude=None) -> dict[int, float]:
    """Relative RMSE of each checked row (after the best complex scale when ``fit``)."""
    errs = {}
    for i, r in ref.items():
        yi = np.asarray(y[i], dtype=np.complex128)
        if fit:
            yi = yi * (np.vdot(yi, r) / np.vdot(yi, yi))
        else:
            yi = yi / amplitude(i)
        errs[i] = float(np.linalg.norm(yi - r) / np.linalg.norm(r))
    return errs


def summary(errs: dict[int, float], freqs: np.ndarray) -> dict:
    worst = max(errs, key=errs.get)
    return {"worst_row_rel_rmse": errs[worst], "worst_row_freq_hz": float(freqs[worst]),
            "median_row_rel_rmse": statistics.median(errs.values())}


# ----------------------------------------------------------------------------- the tools


def _sftwave_amplitude(sigmas):
    C = 1.0 / math.sqrt(1.0 + math.exp(-XI * XI) - 2.0 * math.exp(-0.75 * XI * XI))
    return lambda i: C / (math.pi**0.25 * math.sqrt(float(sigmas[i])))


def tools(x: np.ndarray, freqs: np.ndarray) -> list[dict]:
    """The calls to time, each with the definition its accuracy is judged against."""
    n, F = x.size, freqs.size
    x32 = x.astype(np.float32)
    sig = XI * FS / (2 * math.pi * freqs)
    entries = []

    def add(name, call, definition, dtype, notes=""):
        entries.append({"name": name, "call": call, "definition": definition, "dtype": dtype,
                        "notes": notes})

    out32 = np.empty((F, n), np.complex64)
    add("sftwave complex64", lambda: sftwave.cwt(x32, freqs, FS), "sftwave", "complex64",
        "default tol (every row <= 1e-3); fresh output")
    add("sftwave complex64 out=", lambda: sftwave.cwt(x32, freqs, FS, out=out32), "sftwave",
        "complex64", "default tol; output reused (out=)")
    add("sftwave complex128", lambda: sftwave.cwt(x, freqs, FS), "sftwave", "complex128",
        "default tol; fresh output")
    fcwt = anchor("fCWT")
    if fcwt is not None:
        threads = os.cpu_count() or 1
        morl = fcwt.Morlet(XI / (2 * math.pi))
        scales = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(FS), F_LO, F_HI, F)
        obj = fcwt.FCWT(morl, threads, False, True)
        buf = np.zeros((F, n), np.complex64)

        keep = (morl, scales, obj)  # SWIG objects: the C++ side points at the wavelet

        def fcwt_reused():
            _, scales, obj = keep
            obj.cwt(x32, scales, buf)
            return buf[::-1]  # fCWT's rows run from high to low frequency

        def fcwt_fresh():
            _, scales, obj = keep
            b = np.zeros((F, n), np.complex64)
            obj.cwt(x32, scales, b)
            return b[::-1]

        add("fCWT complex64 reused", fcwt_reused, "fcwt", "complex64",
            f"object and output reused, {threads} threads, FFTW_ESTIMATE plans")
        add("fCWT complex64", fcwt_fresh, "fcwt", "complex64",
            f"object reused, fresh output, {threads} threads")
    os.environ.setdefault("SSQ_PARALLEL", "1")
    ssqueezepy = anchor("ssqueezepy")
    if ssqueezepy is not None:
        asc = np.ascontiguousarray(sig[::-1], dtype=np.float32)  # it wants scales low to high

        def ssq():
            W, _ = ssqueezepy.cwt(x32, wavelet=("morlet", {"mu": XI}), scales=asc, fs=FS)
            return np.asarray(W)[::-1]

        add("ssqueezepy complex64", ssq, "ssqueezepy", "complex64", "SSQ_PARALLEL=1")
    pywt = anchor("PyWavelets")
    if pywt is not None:
        wav = pywt.ContinuousWavelet(f"cmor2-{XI / (2 * math.pi):.15g}")
        # cmorB-C: exp(-t^2 / B) exp(2 pi i C t); B = 2 makes sigma = the scale in samples
        add("PyWavelets complex128", lambda: pywt.cwt(x, sig, wav, method="fft")[0], "pywt",
            "complex128", "method='fft'")
    pycwt = anchor("pycwt")
    if pycwt is not None:
        from pycwt.helpers import fft_kwargs

        mother = pycwt.Morlet(XI)
        # scales sig / FS seconds: pycwt's scale is the Gaussian's standard deviation
        pfreqs = 1.0 / (mother.flambda() * sig / FS)
        padded = fft_kwargs(x).get("n", n) > n

        add("pycwt complex128", lambda: pycwt.cwt(x, 1.0 / FS, wavelet=mother, freqs=pfreqs)[0],
            "pycwt" if padded else "pycwt-wrap", "complex128",
            "FFT, zero padding to the next power of 2" if padded else "FFT, circular")
    if anchor("MNE") is not None:
        from mne.time_frequency import tfr_array_morlet

        data = x[None, None]
        add("MNE complex128",
            lambda: tfr_array_morlet(data, FS, freqs, n_cycles=XI, output="complex",
                                     zero_mean=True, use_fft=True, n_jobs=1, verbose=False)[0, 0],
            "mne", "complex128", "tfr_array_morlet, use_fft=True, n_jobs=1")
    return entries


DEFINITIONS = {  # (kappa subtracted, numpy pad mode)
    "sftwave": (True, "symmetric"),
    "mne": (True, "constant"),
    "fcwt": (False, "constant"),
    "pywt": (False, "constant"),
    "ssqueezepy": (True, "reflect"),
    "pycwt": (False, "constant"),      # zero padded to a power of 2, then circular: zeros
    "pycwt-wrap": (False, "wrap"),     # (where the length is already a power of 2)
}

MATCH_TOLS = (1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6)


def floors(shape: tuple[int, int], repeats: int) -> dict:
    """Writing a complex64 output of the scalogram's size: fresh, reused, and a memcpy."""
    buf = np.empty(shape, np.complex64)
    buf.fill(1)
    other = np.empty_like(buf)
    other.fill(2)

    def fresh():
        a = np.empty(shape, np.complex64)
        a.fill(1)
        return a

    t_fresh, _ = timed_s(fresh, repeats=repeats)
    t_reuse, _ = timed_s(lambda: buf.fill(1), repeats=repeats)
    t_copy, _ = timed_s(lambda: np.copyto(other, buf), repeats=repeats)
    return {"fill_fresh_complex64_s": t_fresh["median_s"],
            "fill_reused_complex64_s": t_reuse["median_s"],
            "memcpy_complex64_s": t_copy["median_s"],
            "note": "numpy, one thread"}


def cwt_case(n: int, nfreq: int, quick: bool) -> dict:
    """One workload: every tool timed and checked in the same run."""
    x = signal(n)
    freqs = frequencies(nfreq)
    sig = XI * FS / (2 * math.pi * freqs)
    step = max(1, round(nfreq / 20))
    rows = sorted(set(range(0, nfreq, step)) | {nfreq - 1})
    refs = {name: exact_rows(x.astype(np.float32).astype(np.float64), sig, rows,
                             kappa=k, pad=p)
            for name, (k, p) in DEFINITIONS.items()}
    fast_reps, slow_reps = (3, 1) if quick else (11, 3)
    res = {"n": n, "nfreq": nfreq, "fs": FS, "xi": XI, "freq_range_hz": [F_LO, F_HI],
           "signal": "random walk, cumsum of standard normal noise, seed 0",
           "rows_checked": len(rows), "numba_threads": sftwave.get_workers(),
           "floor": floors((nfreq, n), fast_reps), "tools": []}
    for t in tools(x, freqs):
        slow = t["definition"] in ("pywt", "mne", "ssqueezepy", "pycwt", "pycwt-wrap")
        timing, y = timed_s(t["call"], repeats=slow_reps if slow else fast_reps)
        errs = row_errors(y, refs[t["definition"]])
        row = {"name": t["name"], "dtype": t["dtype"], "notes": t["notes"],
               "definition": t["definition"], "time": timing, **summary(errs, freqs)}
        if t["definition"] == "sftwave":
            raw = row_errors(y, refs["sftwave"], fit=False, amplitude=_sftwave_amplitude(sig))
            row["worst_row_rel_rmse_unfitted"] = max(raw.values())
        res["tools"].append(row)
        del y
    by = {r["name"]: r for r in res["tools"]}
    # sftwave at the loosest tol whose worst row is no worse than fCWT's, in this run
    if "fCWT complex64 reused" in by:
        target = by["fCWT complex64 reused"]["worst_row_rel_rmse"]
        x32 = x.astype(np.float32)
        out32 = np.empty((nfreq, n), np.complex64)
        tried = []
        for tol in MATCH_TOLS:
            y = sftwave.cwt(x32, freqs, FS, tol=tol, out=out32)
            worst = max(row_errors(y, refs["sftwave"]).values())
            tried.append({"tol": tol, "worst_row_rel_rmse": worst})
            if worst <= target:
                fresh, _ = timed_s(lambda tol=tol: sftwave.cwt(x32, freqs, FS, tol=tol),
                                   repeats=fast_reps)
                reused, _ = timed_s(lambda tol=tol: sftwave.cwt(x32, freqs, FS, tol=tol,
                                                                out=out32), repeats=fast_reps)
                res["matched_accuracy"] = {"fcwt_worst_row": target, "tol": tol,
                                           "worst_row_rel_rmse": worst, "time_fresh": fresh,
                                           "time_reused": reused}
                break
        res["matched_accuracy_search"] = tried
    return res


def cwt(quick: bool) -> dict:
    """The two CWT workloads of the performance targets (N = 1e5, 200 freqs; N = 1e6, 50 freqs)."""
    cases = [(20_000, 40), (100_000, 10)] if quick else [(100_000, 200), (1_000_000, 50)]
    return {"cases": [cwt_case(n, F, quick) for n, F in cases]}


# ----------------------------------------------------------------------------- first call, memory


_PROBE = r"""
import json, os, resource, sys, time
t0 = time.perf_counter()
import numpy as np
tool = sys.argv[1]; n = int(sys.argv[2]); F = int(sys.argv[3])
fs, xi = 1000.0, 6.0
x = np.cumsum(np.random.default_rng(0).standard_normal(n))
x32 = x.astype(np.float32)
freqs = np.geomspace(1.0, 100.0, F)
sig = xi * fs / (2 * np.pi * freqs)
if tool == "sftwave":
    import sftwave
    call = lambda: sftwave.cwt(x32, freqs, fs)
elif tool == "fcwt":
    import fcwt
    morl = fcwt.Morlet(xi / (2 * np.pi))
    sc = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(fs), 1.0, 100.0, F)
    obj = fcwt.FCWT(morl, os.cpu_count(), False, True)
    def call():
        b = np.zeros((F, n), np.complex64); obj.cwt(x32, sc, b); return b
elif tool == "ssqueezepy":
    os.environ["SSQ_PARALLEL"] = "1"
    import ssqueezepy
    asc = np.ascontiguousarray(sig[::-1], dtype=np.float32)
    call = lambda: ssqueezepy.cwt(x32, wavelet=("morlet", {"mu": xi}), scales=asc, fs=fs)[0]
elif tool == "pywt":
    import pywt
    wav = pywt.ContinuousWavelet(f"cmor2-{xi / (2 * np.pi):.15g}")
    call = lambda: pywt.cwt(x, sig, wav, method="fft")[0]
elif tool == "pycwt":
    import pycwt
    mother = pycwt.Morlet(xi)
    pfreqs = 1.0 / (mother.flambda() * sig / fs)
    call = lambda: pycwt.cwt(x, 1.0 / fs, wavelet=mother, freqs=pfreqs)[0]
elif tool == "mne":
    from mne.time_frequency import tfr_array_morlet
    call = lambda: tfr_array_morlet(x[None, None], fs, freqs, n_cycles=xi, output="complex",
                                    n_jobs=1, verbose=False)
def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))
try:  # reset the peak (VmHWM) to the current resident size (Linux >= 4.0)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    base, peak_of = status("VmRSS"), lambda: status("VmHWM")
except OSError:
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_of = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t1 = time.perf_counter()
y = call()
t2 = time.perf_counter()
peak = peak_of()
del y
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    base2 = status("VmRSS")
except OSError:
    base2 = None
t3 = time.perf_counter(); y = call(); t4 = time.perf_counter()
peak2 = peak_of()
print(json.dumps({"import_and_setup_s": t1 - t0, "first_call_s": t2 - t1, "second_call_s": t4 - t3,
                  "peak_rss_increase_mib": (peak - base) / 1024.0,
                  "second_call_peak_rss_increase_mib":
                      None if base2 is None else (peak2 - base2) / 1024.0}))
"""


def cwt_first_call(quick: bool) -> dict:
    """First and second call in fresh processes; peak memory of the first call.

    sftwave runs twice with the same new, empty numba and plan caches: 'cold'
    compiles every kernel and designs every plan, 'cached' loads both.  The
    peak memory is the growth of the process's peak resident size during the
    first call (the output itself is ``8 * nfreq * n`` bytes in complex64).
    """
    n, F = (20_000, 40) if quick else (100_000, 200)
    res = {"n": n, "nfreq": F, "output_mib_complex64": 8 * n * F / 2**20, "tools": {}}
    with tempfile.TemporaryDirectory(prefix="sftwave-bench-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(cache, "numba"),
                   SFTWAVE_CACHE_DIR=os.path.join(cache, "plans"))
        runs = [("sftwave cold", "sftwave"), ("sftwave cached", "sftwave"),
                ("fCWT", "fcwt"), ("ssqueezepy", "ssqueezepy"), ("PyWavelets", "pywt"),
                ("pycwt", "pycwt"), ("MNE", "mne")]
        for label, tool in runs:
            if tool != "sftwave" and not have(label):
                continue
            proc = subprocess.run([sys.executable, "-c", _PROBE, tool, str(n), str(F)], env=env,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                res["tools"][label] = {"error": proc.stderr.strip().splitlines()[-1:]}
                continue
            res["tools"][label] = json.loads(proc.stdout.strip().splitlines()[-1])
    return res


def few_scales(quick: bool) -> dict:
    """The lane engine against the bank line by line, for few lines times scales.

    ``cwt``'s 'auto' runs fewer than ``ENGINE_MIN_LANES`` lanes
    (:mod:`sftwave.engines.numba.scalogram`) line by line ('iir1-2k'), the rest
    on the lane engine ('iir1'); this measures where the two cross (float32,
    one line).
    """
    n = 20_000 if quick else 102_400
    x = signal(n).astype(np.float32)
    reps = 3 if quick else 9
    rows = []
    for F in (1, 2, 4, 6, 8, 16, 32):
        freqs = np.geomspace(5.0, 100.0, F)
        row = {"scales": F}
        for label, bm in (("engine", "iir1"), ("line_by_line", "iir1-2k")):
            t, _ = timed_s(partial(sftwave.cwt, x, freqs, FS, bank_method=bm), repeats=reps)
            row[label] = t
        rows.append(row)
    return {"n": n, "engine_min_lanes": ENGINE_MIN_LANES, "rows": rows}


# ----------------------------------------------------------------------------- the first scalogram

_SCRIPT = {
    "sftwave": "import sftwave\ny = sftwave.cwt(x, freqs, fs)",
    "fCWT": ("import fcwt\nmorl = fcwt.Morlet(xi / (2 * np.pi))\n"
             "sc = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(fs), 1.0, 100.0, F)\n"
             "obj = fcwt.FCWT(morl, os.cpu_count(), False, True)\n"
             "y = np.zeros((F, n), np.complex64); obj.cwt(x, sc, y)"),
    "MNE": ("from mne.time_frequency import tfr_array_morlet\n"
            "y = tfr_array_morlet(x[None, None], fs, freqs, n_cycles=xi, output='complex', "
            "n_jobs=1, verbose=False)"),
    "PyWavelets": ("import pywt\nwav = pywt.ContinuousWavelet(f'cmor2-{xi / (2 * np.pi):.15g}')\n"
                   "y = pywt.cwt(x, xi * fs / (2 * np.pi * freqs), wav, method='fft')[0]"),
}

_PREAMBLE = """import os, sys, time, json
t0 = time.perf_counter()
import numpy as np
n, F, fs, xi = {n}, {F}, 1000.0, 6.0
x = np.cumsum(np.random.default_rng(0).standard_normal(n)).astype(np.float32)
freqs = np.geomspace(1.0, 100.0, F)
t1 = time.perf_counter()
"""
_POSTAMBLE = """
t2 = time.perf_counter()
print(json.dumps({{"setup_s": t1 - t0, "import_and_first_call_s": t2 - t1}}))
"""


def _process(tool: str, n: int, F: int, env: dict) -> dict:
    code = _PREAMBLE.format(n=n, F=F) + _SCRIPT[tool] + _POSTAMBLE.format()
    wall, proc = seconds_once(lambda: subprocess.run([sys.executable, "-c", code], env=env,
                                                     capture_output=True, text=True))
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    inner = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"process_s": wall, **inner}


def first_scalogram(quick: bool) -> dict:
    """A script's first scalogram: whole fresh processes, wall time from start to exit.

    ``python -c "...; TOOL's cwt(x, freqs)"``, N = 1e5 float32, 200
    frequencies, with empty caches ('cold': numba's and sftwave's in a new
    folder) and filled ones ('warm'), against the same script with fCWT, MNE
    and PyWavelets; the tools take turns over the rounds.
    """
    n, F = (20_000, 40) if quick else (100_000, 200)
    rounds = 2 if quick else 5
    res: dict = {"n": n, "nfreq": F, "rounds": rounds, "load_start": load_average()}
    tools = [t for t in _SCRIPT if t == "sftwave" or have(t)]
    with tempfile.TemporaryDirectory(prefix="sftwave-workloads-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                   SFTWAVE_CACHE_DIR=os.path.join(tmp, "plans"))
        res["sftwave_cold"] = _process("sftwave", n, F, env)          # fills both caches
        runs: dict = {t: [] for t in tools}
        for r in range(rounds):
            order = tools[r % len(tools):] + tools[:r % len(tools)]
            for t in order:
                runs[t].append(_process(t, n, F, env))
    res["warm"] = {}
    for t, rs in runs.items():
        ok = [r for r in rs if "error" not in r]
        if not ok:
            res["warm"][t] = {"error": rs[0]["error"]}
            continue
        res["warm"][t] = {k: statistics.median(r[k] for r in ok)
                          for k in ("process_s", "setup_s", "import_and_first_call_s")}
    res["load_end"] = load_average()
    return res


def _fcwt(xi: float, fs: float, f_lo: float, f_hi: float, F: int):
    """fCWT on every CPU at F log-spaced frequencies: ``run(x, out)`` fills and returns ``out``.

    The Morlet, scales and plan objects are kept alive together (SWIG objects:
    the C++ side points at the wavelet).
    """
    fcwt = anchor("fCWT")
    morl = fcwt.Morlet(xi / (2 * np.pi))
    scales = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(fs), f_lo, f_hi, F)
    obj = fcwt.FCWT(morl, os.cpu_count() or 1, False, True)

    def run(x, out, keep=(morl, scales, obj)):
        keep[2].cwt(x, keep[1], out)
        return out

    return run


# ----------------------------------------------------------------------------- EEG epochs


def eeg(quick: bool) -> dict:
    """EEG epochs, ``output='power'``, ``decim=4``, n_cycles 7 and freqs / 2, against MNE.

    60 x 32 x 1000 samples at 250 Hz, 37 frequencies 4..40 Hz; sftwave's
    ``workers`` and MNE's ``n_jobs`` set to 1 and to 2.
    """
    shape = (6, 8, 1000) if quick else (60, 32, 1000)
    fs, freqs, decim = 250.0, np.arange(4.0, 41.0), 4
    x = np.cumsum(np.random.default_rng(1).standard_normal(shape), axis=-1)
    res: dict = {"shape": list(shape), "fs": fs, "nfreq": freqs.size, "decim": decim,
                 "load_start": load_average(), "cases": []}
    have_mne = have("MNE")
    if have_mne:
        from mne.time_frequency import tfr_array_morlet
    for label, n_cycles in (("n_cycles=7", 7.0), ("n_cycles=freqs/2", freqs / 2.0)):
        for threads in (1, 2):
            calls = {"sftwave": partial(sftwave.cwt, x, freqs, fs, xi=n_cycles, output="power",
                                        decim=decim, workers=threads)}
            if have_mne:
                calls["MNE"] = partial(tfr_array_morlet, x, fs, freqs, n_cycles=n_cycles,
                                       output="power", decim=decim, n_jobs=threads, verbose=False)
            t = alternate(calls, 2 if quick else 3)
            case = {"n_cycles": label, "threads": threads, "times": t}
            if have_mne:
                case["mne_over_sftwave"] = t["MNE"]["median_s"] / t["sftwave"]["median_s"]
            res["cases"].append(case)
    # the same samples as one continuous line per channel
    cont = np.ascontiguousarray(np.moveaxis(x, 0, 1).reshape(shape[1], -1))
    t = alternate({"sftwave": lambda: sftwave.cwt(cont, freqs, fs, xi=7.0, output="power",
                                                  decim=decim, workers=1)}, 2 if quick else 3)
    res["continuous_one_thread_s"] = t["sftwave"]["median_s"]
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- long signal


def long_signal(quick: bool) -> dict:
    """N = 1e5 float32, 200 frequencies, complex64: fresh output and ``out=`` against fCWT and the floor."""
    n, F = (20_000, 40) if quick else (100_000, 200)
    fs, xi = 1000.0, 6.0
    x = np.cumsum(np.random.default_rng(0).standard_normal(n)).astype(np.float32)
    freqs = np.geomspace(1.0, 100.0, F)
    out = np.empty((F, n), np.complex64)
    calls = {"sftwave fresh output": lambda: sftwave.cwt(x, freqs, fs, xi=xi),
             "sftwave out=": lambda: sftwave.cwt(x, freqs, fs, xi=xi, out=out),
             "floor: fresh output written once": lambda: np.ones((F, n), np.complex64),
             "floor: existing output written once": lambda: out.fill(1.0)}
    if have("fCWT"):
        run = _fcwt(xi, fs, 1.0, 100.0, F)
        buf = np.zeros((F, n), np.complex64)
        calls["fCWT fresh output"] = lambda: run(x, np.zeros((F, n), np.complex64))
        calls["fCWT output reused"] = lambda: run(x, buf)
    res = {"n": n, "nfreq": F, "load_start": load_average(),
           "times": alternate(calls, 3 if quick else 7)}
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- audio


def audio(quick: bool) -> dict:
    """10 s at 44.1 kHz, 200 frequencies 20 Hz..20 kHz, power at 100 frames per second.

    sftwave with ``decim=441`` against fCWT and ssqueezepy, which compute every
    sample and are decimated after.
    """
    fs, seconds, F, decim = 44100.0, (1.0 if quick else 10.0), (50 if quick else 200), 441
    n = int(fs * seconds)
    rng = np.random.default_rng(2)
    t = np.arange(n) / fs
    x = (np.sin(2 * np.pi * 440.0 * t) + 0.3 * rng.standard_normal(n)).astype(np.float32)
    freqs = np.geomspace(20.0, 20000.0, F)
    xi = 6.0
    calls = {"sftwave": lambda: sftwave.cwt(x, freqs, fs, xi=xi, output="power", decim=decim)}
    if have("fCWT"):
        run = _fcwt(xi, fs, 20.0, 20000.0, F)
        buf = np.zeros((F, n), np.complex64)

        def f():
            v = run(x, buf)[:, ::decim]
            return v.real**2 + v.imag**2

        calls["fCWT (then power of every 441st)"] = f
    os.environ.setdefault("SSQ_PARALLEL", "1")
    ssqueezepy = anchor("ssqueezepy")
    if ssqueezepy is not None:
        scales = np.ascontiguousarray((xi * fs / (2 * np.pi * freqs))[::-1], dtype=np.float32)

        def s():
            W, _ = ssqueezepy.cwt(x, wavelet=("morlet", {"mu": xi}), scales=scales, fs=fs)
            v = np.asarray(W)[:, ::decim]
            return v.real**2 + v.imag**2

        calls["ssqueezepy (then power of every 441st)"] = s
    res = {"n": n, "fs": fs, "nfreq": F, "decim": decim, "load_start": load_average(),
           "times": alternate(calls, 2 if quick else 3)}
    base = res["times"]["sftwave"]["median_s"]
    res["over_sftwave"] = {k: v["median_s"] / base for k, v in res["times"].items()}
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- plan design

_DESIGN = """import json, time, numpy as np
t0 = time.perf_counter()
import sftwave
from sftwave.plans.select import select_morlet
from sftwave.engines import get
cost = get("numba").fir_taps_per_order()
t1 = time.perf_counter()
xi = {xi}
freqs = np.geomspace(1.0, 100.0, 200)
for f in freqs:
    select_morlet(float(xi * 1000.0 / (2 * np.pi * f)), xi, 1e-4, n=100000, fir_taps_per_order=cost)
print(json.dumps({{"design_s": time.perf_counter() - t1}}))
"""


def design(quick: bool) -> dict:
    """200 frequencies designed in a fresh process with the plan cache off, xi from 1 to 20."""
    xis = (6.0,) if quick else (1.0, 2.0, 3.3, 6.0, 7.0, 10.0, 14.6, 20.0)
    res: dict = {"nfreq": 200, "tol": 1e-4, "load_start": load_average(), "xi": {}}
    env = dict(os.environ, SFTWAVE_CACHE_DIR="")        # plan cache off: every plan designed
    for xi in xis:
        proc = subprocess.run([sys.executable, "-c", _DESIGN.format(xi=xi)], env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            res["xi"][str(xi)] = {"error": proc.stderr.strip().splitlines()[-1]}
        else:
            res["xi"][str(xi)] = json.loads(proc.stdout.strip().splitlines()[-1])
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- short series


def _red_noise(n: int, alpha: float = 0.7) -> np.ndarray:
    """An AR(1) series (Torrence & Compo's red noise), normalised as pycwt's recipe does."""
    e = np.random.default_rng(7).standard_normal(n)
    x = scipy.signal.lfilter([1.0], [1.0, -alpha], e)
    return (x - x.mean()) / x.std()


def short_series(quick: bool) -> dict:
    """pycwt's use: a short series with many scales, sftwave against pycwt in the same run.

    For each ``n``: pycwt's Morlet(6) at its default scales (``s0 = 2 dt``,
    ``dj = 1/12``, ``J = log2(n dt / s0) / dj``: 133 scales at n = 4,000)
    and sftwave at the same scales (:func:`sftwave.analysis.frequencies_for_periods`
    of pycwt's periods); ``cwt`` ('auto', in both of sftwave's usual modes, and
    forced to the bank and to the FFT), ``icwt`` and the whole Torrence & Compo
    analysis as the Nino3 example runs it (``cwt`` with the paper's zero padding,
    lag-1 autocorrelation, local and global significance with the cone of
    influence's degrees of freedom, global spectrum, scale average and its
    significance, ``icwt``) against pycwt's tutorial's calls.  Alternating
    calls, medians.
    """
    pycwt = anchor("pycwt")
    from sftwave import analysis
    from sftwave.plans import FFTPlan
    from sftwave.wavelets import frequency_to_scale

    res: dict = {"load_start": load_average(), "cases": []}
    if pycwt is None:
        res["skipped"] = "pycwt not installed"
        return res
    dt, dj = 0.25, 1.0 / 12.0
    s0 = 2 * dt
    mother = pycwt.Morlet(6.0)
    rounds = 3 if quick else 9
    for n in ((4000, 16_000) if quick else (4000, 30_000, 100_000)):
        x = _red_noise(n)
        var, fs = 1.0, 1.0 / dt
        W0, scales, pf, *_ = pycwt.cwt(x, dt, dj, s0, -1, mother)
        freqs = analysis.frequencies_for_periods(1.0 / pf)
        alpha = pycwt.ar1(x)[0]
        W = sftwave.cwt(x, freqs, fs, mode="constant")

        def pycwt_analysis(x=x, alpha=alpha):
            wave, sc, fr, coi, _, _ = pycwt.cwt(x, dt, dj, s0, -1, mother)
            back = pycwt.icwt(wave, sc, dt, dj, mother)
            power = np.abs(wave) ** 2
            signif, _ = pycwt.significance(1.0, dt, sc, 0, alpha, significance_level=0.95,
                                           wavelet=mother)
            sig95 = power / signif[:, None]
            glbl = power.mean(axis=1)
            gs, _ = pycwt.significance(var, dt, sc, 1, alpha, significance_level=0.95,
                                       dof=x.size - sc, wavelet=mother)
            period = 1.0 / fr
            sel = np.flatnonzero((period >= 2) & (period < 8))
            avg = var * dj * dt / mother.cdelta * (power / sc[:, None])[sel].sum(axis=0)
            sa, _ = pycwt.significance(var, dt, sc, 2, alpha, significance_level=0.95,
                                       dof=[sc[sel[0]], sc[sel[-1]]], wavelet=mother)
            return back, sig95, glbl, avg, gs, sa

        def sftwave_analysis(x=x, freqs=freqs):
            Wc = sftwave.cwt(x, freqs, fs, mode="constant")
            a = analysis.ar1(x)[0]
            power = np.abs(Wc) ** 2
            local, _ = analysis.significance(x, freqs, fs, alpha=a)
            sig95 = power / local[:, None]
            outside = (~analysis.coi_mask(freqs, x.size, fs)).sum(axis=1)
            glob, _ = analysis.significance(x, freqs, fs, alpha=a, test="global",
                                            dof=np.maximum(outside, 1))
            gspec = analysis.global_spectrum(power)
            lo, hi = analysis.frequencies_for_periods([8.0, 2.0])
            avg = analysis.scale_average(power, freqs, fs, band=(lo, hi)) * var
            sa, _ = analysis.significance(var, freqs, fs, alpha=a, test="scale", band=(lo, hi))
            back = sftwave.icwt(Wc, freqs, fs)
            return back, sig95, gspec, avg, glob, sa

        calls = {
            "pycwt cwt": lambda x=x: pycwt.cwt(x, dt, dj, s0, -1, mother),
            "sftwave cwt reflect": lambda x=x, f=freqs: sftwave.cwt(x, f, fs),
            "sftwave cwt constant": lambda x=x, f=freqs: sftwave.cwt(x, f, fs, mode="constant"),
            "sftwave cwt constant, method='bank'":
                lambda x=x, f=freqs: sftwave.cwt(x, f, fs, mode="constant", method="bank"),
            "sftwave cwt constant, method='fft'":
                lambda x=x, f=freqs: sftwave.cwt(x, f, fs, mode="constant", method="fft"),
            "pycwt icwt": lambda W0=W0, sc=scales: pycwt.icwt(W0, sc, dt, dj, mother),
            "sftwave icwt": lambda W=W, f=freqs: sftwave.icwt(W, f, fs),
            "sftwave icwt, method='tc'": lambda W=W, f=freqs: sftwave.icwt(W, f, fs, method="tc"),
            "pycwt analysis": pycwt_analysis,
            "sftwave analysis": sftwave_analysis,
        }
        case = {"n": n, "scales": int(freqs.size), "load_start": load_average(),
                "times": alternate(calls, rounds if n < 50_000 else min(rounds, 5))}
        case["load_end"] = load_average()
        sig = frequency_to_scale(freqs, fs)
        from sftwave.engines.numba import ENGINE
        from sftwave.plans import select_morlet

        for mode in ("reflect", "constant"):
            plans = [select_morlet(float(s), 6.0, n=n, mode=mode,
                                   fir_taps_per_order=ENGINE.fir_taps_per_order(),
                                   fft_point_cost=ENGINE.fft_point_cost()) for s in sig]
            case[f"fft_rows_{mode}"] = int(sum(isinstance(p, FFTPlan) for p in plans))
        res["cases"].append(case)
    res["load_end"] = load_average()
    return res
