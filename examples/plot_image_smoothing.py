"""
Image smoothing and derivatives
===============================

:func:`sftwave.gaussian_filter`, :func:`sftwave.gaussian_gradient_magnitude` and
:func:`sftwave.gaussian_laplace` take :mod:`scipy.ndimage`'s arguments and give
its results to within the kernels' accuracy, at a cost that does not grow with
``sigma``.  The image is synthetic: discs, a bar and a gradient under noise.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from scipy import ndimage as ndi

import sftwave

n = 512
yy, xx = np.mgrid[0:n, 0:n] / n
image = (0.5 * xx                                                   # a gradient
         + 1.0 * ((xx - 0.3) ** 2 + (yy - 0.35) ** 2 < 0.02)        # a disc
         + 0.7 * ((xx - 0.7) ** 2 + (yy - 0.6) ** 2 < 0.01)         # a smaller one
         + 0.8 * ((np.abs(xx - 0.5) < 0.02) & (yy > 0.7)))          # a bar
image += 0.2 * np.random.default_rng(0).standard_normal(image.shape)
image = image.astype(np.float32)

smooth = sftwave.gaussian_filter(image, sigma=4.0)
edges = sftwave.gaussian_gradient_magnitude(image, sigma=3.0)
blobs = -sftwave.gaussian_laplace(image, sigma=12.0)

fig, axes = plt.subplots(1, 4, figsize=(10, 2.9), layout="constrained")
for ax, im, title in zip(axes, (image, smooth, edges, blobs),
                         ("image", "gaussian_filter, sigma 4",
                          "gradient magnitude, sigma 3", "-Laplacian, sigma 12")):
    ax.imshow(im, cmap="gray")
    ax.set_title(title, fontsize=9)
    ax.set_axis_off()

# %%
# The same numbers as scipy, and the cost
# ---------------------------------------
# The difference from scipy is the two kernels' approximation errors (scipy
# truncates the Gaussian at ``truncate=4`` sigma; sftwave fits it, by default
# at a quarter of scipy's kernel error).  scipy's time grows with ``sigma``;
# sftwave's does not.

print(" sigma   max |sftwave - scipy|   sftwave ms   scipy ms")
for sigma in (2.0, 8.0, 32.0):
    ours = sftwave.gaussian_filter(image, sigma)  # first call: plan and compilation
    t0 = time.perf_counter()
    ours = sftwave.gaussian_filter(image, sigma)
    t1 = time.perf_counter()
    theirs = ndi.gaussian_filter(image, sigma)
    t2 = time.perf_counter()
    print(f"{sigma:6.0f}   {np.abs(ours - theirs).max():20.1e}   {1e3 * (t1 - t0):10.1f}"
          f"   {1e3 * (t2 - t1):8.1f}")

# %%
# ``method='fir'`` gives scipy's kernel, bit for bit, and the derivatives take
# scipy's ``order`` per axis:

fir = sftwave.gaussian_filter(image, 2.0, method="fir")
print("bit for bit with scipy:", np.array_equal(fir, ndi.gaussian_filter(image, 2.0)))
dy = sftwave.gaussian_filter(image, 3.0, order=(1, 0))  # d/dy, smoothed along x
print("d/dy range:", float(dy.min()), float(dy.max()))
