"""Every Python example in the README and the documentation runs as written.

The pages: README.md, docs/*.md, docs/*.rst, docs/guide/*.rst and docs/api/*.rst.
What counts as Python, by format:

* Markdown (README.md, docs/*.md, MyST): fenced blocks marked ``python`` (or
  ``py``, ``{code-block} python``); fenced blocks marked ``pycon`` are doctests.
* reStructuredText: ``.. code-block:: python`` (``code``, ``sourcecode``;
  ``py``, ``python3``) and plain ``::`` literal blocks, which Sphinx highlights
  as Python; ``>>>`` doctest blocks and ``.. code-block:: pycon`` are doctests.

Shell commands and output are marked ``console``, ``sh`` or ``text`` and are
not run; a block that looks like Python (it starts with an import or ``>>>``)
but is not marked so fails :func:`test_python_looking_blocks_are_marked_python`.

A page's Python blocks are joined, in order, into one script (a later block uses
the names of an earlier one, as a reader pasting them into one session would) and
run in a fresh interpreter with the working directory a temporary folder (a block
that writes a file writes it there) and matplotlib's non-interactive backend.  Its
doctests then run through :mod:`doctest` (``ELLIPSIS``, ``NORMALIZE_WHITESPACE``),
in a namespace of their own.  A block that needs an optional dependency that is
not installed (torch, dask, xarray, mne, matplotlib, numba-cuda: all in the test
extras) is left out and the page's test is reported as skipped, naming it, after
the other blocks have run and passed.  Blocks of the CUDA engine run on
numba-cuda's simulator unless ``NUMBA_ENABLE_CUDASIM`` is set, there with the
smaller data sizes of ``SIMULATOR_SIZES`` (the same calls, plans and modes).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import cudasim
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def pages() -> list[Path]:
    docs = ROOT / "docs"
    found = [README, *sorted(docs.glob("*.md")), *sorted(docs.glob("*.rst")),
             *sorted((docs / "guide").glob("*.rst")), *sorted((docs / "api").glob("*.rst"))]
    return [p for p in found if p.name != "sg_execution_times.rst"]


# what a block needs, recognised in its text: module -> pattern
OPTIONAL = {
    "torch": r"^\s*(import|from)\s+torch\b",
    "dask": r"\bdask\b",
    "xarray": r"\bxarray\b",
    "mne": r"^\s*(import|from)\s+mne\b",
    "matplotlib": r"\bmatplotlib\b|\bsftwave\.plot\b|^\s*from\s+sftwave\s+import\s+[^\n]*\bplot\b",
    "numba_cuda": r"\bsftwave\.engines\.cuda\b|engine\s*=\s*[\"']cuda[\"']",
}

# Under numba-cuda's simulator every GPU thread is a Python thread, so a CUDA example costs
# about its stage buffers' length; these sizes replace the page's there (each must occur exactly
# once in the page's CUDA blocks, so that the table cannot go stale).  The code run is the page's:
# the same calls, plans and modes; gpu.md's line of 300 samples is still longer than its plan's
# window (145 samples, three stages) and pads to one 512-sample stage buffer instead of five
# (the engine's own checks, tests/engines/cuda/, cover sizes, modes and block edges).
SIMULATOR_SIZES: dict[str, list[tuple[str, str]]] = {
    "docs/gpu.md": [("standard_normal(2_000)", "standard_normal(300)")],
}


def under_simulator(name: str, code: str) -> str:
    """A CUDA block's code with the page's sizes replaced by ``SIMULATOR_SIZES[name]``."""
    for old, new in SIMULATOR_SIZES.get(name, []):
        assert code.count(old) <= 1, f"{name}: {old!r} occurs more than once in a block"
        code = code.replace(old, new)
    return code


PYTHON = {"python", "py", "python3", "ipython", "ipython3"}
DOCTEST = {"pycon", "doctest"}
LOOKS_LIKE_PYTHON = re.compile(r"^(import \w|from [\w.]+ import |>>> )")


@dataclass
class Block:
    line: int          # of the opening fence or directive, 1-based
    kind: str          # 'python', 'doctest', or the language of a block not run
    code: str


def _language(info: str) -> str:
    """The language of a Markdown fence's info string (``python``, ``{code-block} python``)."""
    words = info.replace("{", " ").replace("}", " ").split()
    if words and words[0] in ("code-block", "code", "sourcecode", "code-cell"):
        words = words[1:]
    return words[0].lower() if words else ""


def markdown_blocks(text: str) -> list[Block]:
    blocks = []
    fence = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*([^\n`]*)\n(.*?)^\1\2[ \t]*$", re.M | re.S)
    for m in fence.finditer(text):
        language = _language(m.group(3))
        if m.group(3).strip().startswith(("{include}", "{eval-rst}", "{literalinclude}")):
            continue
        code = textwrap.dedent(m.group(4))
        kind = "python" if language in PYTHON else "doctest" if language in DOCTEST else language
        if kind not in ("python", "doctest") and code.lstrip().startswith(">>>") and not language:
            kind = "doctest"
        blocks.append(Block(text.count("\n", 0, m.start()) + 1, kind, code))
    return blocks


def _indented(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines from ``start`` indented deeper than ``indent`` (blank lines included)."""
    body, i = [], start
    while i < len(lines) and (not lines[i].strip()
                              or len(lines[i]) - len(lines[i].lstrip()) > indent):
        body.append(lines[i])
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return body, i


def rst_blocks(text: str) -> list[Block]:
    lines = text.splitlines()
    blocks, i = [], 0
    directive = re.compile(r"^(\s*)\.\.\s+(code-block|code|sourcecode|doctest)::\s*(\S*)")
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        m = directive.match(line)
        if m:
            body, end = _indented(lines, i + 1, indent)
            while body and (re.match(r"\s+:[\w-]+:", body[0]) or not body[0].strip()):
                body.pop(0)                                   # the directive's options
            language = "doctest" if m.group(2) == "doctest" else m.group(3).lower()
            kind = "python" if language in PYTHON else "doctest" if language in DOCTEST else language
            blocks.append(Block(i + 1, kind, textwrap.dedent("\n".join(body)) + "\n"))
            i = end
            continue
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            body, end = _indented(lines, i + 1, indent)       # a literal block: Python to Sphinx
            if body:
                code = textwrap.dedent("\n".join(body)) + "\n"
                kind = "doctest" if code.lstrip().startswith(">>>") else "python"
                blocks.append(Block(i + 1, kind, code))
            i = end
            continue
        if line.lstrip().startswith(">>>") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1                                      # a doctest block: a paragraph
            blocks.append(Block(i + 1, "doctest", textwrap.dedent("\n".join(lines[i:end])) + "\n"))
            i = end
            continue
        if line.lstrip().startswith(".. "):                    # other directives: skip their body
            _, i = _indented(lines, i + 1, indent)
            continue
        i += 1
    return blocks


def blocks_of(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return markdown_blocks(text) if page.suffix == ".md" else rst_blocks(text)


def needs(code: str) -> list[str]:
    return [m for m, pattern in OPTIONAL.items() if re.search(pattern, code, re.M)]


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


RUNNABLE = [p for p in pages() if any(b.kind in ("python", "doctest") for b in blocks_of(p))]


def _runnable_params() -> list:
    """RUNNABLE, a page whose blocks use numba-cuda (run on its simulator) marked ``simulator``."""
    return [pytest.param(p, marks=pytest.mark.simulator)
            if any("numba_cuda" in needs(b.code) for b in blocks_of(p)) else p
            for p in RUNNABLE]


def test_the_pages_and_their_blocks_are_found():
    names = {_name(p) for p in pages()}
    assert {"README.md", "docs/index.rst", "docs/guide/tour.rst", "docs/guide/engines.rst",
            "docs/benchmarks.md", "docs/guide/conventions.rst"} <= names
    runnable = {_name(p) for p in RUNNABLE}
    assert {"README.md", "docs/index.rst", "docs/guide/tour.rst", "docs/guide/engines.rst"} <= runnable
    tour = [b for b in blocks_of(ROOT / "docs/guide/tour.rst") if b.kind == "python"]
    assert len(tour) >= 6
    found = {m for b in tour for m in needs(b.code)}
    assert {"dask", "xarray", "matplotlib"} <= found
    assert needs("import torch, sftwave\n") == ["torch"]
    assert needs("from sftwave import analysis, plot\n") == ["matplotlib"]
    assert needs("from sftwave.mne import tfr_array_morlet\n") == []   # sftwave's, needs no MNE


def test_the_parsers_tell_python_from_the_rest():
    rst = textwrap.dedent("""\
        Text::

           x = 1

        .. code-block:: console

           $ make demo

        .. code-block:: python
           :caption: one

           y = x + 1

        .. math::

           a::b

        >>> y
        2
        """)
    assert [(b.kind, b.code.strip()) for b in rst_blocks(rst)] == [
        ("python", "x = 1"), ("console", "$ make demo"), ("python", "y = x + 1"),
        ("doctest", ">>> y\n2")]
    md = "```python\nimport numpy\n```\n\n```\nmake test\n```\n\n```pycon\n>>> 1\n1\n```\n"
    assert [b.kind for b in markdown_blocks(md)] == ["python", "", "doctest"]


@pytest.mark.parametrize("page", _runnable_params(), ids=_name)
def test_python_blocks_run_as_written(page, tmp_path):
    name = _name(page)
    blocks = blocks_of(page)
    script, doctests, left_out = ["import sys as _doc_sys\n"], [], []
    env = dict(os.environ, MPLBACKEND="Agg")
    ran = replaced = 0
    simulated = False
    for block in blocks:
        if block.kind not in ("python", "doctest"):
            continue
        missing = [m for m in needs(block.code) if _missing(m)]
        if missing:
            left_out.append(f"{name}:{block.line} (needs {', '.join(missing)}, not installed)")
            continue
        code = block.code
        if "numba_cuda" in needs(code):
            env.setdefault("NUMBA_ENABLE_CUDASIM", "1")
            if env["NUMBA_ENABLE_CUDASIM"] == "1":
                simulated = True
                replaced += sum(code.count(old) for old, _ in SIMULATOR_SIZES.get(name, []))
                code = under_simulator(name, code)
        if block.kind == "doctest":
            doctests.append(block)
            continue
        # each block announces itself on stderr, so that a failure names its block
        script.append(f"print({f'{name}:{block.line}'!r}, file=_doc_sys.stderr, flush=True)\n")
        script.append(code)
        ran += 1
    if simulated:     # numba-cuda's simulator: a shorter thread switch interval (cudasim.py)
        script.insert(0, cudasim.PRELUDE)
    if doctests:
        script.append(textwrap.dedent(f"""
            import doctest as _doctest
            _runner = _doctest.DocTestRunner(
                optionflags=_doctest.ELLIPSIS | _doctest.NORMALIZE_WHITESPACE)
            for _line, _text in {[(b.line, b.code) for b in doctests]!r}:
                print({name!r} + f":{{_line}} (doctest)", file=_doc_sys.stderr, flush=True)
                _test = _doctest.DocTestParser().get_doctest(
                    _text, {{"__name__": "__doc__"}}, {name!r}, {name!r}, _line)
                _runner.run(_test, out=_doc_sys.stderr.write)
                if _runner.failures:
                    raise SystemExit(1)
            """))
        ran += len(doctests)
    path = tmp_path / "doc_blocks.py"
    path.write_text("\n".join(script), encoding="utf-8")
    run = subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)
    started = re.findall(rf"^{re.escape(name)}:\d+(?: \(doctest\))?$", run.stderr, re.M)
    assert run.returncode == 0, (
        f"the Python block at {started[-1] if started else name + ' (?)'} failed:\n"
        f"{run.stderr[-4000:]}")
    assert len(started) == ran
    if simulated:
        assert replaced == len(SIMULATOR_SIZES.get(name, [])), f"{name}: SIMULATOR_SIZES is stale"
    if left_out:
        pytest.skip("the other blocks ran and passed; left out: " + "; ".join(left_out))


def test_python_looking_blocks_are_marked_python():
    """A Python example marked as a shell or text block (or not marked) is never run: refuse it."""
    unmarked = [f"{_name(p)}:{b.line} (marked {b.kind or 'nothing'!r})"
                for p in pages() for b in blocks_of(p)
                if b.kind not in ("python", "doctest") and LOOKS_LIKE_PYTHON.match(b.code.lstrip())]
    assert not unmarked, "blocks that look like Python but are not marked python: " + ", ".join(
        unmarked)


def test_readme_quick_start_names_make_demo_and_make_test():
    text = README.read_text(encoding="utf-8")
    shell = [b.code for b in markdown_blocks(text) if b.kind in ("sh", "bash", "shell", "console", "")]
    commands = {line.split("#", 1)[0].strip() for block in shell for line in block.splitlines()}
    assert {"make demo", "make test"} <= commands
    assert text.index("make demo") < text.index("```python")   # the quick start comes first
    python = [b for b in markdown_blocks(text) if b.kind == "python"]
    assert len(python) == 1 and len(python[0].code.strip().splitlines()) <= 12   # one short example
    for path in re.findall(r"\]\(((?:docs|examples)/[^)#\s]+)", text):
        assert (ROOT / path).exists(), f"README.md links to {path}, which does not exist"


def test_the_readme_figure_script_runs(tmp_path):
    """docs/figures/make_readme_figure.py draws the README's figure, small (< 150 KB)."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "readme_nino3.png"
    run = subprocess.run([sys.executable, str(ROOT / "docs/figures/make_readme_figure.py"), str(out)],
                         cwd=tmp_path, env=dict(os.environ, MPLBACKEND="Agg"), capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size < 150 * 1024
    committed = ROOT / "docs/figures/readme_nino3.png"
    assert committed.exists() and committed.stat().st_size < 150 * 1024
    assert "docs/figures/readme_nino3.png" in README.read_text(encoding="utf-8")
