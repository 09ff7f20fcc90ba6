# Two commands, both self-contained on a fresh machine:
#   make demo   create .venv if needed, install sftwave and its workbench (paper/), run the demo
#   make test   the same set-up (with the test extras), then the whole test suite
#   make docs   the documentation site in docs/_build/html (warnings are errors)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test test-boundscheck lint bench bench-quick bench-asv plan-tables docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.stamp-demo: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[demo,plot]" -e ./paper
	touch $@

# torch (the 'xp' engine's tests run on CPU torch) is pinned and installed first,
# on its own, so that pip takes the CPU build (torch==2.13.0+cpu) and not the
# GBs of a CUDA build that a looser spec could pull in.
TORCH_SPEC ?= torch==2.13.0

$(VENV)/.stamp-test: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet "$(TORCH_SPEC)"
	$(PIP) install --quiet -e ".[test,demo,plot]" -e ./paper
	touch $@

demo: $(VENV)/.stamp-demo
	$(PY) -m sftwave_paper demo

# The suites run on TEST_WORKERS processes (pytest-xdist), each taking a whole test file
# at a time (a file's module-level fixtures are made once).  BLAS runs on one thread in
# each: OpenBLAS's threads spin while they wait, and two processes' spinning threads on
# two cores made the references' dot products (np.convolve) a hundred times slower.
TEST_WORKERS ?= 2
PYTEST := OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# The tests start many fresh processes (scripts, the command line, child pytests), each
# importing sftwave from src/.  Where PYTHONDONTWRITEBYTECODE is set (as on this project's
# machines), Python would compile its modules from source in every one of them (about 0.1 s
# each); they are byte-compiled once first, as pip does for an installed package.
BYTECODE := $(PY) -m compileall -q src paper/src tests benchmarks

test: $(VENV)/.stamp-test
	$(BYTECODE)
	$(PYTEST)

# numba's bounds checks on (slower): no kernel may read or write out of bounds on the
# inputs of BOUNDSCHECK_TESTS.  CI runs them so on the oldest versions (make test-oldest,
# below: one run covers both, instead of compiling and running every kernel's tests once
# more); make test-boundscheck runs them on .venv's versions.  Its own kernel cache, so no
# kernel compiled without the checks is loaded.  BOUNDSCHECK_TESTS: SUBSET_TESTS (every
# engine against the direct definitions, the engines' own tests, one file per family),
# the Gaussian's and the CWT's
# every mode, dtype, layout and in-place call (test_ndimage, test_fir_rows, test_wavelets,
# test_epoch_sums), the families whose kernels are their own (blobs,
# ridges, feature stacks, superlets, coherence of all pairs), and the suites written to
# find out-of-bounds accesses (random shapes and strides, the defects found before);
# less the tests marked simulator (CUDA kernels run by numba-cuda's simulator: plain
# Python, which numba's bounds checks do not reach; make test runs them), slow (fresh
# processes with empty caches: they compile the same kernels again) and the files marked
# no_kernel (tests/conftest.py, NO_KERNEL_FILES).  Those files then run alone, in one
# process, with SFTWAVE_CHECK_NO_KERNEL=1: the run fails if a module that makes kernels
# was imported (tests/conftest.py, KERNEL_MODULES), so the list stays true.
# BOUNDSCHECK_SKIP: the tests of numpy's copies of the kernels' sums (small calls without numba), which reach the FIR and float32 rows' kernels, if at all,
# only as the reference, on layouts that test_fir_rows and test_ndimage run here already:
# compiling the other dtypes' kernels with bounds checks again would find nothing new.
BOUNDSCHECK_TESTS = $(SUBSET_TESTS) tests/test_ndimage.py tests/test_fir_rows.py \
    tests/test_wavelets.py tests/test_epoch_sums.py \
    tests/test_feature_blob.py tests/test_feature_ridges.py tests/test_feature_multiscale.py \
    tests/test_superlet.py tests/test_coherence_pairs.py \
    tests/suites/test_defects.py tests/suites/test_fuzz.py
BOUNDSCHECK_SKIP = tests/engines/numba/test_rows_sums.py tests/engines/numba/test_scipy_sums.py

test-boundscheck: $(VENV)/.stamp-test
	$(BYTECODE)
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CURDIR)/.numba-boundscheck $(PYTEST) -q \
	    -m "not simulator and not no_kernel and not slow" $(BOUNDSCHECK_TESTS) \
	    $(addprefix --ignore=,$(BOUNDSCHECK_SKIP))
	SFTWAVE_CHECK_NO_KERNEL=1 OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q -n 0 -m no_kernel tests

# The tests that make test-wheel and make test-oldest run (besides the package's doctests):
# the conformance of every engine to the direct definitions, the public API and its errors,
# the engines' own tests (the kernel cache, numba's internals, the array-API engine), the
# shipped tables and data, and one test file per family.
SUBSET_TESTS := tests/suites/test_conformance.py tests/suites/test_public_api.py \
    tests/suites/test_errors.py tests/engines tests/plans/test_tables.py tests/test_datasets.py \
    tests/test_ndimage_derivatives.py tests/test_wavelets_fft.py tests/test_inverse.py \
    tests/test_feature.py tests/test_coherence.py tests/test_connectivity.py \
    tests/test_synchrosqueeze.py tests/test_stream.py tests/test_pycwt.py tests/test_mne.py \
    tests/test_xarray.py

# Static checks, as CI runs them: pre-commit on every file (ruff with [tool.ruff],
# mypy on src/sftwave with [tool.mypy], whitespace/final newlines, YAML, TOML).
# mypy runs in the test environment (numpy's, xarray's, dask's, matplotlib's types).
$(VENV)/.stamp-lint: $(VENV)/.stamp-test
	$(PIP) install --quiet -e ".[lint]"
	touch $@

lint: $(VENV)/.stamp-lint
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/pre-commit run --all-files --show-diff-on-failure

$(VENV)/.stamp-bench: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[bench,demo,plot]" -e ./paper
	touch $@

# Every comparison with the anchor libraries (benchmarks/compare.py, ~20 min):
# benchmarks/results/*.json and docs/benchmarks.md.  One section: --only NAME.
bench: $(VENV)/.stamp-bench
	$(PY) benchmarks/compare.py

# The same at small sizes (~3 min): results and page under benchmarks/results/quick/.
bench-quick: $(VENV)/.stamp-bench
	$(PY) benchmarks/compare.py --quick

# The asv regression suite, each benchmark once, in .venv (~3 min); see benchmarks/README.md.
bench-asv: $(VENV)/.stamp-bench
	cd benchmarks && ../$(VENV)/bin/asv machine --yes > /dev/null && ../$(VENV)/bin/asv run --python=same --quick

# The documentation site: API reference, user guide, the Markdown notes, and the
# gallery (examples/, run at build time: matplotlib, MNE, dask, xarray).  Every
# warning is an error and every cross-reference must resolve (-W -n).
$(VENV)/.stamp-docs: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[docs,plot,xarray,dask,demo]" -e ./paper
	touch $@

docs: $(VENV)/.stamp-docs
	$(VENV)/bin/sphinx-build -W --keep-going -n -b html docs docs/_build/html

# Regenerate the shipped Morlet layout table (src/sftwave/plans/data/morlet_layouts.npz;
# about 45 CPU-minutes, on every core); tests/plans/test_tables.py checks entries of it.
plan-tables: $(VENV)/.stamp-demo
	$(PY) -c "from sftwave.plans.table_maker import main; raise SystemExit(main())"

clean:
	rm -rf $(VENV) .venv-build .venv-wheel .venv-oldest .numba-oldest .numba-boundscheck
	rm -rf build dist *.egg-info src/*.egg-info paper/src/*.egg-info .pytest_cache
	rm -rf docs/_build docs/api/generated docs/auto_examples docs/sg_execution_times.rst

# ----------------------------------------------------------------------------- as shipped
# test-wheel: the sdist, then the wheel built from it (python -m build), their contents
# checked (.ci/check_dist.py: the wheel holds sftwave/, its tables and data, py.typed and
# the licence, nothing else; the sdist holds the tests and every file they read); the
# wheel installed with the test extras into a fresh .venv-wheel, and WHEEL_TESTS of the
# unpacked sdist (build/test-wheel/sdist) run from an empty folder against the installed
# package, with the installed package's doctests.  WHEEL_TESTS: what the packaging can break
# (every module imported and its doctests run: each family once; the shipped tables and
# data; the public API and its errors; every engine against the direct definitions; the
# kernel cache of a read-only install, the start-up's imports, numba's internals); the
# kernels' and the families' own tests run on the source tree (make test) and, as
# SUBSET_TESTS, on the oldest versions (make test-oldest).  The sdist's pytest settings are used
# (its pyproject.toml); the rootdir is this folder only so that the report names
# build/test-wheel/sdist/tests/... and .venv-wheel/.../site-packages/sftwave/..., and no
# conftest above the sdist is read.  .ci/installed_only.py fails the run if any sftwave
# module came from elsewhere than the venv's site-packages.  Not installed: the workbench
# (the sdist's paper/, not in the wheel; no test of WHEEL_TESTS uses it) and torch (the 'xp'
# engine's second array library: its tests run on the source tree and the oldest versions).
# Not run: the tests marked simulator (the same CUDA kernels, minutes on numba-cuda's
# simulator, as make test ran them).
.PHONY: test-wheel test-oldest

WHEEL_TESTS := tests/suites/test_conformance.py tests/suites/test_public_api.py \
    tests/suites/test_errors.py tests/plans/test_tables.py tests/test_datasets.py \
    tests/engines/test_registry.py tests/engines/numba/test_private_cache.py \
    tests/engines/numba/test_startup.py tests/engines/numba/test_jit.py

BUILD_VENV := .venv-build
WHEEL_VENV := .venv-wheel
WHEEL_PY   := $(CURDIR)/$(WHEEL_VENV)/bin/python
WHEEL_RUN  := $(CURDIR)/build/test-wheel

$(BUILD_VENV)/.stamp-build:
	rm -rf $(BUILD_VENV)
	$(PYTHON) -m venv $(BUILD_VENV)
	$(BUILD_VENV)/bin/python -m pip install --quiet build
	touch $@

test-wheel: $(BUILD_VENV)/.stamp-build
	rm -rf dist/sftwave-* $(WHEEL_RUN) $(WHEEL_VENV)
	$(BUILD_VENV)/bin/python -m build --outdir dist .
	$(BUILD_VENV)/bin/python .ci/check_dist.py dist
	mkdir -p $(WHEEL_RUN)/cwd
	tar -xzf dist/sftwave-*.tar.gz -C $(WHEEL_RUN)
	mv $(WHEEL_RUN)/sftwave-* $(WHEEL_RUN)/sdist
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_PY) -m pip install --quiet "$$(ls dist/sftwave-*.whl)[test,demo,plot]"
	cd $(WHEEL_RUN)/cwd && PYTHONPATH=$(CURDIR)/.ci OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
	    $(WHEEL_PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -p installed_only \
	    -c $(WHEEL_RUN)/sdist/pyproject.toml --rootdir $(CURDIR) --confcutdir $(WHEEL_RUN)/sdist \
	    -o cache_dir=$(WHEEL_RUN)/.pytest_cache -m "not simulator" \
	    $(addprefix $(WHEEL_RUN)/sdist/,$(WHEEL_TESTS)) \
	    "$$($(WHEEL_PY) -c 'import os, sftwave; print(os.path.dirname(sftwave.__file__))')"

# test-oldest: BOUNDSCHECK_TESTS (SUBSET_TESTS and the kernels' every path) and the doctests
# of src/sftwave, with numba's bounds checks on, then the kernel-free files alone (as
# make test-boundscheck runs them, slow tests included; BOUNDSCHECK_SKIP too: numpy's copies
# of the kernels' sums must give the kernels' bits with the oldest numpy as well), in
# .venv-oldest (made afresh whenever pyproject.toml or its .ci/ files change) with
# sftwave's dependencies at the floors of pyproject.toml
# (.ci/oldest-constraints.txt: numpy 1.24, scipy 1.10, numba 0.59, threadpoolctl 3.2,
# platformdirs 3.0; .ci/oldest.py check fails unless those are the versions installed).
# The test, demo and plot extras are installed as pyproject.toml lists them, with two
# changes that the oldest versions force (.ci/oldest.py, OMIT and REPLACE):
#   numba-cuda is left out: every numba-cuda >= 0.30 needs numba >= 0.60.  The 'cuda'
#     engine's tests skip (importorskip("numba_cuda"): tests/engines/cuda/test_engine.py,
#     the simulator run of tests/suites/test_conformance.py, docs/gpu.md's example in
#     tests/suites/test_doc_examples.py);
#   scikit-image is left out: scikit-image >= 0.25 needs scipy >= 1.11.4.  The comparisons
#     with it skip (importorskip in tests/test_feature*.py);
#   pycwt 0.5.0b0 (numpy >= 2) is replaced by pycwt 0.4.0b0 (numpy >= 1.24), the same API.
# The workbench (paper/, its own pyproject.toml) is installed, as make test does (the
# probe that tests/suites/test_bounded_cost.py runs uses its timer), but its tests are
# not run here: its floors are its own (its PyWavelets comparison needs PyWavelets >= 1.9,
# which needs numpy >= 1.25).
# Its own numba cache (.numba-oldest): numba 0.59 and the dev venv's numba would
# otherwise overwrite each other's kernels in src/sftwave/__pycache__.
OLDEST_VENV := .venv-oldest
OLDEST_PY   := $(OLDEST_VENV)/bin/python

$(OLDEST_VENV)/.stamp-oldest: pyproject.toml paper/pyproject.toml .ci/oldest-constraints.txt .ci/oldest.py
	rm -rf $(OLDEST_VENV)
	$(PYTHON) -m venv $(OLDEST_VENV)
	$(OLDEST_PY) -m pip install --quiet "$(TORCH_SPEC)"
	$(PYTHON) .ci/oldest.py requirements test demo plot > $(OLDEST_VENV)/requirements-test.txt
	$(OLDEST_PY) -m pip install --quiet -c .ci/oldest-constraints.txt -e . -e ./paper \
	    -r $(OLDEST_VENV)/requirements-test.txt
	touch $@

test-oldest: $(OLDEST_VENV)/.stamp-oldest
	$(OLDEST_PY) .ci/oldest.py check
	$(OLDEST_PY) -m compileall -q src paper/src tests benchmarks
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CURDIR)/.numba-oldest OPENBLAS_NUM_THREADS=1 \
	    MKL_NUM_THREADS=1 $(OLDEST_PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -q \
	    -m "not simulator and not no_kernel" $(BOUNDSCHECK_TESTS) src/sftwave
	SFTWAVE_CHECK_NO_KERNEL=1 OPENBLAS_NUM_THREADS=1 $(OLDEST_PY) -m pytest -q -n 0 -m no_kernel tests
