"""The structure tensor's products of Sobel derivatives, in one pass over a 2-D image.

scikit-image's ``structure_tensor`` takes ``scipy.ndimage.sobel`` along each
axis (the central difference ``[-1, 0, 1]`` along it, the smoothing
``[1, 2, 1]`` along the other, the image extended by ``mode``) and multiplies
the derivatives pairwise.  :func:`sobel_products_2d` computes the three
products ``d0 d0, d0 d1, d1 d1`` pixel by pixel from the image extended by one
sample (``np.pad`` with the mode's rule), in float64, with no derivative
arrays: one read of the image and three writes, where scipy's way reads and
writes the image's size eight times.  A non-finite pixel spoils the products of
its 3 x 3 neighbourhood, as scipy's filters spread it (scipy's difference pass
multiplies the centre by 0, so a non-finite centre gives NaN, not 0).

``mode='constant'`` with a non-zero ``cval`` is not this: scipy's second pass
extends the *first pass's result* by ``cval``, not the padded image's
derivative (0), so the caller keeps scipy's filters for it.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["sobel_products_2d", "PAD_MODES"]

#: scipy.ndimage's boundary modes as ``np.pad`` modes (one sample of extension).
PAD_MODES = {"reflect": "symmetric", "mirror": "reflect", "nearest": "edge", "wrap": "wrap",
             "constant": "constant"}


@kernel(nogil=True)
def _products(lo, hi, p, xx, xy, yy):
    """Rows ``lo:hi`` of the products, from ``p``, the image padded by one sample."""
    cols = xx.shape[1]
    for i in range(lo, hi):
        for j in range(cols):
            a0 = float(p[i, j])
            a1 = float(p[i, j + 1])
            a2 = float(p[i, j + 2])
            c0 = float(p[i + 2, j])
            c1 = float(p[i + 2, j + 1])
            c2 = float(p[i + 2, j + 2])
            b0 = float(p[i + 1, j])
            b1 = float(p[i + 1, j + 1])
            b2 = float(p[i + 1, j + 2])
            # scipy's difference pass multiplies its centre by 0: a non-finite centre gives NaN
            d0 = ((c0 - a0 + 0.0 * b0) + 2.0 * (c1 - a1 + 0.0 * b1)      # along the rows (axis 0)
                  + (c2 - a2 + 0.0 * b2))
            d1 = ((a2 - a0 + 0.0 * a1) + 2.0 * (b2 - b0 + 0.0 * b1)      # along the columns
                  + (c2 - c0 + 0.0 * c1))
            xx[i, j] = d0 * d0
            xy[i, j] = d0 * d1
            yy[i, j] = d1 * d1


def sobel_products_2d(image: np.ndarray, mode: str, cval: float,
                      dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(s0 * s0, s0 * s1, s1 * s1)`` of ``s_k = scipy.ndimage.sobel(image, axis=k, mode=mode,
    cval=cval)``, in ``dtype``, for a 2-D image (``mode`` canonical, as ``check_mode`` gives;
    ``cval`` 0 where ``mode='constant'``: see above).

    Examples
    --------
    >>> img = np.zeros((5, 5))
    >>> img[:, 3:] = 1.0                  # a vertical edge: a derivative along the columns only
    >>> xx, xy, yy = sobel_products_2d(img, "reflect", 0.0, np.float64)
    >>> float(xx.max()), float(xy.max()), yy[2].tolist()
    (0.0, 0.0, [0.0, 0.0, 16.0, 16.0, 0.0])
    """
    if mode == "constant":
        if cval != 0:
            raise ValueError(f"cval must be 0 with mode='constant' here (scipy's sobel extends its "
                             f"second pass by cval); got {cval!r}")
        p = np.pad(image, 1, mode="constant")
    else:
        p = np.pad(image, 1, mode=PAD_MODES[mode])  # type: ignore[call-overload]
    rows, cols = image.shape
    xx, xy, yy = (np.empty((rows, cols), dtype=dtype) for _ in range(3))
    parallel_for(_products, rows, p, xx, xy, yy, work=20.0 * rows * cols)
    return xx, xy, yy
