"""sftwave._deprecation.deprecate_parameter: the warning, its wording, the mapping, the refusals."""

from __future__ import annotations

import inspect
import warnings

import pytest

from sftwave._deprecation import deprecate_parameter

WORDING = (r"f: parameter 'width' is deprecated since sftwave 0\.2 and will be removed in 0\.4; "
           r"use 'sigma' instead\.")


@deprecate_parameter("width", new="sigma", since="0.2", remove_in="0.4")
def f(x, sigma=1.0, *, mode="reflect"):
    """Scale x by sigma."""
    return (x, sigma, mode)


@deprecate_parameter("truncate", since="0.3", remove_in="0.5")
def g(x, truncate=None, *, cval=0.0):
    """Ignore truncate."""
    return (x, truncate, cval)


@deprecate_parameter("legacy", new="mode", since="0.2", remove_in="0.4")
def h(x, *, mode="reflect"):
    return (x, mode)


def test_new_name_passes_without_warning():
    assert f(1.0, 2.0) == (1.0, 2.0, "reflect")
    assert f(1.0, sigma=2.0, mode="wrap") == (1.0, 2.0, "wrap")
    assert g(1.0) == (1.0, None, 0.0)


def test_old_name_warns_and_maps():
    with pytest.warns(FutureWarning, match=WORDING):
        assert f(1.0, width=3.0) == (1.0, 3.0, "reflect")
    with pytest.warns(FutureWarning, match=r"h: parameter 'legacy'.*use 'mode' instead"):
        assert h(1.0, legacy="wrap") == (1.0, "wrap")


def test_a_future_warning_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(1.0, width=3.0)
    assert len(caught) == 1
    assert caught[0].category is FutureWarning
    assert caught[0].filename == __file__


@pytest.mark.parametrize("call", [
    lambda: f(1.0, sigma=2.0, width=3.0),
    lambda: f(1.0, 2.0, width=3.0),          # sigma positionally
    lambda: h(1.0, mode="wrap", legacy="wrap"),
])
def test_both_names_are_refused(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # refused before any warning
        with pytest.raises(TypeError, match=r"got '(sigma|mode)' and its deprecated name"):
            call()


def test_removed_parameter_warns_when_given():
    match = (r"g: parameter 'truncate' is deprecated since sftwave 0\.3 and will be removed in "
             r"0\.5; stop passing it\.")
    with pytest.warns(FutureWarning, match=match):
        assert g(1.0, truncate=4.0) == (1.0, 4.0, 0.0)
    with pytest.warns(FutureWarning, match=match):
        assert g(1.0, 4.0) == (1.0, 4.0, 0.0)
    assert g(1.0, cval=2.0) == (1.0, None, 2.0)     # others given, no warning


def test_signature_name_and_docstring_are_kept():
    assert str(inspect.signature(f)) == "(x, sigma=1.0, *, mode='reflect')"
    assert str(inspect.signature(g)) == "(x, truncate=None, *, cval=0.0)"
    assert f.__name__ == "f" and f.__doc__ == "Scale x by sigma."
    assert f.__wrapped__(1.0, 2.0) == (1.0, 2.0, "reflect")


def test_unknown_keywords_still_fail_as_python_says():
    with pytest.raises(TypeError, match="unexpected keyword argument 'sigmaa'"):
        f(1.0, sigmaa=2.0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(old="a", new="missing"), r"the replacement 'missing' is not one of its parameters"),
    (dict(old="sigma", new="x"), r"'sigma' was renamed to 'x', so it cannot be a parameter"),
    (dict(old="missing"), r"'missing' is not one of its parameters"),
])
def test_decoration_checks_the_signature(kwargs, match):
    def k(x, sigma=1.0):
        return x

    with pytest.raises(TypeError, match=match):
        deprecate_parameter(**kwargs, since="0.2", remove_in="0.4")(k)


def test_versions_are_required():
    with pytest.raises(TypeError, match="since and remove_in must be version strings"):
        deprecate_parameter("a", new="b", since="", remove_in="0.4")


def test_methods():
    class Smoother:
        @deprecate_parameter("width", new="sigma", since="0.2", remove_in="0.4")
        def run(self, x, sigma=1.0):
            return x * sigma

    with pytest.warns(FutureWarning, match=r"Smoother\.run: parameter 'width'"):
        assert Smoother().run(2.0, width=3.0) == 6.0
    with pytest.raises(TypeError, match="got 'sigma' and its deprecated name 'width'"):
        Smoother().run(2.0, 3.0, width=3.0)
