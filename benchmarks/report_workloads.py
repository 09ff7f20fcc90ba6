"""The section of docs/benchmarks.md for benchmarks/workloads.py (the users' workloads), if run."""

from __future__ import annotations

from fmt import err, load_result, ms, ratio, sec, table


def _met(ok: bool) -> str:
    return "met" if ok else "**missed**"


def section_workloads(_res: dict) -> str:
    w = load_result("workloads.json")
    if w is None:
        return ""
    m = w["machine"]
    out = [
        "## Users' workloads",
        "",
        f"`{w['command']}` ({m['date']}, {m['cpus_available']} CPUs; Python {m['python']}, "
        f"numpy {m['versions']['numpy']}, scipy {m['versions']['scipy']}, numba "
        f"{m['versions']['numba']}). Every tool in the same run, repetitions alternating; "
        "medians after one untimed call, except the first call, which is whole processes. "
        "The 1-minute load average at the start and end of each part is given: this is a "
        "shared 2-core machine, so only ratios within one part mean much.",
    ]
    targets = []
    if "first_call" in w:
        a = w["first_call"]
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
        out += ["", "### (a) A script's first scalogram: whole fresh processes",
                "",
                f"`python -c \"import numpy; x = ... ({a['n']:,} float32 samples); import TOOL; "
                f"TOOL's cwt at {a['nfreq']} frequencies\"`: the process's wall time from start to "
                f"exit, and the import plus first call inside it (median of {a['rounds']} "
                f"alternating rounds; sftwave cold once). Load {a['load_start']:.2f} / {a['load_end']:.2f}.",
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
    if "eeg" in w:
        b = w["eeg"]
        rows = []
        for c in b["cases"]:
            t = c["times"]
            rows.append([c["n_cycles"], str(c["threads"]), sec(t["sftwave"]["median_s"]),
                         sec(t["MNE"]["median_s"]) if "MNE" in t else "–",
                         ratio(c.get("mne_over_sftwave"))])
        shape = " x ".join(str(s) for s in b["shape"])
        out += ["", "### (b) EEG epochs against MNE",
                "",
                f"{shape} samples (epochs x channels x time) at {b['fs']:g} Hz, {b['nfreq']} "
                f"frequencies 4..40 Hz, `output='power'`, `decim={b['decim']}`; sftwave's "
                "`workers` and MNE's `n_jobs` set to the same number. The same samples as one "
                f"continuous line per channel take {sec(b['continuous_one_thread_s'])} s in sftwave "
                f"(one thread, n_cycles 7). Load {b['load_start']:.2f} / {b['load_end']:.2f}.",
                "", table(["n_cycles", "threads", "sftwave s", "MNE s", "MNE / sftwave"], rows)]
        for c in b["cases"]:
            if c.get("mne_over_sftwave") is not None:
                targets.append((f"EEG epochs, {c['n_cycles']}, {c['threads']} thread(s): at least 3x MNE",
                                ratio(c["mne_over_sftwave"]), c["mne_over_sftwave"] >= 3.0))
    if "long_signal" in w:
        c = w["long_signal"]
        t = c["times"]
        fill = t["floor: fresh output written once"]["median_s"]
        rows = [[k, sec(v["median_s"]), ratio(v["median_s"] / fill)] for k, v in t.items()]
        out += ["", "### (c) A long signal: N = {:,}, {} frequencies, complex64".format(c["n"], c["nfreq"]),
                "", f"Load {c['load_start']:.2f} / {c['load_end']:.2f}.", "",
                table(["call", "median s", "/ fresh output written once"], rows)]
        if "fCWT output reused" in t:
            r1 = t["fCWT output reused"]["median_s"] / t["sftwave out="]["median_s"]
            r2 = t["fCWT fresh output"]["median_s"] / t["sftwave fresh output"]["median_s"]
            targets.append(("N = 1e5 x 200, buffers reused: at least 1.5x fCWT", ratio(r1), r1 >= 1.5))
            targets.append(("N = 1e5 x 200, fresh outputs: at least 1x fCWT", ratio(r2), r2 >= 1.0))
    if "audio" in w:
        d = w["audio"]
        rows = [[k, sec(v["median_s"]), ratio(d["over_sftwave"][k])] for k, v in d["times"].items()]
        out += ["", "### (d) Audio: power at 100 frames per second",
                "",
                f"{d['n'] / d['fs']:g} s at {d['fs']:g} Hz, {d['nfreq']} frequencies 20 Hz..20 kHz, "
                f"`output='power'`, `decim={d['decim']}`. Load {d['load_start']:.2f} / {d['load_end']:.2f}.",
                "", table(["tool", "median s", "time / sftwave"], rows)]
        for k, r in d["over_sftwave"].items():
            if k != "sftwave":
                targets.append((f"audio: at least 3x {k.split(' ')[0]}", ratio(r), r >= 3.0))
    if "design" in w:
        e = w["design"]
        rows = [[x, ms(1e3 * v["design_s"]) if "design_s" in v else v["error"]]
                for x, v in e["xi"].items()]
        out += ["", "### (e) Plan design with no cache",
                "",
                f"A fresh process designs the plans of {e['nfreq']} frequencies (1..100 Hz at 1 kHz, "
                f"tol {e['tol']:g}, N = 1e5) with the plan cache off (`SFTWAVE_CACHE_DIR=`). "
                f"Load {e['load_start']:.2f} / {e['load_end']:.2f}.",
                "", table(["xi", "design ms"], rows)]
        worst = max(v.get("design_s", float("inf")) for v in e["xi"].values())
        targets.append(("plan design, 200 frequencies, xi 1..20, no cache: at most 50 ms",
                        f"worst {ms(1e3 * worst)} ms", worst <= 0.05))
    if "gaussian" in w:
        g = w["gaussian"]
        rows = []
        for c in g["cases"]:
            t = c["times"]
            rows.append([c["case"], " x ".join(map(str, c["shape"])), ms(1e3 * t["sftwave"]["median_s"]),
                         ms(1e3 * t["scipy"]["median_s"]), ratio(c["scipy_over_sftwave"]),
                         ratio(c["opencv_over_sftwave"]), err(c["error_sftwave"]), err(c["error_scipy"])])
        out += ["", "### (g) Gaussian: everyday images and volumes against scipy.ndimage and OpenCV",
                "",
                "Errors: relative RMSE against scipy at `truncate=12` in float64. "
                f"Load {g['load_start']:.2f} / {g['load_end']:.2f}.",
                "", table(["case", "shape", "sftwave ms", "scipy ms", "scipy / sftwave",
                           "OpenCV / sftwave", "sftwave error", "scipy error"], rows)]
        for c in g["cases"]:
            r = c["opencv_over_sftwave"]
            if r is None:
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
    if targets:
        out += ["", "### Workload targets in this run", "",
                table(["target", "measured", ""], [[a, b, _met(ok)] for a, b, ok in targets])]
    return "\n".join(out)
