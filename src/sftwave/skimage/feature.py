"""scikit-image's ``skimage.feature`` names that sftwave computes, with scikit-image's signatures.

``hessian_matrix``, ``hessian_matrix_eigvals``, ``hessian_matrix_det``,
``structure_tensor``, ``structure_tensor_eigenvalues``, ``shape_index``,
``blob_log``, ``blob_dog`` and ``multiscale_basic_features``: the functions of :mod:`sftwave.feature`
(same objects), whose every Gaussian costs the same whatever ``sigma``.
The blob detectors take images of any number of axes, as scikit-image's.

Examples
--------
>>> import numpy as np
>>> from sftwave.skimage import feature
>>> y, x = np.mgrid[:48, :48]
>>> image = np.exp(-((y - 20) ** 2 + (x - 24) ** 2) / (2 * 3.0**2))
>>> feature.blob_log(image, min_sigma=1, max_sigma=6, num_sigma=6)
array([[20., 24.,  3.]])
"""

from ..feature import (
    blob_dog,
    blob_log,
    hessian_matrix,
    hessian_matrix_det,
    hessian_matrix_eigvals,
    multiscale_basic_features,
    shape_index,
    structure_tensor,
    structure_tensor_eigenvalues,
)

__all__ = [
    "hessian_matrix",
    "hessian_matrix_eigvals",
    "hessian_matrix_det",
    "structure_tensor",
    "structure_tensor_eigenvalues",
    "shape_index",
    "blob_log",
    "blob_dog",
    "multiscale_basic_features",
]
