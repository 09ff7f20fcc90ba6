"""The guide's page on the switch lists every route of every library whose routes exist."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from sftwave._checks.patch import TARGETS

PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "switch.rst"


@pytest.mark.parametrize("target", list(TARGETS))
def test_the_table_lists_every_route(target):
    try:
        module = importlib.import_module(f"sftwave.patch.routes.{target}")
    except ModuleNotFoundError:
        pytest.fail(f"sftwave.patch.routes.{target} is missing: every target has routes")
    text = PAGE.read_text(encoding="utf-8")
    missing = [f"{r.where[0]}.{r.name}" for r in module.routes() if f"``{r.where[0]}.{r.name}``" not in text]
    assert not missing, f"docs/guide/switch.rst does not list {missing}"
