"""Check what the sdist and the wheel in a folder hold (`make test-wheel`).

    python .ci/check_dist.py dist

The wheel holds the library, its shipped tables and data, its marker for type
checkers and its licence; nothing else (no tests, no workbench, no benchmarks,
no compiled or cached files).  Every module of the sdist's ``src/sftwave`` is in
it.  The sdist holds what a packager needs to build, test and document the
package: pyproject.toml, the licence, the README, the tests and every file the
tests read (see MANIFEST.in); run from a git checkout, every file of tests/,
src/sftwave, paper/, benchmarks/, docs/ and examples/ that git tracks (or would:
not ignored) is in it, and none that git ignores; no build output or cache is.

Exit status 1, with the offending names, on any difference.
"""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

#: Files of the package in the wheel besides its modules (fnmatch patterns; each must match).
PACKAGE_DATA = ["sftwave/py.typed", "sftwave/plans/data/*.npz", "sftwave/datasets/data/*.dat",
                "sftwave/datasets/data/README.md"]
#: The wheel's metadata (in sftwave-VERSION.dist-info/); the licence is required.
DIST_INFO = {"METADATA", "WHEEL", "RECORD", "top_level.txt", "entry_points.txt", "licenses/LICENSE"}
REQUIRED_DIST_INFO = {"METADATA", "WHEEL", "RECORD", "licenses/LICENSE"}

#: Files the sdist must hold (relative to its top folder).
SDIST_REQUIRED = ["pyproject.toml", "LICENSE", "README.md", "MANIFEST.in", "conftest.py",
                  "tests/conftest.py", "src/sftwave/__init__.py", "src/sftwave/py.typed",
                  "src/sftwave/plans/data/morlet_layouts.npz", "src/sftwave/datasets/data/sst_nino3.dat",
                  "paper/pyproject.toml"]
#: Folders whose every (git-tracked or trackable) file the sdist must hold.
SDIST_TREES = ["tests", "src/sftwave", "paper", "benchmarks", "docs", "examples"]
#: What the sdist must never hold: files and folders of these names anywhere (fnmatch
#: patterns), and these folders of the top level.
SDIST_FORBIDDEN_NAMES = ["*.pyc", "*.pyo", "*.nbi", "*.nbc", "__pycache__", ".venv*", ".git",
                         ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache",
                         ".numba-boundscheck", "sftwave_paper.egg-info", "sg_execution_times.rst"]
SDIST_FORBIDDEN_FOLDERS = ["docs/_build", "docs/auto_examples", "docs/api/generated", "dist",
                           "build", "paper/build", "paper/dist", "benchmarks/.asv",
                           "benchmarks/results/quick"]


def one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    if len(found) != 1:
        sys.exit(f"check_dist: expected one {pattern} in {folder}, found {[p.name for p in found]}")
    return found[0]


def check_sdist(path: Path) -> tuple[list[str], set[str]]:
    """Problems with the sdist, and the modules of its src/sftwave (as wheel paths)."""
    with tarfile.open(path) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    top = {n.split("/", 1)[0] for n in names}
    if len(top) != 1:
        return [f"sdist: more than one top folder: {sorted(top)}"], set()
    prefix = top.pop() + "/"
    files = {n[len(prefix):] for n in names}
    problems = [f"sdist: missing {name}" for name in SDIST_REQUIRED if name not in files]
    for name in sorted(files):
        parts = PurePosixPath(name).parts
        bad = [p for p in SDIST_FORBIDDEN_NAMES if any(fnmatch.fnmatch(part, p) for part in parts)]
        bad += [f for f in SDIST_FORBIDDEN_FOLDERS if name.startswith(f + "/")]
        if bad:
            problems.append(f"sdist: holds {name} ({bad[0]})")
    checkout = checkout_files()
    if checkout:
        problems += [f"sdist: missing {name} (in the checkout)" for name in sorted(checkout - files)]
        problems += [f"sdist: holds {name}, which git ignores (prune it in MANIFEST.in)"
                     for name in sorted(files - checkout)
                     if any(name.startswith(tree + "/") for tree in SDIST_TREES)]
    modules = {name[len("src/"):] for name in files
               if name.startswith("src/sftwave/") and name.endswith(".py")}
    return problems, modules


def checkout_files() -> set[str]:
    """The files of SDIST_TREES that git tracks or would track and that exist; empty outside git."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z",
                              "--", *SDIST_TREES], cwd=root, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        print("check_dist: not a git checkout; the sdist is not compared with it")
        return set()
    names = {n for n in out.stdout.decode().split("\0") if n}
    return {n for n in names if (root / n).is_file()}


def check_wheel(path: Path, modules: set[str]) -> list[str]:
    with zipfile.ZipFile(path) as whl:
        names = [n for n in whl.namelist() if not n.endswith("/")]
    info = [n for n in names if n.split("/", 1)[0].endswith(".dist-info")]
    problems = []
    dist_info = {n.split("/", 1)[1] for n in info}
    problems += [f"wheel: unexpected {n}" for n in sorted(dist_info - DIST_INFO)]
    problems += [f"wheel: missing .dist-info/{n}" for n in sorted(REQUIRED_DIST_INFO - dist_info)]
    package = [n for n in names if n not in info]
    matched = {pattern: 0 for pattern in PACKAGE_DATA}
    for name in package:
        if not name.startswith("sftwave/"):
            problems.append(f"wheel: {name} is outside the package sftwave/")
            continue
        hits = [p for p in PACKAGE_DATA if fnmatch.fnmatch(name, p)]
        for p in hits:
            matched[p] += 1
        if not hits and not name.endswith(".py"):
            problems.append(f"wheel: unexpected {name}")
    problems += [f"wheel: nothing matches {p}" for p, n in matched.items() if n == 0]
    shipped = {n for n in package if n.startswith("sftwave/") and n.endswith(".py")}
    if modules:
        problems += [f"wheel: module {n} is not in the sdist's src/" for n in sorted(shipped - modules)]
        problems += [f"wheel: missing module {n}" for n in sorted(modules - shipped)]
    return problems


def main(argv: list[str]) -> int:
    folder = Path(argv[1] if len(argv) > 1 else "dist")
    sdist, wheel = one(folder, "sftwave-*.tar.gz"), one(folder, "sftwave-*.whl")
    problems, modules = check_sdist(sdist)
    problems += check_wheel(wheel, modules)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    with zipfile.ZipFile(wheel) as whl:
        count = sum(not n.endswith("/") for n in whl.namelist())
    with tarfile.open(sdist) as tar:
        scount = sum(m.isfile() for m in tar.getmembers())
    print(f"check_dist: {wheel.name}: {count} files, as expected; {sdist.name}: {scount} files, as expected")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
