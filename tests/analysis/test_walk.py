"""analysis/walk.py reads children from a node's fields in libcst's visit order: it must give
exactly `node.children` (same nodes, same order) and `walk` exactly the pre-order of
`node.visit`, or evidence collected through it would change."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from gradlint.analysis.evidence import uses_of
from gradlint.analysis.walk import children, code_children, walk

ROOT = Path(__file__).parents[2]
SAMPLES = sorted((ROOT / "gradlint").rglob("*.py"))[::10] + sorted((ROOT / "tests" / "project" / "fixtures").rglob("*.py"))
EXTRA = '''
from .. import a as b, c
from x import *
f"{x!r:>{width}} {y=}"
lambda a, *b, c=1, **d: a if b else c
async def g():
    async with a as b, c:
        await x
    async for i in y:
        yield i
try:
    pass
except* ValueError as e:
    raise
match p:
    case [1, *rest] | {"k": v} if v > 0:
        pass
x: int = (yield)
del a[1:2, ::3], b.c
global q
@dec(1)
class C(B, metaclass=M):
    z = [i for i in range(3) if i] + {k: v for k, v in d} + {*s}
'''


def _visit_order(tree: cst.CSTNode) -> list[int]:
    seen: list[int] = []

    class V(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            seen.append(id(node))
            return True

    tree.visit(V())
    return seen


def test_children_equal_libcst_children_and_walk_equals_visit():
    trees = [cst.parse_module(p.read_text()) for p in SAMPLES] + [cst.parse_module(EXTRA)]
    n = 0
    for tree in trees:
        for node in walk(tree):
            assert [id(c) for c in children(node)] == [id(c) for c in node.children], type(node).__name__
            n += 1
        assert [id(x) for x in walk(tree)] == _visit_order(tree)
    assert n > 5_000


def test_walk_does_not_enter_where_told_not_to():
    tree = cst.parse_module("def f():\n    x = 1\ny = 2\n")
    names = [n.value for n in walk(tree, lambda n: not isinstance(n, cst.FunctionDef)) if isinstance(n, cst.Name)]
    assert names == ["y"]


def test_evidence_of_a_scope_is_collected_once_per_node():
    tree = cst.parse_module("def f(model, opt, x):\n    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n")
    fn = tree.body[0]
    first = uses_of(fn)
    assert uses_of(fn) is first and "loss" in first.backprop
    assert uses_of(cst.parse_module(tree.code).body[0]) is not first  # another tree: its own entry


_TRIVIA = (
    cst.BaseParenthesizableWhitespace, cst.EmptyLine, cst.TrailingWhitespace, cst.Newline, cst.Comment,
    cst.Comma, cst.Semicolon, cst.Colon, cst.Dot, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
    cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp,
    cst.Asynchronous, cst.ParamSlash,
)


def test_code_children_are_the_children_that_are_not_trivia():
    """The evidence collector walks code only: dropping a field must never drop a name, a call
    or a statement (a field name wrongly listed as trivia would)."""
    trees = [cst.parse_module(p.read_text()) for p in SAMPLES] + [cst.parse_module(EXTRA)]
    n = 0
    for tree in trees:
        for node in walk(tree):
            expected = [id(c) for c in children(node) if not isinstance(c, _TRIVIA)]
            assert [id(c) for c in code_children(node)] == expected, type(node).__name__
            n += 1
    assert n > 5_000
    code = list(walk(trees[-1], code_only=True))
    assert not any(isinstance(x, _TRIVIA) for x in code)
    assert {x.value for x in code if isinstance(x, cst.Name)} >= {"rest", "width", "metaclass", "q", "e"}
