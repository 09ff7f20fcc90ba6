"""README.md's examples run as written: every ```python block, in order, in a fresh interpreter.

The blocks are joined into one script (a later block uses the names of an earlier
one, as a reader pasting them into one session would) and run in a new process
with the working directory a temporary folder (a block that writes a file writes it
there) and matplotlib's non-interactive backend.  A block that needs an optional
dependency that is not installed (torch, dask, xarray, mne, matplotlib: all in the
test extras) is left out and the test is reported as skipped, naming it, after the
other blocks have run and passed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"

# what a block needs, recognised in its text: module -> pattern
OPTIONAL = {
    "torch": r"^\s*(import|from)\s+torch\b",
    "dask": r"\bdask\b",
    "xarray": r"\bxarray\b",
    "mne": r"^\s*(import|from)\s+mne\b",
    "matplotlib": r"\bmatplotlib\b|\bsftwave\.plot\b|^\s*from\s+sftwave\s+import\s+[^\n]*\bplot\b",
}


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the opening fence, code) of every ```python block, in order."""
    blocks = []
    for match in re.finditer(r"^```python[ \t]*\n(.*?)^```[ \t]*$", text, re.M | re.S):
        blocks.append((text.count("\n", 0, match.start()) + 1, match.group(1)))
    return blocks


def needs(code: str) -> list[str]:
    return [m for m, pattern in OPTIONAL.items() if re.search(pattern, code, re.M)]


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


def test_the_blocks_are_found_and_their_needs_recognised():
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 7
    found = {m for _, code in blocks for m in needs(code)}
    assert {"torch", "dask", "xarray", "matplotlib"} <= found
    assert needs("import torch, sftwave\n") == ["torch"]
    assert needs("from sftwave import analysis, plot\n") == ["matplotlib"]
    assert needs("from sftwave.mne import tfr_array_morlet\n") == []   # sftwave's, needs no MNE


def test_readme_python_blocks_run_in_order(tmp_path):
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    script, left_out = [], []
    for line, code in blocks:
        missing = [m for m in needs(code) if _missing(m)]
        if missing:
            left_out.append(f"README.md:{line} (needs {', '.join(missing)}, not installed)")
            continue
        # each block announces itself on stderr, so that a failure names its block
        script.append(f"import sys as _readme_sys\n"
                      f"print('README.md:{line}', file=_readme_sys.stderr, flush=True)\n")
        script.append(code)
    path = tmp_path / "readme_blocks.py"
    path.write_text("\n".join(script), encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg")
    run = subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)
    started = re.findall(r"^README\.md:\d+$", run.stderr, re.M)
    assert run.returncode == 0, (
        f"the README's Python block at {started[-1] if started else '?'} failed:\n"
        f"{run.stderr[-4000:]}")
    assert len(started) == len(blocks) - len(left_out)
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != "readme_blocks.py")
    assert written == [], f"the README's blocks wrote files: {written}"
    if left_out:
        pytest.skip("the other blocks ran and passed; left out: " + "; ".join(left_out))


def test_readme_quick_start_names_make_demo_and_make_test():
    text = README.read_text(encoding="utf-8")
    shell = re.findall(r"^```(?:sh|bash|shell|console)?[ \t]*\n(.*?)^```[ \t]*$", text, re.M | re.S)
    commands = {line.strip() for block in shell for line in block.splitlines()}
    assert {"make demo", "make test"} <= commands
    assert text.index("make demo") < text.index("```python")   # the quick start comes first
