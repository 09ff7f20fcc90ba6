"""One numpydoc fragment per repeated parameter (scipy's ``docfiller`` habit).

A public function's docstring names a fragment as ``%(name)s`` on a line of
its own, indented as a parameter entry; :func:`docfiller` puts the fragment
there.  Each parameter is described once, so the Gaussian filters and the
wavelet transforms cannot drift apart in what they say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["DOCS", "docfiller"]

F = TypeVar("F", bound=Callable)

_ENGINE_LIMITS = (
    "The engines other than ``'numba'`` return the input's array type on its "
    "device and accept only ``transform`` 'auto'/'sft', ``bank_method`` "
    "'auto'/'integral', and none of ``output`` (as an array or dtype), ``dtype``, "
    "``out``, ``workers``."
)

DOCS: dict[str, str] = {
    "mode": """\
mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap', 'grid-constant', 'grid-mirror', 'grid-wrap'}, optional
    How the input is extended beyond its boundaries, exactly as in
    scipy.ndimage (also for signals shorter than the kernel).  Default
    'reflect' (MNE pads with zeros: ``mode='constant'``).""",
    "cval": """\
cval : scalar, optional
    Value to fill past edges of input if ``mode`` is 'constant'.  Default 0.0.
    For complex input it may be complex: as in scipy, the real part is
    extended with ``cval.real`` and the imaginary part with ``cval.imag``.""",
    "bank_method": """\
bank_method : {'auto', 'iir1', 'iir1-2k', 'iir2', 'integral', 'window'}, optional
    How the SFT bank computes its components (see
    ``sftwave.engines.numba.bank``): all give the same result to rounding.
    ``'auto'`` (default) picks the fastest on the engine.""",
    "transform": """\
transform : {'auto', 'sft', 'asft'}, optional
    The sliding transform of the bank: ``'sft'`` (no decay) or ``'asft'``
    (attenuated, bounded state).  ``'auto'`` (default) is the SFT, except in
    the CPU scalogram at single-precision output, whose recursions then run in
    float32 with the ASFT (see Notes of :func:`sftwave.cwt`).""",
    "engine": """\
engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
    Who computes it (see :mod:`sftwave.engines`): ``'numba'``, the CPU engine
    (numpy in, numpy out); ``'xp'``, array-API code (numpy, torch on any
    device, CuPy; differentiable with torch autograd) computing the SFT by the
    kernel integral on the sliding sum; ``'cuda'``, the numba-cuda kernel.
    None/``'auto'`` (default): ``'numba'`` for numpy arrays, ``'xp'`` for
    other array types.  """ + _ENGINE_LIMITS,
    "workers": """\
workers : int, optional
    Threads to use (scipy.fft's convention: -1 for all cores), for this call
    only, with the same result whatever the count; default all the CPUs the
    process may use, or ``SFTWAVE_NUM_THREADS`` (see
    ``sftwave.engines.numba.pool``).""",
    "xi": """\
xi : float, optional
    Radians per standard deviation of the wavelet (default 6): the number MNE
    calls ``n_cycles``.""",
    "morlet_method": """\
method : {'auto', 'fir', 'bank', 'direct', 'multiply', 'fft'}, optional
    How each wavelet is realised (:func:`sftwave.plans.select_morlet`):
    ``'fir'``, the shortest exact-mean truncated wavelet meeting ``tol``;
    ``'direct'`` and ``'multiply'``, the paper's bank designs (sections III-A
    and III-B); ``'bank'``, the one of them with fewer components; ``'fft'``,
    the exact wavelet by FFT (within rounding of the exact transform, every
    ``mode``; the CPU engine only); ``'auto'`` (default), the cheapest of these
    by a count of operations (the FIR for the smallest scales, the FFT where
    the wavelet's window is long against the signal: short series with many
    scales).""",
    "morlet_tol": """\
tol : float, optional
    Each wavelet's kernel error against the exact sampled wavelet: the larger
    of its relative RMSE (a white-noise input's error) and its random-walk
    error (a 1/f^2 input's; see ``sftwave.plans.fit.walk_error``).  Default
    1e-4, which keeps every row within 1e-3 (relative RMSE) of the exact
    transform, also for a real ECG; ``tol=1e-6`` keeps rows within about 3e-6.
    A signal whose spectrum falls faster than a random walk's can come out at
    several times ``tol`` in its weakest rows (about 6 times on an ECG).""",
    "scalogram_dtype": """\
dtype : dtype, optional
    Output dtype.  Default: complex64 (float32 for real outputs) for
    float32/float16/complex64 input, complex128 (float64) otherwise.""",
}


DOCS["truncate"] = """\
truncate : float, optional
    As in scipy: the FIR truncates the kernel at ``truncate`` standard
    deviations.  Without ``tol``, it also sets the accuracy of the bank: at
    least that of scipy's kernel truncated there.  Default 4.0."""

# The xarray filters (sftwave.xarray).
DOCS["xr_keep_attrs"] = """\
keep_attrs : bool, optional
    Keep the attributes of ``obj`` (and of its data variables).  Default:
    xarray's ``keep_attrs`` option, whose ``'default'`` keeps them."""

DOCS["cwt_nan_policy"] = """\
nan_policy : {'propagate', 'omit'}, optional
    Non-finite input (NaN, inf).  ``'propagate'`` (default): exactly the
    coefficients whose wavelet support (the plan's window, extended by
    ``mode``) holds a non-finite sample are NaN (``nan + nanj``), every other
    one keeps its accuracy (``sftwave.engines.nonfinite``).  ``'omit'``:
    the transform of the finite samples alone: the line minus the median of
    its finite samples, gaps set to zero, each coefficient divided by the
    fraction of the wavelet's Gaussian envelope that lies on data (an
    oscillation near the wavelet's frequency keeps its amplitude across a
    gap); NaN where that fraction is below ``min_weight``.
min_weight : float, optional
    For ``nan_policy='omit'``: the least fraction of the envelope's weight
    on finite samples for a coefficient to be computed, in (0, 1].
    Default 0.5."""

DOCS["gaussian_shared"] = """\
input : array_like
    The input array: integer, float or complex (real and imaginary parts
    are filtered separately).
output : array or dtype, optional
    The array in which to place the output, or the dtype of the returned
    array.  By default an array of the same dtype as ``input`` is created
    (scipy's rule: integer inputs give integer outputs, cast once).
""" + DOCS["mode"] + "\n" + DOCS["cval"] + "\n" + DOCS["truncate"] + """
radius : None or int, optional
    The kernel's support, overriding ``truncate`` as in scipy: without
    ``tol``, the kernel is scipy's, truncated at ``radius``, computed as an
    FIR (the result is scipy's bit for bit, at a cost that grows with
    ``radius``); ``method='bank'`` cannot honour it and raises.  A
    non-integer or negative radius is a ``ValueError``, as in scipy.
method : {'auto', 'fir', 'bank'}, optional
    ``'fir'`` is scipy's truncated kernel (exact for the given truncation;
    its cost grows with sigma); ``'bank'`` the SFT bank (cost independent of
    sigma); ``'auto'`` (default) the FIR where it is cheaper (small sigma) or
    where the accuracy asked is beyond the SFT (below ``1e-9``), and the bank
    otherwise (:func:`sftwave.plans.select_gaussian`).
""" + DOCS["bank_method"] + "\n" + DOCS["transform"] + """
tol : float, optional
    Target relative RMSE of the kernel against the exact (untruncated)
    sampled Gaussian kernel, in [1e-9, 0.1].  Default: a quarter of the
    kernel error of scipy at the given ``truncate``.
nan_policy : {'propagate', 'omit'}, optional
    Non-finite input (NaN, inf).  ``'propagate'`` (default) as a direct
    convolution: exactly the outputs whose kernel support (the plan's window,
    extended by ``mode``) holds a non-finite sample are non-finite (NaN; a
    signed infinity for the smoothing where only infinities of one sign are
    there), every other output keeps its accuracy
    (``sftwave.engines.nonfinite``).  ``'omit'``: the smoothing of the
    finite samples alone, by normalised convolution (the filtered
    zero-filled input divided by the filtered indicator of the finite
    samples), NaN where less than ``min_weight`` of the kernel's weight lies
    on finite samples; with ``mode='constant', cval=nan`` it normalises at
    the borders too.  ``'omit'`` is for order 0 only (a derivative of a
    gappy signal has no one meaning: ``ValueError``).
min_weight : float, optional
    For ``nan_policy='omit'``: the least fraction of the kernel's weight
    on finite samples for an output to be computed, in (0, 1].  Default 0.5,
    which keeps the accuracy within twice the filter's (the ratio's error
    grows as one over the weight).
""" + DOCS["engine"]

DOCS["workers_cpu"] = DOCS["workers"] + "  The CPU engine only."

# The physical size of a sample (microscopy stacks, CT volumes): the Gaussian filters and the
# image features.
DOCS["spacing"] = """\
spacing : float or sequence of float, optional
    The physical size of a sample (pixel, voxel) along each axis, one for
    all axes or one per axis (positive and finite): ``(5, 1, 1)`` for a
    stack whose z step is five times its pixel size.  ``sigma`` is then in
    the same physical units and becomes ``sigma / spacing`` samples along
    each axis, and every derivative is per unit of length (divided by
    ``spacing`` once along each axis it differentiates).  Default None:
    every axis 1, ``sigma`` in samples."""

# The image features (sftwave.feature: scikit-image's signatures).  Their ``mode`` is not
# shared: each function's choices are listed default first, and the defaults differ.
DOCS["image_engine"] = """\
engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
    As :func:`sftwave.gaussian_filter`'s: None and 'auto' choose by the
    input's array type ('numba' for NumPy arrays, 'xp' for torch and CuPy,
    returned as the same type on the same device)."""
DOCS["peaks_engine"] = """\
engine : {None, 'auto', 'numba'}, optional
    As :func:`sftwave.gaussian_filter`'s; the peaks need the CPU engine
    (another raises :class:`sftwave.engines.UnsupportedOperation`)."""
DOCS["image_cval"] = """\
cval : float, optional
    The value beyond the borders with ``mode='constant'``."""
DOCS["image_tol"] = """\
tol : float or None, optional
    The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``)."""
DOCS["ridge_mode"] = """\
mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
    How the image is extended beyond its borders."""
DOCS["blob_truncated"] = """\
truncated : bool, optional
    True: scikit-image's Gaussians, truncated at 4 sigma, honoured exactly
    (scipy's kernels; a cost that grows with sigma): its responses to
    rounding, so its detections.  False (default): the untruncated
    Gaussians to ``tol`` (see Notes)."""
DOCS["blob_spacing"] = """\
spacing : float or sequence of float, optional
    The physical size of a sample (pixel, voxel) along each axis, one for
    all axes or one per axis (positive and finite): ``(1, 1, 3)`` for a
    volume whose z step is three times its pixel size.  ``min_sigma`` and
    ``max_sigma`` are then in the same physical units, each scale's Gaussian
    is ``sigma / spacing`` samples along each axis, and the response is
    normalised by the physical sigma squared, so a blob of a given physical
    size responds the same whichever axis is coarse.  The blobs'
    coordinates stay sample indices, their sigmas are physical, and the
    pruning's distances and overlaps are physical.  Default None (as all
    ones: the same blobs exactly): sigma in samples.  Not in scikit-image."""
DOCS["blob_gaussians"] = """\
Every Gaussian is sftwave's, at a cost per pixel that does not depend on
sigma, extended by ``mode='reflect'`` as scikit-image's.  scikit-image's
(scipy's) kernels are truncated at 4 sigma; sftwave's are not truncated
but accurate to ``tol`` (by default at least as close to the exact
Gaussian as scipy's kernel truncated at 4 sigma), so the responses differ
from scikit-image's by about scipy's truncation error.  A detection
differs where two responses, or a response and the threshold, are closer
than that: on ``skimage.data`` images up to 10.5 % of scikit-image's
blobs were not found at the same row (measured in the guide's page for
scikit-image users).  ``truncated=True`` takes scikit-image's kernels and
finds its detections."""

# The streams (sftwave.stream): no input array to choose an engine by.
DOCS["stream_engine"] = """\
engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
    Who computes it, as for :func:`sftwave.gaussian_filter` (None/``'auto'``,
    default: ``'numba'``, as a stream has no input yet).  Only the CPU
    engine streams; another raises :class:`sftwave.engines.UnsupportedOperation`."""


def docfiller(func: F) -> F:
    """Replace each ``%(name)s`` line of ``func``'s docstring by the fragment ``DOCS[name]``.

    The fragment is indented as the placeholder is.

    Examples
    --------
    >>> @docfiller
    ... def f(x, mode="reflect"):
    ...     '''Doc.
    ...
    ...     Parameters
    ...     ----------
    ...     %(mode)s
    ...     '''
    >>> "scipy.ndimage" in f.__doc__
    True
    """
    lines: list[str] = []
    for line in (func.__doc__ or "").split("\n"):
        stripped = line.strip()
        if stripped.startswith("%(") and stripped.endswith(")s"):
            indent = line[: len(line) - len(line.lstrip())]
            fragment = DOCS[stripped[2:-2]]
            lines.extend(indent + part if part else part for part in fragment.split("\n"))
        else:
            lines.append(line)
    func.__doc__ = "\n".join(lines)
    return func

# pycwt's scale grid (sftwave.pycwt: pycwt's names and defaults).
DOCS["pycwt_scales"] = """\
dt : float
    The sampling interval.
dj : float, optional
    Spacing of the scales in octaves (default 1/12).
s0 : float, optional
    The smallest scale; -1 (default): ``2 dt / flambda``.
J : float, optional
    The number of scales less one; -1 (default): down to the series' length."""
