"""
Scale-space image features: vessels, orientation, blobs and textures
====================================================================

:mod:`sftwave.feature` has scikit-image's functions for features built from
Gaussian derivatives, with its names, arguments and results, and every Gaussian
at a cost that does not grow with ``sigma``.  The image is synthetic: a tree of
dark vessels of several widths on an uneven bright background, under noise, as
in a retina photograph.
"""

import matplotlib.pyplot as plt
import numpy as np

from sftwave import feature

rng = np.random.default_rng(1)
n = 384
yy, xx = np.mgrid[0:n, 0:n].astype(float)
image = 0.8 + 0.15 * np.cos(xx / 90.0) * np.sin(yy / 70.0)        # uneven illumination
inside = np.zeros(image.shape, bool)                                 # where the vessels are


def vessel(points, width, depth=0.5):
    """Darken the image along a polyline with a Gaussian profile of the given width."""
    for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
        t = np.clip(((xx - x0) * (x1 - x0) + (yy - y0) * (y1 - y0))
                    / ((x1 - x0) ** 2 + (y1 - y0) ** 2), 0, 1)
        d2 = (xx - x0 - t * (x1 - x0)) ** 2 + (yy - y0 - t * (y1 - y0)) ** 2
        image[:] -= depth * np.exp(-d2 / (2 * width ** 2)) * (image > 0.2)
        inside[:] |= d2 <= width ** 2


vessel([(20, 190), (120, 180), (200, 150), (300, 90), (370, 40)], 3.0)     # the trunk
vessel([(120, 180), (170, 260), (230, 330), (260, 380)], 2.0)              # branches
vessel([(200, 150), (250, 210), (340, 240)], 1.5)
vessel([(300, 90), (330, 150), (380, 170)], 1.2)
vessel([(170, 260), (90, 320), (40, 370)], 1.2)
image += 0.03 * rng.standard_normal(image.shape)
image = image.astype(np.float32)

# %%
# Vessels by Frangi's filter
# --------------------------
# :func:`sftwave.feature.frangi` combines the Hessian's eigenvalues over several
# scales; dark ridges on a bright background by default.  Each scale costs the
# same, however wide.

vesselness = feature.frangi(image, sigmas=[1, 2, 3, 4])

# %%
# Orientation by the structure tensor
# -----------------------------------
# The eigenvalues of the structure tensor give a coherence map: 1 where the
# gradients share one direction (the vessels' walls), 0 in flat or isotropic
# regions.

A = feature.structure_tensor(image, sigma=3.0, mode="reflect")
l1, l2 = feature.structure_tensor_eigenvalues(A)
coherence = ((l1 - l2) / (l1 + l2 + 1e-12)) ** 2

# %%
# Blob-like structure by the Hessian
# ----------------------------------
# Both eigenvalues of the Hessian positive and large: a dark blob of about
# the scale's size (here, the vessels' junctions and the widest segments).

H = feature.hessian_matrix(image, sigma=6.0, use_gaussian_derivatives=True)
e1, e2 = feature.hessian_matrix_eigvals(H)
blobness = np.where(e2 > 0, e2, 0.0) * 36.0                    # scale-normalised: sigma**2

fig, axes = plt.subplots(1, 4, figsize=(11, 3.0), layout="constrained")
for ax, im, title in zip(axes, (image, vesselness, coherence, blobness),
                         ("image", "frangi, sigmas 1-4", "structure tensor coherence, sigma 3",
                          "smaller Hessian eigenvalue, sigma 6")):
    ax.imshow(im, cmap="gray", vmax=np.percentile(im, 99.5))
    ax.set_title(title, fontsize=9)
    ax.set_axis_off()
plt.show()

# %%
# How well the vessels are found
# ------------------------------
# The vesselness is high on the planted vessels and low elsewhere: the mean
# response within each vessel's width of its centre line, against the rest.

print(f"mean vesselness on the vessels {vesselness[inside].mean():.3f}, "
      f"elsewhere {vesselness[~inside].mean():.4f}")

# %%
# Blobs by the Laplacian of Gaussian
# ----------------------------------
# :func:`sftwave.feature.blob_log` finds bright blobs and their scale, as
# scikit-image's does (same scales, peaks and pruning); its Laplacians cost the
# same at every scale.  Cells of several sizes on a dark, noisy background:

cells = np.zeros((256, 256))
centres = rng.uniform(20, 236, size=(25, 2))
radii = rng.choice([3.0, 6.0, 12.0], size=25)
for (cy, cx), r in zip(centres, radii):
    cells += np.exp(-((yy[:256, :256] - cy) ** 2 + (xx[:256, :256] - cx) ** 2) / (2 * r ** 2))
cells += 0.05 * rng.standard_normal(cells.shape)
found = feature.blob_log(cells, min_sigma=2, max_sigma=16, num_sigma=8, threshold=0.1)

fig, ax = plt.subplots(figsize=(4, 4), layout="constrained")
ax.imshow(cells, cmap="gray")
for y, x, s in found:
    ax.add_patch(plt.Circle((x, y), s * np.sqrt(2), color="tab:red", fill=False, lw=1))
ax.set_title(f"blob_log: {len(found)} blobs (25 planted)", fontsize=9)
ax.set_axis_off()
plt.show()

# %%
# A texture map by a Gabor bank
# -----------------------------
# :func:`sftwave.feature.gabor_bank` filters with many orientations at once
# (scikit-image's Gabor kernel, untruncated, at a cost that does not grow with
# its width).  Four patches of stripes at 0, 45, 90 and 135 degrees: the
# orientation with the strongest response labels each pixel.

tex = np.zeros((256, 256))
angles = np.deg2rad([0, 45, 90, 135])
for k, a in enumerate(angles):
    r0, c0 = 128 * (k // 2), 128 * (k % 2)
    u = xx[:128, :128] * np.cos(a) + yy[:128, :128] * np.sin(a)
    tex[r0:r0 + 128, c0:c0 + 128] = np.cos(2 * np.pi * 0.1 * u)
tex += 0.5 * rng.standard_normal(tex.shape)
bank = feature.gabor_bank(tex, 0.1, angles, sigma_x=6.0, sigma_y=6.0)
label = np.argmax(np.abs(bank[0]), axis=0)

fig, axes = plt.subplots(1, 2, figsize=(6, 3), layout="constrained")
axes[0].imshow(tex, cmap="gray")
axes[0].set_title("four striped textures, noisy", fontsize=9)
axes[1].imshow(label, cmap="viridis")
axes[1].set_title("strongest of 4 Gabor orientations", fontsize=9)
for ax in axes:
    ax.set_axis_off()
plt.show()

truth = np.repeat(np.repeat(np.array([[0, 1], [2, 3]]), 128, 0), 128, 1)
inner = np.zeros_like(truth, bool)
for r0 in (0, 128):
    for c0 in (0, 128):
        inner[r0 + 16:r0 + 112, c0 + 16:c0 + 112] = True
print(f"pixels labelled with their patch's orientation (away from the borders): "
      f"{np.mean(label[inner] == truth[inner]):.1%}")
