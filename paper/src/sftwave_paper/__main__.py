"""``python -m sftwave_paper {demo, table1, morlet-error, timing}``: the workbench's command line."""

from __future__ import annotations

import argparse
import sys


def _thread_count(text: str) -> int:
    from sftwave._checks import check_workers

    try:
        return check_workers(int(text), "threads")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"threads must be a positive integer or -1; got {text!r}") from None


def _engine_list(text: str) -> tuple[str, ...]:
    from .timing import check_engines

    try:
        return check_engines(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run_demo(args: argparse.Namespace) -> int:
    from .demo import main as demo_main

    return demo_main(quick=args.quick, out=args.out)


def _run_table1(args: argparse.Namespace) -> int:
    from .table1 import main as table1_main

    return table1_main(json_path=args.json)


def _run_morlet_error(args: argparse.Namespace) -> int:
    from .morlet_error import main as morlet_error_main

    return morlet_error_main(json_path=args.json, outdir=args.outdir, quick=args.quick)


def _run_timing(args: argparse.Namespace) -> int:
    from .timing import main as timing_main

    return timing_main(json_path=args.json, outdir=args.outdir, quick=args.quick,
                       engines=args.engines, dtype=args.dtype, threads=args.threads)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sftwave-paper",
                                     description="sftwave's demo and the paper's experiments")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="scalograms of built-in real recordings (PNG) and Gaussian "
                                       "smoothing; accuracy and time against MNE, PyWavelets "
                                       "and scipy")
    demo.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    demo.add_argument("--out", metavar="PNG", default=None,
                      help="the figure (default sftwave_demo_scalogram.png here)")
    demo.set_defaults(func=_run_demo)
    t1 = sub.add_parser("table1", help="Table 1: relative RMSE of G, G_D, G_DD (percent)")
    t1.add_argument("--json", metavar="PATH", help="also write the values as JSON to PATH")
    t1.set_defaults(func=_run_table1)
    me = sub.add_parser("morlet-error",
                        help="section V-A: Morlet approximation error versus xi (figures)")
    me.add_argument("--json", metavar="PATH", help="also write all values as JSON to PATH")
    me.add_argument("--outdir", metavar="DIR", default=".",
                    help="folder for the PNG figures (default: the current one)")
    me.add_argument("--quick", action="store_true", help="only a few xi (seconds)")
    me.set_defaults(func=_run_morlet_error)
    tm = sub.add_parser("timing",
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


def main(argv: list[str] | None = None) -> int:
    """Run one experiment; its exit status (130 on Ctrl-C)."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("sftwave-paper: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
