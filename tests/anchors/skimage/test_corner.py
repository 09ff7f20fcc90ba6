# Vendored from scikit-image, https://github.com/scikit-image/scikit-image, tag v0.26.0
# (commit ee0a7a3ebd9ac8c2602f40e55bc015a3c8a81ae8), tests/skimage/feature/test_corner.py.
# Copyright (c) 2009-2022 the scikit-image team. License: BSD-3-Clause (the full text and
# notices: LICENSE.txt beside this file).
# Run by tests/anchors/conftest.py under sftwave.patched('skimage').
# ruff: noqa: I001, NPY002  (upstream's import order and random calls, kept)
# Edits (each also marked where made):
#   - only the tests of structure_tensor, hessian_matrix (their eigenvalues, determinant)
#     and shape_index (the file up to test_shape_index); imports the others used removed

import numpy as np
import pytest
from numpy.testing import assert_almost_equal, assert_array_equal, assert_equal

from skimage import draw  # sftwave: data, img_as_float removed (unused here)
from skimage._shared._warnings import expected_warnings
from skimage._shared.testing import run_in_parallel
from skimage._shared.utils import _supported_float_type
# sftwave: only the names the tests kept here use
from skimage.feature import (
    hessian_matrix,
    hessian_matrix_det,
    hessian_matrix_eigvals,
    shape_index,
    structure_tensor,
    structure_tensor_eigenvalues,
)
from skimage.morphology import footprint_rectangle  # sftwave: octagon removed (unused here)


@pytest.fixture
def im3d():
    r = 10
    pad = 10
    im3 = draw.ellipsoid(r, r, r)
    im3 = np.pad(im3, pad, mode='constant').astype(np.uint8)
    return im3


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_structure_tensor(dtype):
    square = np.zeros((5, 5), dtype=dtype)
    square[2, 2] = 1
    Arr, Arc, Acc = structure_tensor(square, sigma=0.1, order='rc')
    out_dtype = _supported_float_type(dtype)
    assert all(a.dtype == out_dtype for a in (Arr, Arc, Acc))
    assert_array_equal(
        Acc,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 0, 1, 0],
                [0, 4, 0, 4, 0],
                [0, 1, 0, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    assert_array_equal(
        Arc,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 0, -1, 0],
                [0, 0, 0, -0, 0],
                [0, -1, -0, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    assert_array_equal(
        Arr,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 4, 1, 0],
                [0, 0, 0, 0, 0],
                [0, 1, 4, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_structure_tensor_3d(dtype):
    cube = np.zeros((5, 5, 5), dtype=dtype)
    cube[2, 2, 2] = 1
    A_elems = structure_tensor(cube, sigma=0.1)
    assert all(a.dtype == _supported_float_type(dtype) for a in A_elems)
    assert_equal(len(A_elems), 6)
    assert_array_equal(
        A_elems[0][:, 1, :],
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 4, 1, 0],
                [0, 0, 0, 0, 0],
                [0, 1, 4, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    assert_array_equal(
        A_elems[0][1],
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 4, 1, 0],
                [0, 4, 16, 4, 0],
                [0, 1, 4, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    assert_array_equal(
        A_elems[3][2],
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 4, 16, 4, 0],
                [0, 0, 0, 0, 0],
                [0, 4, 16, 4, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )


def test_structure_tensor_3d_rc_only():
    cube = np.zeros((5, 5, 5))
    with pytest.raises(ValueError):
        structure_tensor(cube, sigma=0.1, order='xy')
    A_elems_rc = structure_tensor(cube, sigma=0.1, order='rc')
    A_elems_none = structure_tensor(cube, sigma=0.1)
    assert_array_equal(A_elems_rc, A_elems_none)


def test_structure_tensor_orders():
    square = np.zeros((5, 5))
    square[2, 2] = 1
    A_elems_default = structure_tensor(square, sigma=0.1)
    A_elems_xy = structure_tensor(square, sigma=0.1, order='xy')
    A_elems_rc = structure_tensor(square, sigma=0.1, order='rc')
    assert_array_equal(A_elems_rc, A_elems_default)
    assert_array_equal(A_elems_xy, A_elems_default[::-1])


@pytest.mark.parametrize('ndim', [2, 3])
def test_structure_tensor_sigma(ndim):
    img = np.zeros((5,) * ndim)
    img[[2] * ndim] = 1
    A_default = structure_tensor(img, sigma=0.1, order='rc')
    A_tuple = structure_tensor(img, sigma=(0.1,) * ndim, order='rc')
    A_list = structure_tensor(img, sigma=[0.1] * ndim, order='rc')
    assert_array_equal(A_tuple, A_default)
    assert_array_equal(A_list, A_default)
    with pytest.raises(ValueError):
        structure_tensor(img, sigma=(0.1,) * (ndim - 1), order='rc')
    with pytest.raises(ValueError):
        structure_tensor(img, sigma=[0.1] * (ndim + 1), order='rc')


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_hessian_matrix(dtype):
    square = np.zeros((5, 5), dtype=dtype)
    square[2, 2] = 4
    Hrr, Hrc, Hcc = hessian_matrix(
        square, sigma=0.1, order='rc', use_gaussian_derivatives=False
    )

    out_dtype = _supported_float_type(dtype)
    assert all(a.dtype == out_dtype for a in (Hrr, Hrc, Hcc))
    assert_almost_equal(
        Hrr,
        np.array(
            [
                [0, 0, 2, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, -2, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 2, 0, 0],
            ]
        ),
    )

    assert_almost_equal(
        Hrc,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 0, -1, 0],
                [0, 0, 0, 0, 0],
                [0, -1, 0, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )

    assert_almost_equal(
        Hcc,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [2, 0, -2, 0, 2],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )

    with expected_warnings(["use_gaussian_derivatives currently defaults"]):
        # FutureWarning warning when use_gaussian_derivatives is not
        # specified.
        hessian_matrix(square, sigma=0.1, order='rc')


@pytest.mark.parametrize('use_gaussian_derivatives', [False, True])
def test_hessian_matrix_order(use_gaussian_derivatives):
    square = np.zeros((5, 5), dtype=float)
    square[2, 2] = 4

    Hxx, Hxy, Hyy = hessian_matrix(
        square, sigma=0.1, order="xy", use_gaussian_derivatives=use_gaussian_derivatives
    )

    Hrr, Hrc, Hcc = hessian_matrix(
        square, sigma=0.1, order="rc", use_gaussian_derivatives=use_gaussian_derivatives
    )

    # verify results are equivalent, just reversed in order
    assert_array_equal(Hxx, Hcc)
    assert_array_equal(Hxy, Hrc)
    assert_array_equal(Hyy, Hrr)


def test_hessian_matrix_3d():
    cube = np.zeros((5, 5, 5))
    cube[2, 2, 2] = 4
    Hs = hessian_matrix(cube, sigma=0.1, order='rc', use_gaussian_derivatives=False)
    assert len(Hs) == 6, f"incorrect number of Hessian images ({len(Hs)}) for 3D"
    # This test didn't catch the fix in gh-6624 (passes with and without) ...
    assert_almost_equal(
        Hs[2][:, 2, :],
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 1, 0, -1, 0],
                [0, 0, 0, 0, 0],
                [0, -1, 0, 1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    # ... so we add another test that fails for the not-fixed hessian_matrix
    assert_almost_equal(
        Hs[0][:, 2, :],
        np.array(
            [
                [0, 0, 2, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, -2, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 2, 0, 0],
            ]
        ),
    )


@pytest.mark.parametrize('use_gaussian_derivatives', [False, True])
def test_hessian_matrix_3d_xy(use_gaussian_derivatives):
    img = np.ones((5, 5, 5))

    # order="xy" is only permitted for 2D
    with pytest.raises(ValueError):
        hessian_matrix(
            img,
            sigma=0.1,
            order="xy",
            use_gaussian_derivatives=use_gaussian_derivatives,
        )

    with pytest.raises(ValueError):
        hessian_matrix(
            img,
            sigma=0.1,
            order='nonexistant',
            use_gaussian_derivatives=use_gaussian_derivatives,
        )


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_structure_tensor_eigenvalues(dtype):
    square = np.zeros((5, 5), dtype=dtype)
    square[2, 2] = 1
    A_elems = structure_tensor(square, sigma=0.1, order='rc')
    l1, l2 = structure_tensor_eigenvalues(A_elems)
    out_dtype = _supported_float_type(dtype)
    assert all(a.dtype == out_dtype for a in (l1, l2))
    assert_array_equal(
        l1,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 2, 4, 2, 0],
                [0, 4, 0, 4, 0],
                [0, 2, 4, 2, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )
    assert_array_equal(
        l2,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )


def test_structure_tensor_eigenvalues_3d():
    image = footprint_rectangle((9, 9, 9), dtype=np.int64)
    image = np.pad(image, 5, mode='constant') * 1000
    boundary = (
        np.pad(footprint_rectangle((9, 9, 9)), 5, mode='constant')
        - np.pad(footprint_rectangle((7, 7, 7)), 6, mode='constant')
    ).astype(bool)
    A_elems = structure_tensor(image, sigma=0.1)
    e0, e1, e2 = structure_tensor_eigenvalues(A_elems)
    # e0 should detect facets
    assert np.all(e0[boundary] != 0)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_hessian_matrix_eigvals(dtype):
    square = np.zeros((5, 5), dtype=dtype)
    square[2, 2] = 4
    H = hessian_matrix(square, sigma=0.1, order='rc', use_gaussian_derivatives=False)
    l1, l2 = hessian_matrix_eigvals(H)
    out_dtype = _supported_float_type(dtype)
    assert all(a.dtype == out_dtype for a in (l1, l2))
    assert_almost_equal(
        l1,
        np.array(
            [
                [0, 0, 2, 0, 0],
                [0, 1, 0, 1, 0],
                [2, 0, -2, 0, 2],
                [0, 1, 0, 1, 0],
                [0, 0, 2, 0, 0],
            ]
        ),
    )
    assert_almost_equal(
        l2,
        np.array(
            [
                [0, 0, 0, 0, 0],
                [0, -1, 0, -1, 0],
                [0, 0, -2, 0, 0],
                [0, -1, 0, -1, 0],
                [0, 0, 0, 0, 0],
            ]
        ),
    )


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_hessian_matrix_eigvals_3d(im3d, dtype):
    im3d = im3d.astype(dtype, copy=False)
    H = hessian_matrix(im3d, use_gaussian_derivatives=False)
    E = hessian_matrix_eigvals(H)
    out_dtype = _supported_float_type(dtype)
    assert all(a.dtype == out_dtype for a in E)

    # test descending order:
    e0, e1, e2 = E
    assert np.all(e0 >= e1) and np.all(e1 >= e2)

    E0, E1, E2 = E[:, E.shape[1] // 2]  # cross section
    row_center, col_center = np.array(E0.shape) // 2
    circles = [
        draw.circle_perimeter(row_center, col_center, radius, shape=E0.shape)
        for radius in range(1, E0.shape[1] // 2 - 1)
    ]
    response0 = np.array([np.mean(E0[c]) for c in circles])
    response2 = np.array([np.mean(E2[c]) for c in circles])
    # eigenvalues are negative just inside the sphere, positive just outside
    assert np.argmin(response2) < np.argmax(response0)
    assert np.min(response2) < 0
    assert np.max(response0) > 0


@run_in_parallel()
def test_hessian_matrix_det():
    image = np.zeros((5, 5))
    image[2, 2] = 1
    det = hessian_matrix_det(image, 5)
    assert_almost_equal(det, 0, decimal=3)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_hessian_matrix_det_3d(im3d, dtype):
    im3d = im3d.astype(dtype, copy=False)
    D = hessian_matrix_det(im3d)
    assert D.dtype == _supported_float_type(dtype)
    D0 = D[D.shape[0] // 2]
    row_center, col_center = np.array(D0.shape) // 2
    # testing in 3D is hard. We test this by showing that you get the
    # expected flat-then-low-then-high 2nd derivative response in a circle
    # around the midplane of the sphere.
    circles = [
        draw.circle_perimeter(row_center, col_center, r, shape=D0.shape)
        for r in range(1, D0.shape[1] // 2 - 1)
    ]
    response = np.array([np.mean(D0[c]) for c in circles])
    lowest = np.argmin(response)
    highest = np.argmax(response)
    assert lowest < highest
    assert response[lowest] < 0
    assert response[highest] > 0


def test_shape_index():
    # software floating point arm doesn't raise a warning on divide by zero
    # https://github.com/scikit-image/scikit-image/issues/3335
    square = np.zeros((5, 5))
    square[2, 2] = 4
    with expected_warnings([r'divide by zero|\A\Z', r'invalid value|\A\Z']):
        s = shape_index(square, sigma=0.1)
    assert_almost_equal(
        s,
        np.array(
            [
                [np.nan, np.nan, -0.5, np.nan, np.nan],
                [np.nan, 0, np.nan, 0, np.nan],
                [-0.5, np.nan, -1, np.nan, -0.5],
                [np.nan, 0, np.nan, 0, np.nan],
                [np.nan, np.nan, -0.5, np.nan, np.nan],
            ]
        ),
    )
