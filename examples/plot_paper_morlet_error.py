r"""
The paper's Morlet error figures
================================

Section V-A of Yamashita & Wakahara measures how well sums of SFT (or ASFT)
components approximate the sampled Morlet wavelet of width
:math:`\sigma = 60`, by its relative RMS error against :math:`\xi`, for the
paper's two designs: the *direct* method (a fit of the wavelet on
:math:`P_D` orders around the carrier) and the *multiplication* method (a fit
of the Gaussian envelope on :math:`P_M + 1` orders, times the carrier).  The
workbench beside the package recomputes its figures; this example runs its
code, ``sftwave_paper.morlet_error``, on the quick grid of ``xi`` (1, 2, 6 and
12), as ``python -m sftwave_paper morlet-error --quick`` does.  The full grid
(``xi`` from 1 to 20 by 0.5, a minute or so) and the discussion of each claim
are in :doc:`/paper`.
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from sftwave_paper import morlet_error

results = morlet_error.compute(morlet_error.XI_QUICK)   # every curve, each layout optimal
summary = morlet_error.claims(results)

# %%
# The errors behind the figures, per curve and ``xi`` (``direct_PD5_SFT`` is
# the direct method with :math:`P_D = 5` on the SFT, ``multiply_PM2_ASFT`` the
# multiplication method with :math:`P_M = 2` on sftwave's ASFT, and
# ``truncated_3sigma`` the wavelet cut at :math:`\pm 3\sigma`):

print(f"{'curve':48}" + "".join(f"  xi={xi:<5g}" for xi in results["xi"]))
for name, curve in results["curves"].items():
    print(f"{name:48}" + "".join(f"  {e:8.1e}" for e in curve["error"]))
print()
print("multiplication / direct error for xi >= 6:",
      ", ".join(f"{k} {v[0]:.2f}..{v[1]:.2f}" for k, v in summary["pairs_xi_ge_6"].items() if v))
print("optimum P_S of the direct method (P_D = 6, SFT):", summary["optimum_P_S"]["P_S"])

# %%
# The workbench draws the three figures, as the command line does; here they
# are written to a temporary folder and shown.  Fig. MSE1 compares the two
# methods for four pairs :math:`(P_D, P_M)`; the second figure sets the
# direct method with :math:`P_D = 6` against the wavelet truncated to
# :math:`[-3\sigma, 3\sigma]` and the paper's ASFT shift trick; Fig. MSE2 is
# the optimum first order :math:`P_S` of the direct method.

with tempfile.TemporaryDirectory() as folder:
    paths = morlet_error.write_figures(results, folder)
    images = [plt.imread(path) for path in paths]
    names = [Path(path).name for path in paths]

for image, name in zip(images, names):
    height, width = image.shape[:2]
    fig = plt.figure(figsize=(width / 110, height / 110), dpi=110)   # the workbench's dpi
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow(image)
    ax.set_axis_off()
    print(name)
