"""sftwave.dask: lazy results equal to the in-memory ones, any chunking; each block's thread budget.

Within 1e-12 of the in-memory result's largest magnitude in float64 (the same
plans; only the recursions' rounding differs with where a chunk starts), on
the threaded scheduler (several threads call sftwave at once) and on a
``distributed.LocalCluster`` of two worker processes.  Blocks that run side by
side get their share of the process's threads (``sftwave.get_workers()``
inside the block, recorded by a probe), and the budget changes no bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import sftwave

da = pytest.importorskip("dask.array")
sd = pytest.importorskip("sftwave.dask")


def _close(got, ref, rel=1e-12):
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype,
                                                               ref.dtype)
    scale = max(float(np.nanmax(np.abs(ref), initial=0.0)), 1e-300)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.max(np.abs(got[ok] - ref[ok]), initial=0.0) <= rel * scale


@pytest.mark.parametrize("chunks", [(3, 2500), (1, 997), (2, 60), (4, 20000)])
@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_gaussian_filter1d_any_chunking(chunks, mode):
    x = np.cumsum(np.random.default_rng(0).standard_normal((4, 20000)), axis=-1)
    x[2, 7000] = np.nan                         # non-finite input crosses chunk borders too
    for sigma, order in ((1.5, 0), (30.0, 1), (200.0, 2)):
        y = sd.gaussian_filter1d(da.from_array(x, chunks=chunks), sigma, order=order, mode=mode,
                                 cval=0.5)
        assert isinstance(y, da.Array)
        _close(y.compute(), sftwave.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=0.5))


def test_gaussian_filter_volume_axis0_and_integer_output():
    v = np.random.default_rng(1).integers(0, 255, (30, 64, 48)).astype(np.uint8)
    dv = da.from_array(v, chunks=(7, 20, 48))
    _close(sd.gaussian_filter(dv, (3.0, 5.0, 0.0)).compute(),
           sftwave.gaussian_filter(v, (3.0, 5.0, 0.0)), rel=0)
    _close(sd.gaussian_filter1d(dv, 6.0, axis=0, output=np.float64).compute(),
           sftwave.gaussian_filter1d(v, 6.0, axis=0, output=np.float64))
    with pytest.raises(TypeError, match="output"):
        sd.gaussian_filter1d(dv, 2.0, output=np.empty(v.shape))


@pytest.mark.parametrize("output,decim,chunks", [("complex", 1, 1000), ("power", 3, 2500),
                                                 ("abs", 7, 4096), ("phase", 2, 12000)])
def test_cwt_any_chunking(output, decim, chunks):
    x = np.random.default_rng(2).standard_normal((2, 3, 12000))
    freqs = np.geomspace(0.004, 0.45, 10)
    y = sd.cwt(da.from_array(x, chunks=(1, 2, chunks)), freqs, output=output, decim=decim)
    ref = sftwave.cwt(x, freqs, output=output, decim=decim)
    got = y.compute()
    if output == "phase":
        z = sftwave.cwt(x, freqs, decim=decim)
        ok = np.abs(z) > 1e-6 * np.abs(z).max()
        assert got.shape == ref.shape
        assert np.max(np.abs(np.angle(np.exp(1j * (got - ref)))[ok])) <= 1e-9
    else:
        _close(got, ref)


def test_cwt_time_axis_first_and_float32():
    x = np.random.default_rng(3).standard_normal((9000, 2)).astype(np.float32)
    freqs = [0.01, 0.1]
    y = sd.cwt(da.from_array(x, chunks=(1500, 1)), freqs, axis=0, output="power")
    ref = sftwave.cwt(x, freqs, axis=0, output="power")
    assert y.dtype == ref.dtype == np.float32
    # float32 rows (ASFT lanes in float32): within the float32 contract of each other
    assert np.max(np.abs(y.compute() - ref)) <= 1e-4 * np.abs(ref).max()


@pytest.mark.slow
def test_on_a_local_cluster_of_processes():
    distributed = pytest.importorskip("distributed")
    x = np.cumsum(np.random.default_rng(4).standard_normal((6, 40000)), axis=-1)
    freqs = np.geomspace(0.002, 0.3, 8)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster):
            dx = da.from_array(x, chunks=(2, 9000))
            g = sd.gaussian_filter1d(dx, 80.0).compute()
            p = sd.cwt(dx, freqs, output="power", decim=4).compute()
    _close(g, sftwave.gaussian_filter1d(x, 80.0))
    _close(p, sftwave.cwt(x, freqs, output="power", decim=4))


# ----------------------------------------------------------------------------- thread budget


@pytest.fixture
def probe(monkeypatch):
    """Swap the in-memory filter that sftwave.dask's blocks call (looked up when the lazy result
    is built) for one whose output is ``sftwave.get_workers()`` where it runs, in a process whose
    default is 4 threads; ``probe(False)`` puts the real filter back."""
    import sftwave.ndimage
    from sftwave.engines.numba import pool

    monkeypatch.setattr(pool, "_DEFAULT", 4)
    real = sftwave.ndimage.gaussian_filter1d

    def workers_seen(b, *args, **kwargs):
        return np.full(b.shape, float(sftwave.get_workers()))

    def swap(on: bool = True) -> None:
        monkeypatch.setattr(sftwave.ndimage, "gaussian_filter1d", workers_seen if on else real)

    swap()
    return swap


def _bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8),
                                                                       b.view(np.uint8))


def test_blocks_in_a_distributed_worker_share_its_threads(probe):
    """A worker running 2 tasks at once in a process of 4 threads: 2 threads per block; the
    result is the same bits as the synchronous scheduler's (all 4 threads per block)."""
    distributed = pytest.importorskip("distributed")
    x = np.cumsum(np.random.default_rng(5).standard_normal((2, 60_000)), axis=-1)
    dx = da.from_array(x, chunks=(1, 15_000))
    assert np.unique(sd.gaussian_filter1d(dx, 9.0).compute(scheduler="sync")).tolist() == [4]
    probe(False)
    want = sd.gaussian_filter1d(dx, 9.0).compute(scheduler="sync")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster):
            got = sd.gaussian_filter1d(dx, 9.0).compute()
            probe()
            seen = sd.gaussian_filter1d(dx, 9.0).compute()
    assert np.unique(seen).tolist() == [2]
    assert _bits(got, want)


def test_blocks_on_the_threaded_scheduler_share_the_threads(probe):
    """dask's threaded scheduler with 2 workers, a process of 4 threads: 2 per block; a graph of
    one block runs on all 4; the results are the same bits as the synchronous scheduler's (4
    threads per block) and, for a row per block, as the in-memory function's on each row."""
    import dask

    x = np.cumsum(np.random.default_rng(6).standard_normal((3, 40_000)), axis=-1)
    several = da.from_array(x, chunks=(1, 40_000))
    one = da.from_array(x, chunks=-1)
    with dask.config.set(num_workers=2):
        assert np.unique(sd.gaussian_filter1d(several, 5.0).compute(scheduler="threads")
                         ).tolist() == [2]
        assert np.unique(sd.gaussian_filter1d(one, 5.0).compute(scheduler="threads")
                         ).tolist() == [4]
        probe(False)
        got = sd.gaussian_filter1d(several, 5.0).compute(scheduler="threads")
    assert _bits(got, sd.gaussian_filter1d(several, 5.0).compute(scheduler="sync"))
    for r in range(3):
        assert _bits(got[r], sftwave.gaussian_filter1d(x[r], 5.0))
