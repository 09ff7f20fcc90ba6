"""Experiment: can the bank's recursion run in float32 arithmetic?

The paper's ASFT keeps single-precision recursions bounded.  This script runs the
``iir1`` recursion with float32 state (and the float32-rounded multipliers used
consistently, so the only errors are rounding) on a 10-million-sample random walk
plus an offset, and reports the relative RMSE against the same recursion in
float64 over 1000-sample blocks.  Its table is in docs/design.md.

Run: ``.venv/bin/python benchmarks/float32_state.py [--n N]``
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from sftwave.plans import SFTPlan
from sftwave.plans.gaussian import gaussian_plan


@njit(cache=True)
def _recursion(xe, L, wr, wi, cr, ci, a, b, out, zero):
    """The iir1 recursion with one output, in the dtype of ``zero``."""
    P = wr.shape[0]
    tr = np.zeros(P, dtype=zero.dtype)
    ti = np.zeros(P, dtype=zero.dtype)
    for m in range(xe.shape[0]):
        xn = xe[m]
        xo = xe[m - L] if m >= L else zero[0]
        acc = zero[0]
        for p in range(P):
            u = wr[p] * tr[p] - wi[p] * ti[p] + xn - cr[p] * xo
            v = wr[p] * ti[p] + wi[p] * tr[p] - ci[p] * xo
            tr[p] = u
            ti[p] = v
            acc += a[p] * u + b[p] * v
        if m >= L - 1:
            out[m - L + 1] = acc


def run_plan(x: np.ndarray, plan: SFTPlan, dtype) -> np.ndarray:
    """Filter ``x`` (mode 'reflect') with ``plan``, state and arithmetic in ``dtype``."""
    ctype = np.complex64 if dtype == np.float32 else np.complex128
    w = plan.w.astype(ctype)
    c = np.exp(plan.length * np.log(w.astype(np.complex128))).astype(ctype)  # exact power of the rounded w
    xe = np.pad(x, (plan.pad_before, plan.pad_after), mode="symmetric").astype(dtype)
    out = np.zeros(x.size, dtype=dtype)
    _recursion(xe, plan.length, w.real.copy(), w.imag.copy(), c.real.copy(), c.imag.copy(),
               plan.coef[0, 0].astype(dtype), plan.coef[0, 1].astype(dtype), out,
               np.zeros(1, dtype))
    return out.astype(np.float64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = np.cumsum(rng.standard_normal(args.n))
    x = (x - x.mean()) / x.std() + 5.0
    print("sigma transform K max_block first_block last_block")
    for sigma in (128.0, 2048.0):
        for transform in ("sft", "asft"):
            plan = gaussian_plan(sigma, 0, 1e-5, transform)
            y32 = run_plan(x, plan, np.float32)
            y64 = run_plan(x, plan, np.float64)
            m = (args.n // 1000) * 1000
            d = (y32[:m] - y64[:m]).reshape(-1, 1000)
            r = y64[:m].reshape(-1, 1000)
            blocks = np.sqrt((d**2).sum(1) / (r**2).sum(1))
            print(f"{sigma:g} {transform} {plan.lag} {blocks.max():.2e} {blocks[0]:.2e} {blocks[-1]:.2e}")


if __name__ == "__main__":
    main()
