"""The users' workloads, every tool in the same run, ratios beside the floors.

    .venv/bin/python benchmarks/workloads.py [--quick] [--only a,b,d,e] [--no-doc]

(a) first call: a whole fresh process (``python -c "...; sftwave.cwt(x, freqs)"``,
    N = 1e5 float32, 200 frequencies), wall time from start to exit, with empty
    caches ('cold': numba's and sftwave's in a new folder) and filled ones
    ('warm'), against the same script with fCWT, MNE and PyWavelets.
(b) EEG epochs: 60 x 32 x 1000 samples at 250 Hz, 37 frequencies 4..40 Hz,
    ``output='power'``, ``decim=4``, ``n_cycles`` 7 and ``freqs / 2``; sftwave
    against MNE's ``tfr_array_morlet``, on 1 and 2 threads (``workers`` / ``n_jobs``).
(c) N = 1e5, 200 frequencies, complex64: sftwave with a fresh output and with
    ``out=`` against fCWT (object reused, fresh output / output reused), and the
    floor of writing the output once.
(d) audio: 10 s at 44.1 kHz, 200 frequencies 20 Hz .. 20 kHz, power at 100 frames
    per second (``decim=441``) against fCWT and ssqueezepy (which compute every
    sample and are decimated after).
(e) plan design: 200 frequencies for xi from 1 to 20 with no cache (a fresh
    process with the plan cache off), and the Gaussian everyday cases against
    scipy.ndimage and OpenCV: small-sigma float32/uint8/uint16 images and a
    64 x 256 x 256 volume, a strided view, ``truncate=8``.

Times are medians over alternating repetitions after one untimed call (except
(a), which is whole processes).  Results go to
``benchmarks/results/workloads.json``; ``benchmarks/report.py`` writes the section
of docs/benchmarks.md.  A tool that is not installed is reported as missing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from import_time import machine  # noqa: E402


def load_average() -> float:
    return os.getloadavg()[0]


def alternate(calls: dict, repeats: int) -> dict:
    """Median and min seconds of each call, the calls alternating, after one untimed call each."""
    for fn in calls.values():
        fn()
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, fn in calls.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: {"median_s": statistics.median(t), "min_s": min(t), "all_s": t}
            for name, t in times.items()}


# ----------------------------------------------------------------------------- (a) first call

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
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    inner = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"process_s": wall, **inner}


def first_call(quick: bool) -> dict:
    n, F = (20_000, 40) if quick else (100_000, 200)
    rounds = 2 if quick else 5
    res: dict = {"n": n, "nfreq": F, "rounds": rounds, "load_start": load_average()}
    tools = [t for t in _SCRIPT if t == "sftwave" or _importable({"fCWT": "fcwt", "MNE": "mne",
                                                                 "PyWavelets": "pywt"}[t])]
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


def _importable(mod: str) -> bool:
    try:
        __import__(mod)
        return True
    except Exception:
        return False


def _fcwt(xi: float, fs: float, f_lo: float, f_hi: float, F: int):
    """fCWT on every CPU at F log-spaced frequencies: ``run(x, out)`` fills and returns ``out``.

    The Morlet, scales and plan objects are kept alive together (SWIG objects:
    the C++ side points at the wavelet).
    """
    import fcwt

    morl = fcwt.Morlet(xi / (2 * np.pi))
    scales = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(fs), f_lo, f_hi, F)
    obj = fcwt.FCWT(morl, os.cpu_count() or 1, False, True)

    def run(x, out, keep=(morl, scales, obj)):
        keep[2].cwt(x, keep[1], out)
        return out

    return run


# ----------------------------------------------------------------------------- (b) EEG epochs


def eeg(quick: bool) -> dict:
    import sftwave

    shape = (6, 8, 1000) if quick else (60, 32, 1000)
    fs, freqs, decim = 250.0, np.arange(4.0, 41.0), 4
    x = np.cumsum(np.random.default_rng(1).standard_normal(shape), axis=-1)
    res: dict = {"shape": list(shape), "fs": fs, "nfreq": freqs.size, "decim": decim,
                 "load_start": load_average(), "cases": []}
    have_mne = _importable("mne")
    if have_mne:
        from mne.time_frequency import tfr_array_morlet
    for label, n_cycles in (("n_cycles=7", 7.0), ("n_cycles=freqs/2", freqs / 2.0)):
        for threads in (1, 2):
            calls = {"sftwave": lambda: sftwave.cwt(x, freqs, fs, xi=n_cycles, output="power",
                                                    decim=decim, workers=threads)}
            if have_mne:
                calls["MNE"] = lambda: tfr_array_morlet(x, fs, freqs, n_cycles=n_cycles,
                                                        output="power", decim=decim,
                                                        n_jobs=threads, verbose=False)
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


# ----------------------------------------------------------------------------- (c) long signal


def long_signal(quick: bool) -> dict:
    import sftwave

    n, F = (20_000, 40) if quick else (100_000, 200)
    fs, xi = 1000.0, 6.0
    x = np.cumsum(np.random.default_rng(0).standard_normal(n)).astype(np.float32)
    freqs = np.geomspace(1.0, 100.0, F)
    out = np.empty((F, n), np.complex64)
    calls = {"sftwave fresh output": lambda: sftwave.cwt(x, freqs, fs, xi=xi),
             "sftwave out=": lambda: sftwave.cwt(x, freqs, fs, xi=xi, out=out),
             "floor: fresh output written once": lambda: np.ones((F, n), np.complex64),
             "floor: existing output written once": lambda: out.fill(1.0)}
    if _importable("fcwt"):
        run = _fcwt(xi, fs, 1.0, 100.0, F)
        buf = np.zeros((F, n), np.complex64)
        calls["fCWT fresh output"] = lambda: run(x, np.zeros((F, n), np.complex64))
        calls["fCWT output reused"] = lambda: run(x, buf)
    res = {"n": n, "nfreq": F, "load_start": load_average(),
           "times": alternate(calls, 3 if quick else 7)}
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- (d) audio


def audio(quick: bool) -> dict:
    import sftwave

    fs, seconds, F, decim = 44100.0, (1.0 if quick else 10.0), (50 if quick else 200), 441
    n = int(fs * seconds)
    rng = np.random.default_rng(2)
    t = np.arange(n) / fs
    x = (np.sin(2 * np.pi * 440.0 * t) + 0.3 * rng.standard_normal(n)).astype(np.float32)
    freqs = np.geomspace(20.0, 20000.0, F)
    xi = 6.0
    calls = {"sftwave": lambda: sftwave.cwt(x, freqs, fs, xi=xi, output="power", decim=decim)}
    if _importable("fcwt"):
        run = _fcwt(xi, fs, 20.0, 20000.0, F)
        buf = np.zeros((F, n), np.complex64)

        def f():
            v = run(x, buf)[:, ::decim]
            return v.real**2 + v.imag**2

        calls["fCWT (then power of every 441st)"] = f
    if _importable("ssqueezepy"):
        os.environ.setdefault("SSQ_PARALLEL", "1")
        import ssqueezepy

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


# ----------------------------------------------------------------------------- (e) design, Gaussian

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


def gaussian(quick: bool) -> dict:
    import scipy.ndimage as ndi

    import sftwave

    rng = np.random.default_rng(3)
    side = 256 if quick else 1024
    img = rng.standard_normal((side, side)).cumsum(0).cumsum(1)
    img = (img - img.min()) / (img.max() - img.min())
    vol = rng.random((16, 64, 64) if quick else (64, 256, 256)).astype(np.float32)
    line = np.cumsum(rng.standard_normal(100_000 if quick else 1_000_000))
    cases = [
        ("2-D float32, sigma 1", img.astype(np.float32), 1.0, {}),
        ("2-D float32, sigma 2", img.astype(np.float32), 2.0, {}),
        ("2-D float32, sigma 8", img.astype(np.float32), 8.0, {}),
        ("2-D float64, sigma 2", img, 2.0, {}),
        ("2-D uint8, sigma 2", (img * 255).astype(np.uint8), 2.0, {}),
        ("2-D uint16, sigma 2", (img * 65535).astype(np.uint16), 2.0, {}),
        ("2-D float64 strided view, sigma 2", np.vstack([img, img])[::2, :], 2.0, {}),
        ("3-D float32, sigma (1, 3, 3)", vol, (1.0, 3.0, 3.0), {}),
        ("1-D float64, sigma 128, truncate 8", line, 128.0, {"truncate": 8.0}),
        ("1-D float64, sigma 128", line, 128.0, {}),
    ]
    have_cv2 = _importable("cv2")
    res: dict = {"load_start": load_average(), "cases": []}
    for label, a, sigma, kw in cases:
        fn = sftwave.gaussian_filter1d if a.ndim == 1 else sftwave.gaussian_filter
        ref = ndi.gaussian_filter1d if a.ndim == 1 else ndi.gaussian_filter
        calls = {"sftwave": lambda: fn(a, sigma, **kw), "scipy": lambda: ref(a, sigma, **kw)}
        if have_cv2 and a.ndim == 2 and a.dtype == np.float32 and not kw:
            import cv2

            r = int(4.0 * sigma + 0.5)
            calls["OpenCV"] = lambda: cv2.GaussianBlur(a, (2 * r + 1, 2 * r + 1), sigma,
                                                       borderType=cv2.BORDER_REFLECT)
        t = alternate(calls, 3 if quick else 9)
        exact = ref(a.astype(np.float64), sigma, truncate=12.0)
        got = fn(a, sigma, **kw).astype(np.float64)
        mine = ref(a, sigma, **kw).astype(np.float64)
        err = lambda y: float(np.sqrt(np.mean((y - exact) ** 2) / np.mean(exact**2)))
        res["cases"].append({"case": label, "shape": list(a.shape), "dtype": str(a.dtype),
                             "times": t, "scipy_over_sftwave": t["scipy"]["median_s"] / t["sftwave"]["median_s"],
                             "opencv_over_sftwave": (t["OpenCV"]["median_s"] / t["sftwave"]["median_s"]
                                                     if "OpenCV" in t else None),
                             "error_sftwave": err(got), "error_scipy": err(mine)})
    res["load_end"] = load_average()
    return res


PARTS = {"a": ("first_call", first_call), "b": ("eeg", eeg), "c": ("long_signal", long_signal),
         "d": ("audio", audio), "e": ("design", design), "g": ("gaussian", gaussian)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    ap.add_argument("--only", default="", help="comma-separated parts (a,b,c,d,e,g)")
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    ap.add_argument("--json", default=str(HERE / "results" / "workloads.json"))
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.only.split(",") if k.strip()] or list(PARTS)
    path = Path(args.json)
    res = json.loads(path.read_text()) if path.exists() and args.only else {}
    res.update({"command": "python benchmarks/workloads.py" + (" --quick" if args.quick else ""),
                "quick": args.quick, "machine": machine()})
    for k in keys:
        name, fn = PARTS[k]
        t0 = time.perf_counter()
        res[name] = fn(args.quick)
        print(f"{name}: {time.perf_counter() - t0:.1f} s", flush=True)
        print(json.dumps(res[name], indent=1, default=float)[:3000], flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(res, indent=1, default=float))
    if not args.no_doc:
        from report import main as report_main

        report_main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
