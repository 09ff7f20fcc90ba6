"""What subnormal input costs and how accurate it is: the same calls on x and on x * 1e-310.

Prints, per call, the best of 5 times (:func:`sftwave_paper.timer.measure`, its ``min_s``) on
normal and on subnormal input and their ratio, and the largest error of the subnormal result
against the normal one scaled by 1e-310 (relative to its largest value).  Run it with the
sources to compare on PYTHONPATH.

    .venv/bin/python benchmarks/probes/subnormal_input.py       # about 20 s
"""

from __future__ import annotations

from functools import partial

import numpy as np

import sftwave
from sftwave_paper.timer import measure


def best_ms(call, *args) -> float:
    """The best of 5 timed calls of ``call(*args)`` after a warm-up, in milliseconds."""
    return 1e3 * measure(partial(call, *args), repeats=5)["min_s"]


def main() -> int:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1_000_000)
    image = rng.standard_normal((1024, 1024)).astype(np.float32)
    cases = [
        ("gaussian_filter1d sigma 2 (FIR)", x, 1e-310, lambda a: sftwave.gaussian_filter1d(a, 2.0)),
        ("gaussian_filter1d sigma 30", x, 1e-310, lambda a: sftwave.gaussian_filter1d(a, 30.0)),
        ("gaussian_filter1d sigma 128, order 1", x, 1e-310,
         lambda a: sftwave.gaussian_filter1d(a, 128.0, order=1)),
        ("gaussian_filter float32 1024^2 sigma 8", image, 1e-40,
         lambda a: sftwave.gaussian_filter(a, 8.0)),
        ("cwt 1e5 x 20", x[:100_000], 1e-310,
         lambda a: sftwave.cwt(a, np.geomspace(0.005, 0.2, 20))),
    ]
    print(f"{'call':40s} {'normal ms':>10s} {'subnormal ms':>13s} {'ratio':>6s} {'max rel err':>12s}")
    for name, a, scale, call in cases:
        tiny = a * a.dtype.type(scale)
        normal, sub = best_ms(call, a), best_ms(call, tiny)
        ref = call(a).astype(np.complex128) * scale
        err = np.abs(call(tiny) - ref).max() / np.abs(ref).max()
        print(f"{name:40s} {normal:10.2f} {sub:13.2f} {sub / normal:6.2f} {err:12.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
