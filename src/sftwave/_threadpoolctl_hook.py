"""Register sftwave's thread pool with threadpoolctl when threadpoolctl is imported.

``import sftwave`` imports neither threadpoolctl nor numpy; it calls :func:`watch`, which
registers now if threadpoolctl is already imported and otherwise puts a finder on
``sys.meta_path`` that registers right after threadpoolctl's module has run (and then
removes itself).  Registration goes through ``sftwave.workers``, which knows the engine
whose pool the thread counts are for.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

_lock = threading.Lock()
_watcher: _RegisterWhenImported | None = None


def _register() -> None:
    """Register the engine's pool (threadpoolctl is imported)."""
    try:
        from . import workers

        workers.register_pool()
    except Exception:  # pragma: no cover - never break threadpoolctl's import
        pass


class _RegisterWhenImported:
    """A ``sys.meta_path`` finder that registers sftwave once threadpoolctl's module has run.

    It finds nothing itself: for ``threadpoolctl`` it asks the other finders for the
    module's spec and wraps its loader's ``exec_module``, then removes itself from
    ``sys.meta_path``.  Any failure to register leaves threadpoolctl's import as it
    would have been.
    """

    def __init__(self) -> None:
        self._asking = threading.local()

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "threadpoolctl" or getattr(self._asking, "busy", False):
            return None
        import importlib.util

        self._asking.busy = True
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._asking.busy = False
        loader: Any = getattr(spec, "loader", None)
        run = getattr(loader, "exec_module", None)
        if run is None:
            return None                      # let the import machinery do as it would

        def exec_module(module: Any) -> None:
            run(module)
            unwatch()
            _register()

        loader.exec_module = exec_module
        return spec


def watch() -> None:
    """Register with threadpoolctl now if it is imported, else when it is (without importing it)."""
    global _watcher
    if "threadpoolctl" in sys.modules:
        _register()
        return
    with _lock:
        if _watcher is None:
            _watcher = _RegisterWhenImported()
            sys.meta_path.insert(0, _watcher)


def unwatch() -> None:
    """Remove :func:`watch`'s finder from ``sys.meta_path`` (if there)."""
    global _watcher
    with _lock:
        if _watcher is not None:
            try:
                sys.meta_path.remove(_watcher)
            except ValueError:
                pass
            _watcher = None
