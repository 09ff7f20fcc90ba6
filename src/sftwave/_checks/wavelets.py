"""The wavelet family's checks: the type its transforms return.

(The wavelet itself is parsed once by :func:`sftwave.plans.families.wavelet_family`, which
lives with the family objects in the plans layer: a family carries its plan selection.)
"""

from __future__ import annotations

from .ndimage import Array

__all__ = ["Array"]
