"""Doctests of the modules that need the optional ``array_api_compat`` skip cleanly without it."""

import pytest

# The package is imported before pytest collects any of its modules for their doctests: under
# --import-mode=importlib a module collected first would be loaded as a second copy, and a
# plan class or an engine registered in one copy would be missing from the other (found by a
# test run that interleaved the doctests with the conformance suite's registered engine).
import sftwave  # noqa: F401

#: Modules whose examples run array-API code: the 'xp' engine (sftwave.engines.array_api, its
#: sliding sum and filters) and the registry's examples of it (sftwave.engines).
_NEEDS_ARRAY_API_COMPAT = ("sftwave.engines",)


@pytest.fixture(autouse=True)
def _skip_doctests_without_array_api_compat(request):
    name = getattr(request.node, "name", "")
    if type(request.node).__name__ == "DoctestItem" and name.startswith(_NEEDS_ARRAY_API_COMPAT):
        pytest.importorskip("array_api_compat")
