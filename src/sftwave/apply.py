"""Run a plan you hold: ``apply_plan(x, plan)`` on any engine.

The public functions select their plans themselves (:mod:`sftwave.plans`);
this is for a plan designed once and run many times, or one studied on its
own (the paper's timing experiment runs the CUDA kernel this way on device
arrays).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import engines
from ._checks import check_axis, check_cval, check_mode, scalogram_dtype
from ._checks.ndimage import Array
from ._checks.wavelets import check_plan, check_plan_engine
from ._docs import docfiller
from .engines import nonfinite
from .plans import FFTPlan, FIRPlan, SFTPlan, WidePlan

__all__ = ["apply_plan"]


@docfiller
def apply_plan(x: Any, plan: SFTPlan | FIRPlan | WidePlan | FFTPlan, *, axis: int = -1,
               mode: str = "reflect", cval: float | complex = 0.0, engine: str | None = None) -> Array:
    """Filter ``x`` along ``axis`` with ``plan``: ``y[n] = sum_k h[k] x[n - k]``, ``h`` the plan's kernel.

    Parameters
    ----------
    x : array_like
        The input (for ``engine='cuda'`` also a device array, returned as one).
    plan : SFTPlan, FIRPlan, WidePlan or FFTPlan
        From :func:`sftwave.plans.select_gaussian`, :func:`sftwave.plans.select_morlet`
        or a design function of :mod:`sftwave.plans` (an ``FFTPlan`` on the
        CPU engine only).
    axis : int, optional
        The axis to filter.  Default -1.
    %(mode)s
    %(cval)s
    %(engine)s

    Returns
    -------
    array
        Real for a real plan on real input (the input's floating dtype), else complex.

    See Also
    --------
    sftwave.plans.select_gaussian : A Gaussian plan.
    sftwave.plans.select_morlet : A Morlet plan.
    sftwave.engines.get : The engine that runs it.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.plans import select_gaussian
    >>> y = apply_plan(np.ones(50), select_gaussian(8.0, 0, method="bank"))
    >>> bool(np.allclose(y, 1.0))
    True
    """
    check_plan(plan, (SFTPlan, FIRPlan, WidePlan, FFTPlan))
    name = engines.resolve_engine(engine, x)
    # the engines whose scalogram takes dtype= (the CPU engine's) run FFT plans and complex
    # kernels as a one-row scalogram; the others filter complex kernels themselves
    scalogram_rows = engines.CAPABILITIES[name].dtype
    check_plan_engine(isinstance(plan, FFTPlan), name, scalogram_rows)
    eng = engines.get(name)
    arr = eng.asarray(x, "x")
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=eng.is_complex(arr))
    axis = check_axis(axis, len(arr.shape))
    if scalogram_rows and (isinstance(plan, FFTPlan) or (
            isinstance(plan, (SFTPlan, FIRPlan)) and _complex_kernel(plan))):
        # a wavelet: the CPU engine runs complex kernels as a one-row scalogram
        lines = math.prod(int(d) for i, d in enumerate(arr.shape) if i != axis)
        y = nonfinite.scalogram_confined(
            eng, arr, [plan], axis=axis, mode=mode, cval=cval, kind="complex", decim=1,
            dtype=scalogram_dtype(None, eng.is_single(arr), "complex"), out=None, workers=None,
            bank_method=eng.bank_method("auto", lines), tol=1.0)
        return np.moveaxis(y[..., 0, :], -1, axis)
    return nonfinite.filter_confined(eng, arr, [(axis, plan, mode)], cval=cval)


def _complex_kernel(plan: SFTPlan | FIRPlan) -> bool:
    return bool(np.iscomplexobj(plan.coef if isinstance(plan, SFTPlan) else plan.kernel))
