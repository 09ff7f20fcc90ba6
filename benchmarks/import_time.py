"""Wall time of ``import sftwave`` in fresh processes, against scipy.ndimage, numba and numpy.

    .venv/bin/python benchmarks/import_time.py [--rounds 15] [--no-doc]

Each measurement is a fresh interpreter, nothing pre-imported; the candidates
alternate round by round (the order rotates each round), after one untimed
round that fills the bytecode and file caches. Two figures per candidate:

* import: ``time.perf_counter()`` around ``import X`` inside the child, the
  whole import as a user's script pays it (numpy included);
* process - pass: the wall time of the whole ``python -c "import X"``
  process, timed by this script, minus that of ``python -c "pass"``
  (median minus median, min minus min).

The child also reports which heavy modules ended up in ``sys.modules``: after
``import sftwave`` none of MUST_BE_ABSENT may be there. The target is
``import sftwave`` <= 0.5 s. Results go to stdout and to
``benchmarks/results/import_time.json`` (``--json``), from which
``benchmarks/report.py`` writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CANDIDATES = ("numpy", "scipy.ndimage", "numba", "sftwave")
REFERENCE = "scipy.ndimage"
TARGET_S = 0.5
MUST_BE_ABSENT = ("scipy.ndimage", "scipy.optimize", "numba", "numba_cuda", "matplotlib",
                  "torch", "threadpoolctl")
ALSO_CHECKED = ("scipy", "llvmlite", "numba.cuda", "cupy")

CHILD = r"""
import sys, time
t0 = time.perf_counter()
import {mod}
t1 = time.perf_counter()
print(repr((t1 - t0, len(sys.modules), [m for m in {heavy!r} if m in sys.modules])))
"""


def timed_import(mod: str) -> tuple[float, int, list[str]]:
    """(seconds for ``import mod``, modules loaded, heavy modules loaded) in a fresh process."""
    code = CHILD.format(mod=mod, heavy=MUST_BE_ABSENT + ALSO_CHECKED)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    s, n, heavy = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    return s, n, heavy


def process_wall(statement: str) -> float:
    """Seconds for the whole ``python -c statement`` process, start to exit."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], cwd=ROOT, check=True)
    return time.perf_counter() - t0


def one_round(order: list[str]) -> dict:
    """Every candidate (and the ``pass`` baseline) once, in ``order``: raw seconds."""
    res: dict = {"pass": {"process_s": process_wall("pass")}}
    for mod in order:
        s, n, heavy = timed_import(mod)
        res[mod] = {"import_s": s, "modules": n, "heavy": heavy,
                    "process_s": process_wall(f"import {mod}")}
    return res


def stats_ms(xs: list[float]) -> dict:
    return {"median_ms": statistics.median(xs) * 1e3, "min_ms": min(xs) * 1e3,
            "max_ms": max(xs) * 1e3, "all_ms": [x * 1e3 for x in xs]}


def summarise(rounds: list[dict]) -> dict:
    """Medians, mins and ratios to REFERENCE over the timed rounds."""
    base = stats_ms([r["pass"]["process_s"] for r in rounds])
    out: dict = {"pass_process": base, "candidates": {}}
    for mod in CANDIDATES:
        imp = stats_ms([r[mod]["import_s"] for r in rounds])
        proc = stats_ms([r[mod]["process_s"] for r in rounds])
        out["candidates"][mod] = {
            "statement": f"import {mod}",
            "import": imp,
            "process": proc,
            "process_minus_pass": {"median_ms": proc["median_ms"] - base["median_ms"],
                                   "min_ms": proc["min_ms"] - base["min_ms"]},
            "modules_in_sys_modules": statistics.median(r[mod]["modules"] for r in rounds),
            "heavy_modules_loaded": sorted({m for r in rounds for m in r[mod]["heavy"]}),
        }
    ref = out["candidates"][REFERENCE]
    for c in out["candidates"].values():
        c["ratio_to_reference"] = {
            "import_median": c["import"]["median_ms"] / ref["import"]["median_ms"],
            "import_min": c["import"]["min_ms"] / ref["import"]["min_ms"],
            "process_minus_pass_median": (c["process_minus_pass"]["median_ms"]
                                          / ref["process_minus_pass"]["median_ms"]),
        }
    return out


def machine() -> dict:
    """The parts of run.py's machine() an import benchmark needs (no cv2 or sftwave import)."""
    from run import cpu_model

    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {d: version(d) for d in ("numpy", "scipy", "numba", "sftwave")},
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def print_table(s: dict) -> None:
    print(f"{'candidate':16s} {'import med ms':>14s} {'min ms':>8s} {'/ ndimage':>10s} "
          f"{'proc-pass med':>14s} {'/ ndimage':>10s}  heavy modules")
    for mod, c in s["candidates"].items():
        r = c["ratio_to_reference"]
        print(f"{mod:16s} {c['import']['median_ms']:14.1f} {c['import']['min_ms']:8.1f} "
              f"{r['import_median']:10.2f} {c['process_minus_pass']['median_ms']:14.1f} "
              f"{r['process_minus_pass_median']:10.2f}  {', '.join(c['heavy_modules_loaded']) or '-'}")
    print(f"python -c pass: median {s['pass_process']['median_ms']:.1f} ms, "
          f"min {s['pass_process']['min_ms']:.1f} ms")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--json", default=str(HERE / "results" / "import_time.json"))
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    load0 = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    t0 = time.perf_counter()
    order = list(CANDIDATES)
    one_round(order)   # untimed: fills __pycache__ and the OS file cache
    rounds = []
    for i in range(args.rounds):   # alternate, rotating the order, so drift hits all alike
        rounds.append(one_round(order[i % len(order):] + order[:i % len(order)]))
    s = summarise(rounds)
    print_table(s)
    sft = s["candidates"]["sftwave"]
    present = [m for m in MUST_BE_ABSENT if m in sft["heavy_modules_loaded"]]
    print(f"import sftwave: median {sft['import']['median_ms'] / 1e3:.3f} s "
          f"(target <= {TARGET_S} s); must-be-absent modules loaded: {present or 'none'}")
    results = {
        "schema": 1,
        "command": ".venv/bin/python benchmarks/import_time.py"
                   + (f" --rounds {args.rounds}" if args.rounds != 15 else ""),
        "machine": machine(),
        "rounds": args.rounds,
        "warmup_rounds": 1,
        "reference": REFERENCE,
        "target_s": TARGET_S,
        "must_be_absent": list(MUST_BE_ABSENT),
        "also_checked": list(ALSO_CHECKED),
        "sftwave_must_be_absent_loaded": present,
        **s,
        "load_average_1min": {"start": load0[0] if load0 else None,
                              "end": os.getloadavg()[0] if load0 else None},
        "wall_s": time.perf_counter() - t0,
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {args.json}")
    if not args.no_doc and Path(args.json).resolve() == HERE / "results" / "import_time.json":
        import report

        report.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
