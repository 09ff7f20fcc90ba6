"""Makes the shipped Morlet layout table (``sftwave.plans.tables``) by searching every entry.

``make plan-tables`` runs :func:`main` on every core: a long run (its duration is in
docs/performance.md, *Figures behind the code's choices*).  ``main(["--missing"])``
(``python -m sftwave.plans.table_maker --missing``) searches only what the shipped
file lacks (rows of ``xi`` added to the grid, the asymptotic layouts) and keeps the
rest as stored: the same table as a full run, in minutes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from .._atomic import atomic_path
from .morlet import P_M_MAX, search_direct_asymptotic, search_direct_layout, search_multiply_ratio
from .tables import DECAYS, DIRECT_MAX, DIRECT_MIN, PATH, XI_GRID

__all__ = ["generate", "write", "main"]


def _row(task: tuple[int, int]) -> tuple[int, int, list, list]:
    """One tabulated ``(decay index, xi index)``: every direct and multiply layout."""
    d, i = task
    xi, decay = float(XI_GRID[i]), DECAYS[d]
    direct = [search_direct_layout(xi, P, decay) for P in range(DIRECT_MIN, DIRECT_MAX + 1)]
    multiply = [[search_multiply_ratio(xi, P, decay, bool(k)) for P in range(1, P_M_MAX + 1)]
                for k in (0, 1)]
    return d, i, direct, multiply


def _asymptotic(task: tuple[int, int]) -> tuple[int, int, tuple[float, float, float]]:
    """One asymptotic direct layout: ``(decay index, number of orders)``."""
    d, P = task
    return d, P, search_direct_asymptotic(P, DECAYS[d])


def _task(task: tuple[str, int, int]) -> tuple:
    kind, a, b = task
    return (kind, *(_row((a, b)) if kind == "row" else _asymptotic((a, b))))


def _empty() -> dict[str, np.ndarray]:
    nD, nX = len(DECAYS), XI_GRID.size
    nP = DIRECT_MAX - DIRECT_MIN + 1
    return {
        "xi": XI_GRID.copy(),
        "direct_ratio": np.full((nD, nX, nP), np.nan),
        "direct_offset": np.zeros((nD, nX, nP), np.int64),
        "direct_error": np.full((nD, nX, nP), np.nan),
        "multiply_ratio": np.full((nD, 2, nX, P_M_MAX), np.nan),
        "multiply_error": np.full((nD, 2, nX, P_M_MAX), np.nan),
        "asymptotic_ratio": np.full((nD, nP), np.nan),
        "asymptotic_centre": np.full((nD, nP), np.nan),
        "asymptotic_error": np.full((nD, nP), np.nan),
    }


def generate(indices: Iterable[tuple[int, int]] | None = None, processes: int | None = None,
             asymptotic: Iterable[tuple[int, int]] | None = None,
             into: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Search every layout of the table, or only ``indices`` and ``asymptotic``.

    ``indices``: (decay, xi) index pairs of grid rows; ``asymptotic``: (decay
    index, number of direct orders) pairs of asymptotic layouts.  Without
    either, everything; with one, only what is named.  Entries not computed
    are those of ``into`` (a table to complete, modified in place), else NaN
    (offsets 0).  ``processes`` worker processes (default: the CPUs
    available); each search runs BLAS on one thread.
    """
    out = _empty() if into is None else into
    nD, nX = len(DECAYS), XI_GRID.size
    if indices is None and asymptotic is None:
        indices = [(d, i) for d in range(nD) for i in range(nX)]
        asymptotic = [(d, P) for d in range(nD) for P in range(DIRECT_MIN, DIRECT_MAX + 1)]
    # the slowest first (the asymptotic layouts of many orders, then the grid's rows)
    tasks = [("asymptotic", d, P) for d, P in sorted(asymptotic or (), key=lambda t: -t[1])]
    tasks += [("row", d, i) for d, i in (indices or ())]
    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if processes > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(_task, tasks))
    else:
        results = [_task(t) for t in tasks]
    for kind, *result in results:
        if kind == "asymptotic":
            d, P, (ratio, centre, error) = result
            j = P - DIRECT_MIN
            out["asymptotic_ratio"][d, j] = ratio
            out["asymptotic_centre"][d, j] = centre
            out["asymptotic_error"][d, j] = error
            continue
        d, i, direct, multiply = result
        for j, (ratio, offset, error) in enumerate(direct):
            out["direct_ratio"][d, i, j] = ratio
            out["direct_offset"][d, i, j] = offset
            out["direct_error"][d, i, j] = error
        for k in (0, 1):
            for j, (ratio, error) in enumerate(multiply[k]):
                out["multiply_ratio"][d, k, i, j] = ratio
                out["multiply_error"][d, k, i, j] = error
    return out


def missing(path: Path = PATH) -> tuple[dict[str, np.ndarray], list, list]:
    """The table stored at ``path`` on the current grid, and what it lacks.

    Returns ``(table, indices, asymptotic)``: the stored entries placed on
    :data:`~sftwave.plans.tables.XI_GRID` (rows of ``xi`` it does not hold,
    and asymptotic layouts it lacks, NaN), and the (decay, xi) rows and
    (decay, orders) asymptotic layouts to search (see :func:`generate`).
    Everything, if there is no readable file.
    """
    table = _empty()
    try:
        with np.load(path) as data:
            stored = {name: data[name] for name in data.files}
    except (OSError, ValueError):
        stored = {}
    if "xi" in stored:
        for i, xi in enumerate(XI_GRID):
            hit = np.nonzero(np.abs(stored["xi"] - xi) < 1e-9)[0]
            if hit.size:
                s = int(hit[0])
                for name in ("direct_ratio", "direct_offset", "direct_error"):
                    table[name][:, i] = stored[name][:, s]
                for name in ("multiply_ratio", "multiply_error"):
                    table[name][:, :, i] = stored[name][:, :, s]
    for name in ("asymptotic_ratio", "asymptotic_centre", "asymptotic_error"):
        if name in stored and stored[name].shape == table[name].shape:
            table[name][...] = stored[name]
    nD = len(DECAYS)
    indices = [(d, i) for d in range(nD) for i in range(XI_GRID.size)
               if not (np.all(np.isfinite(table["direct_ratio"][d, i]))
                       and np.all(np.isfinite(table["multiply_ratio"][d, :, i])))]
    asymptotic = [(d, P) for d in range(nD) for P in range(DIRECT_MIN, DIRECT_MAX + 1)
                  if not np.isfinite(table["asymptotic_ratio"][d, P - DIRECT_MIN])]
    return table, indices, asymptotic


def write(table: dict[str, np.ndarray], path: Path = PATH) -> None:
    """Write the table to ``path`` atomically (a partial file never replaces the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            arrays: dict[str, Any] = table        # (else mypy matches **table to allow_pickle)
            np.savez_compressed(f, **arrays)


def main(argv: list[str] | None = None) -> int:
    """Regenerate the shipped table (``make plan-tables``; ``argv``: [--missing] [PROCESSES]).

    ``--missing``: search only what the stored table lacks (:func:`missing`).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    only_missing = "--missing" in argv
    argv = [a for a in argv if a != "--missing"]
    processes = int(argv[0]) if argv else None
    if only_missing:
        table, indices, asymptotic = missing()
        print(f"searching {len(indices)} rows and {len(asymptotic)} asymptotic layouts")
        if indices or asymptotic:
            table = generate(indices, processes=processes, asymptotic=asymptotic, into=table)
    else:
        table = generate(processes=processes)
    for name in ("direct_ratio", "multiply_ratio", "asymptotic_ratio"):
        if not np.all(np.isfinite(table[name])):
            print(f"some layouts were not computed ({name})", file=sys.stderr)
            return 1
    write(table)
    print(f"wrote {PATH} ({PATH.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
