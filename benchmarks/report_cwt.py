"""Markdown for the CWT workloads, the SimpleITK comparison and the performance targets.

Used by report.py; every figure comes from the benchmark JSON.
"""

from __future__ import annotations


from fmt import err, ms, num, ratio, sec, table


# ----------------------------------------------------------------------------- SimpleITK


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


def section_cwt(res: dict) -> str:
    if "cwt" not in res:
        return ""
    c0 = res["cwt"]["cases"][0]
    out = [
        "## Morlet CWT: sftwave vs fCWT, ssqueezepy, PyWavelets, MNE",
        "",
        f"A random walk at {num(c0['fs'])} Hz, log-spaced frequencies "
        f"{num(c0['freq_range_hz'][0])} to {num(c0['freq_range_hz'][1])} Hz (fCWT's own grid, "
        f"given to every tool), xi = {num(c0['xi'])} (MNE `n_cycles=6`). Times are medians after "
        "a warm-up call (plans and compilation excluded: see *First call and peak memory*). "
        "Accuracy: every tool's rows against the exact transform of the definition it "
        "implements (its own boundary extension, with or without the admissibility term), "
        "after removing a per-row complex scale (the tools normalise differently); the worst "
        f"of {c0['rows_checked']} rows spread over the frequencies, and the frequency where it "
        "occurs. sftwave's error without that fit is in brackets. `benchmarks/bench_cwt.py` "
        "lists each tool's call and definition.",
        "",
    ]
    for c in res["cwt"]["cases"]:
        out += _case_table(c)
    fs = res.get("cwt_few_scales")
    if fs:
        rows = [[str(r["scales"]), sec(r["engine"]["median_s"]), sec(r["line_by_line"]["median_s"]),
                 "engine" if r["engine"]["median_s"] < r["line_by_line"]["median_s"] else "line by line"]
                for r in fs["rows"]]
        out += [
            "### Few scales: lane engine or line by line",
            "",
            f"One float32 line of {fs['n']:,} samples, 5 to 100 Hz: `bank_method='iir1'` (the lane "
            "engine, groups of 16 lanes) against `'iir1-2k'` (the bank, one line and scale at a "
            f"time). 'auto' runs fewer than {fs['engine_min_lanes']} lines times scales line by "
            "line.",
            "",
            table(["scales", "engine s", "line by line s", "faster"], rows),
            "",
        ]
    f = res.get("cwt_first_call")
    if f:
        rows = []
        for label, r in f["tools"].items():
            if "error" in r:
                rows.append([label, "failed: " + " ".join(r["error"]), "", "", "", ""])
                continue
            rows.append([label, sec(r["import_and_setup_s"]), sec(r["first_call_s"]),
                         sec(r["second_call_s"]), f"{r['peak_rss_increase_mib']:.0f}",
                         "–" if r.get("second_call_peak_rss_increase_mib") is None
                         else f"{r['second_call_peak_rss_increase_mib']:.0f}"])
        out += [
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
        ]
    return "\n".join(out).rstrip()


# ----------------------------------------------------------------------------- targets


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


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
                     f"{ratio(sp)}; worst row {err(t['worst_row_rel_rmse'])}", _mark(sp >= 1.5)])
    m = c.get("matched_accuracy")
    if m:
        for label, key in (("fresh output", "time_fresh"), ("out=", "time_reused")):
            sp = tf / m[key]["median_s"]
            rows.append([f"{head} at fCWT's accuracy ({label}): >= 1× fCWT's speed",
                         f"{ratio(sp)} at tol {m['tol']:g} (worst row "
                         f"{err(m['worst_row_rel_rmse'])}, fCWT's {err(m['fcwt_worst_row'])})",
                         _mark(sp >= 1.0)])
    t = by["sftwave complex64 out="]["time"]["median_s"]
    fill = c["floor"]["fill_fresh_complex64_s"]
    rows.append([f"{head}, goal: 3× fCWT and within 2× of the output fill",
                 f"{ratio(tf / t)} fCWT; {ratio(t / fill)} the fill",
                 _mark(tf / t >= 3 and t <= 2 * fill)])
    return rows


def section_targets(res: dict) -> str:
    """The performance targets against this run's figures."""
    rows = []
    for c in res.get("cwt", {}).get("cases", []):
        rows += _cwt_targets(c)
    g1 = res.get("gaussian1d")
    r = next((r for r in g1["rows"] if r["sigma"] == 128.0 and r["order"] == 0), None) if g1 else None
    if r:
        q = r["ratio_scipy_over_sftwave"]
        rows.append([f"Gaussian 1-D, N={g1['n']:,}, sigma 128: >= 100× scipy", ratio(q), _mark(q >= 100)])
        q = r["ratio_sftwave_over_memcpy"]
        rows.append(["Gaussian 1-D, sigma 128: within 6× of a memcpy", ratio(q), _mark(q <= 6)])
    for r in res.get("gaussian2d", {}).get("rows", []):
        q = r["ratio_opencv_over_sftwave"]
        if r["sigma"] >= 8:
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: faster than OpenCV",
                         f"OpenCV / sftwave {ratio(q)}", _mark(q >= 1.0)])
        else:
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: within 1.5× of OpenCV",
                         f"OpenCV / sftwave {ratio(q)}", _mark(q >= 1 / 1.5)])
        if "simpleitk" in r:
            qs = r["ratio_simpleitk_over_sftwave_nearest"]
            qe = r["simpleitk_rel_rmse_nearest"] / r["sftwave_rel_rmse_nearest"]
            rows.append([f"Gaussian 2-D sigma {num(r['sigma'])}: faster than SimpleITK, "
                         "about 100× smaller error",
                         f"{ratio(qs)} faster; error {ratio(qe)} smaller",
                         _mark(qs >= 1 and qe >= 50)])
    fc = res.get("cwt_first_call", {}).get("tools", {})
    cold, cached = fc.get("sftwave cold", {}), fc.get("sftwave cached", {})
    if "first_call_s" in cold and "first_call_s" in cached:
        total = cached["import_and_setup_s"] + cached["first_call_s"]
        rows.append(["CWT first call reported; a cached second process starts in < 1 s",
                     f"cold first call {sec(cold['first_call_s'])} s; cached: import + setup "
                     f"{sec(cached['import_and_setup_s'])} s, first call "
                     f"{sec(cached['first_call_s'])} s", _mark(total < 1.0)])
    if not rows:
        return ""
    return "\n".join(["## Performance targets", "",
                      "Each target against this run's figures (the margin 'about 100×' "
                      "is counted as met from 50×). What bounds the missed ones: "
                      "[performance.md](performance.md).", "",
                      table(["target", "measured", ""], rows)])
