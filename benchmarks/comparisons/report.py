"""docs/benchmarks.md from the sections' JSON (``benchmarks/results/<section>.json``).

Every number on the page, the sentences of the reading included, comes from
the JSON, so the page always describes the runs it was generated from.  A
section whose JSON is missing is left out; an anchor library that was not
installed is named where it would have been.
"""

from __future__ import annotations

from .common import err, ms, num, ratio, sec, table

COMPARE = ".venv/bin/python benchmarks/compare.py"

# ----------------------------------------------------------------------------- provenance


def _load(m: dict) -> str:
    la = m.get("load_average_1min") or {}
    if la.get("start") is None or la.get("end") is None:
        return ""
    return f"; load average {la['start']:.2f} / {la['end']:.2f} (start / end)"


def provenance(name: str, m: dict) -> str:
    """One line: the command that measures this section, when, where, and what was skipped."""
    mach = m.get("machine", {})
    where = f"{mach.get('cpu_model', '?')}, {mach.get('cpus_available') or mach.get('cpu_count')} CPUs"
    quick = " --quick" if m.get("quick") else ""
    line = f"*`{COMPARE} --only {name}{quick}` · {mach.get('date', '?')} · {where}{_load(m)}*"
    skipped = m.get("skipped") or {}
    if skipped:
        line += "\n\n**Skipped** (not in this run): " + "; ".join(
            f"{k} ({v})" for k, v in sorted(skipped.items())) + "."
    return line


def reps(t: dict) -> str:
    return f"{t['repeats']}" + ("" if t["warmup"] else ", no warm-up")


def _met(ok: bool) -> str:
    return "met" if ok else "**missed**"


# ----------------------------------------------------------------------------- header


def section_machine(res: dict, quick: bool) -> str:
    metas = {k: v["meta"] for k, v in res.items()}
    machines: dict = {}
    for name, m in metas.items():
        mach = m.get("machine", {})
        key = (mach.get("cpu_model"), mach.get("cpu_count"), mach.get("cpus_available"),
               mach.get("python"), mach.get("platform"))
        machines.setdefault(key, []).append((mach.get("date", "?"), name))
    lines = ["## Machine and command", ""]
    lines.append(
        f"* Command: `make bench`, i.e. `{COMPARE}" + (" --quick`" if quick else "`")
        + " (every section; about 20 minutes on the machine below, 3 with `--quick`). "
        f"`{COMPARE} --only NAME [NAME ...]` measures those sections again and regenerates "
        "this page from the stored results of the others; `--list` names the sections. Raw "
        "results: `benchmarks/results/<section>.json`; how to run everything: "
        "`benchmarks/README.md`.")
    for (cpu, count, avail, py, plat), runs in machines.items():
        dates = sorted(d for d, _ in runs)
        span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
        lines.append(f"* Machine: {cpu}, {count} cores ({avail} available), Python {py} on {plat}; "
                     f"{len(runs)} section(s), measured {span}: "
                     + ", ".join(f"*{n}*" for _, n in sorted(runs, key=lambda r: r[1])) + ".")
    versions: dict = {}
    for m in sorted(metas.values(), key=lambda m: m.get("machine", {}).get("date", "")):
        for k, v in (m.get("machine", {}).get("versions") or {}).items():
            if v is not None:
                versions.setdefault(k, set()).add(v)
    if versions:
        lines.append("* Versions: " + ", ".join(f"{k} {' / '.join(sorted(v))}"
                                                for k, v in versions.items()) + ".")
    skipped = sorted({k for m in metas.values() for k in (m.get("skipped") or {})})
    if skipped:
        lines.append("* Anchor libraries not installed in some sections, so not compared there: "
                     + ", ".join(skipped) + " (each section says which).")
    if any(m.get("legacy") for m in metas.values()):
        legacy = sorted(n for n, m in metas.items() if m.get("legacy"))
        lines.append(
            f"* The figures of {len(legacy)} of the {len(metas)} sections were measured before "
            "`compare.py` existed, by the scripts it replaced (`make bench` and `make "
            "bench-workloads` then, and one script per section), with the same workloads, sizes "
            "and repetitions (pycwt, in the CWT sections, came with `compare.py`); each section's line "
            "gives the `compare.py` command that measures it now. The next full run replaces them.")
    lines.append(
        "* Times are medians over the stated repetitions, after one untimed warm-up call (so "
        "numba compilation and the plan caches are excluded; the first-call sections measure "
        "them in fresh processes). Where tools are compared, their calls alternate, so that a "
        "disturbance hits all of them. This is a shared machine: repeated runs vary by up to "
        "~40 %, so compare only ratios taken from the same section.")
    lines.append(
        "* Fresh processes run sftwave as installed: `compare.py` byte-compiles its modules "
        "first (`common.compile_bytecode`, what pip does when it installs a package), as the "
        "anchors' were when they were installed. This machine sets `PYTHONDONTWRITEBYTECODE=1`, "
        "so an editable checkout otherwise compiles sftwave's source again in every process "
        "(about 0.1 s of a one-call script); the fresh-process figures measured before "
        "2026-12-03 13:00 UTC include that.")
    rc = res.get("reference_check")
    if rc:
        lines.append(
            "* Gaussian accuracy is the relative RMSE, sqrt(mean((y - ref)^2) / mean(ref^2)), "
            "against an exact float64 reference: the reflect-extended input convolved (by FFT) "
            "with scipy's sampled Gaussian truncated at 12 sigma. That reference agrees with "
            "`scipy.ndimage.gaussian_filter1d(..., truncate=12)` to "
            f"{err(rc['result']['max_rel_rmse_fft_vs_scipy_truncate12'])}.")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- Gaussian


def variation(g: dict, key: str) -> float:
    """max / min of sftwave's order-0 median over sigma 8..2048 (``key``: the timing)."""
    t = [r[key]["median_ms"] for r in g["rows"] if r["order"] == 0 and 8 <= r["sigma"] <= 2048]
    return max(t) / min(t)


def section_1d(g: dict) -> str:
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


def section_flat_sigma(g: dict) -> str:
    rows = [[num(r["sigma"]), num(r["window"]) if r["window"] else "-", r["sftwave_path"],
             ms(r["sftwave_ms"]), ms(r["sftwave_1thread_ms"]), ratio(r["ratio_sftwave_over_memcpy"])]
            for r in g["rows"]]
    return "\n".join([
        "## 1-D across sigma: the cost of a window of any length",
        "",
        f"`gaussian_filter1d` of N = {g['n']:,} {g['dtype']} samples (a random walk), mode "
        f"'reflect', at sigma 8 to 8192, on {g['numba_threads']} threads and on one, next to "
        f"`np.copyto` of the input ({ms(g['memcpy_ms'])} ms); the calls take turns, "
        f"{g['rounds']} rounds, medians.",
        "",
        table(["sigma", "window L", "sftwave path", "sftwave ms", "sftwave 1 thread ms",
               "sftwave / memcpy"], rows),
        "",
        f"Max over min across sigma: {g['sftwave_max_over_min']:.2f} "
        f"({g['sftwave_1thread_max_over_min']:.2f} on one thread). scipy at sigma 128: "
        f"{ms(g['scipy_sigma128_ms'])} ms, {ratio(g['ratio_scipy_over_sftwave_sigma128'])} "
        "sftwave's time.",
    ])


def simpleitk_part(g: dict) -> list[str]:
    """Lines for the 2-D section: sftwave against SimpleITK's recursive Gaussian."""
    rows = [r for r in g["rows"] if "simpleitk" in r]
    if not rows:
        return []
    body = [[num(r["sigma"]), ms(r["sftwave_nearest"]["median_ms"]), ms(r["simpleitk"]["median_ms"]),
             ratio(r["ratio_simpleitk_over_sftwave_nearest"]), err(r["sftwave_rel_rmse_nearest"]),
             err(r["simpleitk_rel_rmse_nearest"]),
             ratio(r["simpleitk_rel_rmse_nearest"] / r["sftwave_rel_rmse_nearest"])]
            for r in rows]
    return [
        "",
        "### against SimpleITK's recursive Gaussian",
        "",
        "`SimpleITK.SmoothingRecursiveGaussian(image, sigma)` (Deriche's 4th-order recursive "
        f"filter, {rows[0]['simpleitk_threads']} threads) on the same image, timed on an "
        "existing `SimpleITK.Image` (conversion excluded). It extends the image by its edge "
        "values, so both it and `sftwave.gaussian_filter(img, sigma, mode='nearest')` are judged "
        "against the exact filter with scipy's 'nearest' extension.",
        "",
        table(["sigma", "sftwave ms", "SimpleITK ms", "SimpleITK / sftwave", "sftwave error",
               "SimpleITK error", "error ratio"], body),
    ]


def section_2d(g: dict) -> str:
    rows = []
    for r in g["rows"]:
        o = r.get("opencv")
        rows.append([
            num(r["sigma"]), str(r["opencv_ksize"]), r["sftwave_path"],
            ms(r["sftwave"]["median_ms"]), ms(r["scipy"]["median_ms"]),
            ms(o["median_ms"]) if o else "–",
            ratio(r["ratio_scipy_over_sftwave"]), ratio(r.get("ratio_opencv_over_sftwave")),
            ratio(r["ratio_sftwave_over_memcpy"]),
            err(r["sftwave_rel_rmse"]), err(r["scipy_rel_rmse"]), err(r.get("opencv_rel_rmse")),
        ])
    r0, rl = g["rows"][0], g["rows"][-1]
    text = [
        "## 2-D: `gaussian_filter` vs scipy vs OpenCV",
        "",
        f"A {g['shape'][0]} x {g['shape'][1]} {g['dtype']} image ({g['image']}), every axis "
        "filtered, float32 in and out for all three. OpenCV: "
        "`cv2.GaussianBlur(img, (ksize, ksize), sigmaX=s, sigmaY=s, "
        "borderType=cv2.BORDER_REFLECT)` with `ksize = 2*int(4*s + 0.5) + 1`, scipy's radius at "
        "`truncate=4` (OpenCV's own default size from sigma is different). "
        f"Repetitions: {reps(r0['sftwave'])}; for scipy and OpenCV {reps(r0['scipy'])} "
        f"({reps(rl['scipy'])} at sigma {num(rl['sigma'])}). "
        + (f"OpenCV uses {g['opencv_threads']} threads, " if "opencv_threads" in g else "")
        + f"sftwave {g['numba_threads']} threads. memcpy of the image: {ms(g['memcpy_ms'])} ms.",
        "",
        table(["sigma", "OpenCV ksize", "sftwave path", "sftwave ms", "scipy ms", "OpenCV ms",
               "scipy / sftwave", "OpenCV / sftwave", "sftwave / memcpy",
               "sftwave error", "scipy error", "OpenCV error"], rows),
        "",
        "Errors are against the float64 filter of the same image, so they include float32 "
        "rounding of the output (about 3e-8).",
    ]
    b = g.get("border_check_rel_rmse_vs_scipy_reflect")
    if b:
        text[-1] += (" Border check: OpenCV on a 40 x 50 image at sigma 6 against scipy "
                     "'reflect', relative RMSE "
                     + ", ".join(f"`{k}` {err(v)}" for k, v in b.items())
                     + " (scipy 'reflect', `d c b a | a b c d`, is OpenCV `BORDER_REFLECT`; "
                     "`BORDER_REFLECT_101` is scipy 'mirror').")
    return "\n".join(text + simpleitk_part(g))


def section_gaussian_first_call(f: dict) -> str:
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
        f"{num(f['sigma_1d'])} (`sftwave.plans.select_gaussian`), then filter N = {f['n_1d']:,} "
        f"float64 samples at sigma {num(f['sigma_1d'])} twice and a {f['shape_2d'][0]} x "
        f"{f['shape_2d'][1]} float32 image at sigma {num(f['sigma_2d'])} twice (a new dtype: "
        "new numba specialisations). Both runs use the same new, empty `NUMBA_CACHE_DIR`: "
        "'cold' compiles every kernel and fills the on-disk cache, 'cached' loads them from it. "
        "Milliseconds:",
        "",
        table(["step", "cold cache ms", "cached ms"], rows),
    ])


def _break_even_text(be: dict, label: str) -> str:
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


def section_crossover(c: dict) -> str:
    rows = []
    for r in c["rows"]:
        bank = "bank_ms" in r
        rows.append([
            num(r["sigma"]), str(r["order"]), str(r["taps"]),
            str(r["bank_orders"]) if bank else "–",
            f"{r['taps_per_order']:.2f}" if bank else "–",
            ms(r["direct_ms"]), ms(r["direct_1thread_ms"]),
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
        f"N = {c['n']:,} {c['dtype']}, both paths forced: `method='fir'` (scipy's FIR for "
        "orders 0 and 1, the moment-corrected kernel for order 2; taps = its length; the line's "
        "blocks of outputs shared among the threads) and `method='bank', bank_method='iir1'` "
        "(bank orders = number of frequencies in the plan plus one, the fixed work per sample, "
        "as the 'auto' rule counts them; the line's pieces shared among the threads), each on "
        f"{nt} threads and on 1. 'no plan': the bank cannot reach the default "
        "accuracy there. 'auto picks' is the current rule: direct if taps <= "
        f"`FIR_TAPS_PER_ORDER` = {num(c.get('current_effective_D', c['current_DIRECT_TAPS_PER_ORDER']))} "
        "per bank order (the same on every machine: a plan never depends on the thread "
        "count; held below the speed break-even for accuracy: at the default truncation the "
        "FIR is scipy's own kernel, less accurate than the bank, docs/design.md, *The direct "
        "path*), else, on float64, the FIR designed to the bank's error (a few more taps than "
        "the 'taps' column) if it has at most `DESIGN_TAPS_PER_ORDER` = 5.5 per bank order. "
        "Errors are against the exact reference.",
        "",
        table(["sigma", "order", "taps", "bank orders", "taps / order", f"direct ms ({nt} thr)",
               "direct ms (1 thr)",
               f"bank ms ({nt} thr)", "bank ms (1 thr)", f"direct ns / sample / tap ({nt} thr)",
               f"bank ns / sample / order ({nt} thr)", "bank ns / sample / order (1 thr)",
               f"faster ({nt} thr)", "faster (1 thr)", "auto picks", "direct error",
               "bank error"], rows),
        "",
        _break_even_text(c["break_even"], f"Break-even, both on {nt} threads"),
        _break_even_text(c["break_even_1thread"], "Break-even, both on 1 thread"),
    ])


def section_bank(b: dict) -> str:
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
        "`bank_method` of `sftwave.engines.numba.bank.METHODS` (`method='bank'`) with "
        "`transform='sft'` and `'asft'`, "
        f"{next((r['time']['repeats'] for r in b['rows'] if 'time' in r), '–')} repetitions. "
        "'bank orders': complex recursions per sample (one per frequency) plus one.",
        "",
        table(["transform", "method", "bank orders", f"ms ({b['numba_threads']} threads)",
               "ms (1 thread)", "error"], rows),
        *(["", *notes] if notes else []),
    ])


def section_drift(d: dict) -> str:
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


def section_derivatives(d: dict) -> str:
    rows = [[f"`{c['function']}`", c["input"], num(c["sigma"]),
             ms(1e3 * c["times"]["sftwave"]["median_s"]), ms(1e3 * c["times"]["scipy"]["median_s"]),
             ratio(c["scipy_over_sftwave"]), err(c["error_sftwave"]), err(c["error_scipy"])]
            for c in d["cases"]]
    return "\n".join([
        "## Gaussian Laplacian and gradient magnitude",
        "",
        "sftwave and scipy alternate; medians after one untimed call. "
        "Errors: relative RMSE against scipy's own function at `truncate=12` (in float64).",
        "",
        table(["function", "input", "sigma", "sftwave ms", "scipy ms", "scipy / sftwave",
               "sftwave error", "scipy error"], rows),
    ])


def section_nonfinite(d: dict) -> str:
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
        f"Calls alternate over {d.get('rounds', 7)} rounds; medians after one untimed call. "
        "*finite*: the public function on finite input (the finite check, then the engine); "
        "*check*: the check alone; *one NaN*: one NaN in the middle (the confined path); "
        "*omit 1 %*: 1 % NaN with `nan_policy='omit'`; scipy: its own function on the input "
        "with one NaN.",
        "",
        table(["input", "finite ms", "check ms", "check share", "one NaN ms", "/ finite",
               "omit 1 % ms", "/ finite", "scipy, one NaN ms"], rows),
    ])


# ----------------------------------------------------------------------------- CWT


def _case_table(c: dict) -> list[str]:
    fl = c["floor"]
    by = {t["name"]: t for t in c["tools"]}
    ref = by.get("fCWT complex64 reused")
    fill = fl["fill_fresh_complex64_s"]

    def row(name, how, t, e, hz):
        return [name, how, sec(t), ratio(t / ref["time"]["median_s"]) if ref else "–",
                ratio(t / fill), e, hz]

    rows = []
    for t in c["tools"]:
        e = err(t["worst_row_rel_rmse"])
        if "worst_row_rel_rmse_unfitted" in t:
            e += f" ({err(t['worst_row_rel_rmse_unfitted'])})"
        rows.append(row(t["name"], t["notes"], t["time"]["median_s"], e,
                        f"{t['worst_row_freq_hz']:.3g}"))
    m = c.get("matched_accuracy")
    if m:
        for label, key in (("fresh output", "time_fresh"), ("out=", "time_reused")):
            rows.append(row(f"sftwave complex64, tol={m['tol']:g}",
                            f"tol matched to fCWT's worst row; {label}", m[key]["median_s"],
                            err(m["worst_row_rel_rmse"]), "–"))
    return [
        f"### N = {c['n']:,}, {c['nfreq']} frequencies",
        "",
        table(["tool", "how", "median s", "time / fCWT", "time / output fill",
               "worst row error", "at Hz"], rows),
        "",
        f"Output fill (a fresh complex64 array of the scalogram's size, written once; numpy, one "
        f"thread): {sec(fill)} s; into an existing array {sec(fl['fill_reused_complex64_s'])} s; "
        f"a memcpy of it {sec(fl['memcpy_complex64_s'])} s. sftwave ran on "
        f"{c['numba_threads']} threads.",
        "",
    ]


def section_cwt(r: dict) -> str:
    c0 = r["cases"][0]
    others = []
    for t in c0["tools"]:
        tool = t["name"].split(" ")[0]
        if tool != "sftwave" and tool not in others:
            others.append(tool)
    out = [
        "## Morlet CWT: sftwave vs " + (", ".join(others) or "no other tool"),
        "",
        f"A random walk at {num(c0['fs'])} Hz, log-spaced frequencies "
        f"{num(c0['freq_range_hz'][0])} to {num(c0['freq_range_hz'][1])} Hz (fCWT's own grid, "
        f"given to every tool), xi = {num(c0['xi'])} (MNE `n_cycles=6`). Times are medians after "
        "a warm-up call (plans and compilation excluded: see *First call and peak memory*). "
        "Accuracy: every tool's rows against the exact transform of the definition it "
        "implements (its own boundary extension, with or without the admissibility term), "
        "after removing a per-row complex scale (the tools normalise differently); the worst "
        f"of {c0['rows_checked']} rows spread over the frequencies, and the frequency where it "
        "occurs. sftwave's error without that fit is in brackets. `benchmarks/comparisons/cwt.py` "
        "lists each tool's call and definition.",
        "",
    ]
    for c in r["cases"]:
        out += _case_table(c)
    return "\n".join(out).rstrip()


def section_few_scales(fs: dict) -> str:
    rows = [[str(r["scales"]), sec(r["engine"]["median_s"]), sec(r["line_by_line"]["median_s"]),
             "engine" if r["engine"]["median_s"] < r["line_by_line"]["median_s"] else "line by line"]
            for r in fs["rows"]]
    return "\n".join([
        "### Few scales: lane engine or line by line",
        "",
        f"One float32 line of {fs['n']:,} samples, 5 to 100 Hz: `bank_method='iir1'` (the lane "
        "engine, groups of 16 lanes) against `'iir1-2k'` (the bank, one line and scale at a "
        f"time). 'auto' runs fewer than {fs['engine_min_lanes']} lines times scales line by "
        "line.",
        "",
        table(["scales", "engine s", "line by line s", "faster"], rows),
    ])


def section_first_call(f: dict) -> str:
    rows = []
    for case, r in f["cases"].items():
        if "error" in r:
            rows.append([case, r["anchor"], "failed", "", "", "", "", "", ""])
            continue
        cpu = r.get("first_cpu_s")
        kernels = ", ".join(f"{k.rpartition('.')[2]} {v:.1f}" for k, v in
                            sorted(r.get("kernel_s", {}).items(), key=lambda kv: -kv[1]))
        rows.append([case, r["anchor"], sec(r["first_s"]), "" if cpu is None else sec(cpu),
                     str(r["compiled"]), kernels, sec(r["second_s"]),
                     sec(r["anchor_s"]), ratio(r["anchor_s"] / r["first_s"])])
    return "\n".join([
        "### The very first call after installing",
        "",
        "Each case is a whole fresh process (the interpreter's start, the imports, the call) "
        "with empty numba and plan caches (new `NUMBA_CACHE_DIR` and `SFTWAVE_CACHE_DIR`): "
        "'compiled' counts the kernel specialisations it compiled, 'kernel compile s' each "
        "one's seconds in numba's compiler passes (typing, with the callees it compiles, and "
        "lowering, with LLVM), 'first process CPU s' the process's CPU time (on a shared "
        "machine these two tell more than the wall time). 'second process' runs the "
        f"same script again with those caches (median of {f['repeats']}). `python -m sftwave "
        "compile` fills the kernel cache ahead of time, so that a user's first call is a "
        "second process. A Gaussian call whose FIR plans numpy runs in less time than "
        "loading numba would take (docs/performance.md, *Small calls without numba*: the "
        "512^2 case) compiles and loads no kernel at all; a bank plan (sigma 8) does.",
        "",
        table(["case", "anchor", "first process s", "first process CPU s", "kernels compiled",
               "kernel compile s", "second process s", "anchor's process s", "anchor / first"],
              rows),
    ])


def section_cwt_first_call(f: dict) -> str:
    rows = []
    for label, r in f["tools"].items():
        if "error" in r:
            rows.append([label, "failed: " + " ".join(r["error"]), "", "", "", ""])
            continue
        rows.append([label, sec(r["import_and_setup_s"]), sec(r["first_call_s"]),
                     sec(r["second_call_s"]), f"{r['peak_rss_increase_mib']:.0f}",
                     "–" if r.get("second_call_peak_rss_increase_mib") is None
                     else f"{r['second_call_peak_rss_increase_mib']:.0f}"])
    return "\n".join([
        "### First call and peak memory",
        "",
        f"N = {f['n']:,}, {f['nfreq']} frequencies, float32 input, each tool in a fresh "
        f"process (the output is {f['output_mib_complex64']:.0f} MiB in complex64). "
        "'sftwave cold' starts with empty numba and plan caches (it compiles every kernel "
        "and designs every plan); 'sftwave cached' is the next process, which loads both "
        "from disk. Peak memory: how much the process's peak resident size grows during the "
        "first call (compiled code, plans and the output included), and during the second "
        "call (working memory and output).",
        "",
        table(["run", "import + setup s", "first call s", "second call s",
               "peak growth, first call MiB", "peak growth, second call MiB"], rows),
    ])


# ----------------------------------------------------------------------------- targets


def _cwt_targets(c: dict) -> list[list[str]]:
    by = {t["name"]: t for t in c["tools"]}
    f = by.get("fCWT complex64 reused")
    if not f:
        return []
    tf = f["time"]["median_s"]
    rows = []
    head = f"CWT N={c['n']:,}, {c['nfreq']} freqs"
    for name, label in (("sftwave complex64", "fresh output"), ("sftwave complex64 out=", "out=")):
        t = by[name]
        sp = tf / t["time"]["median_s"]
        rows.append([f"{head}, default tol ({label}): >= 1.5× fCWT's speed",
                     f"{ratio(sp)}; worst row {err(t['worst_row_rel_rmse'])}", _met(sp >= 1.5)])
    m = c.get("matched_accuracy")
    if m:
        for label, key in (("fresh output", "time_fresh"), ("out=", "time_reused")):
            sp = tf / m[key]["median_s"]
            rows.append([f"{head} at fCWT's accuracy ({label}): >= 1× fCWT's speed",
                         f"{ratio(sp)} at tol {m['tol']:g} (worst row "
                         f"{err(m['worst_row_rel_rmse'])}, fCWT's {err(m['fcwt_worst_row'])})",
                         _met(sp >= 1.0)])
    t = by["sftwave complex64 out="]["time"]["median_s"]
    fill = c["floor"]["fill_fresh_complex64_s"]
    rows.append([f"{head}, goal: 3× fCWT and within 2× of the output fill",
                 f"{ratio(tf / t)} fCWT; {ratio(t / fill)} the fill",
                 _met(tf / t >= 3 and t <= 2 * fill)])
    return rows


def section_targets(res: dict) -> str:
    """The performance targets against the figures of the cwt and Gaussian sections."""
    rows = []
    for c in res.get("cwt", {}).get("result", {}).get("cases", []):
        rows += _cwt_targets(c)
    g1 = res.get("gaussian1d", {}).get("result")
    r = next((r for r in g1["rows"] if r["sigma"] == 128.0 and r["order"] == 0), None) if g1 else None
    if r:
        q = r["ratio_scipy_over_sftwave"]
        rows.append([f"Gaussian 1-D, N={g1['n']:,}, sigma 128: >= 100× scipy", ratio(q), _met(q >= 100)])
        q = r["ratio_sftwave_over_memcpy"]
        rows.append(["Gaussian 1-D, sigma 128: within 6× of a memcpy", ratio(q), _met(q <= 6)])
    for r in res.get("gaussian2d", {}).get("result", {}).get("rows", []):
        q = r.get("ratio_opencv_over_sftwave")
        if q is not None and r["sigma"] >= 8:
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: faster than OpenCV",
                         f"OpenCV / sftwave {ratio(q)}", _met(q >= 1.0)])
        elif q is not None:
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: within 1.5× of OpenCV",
                         f"OpenCV / sftwave {ratio(q)}", _met(q >= 1 / 1.5)])
        if "simpleitk" in r:
            qs = r["ratio_simpleitk_over_sftwave_nearest"]
            qe = r["simpleitk_rel_rmse_nearest"] / r["sftwave_rel_rmse_nearest"]
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: faster than SimpleITK, "
                         "about 100× smaller error",
                         f"{ratio(qs)} faster; error {ratio(qe)} smaller",
                         _met(qs >= 1 and qe >= 50)])
    fc = res.get("cwt_first_call", {}).get("result", {}).get("tools", {})
    cold, cached = fc.get("sftwave cold", {}), fc.get("sftwave cached", {})
    if "first_call_s" in cold and "first_call_s" in cached:
        total = cached["import_and_setup_s"] + cached["first_call_s"]
        rows.append(["CWT first call reported; a cached second process starts in < 1 s",
                     f"cold first call {sec(cold['first_call_s'])} s; cached: import + setup "
                     f"{sec(cached['import_and_setup_s'])} s, first call "
                     f"{sec(cached['first_call_s'])} s", _met(total < 1.0)])
    if not rows:
        return ""
    return "\n".join(["## Performance targets", "",
                      "Each target against the figures of the sections below (the margin "
                      "'about 100×' is counted as met from 50×). What bounds the missed ones: "
                      "[performance.md](performance.md).", "",
                      table(["target", "measured", ""], rows)])


# ----------------------------------------------------------------------------- reading


def reading(res: dict) -> str:
    get = {k: v["result"] for k, v in res.items()}
    out = ["## Reading", ""]
    g1, g2 = get.get("gaussian1d"), get.get("gaussian2d")
    if g1:
        o0 = {r["sigma"]: r for r in g1["rows"] if r["order"] == 0}
        r128 = o0.get(128.0)
        big = [r for s, r in o0.items() if s >= 8]
        if r128 and big:
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
        for r in [r for s, r in o0.items() if s < 8]:
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
                f"{err(r['scipy_rel_rmse'])}. scipy's truncated derivative kernels do not sum "
                "exactly to zero, which the large, slowly varying level of a random walk exposes; "
                "sftwave's fitted kernels reproduce constants, ramps and parabolas exactly."
            )
    if g2 and all("ratio_opencv_over_sftwave" in r for r in g2["rows"]):
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
    f = get.get("gaussian_first_call")
    if f:
        out.append(
            f"* **First call:** {ms(f['cold']['plan_ms'] + f['cold']['first_call_1d_ms'])} ms with "
            f"an empty numba cache, {ms(f['cached']['plan_ms'] + f['cached']['first_call_1d_ms'])} "
            f"ms with the on-disk cache, against {ms(f['cached']['second_call_1d_ms'])} ms for the "
            "next call."
        )
    c = get.get("crossover")
    if c:
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
            f"* **Crossover:** the measured break-even is D = {be['best_D']:.2f} taps per bank "
            f"order with both paths on {c['numba_threads']} threads and D = {be1['best_D']:.2f} on "
            "one (current rule: D = `FIR_TAPS_PER_ORDER` = "
            f"{num(c.get('current_effective_D', c['current_DIRECT_TAPS_PER_ORDER']))}).{acc}"
        )
    b = get.get("bank_methods")
    ok = [r for r in b["rows"] if "time" in r] if b else []
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
    pairs = [(r["sftwave"], r["sftwave_1thread"]) for r in g1["rows"]] if g1 else []
    pairs += [(r["time"], r["time_1thread"]) for r in ok]
    stalled = sum(t["median_ms"] > t1["median_ms"] for t, t1 in pairs)
    if stalled:
        loads = [v["meta"]["load_average_1min"]["end"] for k, v in res.items()
                 if k in ("gaussian1d", "bank_methods")
                 and (v["meta"].get("load_average_1min") or {}).get("end") is not None]
        cpus = res["gaussian1d"]["meta"].get("machine", {}).get("cpu_count")
        out.append(
            f"* **Threads:** in {stalled} of {len(pairs)} 1-D and bank cases sftwave on "
            f"{g1['numba_threads']} threads was slower than on one. A parallel call waits for "
            "its slowest thread, and other work shared this machine during the run"
            + (f" (1-minute load average up to {max(loads):.2f} on {cpus} cores)" if loads else "")
            + ": the multi-threaded figures (sftwave's and OpenCV's) are the ones it hits, the "
            "1-thread columns are the steadier ones."
        )
    d = get.get("float32_drift")
    if d:
        worst = max(d["rows"], key=lambda r: r["max_block_rel_rmse"])
        out.append(
            f"* **float32 drift:** {'every case passes' if d['all_pass'] else 'NOT every case passes'} "
            f"the {d['criterion_max_rel_rmse']:g} criterion; the worst block error is "
            f"{err(worst['max_block_rel_rmse'])} (sigma {num(worst['sigma'])}, order {worst['order']}, "
            f"transform {worst['transform']})."
        )
    return "\n".join(out) if len(out) > 2 else ""


# ----------------------------------------------------------------------------- users' workloads


def workload_parts(res: dict) -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The users' workloads' subsections (markdown lines) and their targets."""
    get = {k: v["result"] for k, v in res.items()}
    out: list[str] = []
    targets: list[tuple[str, str, bool]] = []
    a = get.get("first_scalogram")
    if a:
        rows = []
        cold = a["sftwave_cold"]
        if "error" not in cold:
            rows.append(["sftwave, empty caches (first run on a machine)", sec(cold["process_s"]),
                         sec(cold["import_and_first_call_s"])])
        for tool, r in a["warm"].items():
            if "error" in r:
                rows.append([tool, "error: " + r["error"], "–"])
            else:
                rows.append([tool + (", caches filled" if tool == "sftwave" else ""),
                             sec(r["process_s"]), sec(r["import_and_first_call_s"])])
        out += ["", "### (a) A script's first scalogram: whole fresh processes", "",
                provenance("first_scalogram", res["first_scalogram"]["meta"]), "",
                f"`python -c \"import numpy; x = ... ({a['n']:,} float32 samples); import TOOL; "
                f"TOOL's cwt at {a['nfreq']} frequencies\"`: the process's wall time from start to "
                f"exit, and the import plus first call inside it (median of {a['rounds']} "
                "alternating rounds; sftwave cold once).",
                "", table(["tool", "process s", "import + first call s"], rows)]
        warm = a["warm"]
        if "error" not in cold:
            targets.append(("first call, empty caches: at most 5 s (import and call)",
                            f"{sec(cold['import_and_first_call_s'])} s",
                            cold["import_and_first_call_s"] <= 5.0))
        if "fCWT" in warm and "error" not in warm["fCWT"] and "error" not in warm["sftwave"]:
            r = warm["sftwave"]["process_s"] / warm["fCWT"]["process_s"]
            targets.append(("whole process, caches filled: no slower than fCWT's",
                            f"sftwave / fCWT {ratio(r)}", r <= 1.0))
    b = get.get("eeg")
    if b:
        rows = []
        for c in b["cases"]:
            t = c["times"]
            rows.append([c["n_cycles"], str(c["threads"]), sec(t["sftwave"]["median_s"]),
                         sec(t["MNE"]["median_s"]) if "MNE" in t else "–",
                         ratio(c.get("mne_over_sftwave"))])
        shape = " x ".join(str(s) for s in b["shape"])
        out += ["", "### (b) EEG epochs against MNE", "", provenance("eeg", res["eeg"]["meta"]), "",
                f"{shape} samples (epochs x channels x time) at {b['fs']:g} Hz, {b['nfreq']} "
                f"frequencies 4..40 Hz, `output='power'`, `decim={b['decim']}`; sftwave's "
                "`workers` and MNE's `n_jobs` set to the same number. The same samples as one "
                f"continuous line per channel take {sec(b['continuous_one_thread_s'])} s in sftwave "
                "(one thread, n_cycles 7).",
                "", table(["n_cycles", "threads", "sftwave s", "MNE s", "MNE / sftwave"], rows)]
        for c in b["cases"]:
            if c.get("mne_over_sftwave") is not None:
                targets.append((f"EEG epochs, {c['n_cycles']}, {c['threads']} thread(s): at least 3x MNE",
                                ratio(c["mne_over_sftwave"]), c["mne_over_sftwave"] >= 3.0))
    c = get.get("long_signal")
    if c:
        t = c["times"]
        fill = t["floor: fresh output written once"]["median_s"]
        rows = [[k, sec(v["median_s"]), ratio(v["median_s"] / fill)] for k, v in t.items()]
        out += ["", f"### (c) A long signal: N = {c['n']:,}, {c['nfreq']} frequencies, complex64",
                "", provenance("long_signal", res["long_signal"]["meta"]), "",
                table(["call", "median s", "/ fresh output written once"], rows)]
        if "fCWT output reused" in t:
            r1 = t["fCWT output reused"]["median_s"] / t["sftwave out="]["median_s"]
            r2 = t["fCWT fresh output"]["median_s"] / t["sftwave fresh output"]["median_s"]
            targets.append(("N = 1e5 x 200, buffers reused: at least 1.5x fCWT", ratio(r1), r1 >= 1.5))
            targets.append(("N = 1e5 x 200, fresh outputs: at least 1x fCWT", ratio(r2), r2 >= 1.0))
    d = get.get("audio")
    if d:
        rows = [[k, sec(v["median_s"]), ratio(d["over_sftwave"][k])] for k, v in d["times"].items()]
        out += ["", "### (d) Audio: power at 100 frames per second", "",
                provenance("audio", res["audio"]["meta"]), "",
                f"{d['n'] / d['fs']:g} s at {d['fs']:g} Hz, {d['nfreq']} frequencies 20 Hz..20 kHz, "
                f"`output='power'`, `decim={d['decim']}`.",
                "", table(["tool", "median s", "time / sftwave"], rows)]
        for k, r in d["over_sftwave"].items():
            if k != "sftwave":
                targets.append((f"audio: at least 3x {k.split(' ')[0]}", ratio(r), r >= 3.0))
    e = get.get("design")
    if e:
        rows = [[x, ms(1e3 * v["design_s"]) if "design_s" in v else v["error"]]
                for x, v in e["xi"].items()]
        out += ["", "### (e) Plan design with no cache", "", provenance("design", res["design"]["meta"]),
                "",
                f"A fresh process designs the plans of {e['nfreq']} frequencies (1..100 Hz at 1 kHz, "
                f"tol {e['tol']:g}, N = 1e5) with the plan cache off (`SFTWAVE_CACHE_DIR=`).",
                "", table(["xi", "design ms"], rows)]
        worst = max(v.get("design_s", float("inf")) for v in e["xi"].values())
        targets.append(("plan design, 200 frequencies, xi 1..20, no cache: at most 50 ms",
                        f"worst {ms(1e3 * worst)} ms", worst <= 0.05))
    g = get.get("everyday_gaussian")
    if g:
        rows = []
        for c in g["cases"]:
            t = c["times"]
            rows.append([c["case"], " x ".join(map(str, c["shape"])), c.get("path") or "–",
                         ms(1e3 * t["sftwave"]["median_s"]),
                         ms(1e3 * t["scipy"]["median_s"]), ratio(c["scipy_over_sftwave"]),
                         ratio(c["opencv_over_sftwave"]), ratio(c.get("auto_over_best_forced")),
                         err(c["error_sftwave"]) if c["error_sftwave"] is not None else "–",
                         err(c["error_scipy"]) if c["error_scipy"] is not None else "–"])
        out += ["", "### (g) Gaussian: everyday images and volumes against scipy.ndimage and OpenCV",
                "", provenance("everyday_gaussian", res["everyday_gaussian"]["meta"]), "",
                "Errors: relative RMSE against scipy at `truncate=12` in float64.",
                "Path: what `method='auto'` ran (fir32-rows: the float32 FIR over blocks of rows); "
                "auto / best: 'auto' against the faster of `method='fir'` and `'bank'`.",
                "", table(["case", "shape", "path", "sftwave ms", "scipy ms", "scipy / sftwave",
                           "OpenCV / sftwave", "auto / best", "sftwave error", "scipy error"], rows)]
        for c in g["cases"]:
            r = c["opencv_over_sftwave"]
            q = c["scipy_over_sftwave"]
            if c["case"].startswith("RGB photo"):
                targets.append((f"{c['case']}: >= 2x scipy and >= 1x OpenCV",
                                f"scipy / sftwave {ratio(q)}, OpenCV / sftwave {ratio(r)}",
                                q >= 2.0 and (r is None or r >= 1.0)))
                continue
            if c["case"].startswith("volume"):
                a = c.get("auto_over_best_forced")
                same = c.get("auto_method") is not None and c.get("auto_method") == c.get("best_forced")
                targets.append((f"{c['case']}: >= 1.5x scipy, 'auto' within 10 % of the best method",
                                f"scipy / sftwave {ratio(q)}, auto / best {ratio(a)}"
                                + (f" ('auto' runs the best, {c['best_forced']})" if same else ""),
                                q >= 1.5 and (same or a is None or a <= 1.1)))
                continue
            if r is None:
                continue
            if " 2048, " in c["case"]:
                targets.append((f"{c['case']}: >= 1x OpenCV", f"OpenCV / sftwave {ratio(r)}",
                                r >= 1.0))
                continue
            if "sigma 2" in c["case"]:
                targets.append((f"{c['case']}: within 1.5x of OpenCV", f"OpenCV / sftwave {ratio(r)}",
                                r >= 1 / 1.5))
            elif "sigma 8" in c["case"]:
                targets.append((f"{c['case']}: faster than OpenCV", f"OpenCV / sftwave {ratio(r)}",
                                r >= 1.0))
        worst = min(c["scipy_over_sftwave"] for c in g["cases"])
        targets.append(("as a scipy drop-in, never more than 10 % slower",
                        f"worst scipy / sftwave {ratio(worst)}", worst >= 1 / 1.1))
    return out, targets


def section_workloads(res: dict) -> str:
    parts, targets = workload_parts(res)
    if not parts:
        return ""
    out = ["## Users' workloads", "",
           "Every tool in the same run, repetitions alternating; medians after one untimed call, "
           "except the first scalogram, which is whole processes. Each part gives its 1-minute "
           "load average at start and end: this is a shared 2-core machine, so only ratios within "
           "one part mean much."] + parts
    if targets:
        out += ["", "### Workload targets in this run", "",
                table(["target", "measured", ""], [[a, b, _met(ok)] for a, b, ok in targets])]
    return "\n".join(out)


# ----------------------------------------------------------------------------- integrations


def section_mne_dropin(d: dict) -> str:
    rows = [[f"`{c['output']}`", f"`{c.get('n_cycles', 'freqs/2')}`", str(c.get("decim", 4)),
             sec(c["sftwave_s"]), sec(c["mne_s"]), ratio(c["mne_over_sftwave"]),
             err(c["row_difference"]), "yes" if c["mne_over_sftwave"] >= 3.0 else "**no**"]
            for c in d["cases"]]
    shape = " x ".join(map(str, d.get("shape", (60, 32, 1000))))
    return "\n".join([
        "## MNE's tfr_array_morlet, drop-in",
        "",
        f"Epochs {shape} float64 at 250 Hz (`sftwave.datasets.eeg_epochs`: 1/f background, "
        "alpha bursts, evoked responses, a DC offset per channel), 37 frequencies 4-40 Hz; "
        "`sftwave.mne.tfr_array_morlet` and MNE's, both `n_jobs=1`, alternate over "
        f"{d.get('rounds', 3)} rounds, medians after one untimed call. Target: at least 3x MNE on "
        "one thread for every output, both `n_cycles` forms. Row difference: "
        "the largest per-row relative RMS difference (for 'phase': radians, RMS weighted by the "
        "power).",
        "",
        table(["output", "n_cycles", "decim", "sftwave s", "MNE s", "MNE / sftwave",
               "row difference", ">= 3x"], rows),
    ])


def section_connectivity(d: dict) -> str:
    target = d.get("target", 5.0)
    rows = [[f"`{c['method']}`", f"{c['sm_times']:g}", sec(c["sftwave_s"]), sec(c["sftwave_all_s"]),
             sec(c["peer_s"]), ratio(c["peer_over_sftwave"]), ratio(c["peer_over_sftwave_all"]),
             err(c["max_difference"]), "yes" if c["peer_over_sftwave"] >= target else "**no**"]
            for c in d.get("cases", [])]
    shape = " x ".join(map(str, d.get("shape", (30, 16, 2000))))
    out = [
        "## Connectivity from epochs: MNE-Connectivity and MNE",
        "",
        f"Epochs {shape} float64 at 250 Hz (`sftwave.datasets.eeg_epochs`), {d.get('n_freqs', 30)} "
        "frequencies 4-40 Hz, `n_cycles=7`, every pair of the lower triangle; "
        "`sftwave.connectivity.spectral_connectivity_time` against MNE-Connectivity's "
        "(`mode='cwt_morlet'`, `n_jobs=1`), sftwave on one thread and on all, alternating over "
        f"{d.get('rounds', 3)} rounds, medians after one untimed call. Target: at least "
        f"{target:g}x MNE-Connectivity on one thread. Difference: the largest absolute "
        "difference of the scores.",
        "",
        table(["method", "sm_times", "sftwave s", "sftwave s (all threads)", "MNE-Connectivity s",
               "ratio", "ratio (all threads)", "difference", f">= {target:g}x"], rows),
    ]
    epochs = d.get("epochs")
    if epochs:
        out += ["", "`spectral_connectivity_epochs` (a score per pair, frequency and sample, "
                "across the epochs) on the same epochs and frequencies against "
                "MNE-Connectivity's (`mode='cwt_morlet'`, `n_jobs=1`); sftwave at its default "
                "`tol=1e-5`. The difference is per sample (not a time mean): its largest value "
                "is where a phase is ill-conditioned (a coefficient near 0 in some epoch).", "",
                table(["method", "sftwave s", "sftwave s (all threads)", "MNE-Connectivity s",
                       "ratio", "ratio (all threads)", "difference"],
                      [[f"`{c['method']}`", sec(c["sftwave_s"]), sec(c["sftwave_all_s"]),
                        sec(c["peer_s"]), ratio(c["peer_over_sftwave"]),
                        ratio(c["peer_over_sftwave_all"]), err(c["max_difference"])]
                       for c in epochs])]
    c = d.get("csd")
    if c:
        out += ["", "`csd_array_morlet` on the same epochs and frequencies against MNE's "
                "(`n_jobs=1`); difference relative to `sqrt(C_ii C_jj)`.", "",
                table(["sftwave s", "MNE s", "MNE / sftwave", "difference"],
                      [[sec(c["sftwave_s"]), sec(c["peer_s"]), ratio(c["peer_over_sftwave"]),
                        err(c["max_difference"])]])]
    return "\n".join(out)


def section_fresh_process(d: dict) -> str:
    rows, floor, targets = [], [], []
    for c in d["cases"]:
        for tool, t in c["tools"].items():
            if "error" in t:
                rows.append([c["case"], tool, "error: " + t["error"], "–", "–", "–", "–"])
                continue
            rows.append([c["case"], tool, sec(t["process_s"]), sec(t["import_s"]),
                         sec(t["first_call_s"]),
                         ratio(c.get("speedup")) if tool == "sftwave" else "",
                         ", ".join(t["modules"]) or "–"])
        if "skipped" in c:
            targets.append([f"{c['case']}: no slower than {c['anchor']}", c["skipped"], "–"])
        elif "speedup" in c:
            targets.append([f"{c['case']}: whole process no slower than {c['anchor']}",
                            f"{ratio(c['speedup'])}", _met(c["speedup"] >= 1.0)])
        if c["case"].startswith("pycwt wct N = 504") and "first_call_s" in c["tools"]["sftwave"]:
            s = c["tools"]["sftwave"]["first_call_s"]
            targets.append([f"{c['case']}: first call at most 0.3 s beyond the import", f"{sec(s)} s",
                            _met(s <= 0.3)])
    for k, v in d.get("floor", {}).items():
        script = ("pass" if k == "python" else f"import numpy as np, sftwave; {k}" if "(" in k
                  else f"import {k}")
        floor.append([f"`python -c \"{script}\"`", sec(v)])
    return "\n".join([
        "## A one-call script as a whole fresh process, caches warm",
        "",
        "Each case is two `python -c` scripts that build the same input with numpy, import a "
        "library and make one call: sftwave's and the anchor's. numba's kernel cache, sftwave's "
        "plan cache and pycwt's significance cache are warm (one untimed run of each script "
        "first); the tools take turns; medians of "
        f"{d['rounds']} rounds. *process s*: the wall time from start to exit; *import s* and "
        "*first call s*: inside it; *speed-up*: the anchor's process over sftwave's; *heavy "
        "modules*: scipy subpackages, numba and the like present after the call.",
        "",
        table(["case", "tool", "process s", "import s", "first call s", "speed-up",
               "heavy modules after the call"], rows),
        "",
        "The floor: whole processes that only import, and sftwave's smallest call on its numba "
        "engine (a 64 x 64 image at sigma 16, a bank plan; numba's first cached kernel sets "
        "up its CPU target: its registries, once per "
        "process, without the scipy.linalg that numba's BLAS check would import, which the "
        "engine answers from the file of scipy's BLAS extension; then the call's engine modules "
        "and its few kernels load; the stages' times: docs/performance.md, *The floor of a "
        "one-call script*); medians:",
        "",
        table(["script", "process s"], floor),
        "",
        table(["target", "measured", ""], targets),
    ])


def section_first_tfr(d: dict) -> str:
    rows, design, targets = [], [], []
    for c in d["cases"]:
        label = f"`n_cycles={c['n_cycles']}`, {c['sfreq']:g} Hz"
        for tool, t in c["tools"].items():
            if "error" in t:
                rows.append([label, tool, "error: " + t["error"], "–", "–"])
            else:
                rows.append([label, tool, sec(t["process_s"]), sec(t["import_s"]),
                             sec(t["first_call_s"])])
        de, dw = c["design"].get("empty"), c["design"].get("filled")
        design.append([label, ms(1e3 * de) if de is not None else "–",
                       ms(1e3 * dw) if dw is not None else "–"])
        cold = c["tools"].get("sftwave, empty plan cache", {})
        if "process_s" in cold:
            targets.append([f"{label}: whole process, empty plan cache, at most 1.5 s",
                            f"{sec(cold['process_s'])} s", _met(cold["process_s"] <= 1.5)])
        if dw is not None:
            targets.append([f"{label}: design, plan cache filled, about 50 ms (at most 60)",
                            f"{ms(1e3 * dw)} ms", _met(dw <= 0.06)])
    shape = " x ".join(map(str, d["shape"]))
    return "\n".join([
        "## MNE's tfr_array_morlet: the first call of a fresh process",
        "",
        f"{shape} samples, {d['nfreq']} frequencies 4..80 Hz, `output='power'` (sftwave's default "
        f"`tol` here, {d['tol']:g}); `n_cycles = freqs / 2` and `(freqs + 1) / 2` are `xi` 2 to "
        "40.5, half of them beyond the layout table's grid (20). Each run is a whole "
        "`python -c` process: its wall time from start to exit, and the import and the first "
        "call inside it. sftwave with a new, empty plan cache (numba's cache filled, as after "
        "installation), then with that plan cache filled; MNE with `n_jobs=1`; medians of "
        f"{d['rounds']} alternating rounds.",
        "",
        table(["case", "tool", "process s", "import s", "first call s"], rows),
        "",
        "The plans' design alone (`select_morlet_scales` for the 200 scales as `cwt` asks, in a fresh "
        "process), with the plan cache empty (designed and written) and filled (read):",
        "",
        table(["case", "design, empty cache ms", "design, cache filled ms"], design),
        "",
        table(["target", "measured", ""], targets),
    ])


def section_stream(d: dict) -> str:
    rows = [[r["filter"], f"{r['chunk']}", f"{r['stream_ns_per_sample']:.1f}",
             f"{r['batch_ns_per_sample']:.1f}",
             ratio(r["stream_ns_per_sample"] / r["batch_ns_per_sample"])] for r in d["throughput"]]
    drift = [[r["transform"], f"{r['samples']:.0e}", f"{r['ns_per_sample']:.1f}",
              err(r["end_rel_rms_vs_batch"])] for r in d["drift"]]
    return "\n".join([
        "## Streaming",
        "",
        "One channel; nanoseconds per sample, medians of 3 runs after a warm-up, against the "
        "batch function on the whole signal in the same run. The stream runs on one thread (its "
        "recursion is sequential in time; channels are the parallel axis), the batch on all.",
        "",
        table(["filter", "chunk", "stream ns/sample", "batch ns/sample", "stream / batch"], rows),
        "",
        "Drift: a float32 stream (noise + 5) through `GaussianFilter1D(32)` in chunks of 65 536; "
        "the last 10 000 outputs against the batch function on the last 100 000 samples "
        "(relative RMS). The state is float64: neither transform drifts.",
        "",
        table(["transform", "samples", "ns/sample", "end error vs batch"], drift),
    ])


def section_dask(d: dict) -> str:
    ref = {0: d.get("in_memory_cwt_seconds"), 1: d.get("in_memory_gaussian_seconds"),
           2: d.get("in_memory_blob_log_seconds")}
    rows = [[c["case"] + (f" ({c['blobs']:,} blobs)" if "blobs" in c else ""),
             sec(c["seconds"]), sec(ref.get(i)),
             ", ".join(str(v) for v in c["peak_rss_mb_per_worker"]),
             ", ".join(str(v) for v in c["idle_rss_mb_per_worker"])]
            for i, c in enumerate(d["cases"])]
    return "\n".join([
        "## dask on a local cluster",
        "",
        "`distributed.LocalCluster` of 2 worker processes, 1 thread "
        "each; the inputs are generated on the workers by dask's random generator, and that "
        "generation is inside the dask times (not inside the in-memory ones, which run the "
        "function on a numpy array in the client, on 2 threads). Peak memory: the largest "
        "resident set of each worker, sampled every 0.2 s.",
        "",
        table(["case", "dask s", "in memory s", "peak RSS per worker (MB)", "idle RSS (MB)"],
              rows),
    ])


def section_import_time(it: dict, m: dict) -> str:
    ref = it["reference"]
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
        "Every figure is a fresh interpreter with nothing "
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


def section_short_series(r: dict) -> str:
    if "skipped" in r:
        return "## Short series, many scales: against pycwt\n\nSkipped: " + r["skipped"]
    out = [
        "## Short series, many scales: against pycwt",
        "",
        "pycwt's Morlet(6) at its default scales (`s0 = 2 dt`, `dj = 1/12`, 133 scales at "
        "N = 4,000) and sftwave at the same scales, on red noise (AR(1), 0.7), the calls "
        "alternating. 'auto' runs each scale by the bank or by the FFT, whichever its count "
        "of operations says is cheaper (`sftwave.plans.select.morlet_costs`); the rows it "
        "gave the FFT are counted. The analysis is the Nino3 example's (cwt with zero "
        "padding, lag-1 autocorrelation, local and global significance, global spectrum, "
        "scale average and its significance, icwt) against pycwt's tutorial's calls. "
        "Ratio: pycwt's time over sftwave's (above 1: sftwave is faster).",
        "",
    ]
    pairs = [("cwt, reflect", "sftwave cwt reflect", "pycwt cwt"),
             ("cwt, constant", "sftwave cwt constant", "pycwt cwt"),
             ("cwt, constant, bank forced", "sftwave cwt constant, method='bank'", "pycwt cwt"),
             ("cwt, constant, FFT forced", "sftwave cwt constant, method='fft'", "pycwt cwt"),
             ("icwt", "sftwave icwt", "pycwt icwt"),
             ("icwt, method='tc'", "sftwave icwt, method='tc'", "pycwt icwt"),
             ("whole analysis", "sftwave analysis", "pycwt analysis")]
    for c in r["cases"]:
        t = c["times"]
        rows = []
        for label, ours, theirs in pairs:
            a, b = t[ours]["median_s"], t[theirs]["median_s"]
            rows.append([label, ms(1e3 * a), ms(1e3 * b), ratio(b / a)])
        out += [f"N = {c['n']:,}, {c['scales']} scales; 'auto' ran {c['fft_rows_reflect']} rows "
                f"by FFT with 'reflect', {c['fft_rows_constant']} with 'constant'; load "
                f"{c['load_start'] or 0:.1f} to {c['load_end'] or 0:.1f}.", "",
                table(["call", "sftwave ms", "pycwt ms", "ratio"], rows), ""]
    return "\n".join(out).rstrip()


def section_dog(r: dict) -> str:
    title = "## The Mexican hat (DOG, m = 2): against pycwt and PyWavelets"
    if "skipped" in r:
        return title + "\n\nSkipped: " + r["skipped"]
    out = [
        title,
        "",
        "`cwt(wavelet='mexh')` at pycwt's default scales for `DOG(2)` (`s0 = 2 dt / flambda`, "
        "`dj = 1/12`), on red noise (AR(1), 0.7), with zero padding (`mode='constant'`), "
        "against pycwt's `cwt(wavelet=DOG(2))` and PyWavelets' `cwt(..., 'mexh')` (its FFT; "
        "its direct convolution at N = 4,000 only) at the same scales, the calls alternating. "
        "Ratio: the peer's time over sftwave's (above 1: sftwave is faster). Error: a tool's "
        "worst row (sigma >= 2 samples, 14 sigma from the ends) against T&C's sampled "
        "wavelet, after the best real factor (normalisations differ); sftwave's also without it.",
        "",
    ]
    for c in r["cases"]:
        t = c["times"]
        a = t["sftwave"]["median_s"]
        rows = [["sftwave", ms(1e3 * a), "–", err(c["errors"].get("sftwave")) + " ("
                 + err(c["errors"].get("sftwave, no fit")) + " no fit)"]]
        for name in ("pycwt", "PyWavelets fft", "PyWavelets conv"):
            if name in t:
                b = t[name]["median_s"]
                rows.append([name, ms(1e3 * b), ratio(b / a), err(c["errors"].get(name))])
        out += [f"N = {c['n']:,}, {c['scales']} scales; load {c['load_start'] or 0:.1f} to "
                f"{c['load_end'] or 0:.1f}.", "",
                table(["tool", "ms", "ratio", "worst row error"], rows), ""]
    return "\n".join(out).rstrip()


def section_features(r: dict) -> str:
    title = "## Image features: against scikit-image and OpenCV"
    if "skipped" in r:
        return f"{title}\n\nSkipped: " + r["skipped"]
    out = [
        title,
        "",
        f"`sftwave.feature` against scikit-image's functions of the same names, on "
        f"{r['image']}, with the same arguments (the Hessian with "
        "`use_gaussian_derivatives=True`). The calls take turns (medians); the two slowest "
        "scikit-image calls are timed once. The Gabor bank (8 orientations at 0.1 cycles per "
        "pixel, real and imaginary parts) is also timed against OpenCV's `getGaborKernel` "
        "(cut at 3 sigma) and `filter2D`, whose kernel is scaled otherwise (no difference "
        "given). Ratio: the anchor's time over sftwave's. "
        "Difference: the relative RMS difference between the two results (scikit-image "
        "truncates its Gaussians, sftwave's meet their `tol` untruncated); for the blobs, "
        "of the sorted detections where both found as many, and the two counts.",
        "",
    ]
    rows = []
    for c in r["cases"]:
        t = c["times"]
        ratio_v = c.get("anchor_over_sftwave", c.get("skimage_over_sftwave"))
        target = "–" if c["target"] is None else f"≥ {c['target']:g}×"
        met = "–" if c["target"] is None else _met(ratio_v >= c["target"])
        diff = err(c["difference"])
        if "detections" in c:
            diff += f" ({c['detections'][0]:,} and {c['detections'][1]:,} blobs)"
        theirs = t.get("anchor", t.get("scikit-image"))
        rows.append([c["case"], c.get("anchor", "scikit-image"), ms(1e3 * t["sftwave"]["median_s"]),
                     ms(1e3 * theirs["median_s"]), ratio(ratio_v), target, met, diff])
    out += [table(["call", "anchor", "sftwave ms", "anchor ms", "ratio", "target", "met",
                   "difference"], rows), "",
            f"Load {r.get('load_start') or 0:.1f} at the start, {r.get('load_end') or 0:.1f} at "
            "the end."]
    return "\n".join(out).rstrip()


def section_multiscale(r: dict) -> str:
    title = "## Multiscale basic features: against scikit-image"
    if "skipped" in r:
        return f"{title}\n\nSkipped: " + r["skipped"]
    out = [
        title,
        "",
        "`sftwave.feature.multiscale_basic_features` against "
        "`skimage.feature.multiscale_basic_features` (scikit-image's thread pool over the "
        "scales, sftwave's threads in each filter), the calls taking turns (medians). "
        "Ratio: scikit-image's time over sftwave's. Error: the largest difference over the "
        "features, each relative to its own range (max - min) in scikit-image's result. "
        "sftwave's default runs scikit-image's kernels at these scales, summed in float32 on "
        "an image and in float64 on a volume (as scipy's); `tol=1e-7` is the untruncated "
        "Gaussian, `truncated=True` scikit-image's kernels at every scale, in float64.",
        "",
    ]
    rows = []
    for c in r["cases"]:
        t = c["times"]
        target = "–" if c["target"] is None else f"≥ {c['target']:g}×"
        met = "–" if c["target"] is None else _met(c["anchor_over_sftwave"] >= c["target"])
        rows.append([c["case"], c["variant"], str(c["features"]),
                     ms(1e3 * t["sftwave"]["median_s"]), ms(1e3 * t["anchor"]["median_s"]),
                     ratio(c["anchor_over_sftwave"]), target, met, err(c["max_range_error"])])
    out += [table(["image", "sftwave", "features", "sftwave ms", "scikit-image ms", "ratio",
                   "target", "met", "error / range"], rows), "",
            f"Load {r.get('load_start') or 0:.1f} at the start, {r.get('load_end') or 0:.1f} at "
            "the end."]
    return "\n".join(out).rstrip()


def section_synchrosqueeze(r: dict) -> str:
    title = "## Synchrosqueezing: against ssqueezepy"
    out = [title, "",
           "`sftwave.synchrosqueeze.ssq_cwt` against ssqueezepy's `ssq_cwt(x, 'morlet')` "
           "(its defaults: 32 voices, float32) at ssqueezepy's own scales and as many log bins, "
           f"on a chirp in white noise of {r['n']:,} samples (float32); the calls take turns "
           "(medians). Ratio: ssqueezepy's time over sftwave's. Peak memory in fresh processes: "
           "the growth of the peak resident size (VmHWM) during one call, and of the anonymous "
           "resident memory (sampled; the working memory, without an output's memory-mapped "
           "file pages).", ""]
    if "times" in r:
        t = r["times"]
        rows = [[f"{r['n']:,} samples, {r['scales']} scales", sec(t["sftwave"]["median_s"]),
                 sec(t["ssqueezepy"]["median_s"]), ratio(r["ssqueezepy_over_sftwave"]), "≥ 5×",
                 _met(r["ssqueezepy_over_sftwave"] >= 5)]]
        out += [table(["workload", "sftwave s", "ssqueezepy s", "ratio", "target", "met"], rows), ""]
        g = r["ridges"]
        out += [f"Ridges of a clean chirp ({g['n']:,} samples, ssqueezepy's scales and bins): "
                f"{100 * g['within_one_bin']:.1f} % of the columns within one bin of "
                f"ssqueezepy's (at most {g['max_bins_apart']} apart).", ""]
    else:
        out += ["Timing skipped: " + r.get("skipped", ""), ""]
    rows = []
    for tool, m in r["memory"].items():
        if "error" in m:
            rows.append([tool, "–", "–", "–", "–", "error: " + " ".join(m["error"])])
            continue
        rows.append([tool, f"{m['n']:,}", sec(m["seconds"]), f"{m['output_mib']:,.0f}",
                     f"{m['peak_rss_increase_mib']:,.0f}", f"{m['peak_anon_increase_mib']:,.0f}"])
    out += [table(["tool", "samples", "s", "output MiB", "peak RSS growth MiB",
                   "peak anonymous growth MiB"], rows), "",
            "sftwave's output (300 bins, complex64) is an `np.memmap`: its pages count in the "
            "resident size as they are written, not in the anonymous memory. Target: 1e6 "
            "samples with 300 scales in under 1 GB beside the output.", "",
            f"Load {r.get('load_start') or 0:.1f} at the start, {r.get('load_end') or 0:.1f} at "
            "the end."]
    return "\n".join(out).rstrip()


def section_superlet(r: dict) -> str:
    title = "## Superlets: against Syncopy"
    if "skipped" in r:
        return f"{title}\n\nSkipped: " + r["skipped"]
    a = r["adaptive"]
    t = a["times"]
    out = [title, "",
           "`sftwave.superlet` against Syncopy's `superlet` (its file "
           "`syncopy/specest/superlet.py`, loaded alone), one thread each, zero padding, the "
           "calls taking turns (medians). The fractional adaptive superlet, orders 1 to 30, "
           f"`c_1 = 3`, of a random walk of {r['n']:,} samples at 1 kHz over {r['freqs']} "
           f"frequencies from 5 to 120 Hz ({a['wavelet_rows']} wavelet rows). Ratio: Syncopy's "
           "time over sftwave's.", "",
           table(["workload", "sftwave s", "Syncopy s", "ratio", "target", "met"],
                 [[f"adaptive 1-30, {r['n']:,} samples, one thread", sec(t["sftwave"]["median_s"]),
                   sec(t["Syncopy"]["median_s"]), ratio(a["syncopy_over_sftwave"]), "≥ 10×",
                   _met(a["syncopy_over_sftwave"] >= 10)],
                  [f"the same, sftwave on all {a['threads']} threads",
                   sec(t["sftwave_all_threads"]["median_s"]), sec(t["Syncopy"]["median_s"]),
                   ratio(a["syncopy_over_sftwave_all_threads"]), "–", "–"]]), "",
           f"Agreement of the moduli (default `tol`), relative RMS difference per row: largest "
           f"{err(r['agreement']['max'])}, median {err(r['agreement']['median'])} (Syncopy "
           "samples its wavelets up to half a sample off their centres and cuts them at 4 "
           "sigma; the rows near 120 Hz, wavelets a few samples wide, differ most).", ""]
    p = r["per_order"]
    rows = [[num(o["order_max"]), sec(o["sftwave_s"]), sec(o["syncopy_s"]),
             f"{o['sftwave_ns_per_row_sample']:.1f}", f"{o['syncopy_ns_per_row_sample']:.1f}",
             ratio(o["syncopy_s"] / o["sftwave_s"])] for o in p["rows"]]
    out += [f"The cost per order: the multiplicative superlet of orders 1 to o on "
            f"{p['n']:,} samples (o wavelets per frequency, the last of 3 o cycles).", "",
            table(["o", "sftwave s", "Syncopy s", "sftwave ns per row-sample",
                   "Syncopy ns per row-sample", "ratio"], rows), "",
            f"Load {r.get('load_start') or 0:.1f} at the start, {r.get('load_end') or 0:.1f} at "
            "the end."]
    return "\n".join(out).rstrip()


def section_peaks(r: dict) -> str:
    title = "## Peaks across widths: find_peaks_cwt against scipy"
    f, c = r["find_peaks_cwt"], r["cwt"]
    p = r["peaks"]
    lo, hi = r["widths"]
    same = "the same peaks" if p["same"] else f"different peaks ({p['sftwave']} against {p['scipy']})"
    out = [title, "",
           f"40 Gaussian peaks of widths 2 to 150 samples in noise, {r['n']:,} samples, searched "
           f"at widths {lo} to {hi}: scipy.signal's `find_peaks_cwt` and `sftwave.signal`'s "
           f"({same}: {p['scipy']}); then the Ricker matrix alone by `sftwave.signal.cwt` "
           "against scipy 1.14's method (a convolution per width with the wavelet cut at 10 "
           "widths, as `truncated=True` computes it; scipy 1.15 removed `cwt`). The calls take "
           "turns (medians). Ratio: scipy's time over sftwave's.", "",
           table(["call", "sftwave s", "scipy s", "ratio", "target", "met"],
                 [["find_peaks_cwt", sec(f["times"]["sftwave"]["median_s"]),
                   sec(f["times"]["scipy"]["median_s"]), ratio(f["scipy_over_sftwave"]), "≥ 10×",
                   _met(f["scipy_over_sftwave"] >= 10)],
                  ["cwt, Ricker", sec(c["times"]["sftwave"]["median_s"]),
                   sec(c["times"]["scipy_1_14"]["median_s"]), ratio(c["scipy_over_sftwave"]), "–",
                   "–"]]), "",
           f"Largest difference of sftwave's Ricker matrix from scipy 1.14's, relative to its "
           f"largest value: {err(c['max_difference'])} (scipy cuts each wavelet at 10 widths; "
           "sftwave's rows are the untruncated wavelet).", "",
           f"Load {r.get('load_start') or 0:.1f} at the start, {r.get('load_end') or 0:.1f} at "
           "the end."]
    return "\n".join(out).rstrip()


def section_coherence(r: dict) -> str:
    title = "## Wavelet coherence: against pycwt"
    if "skipped" in r:
        return f"{title}\n\nSkipped: " + r["skipped"]
    out = [
        title,
        "",
        "Two AR(1) series at pycwt's default scales (`dj = 1/12`), the calls alternating "
        "(medians). `sftwave.pycwt` gives pycwt's numbers (its zero padding to a power of "
        "two and its circular smoothing reproduced); `sftwave.coherence` smooths without the "
        "wrap, with Grinsted's width (`mode='constant'`). Difference: the largest absolute "
        "difference of `sftwave.pycwt.wct`'s coherence from pycwt's on the rows of Fourier "
        "period >= 6 samples (below, pycwt's wavelet is cut at the Nyquist frequency). "
        "Ratio: pycwt's time over sftwave's.",
        "",
    ]
    pairs = [("wct, sig=False: sftwave.pycwt", "sftwave.pycwt wct", "pycwt wct"),
             ("wct, sig=False: sftwave.coherence", "sftwave.coherence wct", "pycwt wct"),
             ("xwt: sftwave.pycwt", "sftwave.pycwt xwt", "pycwt xwt"),
             ("xwt: sftwave.coherence", "sftwave.coherence xwt", "pycwt xwt")]
    for c in r["cases"]:
        t = c["times"]
        rows = [[label, ms(1e3 * t[a]["median_s"]), ms(1e3 * t[b]["median_s"]),
                 ratio(t[b]["median_s"] / t[a]["median_s"])] for label, a, b in pairs]
        out += [f"N = {c['n']:,}, {c['scales']} scales; difference "
                f"{err(c['max_abs_difference_wct'])}; load {c['load_start'] or 0:.1f} to "
                f"{c['load_end'] or 0:.1f}.", "",
                table(["call", "sftwave ms", "pycwt ms", "ratio"], rows), ""]
    mc = r.get("significance")
    if mc:
        out += [f"Monte-Carlo significance (`wct(sig=True)`'s cost) for N = {mc['n']:,}: "
                f"pairs of AR(1) surrogates of {mc['surrogate_samples']:,} "
                f"samples, {mc['scales']} scales. sftwave's run of {mc['draws']} draws, timed "
                f"once (cache off): {sec(mc['sftwave_s'])} s ({sec(mc['sftwave_per_draw_s'])} s "
                f"a draw; 300 draws: {sec(mc['sftwave_300_s'] / 60)} min"
                f"{'' if mc['draws'] == 300 else ', extrapolated'}). pycwt: one draw of its "
                f"loop timed, {sec(mc['pycwt_one_draw_s'])} s, times 300: **an estimate** of "
                f"{sec(mc['pycwt_estimate_s'] / 3600)} h; ratio "
                f"{ratio(mc['pycwt_estimate_s'] / mc['sftwave_300_s'])}. Load "
                f"{mc['load_start'] or 0:.1f}, {mc['load_mid'] or 0:.1f}, "
                f"{mc['load_end'] or 0:.1f}.", ""]
    return "\n".join(out).rstrip()


def section_coherence_pairs(r: dict) -> str:
    title = "## Wavelet coherence of every pair of channels: wct_pairs against loops of wct"
    t = r["times"]
    ours, loop = t["wct_pairs"]["median_s"], t["wct loop"]["median_s"]
    rows = [["`sftwave.coherence.wct_pairs` (all pairs)", sec(ours), "1×"],
            ["loop of `sftwave.coherence.wct` over the pairs", sec(loop), ratio(loop / ours)]]
    p = r.get("pycwt")
    if p:
        rows.append([f"loop of pycwt's `wct(sig=False)`: **estimate**, {p['pairs_timed']} "
                     f"pairs timed ({sec(p['per_pair_s'])} s each) times {r['pairs']}",
                     sec(p["estimate_s"]), ratio(p["estimate_s"] / ours)])
    return "\n".join([
        title,
        "",
        f"{r['channels']} AR(1) channels of N = {r['n']:,} samples sharing a part, every "
        f"pair i < j ({r['pairs']} pairs), pycwt's scales with `dj = {r['dj']}` "
        f"({r['scales']} scales), `mode='constant'`; medians of {r['rounds']} alternating "
        "rounds. `wct_pairs` transforms each channel and smooths its power once, and "
        "smooths only each pair's cross-spectrum; its output (coherence and phase; the "
        f"loop's calls also return the cross-spectra) is {r['output_gb']:.2f} GB. Largest "
        f"difference of its coherence from `wct`'s on one pair: {err(r['max_abs_difference'])}"
        + ("" if "max_abs_phase_difference" not in r
           else f", of its phase: {err(r['max_abs_phase_difference'])} rad")
        + ". Ratio: the loop's time "
        f"over `wct_pairs`'. Load {r['load_start'] or 0:.1f}, {r['load_mid'] or 0:.1f}, "
        f"{r['load_end'] or 0:.1f}.",
        "",
        table(["call", "seconds", "ratio"], rows),
        "",
        ("pycwt: " + r["pycwt_skipped"] + ".") if "pycwt_skipped" in r else "",
        _dask_pairs_text(r.get("dask"), ours / r["pairs"]),
    ]).rstrip()


def _dask_pairs_text(d: dict | None, in_memory_per_pair: float) -> str:
    if not d:
        return ""
    if "skipped" in d:
        return "dask: " + d["skipped"] + "."
    return (f"`sftwave.dask.wct_pairs` on {d['channels']} channels ({d['pairs']} pairs, "
            f"{d['tasks_of_pairs']} tasks of pairs, blocks of 8 channels, the threaded "
            f"scheduler), reduced to the time-averaged coherence (its full coherence, "
            f"{d['output_gb_not_held']:.1f} GB, never held): {sec(d['seconds'])} s, "
            f"{sec(d['per_pair_s'])} s a pair against {sec(in_memory_per_pair)} s a pair in "
            "memory above.")


def section_sizes(sz: dict) -> str:
    rows = []
    for c in sz["cases"]:
        t = c["times"]
        sft, ref = list(t)
        rows.append([c["what"], str(c["size"]), ms(t[sft]["median_ms"]),
                     f"{c['anchor']} {ms(t[ref]['median_ms'])}", ratio(c["ratio"])])
    skipped = [f"{k[:-8]}: {v}" for k, v in sz.items() if k.endswith("_skipped")]
    return "\n".join([
        "## Sizes: warm calls from 100 samples and 32 x 32 up",
        "",
        "One warm call of each tool at each size, the calls alternating over "
        f"{sz['rounds']} rounds (3 at the largest sizes), medians; a call shorter than "
        f"{num(1e3 * sz['batch_s'])} ms is timed in batches and divided.  The ratio is the "
        "anchor's time over sftwave's (above 1: sftwave faster).  Where sftwave is slower at "
        "the small sizes, a call's fixed cost (argument checks, plan and engine look-ups, "
        "dispatch of the compiled kernels) exceeds the anchor's whole call.",
        "",
        table(["call", "size", "sftwave ms", "anchor ms", "anchor / sftwave"], rows),
        "",
        ("Skipped: " + "; ".join(skipped) + ".") if skipped else "",
    ]).rstrip() + "\n"


# ----------------------------------------------------------------------------- the page

#: (section name, renderer of its result) in the page's order, after the header, the
#: users' workloads, the targets and the reading (which combine several sections)
ORDER = [
    ("gaussian1d", section_1d),
    ("flat_sigma", section_flat_sigma),
    ("gaussian2d", section_2d),
    ("cwt", section_cwt),
    ("cwt_few_scales", section_few_scales),
    ("first_call", section_first_call),
    ("cwt_first_call", section_cwt_first_call),
    ("short_series", section_short_series),
    ("dog", section_dog),
    ("coherence", section_coherence),
    ("coherence_pairs", section_coherence_pairs),
    ("features", section_features),
    ("multiscale_features", section_multiscale),
    ("synchrosqueeze", section_synchrosqueeze),
    ("superlet", section_superlet),
    ("peaks", section_peaks),
    ("derivatives", section_derivatives),
    ("nonfinite", section_nonfinite),
    ("mne_dropin", section_mne_dropin),
    ("first_tfr", section_first_tfr),
    ("fresh_process", section_fresh_process),
    ("connectivity", section_connectivity),
    ("stream", section_stream),
    ("dask", section_dask),
    ("gaussian_first_call", section_gaussian_first_call),
    ("import_time", section_import_time),
    ("sizes", section_sizes),
    ("crossover", section_crossover),
    ("bank_methods", section_bank),
    ("float32_drift", section_drift),
]
#: sections rendered inside 'Users' workloads' rather than on their own
WORKLOADS = ("first_scalogram", "eeg", "long_signal", "audio", "design", "everyday_gaussian")


def _with_provenance(text: str, name: str, meta: dict) -> str:
    head, _, rest = text.partition("\n\n")
    return f"{head}\n\n{provenance(name, meta)}\n\n{rest}"


def render(res: dict, *, quick: bool = False) -> str:
    """The whole page from ``{section: {"meta": ..., "result": ...}}``."""
    head = ["# Benchmarks", "",
            "<!-- Generated by benchmarks/compare.py from benchmarks/results/*.json; "
            "do not edit by hand. -->", ""]
    if quick:
        head += ["**Quick run (`--quick`): small sizes, few repetitions, a check that the "
                 "comparisons run; these numbers mean little.**", ""]
    parts = [section_machine(res, quick), section_workloads(res), section_targets(res), reading(res)]
    for name, fn in ORDER:
        if name not in res:
            continue
        r, m = res[name]["result"], res[name]["meta"]
        text = fn(r, m) if fn is section_import_time else fn(r)
        parts.append(_with_provenance(text, name, m))
    return "\n".join(head) + "\n" + "\n\n".join(p for p in parts if p) + "\n"
