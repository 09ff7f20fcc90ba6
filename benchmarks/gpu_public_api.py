"""The public API on a GPU against the CPU engine, on one machine (docs/gpu.md, *Measured on a GPU*).

    PYTHONPATH=src:paper/src python benchmarks/gpu_public_api.py [OUT.json]

Needs a CUDA GPU, numba-cuda and torch with CUDA. Times
``gaussian_filter1d`` on 64 x 10^6 float32 samples at sigma 16, 128 and 2048,
and ``cwt`` of 10^5 float32 samples at 200 frequencies:

* ``'cuda'`` on a numba device array (and, for ``cwt``, on a torch CUDA tensor);
* ``'cuda'`` with a NumPy array in and out (the copies over PCIe included);
* ``'xp'`` on a torch CUDA tensor;
* ``'numba'``, the CPU engine, on all of the host's cores.

Each row is the median of up to 7 calls (5 for ``cwt``) after one untimed call,
each followed by a device synchronisation. A call that fails is recorded with
its error, and the other rows go on.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

import sftwave
from sftwave_paper.timer import measure


def _rows() -> list[dict]:
    import torch
    from numba import cuda

    def tsync() -> None:
        torch.cuda.synchronize()

    def none() -> None:
        return None

    rows: list[dict] = []

    def timed(case: str, engine: str, label: str, fn, sync, repeats: int, **extra) -> None:
        def call():
            out = fn()
            sync()
            return out

        try:
            m = measure(call, repeats=repeats)
            m.pop("result")
            row = {"case": case, "engine": label, **extra, **m}
        except Exception as exc:  # recorded, and the other rows go on
            row = {"case": case, "engine": label, **extra, "error": repr(exc)[:300]}
        rows.append(row)
        print(json.dumps(row), flush=True)

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 1_000_000)).astype(np.float32)
    xd, xt = cuda.to_device(x), torch.from_numpy(x).cuda()
    case = "gaussian_filter1d 64 x 1e6 float32"
    for sigma in (16.0, 128.0, 2048.0):
        for label, engine, arr, sync in (("cuda, device array", "cuda", xd, cuda.synchronize),
                                         ("cuda, numpy in and out", "cuda", x, none),
                                         ("xp, torch CUDA", "xp", xt, tsync),
                                         ("numba, host", "numba", x, none)):
            timed(case, engine, label,
                  lambda arr=arr, engine=engine, sigma=sigma:
                  sftwave.gaussian_filter1d(arr, sigma, axis=-1, engine=engine),
                  sync, 7, sigma=sigma)
    y = rng.standard_normal(100_000).astype(np.float32)
    yt = torch.from_numpy(y).cuda()
    freqs = np.geomspace(1.0, 200.0, 200)
    case = "cwt 1e5 samples x 200 frequencies float32"
    for label, engine, arr, sync in (("cuda, torch CUDA", "cuda", yt, tsync),
                                     ("xp, torch CUDA", "xp", yt, tsync),
                                     ("numba, host", "numba", y, none)):
        timed(case, engine, label,
              lambda arr=arr, engine=engine: sftwave.cwt(arr, freqs, 1000.0, engine=engine),
              sync, 5)
    return rows


def main(argv: list[str]) -> int:
    from numba import cuda

    if not cuda.is_available():
        print("gpu_public_api: no CUDA GPU here", file=sys.stderr)
        return 1
    result = {"device": str(cuda.get_current_device().name), "cpu_count": os.cpu_count(),
              "rows": _rows()}
    if argv:
        with open(argv[0], "w") as fh:
            json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
