"""Target specs: path.py::name, path.py::Class.method, package.module:name."""

from __future__ import annotations

import pytest
from conftest import TARGETS

from gradlint.dynamic.targets import TargetError, parse_spec

torch = pytest.importorskip("torch")

from gradlint.dynamic.targets import load


@pytest.mark.parametrize("spec, expected", [
    ("model.py::loss", ("file", "model.py", "loss")),
    ("src/model.py::Model.forward", ("file", "src/model.py", "Model.forward")),
    ("pkg.mod:fn", ("module", "pkg.mod", "fn")),
    ("C:/x/model.py::f", ("file", "C:/x/model.py", "f")),
])
def test_parse_spec(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec", ["model.py", "model.py::", "not a spec", "a/b.py:f"])
def test_malformed_specs_are_rejected(spec):
    with pytest.raises(TargetError):
        parse_spec(spec)


def test_kinds_of_targets():
    path = str(TARGETS / "functions.py")
    assert load(f"{path}::smooth")[0].kind == "function"
    fn = load(f"{path}::ScaledSoftplus")[0]
    assert fn.kind == "autograd.Function" and fn.skip_first
    mod = load(f"{path}::TinyMLP")[0]
    assert mod.kind == "nn.Module" and mod.module is not None
    method = load(f"{path}::Scaler.apply")[0]
    assert method.kind == "method" and float(method.fn(torch.ones(1))) == 3.0


def test_dotted_module_target_relative_to_cwd():
    resolved, name = load("functions:smooth", cwd=str(TARGETS))
    assert resolved.kind == "function" and name == "smooth"


def test_a_missing_name_suggests_near_ones():
    with pytest.raises(TargetError, match="did you mean smooth"):
        load(f"{TARGETS / 'functions.py'}::Smooth")


def test_a_missing_file_is_named():
    with pytest.raises(TargetError, match="no such file"):
        load("no_such_file.py::f")
