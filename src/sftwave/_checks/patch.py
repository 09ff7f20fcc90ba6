"""The arguments of the zero-edit switch (:func:`sftwave.patch.patch`): its target names.

Examples
--------
>>> check_targets(("scipy", "mne", "scipy"))
('scipy', 'mne')
>>> check_only("mne, skimage")
('mne', 'skimage')
>>> check_targets(("numpy",))
Traceback (most recent call last):
...
ValueError: targets must be among 'scipy', 'skimage', 'mne', 'mne_connectivity', 'pycwt'; got 'numpy'
"""

from __future__ import annotations

from typing import Any

__all__ = ["TARGETS", "check_targets", "check_only"]

#: The libraries the switch can route, as it names them, and the package each one is.
TARGETS = {
    "scipy": "scipy",
    "skimage": "skimage",
    "mne": "mne",
    "mne_connectivity": "mne_connectivity",
    "pycwt": "pycwt",
}


def check_targets(targets: Any, name: str = "targets") -> tuple[str, ...]:
    """The target names, each once, in the order given (an empty tuple: every target).

    A ``TypeError`` for a name that is not a string, a ``ValueError`` for one the switch
    does not know, naming ``name`` and echoing the value.
    """
    found: list[str] = []
    for target in targets:
        if not isinstance(target, str):
            raise TypeError(f"{name} must be strings (library names); got {target!r}")
        if target not in TARGETS:
            known = ", ".join(repr(t) for t in TARGETS)
            raise ValueError(f"{name} must be among {known}; got {target!r}")
        if target not in found:
            found.append(target)
    return tuple(found)


def check_only(text: Any, name: str = "--only") -> tuple[str, ...]:
    """The targets of a comma-separated list (the command line's ``--only mne,skimage``)."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a comma-separated string; got {text!r}")
    parts = tuple(p.strip() for p in text.split(","))
    if not any(parts) or not all(parts):
        raise ValueError(f"{name} must name at least one library, separated by commas; got {text!r}")
    return check_targets(parts, name)
