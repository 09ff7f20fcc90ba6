"""
Lazy scalograms with dask and xarray
====================================

:mod:`sftwave.dask` works on dask arrays: each time chunk gets exactly the
overlap its plan reads from its neighbours, channels need none, and the result
is lazy and equal to the in-memory one.  :mod:`sftwave.xarray` keeps
coordinates and names dimensions (``array.sftwave.cwt(...)``, the accessor that
importing it registers); on dask-backed DataArrays it stays lazy too.  Here a
small recording runs on a ``distributed.LocalCluster``: one worker with two
threads, in this process (``processes=False``), as on a laptop; a cluster of
many machines runs the same code.
"""

import dask.array as da
import matplotlib.pyplot as plt
import numpy as np
import xarray as xr
from distributed import Client, LocalCluster

import sftwave
import sftwave.dask as sd
import sftwave.xarray  # noqa: F401 - registers the .sftwave accessor

fs = 500.0
rng = np.random.default_rng(1)
t = np.arange(40_000) / fs
signal = np.sin(2 * np.pi * (5 + 0.5 * t) * t)[None] + 0.3 * rng.standard_normal((4, t.size))
x = da.from_array(signal, chunks=(1, 10_000))          # 4 channels x 4 time chunks
freqs = np.geomspace(2.0, 60.0, 40)

cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                       dashboard_address=None)
client = Client(cluster)  # from here on, .compute() runs on the cluster
print("threads per worker:", list(client.nthreads().values()))

power = sd.cwt(x, freqs, fs, output="power", decim=10)  # lazy: nothing computed yet
print(power)
result = power.compute()

ref = sftwave.cwt(signal, freqs, fs, output="power", decim=10)
print(f"largest difference from the in-memory result: "
      f"{np.abs(result - ref).max() / ref.max():.1e} of the largest power")

# %%
# The same with xarray: dimensions by name, the sampling rate read from the
# ``time`` coordinate, a ``freq`` coordinate added.

eeg = xr.DataArray(x, dims=("channel", "time"),
                   coords={"channel": ["a", "b", "c", "d"], "time": t},
                   attrs={"units": "uV"})
tfr = eeg.sftwave.cwt(freqs, output="power", decim=10)
print(tfr.dims, tfr.attrs.get("units"), "lazy:", isinstance(tfr.data, da.Array))
tfr = tfr.compute()
client.close()
cluster.close()

fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
tfr.sel(channel="a").plot.pcolormesh(ax=ax, x="time", y="freq", yscale="log", robust=True)
ax.set_title("channel a: a chirp from 5 to 45 Hz")
plt.show()
