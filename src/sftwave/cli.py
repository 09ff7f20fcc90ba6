"""The command line: ``python -m sftwave {demo, paper ...}``."""

from __future__ import annotations

import argparse
import sys


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sftwave", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="scalograms of built-in real recordings (PNG) and Gaussian smoothing; accuracy and time against MNE, PyWavelets and scipy")
    demo.set_defaults(func=_run_demo)

    paper = sub.add_parser("paper", help="reproduce the paper's tables and figures")
    paper_sub = paper.add_subparsers(dest="experiment", required=True)
    t1 = paper_sub.add_parser("table1", help="Table 1: relative RMSE of G, G_D, G_DD (percent)")
    t1.add_argument("--json", metavar="PATH", help="also write the values as JSON to PATH")
    t1.set_defaults(func=_run_table1)
    me = paper_sub.add_parser("morlet-error",
                              help="section V-A: Morlet approximation error versus xi (figures)")
    me.add_argument("--json", metavar="PATH", help="also write all values as JSON to PATH")
    me.add_argument("--outdir", metavar="DIR", default=".",
                    help="folder for the PNG figures (default: the current one)")
    me.add_argument("--quick", action="store_true", help="only a few xi (seconds)")
    me.set_defaults(func=_run_morlet_error)
    tm = paper_sub.add_parser("timing",
                              help="section V-B: time of the SFT against truncated convolution "
                                   "(GCT3, MCT3) versus N and sigma, on every engine (figures)")
    tm.add_argument("--json", metavar="PATH", help="also write all values and the machine as JSON")
    tm.add_argument("--out", "--outdir", dest="outdir", metavar="DIR", default=".",
                    help="folder for the PNG figures (default: the current one)")
    tm.add_argument("--quick", action="store_true", help="small sizes, few repetitions (seconds)")
    tm.add_argument("--engines", type=_engine_list, default=None, metavar="LIST",
                    help="comma-separated engines among numba, xp-numpy, xp-torch-cpu, "
                         "xp-torch-cuda, cuda (default: all that can run here)")
    tm.add_argument("--dtype", choices=("float32", "float64"), default="float32",
                    help="dtype of the input signal (default float32)")
    tm.add_argument("--threads", type=_thread_count, default=None, metavar="N",
                    help="CPU threads for numba and torch (-1: all cores; default: their own "
                         "defaults); 1 gives steadier times on a busy machine")
    tm.set_defaults(func=_run_timing)
    return parser


def _thread_count(text: str) -> int:
    from ._checks import check_workers

    try:
        return check_workers(int(text), "threads")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"threads must be a positive integer or -1; got {text!r}") from None


def _engine_list(text: str) -> tuple[str, ...]:
    from .experiments.paper.timing import check_engines

    try:
        return check_engines(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run_demo(args: argparse.Namespace) -> int:
    from .experiments.demo import main as demo_main

    return demo_main()


def _run_table1(args: argparse.Namespace) -> int:
    from .experiments.paper.table1 import main as table1_main

    return table1_main(json_path=args.json)


def _run_morlet_error(args: argparse.Namespace) -> int:
    from .experiments.paper.morlet_error import main as morlet_error_main

    return morlet_error_main(json_path=args.json, outdir=args.outdir, quick=args.quick)


def _run_timing(args: argparse.Namespace) -> int:
    from .experiments.paper.timing import main as timing_main

    return timing_main(json_path=args.json, outdir=args.outdir, quick=args.quick,
                       engines=args.engines, dtype=args.dtype, threads=args.threads)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m sftwave`` and of the ``sftwave`` script."""
    parser = _build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    return int(args.func(args) or 0)
