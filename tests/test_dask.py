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
            img = _blob_image()
            blobs = sd.blob_log(da.from_array(img, chunks=60), max_sigma=8, threshold=0.1)
    _close(g, sftwave.gaussian_filter1d(x, 80.0))
    _close(p, sftwave.cwt(x, freqs, output="power", decim=4))
    np.testing.assert_array_equal(blobs, sftwave.feature.blob_log(img, max_sigma=8, threshold=0.1))


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


# --------------------------------------------------------------------------- image features

def _image(shape, seed=0, dtype=np.float64):
    """A smooth random field plus a few sharp edges, with a NaN that crosses chunk borders."""
    rng = np.random.default_rng(seed)
    img = sftwave.gaussian_filter(rng.standard_normal(shape), 2.0)
    img[tuple(slice(s // 3, s // 2) for s in shape)] += 3.0
    img[tuple(s // 2 for s in shape)] = np.nan
    return img.astype(dtype)


def _close_list(got, ref, rel):
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert isinstance(g, da.Array)
        _close(g.compute(), r, rel)


_FEATURE_CHUNKS = [(40, 50), (7, 90), (130, 11)]


@pytest.mark.parametrize("chunks", _FEATURE_CHUNKS)
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
@pytest.mark.parametrize("gd", [True, False])
def test_hessian_matrix_any_chunking(chunks, mode, gd):
    from sftwave import feature

    img = _image((130, 90))
    for sigma in (0.8, 3.0, (2.0, 9.0)):
        H = sd.hessian_matrix(da.from_array(img, chunks=chunks), sigma, mode=mode, cval=0.3,
                              use_gaussian_derivatives=gd)
        _close_list(H, feature.hessian_matrix(img, sigma, mode=mode, cval=0.3,
                                              use_gaussian_derivatives=gd), 1e-12)


def test_hessian_and_structure_eigenvalues_3d_and_float32():
    from sftwave import feature

    vol = _image((30, 26, 34), seed=1, dtype=np.float32)
    dvol = da.from_array(vol, chunks=(9, 13, 17))
    H = sd.hessian_matrix(dvol, 2.5, mode="reflect", use_gaussian_derivatives=True)
    ref = feature.hessian_matrix(vol, 2.5, mode="reflect", use_gaussian_derivatives=True)
    assert [h.dtype for h in H] == [r.dtype for r in ref] == [np.float32] * 6
    _close_list(H, ref, 1e-5)       # float32 recursions, started at another sample per block
    ev = sd.hessian_matrix_eigvals(H)
    assert ev.shape == (3,) + vol.shape and ev.chunks[0] == (3,)
    _close(ev.compute(), feature.hessian_matrix_eigvals(ref), 1e-5)
    A = sd.structure_tensor(dvol, 1.5, mode="nearest")
    refA = feature.structure_tensor(vol, 1.5, mode="nearest")
    _close_list(A, refA, 1e-5)
    _close(sd.structure_tensor_eigenvalues(A).compute(),
           feature.structure_tensor_eigenvalues(refA), 1e-5)


@pytest.mark.parametrize("chunks", _FEATURE_CHUNKS)
@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap"])
def test_structure_tensor_any_chunking(chunks, mode):
    from sftwave import feature

    img = _image((130, 90), seed=2)
    for sigma in (1.0, 6.0):
        A = sd.structure_tensor(da.from_array(img, chunks=chunks), sigma, mode=mode, cval=-1.0,
                                order="xy")
        _close_list(A, feature.structure_tensor(img, sigma, mode=mode, cval=-1.0, order="xy"),
                    1e-12)


@pytest.mark.parametrize("chunks", _FEATURE_CHUNKS)
def test_difference_of_gaussians_any_chunking(chunks):
    from sftwave import feature

    img = _image((130, 90), seed=3)
    for low, high, mode in ((1.0, None, "nearest"), (2.0, 20.0, "reflect"), ((0.0, 3.0), (4.0, 5.0),
                                                                             "wrap")):
        d = sd.difference_of_gaussians(da.from_array(img, chunks=chunks), low, high, mode=mode)
        _close(d.compute(), feature.difference_of_gaussians(img, low, high, mode=mode), 1e-12)
    rgb = np.stack([img, 2 * img, -img], axis=-1)
    d = sd.difference_of_gaussians(da.from_array(rgb, chunks=chunks + (1,)), 1.5, 4.0,
                                   channel_axis=-1)
    _close(d.compute(), feature.difference_of_gaussians(rgb, 1.5, 4.0, channel_axis=-1), 1e-12)


@pytest.mark.parametrize("gamma", [None, 0.05])
@pytest.mark.parametrize("black_ridges", [True, False])
def test_frangi_any_chunking(gamma, black_ridges):
    from sftwave import feature

    img = np.ones((120, 100))
    img[:, 50] = 0.0
    img[60, :] = 0.2
    img += 0.05 * _image((120, 100), seed=4)       # a NaN too: gamma over the finite pixels
    for chunks in ((40, 30), (120, 7)):
        v = sd.frangi(da.from_array(img, chunks=chunks), sigmas=[1, 2, 4], gamma=gamma,
                      black_ridges=black_ridges)
        ref = feature.frangi(img, sigmas=[1, 2, 4], gamma=gamma, black_ridges=black_ridges)
        _close(v.compute(), ref, 1e-12)
    vol = _image((24, 20, 22), seed=5, dtype=np.float32)
    v = sd.frangi(da.from_array(vol, chunks=10), sigmas=[1.0, 2.0])
    assert v.dtype == np.float32
    _close(v.compute(), feature.frangi(vol, sigmas=[1.0, 2.0]), 1e-5)


def test_feature_bad_arguments_fail_at_the_call():
    """Checked when the lazy array is made, by the in-memory function's own checks."""
    x = da.zeros((50, 40), chunks=20)
    with pytest.raises(ValueError, match="sigma"):
        sd.hessian_matrix(x, -1.0)
    with pytest.raises(ValueError, match="mode"):
        sd.structure_tensor(x, 1.0, mode="edge")
    with pytest.raises(ValueError, match="high_sigma"):
        sd.difference_of_gaussians(x, 3.0, 1.0)
    with pytest.raises(ValueError, match="2-D or 3-D"):
        sd.frangi(da.zeros(30, chunks=10))
    with pytest.raises(TypeError, match="complex"):
        sd.hessian_matrix(da.zeros((10, 10), dtype=complex, chunks=5), 1.0)
    with pytest.raises(ValueError, match="H_elems"):
        sd.hessian_matrix_eigvals([x, x])
    with pytest.raises(ValueError, match="one shape"):
        sd.structure_tensor_eigenvalues([x, x, da.zeros((50, 41), chunks=20)])
    with pytest.raises(TypeError, match="H_elems"):
        sd.hessian_matrix_eigvals(x)


@pytest.mark.parametrize("name", ["sato"])
@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
def test_ridge_filters_any_chunking(name, mode):
    from sftwave import feature

    img = np.ones((110, 96))
    img[:, 40] = 0.0
    img[70, :] = 0.3
    img += 0.05 * _image((110, 96), seed=6)
    for chunks in ((40, 30), (110, 9)):
        got = getattr(sd, name)(da.from_array(img, chunks=chunks), sigmas=[1, 3], mode=mode,
                                black_ridges=False)
        _close(got.compute(), getattr(feature, name)(img, sigmas=[1, 3], mode=mode,
                                                     black_ridges=False), 1e-12)
    vol = _image((20, 22, 18), seed=7, dtype=np.float32)
    got = getattr(sd, name)(da.from_array(vol, chunks=9), sigmas=[1.5])
    assert got.dtype == np.float32
    _close(got.compute(), getattr(feature, name)(vol, sigmas=[1.5]), 1e-5)


@pytest.mark.parametrize("mode,cval", [("reflect", 0.0), ("constant", 0.7), ("nearest", 0.0),
                                       ("wrap", 0.0), ("mirror", 0.0)])
def test_gabor_bank_any_chunking(mode, cval):
    """Blocks smaller than the filters' reach, separable passes and the direct kernel
    (an anisotropic Gaussian at an angle) alike: the lazy bank equals the in-memory one."""
    from sftwave import feature

    img = _image((96, 84), seed=7)
    freqs, thetas = [0.08, 0.3], np.arange(4) * np.pi / 4
    for chunks in ((30, 25), (96, 7)):
        got = sd.gabor_bank(da.from_array(img, chunks=chunks), freqs, thetas, mode=mode, cval=cval)
        assert got.shape == (2, 4, 96, 84) and got.dtype == np.complex128
        _close(got.compute(), feature.gabor_bank(img, freqs, thetas, mode=mode, cval=cval), 1e-12)
    args = dict(sigma_x=2.0, sigma_y=4.0, mode=mode, cval=cval)    # theta 0.5: the direct kernel
    real, imag = sd.gabor(da.from_array(img, chunks=(20, 30)), 0.2, 0.5, **args)
    r0, i0 = feature.gabor(img, 0.2, 0.5, **args)
    _close(real.compute(), r0, 1e-12)
    _close(imag.compute(), i0, 1e-12)


def test_gabor_float32_and_nan_across_chunks():
    from sftwave import feature

    img = _image((80, 70), seed=8, dtype=np.float32)
    img[39, 35] = np.nan                             # on a chunk corner
    got = sd.gabor_bank(da.from_array(img, chunks=(40, 35)), [0.15], [0.0, np.pi / 2])
    ref = feature.gabor_bank(img, [0.15], [0.0, np.pi / 2])
    assert got.dtype == np.complex64
    assert np.array_equal(np.isnan(got.compute()), np.isnan(ref))
    _close(got.compute(), ref, 1e-5)


def test_gabor_bad_arguments_fail_at_the_call():
    x = da.zeros((50, 40), chunks=20)
    with pytest.raises(ValueError, match="frequencies"):
        sd.gabor_bank(x, [0.1, -0.2], [0.0])
    with pytest.raises(ValueError, match="2-D"):
        sd.gabor(da.zeros((5, 50, 40), chunks=20), 0.1)
    with pytest.raises(ValueError, match="mode"):
        sd.gabor(x, 0.1, mode="edge")


@pytest.mark.parametrize("wavelet", ["mexh", "dog6"])
def test_cwt_dog_wavelets_as_in_memory(wavelet):
    """The DOG wavelets through sftwave.dask.cwt: the chunks' overlaps sized by their plans."""
    x = np.random.default_rng(4).standard_normal((2, 9000))
    freqs = np.geomspace(0.004, 0.4, 9)
    y = sd.cwt(da.from_array(x, chunks=(1, 2000)), freqs, wavelet=wavelet, output="power",
               decim=3)
    ref = sftwave.cwt(x, freqs, wavelet=wavelet, output="power", decim=3)
    assert y.dtype == ref.dtype == np.float64
    assert np.allclose(y.compute(), ref, rtol=1e-10, atol=1e-12 * ref.max())


# --------------------------------------------------------------------------- coherence


def _coherent_pair(n: int, seed: int = 5):
    """Two records that share a lagged component (coherence well above 0 and below 1)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, n))
    y = np.roll(x[0], 7) + 0.8 * rng.standard_normal(n)
    return x, y


@pytest.mark.parametrize("mode,cval", [("reflect", 0.0), ("constant", 0.0), ("constant", 0.5),
                                       ("wrap", 0.0), ("nearest", 0.0)])
@pytest.mark.parametrize("chunks", [(1, 700), (2, 5000)])
def test_wct_any_chunking(mode, cval, chunks):
    """Chunks smaller than the reach (merged first) and larger, every mode: the coherence, the
    smoothed cross-spectrum and its phase equal the in-memory ones within rounding."""
    from sftwave.coherence import wct

    x, y = _coherent_pair(12000)
    freqs = np.geomspace(0.006, 0.4, 14)
    r = sd.wct(da.from_array(x, chunks=chunks), y, freqs, mode=mode, cval=cval)
    ref = wct(x, y, freqs, mode=mode, cval=cval)
    r2, phase, cross = da.compute(r.coherence, r.phase, r.cross)
    assert r2.shape == ref.coherence.shape == (2, 14, 12000)
    # R^2 is in [0, 1]: 1e-10 absolute; the spectrum relative to its largest value
    _close(r2, ref.coherence, rel=1e-10)
    _close(cross, ref.cross, rel=1e-10)
    strong = np.abs(ref.cross) > 1e-6 * np.abs(ref.cross).max()
    assert np.max(np.abs(np.angle(np.exp(1j * (phase - ref.phase)))[strong])) <= 1e-8
    assert np.array_equal(r.coi, ref.coi)


def test_wct_time_axis_first_and_pycwt_smoothing():
    from sftwave.coherence import wct

    x, y = _coherent_pair(9000, seed=6)
    xs, ys = x.T, y[:, None]                  # time first; y broadcast over x's two channels
    freqs = 1.0 / np.geomspace(4.0, 400.0, 20)
    r = sd.wct(da.from_array(xs, chunks=(3000, 1)), ys, freqs, axis=0, smoothing="pycwt",
               mode="constant")
    ref = wct(xs, ys, freqs, axis=0, smoothing="pycwt", mode="constant")
    _close(r.coherence.compute(), ref.coherence, rel=1e-10)


def test_wct_nan_reaches_as_in_memory():
    """A NaN in one chunk spreads to the outputs it reaches in memory, no further."""
    from sftwave.coherence import wct

    x, y = _coherent_pair(10000, seed=7)
    x[1, 4321] = np.nan
    freqs = np.geomspace(0.02, 0.4, 8)
    got = sd.wct(da.from_array(x, chunks=(1, 1500)), y, freqs).coherence.compute()
    ref = wct(x, y, freqs).coherence
    assert np.isnan(ref[1]).any() and not np.isnan(ref[0]).any()
    _close(got, ref, rel=1e-10)


def test_xwt_as_in_memory():
    from sftwave.coherence import xwt

    x, y = _coherent_pair(8000, seed=8)
    freqs = np.geomspace(0.01, 0.3, 6)
    got = sd.xwt(da.from_array(x, chunks=(1, 900)), da.from_array(y, chunks=2000), freqs,
                 mode="constant")
    ref = xwt(x, y, freqs, mode="constant")
    _close(got.compute(), ref, rel=1e-10)


def test_coherence_bad_arguments_fail_at_the_call():
    x = da.zeros((2, 500), chunks=100)
    with pytest.raises(ValueError, match="Nyquist"):
        sd.wct(x, x, [0.2, 0.7])
    with pytest.raises(ValueError, match="same length"):
        sd.wct(x, da.zeros(400, chunks=100), [0.1])
    with pytest.raises(ValueError, match="smoothing"):
        sd.wct(x, x, [0.1], smoothing="boxcar")
    with pytest.raises(TypeError, match="real"):
        sd.xwt(x.astype(complex), x, [0.1])
    with pytest.raises(ValueError, match="broadcast"):
        sd.wct(da.zeros((3, 500), chunks=100), x, [0.1])


@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
@pytest.mark.parametrize("black_ridges", [True, False])
def test_meijering_any_chunking(mode, black_ridges):
    """Each scale normalised by its maximum over the whole image (a lazy reduction over the
    blocks' own samples), as in memory; chunks smaller than the reach merged first."""
    from sftwave import feature

    rng = np.random.default_rng(9)
    img = rng.standard_normal((70, 64))
    img[:, 20] -= 4.0                                   # a dark ridge
    img[40, :] += 3.0                                   # a bright one
    got = sd.meijering(da.from_array(img, chunks=(16, 20)), sigmas=[1, 2.5], mode=mode,
                       black_ridges=black_ridges).compute()
    ref = feature.meijering(img, sigmas=[1, 2.5], mode=mode, black_ridges=black_ridges)
    _close(got, ref, rel=1e-12)


def test_meijering_3d_float32_nan_and_alpha():
    from sftwave import feature

    img = np.random.default_rng(10).standard_normal((20, 24, 22)).astype(np.float32)
    img[3, 4, 5] = np.nan
    got = sd.meijering(da.from_array(img, chunks=8), sigmas=[1.0], alpha=-0.2).compute()
    ref = feature.meijering(img, sigmas=[1.0], alpha=-0.2)
    assert got.dtype == ref.dtype == np.float32
    _close(got, ref, rel=1e-6)          # float32: the responses' rounding


def test_meijering_bad_arguments_fail_at_the_call():
    x = da.zeros((50, 40), chunks=20)
    with pytest.raises(ValueError, match="sigmas"):
        sd.meijering(x, sigmas=[1, -2])
    with pytest.raises(ValueError, match="alpha"):
        sd.meijering(x, alpha=float("nan"))


# ----------------------------------------------------------------------------- blobs

def _planted(shape, blobs, dtype=np.float64):
    """Gaussian blobs ``(centre..., t, amplitude)`` on a zero background."""
    grid = np.indices(shape, dtype=np.float64)
    image = np.zeros(shape)
    for *centre, t, amp in blobs:
        image += amp * np.exp(-sum((g - c) ** 2 for g, c in zip(grid, centre)) / (2 * t * t))
    return image.astype(dtype)


# centres on chunk borders (45, 90 with chunks of 45), at the image's border and corners
BLOBS = [(45, 30, 3.0, 1.0), (90, 90, 4.0, 0.9), (2, 60, 2.0, 0.8), (150, 2, 2.5, 0.7),
         (120, 140, 6.0, 0.85), (44, 46, 2.0, 0.6), (70, 118, 5.0, 0.75), (10, 10, 1.5, 0.9)]


def _blob_image(dtype=np.float64):
    noise = 0.02 * np.random.default_rng(11).standard_normal((160, 150))
    return (_planted((160, 150), BLOBS) + noise).astype(dtype)


@pytest.mark.parametrize("chunks", [45, (20, 150), (160, 37), 8])
@pytest.mark.parametrize("kw", [
    dict(max_sigma=10, threshold=0.1),
    dict(max_sigma=12, num_sigma=7, log_scale=True, threshold=None, threshold_rel=0.3),
    dict(min_sigma=(1, 2), max_sigma=(8, 9), threshold=0.05, exclude_border=(4, 11)),
    dict(max_sigma=6, threshold=0.02, overlap=0.2, exclude_border=True),
])
def test_blob_log_the_same_blobs_as_in_memory(chunks, kw):
    """Every detection, its sigma and the order of the rows as in memory, whatever the chunks
    (8: smaller than the reach, merged first), with blobs on chunk borders and at the image's
    edges, noise peaks among them (hundreds at the lowest threshold), two-pass thresholds,
    per-axis sigmas and borders."""
    from sftwave import feature

    img = _blob_image()
    got = sd.blob_log(da.from_array(img, chunks=chunks), **kw)
    ref = feature.blob_log(img, **kw)
    assert isinstance(got, np.ndarray) and got.dtype == ref.dtype and len(ref) >= 4
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("chunks", [(50, 45), 8])
def test_blobs_of_a_textured_image_as_in_memory(chunks):
    """Hundreds of peaks of smoothed noise, many near block borders: the blocks' reach decides
    them (half the reach loses two of the 390 Laplacian blobs)."""
    from sftwave import feature

    img = sftwave.gaussian_filter(np.random.default_rng(12).standard_normal((200, 180)), 2.0)
    img = (img - img.min()) / (img.max() - img.min())
    x = da.from_array(img, chunks=chunks)
    for func, ref_func, kw in ((sd.blob_log, feature.blob_log, dict(max_sigma=6, num_sigma=6,
                                                                    threshold=0.02)),
                               (sd.blob_dog, feature.blob_dog, dict(max_sigma=8, threshold=0.01))):
        ref = ref_func(img, **kw)
        assert len(ref) >= 100
        np.testing.assert_array_equal(func(x, **kw), ref)


@pytest.mark.parametrize("chunks", [45, (160, 37)])
def test_blob_dog_the_same_blobs_as_in_memory(chunks):
    from sftwave import feature

    img = _blob_image(np.float32)
    for kw in (dict(max_sigma=10, threshold=0.05), dict(max_sigma=8, threshold=None,
                                                           threshold_rel=0.2)):
        got = sd.blob_dog(da.from_array(img, chunks=chunks), **kw)
        ref = feature.blob_dog(img, **kw)
        assert got.dtype == ref.dtype == np.float32 and len(ref) >= 5
        np.testing.assert_array_equal(got, ref)


def test_blob_log_3d_integer_and_nan():
    from sftwave import feature

    vol = _planted((40, 42, 44), [(20, 21, 10, 2.0, 1.0), (8, 30, 30, 3.0, 0.9), (33, 10, 40, 2.0, 0.8)])
    u8 = np.round(vol / vol.max() * 255).astype(np.uint8)
    kw = dict(min_sigma=1, max_sigma=4, num_sigma=5, threshold=0.05)
    got = sd.blob_log(da.from_array(u8, chunks=(15, 20, 13)), **kw)
    ref = feature.blob_log(u8, **kw)
    assert got.dtype == np.float64 and len(ref) == 3
    np.testing.assert_array_equal(got, ref)
    vol[5, 5, 5] = np.nan                     # NaN is never a blob, and confined as in memory
    got = sd.blob_log(da.from_array(vol, chunks=14), **kw)
    np.testing.assert_array_equal(got, feature.blob_log(vol, **kw))


def test_blobs_none_and_bad_arguments():
    for func in (sd.blob_log, sd.blob_dog):
        assert func(da.zeros((60, 50), chunks=20), threshold=None).shape == (0, 3)  # constant
        assert func(da.zeros((0, 50), chunks=20)).shape == (0, 3)
        with pytest.raises(ValueError, match="2-D or 3-D"):
            func(da.zeros(50, chunks=20))
        with pytest.raises(ValueError, match="overlap"):
            func(da.zeros((50, 40), chunks=20), overlap=2)
        with pytest.raises(TypeError, match="exclude_border"):
            func(da.zeros((50, 40), chunks=20), exclude_border=1.5)
    with pytest.raises(ValueError, match="num_sigma"):
        sd.blob_log(da.zeros((50, 40), chunks=20), num_sigma=0)
    with pytest.raises(ValueError, match="sigma_ratio"):
        sd.blob_dog(da.zeros((50, 40), chunks=20), sigma_ratio=1.0)


# ----------------------------------------------------------------------------- synchrosqueezing

def _ssq_signal():
    t = np.arange(30000)
    rng = np.random.default_rng(3)
    x = (np.cos(2 * np.pi * (0.01 * t + 2e-6 * t**2)) + 0.5 * np.cos(2 * np.pi * 0.15 * t)
         + 0.3 * rng.standard_normal(t.size))
    return np.stack([x, np.roll(x, 700)])


def _same_squeeze(got, ref, rel=1e-10):
    """Equal within ``rel`` of the largest bin (float64 rounding; 1e-5 for float32 rows), but
    where a coefficient's frequency lies within rounding of a bin edge (it then moves to the
    neighbouring bin: at most 1e-4 of the bins differ, and every column's sum over the bins
    stays within ``rel``)."""
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    scale = float(np.nanmax(np.abs(ref)))
    ok = ~np.isnan(ref)
    assert np.mean(np.abs(got[ok] - ref[ok]) > rel * scale) <= 1e-4
    cols = np.abs(np.nansum(got, axis=-2) - np.nansum(ref, axis=-2))
    assert cols.max() <= rel * scale


@pytest.mark.parametrize("chunks", [(1, 7000), (2, 500)])
@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
def test_ssq_cwt_any_chunking(chunks, mode):
    """As the in-memory call without the FFT, NaN columns confined as in memory (chunks of 500:
    merged first, to hold the widest window); halving the blocks' reach fails it."""
    from sftwave.synchrosqueeze import ssq_cwt

    x = _ssq_signal()
    x[1, 12000] = np.nan
    freqs = np.geomspace(0.003, 0.45, 60)
    got = sd.ssq_cwt(da.from_array(x, chunks=chunks), freqs, mode=mode)
    assert isinstance(got, da.Array)
    _same_squeeze(got.compute(), ssq_cwt(x, freqs, fft=False, mode=mode))


def test_ssq_cwt_options_axis_and_float32():
    from sftwave.synchrosqueeze import ssq_cwt

    x = _ssq_signal().T.astype(np.float32)                       # time first
    freqs = np.geomspace(0.01, 0.4, 30)
    kw = dict(ssq_freqs="linear", squeezing="lebesgue", xi=8.0, gamma=1e-3, derivative="transform")
    got = sd.ssq_cwt(da.from_array(x, chunks=(6000, 1)), freqs, 2.0, axis=0, **kw).compute()
    ref = ssq_cwt(x, freqs, 2.0, axis=0, fft=False, **kw)
    assert got.dtype == np.complex64 and got.shape == (2, 30, 30000)
    _same_squeeze(got, ref, rel=1e-5)          # float32 rows: a few more coefficients move bins


def test_ssq_cwt_bad_arguments_fail_at_the_call():
    x = da.zeros((2, 5000), chunks=1000)
    for kw in (dict(out=np.zeros(1)), dict(fft=True), dict(return_cwt=True)):
        with pytest.raises(TypeError, match=next(iter(kw))):
            sd.ssq_cwt(x, [0.1, 0.2], **kw)
    with pytest.raises(TypeError, match="real"):
        sd.ssq_cwt(x.astype(complex), [0.1, 0.2])
    with pytest.raises(ValueError, match="freqs"):
        sd.ssq_cwt(x, [0.1, 0.7])
    with pytest.raises(ValueError, match="freqs"):
        sd.ssq_cwt(da.zeros(40, chunks=10), [1e-6, 0.1])               # longer than the signal allows
    assert sd.ssq_cwt(da.zeros((3, 0), chunks=1), [0.1, 0.2]).shape == (3, 2, 0)
