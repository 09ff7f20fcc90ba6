"""Wavelet coherence against pycwt: ``wct`` (``sig=False``), ``xwt`` and the Monte-Carlo significance.

Two AR(1) series (0.7 and 0.4, the second with a share of the first), pycwt's
default scales (``s0 = 2 dt / 1.033``, ``dj = 1/12``: 133 scales at N = 4,000
and 161 at 20,000).  The calls alternate, medians:

* pycwt's ``wct(sig=False)`` and ``xwt`` against ``sftwave.pycwt``'s (the same
  numbers, pycwt's padding and wrap reproduced) and ``sftwave.coherence``'s
  (``mode='constant'``, Grinsted's width, no wrap) at the same scales;
* the Monte-Carlo significance at pycwt's settings (300 pairs of surrogates
  six times the largest scale long: 119,894 samples for N = 20,000): sftwave's
  whole run timed once (cache off); pycwt's one draw (its transforms, smoothings
  and histogram loop, as in its ``wct_significance``) timed and multiplied by
  300, an estimate.

``$SFTWAVE_BENCH_COHERENCE_DRAWS`` (default 300; 10 with ``--quick``) sets the
number of sftwave's draws on a busy machine; the page gives the count run and
the time per draw.

:func:`coherence_pairs` (the section ``coherence_pairs``): the coherence of every
pair of 16 channels of 20,000 samples (8 of 4,000 with ``--quick``) at pycwt's
scales with ``dj = 1/4``: ``sftwave.coherence.wct_pairs`` against a loop of
sftwave's ``wct`` over the pairs and a loop of pycwt's ``wct(sig=False)`` over
a few pairs, its time per pair multiplied by the number of pairs (an estimate,
labelled so).  Then ``sftwave.dask.wct_pairs`` on 64 channels (16 with
``--quick``; blocks of 8 channels, the threaded scheduler), reduced to the
time-averaged coherence per pair and row so that only a chunk of pairs is
ever in memory: its time, and its time per pair against the in-memory one's.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

from .common import alternate, anchor, load_average


def _pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    from scipy.signal import lfilter
    rng = np.random.default_rng(seed)
    x = lfilter([1.0], [1.0, -0.7], rng.standard_normal(n))
    y = lfilter([1.0], [1.0, -0.4], rng.standard_normal(n)) + 0.3 * x
    return x, y


def _pycwt_draw(pycwt, n_noise: int, al1: float, al2: float, dt: float, dj: float, s0: float,
                J: int) -> float:
    """One iteration of pycwt's ``wct_significance`` loop (its code), in seconds."""
    from pycwt.helpers import rednoise
    mother = pycwt.Morlet(6)
    _, sj, freq, coi, _, _ = pycwt.cwt(rednoise(n_noise, al1, 1), dt=dt, dj=dj, s0=s0, J=J,
                                       wavelet=mother)
    period = np.ones([1, n_noise]) / freq[:, None]
    coi = np.ones([J + 1, 1]) * coi[None, :]
    outsidecoi = period <= coi
    scales = np.ones([1, n_noise]) * sj[:, None]
    maxscale = np.flatnonzero(outsidecoi.any(axis=1))[-1]
    nbins = 1000
    wlc = np.ma.zeros([J + 1, nbins])
    t0 = time.perf_counter()
    noise1 = rednoise(n_noise, al1, 1)
    noise2 = rednoise(n_noise, al2, 1)
    kw = dict(dt=dt, dj=dj, s0=s0, J=J, wavelet=mother)
    nW1, sj, freq, coi, _, _ = pycwt.cwt(noise1, **kw)
    nW2, sj, freq, coi, _, _ = pycwt.cwt(noise2, **kw)
    nW12 = nW1 * nW2.conj()
    S1 = mother.smooth(np.abs(nW1) ** 2 / scales, dt, dj, sj)
    S2 = mother.smooth(np.abs(nW2) ** 2 / scales, dt, dj, sj)
    S12 = mother.smooth(nW12 / scales, dt, dj, sj)
    R2 = np.ma.array(np.abs(S12) ** 2 / (S1 * S2), mask=~outsidecoi)
    for s in range(maxscale):
        cd = np.floor(R2[s, :] * nbins)
        for t in cd[~cd.mask]:
            wlc[s, int(t)] += 1
    return time.perf_counter() - t0


def coherence(quick: bool) -> dict:
    """The section ``coherence``: see the module's docstring."""
    pycwt = anchor("pycwt")
    import sftwave.pycwt as sp
    from sftwave import coherence as coh

    res: dict = {"load_start": load_average(), "cases": []}
    if pycwt is None:
        res["skipped"] = "pycwt not installed"
        return res
    dt, dj = 1.0, 1.0 / 12.0
    rounds = 3 if quick else 7
    for n in ((4000,) if quick else (4000, 20_000)):
        x, y = _pair(n)
        _, _, _, freq, _ = pycwt.wct(x, y, dt, sig=False)
        sj = 1.0 / (freq * 4 * math.pi / (6 + math.sqrt(38)))
        f = 6.0 / (2 * np.pi * sj)
        calls = {
            "pycwt wct": lambda x=x, y=y: pycwt.wct(x, y, dt, sig=False),
            "sftwave.pycwt wct": lambda x=x, y=y: sp.wct(x, y, dt, sig=False),
            "sftwave.coherence wct": lambda x=x, y=y, f=f: coh.wct(x, y, f, mode="constant"),
            "pycwt xwt": lambda x=x, y=y: pycwt.xwt(x, y, dt),
            "sftwave.pycwt xwt": lambda x=x, y=y: sp.xwt(x, y, dt),
            "sftwave.coherence xwt": lambda x=x, y=y, f=f: coh.xwt(x, y, f, mode="constant"),
        }
        case = {"n": n, "scales": int(f.size), "load_start": load_average(),
                "times": alternate(calls, rounds)}
        case["load_end"] = load_average()
        ref = pycwt.wct(x, y, dt, sig=False)[0]
        ours = sp.wct(x, y, dt, sig=False)[0]
        rows = 1.0 / freq >= 6 * dt
        case["max_abs_difference_wct"] = float(np.max(np.abs(ours[rows] - ref[rows])))
        res["cases"].append(case)

    # the Monte-Carlo significance at pycwt's settings for N
    n = 4000 if quick else 20_000
    draws = int(os.environ.get("SFTWAVE_BENCH_COHERENCE_DRAWS", 10 if quick else 300))
    s0 = 2 * dt / (4 * math.pi / (6 + math.sqrt(38)))
    J = int(np.round(np.log2(n * dt / s0) / dj))
    sj = s0 * 2 ** (np.arange(J + 1) * dj)
    n_noise = int(math.ceil(6 * sj[-1] / dt))
    al1, al2 = 0.7, 0.4
    mc: dict = {"n": n, "scales": J + 1, "surrogate_samples": n_noise, "draws": draws,
                "load_start": load_average()}
    t0 = time.perf_counter()
    sp.wct_significance(al1, al2, dt, dj, s0, J, mc_count=draws, cache=False)
    mc["sftwave_s"] = time.perf_counter() - t0
    mc["sftwave_per_draw_s"] = mc["sftwave_s"] / draws
    mc["load_mid"] = load_average()
    one = [_pycwt_draw(pycwt, n_noise, al1, al2, dt, dj, s0, J) for _ in range(1 if not quick
                                                                              else 2)]
    mc["pycwt_one_draw_s"] = float(np.median(one))
    mc["pycwt_estimate_s"] = 300 * mc["pycwt_one_draw_s"]
    mc["sftwave_300_s"] = 300 * mc["sftwave_per_draw_s"]
    mc["load_end"] = load_average()
    res["significance"] = mc
    res["load_end"] = load_average()
    return res


def _channels(c: int, n: int, seed: int = 0) -> np.ndarray:
    from scipy.signal import lfilter
    rng = np.random.default_rng(seed)
    x = lfilter([1.0], [1.0, -0.6], rng.standard_normal((c, n)), axis=-1)
    return x + 0.4 * x[:1]


def coherence_pairs(quick: bool) -> dict:
    """The section ``coherence_pairs``: see the module's docstring."""
    from sftwave import coherence as coh

    pycwt = anchor("pycwt")
    c, n = (8, 4000) if quick else (16, 20_000)
    dt, dj = 1.0, 0.25
    s0 = 2 * dt / (4 * math.pi / (6 + math.sqrt(38)))
    J = int(np.round(np.log2(n * dt / s0) / dj))
    sj = s0 * 2 ** (np.arange(J + 1) * dj)
    f = 6.0 / (2 * np.pi * sj)                 # pycwt's scales as sftwave's frequencies
    x = _channels(c, n)
    seeds, targets = np.triu_indices(c, 1)
    pairs = list(zip(seeds.tolist(), targets.tolist()))
    rounds = 1 if quick else 3
    res: dict = {"channels": c, "n": n, "scales": int(f.size), "pairs": len(pairs),
                 "dj": dj, "rounds": rounds, "load_start": load_average()}

    def together():      # the loop's pairs, in the loop's order
        return coh.wct_pairs(x, f, indices=(seeds, targets), mode="constant")

    def loop():
        for i, j in pairs:
            coh.wct(x[i], x[j], f, mode="constant")

    coh.wct_pairs(x[:2], f, mode="constant")      # compile and plan, untimed
    coh.wct(x[0], x[1], f, mode="constant")
    times: dict = {"wct_pairs": [], "wct loop": []}
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = together()
        times["wct_pairs"].append(time.perf_counter() - t0)
        del r
        t0 = time.perf_counter()
        loop()
        times["wct loop"].append(time.perf_counter() - t0)
    res["times"] = {k: {"median_s": float(np.median(v)), "all_s": v} for k, v in times.items()}
    r = together()
    ref = coh.wct(x[0], x[c - 1], f, mode="constant")       # pair c - 2 is (0, c - 1)
    res["max_abs_difference"] = float(np.max(np.abs(r.coherence[c - 2] - ref.coherence)))
    res["max_abs_phase_difference"] = float(np.max(np.abs(np.angle(np.exp(1j * (r.phase[c - 2]
                                                                            - ref.phase))))))
    res["output_gb"] = float((r.coherence.nbytes + r.phase.nbytes) / 1e9)
    del r, ref
    res["load_mid"] = load_average()
    if pycwt is None:
        res["pycwt_skipped"] = "pycwt not installed"
    else:
        k = 2 if quick else 4                   # a few pairs, spread over the channels
        some = [pairs[i] for i in np.linspace(0, len(pairs) - 1, k).astype(int)]
        pycwt.wct(x[0, :1000], x[1, :1000], dt, dj=dj, s0=s0, J=-1, sig=False)
        t0 = time.perf_counter()
        for i, j in some:
            pycwt.wct(x[i], x[j], dt, dj=dj, s0=s0, J=J, sig=False)
        per = (time.perf_counter() - t0) / k
        res["pycwt"] = {"pairs_timed": k, "per_pair_s": per, "estimate_s": per * len(pairs)}
    res["dask"] = _dask_pairs(16 if quick else 64, n, f)
    res["load_end"] = load_average()
    return res


def _dask_pairs(c: int, n: int, f: np.ndarray) -> dict:
    """``sftwave.dask.wct_pairs`` of ``c`` channels, the time-averaged coherence computed."""
    try:
        import dask.array as da
    except ImportError:
        return {"skipped": "dask not installed"}
    import sftwave.dask as sd
    x = da.from_array(_channels(c, n, seed=1), chunks=(8, n))
    r = sd.wct_pairs(x, f, mode="constant")
    t0 = time.perf_counter()
    mean = r.coherence.mean(axis=-1).compute()
    t = time.perf_counter() - t0
    pairs = c * (c - 1) // 2
    return {"channels": c, "pairs": pairs, "seconds": t, "per_pair_s": t / pairs,
            "tasks_of_pairs": int(r.coherence.numblocks[0]),
            "output_gb_not_held": float(pairs * f.size * n * 8 / 1e9),
            "mean_coherence": float(np.mean(mean))}
