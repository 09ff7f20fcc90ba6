# Two commands, both self-contained on a fresh machine:
#   make demo   create .venv if needed, install sftwave and its workbench (paper/), run the demo
#   make test   the same set-up (with the test extras), then the whole test suite
#   make docs   the documentation site in docs/_build/html (warnings are errors)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test test-boundscheck bench bench-workloads plan-tables docs clean

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

test: $(VENV)/.stamp-test
	$(PY) -m pytest

# The whole suite with numba's bounds checks on (slower): no kernel may read or
# write out of bounds on any tested input.  Its own kernel cache, so no kernel
# compiled without the checks is loaded.
test-boundscheck: $(VENV)/.stamp-test
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CURDIR)/.numba-boundscheck $(PY) -m pytest -q

$(VENV)/.stamp-bench: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[bench,demo,plot]" -e ./paper
	touch $@

bench: $(VENV)/.stamp-bench
	$(PY) benchmarks/run.py

# The users' workloads (first call, EEG epochs, long signal, audio, plan
# design, everyday Gaussian images) against fCWT, MNE, ssqueezepy, scipy and OpenCV.
bench-workloads: $(VENV)/.stamp-bench
	$(PY) benchmarks/workloads.py

# The documentation site: API reference, user guide, the Markdown notes, and the
# gallery (examples/, run at build time: matplotlib, MNE, dask, xarray).  Every
# warning is an error and every cross-reference must resolve (-W -n).
$(VENV)/.stamp-docs: pyproject.toml paper/pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[docs,plot,xarray,dask,demo]" -e ./paper
	touch $@

docs: $(VENV)/.stamp-docs
	$(VENV)/bin/sphinx-build -W --keep-going -n -b html docs docs/_build/html

# Regenerate the shipped Morlet layout table (src/sftwave/plans/data/morlet_layouts.npz;
# about 45 CPU-minutes, on every core); tests/test_plan_tables.py checks entries of it.
plan-tables: $(VENV)/.stamp-demo
	$(PY) -c "from sftwave.plans.table_maker import main; raise SystemExit(main())"

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache
	rm -rf docs/_build docs/api/generated docs/auto_examples docs/sg_execution_times.rst
