"""The call-time check of :func:`sftwave._deprecation.deprecate_parameter`: a renamed parameter
given under both of its names.

(The decorator's other errors check its own use by sftwave's code, at import: they stay with it.)

Examples
--------
>>> check_not_both("smooth", "width", "sigma", {"width": 1, "sigma": 2}, n_args=1, position=1)
Traceback (most recent call last):
...
TypeError: smooth: got 'sigma' and its deprecated name 'width'; pass only 'sigma'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["check_not_both"]


def check_not_both(func: str, old: str, new: str, kwargs: Mapping[str, Any], *, n_args: int,
                   position: int | None) -> None:
    """``old`` (the deprecated name) and ``new`` are not both given to ``func``: ``new`` by
    keyword, or by position where it can come positionally (``position``, of ``n_args``)."""
    if old in kwargs and (new in kwargs or (position is not None and n_args > position)):
        raise TypeError(f"{func}: got {new!r} and its deprecated name {old!r}; pass only {new!r}")
