"""The environment of `make test-oldest`: sftwave's dependencies at the floors of pyproject.toml.

    python .ci/oldest.py requirements test demo plot
        the requirements of these extras as pyproject.toml lists them, one a line,
        less those that cannot be installed beside the oldest versions (OMIT) and
        with the replacements of REPLACE; install them with -c .ci/oldest-constraints.txt

    python .ci/oldest.py check
        run by the environment's python: .ci/oldest-constraints.txt pins every
        dependency of [project] at its floor, and each is installed at it (numpy
        1.24.x for "numpy>=1.24"); the floors are the tested ones.  Prints the
        versions of the dependencies and of the optional packages the tests use.

Only the standard library: it runs before anything is installed.
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / ".ci" / "oldest-constraints.txt"

#: Test requirements left out of the oldest environment, and why; their tests skip
#: (pytest.importorskip / find_spec) where the package is absent.
OMIT = {
    "numba-cuda": "left out: every numba-cuda >= 0.30 needs numba >= 0.60; the 'cuda' engine's "
                  "tests skip (tests/engines/cuda/test_engine.py, the simulator run of "
                  "tests/suites/test_conformance.py, docs/gpu.md's example)",
    "scikit-image": "left out: scikit-image >= 0.25 needs scipy >= 1.11.4; the comparisons "
                    "with it skip (importorskip in tests/test_feature*.py); the direct "
                    "definitions still run",
}
#: Test requirements replaced in the oldest environment, and why.
REPLACE = {
    "pycwt": ("pycwt==0.4.0b0", "pycwt 0.5.0b0 needs numpy >= 2; 0.4.0b0 (numpy >= 1.24, "
                                "scipy >= 1.10) is the same API, before numpy 2"),
}
#: Optional packages whose versions are printed by `check`.
SHOWN = ["torch", "array-api-compat", "hypothesis", "pytest", "mne", "dask", "distributed", "xarray",
         "pandas", "pycwt", "PyWavelets", "matplotlib", "llvmlite", "numba-cuda", "scikit-image"]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def name_of(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not match:
        raise SystemExit(f"oldest.py: cannot read the requirement {requirement!r}")
    return canonical(match.group(1))


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def requirements(extras: list[str]) -> list[str]:
    optional = pyproject()["optional-dependencies"]
    out: list[str] = []
    for extra in extras:
        for req in optional[extra]:
            name = name_of(req)
            if name in OMIT:
                continue
            req = REPLACE[name][0] if name in REPLACE else req
            if req not in out:
                out.append(req)
    return out


def release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.match(r"\d+(\.\d+)*", version).group(0).split("."))


def check() -> int:
    floors = {}
    for req in pyproject()["dependencies"]:
        match = re.search(r">=\s*(\d+(?:\.\d+)*)", req)
        if match is None:
            print(f"oldest.py: {req!r} has no floor (>=)")
            return 1
        floors[name_of(req)] = match.group(1)
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            match = re.fullmatch(r"([A-Za-z0-9._-]+)\s*==\s*(\d+(?:\.\d+)*)(\.\*)?", line)
            if match is None:
                print(f"oldest.py: {CONSTRAINTS.name}: cannot read {line!r} (NAME==X.Y.*)")
                return 1
            pins[canonical(match.group(1))] = match.group(2)
    bad = []
    for name, floor in floors.items():
        if pins.get(name) != floor:
            bad.append(f"{CONSTRAINTS.name} pins {name} at {pins.get(name)}, pyproject.toml's "
                       f"floor is {floor}")
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            bad.append(f"{name} is not installed")
            continue
        ok = release(have)[: len(release(floor))] == release(floor)
        print(f"  {name:<16} {have:<14} floor {floor}{'' if ok else '   <-- not the floor'}")
        if not ok:
            bad.append(f"{name} {have} is installed, not the floor {floor}")
    for name in SHOWN:
        try:
            print(f"  {name:<16} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            why = OMIT.get(canonical(name), "not installed")
            print(f"  {name:<16} -   {why}")
    for name, (req, why) in REPLACE.items():
        print(f"  (test extra {name} replaced by {req}: {why})")
    if bad:
        print("oldest.py: " + "\noldest.py: ".join(bad))
        return 1
    return 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[1] == "requirements":
        print("\n".join(requirements(argv[2:])))
        return 0
    if len(argv) == 2 and argv[1] == "check":
        return check()
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
