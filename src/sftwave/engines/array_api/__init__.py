"""The array-API engine (``engine='xp'``): numpy, torch on any device, CuPy; differentiable.

``filters``
    The SFT by the kernel integral on the sliding sum (``filter1d``), and
    truncated kernels (``fir1d``), in array-API code.
``sliding``
    The sliding sum of the paper's Algorithm 1.

This engine does not import numba.
"""

from __future__ import annotations

from typing import Any

from ..._checks import check_input_array
from ...plans.fit import FIRPlan, SFTPlan
from . import filters

__all__ = ["ENGINE", "ArrayAPIEngine", "OPERATIONS"]

#: The engine's operations beyond ``filter`` and ``scalogram``, for
#: :func:`sftwave.engines.operation`: name -> (module relative to this package,
#: function).  Imported on first use; each group belongs to one family.
OPERATIONS: dict[str, tuple[str, str]] = {
    # features (sftwave.feature)
    "feature_as_float": (".features", "as_float"),
    "ridge_float": (".features", "ridge_float"),
    "feature_gradient": (".features", "gradient"),
    "structure_products": (".features", "structure_products"),
    "symmetric_eigenvalues": (".features", "symmetric_eigenvalues"),
    "ridge_accumulator": (".features", "ridge_accumulator"),
    "ridge_result": (".features", "ridge_result"),
    "frangi_scale": (".features", "frangi_scale"),
    "sato_scale": (".features", "sato_scale"),
    "meijering_scale": (".features", "meijering_scale"),
    "meijering_response": (".features", "meijering_response"),
    # ndimage (sftwave.ndimage)
}


class ArrayAPIEngine:
    """The engine protocol (:mod:`sftwave.engines`) in array-API code, plan by plan, axis by axis."""

    name = "xp"

    def _filter1d(self, x: Any, plan: SFTPlan, axis: int, mode: str, cval) -> Any:
        return filters.filter1d(x, plan, axis=axis, mode=mode, cval=cval)

    def _apply(self, x: Any, plan, axis: int, mode: str, cval) -> Any:
        if isinstance(plan, SFTPlan):
            return self._filter1d(x, plan, axis, mode, cval)
        if isinstance(plan, FIRPlan):
            return filters.fir1d(x, plan.kernel, axis=axis, mode=mode, cval=cval)
        raise TypeError(f"the {self.name!r} engine runs SFTPlan and FIRPlan; got {type(plan).__name__}")

    def asarray(self, x: Any, name: str) -> Any:
        """``x`` as an array-API array (non-arrays through numpy), of a numeric dtype."""
        from array_api_compat import array_namespace, is_array_api_obj

        if not is_array_api_obj(x):
            x = check_input_array(x, name)
        xp = array_namespace(x)
        if not xp.isdtype(x.dtype, ("integral", "real floating", "complex floating")):
            raise TypeError(
                f"{name} must have a numeric (integer, float or complex) dtype; got dtype {x.dtype}")
        return x

    def is_complex(self, x: Any) -> bool:
        return bool(filters.namespace(x).isdtype(x.dtype, "complex floating"))

    def is_single(self, x: Any) -> bool:
        xp = filters.namespace(x)
        return filters.dtypes(xp, x.dtype)[2] == xp.complex64

    def all_finite(self, x: Any) -> bool:
        xp = filters.namespace(x)
        if not xp.isdtype(x.dtype, ("real floating", "complex floating")):
            return True
        return bool(xp.all(xp.isfinite(x)))

    def fir_taps_per_order(self) -> None:
        return None

    def bank_method(self, bank_method: str, lanes: int) -> str:
        return "integral"

    def transform(self, transform: str, **_: Any) -> str:
        return "sft"

    def filter(self, x: Any, steps, *, cval, output=None, bank_method: str = "auto") -> Any:
        if not steps:
            xp = filters.namespace(x)
            _, real_out, complex_out = filters.dtypes(xp, x.dtype)
            return xp.astype(x, complex_out if self.is_complex(x) else real_out, copy=True)
        for axis, plan, mode in steps:
            x = self._apply(x, plan, axis, mode, cval)
        return x

    def scalogram(self, x: Any, plans, *, axis: int, mode: str, cval, kind: str, decim: int,
                  **_: Any) -> Any:
        xp = filters.namespace(x)
        moved = xp.moveaxis(x, axis, -1)
        last = len(moved.shape) - 1
        rows = [_kind(xp, self._apply(moved, plan, last, mode, cval)[..., ::decim], kind)
                for plan in plans]
        return xp.stack(rows, axis=-2)


def _kind(xp, y, kind: str):
    if kind == "complex":
        return y
    re, im = xp.real(y), xp.imag(y)
    if kind == "power":
        return re * re + im * im
    if kind == "abs":
        return xp.abs(y)
    return xp.atan2(im, re)


ENGINE = ArrayAPIEngine()
