"""A lazy wrapper takes its signature, defaults and docstring from the in-memory function.

As dask-image's ``_update_wrapper`` wraps scipy.ndimage's docstrings: the
wrapper's own docstring holds only what is lazy about it (its summary, a note
on chunks and reach, its Returns where they differ, See Also and Examples);
the in-memory function's Parameters (and its Returns, Raises, Notes and
References where the wrapper gives none) are taken as they are.  The
wrapper's ``inspect.signature`` is the in-memory function's, with the
wrapper's return annotation; the arguments are bound to it once, with its
defaults, and handed to the implementation as one :class:`Call`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._checks.dask import bind

__all__ = ["Call", "lazy", "merge_docstrings"]

#: numpydoc's sections, in its order
_ORDER = ("Parameters", "Returns", "Yields", "Receives", "Other Parameters", "Raises", "Warns",
          "Warnings", "See Also", "Notes", "References", "Examples")

#: the sections only the wrapper gives (the in-memory ones name in-memory neighbours and run
#: in-memory examples)
_OWN = ("See Also", "Examples")


@dataclass(frozen=True)
class Call:
    """One call of a lazy wrapper: the in-memory function, its arguments bound with its defaults.

    ``fn`` is looked up when the lazy result is built (not when the module was
    imported), so that the blocks call what ``module.name`` is then.
    ``given`` holds the names the caller passed, ``defaults`` the in-memory
    function's defaults.
    """
    fn: Callable[..., Any]
    args: dict[str, Any]
    given: frozenset[str] = field(default_factory=frozenset)
    defaults: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.args[name]

    def is_default(self, *names: str) -> bool:
        """Whether each of ``names`` has the in-memory function's default value."""
        return all(self.args[k] is self.defaults[k] or self.args[k] == self.defaults[k]
                   for k in names)

    def without(self, *names: str) -> dict[str, Any]:
        """The arguments but ``names`` (keywords for ``fn`` on a block)."""
        return {k: v for k, v in self.args.items() if k not in names}


def _sections(doc: str) -> tuple[str, dict[str, str]]:
    """A numpydoc docstring as its head (summary and extended text) and its sections."""
    text = inspect.cleandoc(doc or "")
    parts = re.split(r"^(\w[\w ]*)\n-{3,}\n", text, flags=re.M)
    head, sections = parts[0].rstrip(), {}
    for title, body in zip(parts[1::2], parts[2::2]):
        sections[title] = body.rstrip()
    return head, sections


def _qualified(text: str, module: str) -> str:
    """``text`` with its short cross-references (``:func:`name```) made ``module``'s: in the
    lazy wrapper's page they would name the wrapper's neighbours.  ``module`` is the public
    module (the one with a page), as :func:`lazy` is given it."""
    return re.sub(r"(:(?:func|class|data|obj|attr|meth):`)(?!~)([A-Za-z_]\w*)`",
                  rf"\1~{module}.\2`", text)


def merge_docstrings(in_memory: str | None, own: str | None, module: str | None = None) -> str:
    """The lazy wrapper's docstring: its own head, the in-memory sections, its own where it has them.

    ``module``: the public module of the in-memory function (``sftwave.feature``, not the
    private ``sftwave.feature._blobs`` that defines it), whose short cross-references are
    made its own: they must name a documented page.

    Examples
    --------
    >>> def f(x, a=1):
    ...     '''Add.
    ...
    ...     Parameters
    ...     ----------
    ...     x : ndarray
    ...         In.
    ...     a : int
    ...         Added.
    ...
    ...     Returns
    ...     -------
    ...     ndarray
    ...
    ...     Examples
    ...     --------
    ...     >>> f(1)
    ...     2
    ...     '''
    >>> print(merge_docstrings(f.__doc__, "Add, lazily.\\n\\nReturns\\n-------\\ndask.array.Array"))
    Add, lazily.
    <BLANKLINE>
    Parameters
    ----------
    x : ndarray
        In.
    a : int
        Added.
    <BLANKLINE>
    Returns
    -------
    dask.array.Array
    """
    _, theirs = _sections(in_memory or "")
    if module is not None:
        theirs = {title: _qualified(body, module) for title, body in theirs.items()}
    head, mine = _sections(own or "")
    out = [head]
    for title in _ORDER:
        body = mine.get(title, None if title in _OWN else theirs.get(title))
        if body is not None:
            out.append(f"{title}\n{'-' * len(title)}\n{body}")
    return "\n\n".join(out)


def lazy(module: str, name: str) -> Callable[[Callable[[Call], Any]], Callable[..., Any]]:
    """The public wrapper of ``impl(call)`` for the in-memory function ``module.name``.

    ``module`` is the public module that exports it (``sftwave.feature``), whose page
    the wrapper's cross-references then name.

    Its signature is the in-memory function's (the implementation's return
    annotation), its docstring :func:`merge_docstrings`'s; a call binds the
    arguments to that signature (a ``TypeError`` as the in-memory function's
    for a wrong one), applies its defaults and hands them to ``impl``.
    """
    def resolve() -> Callable[..., Any]:
        return getattr(importlib.import_module(module), name)

    in_memory = resolve()
    sig = inspect.signature(in_memory)
    defaults = {k: p.default for k, p in sig.parameters.items() if p.default is not p.empty}

    def decorate(impl: Callable[[Call], Any]) -> Callable[..., Any]:
        @functools.wraps(impl, assigned=("__module__", "__qualname__"), updated=())
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = bind(sig, args, kwargs, f"{wrapper.__module__.rsplit('.', 1)[0]}.{name}")
            given = frozenset(bound.arguments)
            bound.apply_defaults()
            return impl(Call(resolve(), dict(bound.arguments), given, defaults))

        wrapper.__name__ = name
        wrapper.__qualname__ = name
        wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined]
            return_annotation=inspect.signature(impl).return_annotation)
        wrapper.__doc__ = merge_docstrings(in_memory.__doc__, impl.__doc__, module)
        return wrapper

    return decorate
