"""The timed series of :mod:`sftwave_paper.timing`: per engine, the proposed method and its
truncated convolution, on the engine's array library and device.

torch, numba.cuda and array-api-compat are imported inside the functions, only
for the engines asked for.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .timed_kernels import (
    MODE,
    TRUNC_SIGMAS,
    XI,
    check_dtype,
    check_engines,
    proposed_plan,
    truncated_error,
    truncated_kernel,
)

__all__ = ["Series", "Unavailable", "available_series"]


class Unavailable(Exception):
    """An engine cannot run here; the message says why."""


@dataclass
class Series:
    """One timed curve: the proposed method or a truncated convolution on one engine.

    ``build(kernel, sigma, n)`` returns the function that is timed (input
    handle in, output handle out); ``put`` turns the numpy input into the
    handle (not timed), ``get`` an output back into numpy, ``sync`` waits for
    the device.
    """

    name: str
    label: str
    method: str  # 'proposed' | 'truncated'
    engine: str
    library: str
    device: str
    put: Callable[[np.ndarray], Any]
    get: Callable[[Any], np.ndarray]
    sync: Callable[[], None]
    build: Callable[[str, float, int], Callable[[Any], Any]]

    def describe(self) -> dict:
        return {"label": self.label, "method": self.method, "engine": self.engine,
                "library": self.library, "device": self.device}


def _noop() -> None:
    return None


def _needs_array_api_compat() -> None:
    if importlib.util.find_spec("array_api_compat") is None:
        raise Unavailable("array-api-compat is not installed (pip install 'sftwave[xp]')")


def _import_torch():
    if importlib.util.find_spec("torch") is None:
        raise Unavailable("torch is not installed (pip install 'sftwave[torch]')")
    import torch

    return torch


# numpy: the 'numba' and 'xp' engines, and scipy.ndimage.correlate1d


def _numpy_proposed(engine: str, xi: float) -> Callable:
    from sftwave import gaussian_filter1d, morlet_transform

    bank_method = "iir1" if engine == "numba" else "integral"

    def build(kernel: str, sigma: float, n: int):
        tol = truncated_error(kernel, sigma, xi)
        if kernel == "gaussian":
            return lambda x: gaussian_filter1d(x, sigma, mode=MODE, truncate=TRUNC_SIGMAS,
                                               method="bank", bank_method=bank_method,
                                               transform="sft", tol=tol, engine=engine)
        return lambda x: morlet_transform(x, sigma, xi=xi, method="direct", transform="sft",
                                          mode=MODE, tol=tol, bank_method=bank_method,
                                          engine=engine)

    return build


def _scipy_truncated(xi: float) -> Callable:
    from scipy.ndimage import correlate1d

    def build(kernel: str, sigma: float, n: int):
        h = truncated_kernel(kernel, sigma, xi)[::-1]  # convolution = correlation with h reversed
        if kernel == "gaussian":
            w = np.ascontiguousarray(h)
            return lambda x: correlate1d(x, w, mode=MODE)
        wr, wi = np.ascontiguousarray(h.real), np.ascontiguousarray(h.imag)

        def run(x):
            y = np.empty(x.shape, dtype=np.result_type(x.dtype, np.complex64))
            y.real = correlate1d(x, wr, mode=MODE)
            y.imag = correlate1d(x, wi, mode=MODE)
            return y

        return run

    return build


# torch: the 'xp' engine and conv1d


def _torch_series(device: str, xi: float, dtype: np.dtype) -> tuple[Series, Series]:
    _needs_array_api_compat()
    torch = _import_torch()
    if device == "cuda" and not torch.cuda.is_available():
        raise Unavailable("no CUDA GPU for torch (torch.cuda.is_available() is False)")
    tdtype = getattr(torch, dtype.name)
    dev = torch.device(device)
    sync = torch.cuda.synchronize if device == "cuda" else _noop

    def put(x):
        return torch.as_tensor(np.ascontiguousarray(x), dtype=tdtype, device=dev)

    def get(y):
        return y.detach().cpu().numpy()

    from sftwave import gaussian_filter1d, morlet_transform

    def build_proposed(kernel: str, sigma: float, n: int):
        tol = truncated_error(kernel, sigma, xi)
        if kernel == "gaussian":
            return lambda x: gaussian_filter1d(x, sigma, mode=MODE, truncate=TRUNC_SIGMAS,
                                               method="bank", transform="sft", tol=tol,
                                               engine="xp")
        return lambda x: morlet_transform(x, sigma, xi=xi, method="direct", transform="sft",
                                          mode=MODE, tol=tol, engine="xp")

    def build_truncated(kernel: str, sigma: float, n: int):
        import torch.nn.functional as F

        h = truncated_kernel(kernel, sigma, xi)
        r = h.size // 2
        idx = torch.as_tensor(_reflect_index(n, r), device=dev)
        rows = [h.real[::-1]] if kernel == "gaussian" else [h.real[::-1], h.imag[::-1]]
        w = torch.as_tensor(np.stack(rows)[:, None, :].copy(), dtype=tdtype, device=dev)

        def run(x):
            with torch.no_grad():
                y = F.conv1d(x[idx].reshape(1, 1, -1), w)[0]  # (channels, n)
            return y[0] if kernel == "gaussian" else torch.complex(y[0], y[1])

        return run

    where = "CPU" if device == "cpu" else "CUDA"
    group = f"xp-torch-{device}"
    dname = device if device == "cpu" else torch.cuda.get_device_name(0)
    proposed = Series(f"sft-{group}", f"SFT, engine 'xp', torch {where}", "proposed", group,
                      "torch", dname, put, get, sync, build_proposed)
    truncated = Series(f"trunc-torch-{device}", f"truncated, torch conv1d {where}", "truncated",
                       group, "torch", dname, put, get, sync, build_truncated)
    return proposed, truncated


def _reflect_index(n: int, r: int) -> np.ndarray:
    """Indices of ``x`` read at positions ``-r .. n - 1 + r`` under scipy's ``'reflect'``."""
    k = np.mod(np.arange(-r, n + r, dtype=np.int64), 2 * n)
    return np.where(k >= n, 2 * n - 1 - k, k)


# numba-cuda: the 'cuda' engine and a plain convolution kernel

_CUDA_CONV: dict[str, Any] = {}
cuda: Any = None  # numba.cuda, bound by _cuda_conv_kernels (never at import time)


def _cuda_conv_kernels():
    """(extend, conv_real, conv_complex): plain CUDA kernels, compiled on first use."""
    global cuda  # a module global: the CUDA simulator replaces it inside the kernels
    if not _CUDA_CONV:
        from numba import cuda as _cuda

        cuda = _cuda

        @cuda.jit
        def extend(x, r, xe):  # xe[m] = x at position m - r, scipy's 'reflect'
            m = cuda.grid(1)
            if m < xe.shape[0]:
                n = x.shape[0]
                k = (m - r) % (2 * n)
                if k >= n:
                    k = 2 * n - 1 - k
                xe[m] = x[k]

        @cuda.jit
        def conv_real(xe, w, y):  # y[i] = sum_j w[j] xe[i + j]  (w: the kernel reversed)
            i = cuda.grid(1)
            if i < y.shape[0]:
                acc = xe[0] - xe[0]  # zero of the input's dtype
                for j in range(w.shape[0]):
                    acc += w[j] * xe[i + j]
                y[i] = acc

        @cuda.jit
        def conv_complex(xe, wr, wi, y):
            i = cuda.grid(1)
            if i < y.shape[0]:
                ar = xe[0] - xe[0]
                ai = xe[0] - xe[0]
                for j in range(wr.shape[0]):
                    v = xe[i + j]
                    ar += wr[j] * v
                    ai += wi[j] * v
                y[i] = complex(ar, ai)

        _CUDA_CONV.update(extend=extend, conv_real=conv_real, conv_complex=conv_complex)
    return _CUDA_CONV["extend"], _CUDA_CONV["conv_real"], _CUDA_CONV["conv_complex"]


def _cuda_series(xi: float, dtype: np.dtype, explicit: bool) -> tuple[Series, Series]:
    if importlib.util.find_spec("numba_cuda") is None:
        raise Unavailable("numba-cuda is not installed (pip install 'sftwave[cuda]')")
    simulator = os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")
    if simulator and not explicit:
        raise Unavailable("the CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1): its timings mean "
                          "nothing; name engine 'cuda' explicitly to run it anyway")
    from sftwave import apply_plan
    from sftwave.engines import available

    if not available("cuda"):
        raise Unavailable("numba-cuda found no usable CUDA GPU")
    from numba import cuda

    cdtype = np.result_type(dtype, np.complex64)
    tpb = 256

    def put(x):
        return cuda.to_device(np.ascontiguousarray(x, dtype=dtype))

    def get(y):
        return y.copy_to_host()

    def build_proposed(kernel: str, sigma: float, n: int):
        plan = proposed_plan(kernel, sigma, n, xi)
        return lambda x: apply_plan(x, plan, engine="cuda", mode=MODE)

    def build_truncated(kernel: str, sigma: float, n: int):
        extend, conv_real, conv_complex = _cuda_conv_kernels()
        h = truncated_kernel(kernel, sigma, xi)[::-1]
        r = h.size // 2
        wr = cuda.to_device(np.ascontiguousarray(h.real, dtype=dtype))
        wi = cuda.to_device(np.ascontiguousarray(h.imag, dtype=dtype)) if kernel == "morlet" else None
        ext_blocks = -(-(n + 2 * r) // tpb)
        blocks = -(-n // tpb)

        def run(x):
            xe = cuda.device_array(n + 2 * r, dtype=dtype)
            extend[ext_blocks, tpb](x, r, xe)
            if kernel == "gaussian":
                y = cuda.device_array(n, dtype=dtype)
                conv_real[blocks, tpb](xe, wr, y)
            else:
                y = cuda.device_array(n, dtype=cdtype)
                conv_complex[blocks, tpb](xe, wr, wi, y)
            return y

        return run

    dname = getattr(cuda.get_current_device(), "name", "CUDA device")  # the simulator's has none
    dname = dname.decode() if isinstance(dname, bytes) else str(dname)
    if simulator:
        dname = f"{dname} (numba-cuda simulator)"
    proposed = Series("sft-cuda", "SFT, engine 'cuda' (Algorithms 2-3)", "proposed", "cuda",
                      "numba-cuda", dname, put, get, cuda.synchronize, build_proposed)
    truncated = Series("trunc-cuda", "truncated, plain CUDA kernel", "truncated", "cuda",
                       "numba-cuda", dname, put, get, cuda.synchronize, build_truncated)
    return proposed, truncated


def available_series(engines: Sequence[str] | str | None = None, *, xi: float = XI,
                     dtype: Any = np.float32) -> tuple[list[Series], dict[str, str]]:
    """The series that can run here for ``engines``, and ``{engine: reason}`` for those skipped.

    ``engines`` defaults to all of :data:`ENGINES`.  The engines ``'numba'``
    and ``'xp-numpy'`` share the scipy truncated convolution.  The CUDA
    simulator counts as a GPU only where ``engines`` names ``'cuda'``.

    Examples
    --------
    >>> series, skipped = available_series("numba")
    >>> [s.name for s in series], skipped
    (['sft-numba', 'trunc-scipy'], {})
    """
    explicit = engines is not None
    engines = check_engines(engines)
    dtype = check_dtype(dtype)
    series: list[Series] = []
    skipped: dict[str, str] = {}

    def numpy_put(x):
        return np.ascontiguousarray(x, dtype=dtype)

    for engine in engines:
        try:
            if engine in ("numba", "xp-numpy"):
                eng = "numba" if engine == "numba" else "xp"
                if eng == "xp":
                    _needs_array_api_compat()
                label = ("SFT, engine 'numba' (CPU bank, iir1)" if eng == "numba"
                         else "SFT, engine 'xp', numpy (Algorithm 1)")
                series.append(Series(f"sft-{engine}", label, "proposed", engine, "numpy", "cpu",
                                     numpy_put, np.asarray, _noop, _numpy_proposed(eng, xi)))
                if not any(s.name == "trunc-scipy" for s in series):
                    series.append(Series("trunc-scipy", "truncated, scipy.ndimage.correlate1d",
                                         "truncated", "numba/xp-numpy", "numpy", "cpu", numpy_put, np.asarray,
                                         _noop, _scipy_truncated(xi)))
            elif engine in ("xp-torch-cpu", "xp-torch-cuda"):
                series.extend(_torch_series(engine.rsplit("-", 1)[1], xi, dtype))
            else:
                series.extend(_cuda_series(xi, dtype, explicit and "cuda" in engines))
        except Unavailable as exc:
            skipped[engine] = str(exc)
    return series, skipped
