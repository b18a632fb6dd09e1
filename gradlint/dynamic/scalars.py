"""Which parameters of a target take plain numbers rather than tensors, read from its source.

Custom Functions keep hyper-parameters (`alpha` of a gradient-reversal layer, `scale` of
GradMultiply, `lambd` of a soft threshold) as numbers on ctx; probing them as tensors gave
spurious mismatches and "disconnected" notes. Evidence, from the forward (and setup_context,
whose `inputs` unpack in the forward's order):

- an annotation `float`, `int` or `bool`;
- `ctx.name = p` (or `= float(p)` / `int(p)`) for a parameter never passed to save_for_backward;
- `range(p)`, `int(p)`, `math.f(p)`, or `p` as `dim=` / `axis=` / `k=`;

and evidence that a parameter *is* a tensor wins: an attribute or method of it (`p.shape`,
`p.view(...)`), `p @ q`, or `save_for_backward(p)`. Integers go where an integer is needed:
-1 for a dimension, 2 otherwise; floats get 0.7 (as for annotations).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

FLOAT, INT, DIM = 0.7, 2, -1
DIM_KEYWORDS = {"dim", "axis", "dims"}
INT_KEYWORDS = {"k", "n", "groups", "num_classes"}
_HINTS = {float: FLOAT, int: INT, bool: True, "float": FLOAT, "int": INT, "bool": True}


def _tree(fn: Any) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        src = textwrap.dedent(inspect.getsource(inspect.unwrap(fn)))
        node = ast.parse(src).body[0]
    except (OSError, TypeError, SyntaxError, IndexError, ValueError):
        return None
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


class _Evidence(ast.NodeVisitor):
    def __init__(self, names: set[str], ctx: str | None) -> None:
        self.names, self.ctx = names, ctx
        self.number: dict[str, Any] = {}
        self.tensor: set[str] = set()

    def _name(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("float", "int") \
                and len(node.args) == 1:
            node = node.args[0]
        return node.id if isinstance(node, ast.Name) and node.id in self.names else None

    def visit_Assign(self, node: ast.Assign) -> None:
        name = self._name(node.value)
        if name and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == self.ctx
                        for t in node.targets):
            self.number.setdefault(name, FLOAT)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "save_for_backward":
            self.tensor.update(a.id for a in node.args if isinstance(a, ast.Name) and a.id in self.names)
        elif isinstance(f, ast.Name) and f.id in ("range", "int") and node.args:
            for a in node.args:
                if isinstance(a, ast.Name) and a.id in self.names:
                    self.number[a.id] = INT
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math":
            for a in node.args:
                if isinstance(a, ast.Name) and a.id in self.names:
                    self.number.setdefault(a.id, FLOAT)
        for kw in node.keywords:
            if isinstance(kw.value, ast.Name) and kw.value.id in self.names:
                if kw.arg in DIM_KEYWORDS:
                    self.number[kw.value.id] = DIM
                elif kw.arg in INT_KEYWORDS:
                    self.number[kw.value.id] = INT
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.names and node.attr != "item":
            self.tensor.add(node.value.id)
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult):
            for side in (node.left, node.right):
                if isinstance(side, ast.Name) and side.id in self.names:
                    self.tensor.add(side.id)
        self.generic_visit(node)


def _setup_context_names(tree: ast.FunctionDef, forward_names: list[str]) -> dict[str, str]:
    """setup_context(ctx, inputs, output): `a, b = inputs` binds a, b to the forward's
    parameters in order. -> {local name: forward parameter name}"""
    args = [a.arg for a in tree.args.args]
    inputs = args[1] if len(args) > 1 else "inputs"
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == inputs:
            for t in node.targets:
                if isinstance(t, (ast.Tuple, ast.List)):
                    for i, el in enumerate(t.elts):
                        if isinstance(el, ast.Name) and i < len(forward_names):
                            out[el.id] = forward_names[i]
    return out


def scalar_values(forward: Any, names: list[str], hints: list[Any], setup_context: Any = None,
                  ctx: str | None = None) -> dict[str, Any]:
    """{parameter name: number to pass} for the parameters that take plain numbers.

    `names`/`hints`: the target's positional parameters (ctx excluded) and their annotations;
    `ctx`: the name of the forward's ctx parameter (old-style Functions)."""
    found: dict[str, Any] = {}
    tree = _tree(forward)
    if tree is not None:
        ev = _Evidence(set(names), ctx)
        ev.visit(tree)
        found.update({n: v for n, v in ev.number.items() if n not in ev.tensor})
    sc = _tree(setup_context) if setup_context is not None else None
    if sc is not None:
        local = _setup_context_names(sc, names)
        ctx_name = sc.args.args[0].arg if sc.args.args else "ctx"
        ev = _Evidence(set(local), ctx_name)
        ev.visit(sc)
        for name, value in ev.number.items():
            if name not in ev.tensor:
                found.setdefault(local[name], value)
    for name, hint in zip(names, hints):  # an annotation is the author's word: it wins
        if isinstance(hint, (type, str)) and hint in _HINTS:
            found[name] = _HINTS[hint]
    return found
