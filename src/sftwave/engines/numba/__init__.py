"""The CPU engine (``engine='numba'``): numpy in, numpy out, every bank method, SFT and ASFT.

Its parts, each a module with one job:

``bank`` / ``bank_kernels``
    The exponential-sum bank over rows (five interchangeable methods).
``lanes`` / ``lane_kernels``
    Many plans side by side (structure of arrays), output written once in its
    final kind, every ``decim``-th sample: the scalogram's throughput engine.
``fir_kernels``
    Truncated kernels, with scipy's arithmetic (the small scales).
``fir_rows``
    Small-sigma smoothing of float32 and 8/16-bit images, photos and volumes
    in float32 over blocks of rows, every axis in one or two passes.
``small_fir``
    Small inputs whose axes are all FIR plans, by scipy.ndimage's ``correlate1d``
    (no numba: a one-call script does not load it).
``spectral``
    The exact Morlet wavelet by FFT (short signals with many scales).
``wide``
    Gaussians far wider than the signal, by their exact FFT limit.
``filters`` / ``scalogram``
    The two operations of the engine protocol, built from the above.
``finite``
    Whether an array is all finite, in one read (the non-finite paths of
    ``sftwave.engines.nonfinite`` run only where it is not).
``pool`` / ``_jit``
    sftwave's own thread pool (serial ``nogil`` kernels over task ranges) and
    the kernels' decorator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._checks import check_input_array
from ._rows import ROWS_INPUT_DTYPES, ROWS_OUTPUT_DTYPES, ROWS_TAPS_PER_ORDER
from ._rows import vectors_expected as _vectors_expected

__all__ = ["ENGINE", "NumbaEngine", "OPERATIONS", "DIRECT_TAPS_PER_ORDER", "REFERENCE_THREADS",
           "FIR_TAPS_PER_ORDER", "ROWS_TAPS_PER_ORDER", "DESIGN_TAPS_PER_ORDER", "FFT_POINT_COST"]

#: The bank costs, per sample, about its number of frequencies plus one (the
#: fixed work: filling the line, the loop, writing the output) "orders"; one
#: order on one thread costs about as much as this many taps of the
#: single-threaded FIR (measured: the break-even of the crossover section of
#: docs/benchmarks.md; the calibration's figures in docs/performance.md, *Figures
#: behind the code's choices*).
DIRECT_TAPS_PER_ORDER = 5.5

#: The thread count the FIR-versus-bank figure is fixed for, whatever the
#: machine: the plan, and so every output bit, depends on a transform's
#: arguments only, never on the threads, the CPUs or the load.  Two is the
#: benchmarks' machine, where the figure was measured: there the choice is the
#: fastest.  Elsewhere it errs by at most the
#: thread ratio, and only at the crossover's scales, where the two paths cost
#: about the same: on one thread the bank is taken up to 5.5 taps per order
#: where the FIR would have been up to twice as fast; on many threads, few long
#: rows (whose FIR runs a row per thread) keep the FIR where the bank would be
#: faster.  Many rows (images, volumes) run both paths on all threads, so the
#: thread count does not move their break-even.
REFERENCE_THREADS = 2

#: The engine's cost figure for the plan selectors: the FIR is chosen where its
#: taps are at most this many per bank order (5.5 / 2 = 2.75).
FIR_TAPS_PER_ORDER = DIRECT_TAPS_PER_ORDER / REFERENCE_THREADS

#: The figure for a FIR designed to the bank's accuracy (the Gaussian selector's
#: ``design_taps_per_order``), where the float64 FIR runs the plan: that FIR shares a
#: line's blocks of outputs among the threads as the bank shares its rows and pieces, so
#: the one-thread break-even holds on any thread count (the crossover section of
#: docs/benchmarks.md: 5.50 on one thread, 4.88 on two); below 16,384 samples a line's
#: bank runs on one thread, where the FIR is faster still.  scipy's own kernel keeps
#: :data:`FIR_TAPS_PER_ORDER`: it is less accurate than the bank.
DESIGN_TAPS_PER_ORDER = DIRECT_TAPS_PER_ORDER

#: The FFT's cost figure for the Morlet selector: one point-level of the FFT path
#: (:func:`sftwave.plans.spectral.fft_work`) costs as much as this many component
#: updates of the lane engine, where the transforms stay in cache (the figures:
#: docs/performance.md, *Short series, many scales*).  Both run on all threads, so
#: the thread count does not move it.
FFT_POINT_COST = 0.8


#: The engine's operations beyond ``filter`` and ``scalogram``, for
#: :func:`sftwave.engines.operation`: name -> (module relative to this package,
#: function).  Imported on first use; each group belongs to one family.
OPERATIONS: dict[str, tuple[str, str]] = {
    # features (sftwave.feature)
    "local_peaks": (".peaks", "local_peaks"),
    "blob_survivors": (".peaks", "survivors"),
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
    "gabor_fir_groups": (".features", "gabor_fir_groups"),
    "basic_features_scale": (".basic_features", "scale_features"),
    "tiles_transpose": (".tiles", "transpose"),
    "tiles_split_transpose": (".tiles", "split_transpose"),
    "tiles_combine": (".tiles", "combine"),
    # scipy's find_peaks_cwt (sftwave.signal)
    "ridge_line_peaks": (".ridge_lines", "ridge_line_peaks"),
    # ndimage (sftwave.ndimage)
    "hypot_into": (".filters", "hypot_into"),
    "thread_limit": (".pool", "limit"),
    "threads": (".pool", "threads"),
    "watch_threadpoolctl": (".pool", "watch_threadpoolctl"),
    # coherence and cross-spectra (sftwave.coherence)
    "coherence_cross": (".coherence", "cross"),
    "coherence_spectra": (".coherence", "spectra"),
    "coherence_combine": (".coherence", "combine"),
    "coherence_scale_weights": (".coherence", "apply_scale_weights"),
    "coherence_histogram": (".coherence", "histogram"),
    "coherence_fold_plan": (".coherence", "fold_plan"),
    "coherence_folded_transforms": (".coherence", "folded_transforms"),
    "coherence_pair_spectra": (".coherence", "pair_spectra"),
    "coherence_powers": (".coherence", "powers"),
    "coherence_pair_combine": (".coherence", "pair_combine"),
    "coherence_band_rows": (".coherence", "band_rows"),
    "coherence_interpolated_rows": (".coherence", "interpolated_rows"),
    # connectivity (sftwave.connectivity)
    "connectivity_cross_sums": (".connectivity_kernels", "cross_sums"),
    "connectivity_power_sums": (".connectivity_kernels", "power_sums"),
    "connectivity_split_layout": (".connectivity_kernels", "split_layout"),
    "connectivity_phase_smoothing": (".connectivity_kernels", "phase_smoothing"),
    "connectivity_phase_sums": (".connectivity_kernels", "phase_sums"),
    "connectivity_epoch_layout": (".connectivity_kernels", "epoch_layout"),
    "connectivity_epoch_sums": (".connectivity_kernels", "epoch_sums"),
    "connectivity_epoch_power_sums": (".connectivity_kernels", "epoch_power_sums"),
    "connectivity_epoch_scores": (".connectivity_kernels", "epoch_scores"),
    # synchrosqueezing (sftwave.synchrosqueeze)
    "squeeze_block": (".squeeze", "squeeze_block"),
    "squeeze_difference_rows": (".squeeze", "difference_rows"),
    "squeeze_lane_multiple": (".squeeze", "lane_multiple"),
    # streams (sftwave.stream)
    "stream_advance": (".stream_kernels", "advance"),
    # dask (sftwave.dask; with the ndimage block's thread_limit)
    "default_threads": (".pool", "default_threads"),
    "rows_half_kernel": (".fir_rows", "half_kernel"),
    "cast_into": (".filters", "cast_into"),
    # small inputs whose axes are all FIR plans, by numpy or scipy.ndimage (no numba;
    # sftwave.ndimage)
    "filter_small": (".small_fir", "filter_small"),
    # whether numba is loaded, or its load now pays: small calls then run the kernels instead
    "engine_due": (".small_fir", "engine_due"),
    # a small call's bank rows or float32 FIR rows, their kernels and arguments prepared once
    # (sftwave.ndimage)
    "filter_prepared": (".filters", "prepared_filter"),
    # a small transform whose plans are all FFT plans, its shapes and scales found once
    # (sftwave.wavelets)
    "scalogram_prepared": (".scalogram", "prepared_scalogram"),
    # kernel cache (sftwave compile)
    "precompile": (".precompile", "precompile"),
}


class NumbaEngine:
    """The CPU engine: the engine protocol (:mod:`sftwave.engines`) on numpy arrays.

    Importing this package is light (no numba): each operation imports its
    modules when first called, so that ``sftwave.engines.numba.pool``,
    which ``import sftwave`` loads for the thread budget, costs nothing more.
    """

    name = "numba"

    def asarray(self, x: Any, name: str) -> np.ndarray:
        return check_input_array(x, name)

    def is_complex(self, x: np.ndarray) -> bool:
        return x.dtype.kind == "c"

    def is_single(self, x: np.ndarray) -> bool:
        return x.dtype in (np.float32, np.float16, np.complex64)

    def all_finite(self, x: np.ndarray) -> bool:
        from .finite import all_finite

        return all_finite(x)

    def magnitude(self, x: np.ndarray) -> tuple[bool, float]:
        """Whether ``x`` is all finite, and its largest magnitude: one read (:func:`.filters.magnitude`).

        Examples
        --------
        >>> from sftwave.engines.numba import ENGINE
        >>> ENGINE.magnitude(np.array([1.0, -3.0]))
        (True, 3.0)
        """
        from .filters import magnitude

        return magnitude(x)

    def fir_taps_per_order(self) -> float:
        """The FIR-versus-bank cost figure: :data:`FIR_TAPS_PER_ORDER`, never the thread count.

        Examples
        --------
        >>> from sftwave.engines.numba import ENGINE
        >>> ENGINE.fir_taps_per_order()
        2.75
        """
        return FIR_TAPS_PER_ORDER

    def fft_point_cost(self) -> float:
        """The FFT-versus-bank cost figure of the Morlet selector: :data:`FFT_POINT_COST`.

        Examples
        --------
        >>> from sftwave.engines.numba import ENGINE
        >>> ENGINE.fft_point_cost() > 0
        True
        """
        return FFT_POINT_COST

    def fir_taps_per_order_for(self, dtype: Any, output: Any, order: int, ndim: int = 2, *,
                               scipy_arithmetic: bool = False) -> float:
        """The cost figure for smoothing one axis of an ``ndim``-D array of ``dtype`` into ``output``.

        :data:`ROWS_TAPS_PER_ORDER` where the float32 FIR over blocks of rows
        runs it (order 0, input and output dtypes it takes, its explicit
        vectors usable, at least two dimensions: a single line is one task,
        on one thread, where the bank's lanes use them all; not where the call
        asks for ``scipy_arithmetic``), else :meth:`fir_taps_per_order`.  By the
        arguments alone: the same plan on every thread count.

        Examples
        --------
        >>> from sftwave.engines.numba import ENGINE
        >>> ENGINE.fir_taps_per_order_for(np.uint8, None, 0)
        20.0
        >>> ENGINE.fir_taps_per_order_for(np.float64, None, 0)
        2.75
        >>> ENGINE.fir_taps_per_order_for(np.uint8, None, 0, scipy_arithmetic=True)
        2.75
        """
        try:
            dt = np.dtype(dtype)
            out = (output.dtype if isinstance(output, np.ndarray)
                   else dt if output is None else np.dtype(output))
        except TypeError:
            return FIR_TAPS_PER_ORDER
        if (order != 0 or ndim < 2 or dt not in ROWS_INPUT_DTYPES
                or out not in ROWS_OUTPUT_DTYPES or scipy_arithmetic):
            return FIR_TAPS_PER_ORDER
        return ROWS_TAPS_PER_ORDER if _vectors_expected() else FIR_TAPS_PER_ORDER

    def design_taps_per_order_for(self, dtype: Any, output: Any, order: int, ndim: int = 2, *,
                                  scipy_arithmetic: bool = False) -> float | None:
        """The figure for a FIR designed to the bank's accuracy on one axis of an ``ndim``-D
        array of ``dtype`` into ``output``: :data:`DESIGN_TAPS_PER_ORDER` where the float64
        FIR runs it (where :meth:`fir_taps_per_order_for` is :data:`FIR_TAPS_PER_ORDER`),
        None where the float32 FIR over rows takes FIRs up to its own figure.

        Examples
        --------
        >>> from sftwave.engines.numba import ENGINE
        >>> ENGINE.design_taps_per_order_for(np.float64, None, 0, 1)
        5.5
        >>> ENGINE.design_taps_per_order_for(np.uint8, None, 0) is None
        True
        """
        cost = self.fir_taps_per_order_for(dtype, output, order, ndim,
                                           scipy_arithmetic=scipy_arithmetic)
        return DESIGN_TAPS_PER_ORDER if cost == FIR_TAPS_PER_ORDER else None

    def bank_method(self, bank_method: str, lanes: int) -> str:
        from . import scalogram

        return scalogram.resolve_bank_method(bank_method, lanes)

    def transform(self, transform: str, *, single: bool, complex_input: bool, tol: float,
                  bank_method: str) -> str:
        from . import scalogram

        return scalogram.transform_for(transform, single=single, complex_input=complex_input,
                                       tol=tol, bank_method=bank_method)

    def filter(self, x: np.ndarray, steps, *, cval, output=None, bank_method: str = "auto"):
        from .filters import filter_axes

        return filter_axes(x, steps, cval=cval, output=output, bank_method=bank_method)

    def scalogram(self, x: np.ndarray, plans, **kwargs):
        from . import scalogram

        return scalogram.scalogram(x, plans, **kwargs)


ENGINE = NumbaEngine()
