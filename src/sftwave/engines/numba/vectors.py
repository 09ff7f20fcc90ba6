"""Explicit SIMD vectors for the numba kernels: 16 lanes of float32 or float64 as one value.

numba vectorises a loop over side-by-side lanes, but the state of a loop that
runs over *time* with the lanes inside it lives in arrays, which LLVM keeps in
memory: every step reloads and stores it (the lane kernel ran about 2.6 cycles
per component update for about 0.7 of arithmetic).  A :class:`LaneVector` is an
LLVM vector value (``<16 x float>`` or ``<16 x double>``, two AVX-512 or four
AVX2 registers for doubles), so a kernel's local variables of this type stay in
registers across the loop, like any scalar.

The operations are numba intrinsics, usable only inside jitted code:
:func:`load16` and :func:`store16` (16 consecutive elements of a 1-D
contiguous array, from a start index; not bounds-checked, so callers index
only their own buffers of known size), :func:`splat16` (one float in every
lane: a value LLVM knows is the same in all of them, so that it keeps one
register of it, or broadcasts it from memory), and the element-wise :func:`fma`
(``a * b + c``, one rounding), :func:`fnma` (``c - a * b``), :func:`fms`
(``a * b - c``), :func:`mul`, :func:`div` and :func:`sqrt` (IEEE's, rounded
once: the same bits as a scalar loop's).  Results of :func:`fma` and its kin are rounded
once, where ``a * b + c`` in numba's scalar code is rounded twice: results
differ from a scalar loop's in the last bits.

Two transposing copies move 4 x 4 blocks between strided lanes and a lane
buffer: :func:`transpose4` (``dst[di + k ds + r] = src[si + r ss + k] - c``)
and :func:`transpose4_diff` (``src[si + r ss + k] - src[si + r ss + k - lag]``),
each four 4-element loads, eight shuffles and four 4-element stores instead
of 16 scalar loads and stores.  ``src`` and ``dst`` may differ in dtype
(float32 and float64): the values are converted as a scalar assignment
converts them, so the copies give the same bits as the scalar loops.

The intrinsics reach into numba's and llvmlite's code generation (array
structs, ``IRBuilder`` calls, the data model), which a release may change.
They are probed: :data:`AVAILABLE` when the module loads (the imports and
registrations), :func:`usable` at the first use (a small kernel compiled and
checked, once per process).  Where either fails, or
``SFTWAVE_DISABLE_NUMBA_INTERNALS=1`` is set, the lane engine runs its plain
kernel (:func:`~sftwave.engines.numba.lane_kernels.run_lanes`) instead and
warns once (:func:`~sftwave.engines.numba._jit.warn_fast_path_off`).

numba's disk cache keys a kernel on its own source file: after a change here,
clear the caches of the kernels that use these (``__pycache__/*.nbi``,
``*.nbc`` of ``lane_kernels``), or they keep the old code.

Examples
--------
>>> import numpy as np
>>> from numba import njit
>>> @njit
... def axpy(a, x, y, out):
...     for i in range(0, x.size, 16):
...         store16(out, i, fma(splat16(a), load16(x, i), load16(y, i)))
>>> x = np.arange(32.0); out = np.empty(32)
>>> axpy(2.0, x, np.ones(32), out)
>>> bool(np.all(out == 2 * x + 1))
True
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
from numba import types

from ._jit import DISABLE_ENV, internals_disabled, kernel

__all__ = ["LaneVector", "WIDTH", "load16", "store16", "splat16", "fma", "fnma", "fms", "mul", "div", "sqrt",
           "transpose4", "transpose4_diff", "AVAILABLE", "REASON", "usable"]

#: Lanes in one vector.
WIDTH = 16

#: Why the vectors are unavailable (None while they are, see :func:`usable`).
REASON: str | None = f"{DISABLE_ENV} is set" if internals_disabled() else None

if REASON is None:
    try:
        from llvmlite import ir
        from numba.extending import intrinsic, models, register_model
    except Exception as exc:  # a release without these: the plain kernels, never an error
        REASON = f"numba's extension API changed ({type(exc).__name__}: {exc})"


class LaneVector(types.Type):
    """numba type of 16 lanes of ``dtype`` held as one LLVM vector."""

    def __init__(self, dtype: types.Float):
        self.dtype = dtype
        super().__init__(name=f"LaneVector({dtype})")


def _unavailable(*args):
    raise RuntimeError(f"sftwave's explicit vectors are unavailable: {REASON}")


def _intrinsic(func):
    """``numba.extending.intrinsic(func)``, or a stub (recording why) where it cannot be made."""
    global REASON
    if REASON is None:
        try:
            return intrinsic(func)
        except Exception as exc:
            REASON = f"numba's @intrinsic failed ({type(exc).__name__}: {exc})"
    return _unavailable


if REASON is None:
    try:
        @register_model(LaneVector)
        class _LaneVectorModel(models.PrimitiveModel):
            def __init__(self, dmm, fe_type):
                element = dmm.lookup(fe_type.dtype).get_value_type()
                super().__init__(dmm, fe_type, ir.VectorType(element, WIDTH))
    except Exception as exc:
        REASON = f"numba's data model API changed ({type(exc).__name__}: {exc})"


def _element_pointer(context, builder, arrty, array, index):
    """Pointer to ``array[index]`` (1-D contiguous) as a pointer to a vector."""
    ary = context.make_array(arrty)(context, builder, array)
    ptr = builder.gep(ary.data, [index])
    vector = ir.VectorType(context.get_value_type(arrty.dtype), WIDTH)
    return builder.bitcast(ptr, vector.as_pointer())


def _fma(builder, a, b, c):
    """The LLVM intrinsic ``llvm.fma`` on vectors (llvmlite's ``IRBuilder.fma`` takes scalars only)."""
    vt = a.type
    name = f"llvm.fma.v{vt.count}{vt.element.intrinsic_name}"
    fn = builder.module.globals.get(name)
    if fn is None:
        fn = ir.Function(builder.module, ir.FunctionType(vt, [vt, vt, vt]), name=name)
    return builder.call(fn, [a, b, c])


def _is_float_vector_array(arr) -> bool:
    return (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"
            and isinstance(arr.dtype, types.Float))


@_intrinsic
def load16(typingctx, arr, index):
    """``arr[index:index + 16]`` as a :class:`LaneVector` (``arr`` 1-D, C-contiguous)."""
    if not (_is_float_vector_array(arr) and isinstance(index, types.Integer)):
        return None
    vt = LaneVector(arr.dtype)

    def codegen(context, builder, sig, args):
        ptr = _element_pointer(context, builder, sig.args[0], args[0], args[1])
        return builder.load(ptr, align=context.get_abi_sizeof(
            context.get_value_type(sig.args[0].dtype)))

    return vt(arr, index), codegen


@_intrinsic
def store16(typingctx, arr, index, value):
    """``arr[index:index + 16] = value`` (``arr`` 1-D, C-contiguous, of the vector's dtype)."""
    if not (_is_float_vector_array(arr) and isinstance(index, types.Integer)
            and isinstance(value, LaneVector) and value.dtype == arr.dtype):
        return None

    def codegen(context, builder, sig, args):
        ptr = _element_pointer(context, builder, sig.args[0], args[0], args[1])
        builder.store(args[2], ptr, align=context.get_abi_sizeof(
            context.get_value_type(sig.args[0].dtype)))
        return context.get_dummy_value()

    return types.none(arr, index, value), codegen


@_intrinsic
def splat16(typingctx, value):
    """``value`` (a float32 or float64 scalar) in each of 16 lanes, as a :class:`LaneVector` of its dtype."""
    if not isinstance(value, types.Float):
        return None

    def codegen(context, builder, sig, args):
        vt = ir.VectorType(context.get_value_type(sig.args[0]), WIDTH)
        one = builder.insert_element(ir.Constant(vt, ir.Undefined), args[0], ir.Constant(ir.IntType(32), 0))
        zeros = ir.Constant(ir.VectorType(ir.IntType(32), WIDTH), [0] * WIDTH)
        return builder.shuffle_vector(one, ir.Constant(vt, ir.Undefined), zeros)

    return LaneVector(value)(value), codegen


def _same_vectors(*args) -> bool:
    return isinstance(args[0], LaneVector) and all(a == args[0] for a in args)


@_intrinsic
def fma(typingctx, a, b, c):
    """``a * b + c`` element-wise, rounded once."""
    if not _same_vectors(a, b, c):
        return None

    def codegen(context, builder, sig, args):
        return _fma(builder, *args)

    return a(a, b, c), codegen


@_intrinsic
def fnma(typingctx, a, b, c):
    """``c - a * b`` element-wise, rounded once."""
    if not _same_vectors(a, b, c):
        return None

    def codegen(context, builder, sig, args):
        return _fma(builder, builder.fneg(args[0]), args[1], args[2])

    return a(a, b, c), codegen


@_intrinsic
def fms(typingctx, a, b, c):
    """``a * b - c`` element-wise, rounded once."""
    if not _same_vectors(a, b, c):
        return None

    def codegen(context, builder, sig, args):
        return _fma(builder, args[0], args[1], builder.fneg(args[2]))

    return a(a, b, c), codegen


@_intrinsic
def mul(typingctx, a, b):
    """``a * b`` element-wise."""
    if not _same_vectors(a, b):
        return None

    def codegen(context, builder, sig, args):
        return builder.fmul(*args)

    return a(a, b), codegen


@_intrinsic
def div(typingctx, a, b):
    """``a / b`` element-wise (IEEE: a division by zero gives an infinity or NaN)."""
    if not _same_vectors(a, b):
        return None

    def codegen(context, builder, sig, args):
        return builder.fdiv(*args)

    return a(a, b), codegen


@_intrinsic
def sqrt(typingctx, a):
    """The square root, element-wise (the LLVM intrinsic ``llvm.sqrt``)."""
    if not isinstance(a, LaneVector):
        return None

    def codegen(context, builder, sig, args):
        vt = args[0].type
        name = f"llvm.sqrt.v{vt.count}{vt.element.intrinsic_name}"
        fn = builder.module.globals.get(name)
        if fn is None:
            fn = ir.Function(builder.module, ir.FunctionType(vt, [vt]), name=name)
        return builder.call(fn, [args[0]])

    return a(a), codegen


def _quad_pointer(context, builder, arrty, array, index):
    """Pointer to ``array[index]`` (1-D contiguous) as a pointer to 4 elements."""
    ary = context.make_array(arrty)(context, builder, array)
    ptr = builder.gep(ary.data, [index])
    return builder.bitcast(ptr, ir.VectorType(context.get_value_type(arrty.dtype), 4).as_pointer())


def _quad_rows(context, builder, arrty, array, start, stride):
    """The 4 elements at ``start + r stride`` for ``r < 4``, as four 4-element vectors."""
    align = context.get_abi_sizeof(context.get_value_type(arrty.dtype))
    rows = []
    for r in range(4):
        index = builder.add(start, builder.mul(stride, ir.Constant(stride.type, r)))
        rows.append(builder.load(_quad_pointer(context, builder, arrty, array, index), align=align))
    return rows


def _convert_quad(builder, v, to):
    """A 4-element float vector converted to the element type ``to`` (rounded to nearest)."""
    if v.type.element == to:
        return v
    vt = ir.VectorType(to, 4)
    return builder.fpext(v, vt) if isinstance(to, ir.DoubleType) else builder.fptrunc(v, vt)


def _store_transposed(context, builder, rows, arrty, array, start, stride):
    """Column ``k`` of the 4 x 4 block ``rows`` to ``array[start + k stride:][:4]``, converted."""
    def mask(m):
        return ir.Constant(ir.VectorType(ir.IntType(32), 4), m)
    r0, r1, r2, r3 = rows
    t0 = builder.shuffle_vector(r0, r1, mask([0, 4, 2, 6]))
    t1 = builder.shuffle_vector(r0, r1, mask([1, 5, 3, 7]))
    t2 = builder.shuffle_vector(r2, r3, mask([0, 4, 2, 6]))
    t3 = builder.shuffle_vector(r2, r3, mask([1, 5, 3, 7]))
    cols = (builder.shuffle_vector(t0, t2, mask([0, 1, 4, 5])), builder.shuffle_vector(t1, t3, mask([0, 1, 4, 5])),
            builder.shuffle_vector(t0, t2, mask([2, 3, 6, 7])), builder.shuffle_vector(t1, t3, mask([2, 3, 6, 7])))
    element = context.get_value_type(arrty.dtype)
    align = context.get_abi_sizeof(element)
    for k in range(4):
        index = builder.add(start, builder.mul(stride, ir.Constant(stride.type, k)))
        builder.store(_convert_quad(builder, cols[k], element),
                      _quad_pointer(context, builder, arrty, array, index), align=align)


def _is_float_array(arr) -> bool:
    return (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"
            and isinstance(arr.dtype, types.Float))


@_intrinsic
def transpose4(typingctx, src, si, ss, c, dst, di, ds):
    """``dst[di + k ds + r] = src[si + r ss + k] - c`` for ``r, k < 4``: a 4 x 4 block transposed.

    ``src`` and ``dst`` are 1-D contiguous float32 or float64 arrays (not
    bounds-checked); the difference is taken in the wider of the two
    dtypes and ``c``'s (float64 where any is), then rounded to ``dst``'s, as
    ``dst[...] = src[...] - c`` rounds it in a scalar loop.
    """
    if not (_is_float_array(src) and _is_float_array(dst) and isinstance(c, (types.Float, types.Integer))
            and all(isinstance(v, types.Integer) for v in (si, ss, di, ds))):
        return None
    wide = types.float64 if types.float64 in (src.dtype, dst.dtype) or c == types.float64 else types.float32

    def codegen(context, builder, sig, args):
        s, sidx, sstride, cv, d, didx, dstride = args
        element = context.get_value_type(wide)
        rows = [_convert_quad(builder, v, element)
                for v in _quad_rows(context, builder, sig.args[0], s, sidx, sstride)]
        vt = ir.VectorType(element, 4)
        one = builder.insert_element(ir.Constant(vt, ir.Undefined), context.cast(builder, cv, sig.args[3], wide),
                                     ir.Constant(ir.IntType(32), 0))
        cs = builder.shuffle_vector(one, ir.Constant(vt, ir.Undefined),
                                    ir.Constant(ir.VectorType(ir.IntType(32), 4), [0, 0, 0, 0]))
        _store_transposed(context, builder, [builder.fsub(v, cs) for v in rows], sig.args[4], d, didx, dstride)
        return context.get_dummy_value()

    return types.none(src, si, ss, c, dst, di, ds), codegen


@_intrinsic
def transpose4_diff(typingctx, src, si, ss, lag, dst, di, ds):
    """``dst[di + k ds + r] = src[si + r ss + k] - src[si + r ss + k - lag]`` for ``r, k < 4``.

    The difference is taken in ``src``'s dtype and rounded to ``dst``'s, as a
    scalar loop's ``dst[...] = src[i] - src[i - lag]`` rounds it.
    """
    if not (_is_float_array(src) and _is_float_array(dst)
            and all(isinstance(v, types.Integer) for v in (si, ss, lag, di, ds))):
        return None

    def codegen(context, builder, sig, args):
        s, sidx, sstride, lg, d, didx, dstride = args
        new = _quad_rows(context, builder, sig.args[0], s, sidx, sstride)
        old = _quad_rows(context, builder, sig.args[0], s, builder.sub(sidx, lg), sstride)
        _store_transposed(context, builder, [builder.fsub(a, b) for a, b in zip(new, old)],
                          sig.args[4], d, didx, dstride)
        return context.get_dummy_value()

    return types.none(src, si, ss, lag, dst, di, ds), codegen


#: Whether the intrinsics were made when the module loaded (:func:`usable` also compiles them).
AVAILABLE: bool = REASON is None


@kernel
def _probe(a, b, c, out):
    """Every operation once, on 16 lanes: the probe of :func:`usable`."""
    va, vb, vc = load16(a, 0), load16(b, 0), load16(c, 0)
    store16(out, 0, fma(va, vb, vc))
    store16(out, WIDTH, fnma(va, vb, vc))
    store16(out, 2 * WIDTH, fms(va, vb, vc))
    store16(out, 3 * WIDTH, mul(va, vb))
    store16(out, 4 * WIDTH, div(mul(va, vc), vc))
    store16(out, 5 * WIDTH, sqrt(mul(va, va)))
    store16(out, 6 * WIDTH, mul(va, splat16(c[0])))
    transpose4(a, 0, 4, c[0], out, 7 * WIDTH, 4)
    transpose4_diff(a, 4, 2, 4, out, 8 * WIDTH, 4)


_usable: dict = {}
_usable_lock = threading.Lock()


def usable(dtype=None) -> bool:
    """Whether the explicit vectors compile and compute in ``dtype`` (float32 or float64; None: both).

    Probed once per process and dtype, for the dtype a call runs in (the
    probe's kernel is compiled for each dtype it is probed in: a first call
    in float64 compiles no float32 probe).  A failure sets :data:`REASON`, and
    then no dtype is usable.  The probe's kernel is cached on disk like the
    others, so after the first process it costs a cache load.
    """
    dtypes = (np.float64, np.float32) if dtype is None else (np.dtype(dtype).type,)
    with _usable_lock:
        for dt in dtypes:
            if dt not in _usable:
                _usable[dt] = REASON is None and _probe_dtype(dt)
        return REASON is None and all(_usable[dt] for dt in dtypes)


def _probe_dtype(dt) -> bool:
    """Compile and check :func:`_probe` in ``dt``; on a failure set :data:`REASON`, return False."""
    global REASON
    try:
        # small integers: every result is exact, fused or not
        a = np.arange(1, WIDTH + 1, dtype=dt)
        b = np.arange(WIDTH, 0, -1).astype(dt)
        c = np.full(WIDTH, 3, dtype=dt)
        out = np.zeros(9 * WIDTH, dtype=dt)
        with warnings.catch_warnings():
            # numba 0.59 adds a pending-deprecation warning (its 'old_style'
            # error capturing) to a failed compilation: the failure is REASON
            warnings.filterwarnings("ignore", message=".*'old_style' error-capturing")
            _probe(a, b, c, out)
        r, k = np.divmod(np.arange(WIDTH), 4)          # out[... + 4 k + r]: a's row r, column k
        t = np.empty(WIDTH, dtype=dt)
        t[4 * k + r] = a[4 * r + k] - c[0]
        d = np.empty(WIDTH, dtype=dt)
        d[4 * k + r] = a[4 + 2 * r + k] - a[2 * r + k]
        want = np.concatenate([a * b + c, c - a * b, a * b - c, a * b, a, a, a * c[0], t, d])
        if not np.array_equal(out, want):
            REASON = f"the explicit vectors computed wrong {np.dtype(dt)} values"
            return False
    except Exception as exc:
        first = (str(exc).splitlines() or [""])[0]
        REASON = f"the explicit vectors do not compile ({type(exc).__name__}: {first})"
        return False
    return True
