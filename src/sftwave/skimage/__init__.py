"""scikit-image's namespaces, computed by sftwave: ``from sftwave.skimage import filters``.

:mod:`sftwave.skimage.filters` and :mod:`sftwave.skimage.feature` hold, under
scikit-image 0.26's names and signatures, the functions sftwave computes at a
cost per pixel that does not depend on ``sigma``: the Gaussian filter
(``gaussian``, with scikit-image's ``channel_axis``, ``preserve_range`` and
``img_as_float`` rules), the difference of Gaussians, the ridge filters,
Gabor filters and kernels, the Hessian (its elements, eigenvalues and
determinant), the structure tensor, the shape index and the blob detectors.
A script switches by changing its import::

    from sftwave.skimage import filters    # was: from skimage import filters
    import sftwave.skimage as ski           # was: import skimage as ski

or, unedited, under ``python -m sftwave.patch --only skimage script.py``.
scikit-image is not needed (nor imported) by these modules.

Where scikit-image's numbers differ from the exact ones by its kernels'
truncation (its Gaussians at ``truncate`` sigma, its Gabor kernel at
``n_stds``), sftwave's default is the untruncated filter to its ``tol``;
``truncated=True`` reproduces scikit-image's finite kernel exactly (a cost
that grows with sigma).  The measured differences are listed in the guide's
page for scikit-image users.

Examples
--------
>>> import numpy as np
>>> import sftwave.skimage as ski
>>> rgb = np.zeros((16, 16, 3), dtype=np.uint8)
>>> rgb[8, 8] = (255, 0, 0)
>>> out = ski.filters.gaussian(rgb, sigma=2, channel_axis=-1)
>>> out.dtype, out.shape, float(out[..., 1].max())
(dtype('float64'), (16, 16, 3), 0.0)
"""

from . import feature, filters  # noqa: F401  (the namespaces, as attributes)

__all__: list[str] = []
