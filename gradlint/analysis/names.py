"""Reading names and literals off syntax nodes: `self.h` as "self.h", `3e-4` as 3e-4.

Shared by the interpreter, the framework overlays and the rules (which must not import the
interpreter for a helper).
"""

from __future__ import annotations

from typing import Any

import libcst as cst


# libcst's node classes are ABCs, so `isinstance(node, cst.Name)` goes through ABCMeta's
# check; Name, Attribute and the literal classes are leaves of libcst's hierarchy (nothing
# subclasses them), so comparing the type is the same test at a fraction of the cost. These two
# helpers run half a million times on the 22 training repositories.
_NAME, _ATTRIBUTE = cst.Name, cst.Attribute


def dotted_name(node: cst.CSTNode | None) -> str | None:
    """`x` -> "x", `self.h` -> "self.h", `a.b.c` -> "a.b.c"; other expressions -> None."""
    t = type(node)
    if t is _NAME:
        return node.value  # type: ignore[union-attr]
    if t is not _ATTRIBUTE:
        return None
    parts = []
    while type(node) is _ATTRIBUTE:
        parts.append(node.attr.value)  # type: ignore[union-attr]
        node = node.value  # type: ignore[union-attr]
    if type(node) is not _NAME:
        return None
    parts.append(node.value)  # type: ignore[union-attr]
    parts.reverse()
    return ".".join(parts)


def root_name(node: cst.CSTNode | None) -> str | None:
    """The variable at the root of a store target: `self.state[p]["g"]` -> "self.state"."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return dotted_name(node)


class _NoConst:
    def __repr__(self) -> str:  # pragma: no cover
        return "<no const>"


NOCONST: Any = _NoConst()  # "not a literal" (None is a literal)


def in_place_name(method: str) -> bool:
    """PyTorch's naming of in-place methods: a trailing underscore (`add_`, `mul_`), not a
    private or special name (`_apply`, `__init__`)."""
    return method.endswith("_") and not method.startswith("_")


def literal(node: Any) -> Any:  # a CSTNode; Any: mypy does not narrow on `type(node) is`
    """The Python value of a literal (numbers, strings, True/False/None, unary minus), else
    NOCONST."""
    t = type(node)
    if t is cst.Integer:
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if t is cst.Float:
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return None
    if t is _NAME and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if t is cst.UnaryOperation and isinstance(node.operator, cst.Minus):
        v = literal(node.expression)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v
    if t is cst.SimpleString:
        v = node.value
        # most strings have no prefix and no escapes: skip literal_eval (it is slow)
        if v[:1] in "'\"" and "\\" not in v:
            q = 3 if v[:3] in ("\"\"\"", "\'\'\'") else 1
            return v[q:-q]
        try:
            return node.evaluated_value
        except Exception:  # pragma: no cover - malformed literal
            return None
    return NOCONST


def const_of(node: cst.CSTNode | None) -> Any:
    if node is None:
        return NOCONST
    return literal(node)


def is_const(v: Any) -> bool:
    return v is not NOCONST


def single_index_const(node: cst.Subscript) -> Any:
    """`x["loss"]` -> "loss", `x[0]` -> 0; anything else (slices, several indices) -> None."""
    if len(node.slice) != 1:
        return None
    sl = node.slice[0].slice
    if isinstance(sl, cst.Index):
        c = literal(sl.value)
        return c if is_const(c) else None
    return None


OPS = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
    cst.Modulo: "%", cst.Power: "**", cst.MatrixMultiply: "@", cst.LeftShift: "<<",
    cst.RightShift: ">>", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^",
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**",
    cst.MatrixMultiplyAssign: "@", cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>",
    cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^",
}
CMP = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
    cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.Is: "is", cst.IsNot: "is not",
    cst.In: "in", cst.NotIn: "not in",
}


def fold(op: str, a: Any, b: Any) -> Any:
    """`a op b` for two number literals, else NOCONST."""
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or isinstance(a, bool) or isinstance(b, bool):
        return NOCONST
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "**" and abs(b) < 64:
            return a ** b
        if op == "//":
            return a // b
    except (ArithmeticError, ValueError, OverflowError):
        return NOCONST
    return NOCONST
