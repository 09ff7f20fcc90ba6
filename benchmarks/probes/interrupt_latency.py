"""How soon Ctrl-C ends a long call: SIGINT sent to a child process busy with calls, time to exit.

Each workload runs in a fresh child that loops over one call; 3 s after it is ready the parent
sends SIGINT and measures how long the child takes to exit (status 130: KeyboardInterrupt), the
signal and the wait timed as one call of :func:`sftwave_paper.timer.measure`.

    .venv/bin/python benchmarks/probes/interrupt_latency.py      # about 15 s
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from sftwave_paper.timer import measure

CHILD = r"""
import sys, numpy as np, sftwave
kind = sys.argv[1]
x = np.random.default_rng(0).standard_normal(2_000_000)
freqs = np.geomspace(0.001, 0.4, 100)
sftwave.cwt(x[:5000], freqs)
sftwave.gaussian_filter(np.ones((64, 64)), 8.0)
image = np.ones((4000, 4000))
print("ready", flush=True)
try:
    for _ in range(1000):
        if kind == "cwt 2e6 x 100":
            sftwave.cwt(x, freqs, output="power")
        else:
            sftwave.gaussian_filter(image, 8.0)
except KeyboardInterrupt:
    sys.exit(130)
"""

WORKLOADS = ("cwt 2e6 x 100", "gaussian_filter 4000^2 sigma 8")


def main() -> int:
    for kind in WORKLOADS:
        child = subprocess.Popen([sys.executable, "-c", CHILD, kind], stdout=subprocess.PIPE,
                                 text=True)
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(3.0)

        def interrupt(child=child):
            child.send_signal(signal.SIGINT)
            return child.wait(120)

        m = measure(interrupt, repeats=1, warmup=False)
        print(f"{kind:32s} exit status {m['result']}, {m['median_s']:.2f} s after SIGINT")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
