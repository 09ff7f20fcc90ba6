r"""The ``'cuda'`` engine: the paper's GPU sliding sum (Algorithms 2-3) with numba-cuda.

The SFT by the kernel integral (paper eq. kernelInt) needs, for every order
``p``, the windowed sum of ``x_e[m] e^{i omega_p m}`` over the ``L`` samples of
each output's window; with it

.. math::

    S_p[n] = \sum_{j=0}^{L-1} e^{-i\omega_p j} x_e[n + L - 1 - j]
           = e^{-i\omega_p (n + L - 1)} \sum_{m=n}^{n+L-1} x_e[m] e^{i\omega_p m},

where ``x_e`` is the line extended by the boundary mode (``pad_before``
samples in front, as in ``sftwave.engines.numba.bank``).  The windowed sums are the
sliding sum ``h[n] = sum_{k<L} f[n + k]`` of the paper's section IV, computed
by the shared-memory kernel of Algorithms 2-3 (``sftwave.engines.cuda.kernels``):
``ceil(log8 L)`` stages of (16, 8)-thread blocks, each summing eight elements
along a column and rearranging, with the cosine and sine parts of all orders
in one thread.  Only ``L`` terms enter each output, so float32 data keep
their accuracy on long lines without the ASFT's attenuation; the phases
``omega_p m`` are reduced modulo ``2 pi`` in float64 from an exact split of
``omega_p / 2 pi`` (:func:`sftwave.engines.cuda.kernels.cycle_fraction`).

Two public functions, both taking a NumPy array (copied to the device and
back) or a device array (a numba device array, or a torch CUDA tensor / CuPy
array through ``__cuda_array_interface__``, returned as the same type):

* :func:`filter1d` runs an SFT plan (``plan.alpha == 0``) along one axis;
* :func:`sliding_sum` is the bare sliding sum.

``numba.cuda`` is imported inside the functions, never at import time.  With
no GPU, numba-cuda's simulator runs the same kernels on the CPU when
``NUMBA_ENABLE_CUDASIM=1`` is set before ``numba.cuda`` is first imported
(slow: for tests only).  The examples below need a GPU or the simulator, so
they are not run by the doctest pass; ``tests/engines/cuda/test_engine.py`` runs them
under the simulator.
"""

from __future__ import annotations

import importlib.util
import math
import numbers
import threading
import warnings
import weakref
from collections import OrderedDict
from typing import Any

import numpy as np

from ..._checks import check_axis, check_cval, check_mode
from ...plans.fit import SFTPlan
from .._boundary import MODE_CODES

__all__ = ["available", "filter1d", "sliding_sum", "stages", "padded_length", "release_workspace"]

#: Bytes of shared memory a block's tiles may take (two (16, 8) tiles per
#: channel).  48 KiB is the static limit of every CUDA GPU; 32 KiB leaves room
#: for a second block per multiprocessor.
SHARED_BYTES = 32 * 1024

#: Largest number of elements in one of the four stage buffers (lines are
#: processed in batches under it).
BUFFER_ELEMENTS = 1 << 25

#: The distribution that provides numba.cuda (NVIDIA's out-of-tree CUDA target).
_NUMBA_CUDA_PACKAGE = "numba_cuda"

#: Largest grid dimension y (lines, times channel chunks, per launch).
_GRID_Y = 65535

#: A thread keeps its last call's stage buffers for the next call of the same
#: shape when they take at most this many bytes (allocating them again costs
#: more than the kernels on short lines).
WORKSPACE_KEEP_BYTES = 256 << 20

#: How many plans' device constants (frequencies and coefficients) are kept.
CONSTANTS_KEPT = 64


# --------------------------------------------------------------------------- sizes


def stages(L: int) -> int:
    """Stages of Algorithm 2 for a window of ``L``: the number of octal digits of ``L``.

    Examples
    --------
    >>> [stages(L) for L in (1, 7, 8, 63, 64, 513)]
    [1, 1, 2, 2, 3, 4]
    """
    S = 1
    while L >= 8**S:
        S += 1
    return S


def padded_length(n: int, L: int) -> int:
    """Length of the stage buffers: the smallest multiple of ``8**stages(L)`` that is ``>= n``.

    The paper pads to ``N_8 = 8**x >= N``, which serves every ``L <= N``;
    stages ``0 .. S-1`` only need the length to be a multiple of ``8**S``
    (``8**S > L``), which wastes less memory (the paper's ``N_8`` can be
    ``8 N``).

    Examples
    --------
    >>> padded_length(100, 5), padded_length(100, 9), padded_length(100, 100)
    (104, 128, 512)
    """
    unit = 8 ** stages(L)
    return max(1, -(-n // unit)) * unit


# --------------------------------------------------------------------------- numba.cuda


def _restore_numpy_names() -> None:
    """Give numpy back ``row_stack`` (an alias of ``vstack``), which numpy 2.5 removed.

    numba-cuda 0.30.4 registers its device version of ``np.row_stack`` when
    it compiles its first kernel and fails with an AttributeError under
    numpy >= 2.5.  The alias it had until numpy 2.4 is restored, and only
    where it is missing.
    """
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # noqa: NPY201 (the alias numba-cuda needs)


def _cuda():
    """``numba.cuda``, or a clear error when it cannot run kernels here."""
    if importlib.util.find_spec(_NUMBA_CUDA_PACKAGE) is None:
        raise ImportError(
            "the 'cuda' engine needs the numba-cuda package: pip install numba-cuda "
            "(on a GPU machine, numba-cuda[cu12] or numba-cuda[cu13] to match the driver)"
        )
    _restore_numpy_names()
    from numba import cuda

    if not cuda.is_available():
        lines = str(cuda.cuda_error() or "").strip().splitlines()
        reason = f" ({lines[0]})" if lines else ""
        raise RuntimeError(
            f"the 'cuda' engine found no usable CUDA GPU{reason}; to run its kernels on the "
            "CPU simulator (slow, for tests), set NUMBA_ENABLE_CUDASIM=1 before numba.cuda "
            "is first imported"
        )
    return cuda


def available() -> bool:
    """Whether the ``'cuda'`` engine can run here (a GPU, or the simulator switched on).

    Imports ``numba.cuda`` if numba-cuda is installed.
    """
    try:
        _cuda()
    except (ImportError, RuntimeError):
        return False
    return True


# --------------------------------------------------------------------------- arrays


def is_device(x: Any) -> bool:
    return bool(getattr(x, "__cuda_ndarray__", False)) or hasattr(x, "__cuda_array_interface__")


def all_finite(x: Any) -> bool:
    """Whether a numba device array holds no NaN or infinity, by one pass on the device.

    A kernel raises a flag at the first element that is not finite (real or
    imaginary part); only the flag comes back to the host.
    """
    if np.dtype(x.dtype).kind not in "fc" or x.size == 0:
        return True
    cuda = _cuda()
    from . import kernels as ck

    flat = x.reshape(x.size) if x.is_c_contiguous() or x.is_f_contiguous() else (
        cuda.to_device(x.copy_to_host().ravel()))
    flag = _thread_flag(cuda)
    flag.copy_to_device(_ZERO_FLAG)
    tpb = ck.POINTWISE_THREADS
    ck.finite_flag()[min(-(-flat.size // tpb), 1024), tpb](flat, flag)
    return int(flag.copy_to_host()[0]) == 0


_ZERO_FLAG = np.zeros(1, dtype=np.int32)
_LOCAL = threading.local()


def _context(cuda) -> Any:
    """The current CUDA context (on the simulator, whose contexts are made anew on
    every call, the ``numba.cuda`` module stands for the one context)."""
    from numba import config

    return cuda if getattr(config, "ENABLE_CUDASIM", False) else cuda.current_context()


def _thread_flag(cuda):
    """This thread's one-element int32 device array, in the current context."""
    ctx = _context(cuda)
    kept = getattr(_LOCAL, "flag", None)
    if kept is None or kept[0]() is not ctx:
        kept = (weakref.ref(ctx), cuda.device_array(1, dtype=np.int32))
        _LOCAL.flag = kept
    return kept[1]


_CONSTANTS: OrderedDict = OrderedDict()
_CONSTANTS_LOCK = threading.Lock()


def _device_constants(cuda, arrays: tuple[np.ndarray, ...]) -> tuple:
    """Device copies of small constant arrays, kept per context for the next call.

    Keyed by the arrays' bytes, so a plan made again reuses them; at most
    :data:`CONSTANTS_KEPT` sets are kept, the least recently used leave first.
    """
    ctx = _context(cuda)
    key = (id(ctx),) + tuple((a.dtype.str, a.shape, a.tobytes()) for a in arrays)
    with _CONSTANTS_LOCK:
        hit = _CONSTANTS.get(key)
        if hit is not None and hit[0]() is ctx:
            _CONSTANTS.move_to_end(key)
            return hit[1]
    dev = tuple(cuda.to_device(a) for a in arrays)
    with _CONSTANTS_LOCK:
        _CONSTANTS[key] = (weakref.ref(ctx), dev)
        while len(_CONSTANTS) > CONSTANTS_KEPT:
            _CONSTANTS.popitem(last=False)
    return dev


def _workspace(cuda, shape: tuple, dtype: np.dtype, count: int) -> list:
    """``count`` device arrays of ``shape``: this thread's last ones when they match.

    Reuse is safe because every kernel of this module runs on the default
    stream in order: the next call's kernels start after the last call's end.
    """
    ctx = _context(cuda)
    key = (shape, dtype.str, count)
    kept = getattr(_LOCAL, "workspace", None)
    if kept is not None and kept[0]() is ctx and kept[1] == key:
        return kept[2]
    bufs = [cuda.device_array(shape, dtype=dtype) for _ in range(count)]
    size = count * math.prod(shape) * dtype.itemsize
    _LOCAL.workspace = (weakref.ref(ctx), key, bufs) if size <= WORKSPACE_KEEP_BYTES else None
    return bufs


def release_workspace() -> None:
    """Drop this thread's kept stage buffers and every kept plan constant."""
    _LOCAL.workspace = None
    _LOCAL.flag = None
    with _CONSTANTS_LOCK:
        _CONSTANTS.clear()


def library(x: Any) -> str:
    return type(x).__module__.split(".")[0]


def _work_dtype(dtype: Any, name: str) -> np.dtype:
    """float32 for single precision (float16/32, complex64), float64 otherwise (integers too)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return np.dtype(np.float32) if dt.itemsize <= 4 else np.dtype(np.float64)
    if dt.kind == "c":
        return np.dtype(np.float32) if dt.itemsize <= 8 else np.dtype(np.float64)
    if dt.kind in "iu":
        return np.dtype(np.float64)
    raise TypeError(f"{name} must have a numeric (integer, float or complex) dtype; got dtype {dt}")


def _device_view(cuda, x: Any, name: str):
    """A C-contiguous numba device array viewing the device array ``x``."""
    lib = library(x)
    if lib == "torch":
        x = x.detach()
        if not x.is_contiguous():
            x = x.contiguous()
    elif lib == "cupy" and not x.flags.c_contiguous:
        import cupy

        x = cupy.ascontiguousarray(x)
    if getattr(x, "__cuda_ndarray__", False):
        d = x
    else:
        if not hasattr(cuda, "as_cuda_array"):
            raise TypeError(
                f"{name}: numba-cuda's simulator cannot read {type(x).__name__} "
                "(__cuda_array_interface__); pass a NumPy array or a numba device array"
            )
        d = cuda.as_cuda_array(x)
    if not d.is_c_contiguous():
        raise ValueError(f"{name} must be C-contiguous on the device; got strides {d.strides}")
    return d


def _empty_like_input(cuda, x: Any, shape: tuple, dtype: np.dtype):
    """(result object of x's array type, numba view of it to write into)."""
    lib = library(x)
    if lib == "torch":
        import torch

        t = torch.empty(shape, dtype=getattr(torch, dtype.name), device=x.device)
        return t, cuda.as_cuda_array(t)
    if lib == "cupy":
        import cupy

        with x.device:
            a = cupy.empty(shape, dtype=dtype)
        return a, cuda.as_cuda_array(a)
    d = cuda.device_array(shape, dtype=dtype)
    return d, d


def _as_3d(shape: tuple, axis: int) -> tuple[int, int, int]:
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    return outer, int(shape[axis]), inner


# --------------------------------------------------------------------------- the run


def _chunking(nch: int, dtype: np.dtype) -> tuple[int, int]:
    """(channels per block, chunks): every thread handles all channels of its chunk."""
    cap = max(1, SHARED_BYTES // (2 * 16 * 8 * dtype.itemsize))
    chunk = min(nch, cap)
    return chunk, -(-nch // chunk)


def _run(cuda, x3, out3, *, n_out: int, L: int, pad_before: int, n_ext: int, mode: int,
         cval: float, part: int, wdt: np.dtype, plan: SFTPlan | None, out_kind: str) -> None:
    """Sliding sums of the (modulated) extended lines of ``x3``, combined into ``out3``.

    ``plan`` None: the bare sliding sum of the lines.  ``part`` 0 or 1: the
    real or the imaginary part of ``x3`` (and of the result's contribution:
    ``out_kind`` ``'set'`` writes the result, ``'add_i'`` adds ``1j`` times it).
    """
    from . import kernels as ck

    outer, n, inner = x3.shape
    lines = outer * inner
    S = stages(L)
    npad = padded_length(n_ext, L)
    if plan is None:  # the bare sliding sum: one channel
        nch = 1
        nu_hi = nu_lo = np.zeros(1)
    else:
        omegas = np.asarray(plan.omegas, dtype=np.float64)
        nch = 2 * omegas.size
        nu = omegas / (2.0 * math.pi)
        nu_hi = nu.astype(np.float32).astype(np.float64)
        nu_lo = nu - nu_hi
        c = np.asarray(plan.coef)[0]
        coefs = [np.ascontiguousarray(v, dtype=wdt)
                 for v in (np.real(c[0]), np.real(c[1]), np.imag(c[0]), np.imag(c[1]))]
    chunk, nchunks = _chunking(nch, wdt)
    k = ck.kernels(chunk, wdt.name)
    consts = _device_constants(cuda, (nu_hi, nu_lo) if plan is None else (nu_hi, nu_lo, *coefs))
    d_nu_hi, d_nu_lo = consts[:2]
    if plan is None:
        output = k.sum_add_i if out_kind == "add_i" else k.sum_set

        def output_args(h, line0, R):
            return (h, line0, inner, n_out, S, R, out3)
    else:
        output = {"real": k.sft_real, "complex": k.sft_complex, "add_i": k.sft_add_i}[out_kind]
        d_coefs = consts[2:]

        def output_args(h, line0, R):
            return (h, line0, inner, n_out, L, S, R, d_nu_hi, d_nu_lo, *d_coefs, out3)

    batch = max(1, min(lines, _GRID_Y // nchunks, BUFFER_ELEMENTS // (nch * npad)))
    shape = (batch, nch, npad)
    bufs = _workspace(cuda, shape, wdt, 4 if S > 1 else 2)
    g1, h2 = bufs[0], bufs[1]
    g2, h1 = (bufs[2], bufs[3]) if S > 1 else (h2, h2)
    tpb = ck.POINTWISE_THREADS
    stage_blocks = -(-npad // 64)  # eight groups of eight rows per block
    with warnings.catch_warnings():
        # short lines make small grids, which numba-cuda flags as low occupancy
        warnings.filterwarnings("ignore", message="Grid size", category=Warning)
        for line0 in range(0, lines, batch):
            nb = min(batch, lines - line0)
            k.modulate[(-(-npad // tpb), nb), tpb](
                x3, line0, inner, n, pad_before, n_ext, mode, cval, part, d_nu_hi, d_nu_lo,
                plan is None, g1)
            gi, hi, go, ho = g1, h1, g2, h2
            R = npad
            for s in range(S):
                k.stage[(stage_blocks, nb * nchunks), (ck.TILE_X, ck.TILE_Y)](
                    gi, hi, go, ho, R, L >> (3 * s), s == 0, s < S - 1, nch, nchunks)
                gi, hi, go, ho = go, ho, gi, hi
                R //= 8
            output[(-(-n_out // tpb), nb), tpb](*output_args(hi, line0, R))


def _prepare(x: Any, name: str):
    """(cuda or None, array, on device, shape, work dtype, complex input) for an input array."""
    if is_device(x):
        cuda = _cuda()
        d = _device_view(cuda, x, name)
        dt = np.dtype(d.dtype)
        return cuda, d, True, tuple(d.shape), _work_dtype(dt, name), dt.kind == "c"
    arr = np.asarray(x)
    if arr.dtype == np.bool_ or arr.dtype.kind not in "uifc":
        raise TypeError(f"{name} must have a numeric (integer, float or complex) dtype; "
                        f"got dtype {arr.dtype}")
    return None, arr, False, arr.shape, _work_dtype(arr.dtype, name), arr.dtype.kind == "c"


def _complex_of(wdt: np.dtype) -> np.dtype:
    return np.dtype(np.complex64 if wdt == np.float32 else np.complex128)


def _io(cuda, x, src, on_device: bool, shape: tuple, axis: int, out_shape: tuple,
        out_dtype: np.dtype, wdt: np.dtype, complex_in: bool):
    """(result, x3, out3): 3-D (outer, n, inner) device views of the input and the output."""
    outer, n, inner = _as_3d(shape, axis)
    n_out = out_shape[axis]
    if on_device:
        result, out_view = _empty_like_input(cuda, x, out_shape, out_dtype)
        return result, src.reshape(outer, n, inner), out_view.reshape(outer, n_out, inner)
    host = np.ascontiguousarray(src, dtype=_complex_of(wdt) if complex_in else wdt)
    x3 = cuda.to_device(host.reshape(outer, n, inner))
    return None, x3, cuda.device_array((outer, n_out, inner), dtype=out_dtype)


def _check_plan(plan: Any) -> None:
    if not isinstance(plan, SFTPlan):
        raise TypeError(f"plan must be a sftwave.plans.SFTPlan; got {type(plan).__name__}")
    if plan.alpha != 0:
        raise ValueError(
            "the 'cuda' engine computes the SFT by the kernel integral and needs an SFT plan "
            f"(alpha == 0, transform='sft'); got alpha={plan.alpha!r}"
        )
    if plan.coef.shape[0] != 1:
        raise ValueError(f"plan must have one output; got {plan.coef.shape[0]}")


def filter1d(x: Any, plan: SFTPlan, *, axis: int = -1, mode: str = "reflect",
             cval: float | complex = 0.0) -> Any:
    """Filter ``x`` along ``axis`` with an SFT ``plan`` on the GPU.

    Parameters
    ----------
    x : array_like or device array
        A NumPy array (copied to the device and back), a numba device array,
        or a torch CUDA tensor / CuPy array (returned as the same type, on
        the same device).  Integer, float or complex: the real and imaginary
        parts of complex input are filtered separately.  Single precision
        (float16, float32, complex64) is computed in float32 and returned as
        float32 (complex64 for complex results); everything else in float64.
    plan : SFTPlan
        An SFT plan (``plan.alpha == 0``) with one output, e.g. from
        ``gaussian_plan(..., transform='sft')`` or
        ``morlet_plan(..., transform='sft')``.  A real plan on real input
        gives a real result; a complex plan (Morlet) or complex input a
        complex one.
    axis : int, optional
        Axis of ``x`` to filter.  Default -1.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap', 'grid-constant', 'grid-mirror', 'grid-wrap'}, optional
        Boundary extension, as scipy.ndimage defines it.  Default 'reflect'.
    cval : scalar, optional
        Value past the edges for ``mode='constant'`` (complex only for complex
        input: each part is extended with its part of ``cval``).  Default 0.0.

    Returns
    -------
    Array of ``x``'s shape and array type: ``y[n] = sum_k h[k] x[n - k]`` with
    the plan's kernel ``h``.

    Raises
    ------
    ImportError
        numba-cuda is not installed.
    RuntimeError
        No GPU, and the simulator is not switched on.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.plans.gaussian import gaussian_plan
    >>> from sftwave.engines.numba import bank
    >>> plan = gaussian_plan(3.0, 0, 1e-4, "sft")
    >>> x = np.random.default_rng(0).standard_normal(50)
    >>> y = filter1d(x, plan)                                   # doctest: +SKIP
    >>> ref = bank.apply(plan, x[None], np.empty((1, 50, 1)), mode="reflect",
    ...                  cval=0.0, method="iir1")[0, :, 0]
    >>> bool(np.allclose(y, ref, rtol=0, atol=1e-12))           # doctest: +SKIP
    True
    """
    _check_plan(plan)
    mode = check_mode(mode)
    cuda, src, on_device, shape, wdt, complex_in = _prepare(x, "x")
    cval = check_cval(cval, complex_ok=complex_in)
    if len(shape) == 0:
        raise ValueError("x must have at least one dimension; got a 0-d array")
    axis = check_axis(axis, len(shape))
    complex_out = complex_in or np.iscomplexobj(plan.coef)
    out_dtype = _complex_of(wdt) if complex_out else wdt
    if cuda is None:
        cuda = _cuda()
    if math.prod(shape) == 0:
        return _empty_like_input(cuda, x, shape, out_dtype)[0] if on_device else \
            np.empty(shape, dtype=out_dtype)
    result, x3, out3 = _io(cuda, x, src, on_device, shape, axis, shape, out_dtype, wdt, complex_in)
    L = int(plan.length)
    n = shape[axis]
    passes = [(0, complex(cval).real, "complex" if complex_out else "real")]
    if complex_in:
        passes.append((1, complex(cval).imag, "add_i"))
    for part, cv, kind in passes:
        _run(cuda, x3, out3, n_out=n, L=L, pad_before=int(plan.pad_before), n_ext=n + L - 1,
             mode=MODE_CODES[mode], cval=float(cv), part=part, wdt=wdt, plan=plan, out_kind=kind)
    if on_device:
        return result
    return out3.copy_to_host().reshape(shape)


def sliding_sum(f: Any, L: int, *, axis: int = -1) -> Any:
    """The sliding sum ``h[n] = sum_{k<L} f[n + k]`` along ``axis``, on the GPU.

    For ``n = 0 .. N - L`` (``N = f.shape[axis]``): the result has
    ``max(N - L + 1, 0)`` entries along ``axis``, as a "valid" correlation
    (and as :func:`sftwave.engines.array_api.sliding.sliding_sum`, Algorithm 1, has).  Computed
    by Algorithms 2-3 in float32 for single-precision input and in float64
    otherwise; the result is float32/float64 (complex64/complex128 for
    complex input; integers give float64).  ``f`` may be a NumPy array or a
    device array (returned as the same type).

    Examples
    --------
    >>> import numpy as np
    >>> sliding_sum(np.arange(6.0), 3)                          # doctest: +SKIP
    array([ 3.,  6.,  9., 12.])
    """
    if isinstance(L, (bool, np.bool_)) or not isinstance(L, numbers.Integral):
        raise TypeError(f"L must be an integer; got {L!r}")
    if L < 1:
        raise ValueError(f"L must be at least 1; got {L!r}")
    cuda, src, on_device, shape, wdt, complex_in = _prepare(f, "f")
    if len(shape) == 0:
        raise ValueError("f must have at least one dimension; got a 0-d array")
    axis = check_axis(axis, len(shape))
    out_dtype = _complex_of(wdt) if complex_in else wdt
    if cuda is None:
        cuda = _cuda()
    n = shape[axis]
    L = int(L)
    out_shape = shape[:axis] + (max(n - L + 1, 0),) + shape[axis + 1:]
    if math.prod(out_shape) == 0:
        return _empty_like_input(cuda, f, out_shape, out_dtype)[0] if on_device else \
            np.empty(out_shape, dtype=out_dtype)
    result, x3, out3 = _io(cuda, f, src, on_device, shape, axis, out_shape, out_dtype, wdt,
                           complex_in)
    for part in (0, 1) if complex_in else (0,):
        _run(cuda, x3, out3, n_out=n - L + 1, L=L, pad_before=0, n_ext=n,
             mode=MODE_CODES["constant"], cval=0.0, part=part, wdt=wdt, plan=None,
             out_kind="add_i" if part else "set")
    if on_device:
        return result
    return out3.copy_to_host().reshape(out_shape)
