"""Scale-space features of images, as scikit-image computes them: Hessian, structure tensor, DoG,
blobs, ridges and Gabor filters.

The names, signatures, argument order, defaults and outputs are
scikit-image's (``skimage.feature.hessian_matrix``,
``hessian_matrix_eigvals``, ``structure_tensor``,
``structure_tensor_eigenvalues``, ``hessian_matrix_det``, ``shape_index``,
``blob_log``, ``blob_dog``, ``skimage.filters.difference_of_gaussians``,
``frangi``, ``hessian``, ``sato``, ``meijering``, ``gabor`` and
``gabor_kernel``, ``multiscale_basic_features``; :mod:`sftwave.skimage` arranges them in scikit-image's
namespaces, with ``skimage.filters.gaussian``),
so that switching is one import.  Every Gaussian inside is sftwave's
(:func:`sftwave.gaussian_filter`), at a cost per pixel that does not depend on
``sigma`` and with its accuracy contract (``tol=``, a keyword scikit-image
does not have).

Conventions, as scikit-image's:

* **Input dtype** (scikit-image's ``img_as_float``): float32 stays float32,
  float16 becomes float32, float64 stays float64; integer images are rescaled
  to floats by their dtype's range (``uint8`` 255 -> 1.0; signed: divided by
  the dtype's maximum, the most negative value clipped to -1.0) and bool is
  0.0/1.0, both in float64.  Complex images are refused (TypeError).
* **Order of the elements**: the upper triangle of the symmetric matrix, row
  by row (``itertools.combinations_with_replacement`` of the axes): in 2-D
  ``[Hrr, Hrc, Hcc]``, in 3-D ``[H00, H01, H02, H11, H12, H22]``;
  ``order='xy'`` (2-D only) reverses the axes (``[Hcc, Hcr, Hrr]``).
* **Scale**: :func:`hessian_matrix` is *not* scale-normalised, as scikit-image's
  (no ``sigma**2`` factor); multiply the elements by ``sigma**2`` for the
  scale-normalised Hessian of Lindeberg's scale space.
* **Eigenvalues** come in decreasing order, shape ``(ndim,) + image.shape``.
* **Array types**: NumPy arrays everywhere; array-API arrays (torch tensors, CuPy arrays)
  on the 'xp' engine for the Hessian, the structure tensor, their eigenvalues, the
  difference of Gaussians, ``frangi``, ``sato`` and ``meijering``, returned as the same
  type on the same device (torch keeps its autograd graph). There, ``np.gradient`` and
  scipy's Sobel are array code, and the eigenvalues come from the library's
  ``linalg.eigvalsh``.  The blob detectors and the Gabor filters take NumPy arrays.
* **Engines and threads**: every function takes ``engine=`` with
  :func:`sftwave.gaussian_filter`'s meaning (None or 'auto': by the input's array
  type; 'numba', 'xp', 'cuda' by name) and reaches its steps through the engine's
  operations (:func:`sftwave.engines.operation`); an engine without one raises
  :class:`sftwave.engines.UnsupportedOperation` (the blobs' peaks and the Gabor
  passes are the CPU engine's).  ``workers=`` sets the CPU engine's threads for
  the call; the result is the same bits whatever the count.
* **NaN** is confined as the filters confine it (:func:`sftwave.gaussian_filter`,
  ``nan_policy='propagate'``): a non-finite pixel spoils only the outputs whose
  kernels reach it; a matrix with a non-finite element has NaN eigenvalues.

With ``use_gaussian_derivatives=True`` the Hessian is scikit-image's
definition, pass for pass: the first derivatives of the Gaussian of
``sigma / sqrt(2)`` along each axis, then a first derivative of those (each
pass extended by ``mode``, scipy's kernels truncated at 8 sigma, or 100 for
sigma <= 1), which is the second derivative of the Gaussian of ``sigma`` in the
continuous limit.  scikit-image's kernels at 8 sigma have a kernel error near
1e-14, which only a truncated kernel (a cost that grows with ``sigma``) reaches.
sftwave's default there is ``tol=1e-7``, about float32's resolution, met at a
cost that does not depend on ``sigma``; a smaller ``tol`` buys more accuracy
(down to 1e-9 still by the recursions, below that by scipy's kernel).
"""

from ._basic import multiscale_basic_features
from ._blobs import blob_dog, blob_log
from ._dog import difference_of_gaussians
from ._gabor import gabor, gabor_bank, gabor_kernel
from ._ridges import frangi, hessian, meijering, sato
from ._shape import hessian_matrix_det, shape_index
from ._tensors import hessian_matrix, hessian_matrix_eigvals, structure_tensor, structure_tensor_eigenvalues

__all__ = ["hessian_matrix", "hessian_matrix_eigvals", "hessian_matrix_det", "structure_tensor",
           "structure_tensor_eigenvalues", "shape_index", "difference_of_gaussians", "frangi",
           "hessian", "blob_log", "blob_dog", "sato", "meijering", "gabor", "gabor_bank",
           "gabor_kernel", "multiscale_basic_features"]
