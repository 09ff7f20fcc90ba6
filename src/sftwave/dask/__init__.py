"""dask arrays: sftwave's filters and CWT lazily, chunk by chunk, equal to the in-memory result.

As dask-image does for scipy.ndimage, this module takes dask arrays and
returns lazy dask arrays::

    import sftwave.dask as sd
    y = sd.gaussian_filter(volume, sigma=20.0)        # volume: a dask array
    p = sd.cwt(signals, freqs, fs, output="power", decim=10)
    r = sd.wct(x, y, freqs, fs)                       # wavelet coherence, lazily
    blobs = sd.blob_log(slide, max_sigma=20)          # the blobs of an image, gathered
    p.compute()                                       # or on a dask.distributed cluster

The blob detectors are the exception: their result is a short list, not an
image, so :func:`blob_log` and :func:`blob_dog` compute the blocks (with the
current scheduler or client) and return the blobs as a NumPy array.

Along the filtered (time) axis each chunk is extended by exactly the samples
its plan's window reads from its neighbours (the plan's half-window, the
plan being the one the in-memory function picks for the whole length), and
the true ends by the function's own ``mode`` (``boundary='none'`` in dask's
terms; ``'wrap'`` by dask's ``'periodic'``); the other axes need no overlap.
Chunks shorter than the window are merged (rechunked) first: a chunk must
hold a whole window, so that each computes with the whole-length plan.  For
the CWT the time chunks are also made multiples of ``decim``, so that each
chunk's ``[::decim]`` is the whole's.

The result equals the in-memory function's within the rounding of the
recursions (1e-12 relative in float64, ``tests/test_dask.py``, threads and a
``distributed.LocalCluster`` of processes).  dask is an optional extra
(``pip install dask``; the ``dask`` extra); ``import sftwave`` does not import it.

Threads.  Blocks that run side by side must not each start sftwave's pool on
every CPU (with a worker of 8 threads on 8 CPUs, 64 threads would compete).
Each block's call therefore runs on its share of the process's threads
(``sftwave.get_workers()`` inside a block tells it):

* in a ``distributed`` worker, ``max(1, T // nthreads)``, ``nthreads`` the
  worker's task threads and ``T`` the process's default thread count (which
  honours ``OMP_NUM_THREADS``: 1 in the worker processes a nanny starts, as for
  BLAS);
* on dask's threaded scheduler (a block on a thread other than the main one),
  ``max(1, T // W)``, ``W`` dask's ``num_workers`` setting or its CPU count: one
  thread per block by default;
* a graph of a single block, and the synchronous scheduler (blocks one at a
  time on the main thread), run on all of ``T``.

A ``workers=`` passed to :func:`cwt` wins over the share.  The share changes
only the speed: sftwave's results do not depend on the thread count.  (The
processes scheduler starts processes of its own: give them a budget with
``OMP_NUM_THREADS`` or ``SFTWAVE_NUM_THREADS``.)

Layout.  One module per domain, each wrapper built from the in-memory function
it wraps (its signature, defaults and Parameters by ``._wrap.lazy``):
``.ndimage`` (the Gaussian filters), ``.wavelets`` (the CWT),
``.coherence``, ``.synchrosqueeze``, ``.superlets``, ``.feature``, ``.blobs``, ``.gabor``
and ``.multiscale`` (the image features); the overlap machinery in ``_core``, the
reaches (from the plans the in-memory call selects) in ``_reach``.
"""

from __future__ import annotations

from .blobs import blob_dog, blob_log
from .coherence import wct, wct_pairs, xwt
from .feature import (
    difference_of_gaussians,
    frangi,
    hessian_matrix,
    hessian_matrix_eigvals,
    meijering,
    sato,
    structure_tensor,
    structure_tensor_eigenvalues,
)
from .gabor import gabor, gabor_bank
from .multiscale import multiscale_basic_features
from .ndimage import gaussian_filter, gaussian_filter1d
from .superlets import superlet
from .synchrosqueeze import ssq_cwt
from .wavelets import cwt

__all__ = ["gaussian_filter1d", "gaussian_filter", "cwt", "xwt", "wct", "wct_pairs", "ssq_cwt",
           "hessian_matrix",
           "hessian_matrix_eigvals", "structure_tensor", "structure_tensor_eigenvalues",
           "difference_of_gaussians", "frangi", "sato", "meijering", "blob_log", "blob_dog", "gabor",
           "gabor_bank", "multiscale_basic_features", "superlet"]
