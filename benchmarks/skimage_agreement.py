"""How far sftwave.skimage's defaults are from scikit-image's numbers, on skimage.data images.

Run: ``PYTHONPATH=src python benchmarks/skimage_agreement.py [image names]`` (scikit-image
installed; only its bundled images, no download; each image's figures go to stderr as they
are measured).  Prints a Markdown table (docs/guide/skimage.rst quotes it):

* ``gaussian`` and ``difference_of_gaussians``: the largest difference from scikit-image's
  result, relative to the largest magnitude of scikit-image's result;
* ``gabor`` (real and imaginary parts together): the same, at scikit-image's default
  ``n_stds=3`` and at ``n_stds=6`` (where its truncation is below the Gaussian's 1e-7);
* ``blob_log`` / ``blob_dog`` (the parameters of scikit-image's blob gallery example): the share
  of scikit-image's blobs that sftwave finds at the same row (coordinates and sigma), and
  how many it finds that scikit-image does not;
* each with ``truncated=True`` too (scikit-image's kernels honoured exactly).
"""

from __future__ import annotations

import sys

import numpy as np
import skimage.feature as skf
import skimage.filters as skfl
from skimage import color, data

import sftwave.skimage as ski

GRAY = ["camera", "coins", "moon", "page", "cell", "text"]
RGB = ["astronaut", "hubble_deep_field"]


def images(names: list[str] | None = None) -> dict[str, np.ndarray]:
    """The bundled images by name (all of GRAY and RGB by default), RGB ones in grey."""
    names = names or GRAY + RGB
    return {n: color.rgb2gray(getattr(data, n)()) if n in RGB else getattr(data, n)() for n in names}


def rel(got, ref) -> float:
    got, ref = np.atleast_1d(got), np.atleast_1d(ref)
    return float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))


def matched(got: np.ndarray, ref: np.ndarray) -> tuple[float, int]:
    a, b = {tuple(r) for r in got.tolist()}, {tuple(r) for r in ref.tolist()}
    return (len(a & b) / len(b) if b else 1.0), len(a - b)


def rows(img: np.ndarray) -> list[tuple[str, float, float]]:
    """(measure, default's figure, truncated=True's figure) for one image."""
    out = []
    f = img.astype(np.float64) / (255.0 if img.dtype == np.uint8 else 1.0)
    for sigma in (2.0, 8.0):
        ref = skfl.gaussian(img, sigma)
        out.append(
            (
                f"gaussian sigma={sigma:g}",
                rel(ski.filters.gaussian(img, sigma), ref),
                rel(ski.filters.gaussian(img, sigma, truncated=True), ref),
            )
        )
    for lo, hi in ((1.0, None), (2.0, 10.0)):
        ref = skfl.difference_of_gaussians(img, lo, hi)
        out.append(
            (
                f"difference_of_gaussians {lo:g}, {hi}",
                rel(ski.filters.difference_of_gaussians(img, lo, hi), ref),
                rel(ski.filters.difference_of_gaussians(img, lo, hi, truncated=True), ref),
            )
        )
    for n_stds in (3, 6):
        worst = [0.0, 0.0]
        for freq in (0.05, 0.1, 0.2, 0.3):
            for theta in (0.0, np.pi / 4):
                r = skfl.gabor(f, freq, theta, n_stds=n_stds)
                d = ski.filters.gabor(f, freq, theta, n_stds=n_stds)
                t = ski.filters.gabor(f, freq, theta, n_stds=n_stds, truncated=True)
                ref = np.stack(r)
                worst[0] = max(worst[0], rel(np.stack(d), ref))
                worst[1] = max(worst[1], rel(np.stack(t), ref))
        out.append((f"gabor n_stds={n_stds}", worst[0], worst[1]))
    kw = dict(max_sigma=30, num_sigma=10, threshold=0.1)
    ref = skf.blob_log(f, **kw)
    out.append(
        (
            "blob_log matched",
            *(matched(ski.feature.blob_log(f, truncated=t, **kw), ref)[0] for t in (False, True)),
        )
    )
    ref_d = skf.blob_dog(f, max_sigma=30, threshold=0.1)
    out.append(
        (
            "blob_dog matched",
            *(
                matched(ski.feature.blob_dog(f, max_sigma=30, threshold=0.1, truncated=t), ref_d)[0]
                for t in (False, True)
            ),
        )
    )
    out.append(("blobs found (log, dog)", float(len(ref)), float(len(ref_d))))
    return out


def main(names: list[str] | None = None) -> None:
    table: dict[str, list[tuple[float, float]]] = {}
    per_image: dict[str, dict[str, tuple[float, float]]] = {}
    for name, img in images(names).items():
        per_image[name] = {}
        for measure, default, truncated in rows(img):
            table.setdefault(measure, []).append((default, truncated))
            per_image[name][measure] = (default, truncated)
        print(
            name,
            {k: (f"{v[0]:.3g}", f"{v[1]:.3g}") for k, v in per_image[name].items()},
            file=sys.stderr,
            flush=True,
        )
    print("| measure | default: range over images | truncated=True: range |")
    print("|---|---|---|")
    for measure, values in table.items():
        d = [v[0] for v in values]
        t = [v[1] for v in values]
        print(f"| {measure} | {min(d):.3g} .. {max(d):.3g} | {min(t):.3g} .. {max(t):.3g} |")
    print()
    print("| image | " + " | ".join(table) + " |")
    print("|---" * (len(table) + 1) + "|")
    for name, measures in per_image.items():
        print(f"| {name} | " + " | ".join(f"{v[0]:.3g}" for v in measures.values()) + " |")


if __name__ == "__main__":
    main(sys.argv[1:] or None)
