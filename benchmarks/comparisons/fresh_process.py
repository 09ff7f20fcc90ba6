"""A script making one typical call, caches warm, as a whole fresh process, against the anchor's.

Each case is two ``python -c`` scripts that build the same input with numpy
and then import a library and make one call: sftwave's and the anchor's (the
same call in the anchor's own API).  The caches are the ones the user's
environment has (numba's kernels, sftwave's plans, pycwt's significance), warm:
one untimed run of every script fills them first; the tools
take turns over the rounds; medians.  Per process: the wall time from start to
exit, and inside it the import and the first call (read with
``time.perf_counter``, nothing else imported), and the heavy modules present
after the call (scipy's subpackages, numba, matplotlib, ...), which shows what
a call pulls in that it does not use.

The cases: ``gaussian_filter`` of a 2048^2 float64 image at
sigma 4 against scipy.ndimage; ``cwt`` of 1e5 float32 samples at 200
frequencies (its anchor, fCWT, runs only where installed); pycwt's ``wct`` at
N = 2e4 and at N = 504 (``sig=False``, and N = 504 with its default
``sig=True`` read from the significance caches) against pycwt; ``hessian_matrix``
+ ``hessian_matrix_eigvals`` and ``blob_log`` of a 1024^2 smooth random field against
scikit-image; ``gaussian_filter`` of a 303 x 384 uint8 (skimage's ``coins``) and a 128^2 float64
image at sigma 2 (the small one without numba) against scipy.ndimage; MNE's
``tfr_array_morlet`` (2 x 2 x 1500 samples, 200 frequencies, ``n_cycles = freqs / 2``, power) against MNE.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

from .common import have, load_average, seconds_once

#: the heavy modules whose presence after the call is recorded (top level or scipy's subpackages)
HEAVY = ("numba", "llvmlite", "scipy.fft", "scipy.signal", "scipy.stats", "scipy.special",
         "scipy.linalg", "scipy.optimize", "scipy.ndimage", "scipy.spatial", "scipy.sparse",
         "scipy.interpolate", "matplotlib", "pandas", "skimage", "mne", "pycwt", "fcwt")

_IMAGE = ("rng = np.random.default_rng(5)\n"
          "img = rng.standard_normal(({n}, {n})).cumsum(0).cumsum(1)\n"
          "img = ((img - img.min()) / (img.max() - img.min())).astype(np.float32)\n")
_PAIR = ("rng = np.random.default_rng(0)\n"
         "y1 = np.cumsum(rng.standard_normal({n})) * 0.1 + rng.standard_normal({n})\n"
         "y2 = 0.3 * y1 + rng.standard_normal({n})\n")

#: case -> (anchor's display name, input-building lines, {tool: (import lines, call lines)})
CASES: dict[str, tuple[str, str, dict[str, tuple[str, str]]]] = {
    "gaussian_filter 2048^2 float64, sigma 4": (
        "scipy.ndimage",
        "img = np.random.default_rng(0).standard_normal((2048, 2048))\n",
        {"sftwave": ("from sftwave.ndimage import gaussian_filter", "y = gaussian_filter(img, 4.0)"),
         "scipy.ndimage": ("from scipy.ndimage import gaussian_filter",
                           "y = gaussian_filter(img, 4.0)")}),
    "cwt 1e5 float32 x 200 frequencies": (
        "fCWT",
        "n, F, fs, xi = 100_000, 200, 1000.0, 6.0\n"
        "x = np.cumsum(np.random.default_rng(0).standard_normal(n)).astype(np.float32)\n"
        "freqs = np.geomspace(1.0, 100.0, F)\n",
        {"sftwave": ("import sftwave", "y = sftwave.cwt(x, freqs, fs)"),
         "fCWT": ("import fcwt",
                  "morl = fcwt.Morlet(xi / (2 * np.pi))\n"
                  "sc = fcwt.Scales(morl, fcwt.FCWT_LOGSCALES, int(fs), 1.0, 100.0, F)\n"
                  "obj = fcwt.FCWT(morl, os.cpu_count(), False, True)\n"
                  "y = np.zeros((F, n), np.complex64); obj.cwt(x, sc, y)")}),
    "pycwt wct N = 2e4, sig=False": (
        "pycwt", _PAIR.format(n=20_000),
        {"sftwave": ("import sftwave.pycwt as wavelet", "r = wavelet.wct(y1, y2, 0.25, sig=False)"),
         "pycwt": ("import pycwt as wavelet", "r = wavelet.wct(y1, y2, 0.25, sig=False)")}),
    "pycwt wct N = 504, sig=False": (
        "pycwt", _PAIR.format(n=504),
        {"sftwave": ("import sftwave.pycwt as wavelet", "r = wavelet.wct(y1, y2, 0.25, sig=False)"),
         "pycwt": ("import pycwt as wavelet", "r = wavelet.wct(y1, y2, 0.25, sig=False)")}),
    "pycwt wct N = 504, sig=True (significance cached)": (
        "pycwt", _PAIR.format(n=504),
        {"sftwave": ("import sftwave.pycwt as wavelet", "r = wavelet.wct(y1, y2, 0.25)"),
         "pycwt": ("import pycwt as wavelet",
                   "import contextlib, io\n"
                   "with contextlib.redirect_stdout(io.StringIO()):\n"
                   "    r = wavelet.wct(y1, y2, 0.25)")}),
    "hessian_matrix + hessian_matrix_eigvals 1024^2 float32, sigma 2": (
        "scikit-image", _IMAGE.format(n=1024),
        {"sftwave": ("from sftwave import feature",
                     "e = feature.hessian_matrix_eigvals(feature.hessian_matrix("
                     "img, 2.0, use_gaussian_derivatives=True))"),
         "scikit-image": ("from skimage import feature",
                          "e = feature.hessian_matrix_eigvals(feature.hessian_matrix("
                          "img, 2.0, use_gaussian_derivatives=True))")}),
    "blob_log 1024^2 float32, 10 sigmas 2..32": (
        "scikit-image", _IMAGE.format(n=1024),
        {"sftwave": ("from sftwave import feature",
                     "b = feature.blob_log(img, min_sigma=2, max_sigma=32, num_sigma=10, "
                     "threshold=0.02)"),
         "scikit-image": ("from skimage import feature",
                          "b = feature.blob_log(img, min_sigma=2, max_sigma=32, num_sigma=10, "
                          "threshold=0.02)")}),
    "gaussian_filter 303 x 384 uint8 (skimage's coins), sigma 2": (
        "scipy.ndimage",
        "img = np.random.default_rng(0).integers(0, 256, (303, 384)).astype(np.uint8)\n",
        {"sftwave": ("from sftwave.ndimage import gaussian_filter", "y = gaussian_filter(img, 2.0)"),
         "scipy.ndimage": ("from scipy.ndimage import gaussian_filter",
                           "y = gaussian_filter(img, 2.0)")}),
    "gaussian_filter 128^2 float64, sigma 2 (no numba)": (
        "scipy.ndimage",
        "img = np.random.default_rng(0).standard_normal((128, 128))\n",
        {"sftwave": ("from sftwave.ndimage import gaussian_filter", "y = gaussian_filter(img, 2.0)"),
         "scipy.ndimage": ("from scipy.ndimage import gaussian_filter",
                           "y = gaussian_filter(img, 2.0)")}),
    "MNE tfr_array_morlet 2 x 2 x 1500, 200 frequencies, power": (
        "MNE",
        "x = np.cumsum(np.random.default_rng(1).standard_normal((2, 2, 1500)), axis=-1)\n"
        "freqs = np.geomspace(4.0, 80.0, 200)\n",
        {"sftwave": ("from sftwave.mne import tfr_array_morlet",
                     "p = tfr_array_morlet(x, 500.0, freqs, n_cycles=freqs / 2, output='power')"),
         "MNE": ("from mne.time_frequency import tfr_array_morlet",
                 "p = tfr_array_morlet(x, 500.0, freqs, n_cycles=freqs / 2, output='power', "
                 "n_jobs=1, verbose=False)")}),
}

_CHILD = """import os, sys, time, json
t0 = time.perf_counter()
import numpy as np
{data}t1 = time.perf_counter()
{imports}
t2 = time.perf_counter()
{call}
t3 = time.perf_counter()
heavy = {heavy!r}
mods = sorted(h for h in heavy if h in sys.modules)
print(json.dumps({{"setup_s": t1 - t0, "import_s": t2 - t1, "first_call_s": t3 - t2,
                  "import_and_first_call_s": t3 - t1, "modules": mods}}))
"""


def child_code(case: str, tool: str) -> str:
    """The whole script of ``tool`` for ``case`` (what a user's one-call script does)."""
    _, data, tools = CASES[case]
    imports, call = tools[tool]
    return _CHILD.format(data=data, imports=imports, call=call, heavy=HEAVY)


def _process(case: str, tool: str, env: dict) -> dict:
    wall, proc = seconds_once(lambda: subprocess.run(
        [sys.executable, "-c", child_code(case, tool)], env=env, capture_output=True, text=True,
        timeout=1800))
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    return {"process_s": wall, **json.loads(proc.stdout.strip().splitlines()[-1])}


def _floor(env: dict, rounds: int) -> dict:
    """Whole processes that only import, and sftwave's smallest call on numba: the floor.

    numba's first cached kernel in a process sets up its CPU target (numba's check for BLAS
    would import scipy.linalg; the engine answers it without); ``gaussian_filter`` of 64 x 64
    ones at sigma 16 (a bank plan: at sigma 4 the call is a small FIR that runs without numba)
    is that plus the call's engine modules and a few cached kernels loaded.
    """
    scripts = {"python": "pass", "numpy": "import numpy", "sftwave": "import numpy, sftwave",
               "numba": "import numpy, numba",
               "numba, scipy.linalg": "import numpy, numba, scipy.linalg",
               "scipy.fft": "import numpy, scipy.fft", "scipy.ndimage": "import numpy, scipy.ndimage",
               "sftwave.gaussian_filter(np.ones((64, 64)), 16.0)":
                   "import numpy as np, sftwave; sftwave.gaussian_filter(np.ones((64, 64)), 16.0)"}
    runs: dict = {k: [] for k in scripts}
    for _ in range(rounds):
        for k, code in scripts.items():
            runs[k].append(seconds_once(lambda code=code: subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True))[0])
    return {k: statistics.median(v) for k, v in runs.items()}


def fresh_process(quick: bool) -> dict:
    """The section ``fresh_process``: see the module's docstring."""
    rounds = 2 if quick else 5
    res: dict = {"rounds": rounds, "load_start": load_average(), "cases": []}
    names = list(CASES)[:3] if quick else list(CASES)
    env = dict(os.environ)
    res["floor"] = _floor(env, rounds)
    for name in names:
        anchor_name, _, tools = CASES[name]
        present = [t for t in tools if t == "sftwave" or have(t)]
        for t in present:  # fills numba's, sftwave's and pycwt's caches
            _process(name, t, env)
        runs: dict = {t: [] for t in present}
        for r in range(rounds):
            for t in present[r % len(present):] + present[:r % len(present)]:
                runs[t].append(_process(name, t, env))
        case: dict = {"case": name, "anchor": anchor_name, "tools": {}}
        if anchor_name not in present:
            case["skipped"] = f"{anchor_name} not installed"
        for t, rs in runs.items():
            ok = [x for x in rs if "error" not in x]
            case["tools"][t] = ({k: statistics.median(x[k] for x in ok)
                                 for k in ("process_s", "import_s", "first_call_s",
                                           "import_and_first_call_s")}
                                | {"modules": ok[-1]["modules"]}
                                if ok else {"error": rs[0]["error"]})
        a, s = case["tools"].get(anchor_name, {}), case["tools"]["sftwave"]
        if "process_s" in a and "process_s" in s:
            case["speedup"] = a["process_s"] / s["process_s"]
        res["cases"].append(case)
    res["load_end"] = load_average()
    return res


if __name__ == "__main__":  # one case's script, to profile it: python -m ... CASE TOOL
    print(child_code(sys.argv[1], sys.argv[2]))
