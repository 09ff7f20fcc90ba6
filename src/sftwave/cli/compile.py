"""``sftwave compile``: fill the kernel cache ahead of time (container images, CI).

The CPU kernels are compiled by numba the first time a process needs them and
kept in its disk cache; a fresh install pays that once per kernel, seconds
each.  This command runs the common calls of each family on small inputs (the
Gaussian filters of orders 0 to 2 in float64, float32 and uint8; ``cwt`` in
float64 and float32, complex and power; MNE's ``tfr_array_morlet``; pycwt's
``wct`` coherence), so that the kernels they use are compiled and stored
(through the engine's ``precompile`` operation), and prints a line per call.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["common_calls", "compile_command"]


def common_calls() -> list[tuple[str, Callable[[], object]]]:
    """The calls whose kernels ``sftwave compile`` compiles: ``(label, call)`` pairs.

    Examples
    --------
    >>> labels = [label for label, _ in common_calls()]
    >>> "cwt float64, complex" in labels
    True
    """
    import sftwave

    rng = np.random.default_rng(0)
    image = rng.standard_normal((256, 256))
    line = np.cumsum(rng.standard_normal((4, 10_000)), axis=-1)
    freqs = np.geomspace(1.0, 100.0, 50)

    def gaussian(dtype):
        def call():
            x = (image * 40 + 128).clip(0, 255).astype(dtype) if dtype == np.uint8 else image.astype(dtype)
            for order in (0, 1, 2):
                sftwave.gaussian_filter(x, 4.0, order=order)
            sftwave.gaussian_filter1d(line.astype(x.dtype), 8.0)
        return call

    def cwt(dtype, output):
        return lambda: sftwave.cwt(line.astype(dtype), freqs, 1000.0, output=output)

    def mne():
        from sftwave.mne import tfr_array_morlet

        epochs = rng.standard_normal((2, 4, 2000))
        tfr_array_morlet(epochs, 500.0, np.arange(4.0, 40.0, 2.0), n_cycles=5, output="power")
        tfr_array_morlet(epochs, 500.0, np.arange(4.0, 40.0, 2.0), n_cycles=5, output="complex")

    def coherence():
        from sftwave import pycwt
        from sftwave.coherence import wct_pairs

        a, b = rng.standard_normal((2, 504))
        pycwt.wct(a, b, 0.25)
        wct_pairs(rng.standard_normal((3, 1000)), [0.1, 0.05])

    def long_line():
        long = np.cumsum(rng.standard_normal(70_000))
        for dtype in (np.float64, np.float32):
            sftwave.gaussian_filter1d(long.astype(dtype), 256.0)

    def superlet():
        sftwave.superlet(line[0], freqs[:8], 1000.0, order_max=4, adaptive=True)

    def features():
        from sftwave.feature import multiscale_basic_features

        multiscale_basic_features(image[:64, :64], sigma_max=4)

    return [
        ("Gaussian filters, float64", gaussian(np.float64)),
        ("Gaussian filters, float32", gaussian(np.float32)),
        ("Gaussian filters, uint8", gaussian(np.uint8)),
        ("cwt float64, complex", cwt(np.float64, "complex")),
        ("cwt float64, power", cwt(np.float64, "power")),
        ("cwt float32, complex", cwt(np.float32, "complex")),
        ("cwt float32, power", cwt(np.float32, "power")),
        ("MNE tfr_array_morlet", mne),
        ("Gaussian filter of long lines", long_line),
        ("pycwt wct and wct_pairs (coherence)", coherence),
        ("superlet", superlet),
        ("multiscale_basic_features", features),
    ]


def compile_command(say: Callable[[str], None] = print) -> int:
    """Compile the kernels of :func:`common_calls` into numba's disk cache; the count compiled.

    Examples
    --------
    >>> callable(compile_command)
    True
    """
    from ..engines import operation, resolve_engine

    # the engine that numpy arrays run on: the one whose kernels numba caches
    precompile = operation(resolve_engine(None, np.empty(0)), "precompile")
    records = precompile(common_calls(), progress=say)
    compiled = sum(r["compiled"] for r in records)
    loaded = sum(r["loaded"] for r in records)
    seconds = sum(r["seconds"] for r in records)
    say(f"done: {compiled} kernels compiled, {loaded} already cached, {seconds:.1f} s")
    return compiled
