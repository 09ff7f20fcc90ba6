"""The environment switch of the engine's numba internals, readable without numba."""

from __future__ import annotations

import os

__all__ = ["DISABLE_ENV", "env_disables_internals"]

#: Set to anything but ``""`` or ``"0"``, the engine uses no numba internals (the tests' switch;
#: ``._jit`` reads it when the engine loads, ``._rows`` where numba is not loaded).
DISABLE_ENV = "SFTWAVE_DISABLE_NUMBA_INTERNALS"


def env_disables_internals() -> bool:
    """Whether :data:`DISABLE_ENV` is set now.

    Examples
    --------
    >>> isinstance(env_disables_internals(), bool)
    True
    """
    return os.environ.get(DISABLE_ENV, "").strip() not in ("", "0")
