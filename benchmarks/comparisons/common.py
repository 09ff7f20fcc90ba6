"""What every comparison shares: the machine, the anchors, the timed-call schedules, formatting.

Timing: every figure comes from :func:`sftwave_paper.timer.measure`, the one
timing helper of the project (its median of ``repeats`` calls after one untimed
warm-up).  :func:`alternate` schedules it round-robin over several calls (one
timed call of each per round), so that a disturbance of the shared machine hits
every tool alike; :func:`seconds_once` times one call (a whole process, a
compute on a cluster).  Only the snippets run in fresh child processes read
``time.perf_counter`` themselves: importing the helper there would change the
import and first-call times that they measure.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
from importlib import metadata
from pathlib import Path

import numpy as np

from sftwave_paper.timer import measure

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent
ROOT = BENCHMARKS.parent

# ----------------------------------------------------------------------------- anchors

#: display name -> (module to import, distributions whose version is recorded)
ANCHORS = {
    "scipy.ndimage": ("scipy.ndimage", ("scipy",)),
    "OpenCV": ("cv2", ("opencv-python-headless", "opencv-python")),
    "SimpleITK": ("SimpleITK", ("SimpleITK",)),
    "PyWavelets": ("pywt", ("PyWavelets",)),
    "MNE": ("mne", ("mne",)),
    "fCWT": ("fcwt", ("fCWT",)),
    "ssqueezepy": ("ssqueezepy", ("ssqueezepy",)),
    "pycwt": ("pycwt", ("pycwt",)),
    "dask.distributed": ("distributed", ("distributed",)),
    "scikit-image": ("skimage", ("scikit-image",)),
    "MNE-Connectivity": ("mne_connectivity", ("mne-connectivity",)),
}

#: anchors found missing in the current section: display name -> reason (compare.py resets it)
SKIPPED: dict[str, str] = {}
_import_errors: dict[str, str | None] = {}


def compile_bytecode() -> int:
    """Byte-compile the installed sftwave's modules, as pip does when it installs a package.

    Fresh processes then read sftwave's bytecode as they read the anchors' (which pip
    compiled at their installation), also where ``PYTHONDONTWRITEBYTECODE`` is set
    (``compileall`` writes it regardless).  Returns the number of modules it compiled anew.
    """
    import compileall
    import importlib.util
    import io
    from contextlib import redirect_stdout

    folder = Path(importlib.util.find_spec("sftwave").origin).parent
    before = sum(1 for _ in folder.rglob("*.pyc"))
    with redirect_stdout(io.StringIO()):
        compileall.compile_dir(str(folder), quiet=1)
    return sum(1 for _ in folder.rglob("*.pyc")) - before


def anchor(name: str):
    """The anchor's module, or None (and the reason recorded in :data:`SKIPPED`) if it cannot be imported."""
    module = ANCHORS[name][0]
    if module not in _import_errors:
        try:
            __import__(module)
            _import_errors[module] = None
        except Exception as exc:  # not installed, or a missing shared library (fCWT: libfftw3f)
            reason = "not installed" if isinstance(exc, ModuleNotFoundError) else \
                f"import failed: {type(exc).__name__}: {str(exc)[:80]}"
            _import_errors[module] = reason
    if _import_errors[module] is not None:
        SKIPPED[name] = _import_errors[module]
        return None
    import importlib

    return importlib.import_module(module)


def have(name: str) -> bool:
    return anchor(name) is not None


# ----------------------------------------------------------------------------- machine


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(dists: tuple[str, ...]) -> str | None:
    for d in dists:
        try:
            return metadata.version(d)
        except metadata.PackageNotFoundError:
            continue
    return None


def machine() -> dict:
    """CPU, cores, Python, versions of sftwave and of every anchor (None: not installed), date.

    Versions come from the installed distributions' metadata, so nothing is
    imported here (an import-time section must not find modules pre-loaded).
    """
    versions = {"numpy": _version(("numpy",)), "scipy": _version(("scipy",)),
                "numba": _version(("numba",)), "sftwave": _version(("sftwave",))}
    for name, (_, dists) in ANCHORS.items():
        if name not in ("scipy.ndimage", "dask.distributed"):
            versions[name] = _version(dists)
    versions["dask"] = _version(("dask",))
    versions["distributed"] = _version(("distributed",))
    return {
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def load_average() -> float | None:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


# ----------------------------------------------------------------------------- timed calls


def timed_ms(fn, *, repeats: int, warmup: bool = True) -> tuple[dict, object]:
    """:func:`~sftwave_paper.timer.measure` in milliseconds: (JSON part, last result)."""
    m = measure(fn, repeats=repeats, warmup=warmup)
    return ({"median_ms": 1e3 * m["median_s"], "min_ms": 1e3 * m["min_s"], "repeats": repeats,
             "warmup": warmup}, m["result"])


def timed_s(fn, *, repeats: int, warmup: bool = True) -> tuple[dict, object]:
    """:func:`~sftwave_paper.timer.measure` in seconds: (JSON part, last result)."""
    m = measure(fn, repeats=repeats, warmup=warmup)
    return {"median_s": m["median_s"], "min_s": m["min_s"], "repeats": repeats}, m["result"]


def seconds_once(fn) -> tuple[float, object]:
    """One timed call of ``fn()``, no warm-up: (seconds, result)."""
    m = measure(fn, repeats=1, warmup=False)
    return m["median_s"], m["result"]


def alternate(calls: dict, rounds: int) -> dict:
    """Median and min seconds of each call, the calls taking turns, after one untimed call each."""
    for fn in calls.values():
        fn()
    times: dict = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            times[name].append(seconds_once(fn)[0])
    return {name: {"median_s": statistics.median(t), "min_s": min(t), "all_s": t}
            for name, t in times.items()}


# ----------------------------------------------------------------------------- accuracy


def rel_rmse(y, ref) -> float:
    """sqrt(sum |y - ref|^2 / sum |ref|^2), computed in float64 (complex128 for complex input)."""
    kind = np.complex128 if np.iscomplexobj(y) or np.iscomplexobj(ref) else np.float64
    y = np.asarray(y, dtype=kind)
    ref = np.asarray(ref, dtype=kind)
    return float(np.sqrt(np.sum(np.abs(y - ref) ** 2) / np.sum(np.abs(ref) ** 2)))


# ----------------------------------------------------------------------------- formatting


def ratio(v) -> str:
    if v is None:
        return "–"
    return f"{v:.0f}×" if v >= 100 else (f"{v:.1f}×" if v >= 10 else f"{v:.2f}×")


def err(v) -> str:
    return "–" if v is None else f"{v:.1e}"


def num(v) -> str:
    return f"{v:g}"


def ms(v) -> str:
    if v is None:
        return "–"
    return f"{v:,.0f}" if v >= 100 else (f"{v:.1f}" if v >= 10 else f"{v:.2f}")


def sec(v) -> str:
    if v is None:
        return "–"
    return f"{v:.3f}" if v < 10 else f"{v:.1f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" ---: " for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
