"""Number and table formatting shared by the benchmark reports."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def load_result(name: str) -> dict | None:
    """``benchmarks/results/<name>``, read as JSON; None where that benchmark was not run."""
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


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
