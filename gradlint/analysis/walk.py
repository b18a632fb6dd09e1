"""A pre-order walk over a libcst tree, in the order `CSTNode.visit` visits children, without
libcst's visitor machinery.

`node.visit(visitor)` rebuilds every node it passes through (`_visit_and_replace_children`
constructs and validates a copy, even for a read-only visitor), and `node.children` is computed
the same way: on real training code that made the evidence collector (analysis/evidence.py)
the largest single cost of a check. Here the children are read straight from the node's
fields, in the order its `_visit_and_replace_children` visits them (taken once per node type
from that method's source: `visit_*(self, "field", ...)`); a type whose order cannot be read
falls back to `node.children`. The two orders are equal on every node of the 22 training
repositories (tests/analysis/test_walk.py checks a corpus sample).
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Callable, Iterator

import libcst as cst

_VISITED_FIELD = re.compile(r"visit_\w+\(\s*self,\s*\"(\w+)\"")
_ORDER: dict[type, tuple[str, ...] | None] = {}
_CODE_ORDER: dict[type, tuple[str, ...] | None] = {}

# Fields that only ever hold syntax trivia: whitespace, comments, blank lines, brackets, commas,
# colons, `=`, dots and operator tokens (libcst's type hints of every node, read once: no other
# field holds one of these). They are two thirds of a libcst tree (on timm's vision_transformer.py
# 65% of the 94,435 nodes are whitespace, newlines, commas, `=` and brackets), and no analysis
# that walks for names, calls and statements looks at them.
_TRIVIA_FIELDS = frozenset({
    "asynchronous", "colon", "comma", "comment", "dot", "empty_lines", "equal", "first_colon",
    "first_line", "footer", "header", "last_line", "lbrace", "lbracket", "leading_lines",
    "leading_whitespace", "lines_after_decorators", "lpar", "newline", "operator", "posonly_ind",
    "rbrace", "rbracket", "relative", "rpar", "second_colon", "semicolon", "separator",
    "trailing_comma", "trailing_whitespace",
})


def _field_order(t: type) -> tuple[str, ...] | None:
    try:
        src = inspect.getsource(t._visit_and_replace_children)  # type: ignore[attr-defined]
    except (OSError, TypeError, AttributeError):
        return None
    names = tuple(dict.fromkeys(_VISITED_FIELD.findall(src)))
    fields = {f.name for f in dataclasses.fields(t)} if dataclasses.is_dataclass(t) else set()
    return names if names and set(names) <= fields else None


def _order(t: type) -> tuple[str, ...] | None:
    """The fields of node type `t` in visit order (None: not readable), computed once."""
    try:
        return _ORDER[t]
    except KeyError:
        names = _ORDER[t] = _field_order(t)
        return names


def _code_order(t: type) -> tuple[str, ...] | None:
    """`_order(t)` without the fields that only hold syntax trivia, computed once."""
    try:
        return _CODE_ORDER[t]
    except KeyError:
        full = _order(t)
        names = _CODE_ORDER[t] = None if full is None else tuple(n for n in full if not _is_trivia_field(n))
        return names


def _read_fields(node: cst.CSTNode, names: tuple[str, ...]) -> list[cst.CSTNode]:
    """The nodes held by `node`'s fields `names`, in that order (a field may hold a sequence)."""
    out: list[cst.CSTNode] = []
    for name in names:
        v = getattr(node, name)
        t = type(v)
        if t is tuple or t is list:
            out.extend(c for c in v if _is_node_type(type(c)))
        elif _is_node_type(t):
            out.append(v)
    return out


_NODE_TYPE: dict[type, bool] = {}


def _is_node_type(t: type) -> bool:
    """`issubclass(t, cst.CSTNode)`, remembered per type: CSTNode is an ABC, and its
    `isinstance` check was a tenth of every walk."""
    try:
        return _NODE_TYPE[t]
    except KeyError:
        r = _NODE_TYPE[t] = issubclass(t, cst.CSTNode)
        return r


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node.children`, in the same order, computed without rebuilding the node."""
    names = _order(type(node))
    return list(node.children) if names is None else _read_fields(node, names)


def _compile_reader(names: tuple[str, ...]) -> Callable[[cst.CSTNode], list[cst.CSTNode]]:
    """`lambda node: _read_fields(node, names)` with the loop over `names` unrolled: the code
    walks (evidence collection, rule queries) read a million nodes' fields on the 22 training
    repositories, and the generic loop's name lookups were a tenth of those walks."""
    if not names:
        return lambda node: []
    lines = ["def read(node):", "    out = []"]
    for name in names:
        lines += [
            f"    v = node.{name}",
            "    t = type(v)",
            "    if t is tuple or t is list:",
            "        out.extend([c for c in v if is_node(type(c))])",
            "    elif is_node(t):",
            "        out.append(v)",
        ]
    lines.append("    return out")
    scope: dict = {"is_node": _is_node_type}
    exec("\n".join(lines), scope)  # noqa: S102 - field names come from libcst's own dataclasses
    return scope["read"]


_CODE_READER: dict[type, Callable[[cst.CSTNode], list[cst.CSTNode]]] = {}


def _code_reader(t: type) -> Callable[[cst.CSTNode], list[cst.CSTNode]]:
    names = _code_order(t)
    reader: Callable[[cst.CSTNode], list[cst.CSTNode]]
    if names is None or not all(n.isidentifier() for n in names):
        reader = _children_without_trivia
    else:
        reader = _compile_reader(names)
    _CODE_READER[t] = reader
    return reader


def _children_without_trivia(node: cst.CSTNode) -> list[cst.CSTNode]:
    return [c for c in node.children if not isinstance(c, _TRIVIA_TYPES)]


def _is_trivia_field(name: str) -> bool:
    return name in _TRIVIA_FIELDS or name.startswith("whitespace")


def code_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`children(node)` without the syntax trivia (whitespace, comments, brackets, commas,
    operator tokens): the same order, only the nodes that are code."""
    t = type(node)
    reader = _CODE_READER.get(t)
    if reader is None:
        reader = _code_reader(t)
    return reader(node)


# for node types whose field order cannot be read (none in libcst 1.x; kept as a fallback)
_TRIVIA_TYPES = (
    cst.BaseParenthesizableWhitespace, cst.EmptyLine, cst.TrailingWhitespace, cst.Newline, cst.Comment,
    cst.Comma, cst.Semicolon, cst.Colon, cst.Dot, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
    cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp,
)


def walk(root: cst.CSTNode, enter: Callable[[cst.CSTNode], bool] | None = None, *,
         code_only: bool = False) -> Iterator[cst.CSTNode]:
    """Every node under `root` (itself included), pre-order, children in visit order. When
    `enter(node)` is false the node is yielded but its children are not walked. `code_only`:
    skip syntax trivia (code_children), for walks that look for names, calls and statements."""
    kids = code_children if code_only else children
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if enter is None or enter(node):
            stack.extend(reversed(kids(node)))


def parent_map(roots: list[cst.CSTNode]) -> dict[int, cst.CSTNode]:
    """id(node) -> its parent, for every code node under `roots` (syntax trivia left out)."""
    parents: dict[int, cst.CSTNode] = {}
    stack = list(roots)
    while stack:
        cur = stack.pop()
        for child in code_children(cur):
            parents[id(child)] = cur
            stack.append(child)
    return parents


_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def walk_own_body(fn: cst.FunctionDef) -> Iterator[cst.CSTNode]:
    """The code of `fn`'s body, not of the functions, lambdas and classes defined in it (their
    definitions are yielded, not entered)."""
    return walk(fn.body, lambda n: not isinstance(n, _SCOPES), code_only=True)


def own_small_statements(fn: cst.FunctionDef) -> Iterator[cst.BaseSmallStatement]:
    """The simple statements of `fn`'s body (`x = ...`, `return ...`), in the blocks of its
    if/for/while/with/try too, not in the functions and classes defined in it. Expressions are
    not entered: far cheaper than walk_own_body when only statements matter."""
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            yield from node.body
        elif isinstance(node, cst.IndentedBlock):
            stack.extend(reversed(node.body))
        elif isinstance(node, _BLOCK_HOLDERS):
            # if/for/while/with/try/match and their else/except/finally/case parts: their blocks
            stack.extend(reversed([c for c in code_children(node) if isinstance(c, _BLOCKS)]))


_BLOCK_HOLDERS = (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.Match, cst.MatchCase, cst.Else,
                  cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler)
_BLOCKS = (cst.BaseSuite,) + _BLOCK_HOLDERS


def callee_last(node: cst.CSTNode | None) -> str | None:
    """The last name of a call's callee as written: `update` of `tx.update(g, s)`, `opt_update`
    of `opt_update(i, g, s)`; None for anything else."""
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute):
            return f.attr.value
        if isinstance(f, cst.Name):
            return f.value
    return None


def stored_names(root: cst.CSTNode) -> tuple[frozenset[str], frozenset[int]]:
    """(the names a statement binds or rebinds anywhere in it, the ids of the `for` statements
    it contains), leaving out nested functions, classes and lambdas (their own scopes). A store
    to an attribute or an item counts by its root name (`self.k = ...`, `losses[i] = ...`)."""
    stored: set[str] = set()
    fors: set[int] = set()

    def targets(t) -> None:
        if isinstance(t, (cst.Tuple, cst.List)):
            for e in t.elements:
                targets(e.value)
        elif isinstance(t, cst.StarredElement):
            targets(t.value)
        else:
            while isinstance(t, (cst.Attribute, cst.Subscript)):
                t = t.value
            if isinstance(t, cst.Name):
                stored.add(t.value)

    for n in walk(root, lambda n: n is root or not isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)), code_only=True):
        if isinstance(n, cst.For):
            fors.add(id(n))
            targets(n.target)
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                targets(t.target)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr)):
            targets(n.target)
        elif isinstance(n, cst.WithItem) and n.asname is not None:
            targets(n.asname.name)
        elif isinstance(n, cst.Del):
            targets(n.target)
    return frozenset(stored), frozenset(fors)
