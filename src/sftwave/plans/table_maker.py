"""Makes the shipped Morlet layout table (:mod:`sftwave.plans.tables`) by searching every entry.

``make plan-tables`` runs :func:`main`: about 45 CPU-minutes, on every core.
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
from .morlet import P_M_MAX, search_direct_layout, search_multiply_ratio
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


def generate(indices: Iterable[tuple[int, int]] | None = None, processes: int | None = None
             ) -> dict[str, np.ndarray]:
    """Search every layout of the table (or only ``indices``, a list of (decay, xi) index pairs).

    Entries not computed are NaN (offsets 0).  ``processes`` worker processes
    (default: the CPUs available); each search runs BLAS on one thread.
    """
    nD, nX = len(DECAYS), XI_GRID.size
    nP = DIRECT_MAX - DIRECT_MIN + 1
    out = {
        "xi": XI_GRID.copy(),
        "direct_ratio": np.full((nD, nX, nP), np.nan),
        "direct_offset": np.zeros((nD, nX, nP), np.int64),
        "direct_error": np.full((nD, nX, nP), np.nan),
        "multiply_ratio": np.full((nD, 2, nX, P_M_MAX), np.nan),
        "multiply_error": np.full((nD, 2, nX, P_M_MAX), np.nan),
    }
    tasks = list(indices) if indices is not None else [(d, i) for d in range(nD) for i in range(nX)]
    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if processes > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(processes) as pool:
            rows = list(pool.map(_row, tasks))
    else:
        rows = [_row(t) for t in tasks]
    for d, i, direct, multiply in rows:
        for j, (ratio, offset, error) in enumerate(direct):
            out["direct_ratio"][d, i, j] = ratio
            out["direct_offset"][d, i, j] = offset
            out["direct_error"][d, i, j] = error
        for k in (0, 1):
            for j, (ratio, error) in enumerate(multiply[k]):
                out["multiply_ratio"][d, k, i, j] = ratio
                out["multiply_error"][d, k, i, j] = error
    return out


def write(table: dict[str, np.ndarray], path: Path = PATH) -> None:
    """Write the table to ``path`` atomically (a partial file never replaces the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            arrays: dict[str, Any] = table        # (else mypy matches **table to allow_pickle)
            np.savez_compressed(f, **arrays)


def main(argv: list[str] | None = None) -> int:
    """Regenerate the shipped table (``make plan-tables``; ``argv``: [PROCESSES])."""
    argv = sys.argv[1:] if argv is None else argv
    processes = int(argv[0]) if argv else None
    table = generate(processes=processes)
    if not np.all(np.isfinite(table["direct_ratio"])):
        print("some layouts were not computed", file=sys.stderr)
        return 1
    write(table)
    print(f"wrote {PATH} ({PATH.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
