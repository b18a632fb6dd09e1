"""The abstract domain's declarations: every fact a value carries is declared (with its join
and the operations it survives), joins and propagation follow the declarations, kinds are
enums that compare like their strings."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from gradlint.analysis import facts as F
from gradlint.analysis import values
from gradlint.analysis.events import EVENT_HOOKS
from gradlint.analysis.facts import FACTS, Evidence, Op, Tri, join_tri, propagate
from gradlint.analysis.kinds import Kind
from gradlint.analysis.interpreter import Interpreter
from gradlint.analysis.values import Val, join
from gradlint.rules.base import all_rules, dedent, examples_of

ROOT = Path(__file__).resolve().parents[2]


def _programs():
    for rule in all_rules():
        valid, invalid = examples_of(rule)
        for ex in list(valid) + list(invalid):
            yield f"{rule.code}", dedent(ex.code)
    for folder in (ROOT / "examples", ROOT / "tests" / "corpus"):
        for p in sorted(folder.rglob("*.py")):
            yield str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")


def _vals_of(obj, seen: set):
    """Every Val reachable from an event attribute (through containers and nested facts)."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        if isinstance(x, Val):
            seen.add(id(x))
            yield x
            if x.attrs:
                stack.extend(x.attrs.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            seen.add(id(x))
            stack.extend(x)
        elif isinstance(x, dict):
            seen.add(id(x))
            stack.extend(x.values())


def test_every_fact_on_a_value_is_declared():
    """Runs the analysis over the rule examples, the examples and the corpus and looks at every
    value the events carry: a fact that is not declared in facts.py would be joined and
    propagated by no policy (and is most likely a typo)."""
    undeclared: dict[str, str] = {}
    kinds: set = set()
    n_values = 0
    slots: dict[type, tuple] = {}
    for where, text in _programs():
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        seen: set = set()

        def look(ev, where=where, seen=seen):
            nonlocal n_values
            names = slots.get(type(ev))
            if names is None:
                names = slots[type(ev)] = tuple({s for cls in type(ev).__mro__ for s in getattr(cls, "__slots__", ())})
            for slot in names:
                for v in _vals_of(getattr(ev, slot, None), seen):
                    n_values += 1
                    kinds.add(v.kind)
                    for key in v.attrs or ():
                        if key not in FACTS:
                            undeclared.setdefault(key, where)

        Interpreter(module.body, look).run()
    assert n_values > 3_000  # the walk sees the values
    assert not undeclared, f"facts used but not declared in facts.py: {undeclared}"
    assert {k for k in kinds if k is not None} <= set(Kind)


@pytest.mark.parametrize("op", list(Op), ids=lambda o: o.name)
def test_propagate_keeps_exactly_the_declared_survivors(op):
    attrs = {name: object() for name in FACTS}
    kept = propagate(attrs, op)
    assert set(kept) == {n for n, s in FACTS.items() if op in s.survives}
    assert all(kept[k] is attrs[k] for k in kept)
    assert propagate(None, op) == {} and propagate({F.FW: None}, op) == {}  # unknown is not carried


def test_every_operation_class_carries_something():
    for op in Op:
        assert F.survivors(op), op


def test_join_follows_each_facts_policy():
    n1, n2 = cst.Name("a"), cst.Name("b")
    a = Val(kind=Kind.TENSOR, attrs={F.DTYPE: "float32", F.OPT_PARAMS: frozenset({1}), F.SHAPE: (2,), F.LEAF: True})
    b = Val(kind=Kind.TENSOR, attrs={F.DTYPE: "float32", F.OPT_PARAMS: frozenset({2}), F.SHAPE: (3,)})
    j = join([a, b])
    assert j.get(F.DTYPE) == "float32"  # equal on both paths: kept
    assert j.get(F.SHAPE) is None  # different: unknown
    assert j.get(F.LEAF) is None  # on one path only: unknown
    assert j.get(F.OPT_PARAMS) == frozenset({1, 2})  # a union fact
    # a union fact survives a path that lacks it
    assert join([a, Val(kind=Kind.TENSOR)]).get(F.OPT_PARAMS) == frozenset({1})
    # a kind without its defining fact is no kind (two different functions)
    f1 = Val(kind=Kind.FUNCTION, attrs={F.FN: n1})
    f2 = Val(kind=Kind.FUNCTION, attrs={F.FN: n2})
    assert join([f1, f2]).kind is None and join([f1, f1]).kind == Kind.FUNCTION


def test_three_valued_facts_join_by_their_answer(monkeypatch):
    n1, n2 = cst.Name("a"), cst.Name("b")
    yes1, yes2, no = Evidence(Tri.YES, n1), Evidence(Tri.YES, n2), Evidence(Tri.NO, n2)
    assert join_tri(yes1, yes2) is yes1  # same answer: the first path's evidence
    assert join_tri(yes1, no) is None  # different answers: unknown
    assert join_tri(yes1, None) is None
    monkeypatch.setattr(values, "TRI_FACTS", frozenset({"test_tri"}))
    j = join([Val(attrs={"test_tri": yes1}), Val(attrs={"test_tri": yes2})])
    assert j.get("test_tri") is yes1
    assert join([Val(attrs={"test_tri": yes1}), Val(attrs={"test_tri": no})]).get("test_tri") is None


def test_facts_are_declared_once():
    with pytest.raises(ValueError):
        F.fact(F.DTYPE, "again")


def test_kinds_compare_like_their_strings():
    assert Kind.TENSOR == "tensor" and "tensor" == Kind.TENSOR
    assert hash(Kind.TENSOR) == hash("tensor") and Kind.TENSOR in {"tensor"} and "tensor" in {Kind.TENSOR}
    assert f"{Kind.TENSOR}" == "tensor" and str(Kind.TENSOR) == "tensor"
    assert Kind.FUNCTION.defining == F.FN and Kind.TENSOR.defining is None


def test_every_event_has_a_hook():
    assert len(set(EVENT_HOOKS.values())) == len(EVENT_HOOKS)
    assert all(h.startswith("on_") for h in EVENT_HOOKS.values())
