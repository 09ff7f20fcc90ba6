"""sftwave inside other tools' workflows: MNE's drop-in and its first call, the stream classes, dask,
``import sftwave``."""

from __future__ import annotations

import ast
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial

import numpy as np

from .common import ROOT, alternate, anchor, load_average, seconds_once, timed_s

# ----------------------------------------------------------------------------- MNE drop-in

MNE_OUTPUTS = ("complex", "power", "phase", "avg_power", "itc", "avg_power_itc")


def _row_difference(a, b, output, weight=None):
    if output == "phase":        # radians, RMS weighted by the power (as tests/test_mne.py)
        d = np.angle(np.exp(1j * (a - b)))
        return float(np.sqrt(np.sum(weight * d ** 2, axis=-1) / np.sum(weight, axis=-1)).max())
    num = np.sqrt(np.mean(np.abs(a - b) ** 2, axis=-1))
    return float((num / np.sqrt(np.mean(np.abs(b) ** 2, axis=-1))).max())


def mne_dropin(quick: bool) -> dict:
    """sftwave.mne.tfr_array_morlet against MNE's own, on EEG epochs: every output, both
    ``n_cycles`` forms, ``decim`` 4 and 1, one thread each.

    Epochs 60 x 32 x 1000 float64 at 250 Hz (``sftwave.datasets.eeg_epochs``:
    a 1/f background, alpha bursts, evoked responses and a DC offset per
    channel), 37 frequencies 4-40 Hz, ``n_cycles`` 7 and ``freqs / 2`` (MNE's
    idiom); sftwave's ``n_jobs=1`` and MNE's ``n_jobs=1``.  Each call
    alternates with MNE's over the rounds after one untimed call each (whose
    results give the row difference); medians and their ratio per row.  Row
    difference: the largest per-row relative RMS difference between the two
    (for 'phase': radians RMS weighted by MNE's power).
    """
    from sftwave.datasets import eeg_epochs
    from sftwave.mne import tfr_array_morlet

    res: dict = {"load_start": load_average(), "cases": []}
    if anchor("MNE") is None:
        res["load_end"] = load_average()
        return res
    from mne.time_frequency import tfr_array_morlet as mne_tfr

    shape = (6, 8, 1000) if quick else (60, 32, 1000)
    data = eeg_epochs(*shape, sfreq=250.0, seed=0).data
    freqs = np.geomspace(4.0, 40.0, 37)
    res["shape"] = list(shape)
    res["rounds"] = rounds = 2 if quick else 3
    res["threads"] = 1
    for decim in (4, 1):
        for label, n_cycles in (("7", 7.0), ("freqs/2", freqs / 2)):
            kw = dict(sfreq=250.0, freqs=freqs, n_cycles=n_cycles, decim=decim, n_jobs=1)
            power = None
            for output in MNE_OUTPUTS:
                first: dict = {}

                def keep(name, fn):
                    def call():
                        y = fn()
                        first.setdefault(name, y)
                    return call

                t = alternate({"sftwave": keep("sftwave", partial(tfr_array_morlet, data,
                                                                   output=output, **kw)),
                               "MNE": keep("MNE", partial(mne_tfr, data, output=output,
                                                          verbose=False, **kw))}, rounds)
                if output == "power":
                    power = first["MNE"]
                diff = _row_difference(first["sftwave"], first["MNE"], output,
                                       power if output == "phase" else None)
                first.clear()
                case = {"output": output, "n_cycles": label, "decim": decim,
                        "sftwave_s": t["sftwave"]["median_s"], "mne_s": t["MNE"]["median_s"],
                        "row_difference": diff}
                case["mne_over_sftwave"] = case["mne_s"] / case["sftwave_s"]
                res["cases"].append(case)
            del power
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- MNE: the first call

#: A child process: (tool, n_cycles, sfreq, step); prints its times as JSON.  ``step``:
#: 'call' times the import and the first tfr_array_morlet; 'design' times only the
#: plans of sftwave's call (the plan cache as the caller left it).
_TFR_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
tool, nc, sfreq, step = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
freqs = np.linspace(4.0, 80.0, 200)
n_cycles = {"freqs/2": freqs / 2.0, "(freqs+1)/2": (freqs + 1.0) / 2.0, "7": 7.0 + 0 * freqs}[nc]
data = np.random.default_rng(0).standard_normal((2, 2, 1500))
t1 = time.perf_counter()
if step == "design":
    import sftwave
    import inspect
    from sftwave.engines import get
    from sftwave.mne import tfr_array_morlet
    from sftwave.plans.blas import one_blas_thread
    from sftwave.plans.select import select_morlet_scales
    eng = get("numba")
    cost = eng.fir_taps_per_order()
    tol = inspect.signature(tfr_array_morlet).parameters["tol"].default
    # the plans of the call: its default tol, the transform of its single-precision recursions
    transform = eng.transform("auto", single=True, complex_input=False, tol=tol,
                              bank_method=eng.bank_method("auto", 2 * 2 * freqs.size))
    sigmas = n_cycles * sfreq / (2 * np.pi * freqs)
    t2 = time.perf_counter()
    with one_blas_thread():
        select_morlet_scales([(float(s), float(x)) for s, x in zip(sigmas, n_cycles)], tol,
                             n=1500, fir_taps_per_order=cost, transform=transform)
    print(json.dumps({"design_s": time.perf_counter() - t2}))
    raise SystemExit
if tool == "sftwave":
    from sftwave.mne import tfr_array_morlet
    kw = {}
else:
    from mne.time_frequency import tfr_array_morlet
    kw = {"n_jobs": 1, "verbose": False}
t2 = time.perf_counter()
tfr_array_morlet(data, sfreq, freqs, n_cycles=n_cycles, output="power", **kw)
t3 = time.perf_counter()
print(json.dumps({"setup_s": t1 - t0, "import_s": t2 - t1, "first_call_s": t3 - t2,
                  "import_and_first_call_s": t3 - t1}))
"""

FIRST_TFR_CASES = (("freqs/2", 500.0), ("(freqs+1)/2", 500.0), ("freqs/2", 1000.0),
                   ("(freqs+1)/2", 1000.0))


def _tfr_child(tool: str, nc: str, sfreq: float, step: str, env: dict) -> dict:
    wall, proc = seconds_once(lambda: subprocess.run(
        [sys.executable, "-c", _TFR_CHILD, tool, nc, str(sfreq), step], env=env,
        capture_output=True, text=True, timeout=1800))
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    return {"process_s": wall, **json.loads(proc.stdout.strip().splitlines()[-1])}


def first_tfr(quick: bool) -> dict:
    """``tfr_array_morlet``'s first call in a fresh process, sftwave's (empty plan cache) and MNE's.

    2 x 2 x 1500 samples, 200 frequencies 4..80 Hz, ``n_cycles`` ``freqs / 2``
    and ``(freqs + 1) / 2`` (``xi`` 2 to 40.5: half of them beyond the layout
    table's grid), ``sfreq`` 500 and 1000 Hz, ``output='power'``.  Each run is a
    whole ``python -c`` process (its wall time from start to exit, and the
    import and first call inside it): sftwave with a new, empty plan cache
    (numba's cache filled by an untimed run first, as after installation),
    sftwave again with that plan cache filled, and MNE (``n_jobs=1``); the
    three take turns over the rounds, medians.  Also the plans' design alone
    (the 200 scales' plans in a fresh process):
    with the plan cache empty and filled (``select_morlet_scales``, as ``cwt``
    asks: one file of the plan cache for the 200 plans).
    """
    cases = FIRST_TFR_CASES[:2] if quick else FIRST_TFR_CASES
    rounds = 1 if quick else 3
    have_mne = anchor("MNE") is not None
    from sftwave.mne import tfr_array_morlet

    tol = inspect.signature(tfr_array_morlet).parameters["tol"].default
    res: dict = {"shape": [2, 2, 1500], "nfreq": 200, "tol": tol, "rounds": rounds,
                 "load_start": load_average(), "cases": []}
    with tempfile.TemporaryDirectory(prefix="sftwave-first-tfr-") as tmp:
        base = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        _tfr_child("sftwave", "7", 500.0, "call", dict(base, SFTWAVE_CACHE_DIR=""))  # numba's cache
        for c, (nc, sfreq) in enumerate(cases):
            runs: dict = {"sftwave, empty plan cache": [], "sftwave, plan cache filled": []}
            if have_mne:
                runs["MNE"] = []
            design: dict = {"empty": [], "filled": []}
            for r in range(rounds):
                plans = os.path.join(tmp, f"plans-{c}-{r}")
                env = dict(base, SFTWAVE_CACHE_DIR=plans)
                order = ["empty", "MNE"] if r % 2 == 0 else ["MNE", "empty"]
                for tool in order:
                    if tool == "empty":
                        runs["sftwave, empty plan cache"].append(_tfr_child("sftwave", nc, sfreq, "call", env))
                        runs["sftwave, plan cache filled"].append(_tfr_child("sftwave", nc, sfreq, "call", env))
                    elif have_mne:
                        runs["MNE"].append(_tfr_child("MNE", nc, sfreq, "call", base))
                fresh = dict(base, SFTWAVE_CACHE_DIR=os.path.join(tmp, f"design-{c}-{r}"))
                design["empty"].append(_tfr_child("sftwave", nc, sfreq, "design", fresh))
                design["filled"].append(_tfr_child("sftwave", nc, sfreq, "design", fresh))
            case: dict = {"n_cycles": nc, "sfreq": sfreq, "tools": {}, "design": {}}
            for tool, rs in runs.items():
                ok = [x for x in rs if "error" not in x]
                case["tools"][tool] = ({k: statistics.median(x[k] for x in ok)
                                        for k in ("process_s", "import_s", "first_call_s",
                                                  "import_and_first_call_s")}
                                       if ok else {"error": rs[0]["error"]})
            for state, rs in design.items():
                ok = [x["design_s"] for x in rs if "error" not in x]
                case["design"][state] = (statistics.median(ok) if ok else None)
            res["cases"].append(case)
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- streams

STREAM_FREQS = np.geomspace(0.002, 0.4, 16)


def _stream_rate(make, x, chunk) -> float:
    """ns per sample streaming ``x`` through a fresh ``make()`` in chunks of ``chunk`` (median of 3)."""
    streams = iter([make() for _ in range(4)])     # one for the warm-up call, 3 timed

    def run():
        s = next(streams)
        for i in range(0, x.size, chunk):
            s.process(x[i:i + chunk])
        s.flush()

    return 1e9 * timed_s(run, repeats=3)[0]["median_s"] / x.size


def _batch_rate(call, x) -> float:
    call(x[:1000])
    return 1e9 * timed_s(lambda: call(x), repeats=3, warmup=False)[0]["median_s"] / x.size


def stream(quick: bool) -> dict:
    """Streaming throughput against the batch functions, and long-run drift.

    * Throughput: nanoseconds per sample of ``GaussianFilter1D(32)`` (one
      channel) and of ``CWT`` (16 frequencies, power, one channel) fed in
      chunks of 1, 64 and 4096 samples, against the batch function on the
      whole signal in the same run (medians of 3 runs after a warm-up).
    * Drift: a float32 signal of 1e8 samples streamed in chunks of 65 536
      through ``GaussianFilter1D(32)`` with the SFT and with the ASFT; the
      outputs of the last 10 000 samples against the batch function on the last
      100 000 input samples (whose outputs there do not reach its borders),
      relative to their RMS.  The state is float64 in both, so neither drifts.
    """
    import sftwave
    from sftwave.stream import CWT, GaussianFilter1D

    rng = np.random.default_rng(0)
    res: dict = {"load_start": load_average(), "throughput": [], "drift": []}
    sizes = ((1, 2_000), (64, 40_000), (4096, 200_000)) if quick else \
        ((1, 20_000), (64, 400_000), (4096, 2_000_000))
    for name, make, batch in (
            ("GaussianFilter1D(32)", lambda: GaussianFilter1D(32.0),
             lambda v: sftwave.gaussian_filter1d(v, 32.0)),
            ("CWT, 16 freqs, power", lambda: CWT(STREAM_FREQS, output="power"),
             lambda v: sftwave.cwt(v, STREAM_FREQS, output="power"))):
        for chunk, n in sizes:
            x = rng.standard_normal(n)
            make().process(x[:5000])                     # compile
            res["throughput"].append({"filter": name, "chunk": chunk, "samples": n,
                                      "stream_ns_per_sample": _stream_rate(make, x, chunk),
                                      "batch_ns_per_sample": _batch_rate(batch, x)})
    total = 2_000_000 if quick else 100_000_000
    chunk = 1 << 16
    for transform in ("sft", "asft"):
        s = GaussianFilter1D(32.0, transform=transform)
        rng = np.random.default_rng(1)
        state = {"tail": np.zeros(0, np.float32), "outs": []}

        def feed(s=s, rng=rng, state=state):
            done = 0
            while done < total:
                k = min(chunk, total - done)
                x = (rng.standard_normal(k) + 5.0).astype(np.float32)
                y = s.process(x)
                state["tail"] = np.concatenate([state["tail"], x])[-100_000:]
                state["outs"] = (state["outs"] + [y])[-4:]
                done += k
            return np.concatenate(state["outs"] + [s.flush()])[-10_000:]

        seconds, y_end = seconds_once(feed)
        ref = sftwave.gaussian_filter1d(state["tail"].astype(np.float64), 32.0,
                                        transform=transform)[-10_000:]
        e = float(np.sqrt(np.mean((y_end - ref) ** 2) / np.mean(ref ** 2)))
        res["drift"].append({"transform": transform, "samples": total, "seconds": seconds,
                             "ns_per_sample": 1e9 * seconds / total, "end_rel_rms_vs_batch": e})
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- dask


def _rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def _computed(result):
    """A lazy result computed; a result already in memory (the blobs) as it is."""
    return result.compute() if hasattr(result, "compute") else result


def _on_cluster(client, make, label):
    """``make().compute()`` on the cluster: seconds, peak and idle RSS of each worker (sampled at 0.2 s)."""
    peaks: dict = {}
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            for addr, rss in client.run(_rss).items():
                peaks[addr] = max(peaks.get(addr, 0), rss)
            time.sleep(0.2)

    before = dict(client.run(_rss).items())
    t = threading.Thread(target=sample, daemon=True)
    t.start()
    seconds, result = seconds_once(lambda: _computed(make()))
    stop.set()
    t.join()
    row = {"case": label, "seconds": seconds,
           "peak_rss_mb_per_worker": sorted(round(v / 2**20) for v in peaks.values()),
           "idle_rss_mb_per_worker": sorted(round(v / 2**20) for v in before.values())}
    return row, result


def dask_scaling(quick: bool) -> dict:
    """sftwave.dask on a 2-worker LocalCluster: a 1e8-sample float32 scalogram and a 3-D volume.

    Workers are processes with 1 thread each; inputs are made on the workers
    by dask's random generator (nothing of that size on the client):

    * ``cwt``: 1e8 float32 samples in chunks of 1e7, 20 frequencies from 0.001
      to 0.4 cycles per sample, power, ``decim=100`` (the (20, 1e6) result
      comes back to the client);
    * ``gaussian_filter``: a 512 x 512 x 256 float32 volume in chunks of
      128^3, sigma 10 along every axis (the mean of the result comes back);
    * ``blob_log``: a 4096 x 4096 float32 image of uniform noise in chunks of
      1024^2, 10 sigmas from 2 to 32, threshold 0.1 (the blobs come back; in
      memory the scale space alone is 640 MB).

    Wall time of ``compute()`` (one run after a warm-up on a small array, which
    compiles the kernels on the workers), and the largest resident memory of
    each worker process sampled every 0.2 s during it.  For scale, the
    in-memory function on the same data in this process.
    """
    import sftwave

    res: dict = {"load_start": load_average(), "cases": []}
    if anchor("dask.distributed") is None:
        res["load_end"] = load_average()
        return res
    import logging

    import dask.array as da
    import distributed

    logging.getLogger("distributed").setLevel(logging.ERROR)   # the nannies' closing chatter

    import sftwave.dask as sd

    n, nchunk = (10_000_000, 2_500_000) if quick else (100_000_000, 10_000_000)
    vshape, vchunk = ((128, 128, 64), 64) if quick else ((512, 512, 256), 128)
    ishape, ichunk = (1024, 256) if quick else (4096, 1024)
    blob_kw = dict(min_sigma=2, max_sigma=32, num_sigma=10, threshold=0.1)
    freqs = np.geomspace(0.001, 0.4, 20)
    res["samples"], res["volume"] = n, list(vshape)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        small = da.random.default_rng(9).standard_normal(200_000, chunks=50_000,
                                                         dtype=np.float32)
        sd.cwt(small, freqs, output="power", decim=100).compute()           # warm-up
        sd.gaussian_filter(da.ones((64, 64, 64), chunks=32, dtype=np.float32), 3.0).compute()

        def scalogram():
            x = da.random.default_rng(0).standard_normal(n, chunks=nchunk, dtype=np.float32)
            return sd.cwt(x, freqs, output="power", decim=100)

        def volume():
            v = da.random.default_rng(1).standard_normal(vshape, chunks=vchunk, dtype=np.float32)
            return sd.gaussian_filter(v, 10.0).mean()

        row, power = _on_cluster(client, scalogram,
                                 f"cwt {n:.0e} float32, 20 freqs, power, decim 100".replace("e+0", "e"))
        row["result_shape"] = list(power.shape)
        res["cases"].append(row)
        row, _ = _on_cluster(client, volume,
                             "gaussian_filter {}x{}x{} float32, sigma 10".format(*vshape))
        res["cases"].append(row)

        def blobs():
            img = da.random.default_rng(2).random((ishape, ishape), chunks=ichunk, dtype=np.float32)
            return sd.blob_log(img, **blob_kw)

        sd.blob_log(da.ones((256, 256), chunks=128, dtype=np.float32), **blob_kw)  # warm-up
        row, found = _on_cluster(client, blobs, f"blob_log {ishape}x{ishape} float32, 10 sigmas "
                                                f"2..32")
        row["blobs"] = int(len(found))
        res["cases"].append(row)
    # in memory, in this process (one array at a time), for scale
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    res["in_memory_cwt_seconds"] = seconds_once(
        partial(sftwave.cwt, x, freqs, output="power", decim=100))[0]
    x = None
    v = np.random.default_rng(1).standard_normal(vshape, dtype=np.float32)
    res["in_memory_gaussian_seconds"] = seconds_once(partial(sftwave.gaussian_filter, v, 10.0))[0]
    v = None
    img = da.random.default_rng(2).random((ishape, ishape), chunks=ichunk,
                                          dtype=np.float32).compute()
    from sftwave.feature import blob_log

    res["in_memory_blob_log_seconds"] = seconds_once(partial(blob_log, img,
                                                             **blob_kw))[0]
    res["load_end"] = load_average()
    return res


# ----------------------------------------------------------------------------- import time

IMPORT_CANDIDATES = ("numpy", "scipy.ndimage", "numba", "sftwave")
IMPORT_REFERENCE = "scipy.ndimage"
IMPORT_TARGET_S = 0.5
MUST_BE_ABSENT = ("scipy.ndimage", "scipy.optimize", "numba", "numba_cuda", "matplotlib",
                  "torch", "threadpoolctl")
ALSO_CHECKED = ("scipy", "llvmlite", "numba.cuda", "cupy")

_IMPORT_CHILD = r"""
import sys, time
t0 = time.perf_counter()
import {mod}
t1 = time.perf_counter()
print(repr((t1 - t0, len(sys.modules), [m for m in {heavy!r} if m in sys.modules])))
"""


def _timed_import(mod: str) -> tuple[float, int, list[str]]:
    """(seconds for ``import mod``, modules loaded, heavy modules loaded) in a fresh process."""
    code = _IMPORT_CHILD.format(mod=mod, heavy=MUST_BE_ABSENT + ALSO_CHECKED)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    s, n, heavy = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    return s, n, heavy


def _process_wall(statement: str) -> float:
    """Seconds for the whole ``python -c statement`` process, start to exit."""
    return seconds_once(lambda: subprocess.run([sys.executable, "-c", statement], cwd=ROOT,
                                               check=True))[0]


def _import_round(order: list[str]) -> dict:
    """Every candidate (and the ``pass`` baseline) once, in ``order``: raw seconds."""
    res: dict = {"pass": {"process_s": _process_wall("pass")}}
    for mod in order:
        s, n, heavy = _timed_import(mod)
        res[mod] = {"import_s": s, "modules": n, "heavy": heavy,
                    "process_s": _process_wall(f"import {mod}")}
    return res


def _stats_ms(xs: list[float]) -> dict:
    return {"median_ms": statistics.median(xs) * 1e3, "min_ms": min(xs) * 1e3,
            "max_ms": max(xs) * 1e3, "all_ms": [x * 1e3 for x in xs]}


def import_time(quick: bool) -> dict:
    """Wall time of ``import sftwave`` in fresh processes, against scipy.ndimage, numba and numpy.

    Each measurement is a fresh interpreter, nothing pre-imported; the
    candidates alternate round by round (the order rotates each round), after
    one untimed round that fills the bytecode and file caches.  Two figures per
    candidate: *import* (``time.perf_counter()`` around ``import X`` inside the
    child, numpy included) and *process - pass* (the wall time of the whole
    ``python -c "import X"`` process minus that of ``python -c "pass"``).  The
    child also reports which heavy modules ended up in ``sys.modules``: after
    ``import sftwave`` none of MUST_BE_ABSENT may be there.  Target: ``import
    sftwave`` <= 0.5 s.
    """
    rounds_n = 3 if quick else 15
    order = list(IMPORT_CANDIDATES)
    _import_round(order)   # untimed: fills __pycache__ and the OS file cache
    rounds = [_import_round(order[i % len(order):] + order[:i % len(order)])
              for i in range(rounds_n)]  # alternate, rotating the order, so drift hits all alike
    base = _stats_ms([r["pass"]["process_s"] for r in rounds])
    out: dict = {"rounds": rounds_n, "warmup_rounds": 1, "reference": IMPORT_REFERENCE,
                 "target_s": IMPORT_TARGET_S, "must_be_absent": list(MUST_BE_ABSENT),
                 "also_checked": list(ALSO_CHECKED), "pass_process": base, "candidates": {}}
    for mod in IMPORT_CANDIDATES:
        imp = _stats_ms([r[mod]["import_s"] for r in rounds])
        proc = _stats_ms([r[mod]["process_s"] for r in rounds])
        out["candidates"][mod] = {
            "statement": f"import {mod}",
            "import": imp,
            "process": proc,
            "process_minus_pass": {"median_ms": proc["median_ms"] - base["median_ms"],
                                   "min_ms": proc["min_ms"] - base["min_ms"]},
            "modules_in_sys_modules": statistics.median(r[mod]["modules"] for r in rounds),
            "heavy_modules_loaded": sorted({m for r in rounds for m in r[mod]["heavy"]}),
        }
    ref = out["candidates"][IMPORT_REFERENCE]
    for c in out["candidates"].values():
        c["ratio_to_reference"] = {
            "import_median": c["import"]["median_ms"] / ref["import"]["median_ms"],
            "import_min": c["import"]["min_ms"] / ref["import"]["min_ms"],
            "process_minus_pass_median": (c["process_minus_pass"]["median_ms"]
                                          / ref["process_minus_pass"]["median_ms"]),
        }
    sft = out["candidates"]["sftwave"]
    out["sftwave_must_be_absent_loaded"] = [m for m in MUST_BE_ABSENT
                                            if m in sft["heavy_modules_loaded"]]
    return out
