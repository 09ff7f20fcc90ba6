"""sftwave against the anchor libraries, every tool in the same run; writes docs/benchmarks.md.

    .venv/bin/python benchmarks/compare.py                  # every section (make bench), ~20 min
    .venv/bin/python benchmarks/compare.py --quick          # small sizes: does it all run? ~3 min
    .venv/bin/python benchmarks/compare.py --only eeg audio # these sections again, the page anew
    .venv/bin/python benchmarks/compare.py --list           # the sections
    .venv/bin/python benchmarks/compare.py --render         # the page from the stored results only

The anchors (scipy.ndimage, OpenCV, SimpleITK, PyWavelets, MNE, fCWT,
ssqueezepy, pycwt, dask.distributed) are used where they are installed (``pip
install -e ".[bench]"``); one that is not is reported as skipped, on the
terminal and on the page, never left out silently.

Each section's result goes to ``benchmarks/results/<section>.json`` (with the
machine, the date, the load average and the skipped anchors), and the page is
rendered from all of them, so ``--only`` keeps the other sections' figures.
With ``--quick`` the results go to ``benchmarks/results/quick/`` and the page
to ``benchmarks/results/quick/benchmarks.md`` (both git-ignored) unless
``--results`` / ``--out`` say otherwise: a smoke test never overwrites the
published page.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from comparisons import SECTIONS, common, report  # noqa: E402


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_results(folder: Path) -> dict:
    """``{section: {"meta": ..., "result": ...}}`` for every section with a JSON in ``folder``."""
    out = {}
    for name in SECTIONS:
        path = folder / f"{name}.json"
        if path.exists():
            out[name] = json.loads(path.read_text())
    return out


def run_section(name: str, quick: bool, folder: Path) -> float | None:
    """Measure one section and write its JSON: its seconds, or None (traceback printed) if it failed."""
    fn, what = SECTIONS[name]
    common.SKIPPED.clear()
    print(f"[compare] {name}: {what} ...", flush=True)
    load0 = common.load_average()
    try:
        wall, result = common.seconds_once(partial(fn, quick))
    except Exception:
        traceback.print_exc()
        print(f"[compare] {name} FAILED; its stored result (if any) is kept", flush=True)
        return None
    meta = {
        "section": name,
        "command": f"{report.COMPARE} --only {name}" + (" --quick" if quick else ""),
        "quick": quick,
        "machine": common.machine(),
        "load_average_1min": {"start": load0, "end": common.load_average()},
        "wall_s": wall,
        "skipped": dict(common.SKIPPED),
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"meta": meta, "result": result}, indent=1,
                                                    default=float) + "\n")
    skipped = "".join(f"; skipped {k}: {v}" for k, v in sorted(common.SKIPPED.items()))
    print(f"[compare] {name} done in {wall:.1f} s{skipped}", flush=True)
    return wall


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and few repetitions: checks that everything runs (~3 min)")
    ap.add_argument("--only", nargs="+", metavar="SECTION", choices=list(SECTIONS),
                    help="measure only these sections; the page keeps the others' stored results")
    ap.add_argument("--skip", nargs="+", metavar="SECTION", choices=list(SECTIONS), default=[],
                    help="do not measure these sections (their stored results stay on the page)")
    ap.add_argument("--list", action="store_true", help="name the sections and exit")
    ap.add_argument("--render", action="store_true",
                    help="measure nothing: write the page from the stored results")
    ap.add_argument("--results", type=Path, default=None,
                    help="folder of the sections' JSON (default benchmarks/results, "
                         "with --quick benchmarks/results/quick)")
    ap.add_argument("--out", type=Path, default=None,
                    help="the page (default docs/benchmarks.md, with --quick "
                         "benchmarks/results/quick/benchmarks.md)")
    args = ap.parse_args(argv)
    if args.list:
        for name, (_, what) in SECTIONS.items():
            print(f"{name:20s} {what}")
        return 0
    folder = args.results or (HERE / "results" / "quick" if args.quick else HERE / "results")
    out = args.out or (HERE / "results" / "quick" / "benchmarks.md" if args.quick
                       else ROOT / "docs" / "benchmarks.md")
    failed = []
    if not args.render:
        names = [n for n in (args.only or SECTIONS) if n not in args.skip]
        status = {name: common.anchor(name) is not None for name in common.ANCHORS}
        common.SKIPPED.clear()
        fresh = common.compile_bytecode()    # sftwave as installed (pip byte-compiles it)
        print(f"[compare] sftwave's bytecode compiled ({fresh} modules anew)", flush=True)
        print("[compare] anchors: " + ", ".join(
            f"{k} {'yes' if ok else 'SKIPPED (' + common._import_errors[common.ANCHORS[k][0]] + ')'}"
            for k, ok in status.items()), flush=True)
        walls = {n: run_section(n, args.quick, folder) for n in names}
        failed = [n for n, w in walls.items() if w is None]
        total = sum(w for w in walls.values() if w is not None)
        print(f"[compare] {len(names) - len(failed)} of {len(names)} sections in "
              f"{total / 60:.1f} min; results in {_rel(folder)}", flush=True)
    results = load_results(folder)
    if not results:
        print(f"[compare] no results in {_rel(folder)}: nothing to render", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    quick_page = args.quick or all(v["meta"].get("quick") for v in results.values())
    out.write_text(report.render(results, quick=quick_page))
    print(f"[compare] wrote {_rel(out)} ({len(results)} sections)")
    if failed:
        print(f"[compare] FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
