"""Run every sftwave benchmark in one process, write the JSON and regenerate docs/benchmarks.md.

    .venv/bin/python benchmarks/run.py            # full run (make bench), ~10 minutes
    .venv/bin/python benchmarks/run.py --quick    # tiny sizes, a smoke test
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_cwt as bc  # noqa: E402
import bench_gaussian as bg  # noqa: E402
import float32_drift  # noqa: E402
import report  # noqa: E402


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    import cv2
    import numba
    import numpy
    import pywt
    import scipy

    import sftwave

    return {
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "numba_threads": sftwave.get_workers(),
        "opencv_threads": cv2.getNumThreads(),
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {
            "numpy": numpy.__version__,
            "scipy": scipy.__version__,
            "numba": numba.__version__,
            "cv2": cv2.__version__,
            "pywt": pywt.__version__,
            "sftwave": sftwave.__version__,
            **{m: _version(m) for m in ("fcwt", "ssqueezepy", "mne", "SimpleITK")},
        },
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


WORKLOADS = [
    ("reference_check", bg.reference_check),
    ("first_call", bg.first_call),
    ("gaussian1d", bg.gaussian1d),
    ("gaussian2d", bg.gaussian2d),
    ("crossover", bg.crossover),
    ("bank_methods", bg.bank_methods),
    ("float32_drift", float32_drift.drift),
    ("cwt", bc.cwt),
    ("cwt_first_call", bc.first_call),
    ("cwt_few_scales", bc.few_scales),
]


def _version(module: str) -> str | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    return getattr(mod, "__version__", None) or getattr(mod, "Version", lambda: None)()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="tiny sizes, for a smoke test")
    ap.add_argument("--out", type=Path, default=None,
                    help="JSON results (default: benchmarks/results/benchmarks.json; "
                         "with --quick: benchmarks/results/quick/benchmarks.json)")
    ap.add_argument("--doc", type=Path, default=None,
                    help="markdown report regenerated from the JSON (default: docs/benchmarks.md; "
                         "with --quick: benchmarks/results/quick/benchmarks.md, so a smoke test "
                         "never overwrites the published page)")
    ap.add_argument("--no-doc", action="store_true", help="write the JSON only")
    ap.add_argument("--only", nargs="+", choices=[n for n, _ in WORKLOADS], default=None,
                    help="run only these workloads; the others are kept from the existing JSON")
    args = ap.parse_args(argv)
    quick_dir = HERE / "results" / "quick"
    if args.out is None:
        args.out = quick_dir / "benchmarks.json" if args.quick else HERE / "results" / "benchmarks.json"
    if args.doc is None:
        args.doc = quick_dir / "benchmarks.md" if args.quick else ROOT / "docs" / "benchmarks.md"

    command = ".venv/bin/python benchmarks/run.py" + (" --quick" if args.quick else "")
    try:
        out_name = str(args.out.resolve().relative_to(ROOT))
    except ValueError:
        out_name = str(args.out)
    results = {"schema": 1, "quick": args.quick, "command": command, "out": out_name,
               "machine": machine()}
    if args.only and args.out.exists():
        previous = json.loads(args.out.read_text())
        results.update({k: v for k, v in previous.items() if k in dict(WORKLOADS)})
    start = time.perf_counter()
    for name, fn in WORKLOADS:
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        print(f"[bench] {name} ...", flush=True)
        load = os.getloadavg()[0]
        results[name] = fn(args.quick)
        results[name]["load_average_1min"] = {"start": load, "end": os.getloadavg()[0]}
        results[name]["wall_s"] = time.perf_counter() - t0
        print(f"[bench] {name} done in {time.perf_counter() - t0:.1f} s", flush=True)
    results["total_wall_s"] = time.perf_counter() - start

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"[bench] wrote {args.out}")
    if not args.no_doc:
        args.doc.parent.mkdir(parents=True, exist_ok=True)
        args.doc.write_text(report.render(results))
        print(f"[bench] wrote {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
