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


def _field_order(t: type) -> tuple[str, ...] | None:
    try:
        src = inspect.getsource(t._visit_and_replace_children)  # type: ignore[attr-defined]
    except (OSError, TypeError, AttributeError):
        return None
    names = tuple(dict.fromkeys(_VISITED_FIELD.findall(src)))
    fields = {f.name for f in dataclasses.fields(t)} if dataclasses.is_dataclass(t) else set()
    return names if names and set(names) <= fields else None


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node.children`, in the same order, computed without rebuilding the node."""
    t = type(node)
    try:
        names = _ORDER[t]
    except KeyError:
        names = _ORDER[t] = _field_order(t)
    if names is None:
        return list(node.children)
    out: list[cst.CSTNode] = []
    for name in names:
        v = getattr(node, name)
        if isinstance(v, cst.CSTNode):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(c for c in v if isinstance(c, cst.CSTNode))
    return out


def walk(root: cst.CSTNode, enter: Callable[[cst.CSTNode], bool] | None = None) -> Iterator[cst.CSTNode]:
    """Every node under `root` (itself included), pre-order, children in visit order. When
    `enter(node)` is false the node is yielded but its children are not walked."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if enter is None or enter(node):
            stack.extend(reversed(children(node)))
