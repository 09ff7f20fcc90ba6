"""Deprecating a parameter: one decorator, one wording, one warning class.

sftwave warns with :class:`FutureWarning`, as scikit-image does for the
changes its users must act on.  Python shows a :class:`DeprecationWarning`
only where it is raised from ``__main__`` (PEP 565): called from a user's own
module, a notebook helper or a pipeline, it would stay hidden until the
parameter is gone.  A :class:`FutureWarning` is shown everywhere by default,
and the people who must change their calls are the library's users, not only
its developers.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from ._checks.deprecation import check_not_both

__all__ = ["deprecate_parameter"]

F = TypeVar("F", bound=Callable[..., Any])


def deprecate_parameter(old: str, *, new: str | None = None, since: str,
                        remove_in: str) -> Callable[[F], F]:
    """Decorator: warn when a caller passes the deprecated parameter ``old``.

    With ``new``, ``old`` was renamed: the decorated function takes ``new``
    only, and ``old=value`` is passed on as ``new=value`` after a
    :class:`FutureWarning`; giving both is a :class:`TypeError`.  Without
    ``new``, ``old`` is on its way out: the function still takes it, and a
    caller who passes it (by keyword or position) is warned.

    The warning names the function, the parameter, the version that
    deprecated it, the version that will remove it and the replacement, and
    points at the caller's line.  The decorated function keeps its name,
    docstring and signature (:func:`functools.wraps`; :func:`inspect.signature`
    shows the function's own parameters).

    Parameters
    ----------
    old : str
        The deprecated parameter's name.
    new : str, optional
        The parameter that replaces it, a parameter of the decorated function.
    since : str
        The version that deprecated ``old``.
    remove_in : str
        The version that will remove ``old``.

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    TypeError
        At decoration, where the signature does not fit: ``new`` is not a
        parameter, ``old`` still is one although it was renamed, or ``old`` is
        not one although no replacement is named.

    Examples
    --------
    >>> import warnings
    >>> @deprecate_parameter("width", new="sigma", since="0.2", remove_in="0.4")
    ... def smooth(x, sigma=1.0):
    ...     return x * sigma
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     smooth(2.0, width=3.0)
    6.0
    >>> caught[0].category.__name__
    'FutureWarning'
    >>> print(caught[0].message)
    smooth: parameter 'width' is deprecated since sftwave 0.2 and will be removed in 0.4; use 'sigma' instead.
    >>> smooth(2.0, sigma=3.0, width=3.0)
    Traceback (most recent call last):
    ...
    TypeError: smooth: got 'sigma' and its deprecated name 'width'; pass only 'sigma'
    >>> import inspect
    >>> str(inspect.signature(smooth))
    '(x, sigma=1.0)'
    """
    if not (isinstance(since, str) and since and isinstance(remove_in, str) and remove_in):
        raise TypeError(f"since and remove_in must be version strings; got {since!r}, {remove_in!r}")

    def decorate(func: F) -> F:
        name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
        params = inspect.signature(func).parameters
        if new is not None:
            if new not in params:
                raise TypeError(f"{name}: the replacement {new!r} is not one of its parameters")
            if old in params:
                raise TypeError(f"{name}: {old!r} was renamed to {new!r}, so it cannot be a "
                                "parameter any more")
        elif old not in params:
            raise TypeError(f"{name}: {old!r} is not one of its parameters")
        # where the parameter may come positionally (so 'given' also counts positions)
        names = list(params)
        position = (names.index(new if new is not None else old)
                    if params[new if new is not None else old].kind
                    in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                    else None)
        message = (f"{name}: parameter {old!r} is deprecated since sftwave {since} and will be "
                   f"removed in {remove_in}; "
                   + (f"use {new!r} instead." if new is not None else "stop passing it."))

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if new is not None:
                if old in kwargs:
                    check_not_both(name, old, new, kwargs, n_args=len(args), position=position)
                    warnings.warn(message, FutureWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            elif old in kwargs or (position is not None and len(args) > position):
                warnings.warn(message, FutureWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
