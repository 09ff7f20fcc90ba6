"""The command line: ``sftwave {scalogram, smooth}`` (or ``python -m sftwave``).

``sftwave scalogram FILE``
    The Morlet scalogram of a WAV, CSV/TXT, NPY or NPZ file: a figure (PNG,
    or PDF, SVG, ... by ``-o``'s suffix: signal above, power below, cone of
    influence hatched) and optionally the array (``--save-npy``,
    ``--save-csv``), within a memory budget (``--max-memory``).
``sftwave smooth IMAGE --sigma S -o OUT``
    Gaussian smoothing of an image (NPY, or PNG/TIFF/JPEG through Pillow).

No traceback reaches the user: a bad file or argument, a lack of memory or
an unexpected failure prints one line (``sftwave: error: ...``) and exits
with status 1 (2 for a usage error, as argparse does; 130 on Ctrl-C, 143 on
SIGTERM).  No output is ever an input, and no output file is ever left
half-written: each is written to a temporary name and all are renamed at the
end (an interruption or a failure removes the temporary files and changes
nothing).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import warnings

#: ``--help``'s description: the module docstring without its markup.
_DESCRIPTION = """\
Gaussian smoothing and Morlet scalograms from the command line.

  sftwave scalogram FILE        the Morlet scalogram of a WAV, CSV/TXT, NPY or NPZ file:
                                a figure (PNG, PDF, SVG, ... by -o's suffix) and optionally
                                the array (--save-npy, --save-csv)
  sftwave smooth IMAGE -o OUT   Gaussian smoothing (or a derivative) of an image

Errors are one line on stderr (exit status 1; 2 for a usage error).  Outputs are
written together at the end, never over an input, and never half-written.
"""


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sftwave", description=_DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    sc = sub.add_parser("scalogram", help="the Morlet scalogram of a WAV, CSV/TXT, NPY or NPZ "
                                          "file: a PNG, and optionally the array")
    sc.add_argument("file", help="the recording (.wav, .csv, .txt, .tsv, .dat, .npy, .npz)")
    sc.add_argument("--fs", type=_positive, help="sampling rate (read from a WAV file)")
    sc.add_argument("--fmin", type=_positive,
                    help="lowest frequency (default: for a WAV file 20 Hz, the lowest a listener "
                         "hears; otherwise ten octaves below --fmax; never lower than the "
                         "lowest whose wavelet fits the signal)")
    sc.add_argument("--fmax", type=_positive,
                    help="highest frequency (default 0.45 fs; for a WAV file at most 20 kHz)")
    sc.add_argument("--per-octave", type=_count, default=12,
                    help="frequencies per octave, geometric (default 12)")
    sc.add_argument("--nfreqs", type=_count, help="number of frequencies instead")
    sc.add_argument("--xi", type=_positive, default=6.0,
                    help="cycles of the wavelet (MNE's n_cycles; default 6)")
    sc.add_argument("--channel", type=_index, default=0,
                    help="WAV channel, or row of a 2-D array (default 0)")
    sc.add_argument("--column", help="CSV column, by header name or 0-based index (default: the "
                                     "only numeric column besides a time column, which gives fs)")
    sc.add_argument("--key", help="the array of an NPZ file")
    sc.add_argument("--decim", type=_count, default=1, help="keep every DECIM-th sample")
    sc.add_argument("--mode", default="reflect",
                    choices=("reflect", "mirror", "nearest", "wrap", "constant"),
                    help="extension at the borders (default reflect; constant: zero padding)")
    sc.add_argument("--output", choices=("power", "abs"), default="power",
                    help="the array saved and drawn (default power)")
    sc.add_argument("-o", "--out", help="the figure, its format by its suffix (.png, .pdf, .svg, "
                                        "...; default FILE's name with .png; 'none': no figure)")
    sc.add_argument("--save-npy", metavar="PATH", help="also save the array (freqs x times)")
    sc.add_argument("--save-csv", metavar="PATH",
                    help="also save it as CSV: a row per frequency, the times in the header")
    sc.add_argument("--nan", choices=("error", "propagate", "omit"), default="error",
                    help="non-finite samples: refuse (default), NaN where the wavelet reads them, "
                         "or omit them (normalised)")
    sc.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress and the time left (a bar at a terminal with tqdm, lines "
                         "otherwise); default: on for a long run")
    sc.add_argument("--max-memory", type=_size, metavar="SIZE",
                    help="memory budget, e.g. 2G, 500M (binary units; default a quarter of the "
                         "machine's memory): a saved array that needs more is refused, with "
                         "the smallest --decim that fits; the figure alone is computed a few "
                         "frequencies at a time")
    sc.set_defaults(func=_run_scalogram)

    sm = sub.add_parser("smooth", help="Gaussian smoothing of an image (NPY, PNG, TIFF, JPEG)")
    sm.add_argument("image", help="the image (.npy, or .png/.tif/.jpg/.bmp through Pillow)")
    sm.add_argument("--sigma", type=_sigmas, required=True,
                    help="standard deviation in pixels, or 'rows,cols'")
    sm.add_argument("--order", type=_index, default=0,
                    help="derivative order (default 0); a derivative is written as float32 "
                         "values to .npy or a one-channel .tif, and rescaled, zero at mid-grey, "
                         "to the other formats")
    sm.add_argument("--mode", default="reflect",
                    choices=("reflect", "mirror", "nearest", "wrap", "constant"))
    sm.add_argument("-o", "--out", required=True, help="the result (its suffix sets the format)")
    sm.set_defaults(func=_run_smooth)

    co = sub.add_parser("compile", help="compile the kernels of the common calls into numba's "
                                        "disk cache ahead of time (container images, CI)")
    co.set_defaults(func=_run_compile)

    return parser


def _run_compile(args: argparse.Namespace) -> int:
    from .compile import compile_command

    compile_command(lambda line: print(line, flush=True))
    return 0


def _parsed(text: str, convert, ok, rule: str):
    """``convert(text)`` if it satisfies ``ok``, else argparse's one-line usage error."""
    try:
        v = convert(text)
    except ValueError:
        kind = "a number" if convert is float else "an integer"
        raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None
    if not ok(v):
        raise argparse.ArgumentTypeError(f"must be {rule}: {text!r}")
    return v


def _positive(text: str) -> float:
    return _parsed(text, float, lambda v: 0 < v < float("inf"), "positive and finite")


def _count(text: str) -> int:
    return _parsed(text, int, lambda v: v >= 1, "at least 1")


def _index(text: str) -> int:
    return _parsed(text, int, lambda v: v >= 0, "0 or more")


_SIZE_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 2**10, "kib": 2**10, "m": 2**20, "mb": 2**20,
               "mib": 2**20, "g": 2**30, "gb": 2**30, "gib": 2**30, "t": 2**40, "tb": 2**40,
               "tib": 2**40}


def _size(text: str) -> int:
    """A memory size: bytes, or a number with K, M, G or T (binary units): ``2G``, ``500M``."""
    import re

    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*", text)
    unit = m[2].lower() if m else ""
    if not m or unit not in _SIZE_UNITS:
        raise argparse.ArgumentTypeError(f"not a size such as 2G or 500M: {text!r}")
    size = float(m[1]) * _SIZE_UNITS[unit]
    if not 1 <= size < float("inf"):
        raise argparse.ArgumentTypeError(f"must be at least 1 byte: {text!r}")
    return int(size)


def _sigmas(text: str) -> list[float]:
    parts = text.split(",")
    if len(parts) > 2:
        raise argparse.ArgumentTypeError(f"one sigma or 'rows,cols': {text!r}")
    return [_positive(p) for p in parts]


def _error(text: str) -> int:
    """Print one error line; status 1."""
    from .files import plain

    print(f"sftwave: error: {plain(text)}", file=sys.stderr)
    return 1


def _one_line_errors(func):
    """Run a command: a bad file or argument is one line on stderr and exit status 1."""
    def run(args: argparse.Namespace) -> int:
        from .files import FileProblem

        try:
            return func(args)
        except (FileProblem, ValueError, TypeError, OSError) as exc:
            return _error(str(exc) or type(exc).__name__)
    return run


@_one_line_errors
def _run_scalogram(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .commands import scalogram_command

    out = args.out
    if out is None:
        out = str(Path(args.file).with_suffix(".png"))
    elif out.lower() == "none":
        out = None
    written = scalogram_command(
        args.file, fs=args.fs, fmin=args.fmin, fmax=args.fmax, per_octave=args.per_octave,
        nfreqs=args.nfreqs, xi=args.xi, channel=args.channel, column=args.column, key=args.key,
        decim=args.decim, mode=args.mode, output=args.output, out=out, save_npy=args.save_npy,
        save_csv=args.save_csv, nan=args.nan, progress=args.progress, max_memory=args.max_memory)
    for path in written:
        print(f"wrote {path}")
    return 0


@_one_line_errors
def _run_smooth(args: argparse.Namespace) -> int:
    from .commands import smooth_command

    path = smooth_command(args.image, sigma=args.sigma, order=args.order, mode=args.mode,
                          out=args.out)
    print(f"wrote {path}")
    return 0


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that cleanup (``finally``) runs as on Ctrl-C."""


def _on_sigterm(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)   # a second one does not cut the cleanup
    raise _Terminated


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    from .files import plain

    print(f"sftwave: warning: {plain(message)} ({category.__name__})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m sftwave`` and of the ``sftwave`` script.

    Returns the exit status: 0, 1 for an error (one line on stderr, never a
    traceback), 2 for a usage error, 130 on Ctrl-C, 143 on SIGTERM.
    """
    parser = _build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("sftwave: interrupted", file=sys.stderr)
        return 130
    except _Terminated:
        print("sftwave: terminated", file=sys.stderr)
        return 143
    except MemoryError as exc:
        detail = f" ({' '.join(str(exc).split())})" if str(exc) else ""
        return _error(f"out of memory{detail}; try a larger --decim, fewer frequencies or a "
                      "smaller --max-memory")
    except Exception as exc:                          # noqa: BLE001 - the last line of defence
        return _error(f"unexpected {type(exc).__name__}: {str(exc) or 'no message'}")
    finally:
        if main_thread and previous is not None:       # None: a handler set outside Python
            signal.signal(signal.SIGTERM, previous)
