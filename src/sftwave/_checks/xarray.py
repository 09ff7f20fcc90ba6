"""The checks of :mod:`sftwave.xarray`: dimension names, attributes and coordinates of xarray objects.

The numeric options (``sigma``, ``mode``, ``tol``, ...) are checked by the
in-memory functions' request builders when the wrapped function runs; these
check what only the xarray wrappers take: the objects, the dimension names,
``keep_attrs``, the per-dimension mappings and the time coordinate that
gives ``fs``.  A check raises ``ValueError`` or ``TypeError`` naming the
parameter and echoing the value, and never computes.

Examples
--------
>>> import xarray as xr
>>> x = xr.DataArray([[1.0, 2.0]], dims=("y", "x"))
>>> filtered_dims(x, {"x": 1.0}, None)
('x',)
>>> check_dim(x, "time")
Traceback (most recent call last):
...
ValueError: dim 'time' is not a dimension of the DataArray; its dimensions are ('y', 'x')
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

__all__ = ["check_obj", "check_dataarrays", "check_dim", "check_keep_attrs", "refuse",
           "coordinate_step", "cwt_dim", "time_dim", "check_no_freq", "aligned",
           "variables_with", "per_dim", "filtered_dims", "is_sequence", "check_decim",
           "check_channel_dim"]


def _kind(obj: Any) -> str:
    return "Dataset" if isinstance(obj, xr.Dataset) else "DataArray"


def _dims_of(obj: Any) -> tuple:
    return tuple(obj.sizes)


def is_sequence(value: Any) -> bool:
    return isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, (str, bytes))


def check_obj(obj: Any, func: str) -> None:
    """``obj`` is a ``DataArray`` or a ``Dataset`` (``func``: the array function to use instead)."""
    if not isinstance(obj, (xr.DataArray, xr.Dataset)):
        raise TypeError(f"obj must be an xarray DataArray or Dataset; got {type(obj).__name__} "
                        f"(use sftwave.{func} for arrays)")


def check_dataarrays(func: str, **arrays: Any) -> None:
    """Each of ``arrays`` (by parameter name) is a ``DataArray``."""
    for name, v in arrays.items():
        if not isinstance(v, xr.DataArray):
            raise TypeError(f"{name} must be an xarray DataArray; got {type(v).__name__} "
                            f"(use sftwave.{func} for arrays)")


def check_dim(obj: Any, dim: Hashable, name: str = "dim") -> Hashable:
    """``dim``, a dimension of ``obj``."""
    if dim not in obj.sizes:
        raise ValueError(f"{name} {dim!r} is not a dimension of the {_kind(obj)}; its dimensions "
                         f"are {_dims_of(obj)}")
    return dim


def check_keep_attrs(keep_attrs: Any, default: bool = True) -> bool:
    """``keep_attrs`` resolved as xarray does: None follows ``xr.set_options(keep_attrs=)``."""
    if keep_attrs is None:
        option = xr.get_options()["keep_attrs"]
        return default if option == "default" else bool(option)
    if isinstance(keep_attrs, (bool, np.bool_)):
        return bool(keep_attrs)
    raise TypeError(f"keep_attrs must be True, False or None; got {keep_attrs!r}")


def refuse(kwargs: dict, names: Sequence[str], instead: str) -> None:
    """The array functions' options that have no meaning for an xarray object (``names``), and an
    ``output`` array (the result is a new object)."""
    for name in names:
        if name in kwargs:
            raise TypeError(f"{name}= does not apply to xarray objects: {instead}")
    output = kwargs.get("output")
    if output is not None and not isinstance(output, (str, type, np.dtype)):
        raise TypeError(f"output must be None or a dtype for xarray objects (the result is a "
                        f"new object); got {type(output).__name__}")


def coordinate_step(values: Any, dim: Hashable) -> tuple[float, bool]:
    """The step of an evenly spaced, increasing ``dim`` coordinate (seconds for ``datetime64``
    and ``timedelta64``), and whether it is such a time coordinate."""
    values = np.asarray(values)
    if values.size < 2:
        raise ValueError(f"the {dim!r} coordinate has fewer than 2 values: pass fs")
    step = np.diff(values)
    timed = values.dtype.kind in "Mm"
    if timed:
        step = step / np.timedelta64(1, "s")
    step = step.astype(np.float64)
    if not np.all(step > 0) or np.ptp(step) > 1e-6 * abs(float(step.mean())):
        raise ValueError(f"the {dim!r} coordinate is not evenly spaced and increasing: pass fs")
    return float(step.mean()), timed


def check_no_freq(obj: Any) -> None:
    """``obj`` has no ``'freq'`` dimension or coordinate (the result's frequencies take it)."""
    if "freq" in obj.sizes or "freq" in obj.coords:
        raise ValueError(f"the {_kind(obj)} already has a 'freq' dimension or coordinate: rename "
                         "it first (the result's frequencies are 'freq')")


def cwt_dim(obj: Any, dim: Hashable | None) -> Hashable:
    """:func:`sftwave.xarray.cwt`'s time dimension: ``dim``, else ``'time'``, else a
    ``DataArray``'s last dimension; ``obj`` must have no ``'freq'`` yet."""
    if dim is None:
        if "time" in obj.sizes:
            dim = "time"
        elif isinstance(obj, xr.DataArray) and obj.ndim:
            dim = obj.dims[-1]
        else:
            raise ValueError(f"dim must be given: the Dataset has no 'time' dimension; its "
                             f"dimensions are {_dims_of(obj)}")
    check_dim(obj, dim)
    check_no_freq(obj)
    return dim


def time_dim(obj: Any, dim: Hashable | None, name: str) -> Hashable:
    """``dim``, or ``'time'`` where ``obj`` has it, else a ``DataArray``'s last dimension."""
    if dim is None:
        if "time" in obj.sizes:
            return "time"
        if obj.ndim:
            return obj.dims[-1]
        raise ValueError(f"{name} has no dimension: it must have a time dimension")
    return check_dim(obj, dim)


def aligned(x: xr.DataArray, y: xr.DataArray, dim: Hashable) -> tuple[xr.DataArray, xr.DataArray]:
    """``x`` and ``y`` aligned exactly (their coordinates must match, along ``dim`` too)."""
    try:
        return xr.align(x, y, join="exact")
    except ValueError as exc:
        raise ValueError(f"x and y must have the same coordinates (along {dim!r} too): {exc}") \
            from None


def variables_with(obj: xr.Dataset, dims: Sequence[Hashable], name: str) -> list:
    """The data variables of ``obj`` that have any of ``dims`` (``name``: the parameter)."""
    names = [n for n, v in obj.data_vars.items() if any(d in v.dims for d in dims)]
    if not names:
        if name == "dim":
            raise ValueError(f"no data variable of the Dataset has the dimension dim={dims[0]!r}")
        raise ValueError(f"no data variable of the Dataset has any of the dimensions "
                         f"{tuple(dims)}")
    return names


def per_dim(value: Any, dims: tuple, name: str, default: Any) -> dict:
    """``value`` for each of ``dims``: a scalar, a sequence in ``dims``' order, or a mapping."""
    if isinstance(value, Mapping):
        extra = [d for d in value if d not in dims]
        if extra:
            raise ValueError(f"{name} names {extra}, which are not among the filtered dims "
                             f"{dims}")
        return {d: value.get(d, default) for d in dims}
    if is_sequence(value):
        seq = list(value)
        if len(seq) != len(dims):
            raise ValueError(f"{name} must be a scalar, a mapping {{dim: value}} or a sequence "
                             f"with one entry per dim of dims={dims}; got {value!r}")
        return dict(zip(dims, seq))
    return dict.fromkeys(dims, value)


def filtered_dims(obj: Any, sigma: Any, dims: Any) -> tuple:
    """The dims ``gaussian_filter`` runs along, from ``dims`` and a mapping ``sigma``."""
    if isinstance(sigma, Mapping):
        missing = [d for d in sigma if d not in obj.sizes]
        if missing:
            raise ValueError(f"sigma names {missing}, which are not dimensions of the "
                             f"{_kind(obj)}; its dimensions are {_dims_of(obj)}")
    if dims is None:
        dims = tuple(sigma) if isinstance(sigma, Mapping) else _dims_of(obj)
    elif isinstance(dims, str) or not is_sequence(dims):
        dims = (dims,)
    dims = tuple(dims)
    if not dims:
        raise ValueError("dims must name at least one dimension; got ()")
    if len(set(dims)) != len(dims):
        raise ValueError(f"dims must not contain duplicates; got {dims!r}")
    for d in dims:
        check_dim(obj, d, "dims entry")
    if isinstance(sigma, Mapping) and set(sigma) != set(dims):
        raise ValueError(f"sigma's dims {tuple(sigma)} differ from dims={dims}: give one of them, "
                         "or the same dims in both")
    return dims


def check_decim(decim: Any) -> int:
    """:func:`sftwave.xarray.cwt`'s ``decim``: an integer (as ``int()`` reads it), at least 1."""
    decim = int(decim)
    if decim < 1:
        raise ValueError(f"decim must be a positive integer; got {decim!r}")
    return decim


def channel_positions(indices: Any, labels: Any, channel: Hashable) -> Any:
    """:func:`sftwave.xarray.wct_pairs`' ``indices`` with channel labels turned into positions.

    Each of the two sequences is taken as it is when it holds integers
    (positions along ``channel``, checked by :func:`sftwave.coherence.wct_pairs`),
    else as values of the channel coordinate ``labels`` (None: the channels have
    no coordinate), each of which must name exactly one channel.  Anything that
    is not a pair of sequences is passed on for the array function to refuse.

    Examples
    --------
    >>> import numpy as np
    >>> labels = np.array(["Fz", "Cz", "Pz"])
    >>> seeds, targets = channel_positions((["Pz", "Cz"], [0, 0]), labels, "channel")
    >>> seeds.tolist(), targets
    ([2, 1], [0, 0])
    """
    if not isinstance(indices, (tuple, list)) or len(indices) != 2:
        return indices
    out = []
    for v in indices:
        a = np.asarray(v)
        if a.ndim != 1 or a.size == 0 or a.dtype.kind in "iu":
            out.append(v)                  # positions (or a shape the array function refuses)
            continue
        known = [] if labels is None else np.asarray(labels).tolist()
        positions = []
        for label in a.tolist():
            hits = [i for i, k in enumerate(known) if k == label]
            if len(hits) != 1:
                what = "is not a label" if not hits else f"names {len(hits)} channels"
                shown = known[:20] + (["..."] if len(known) > 20 else [])
                raise ValueError(
                    f"indices: {label!r} {what} of the {channel!r} coordinate"
                    + (f" (its labels: {shown})" if known else
                       f" (the {channel!r} dimension has no coordinate: give positions)"))
            positions.append(hits[0])
        out.append(np.asarray(positions, dtype=np.int64))
    return tuple(out)


def check_channel_dim(obj: Any, channel: Hashable | None, dim: Hashable) -> Hashable:
    """:func:`sftwave.xarray.wct_pairs`' channel dimension: ``channel``, else ``'channel'``, else
    the one dimension of ``obj`` besides ``dim``; other than ``dim``, of at least 2 channels, and
    ``obj`` without a ``'pair'`` dimension or coordinate yet (the result's pairs take it)."""
    if channel is None:
        others = [d for d in _dims_of(obj) if d != dim]
        if "channel" in others:
            channel = "channel"
        elif len(others) == 1:
            channel = others[0]
        else:
            raise ValueError(f"channel_dim must be given: the {_kind(obj)} has no 'channel' "
                             f"dimension and not one dimension besides dim={dim!r}; its "
                             f"dimensions are {_dims_of(obj)}")
    check_dim(obj, channel, "channel_dim")
    if channel == dim:
        raise ValueError(f"channel_dim {channel!r} must differ from dim={dim!r}")
    if obj.sizes[channel] < 2:
        raise ValueError(f"channel_dim {channel!r} has {obj.sizes[channel]} channel(s): pairs "
                         "need at least 2")
    if "pair" in obj.sizes or "pair" in obj.coords:
        raise ValueError(f"the {_kind(obj)} already has a 'pair' dimension or coordinate: rename "
                         "it first (the result's pairs are 'pair')")
    return channel
