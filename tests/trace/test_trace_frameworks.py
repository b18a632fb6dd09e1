"""The TensorFlow and JAX probes' error mapping, with stand-in exception classes (neither
framework is a test dependency; see docs/trace.md "Limits")."""

from __future__ import annotations

import sys

from gradlint.trace import jax_probe, tf_probe
from gradlint.trace.state import Session


def _raise(exc: BaseException) -> BaseException:
    try:
        raise exc  # raised here, in a user file: the finding points at this line
    except BaseException as e:  # noqa: BLE001
        return e


def test_jax_tracer_conversion_becomes_gl121():
    ConcretizationTypeError = type("ConcretizationTypeError", (Exception,), {"__module__": "jax.errors"})
    exc = _raise(ConcretizationTypeError("Abstract tracer value encountered"))
    s = Session()
    assert jax_probe.explain(s, exc)
    (f,) = s.results()
    assert f["code"] == "GL121" and f["path"] == __file__ and "ConcretizationTypeError" in f["message"]
    assert not jax_probe.explain(Session(), _raise(ValueError("other")))
    Other = type("ConcretizationTypeError", (Exception,), {"__module__": "mylib"})
    assert not jax_probe.explain(Session(), _raise(Other("not from jax")))


def test_non_persistent_tape_reuse_becomes_gl114():
    exc = _raise(RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                              "(or jacobians)"))
    s = Session()
    assert tf_probe.explain(s, exc)
    assert [f["code"] for f in s.results()] == ["GL114"]


def test_probes_are_not_imported_by_the_linter():
    assert "tensorflow" not in sys.modules and "jax" not in sys.modules
