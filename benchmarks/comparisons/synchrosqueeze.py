"""The synchrosqueezed Morlet transform: sftwave's ``ssq_cwt`` against ssqueezepy's, time and memory.

:func:`synchrosqueeze`: a linear chirp (0.01 to 0.2 cycles per sample) in
white noise of the same power, ``n`` samples; ssqueezepy's
``ssq_cwt(x, 'morlet')`` with its defaults (``mu = 6``, 32 voices per octave,
its 'log-piecewise' scales and log bins over its 'peak' range, float32) and
sftwave's ``ssq_cwt`` at the same scales (``freqs = 6 / (2 pi scales)``) into
as many log bins (``ssq_freqs='log'``), float32 input (complex64 output, as
ssqueezepy's).  The calls take turns (medians).  The ridges: on a clean chirp
at ssqueezepy's scales and bins, the share of columns (away from the ends)
whose argmax bins are within one bin of each other (ssqueezepy's ``scales='log'``:
sftwave's bins are uniform in frequency or its logarithm, not piecewise).

Peak memory, in fresh processes: the growth of the process's peak resident
size during one call (VmHWM), and the largest growth of its anonymous
resident memory (RssAnon, sampled every 5 ms: the working memory, which
excludes the pages of an output in a memory-mapped file).  sftwave at
``n = 1e6`` (1e5 with ``--quick``) and 300 log-spaced frequencies from 0.0005
to 0.45 cycles per sample, its complex64 output (2.4 GB) in an ``np.memmap``;
ssqueezepy at 1e5 (the issue: 1e6 does not fit in 23 GB).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from sftwave.synchrosqueeze import ssq_cwt

from .common import alternate, anchor, load_average

_PROBE = r"""
import json, os, shutil, sys, tempfile, threading, time
import numpy as np
tool, n, F = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
t = np.arange(n)
x = (np.cos(2 * np.pi * (0.01 * t + 0.19 * t**2 / (2 * n))) + rng.standard_normal(n)).astype(np.float32)
def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))
folder = tempfile.mkdtemp(prefix="sftwave-ssq-")
if tool == "sftwave":
    from sftwave.synchrosqueeze import ssq_cwt
    freqs = np.geomspace(0.0005, 0.45, F)
    ssq_cwt(x[:20000], freqs[F // 2:])              # compile the kernels and design the plans
    ssq_cwt(x[:20000], freqs)
    path = os.path.join(folder, "T.dat")
    out = np.memmap(path, dtype=np.complex64, mode="w+", shape=(F, n))
    call = lambda: ssq_cwt(x, freqs, out=out)
else:
    os.environ["SSQ_PARALLEL"] = "1"
    import ssqueezepy
    ssqueezepy.ssq_cwt(x[:20000], "morlet")
    call = lambda: ssqueezepy.ssq_cwt(x, "morlet")[0]
peak_anon = [0]
done = threading.Event()
def watch():
    while not done.is_set():
        peak_anon[0] = max(peak_anon[0], status("RssAnon"))
        time.sleep(0.005)
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
base, anon0 = status("VmRSS"), status("RssAnon")
w = threading.Thread(target=watch); w.start()
t0 = time.perf_counter(); y = call(); t1 = time.perf_counter()
done.set(); w.join()
peak = status("VmHWM")
shape = np.shape(y)
del y, call
if tool == "sftwave":
    del out
shutil.rmtree(folder, ignore_errors=True)
print(json.dumps({"n": n, "rows": int(shape[0]), "seconds": t1 - t0,
                  "peak_rss_increase_mib": (peak - base) / 1024.0,
                  "peak_anon_increase_mib": (peak_anon[0] - anon0) / 1024.0,
                  "output_mib": 8.0 * shape[0] * shape[1] / 2**20}))
"""


def _probe(tool: str, n: int, F: int) -> dict:
    proc = subprocess.run([sys.executable, "-c", _PROBE, tool, str(n), str(F)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _ridge_agreement(ssqueezepy, n: int) -> dict:
    """Share of the middle columns whose argmax bins are within one bin, on a clean chirp."""
    t = np.arange(n)
    x = np.cos(2 * np.pi * (0.01 * t + 0.19 * t**2 / (2 * n)))
    Tq, _, fq, scales = ssqueezepy.ssq_cwt(x, "morlet", scales="log")
    Tq, fq, scales = np.asarray(Tq), np.asarray(fq), np.asarray(scales)
    freqs = 6.0 / (2 * np.pi * scales)
    T = ssq_cwt(x, freqs, ssq_freqs=np.ascontiguousarray(fq, dtype=np.float64))
    mid = slice(n // 20, n - n // 20)
    a = np.abs(T[:, mid]).argmax(axis=0)
    b = np.abs(Tq[:, mid]).argmax(axis=0)
    d = np.abs(a - b)
    return {"n": n, "within_one_bin": float(np.mean(d <= 1)), "max_bins_apart": int(d.max())}


def synchrosqueeze(quick: bool) -> dict:
    """sftwave's ssq_cwt against ssqueezepy's: time (alternating, medians), ridges, peak memory."""
    ssqueezepy = anchor("ssqueezepy")
    n = 20_000 if quick else 100_000
    rounds = 2 if quick else 5
    res: dict = {"n": n, "load_start": load_average()}
    rng = np.random.default_rng(0)
    t = np.arange(n)
    x = (np.cos(2 * np.pi * (0.01 * t + 0.19 * t**2 / (2 * n)))
         + rng.standard_normal(n)).astype(np.float32)
    if ssqueezepy is None:
        res["skipped"] = "ssqueezepy is not installed"
    else:
        os.environ.setdefault("SSQ_PARALLEL", "1")
        _, _, fq, scales = ssqueezepy.ssq_cwt(x, "morlet")
        freqs = 6.0 / (2 * np.pi * np.asarray(scales, dtype=np.float64))
        res["scales"] = int(freqs.size)
        calls = {"sftwave": lambda: ssq_cwt(x, freqs, ssq_freqs="log"),
                 "ssqueezepy": lambda: ssqueezepy.ssq_cwt(x, "morlet")}
        times = alternate(calls, rounds)
        res["times"] = times
        res["ssqueezepy_over_sftwave"] = times["ssqueezepy"]["median_s"] / times["sftwave"]["median_s"]
        res["ridges"] = _ridge_agreement(ssqueezepy, 8192 if quick else 32768)
    big = 100_000 if quick else 1_000_000
    res["memory"] = {"sftwave": _probe("sftwave", big, 300)}
    if ssqueezepy is not None:
        res["memory"]["ssqueezepy"] = _probe("ssqueezepy", n, 0)
    res["load_end"] = load_average()
    return res
