"""
Pixel classification from a few strokes: multiscale features and a random forest
=================================================================================

Interactive segmentation tools (ilastik, napari's, scikit-image's "trainable
segmentation" example) give every pixel a stack of local features at several
scales, train a classifier on the few pixels a user has painted, and label
every other pixel.  :func:`sftwave.feature.multiscale_basic_features` is
scikit-image's feature stack (the smoothed intensity, its Sobel edges and its
Hessian eigenvalues at scales 0.5 to 16), with each Gaussian at a cost that
does not grow with the scale and each scale's edges and eigenvalues in one
pass.  Here: ``skimage.data.camera()``, three classes painted as short
strokes (sky, the coat, the grass), and scikit-learn's random forest.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from skimage import data
from sklearn.ensemble import RandomForestClassifier

from sftwave.feature import multiscale_basic_features

image = data.camera()

# %%
# A few strokes
# -------------
# Label 0 means "not painted"; 1 the sky, 2 the coat, 3 the grass.

strokes = np.zeros(image.shape, np.uint8)
strokes[20:26, 40:470] = 1              # across the sky
strokes[250:400, 70:76] = 2             # down the coat
strokes[330:336, 400:490] = 3           # across the grass on the right
strokes[440:480, 200:205] = 3           # and between the tripod's legs

# %%
# The features: 6 scales x (intensity, edges, 2 eigenvalues)
# ----------------------------------------------------------

start = time.perf_counter()
features = multiscale_basic_features(image, sigma_min=0.5, sigma_max=16)
print(f"{features.shape[-1]} features per pixel in {time.perf_counter() - start:.2f} s")

# %%
# Train on the painted pixels, label all of them
# ----------------------------------------------

painted = strokes > 0
forest = RandomForestClassifier(n_estimators=25, max_depth=10, max_samples=0.5, n_jobs=1,
                                random_state=0)
forest.fit(features[painted], strokes[painted])
labels = forest.predict(features.reshape(-1, features.shape[-1])).reshape(image.shape)
for k, name in enumerate(("sky", "coat", "grass"), start=1):
    print(f"{name}: {np.mean(labels == k):.0%} of the image")

fig, axes = plt.subplots(1, 3, figsize=(12, 4.4), sharex=True, sharey=True)
axes[0].imshow(image, cmap="gray")
axes[0].contour(strokes, levels=[0.5, 1.5, 2.5], colors=["tab:blue", "tab:orange", "tab:green"],
                linewidths=1.5)
axes[0].set_title("image and strokes")
axes[1].imshow(features[..., 4 * 3 + 2], cmap="magma")          # sigma 4: largest eigenvalue
axes[1].set_title("one feature: Hessian eigenvalue, sigma 4")
axes[2].imshow(labels, cmap="viridis", interpolation="nearest")
axes[2].set_title("random forest: sky, coat, grass")
for ax in axes:
    ax.set_axis_off()
fig.tight_layout()
plt.show()
