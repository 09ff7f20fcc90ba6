"""Render the benchmark JSON as markdown (docs/benchmarks.md).

    .venv/bin/python benchmarks/report.py [results.json [out.md]]

Every number in the page, including the sentences of the reading, comes from
the JSON, so the page always describes the run it was generated from.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fmt import err, load_result, ms, num, ratio, sec, table  # noqa: E402
from report_cwt import section_cwt, section_targets, simpleitk_part  # noqa: E402
from report_workloads import section_workloads  # noqa: E402


WORKLOAD_KEYS = ("first_call", "gaussian1d", "gaussian2d", "crossover", "bank_methods",
                 "float32_drift", "cwt", "cwt_first_call", "cwt_few_scales")

# ----------------------------------------------------------------------------- formatting


def reps(t: dict) -> str:
    return f"{t['repeats']}" + ("" if t["warmup"] else ", no warm-up")


# ----------------------------------------------------------------------------- sections


def section_machine(res: dict) -> str:
    m = res["machine"]
    v = m["versions"]
    load = m.get("load_average_at_start")
    return "\n".join([
        "## Machine and command",
        "",
        ("* Command: `make bench`, i.e. " if not res.get("quick") else "* Command: ")
        + f"`{res['command']}` (total {res['total_wall_s'] / 60:.1f} min); raw results in "
        f"`{res.get('out', 'benchmarks/results/benchmarks.json')}`.",
        f"* Date: {m['date']}.",
        f"* CPU: {m['cpu_model']}, {m['cpu_count']} cores ({m['cpus_available']} available); "
        f"sftwave threads {m['numba_threads']}, OpenCV threads {m['opencv_threads']}; "
        "scipy.ndimage is single-threaded."
        + (f" Load average at start: {', '.join(f'{x:.2f}' for x in load)}." if load else ""),
        f"* Python {m['python']} on {m['platform']}; numpy {v['numpy']}, scipy {v['scipy']}, "
        f"numba {v['numba']}, OpenCV {v['cv2']}, PyWavelets {v['pywt']}, sftwave {v['sftwave']}.",
        "* Times are medians over the stated repetitions, after one untimed warm-up call "
        "(so numba compilation and the plan caches are excluded; see *First call*). "
        "This is a shared machine: repeated runs vary by up to ~40 %, so compare only ratios "
        "taken from the same run.",
        "* Load average (1 min) at the start / end of each part: "
        + "; ".join(f"{k} {res[k]['load_average_1min']['start']:.2f} / "
                    f"{res[k]['load_average_1min']['end']:.2f}"
                    for k in WORKLOAD_KEYS if k in res and "load_average_1min" in res[k]) + ".",
        f"* Accuracy is the relative RMSE, sqrt(mean((y - ref)^2) / mean(ref^2)), against an "
        f"exact float64 reference: the reflect-extended input convolved (by FFT) with scipy's "
        f"sampled Gaussian truncated at 12 sigma. That reference agrees with "
        f"`scipy.ndimage.gaussian_filter1d(..., truncate=12)` to "
        f"{err(res['reference_check']['max_rel_rmse_fft_vs_scipy_truncate12'])}.",
    ])


def variation(g: dict, key: str) -> float:
    """max / min of sftwave's order-0 median over sigma 8..2048 (``key``: the timing)."""
    t = [r[key]["median_ms"] for r in g["rows"] if r["order"] == 0 and 8 <= r["sigma"] <= 2048]
    return max(t) / min(t)


def section_1d(res: dict) -> str:
    g = res["gaussian1d"]
    fl = g["floor"]
    s0 = g["rows"][0]
    rows = []
    for r in g["rows"]:
        note = "" if reps(r["scipy"]) == reps(s0["scipy"]) else f" ({reps(r['scipy'])})"
        rows.append([
            num(r["sigma"]), str(r["order"]), r["sftwave_path"],
            ms(r["sftwave"]["median_ms"]), ms(r["sftwave_1thread"]["median_ms"]),
            ms(r["scipy"]["median_ms"]) + note,
            ratio(r["ratio_scipy_over_sftwave"]), ratio(r["ratio_sftwave_over_memcpy"]),
            err(r["sftwave_rel_rmse"]), err(r["scipy_rel_rmse"]),
        ])
    return "\n".join([
        "## 1-D: `gaussian_filter1d`",
        "",
        f"N = {g['n']:,} {g['dtype']} samples ({g['signal']}), mode 'reflect', default "
        f"`truncate=4`. sftwave uses {g['numba_threads']} threads (the "
        f"'1 thread' column: `sftwave.set_workers(1)`); scipy uses one. sftwave repetitions: "
        f"{s0['sftwave']['repeats']}; scipy: {s0['scipy']['repeats']} unless stated in "
        "brackets (its cost grows with sigma, so the largest sigmas get fewer).",
        "",
        table(["sigma", "order", "sftwave path", "sftwave ms", "sftwave 1 thread ms", "scipy ms",
               "scipy / sftwave", "sftwave / memcpy", "sftwave error", "scipy error"], rows),
        "",
        f"Floor: `np.copyto(dst, src)` into a preallocated array takes {ms(fl['memcpy_ms'])} ms; "
        f"copying into a fresh `np.empty_like` output (what a filter returning a new array "
        f"pays at least) {ms(fl['fresh_output_copy_ms'])} ms. sftwave's time across sigma 8 to "
        f"2048 (order 0) varies by a factor of {variation(g, 'sftwave'):.2f} (max / min), "
        f"{variation(g, 'sftwave_1thread'):.2f} on one thread.",
    ])


def section_2d(res: dict) -> str:
    g = res["gaussian2d"]
    rows = []
    for r in g["rows"]:
        rows.append([
            num(r["sigma"]), str(r["opencv_ksize"]), r["sftwave_path"],
            ms(r["sftwave"]["median_ms"]), ms(r["scipy"]["median_ms"]), ms(r["opencv"]["median_ms"]),
            ratio(r["ratio_scipy_over_sftwave"]), ratio(r["ratio_opencv_over_sftwave"]),
            ratio(r["ratio_sftwave_over_memcpy"]),
            err(r["sftwave_rel_rmse"]), err(r["scipy_rel_rmse"]), err(r["opencv_rel_rmse"]),
        ])
    b = g["border_check_rel_rmse_vs_scipy_reflect"]
    r0, rl = g["rows"][0], g["rows"][-1]
    return "\n".join([
        "## 2-D: `gaussian_filter` vs scipy vs OpenCV",
        "",
        f"A {g['shape'][0]} x {g['shape'][1]} {g['dtype']} image ({g['image']}), every axis "
        "filtered, float32 in and out for all three. OpenCV: "
        "`cv2.GaussianBlur(img, (ksize, ksize), sigmaX=s, sigmaY=s, "
        "borderType=cv2.BORDER_REFLECT)` with `ksize = 2*int(4*s + 0.5) + 1`, scipy's radius at "
        "`truncate=4` (OpenCV's own default size from sigma is different). "
        f"Repetitions: {reps(r0['sftwave'])}; for scipy and OpenCV {reps(r0['scipy'])} "
        f"({reps(rl['scipy'])} at sigma {num(rl['sigma'])}). OpenCV uses "
        f"{g['opencv_threads']} threads, sftwave {g['numba_threads']} threads. "
        f"memcpy of the image: {ms(g['memcpy_ms'])} ms.",
        "",
        table(["sigma", "OpenCV ksize", "sftwave path", "sftwave ms", "scipy ms", "OpenCV ms",
               "scipy / sftwave", "OpenCV / sftwave", "sftwave / memcpy",
               "sftwave error", "scipy error", "OpenCV error"], rows),
        "",
        "Errors are against the float64 filter of the same image, so they include float32 "
        "rounding of the output (about 3e-8). Border check: OpenCV on a 40 x 50 image at "
        "sigma 6 against scipy 'reflect', relative RMSE "
        + ", ".join(f"`{k}` {err(v)}" for k, v in b.items())
        + " (scipy 'reflect', `d c b a | a b c d`, is OpenCV `BORDER_REFLECT`; "
        "`BORDER_REFLECT_101` is scipy 'mirror').",
    ] + simpleitk_part(g))


def section_first_call(res: dict) -> str:
    f = res["first_call"]
    keys = [("import_ms", "import"), ("plan_ms", "plan design (sigma 128)"),
            ("first_call_1d_ms", "first 1-D call"), ("second_call_1d_ms", "second 1-D call"),
            ("first_call_2d_float32_ms", "first 2-D float32 call"),
            ("second_call_2d_float32_ms", "second 2-D float32 call")]
    rows = [[label, ms(f["cold"][k]), ms(f["cached"][k])] for k, label in keys]
    tot = {s: f[s]["plan_ms"] + f[s]["first_call_1d_ms"] for s in ("cold", "cached")}
    rows.append(["**first call (compile + plan), 1-D**", f"**{ms(tot['cold'])}**",
                 f"**{ms(tot['cached'])}**"])
    return "\n".join([
        "## First call (compile + plan)",
        "",
        f"Each column is a fresh interpreter: `import sftwave`, design the plan for sigma "
        f"{num(f['sigma_1d'])} (`sftwave.plans.select_gaussian`), then filter N = {f['n_1d']:,} float64 "
        f"samples at sigma {num(f['sigma_1d'])} twice and a {f['shape_2d'][0]} x "
        f"{f['shape_2d'][1]} float32 image at sigma {num(f['sigma_2d'])} twice (a new dtype: "
        "new numba specialisations). Both runs use the same new, empty `NUMBA_CACHE_DIR`: "
        "'cold' compiles every kernel and fills the on-disk cache, 'cached' loads them from it. "
        "Milliseconds:",
        "",
        table(["step", "cold cache ms", "cached ms"], rows),
    ])


def _break_even_text(c: dict, be: dict, label: str) -> str:
    lo, hi = be["best_D_interval"]
    where = (f"lies in [{lo:.2f}, {hi:.2f})" if hi is not None
             else f"is at least {lo:.2f} (direct was as fast at every ratio measured)")
    up = be["direct_wins_up_to_taps_per_order"]
    down = be["bank_wins_from_taps_per_order"]
    return (
        f"* **{label}:** direct was faster "
        + (f"up to taps/orders = {up:.2f}" if up is not None else "nowhere")
        + ", the bank "
        + (f"from {down:.2f}" if down is not None else "nowhere")
        + f". The threshold of 'direct if taps <= D * orders' minimising the total time of "
        f"these cases {where}: **D = {be['best_D']:.2f}** (total {ms(be['total_ms_best_rule'])} ms, "
        f"against {ms(be['total_ms_current_rule'])} ms with the current value). Median costs "
        f"{be['median_direct_ns_per_sample_per_tap']:.3f} ns per sample per tap (direct) and "
        f"{be['median_bank_ns_per_sample_per_order']:.3f} ns per sample per order (bank): "
        f"cost-model ratio {be['cost_ratio_D']:.2f}."
    )


def section_crossover(res: dict) -> str:
    c = res["crossover"]
    rows = []
    for r in c["rows"]:
        bank = "bank_ms" in r
        rows.append([
            num(r["sigma"]), str(r["order"]), str(r["taps"]),
            str(r["bank_orders"]) if bank else "–",
            f"{r['taps_per_order']:.2f}" if bank else "–",
            ms(r["direct_ms"]),
            ms(r["bank_ms"]) if bank else "no plan",
            ms(r["bank_1thread_ms"]) if bank else "no plan",
            f"{r['direct_ns_per_sample_per_tap']:.3f}",
            f"{r['bank_ns_per_sample_per_order']:.3f}" if bank else "–",
            f"{r['bank_1thread_ns_per_sample_per_order']:.3f}" if bank else "–",
            r.get("faster", "direct (no plan)"), r.get("faster_1thread", "direct (no plan)"),
            r["auto_path"], err(r["direct_rel_rmse"]), err(r.get("bank_rel_rmse")),
        ])
    nt = c["numba_threads"]
    return "\n".join([
        "## Crossover: direct FIR vs the bank at small sigma",
        "",
        f"N = {c['n']:,} {c['dtype']}, both paths forced: `method='fir'` (one thread: "
        "scipy's FIR for orders 0 and 1, the moment-corrected kernel for order 2; taps = its "
        "length) and `method='bank', bank_method='iir1'` (bank orders = number of frequencies in the plan plus one, "
        "the fixed work per sample, as the 'auto' rule counts them), the "
        f"bank on {nt} threads and on 1. 'no plan': the bank cannot reach the default "
        "accuracy there. 'auto picks' is the current rule: direct if taps <= "
        f"`FIR_TAPS_PER_ORDER` = {num(c.get('current_effective_D', c['current_DIRECT_TAPS_PER_ORDER']))} "
        "per bank order (the two-thread break-even, the same on every machine: a plan never "
        "depends on the thread count). Errors are against the exact reference.",
        "",
        table(["sigma", "order", "taps", "bank orders", "taps / order", "direct ms",
               f"bank ms ({nt} thr)", "bank ms (1 thr)", "direct ns / sample / tap",
               f"bank ns / sample / order ({nt} thr)", "bank ns / sample / order (1 thr)",
               f"faster ({nt} thr)", "faster (1 thr)", "auto picks", "direct error",
               "bank error"], rows),
        "",
        _break_even_text(c, c["break_even"], f"Break-even, bank on {nt} threads"),
        _break_even_text(c, c["break_even_1thread"], "Break-even, bank on 1 thread"),
    ])


def section_bank(res: dict) -> str:
    b = res["bank_methods"]
    rows = []
    for r in b["rows"]:
        if "error" in r:
            rows.append([r["transform"], r["method"], str(r["bank_orders"]), "error", "–", "–"])
        else:
            rows.append([r["transform"], r["method"], str(r["bank_orders"]),
                         ms(r["time"]["median_ms"]), ms(r["time_1thread"]["median_ms"]),
                         err(r["rel_rmse"])])
    notes = [f"* `{r['method']}` with `{r['transform']}`: {r['error']}" for r in b["rows"]
             if "error" in r]
    return "\n".join([
        "## Bank methods",
        "",
        f"sigma {num(b['sigma'])}, order {b['order']}, N = {b['n']:,} {b['dtype']}; every "
        "`bank_method` of `sftwave.engines.numba.bank.METHODS` (`method='bank'`) with `transform='sft'` and `'asft'`, "
        f"{next((r['time']['repeats'] for r in b['rows'] if 'time' in r), '–')} repetitions. "
        "'bank orders': complex recursions per sample (one per frequency) plus one.",
        "",
        table(["transform", "method", "bank orders", f"ms ({b['numba_threads']} threads)",
               "ms (1 thread)", "error"], rows),
        *(["", *notes] if notes else []),
    ])


def section_drift(res: dict) -> str:
    d = res["float32_drift"]
    rows = [[num(r["sigma"]), str(r["order"]), r["transform"], r["path"],
             err(r["max_block_rel_rmse"]), str(r["argmax_block"]), err(r["last_block_rel_rmse"]),
             "yes" if r["passes"] else "**no**"] for r in d["rows"]]
    return "\n".join([
        "## float32 drift",
        "",
        f"Not a timing. N = {d['n']:,} samples, {d['signal']}. Reference: {d['reference']}. "
        f"Relative RMSE in every block of {d['block']} samples; acceptance: "
        f"<= {d['criterion_max_rel_rmse']:g} in every block.",
        "",
        table(["sigma", "order", "transform", "path", "max over blocks", "worst block",
               "last block", "passes"], rows),
    ])


# ----------------------------------------------------------------------------- reading


def reading(res: dict) -> str:
    g1, g2 = res["gaussian1d"], res["gaussian2d"]
    out = ["## Reading", ""]
    o0 = {r["sigma"]: r for r in g1["rows"] if r["order"] == 0}
    r128 = o0.get(128.0)
    if r128:
        big = [r for s, r in o0.items() if s >= 8]
        out.append(
            f"* **1-D, sigma 128:** sftwave {ms(r128['sftwave']['median_ms'])} ms, scipy "
            f"{ms(r128['scipy']['median_ms'])} ms: **{ratio(r128['ratio_scipy_over_sftwave'])}** "
            f"faster ({ms(r128['sftwave_1thread']['median_ms'])} ms on one thread, "
            f"{ratio(r128['scipy']['median_ms'] / r128['sftwave_1thread']['median_ms'])}). "
            f"From sigma 8 to 2048 sftwave's time varies by {variation(g1, 'sftwave'):.2f}× "
            f"({variation(g1, 'sftwave_1thread'):.2f}× on one thread) while scipy's grows "
            f"{ratio(max(r['scipy']['median_ms'] for r in big) / min(r['scipy']['median_ms'] for r in big))}; "
            f"the speed-up ranges from {ratio(min(r['ratio_scipy_over_sftwave'] for r in big))} "
            f"to {ratio(max(r['ratio_scipy_over_sftwave'] for r in big))} (one thread: "
            f"{ratio(min(r['scipy']['median_ms'] / r['sftwave_1thread']['median_ms'] for r in big))}"
            f" to {ratio(max(r['scipy']['median_ms'] / r['sftwave_1thread']['median_ms'] for r in big))}"
            f"). sftwave costs {ratio(r128['ratio_sftwave_over_memcpy'])} a memcpy of the data."
        )
    small = [r for s, r in o0.items() if s < 8]
    for r in small:
        same = (" (scipy's own FIR, the same computation: errors "
                f"{err(r['sftwave_rel_rmse'])} and {err(r['scipy_rel_rmse'])})"
                if r["sftwave_path"] == "direct" else "")
        out.append(
            f"* **Small sigma ({num(r['sigma'])}):** 'auto' takes the {r['sftwave_path']} "
            f"path{same}; scipy / sftwave time {ratio(r['ratio_scipy_over_sftwave'])}."
        )
    n_better = sum(r["sftwave_rel_rmse"] <= r["scipy_rel_rmse"] for r in g1["rows"])
    out.append(
        f"* **1-D accuracy:** sftwave's default error is at most scipy's default error in "
        f"{n_better} of {len(g1['rows'])} cases (errors "
        f"{err(min(r['sftwave_rel_rmse'] for r in g1['rows']))} to "
        f"{err(max(r['sftwave_rel_rmse'] for r in g1['rows']))} against scipy's "
        f"{err(min(r['scipy_rel_rmse'] for r in g1['rows']))} to "
        f"{err(max(r['scipy_rel_rmse'] for r in g1['rows']))})."
    )
    d2 = [r for r in g1["rows"] if r["order"] == 2]
    if d2:
        r = d2[0]
        out.append(
            f"* **Derivatives:** the largest accuracy gap is the second derivative: at sigma "
            f"{num(r['sigma'])} sftwave's error is {err(r['sftwave_rel_rmse'])}, scipy's "
            f"{err(r['scipy_rel_rmse'])}. scipy's truncated derivative kernels do not sum exactly "
            "to zero, which the large, slowly varying level of a random walk exposes; sftwave's "
            "fitted kernels reproduce constants, ramps and parabolas exactly."
        )
    wins = [num(r["sigma"]) for r in g2["rows"] if r["ratio_opencv_over_sftwave"] >= 1]
    losses = [num(r["sigma"]) for r in g2["rows"] if r["ratio_opencv_over_sftwave"] < 1]
    parts = []
    if wins:
        parts.append(f"sftwave is faster than OpenCV at sigma {', '.join(wins)}")
    if losses:
        parts.append(f"OpenCV is faster at sigma {', '.join(losses)}")
    rr = ", ".join(f"{ratio(r['ratio_opencv_over_sftwave'])} (sigma {num(r['sigma'])})"
                   for r in g2["rows"])
    rs = ", ".join(f"{ratio(r['ratio_scipy_over_sftwave'])} (sigma {num(r['sigma'])})"
                   for r in g2["rows"])
    out.append(f"* **2-D float32:** {'; '.join(parts)}. OpenCV / sftwave: {rr}. "
               f"scipy / sftwave: {rs}.")
    f = res["first_call"]
    out.append(
        f"* **First call:** {ms(f['cold']['plan_ms'] + f['cold']['first_call_1d_ms'])} ms with an "
        f"empty numba cache, {ms(f['cached']['plan_ms'] + f['cached']['first_call_1d_ms'])} ms "
        f"with the on-disk cache, against {ms(f['cached']['second_call_1d_ms'])} ms for the "
        "next call."
    )
    c = res["crossover"]
    be, be1 = c["break_even"], c["break_even_1thread"]
    cr2 = [r for r in c["rows"] if r["order"] == 2 and "bank_ms" in r]
    acc = ""
    if cr2:
        acc = (f" For order 2 the direct FIR (the moment-corrected kernel) has errors "
               f"{err(min(r['direct_rel_rmse'] for r in cr2))} to "
               f"{err(max(r['direct_rel_rmse'] for r in cr2))}, the bank "
               f"{err(min(r['bank_rel_rmse'] for r in cr2))} to "
               f"{err(max(r['bank_rel_rmse'] for r in cr2))}.")
    out.append(
        f"* **Crossover:** the measured break-even is D = {be['best_D']:.2f} taps per bank order "
        f"with the bank on {c['numba_threads']} threads and D = {be1['best_D']:.2f} on one "
        f"(current rule: D = `FIR_TAPS_PER_ORDER` = "
        f"{num(c.get('current_effective_D', c['current_DIRECT_TAPS_PER_ORDER']))}).{acc}"
    )
    b = res["bank_methods"]
    ok = [r for r in b["rows"] if "time" in r]
    if ok:
        fast = min(ok, key=lambda r: r["time"]["median_ms"])
        fast1 = min(ok, key=lambda r: r["time_1thread"]["median_ms"])
        slow1 = max(ok, key=lambda r: r["time_1thread"]["median_ms"])
        worst = max(ok, key=lambda r: r["rel_rmse"])
        best = min(ok, key=lambda r: r["rel_rmse"])
        out.append(
            f"* **Bank methods (sigma {num(b['sigma'])}):** fastest `{fast['method']}`/"
            f"`{fast['transform']}` ({ms(fast['time']['median_ms'])} ms); on one thread fastest "
            f"`{fast1['method']}`/`{fast1['transform']}` ({ms(fast1['time_1thread']['median_ms'])} "
            f"ms), slowest `{slow1['method']}`/`{slow1['transform']}` "
            f"({ms(slow1['time_1thread']['median_ms'])} ms). Errors range from "
            f"{err(best['rel_rmse'])} to {err(worst['rel_rmse'])} "
            f"(`{worst['method']}`/`{worst['transform']}`)."
        )
        by = {(r["method"], r["transform"]): r for r in ok}
        if ("iir1", "sft") in by and ("iir1", "asft") in by:
            a, s_ = by[("iir1", "asft")], by[("iir1", "sft")]
            out.append(
                f"* **ASFT cost:** on one thread `iir1` takes "
                f"{a['time_1thread']['median_ms'] / s_['time_1thread']['median_ms']:.2f}× as long "
                f"with the ASFT as with the SFT, at the same number of frequencies "
                f"({a['bank_orders']} and {s_['bank_orders']})."
            )
    pairs = [(r["sftwave"], r["sftwave_1thread"]) for r in g1["rows"]]
    pairs += [(r["time"], r["time_1thread"]) for r in ok]
    stalled = sum(t["median_ms"] > t1["median_ms"] for t, t1 in pairs)
    loads = [res[k]["load_average_1min"]["end"] for k in WORKLOAD_KEYS
             if k in res and "load_average_1min" in res[k]]
    if stalled:
        out.append(
            f"* **Threads:** in {stalled} of {len(pairs)} 1-D and bank cases sftwave on "
            f"{g1['numba_threads']} threads was slower than on one. A parallel call waits for "
            "its slowest thread, and other work shared this machine during the run (1-minute "
            f"load average up to {max(loads):.2f} on {res['machine']['cpu_count']} cores): the "
            "multi-threaded figures (sftwave's and OpenCV's) are the ones it hits, the 1-thread "
            "columns are the steadier ones."
        )
    d = res["float32_drift"]
    worst = max(d["rows"], key=lambda r: r["max_block_rel_rmse"])
    out.append(
        f"* **float32 drift:** {'every case passes' if d['all_pass'] else 'NOT every case passes'} "
        f"the {d['criterion_max_rel_rmse']:g} criterion; the worst block error is "
        f"{err(worst['max_block_rel_rmse'])} (sigma {num(worst['sigma'])}, order {worst['order']}, "
        f"transform {worst['transform']})."
    )
    return "\n".join(out)


_LABELS = {
    "line_sigma8": ("`gaussian_filter1d`, 1000 samples, sigma 8 (direct FIR)", "scipy_line_sigma8"),
    "line_sigma64": ("`gaussian_filter1d`, 1000 samples, sigma 64 (bank)", "scipy_line_sigma8"),
    "img64_sigma4": ("`gaussian_filter`, 64 x 64 float32, sigma 4", "scipy_img64_sigma4"),
    "n1e6_sigma128": ("`gaussian_filter1d`, N = 1e6, sigma 128", "scipy_n1e6_sigma128"),
    "img2048_sigma8": ("`gaussian_filter`, 2048 x 2048 float32, sigma 8", "scipy_img2048_sigma8"),
    "cwt_1e5_200": ("`cwt`, 1e5 float32 samples, 200 frequencies, complex64", None),
    "eeg_power": ("`cwt`, EEG 60 x 32 x 1000 at 250 Hz, 37 freqs, 7 cycles, power, decim 4",
                  "mne_eeg_power"),
}


def section_threading(_res: dict) -> str:
    """The thread pool against numba's OpenMP layer (benchmarks/threading_ab.py), if it was run."""
    ab = load_result("threading_ab.json")
    if ab is None:
        return ""
    meta = ab["meta"]
    rows = []
    for cond, label in (("idle", "idle"), ("busy", "other core busy")):
        for key, (text, anchor) in _LABELS.items():
            if key not in ab["old"][cond]:
                continue
            o, n = ab["old"][cond][key], ab["new"][cond][key]
            a = ab["new"][cond].get(anchor) if anchor else None
            rows.append([f"{text}, {label}", ms(o * 1e3), ms(n * 1e3), ratio(o / n),
                         "–" if a is None else ratio(a / n)])
    for i, what in enumerate(("`import sftwave` in a fresh process (s, median of 5 processes)",
                              "first `cwt` of a fresh process, caches filled (s, median of 5)")):
        o, n = ab["old"]["first_call"][i], ab["new"]["first_call"][i]
        rows.append([what, sec(o), sec(n), ratio(o / n), "–"])
    return "\n".join([
        "## Threads: sftwave's own pool against numba's OpenMP layer",
        "",
        f"`{meta['command']}` ({meta['date']}, {meta['cpus']} CPUs, load average at start "
        f"{', '.join(f'{v:.2f}' for v in meta['load_average_at_start'] or [])}). Each tree in fresh "
        f"processes, alternating {meta.get('rounds', 1)} times; each figure is the median over the "
        f"rounds of medians of {meta['reps']} repetitions (50x that for the small calls); 'old' is "
        "the earlier code (parallel loops on numba's OpenMP layer), 'new' the serial "
        "`nogil` kernels on sftwave's own pool. The anchor (scipy.ndimage, or MNE's "
        "`tfr_array_morlet` with `n_jobs=1`) ran in the same process as 'new'; "
        "'anchor / new' above 1 means sftwave is faster.",
        "",
        table(["workload", "old (ms)", "new (ms)", "old / new", "anchor / new"], rows),
    ])


def section_import_time(_res: dict) -> str:
    """``import sftwave`` against scipy.ndimage, numba and numpy (benchmarks/import_time.py), if run."""
    it = load_result("import_time.json")
    if it is None:
        return ""
    ref, m = it["reference"], it["machine"]
    rows = []
    for name, c in it["candidates"].items():
        r, pp = c["ratio_to_reference"], c["process_minus_pass"]
        rows.append([f"`import {name}`", ms(c["import"]["median_ms"]), ms(c["import"]["min_ms"]),
                     ratio(r["import_median"]), ms(pp["median_ms"]), ms(pp["min_ms"]),
                     ratio(r["process_minus_pass_median"])])
    sft = it["candidates"]["sftwave"]
    med_s = sft["import"]["median_ms"] / 1e3
    loaded = it["sftwave_must_be_absent_loaded"]
    return "\n".join([
        "## Import time",
        "",
        f"`{it['command']}` ({m['date']}, {m['cpus_available']} CPUs, 1-minute load average "
        f"{it['load_average_1min']['start']:.2f} at start, {it['load_average_1min']['end']:.2f} "
        f"at end; Python {m['python']}, "
        f"numpy {m['versions']['numpy']}, scipy {m['versions']['scipy']}, numba "
        f"{m['versions']['numba']}). Every figure is a fresh interpreter with nothing "
        f"pre-imported; the candidates alternate over {it['rounds']} rounds (after "
        f"{it['warmup_rounds']} untimed), and each figure is the median or min over the rounds. "
        "'import': `time.perf_counter()` around `import X` inside the process, numpy included; "
        "'process - pass': the wall time of the whole `python -c \"import X\"` process minus "
        f"that of `python -c \"pass\"` ({ms(it['pass_process']['median_ms'])} ms median). "
        f"Ratios are to `import {ref}`.",
        "",
        table(["candidate", "import median ms", "import min ms", f"import / {ref}",
               "process - pass median ms", "process - pass min ms", f"process - pass / {ref}"], rows),
        "",
        f"Target: `import sftwave` <= {num(it['target_s'])} s; measured {sec(med_s)} s (median), "
        + ("met." if med_s <= it["target_s"] else "**not met**.")
        + " Heavy modules `import sftwave` leaves out of `sys.modules`: "
        + ", ".join(f"`{x}`" for x in it["must_be_absent"] if x not in loaded)
        + (f"; **loaded anyway**: {', '.join(f'`{x}`' for x in loaded)}." if loaded else ".")
        + " It loads " + (", ".join(f"`{x}`" for x in sft["heavy_modules_loaded"]) or "none")
        + f" of the others checked ({', '.join(f'`{x}`' for x in it['also_checked'])}); "
        f"{sft['modules_in_sys_modules']:.0f} modules in `sys.modules` in all, against "
        f"{it['candidates'][ref]['modules_in_sys_modules']:.0f} after `import {ref}`.",
    ])


def section_derivatives(_res: dict) -> str:
    """gaussian_laplace and gaussian_gradient_magnitude against scipy (benchmarks/ndimage_derivatives.py), if run."""
    d = load_result("ndimage_derivatives.json")
    if d is None:
        return ""
    m = d["machine"]
    rows = [[f"`{c['function']}`", c["input"], num(c["sigma"]),
             ms(1e3 * c["times"]["sftwave"]["median_s"]), ms(1e3 * c["times"]["scipy"]["median_s"]),
             ratio(c["scipy_over_sftwave"]), err(c["error_sftwave"]), err(c["error_scipy"])]
            for c in d["cases"]]
    return "\n".join([
        "## Gaussian Laplacian and gradient magnitude",
        "",
        f"`{d['command']}` ({m['date']}, {m['cpus_available']} CPUs; load {d['load_start']:.2f} / "
        f"{d['load_end']:.2f}). sftwave and scipy alternate; medians after one untimed call. "
        "Errors: relative RMSE against scipy's own function at `truncate=12` (in float64).",
        "",
        table(["function", "input", "sigma", "sftwave ms", "scipy ms", "scipy / sftwave",
               "sftwave error", "scipy error"], rows),
    ])


def section_nonfinite(_res: dict) -> str:
    """What non-finite input costs (benchmarks/nonfinite_cost.py), if run."""
    d = load_result("nonfinite_cost.json")
    if d is None:
        return ""
    m = d["machine"]
    rows = []
    for name, c in d["cases"].items():
        scipy_ms = c.get("scipy, one NaN_ms")
        rows.append([name, ms(c["finite_ms"]), ms(c["check_ms"]), f"{100 * c['check_share']:.1f} %",
                     ms(c["one NaN_ms"]), ratio(c["one_nan_over_finite"]), ms(c["omit 1 %_ms"]),
                     ratio(c["omit_over_finite"]),
                     ms(scipy_ms) if scipy_ms is not None else "-"])
    return "\n".join([
        "## Non-finite input",
        "",
        f"`{d['command']}` ({m['date']}, {m['cpus_available']} CPUs; load {d['load_start']:.2f} / "
        f"{d['load_end']:.2f}). Calls alternate over 7 rounds; medians after one untimed call. "
        "*finite*: the public function on finite input (the finite check, then the engine); "
        "*check*: the check alone; *one NaN*: one NaN in the middle (the confined path); "
        "*omit 1 %*: 1 % NaN with `nan_policy='omit'`; scipy: its own function on the input "
        "with one NaN.",
        "",
        table(["input", "finite ms", "check ms", "check share", "one NaN ms", "/ finite",
               "omit 1 % ms", "/ finite", "scipy, one NaN ms"], rows),
    ])


def section_mne_dropin(_res: dict) -> str:
    """sftwave.mne.tfr_array_morlet against MNE's (benchmarks/mne_dropin.py), if run."""
    d = load_result("mne_dropin.json")
    if d is None:
        return ""
    m = d["machine"]
    rows = [[f"`{c['output']}`", sec(c["sftwave_s"]), sec(c["mne_s"]), ratio(c["mne_over_sftwave"]),
             err(c["row_difference"])] for c in d["cases"]]
    return "\n".join([
        "## MNE's tfr_array_morlet, drop-in",
        "",
        f"`{d['command']}` ({m['date']}, {m['cpus_available']} CPUs; load {d['load_start']:.2f} / "
        f"{d['load_end']:.2f}). Epochs 60 x 32 x 1000 float64 at 250 Hz, 37 frequencies 4-40 Hz, "
        "`n_cycles = freqs / 2`, `decim=4`; `sftwave.mne.tfr_array_morlet` and MNE's "
        "(`n_jobs=1`) alternate over 3 rounds, medians after one untimed call. Row difference: "
        "the largest per-row relative RMS difference (for 'phase': radians, RMS weighted by the "
        "power).",
        "",
        table(["output", "sftwave s", "MNE s", "MNE / sftwave", "row difference"], rows),
    ])


def section_stream(_res: dict) -> str:
    """Streaming throughput and drift (benchmarks/stream_throughput.py), if run."""
    d = load_result("stream_throughput.json")
    if d is None:
        return ""
    m = d["machine"]
    rows = [[r["filter"], f"{r['chunk']}", f"{r['stream_ns_per_sample']:.1f}",
             f"{r['batch_ns_per_sample']:.1f}",
             ratio(r["stream_ns_per_sample"] / r["batch_ns_per_sample"])] for r in d["throughput"]]
    drift = [[r["transform"], f"{r['samples']:.0e}", f"{r['ns_per_sample']:.1f}",
              err(r["end_rel_rms_vs_batch"])] for r in d["drift"]]
    return "\n".join([
        "## Streaming",
        "",
        f"`{d['command']}` ({m['date']}, {m['cpus_available']} CPUs; load {d['load_start']:.2f} / "
        f"{d['load_end']:.2f}). One channel; nanoseconds per sample, medians of 3 runs after a "
        "warm-up, against the batch function on the whole signal in the same run. The stream "
        "runs on one thread (its recursion is sequential in time; channels are the parallel "
        "axis), the batch on all.",
        "",
        table(["filter", "chunk", "stream ns/sample", "batch ns/sample", "stream / batch"], rows),
        "",
        "Drift: a float32 stream (noise + 5) through `GaussianFilter1D(32)` in chunks of 65 536; "
        "the last 10 000 outputs against the batch function on the last 100 000 samples "
        "(relative RMS). The state is float64: neither transform drifts.",
        "",
        table(["transform", "samples", "ns/sample", "end error vs batch"], drift),
    ])


def section_dask(_res: dict) -> str:
    """sftwave.dask on a LocalCluster (benchmarks/dask_scaling.py), if run."""
    d = load_result("dask_scaling.json")
    if d is None:
        return ""
    m = d["machine"]
    ref = {0: d["in_memory_cwt_seconds"], 1: d["in_memory_gaussian_seconds"]}
    rows = [[c["case"], sec(c["seconds"]), sec(ref[i]),
             ", ".join(str(v) for v in c["peak_rss_mb_per_worker"]),
             ", ".join(str(v) for v in c["idle_rss_mb_per_worker"])]
            for i, c in enumerate(d["cases"])]
    return "\n".join([
        "## dask on a local cluster",
        "",
        f"`{d['command']}` ({m['date']}, {m['cpus_available']} CPUs; load {d['load_start']:.2f} / "
        f"{d['load_end']:.2f}). `distributed.LocalCluster` of 2 worker processes, 1 thread "
        "each; the inputs are generated on the workers by dask's random generator, and that "
        "generation is inside the dask times (not inside the in-memory ones, which run the "
        "function on a numpy array in the client, on 2 threads). Peak memory: the largest "
        "resident set of each worker, sampled every 0.2 s.",
        "",
        table(["case", "dask s", "in memory s", "peak RSS per worker (MB)", "idle RSS (MB)"],
              rows),
    ])


def render(res: dict) -> str:
    head = [
        "# Benchmarks",
        "",
        "<!-- Generated by benchmarks/run.py (benchmarks/report.py) from "
        "benchmarks/results/benchmarks.json; do not edit by hand. -->",
        "",
    ]
    if res.get("quick"):
        head += ["**Quick run (`--quick`): tiny sizes, a smoke test; these numbers mean little.**", ""]
    parts = [section_machine, section_workloads, section_targets, reading, section_1d, section_2d,
             section_cwt,
             section_derivatives, section_nonfinite, section_mne_dropin, section_stream, section_dask,
             section_first_call, section_import_time, section_crossover,
             section_bank,
             section_drift, section_threading]
    sections = [s for s in (part(res) for part in parts) if s]
    return "\n".join(head) + "\n" + "\n\n".join(sections) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    src = Path(argv[0]) if argv else HERE / "results" / "benchmarks.json"
    dst = Path(argv[1]) if len(argv) > 1 else HERE.parent / "docs" / "benchmarks.md"
    dst.write_text(render(json.loads(src.read_text())))
    print(f"wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
