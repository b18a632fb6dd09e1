"""Where a freed graph came back: the statement that feeds a value still holding it into a new
computation (GL201's message names it).

A second backward raises where it runs, but the line to change is where a value still holding
the freed graph is fed into the new computation: the RNN state passed to the next step, the
running loss that is added to again, the batch of the first pass reused by the second. Found by
reading the statements of the function between the two backward passes (or, for a value carried
across iterations, the loop body): a backward slice from the loss, then the first read of a name
whose binding (at the second backward) still holds a freed graph and that nothing rebound in
between. Syntax and the bindings only: it points at a line, it proves nothing.

The same reading tells apart the two paths the analysis joins after `if step % k == 0:
loss.backward(); loss = 0` (reset_after_backward): the running loss that still holds the graph
comes from the path that freed nothing.
"""

from __future__ import annotations

import libcst as cst

_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


class _Unit:
    __slots__ = ("node", "reads", "writes")

    def __init__(self, node, reads: list, writes: frozenset) -> None:
        self.node = node  # a small statement, or the header of a compound one
        self.reads = reads  # the Name nodes it reads, in order
        self.writes = writes  # the names it (re)binds


def _read_names(node, out: list) -> list:
    """The Name nodes an expression reads (not attribute names, keywords, or lambda bodies)."""
    if isinstance(node, cst.Name):
        out.append(node)
    elif isinstance(node, cst.Attribute):
        _read_names(node.value, out)
    elif isinstance(node, cst.Arg):
        _read_names(node.value, out)
    elif not isinstance(node, _NESTED):
        for c in node.children:
            _read_names(c, out)
    return out


def _bound(target, out: set) -> set:
    """The names an assignment target binds (`a, (b, c) = ...`; not `x[i] = ...`, `o.a = ...`)."""
    if isinstance(target, cst.Name):
        out.add(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for e in target.elements:
            _bound(e.value, out)
    elif isinstance(target, cst.StarredElement):
        _bound(target.value, out)
    return out


def _small_unit(small) -> _Unit:
    if isinstance(small, cst.Assign):
        reads = _read_names(small.value, [])
        writes: set = set()
        for t in small.targets:
            _bound(t.target, writes)
        return _Unit(small, reads, frozenset(writes))
    if isinstance(small, (cst.AugAssign, cst.AnnAssign)):
        reads = _read_names(small.target, []) if isinstance(small, cst.AugAssign) else []
        if small.value is not None:
            _read_names(small.value, reads)
        return _Unit(small, reads, frozenset(_bound(small.target, set())))
    return _Unit(small, _read_names(small, []), frozenset())


def _units(stmts, out: list, spans: dict) -> None:
    """The statements of one scope in order (nested functions and classes left out); `spans`
    records, per compound statement, the range of its body's units."""
    for st in stmts:
        if isinstance(st, cst.SimpleStatementLine):
            out.extend(_small_unit(small) for small in st.body)
        elif isinstance(st, cst.BaseSmallStatement):
            out.append(_small_unit(st))
        elif isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            continue
        elif isinstance(st, cst.BaseCompoundStatement):
            if isinstance(st, cst.For):
                out.append(_Unit(st, _read_names(st.iter, []), frozenset(_bound(st.target, set()))))
            elif isinstance(st, (cst.If, cst.While)):
                out.append(_Unit(st, _read_names(st.test, []), frozenset()))
            elif isinstance(st, cst.With):
                reads: list = []
                writes: set = set()
                for item in st.items:
                    _read_names(item.item, reads)
                    if item.asname is not None:
                        _bound(item.asname.name, writes)
                out.append(_Unit(st, reads, frozenset(writes)))
            start = len(out)
            body = st.body
            _units(body.body if isinstance(body, cst.IndentedBlock) else [body], out, spans)
            spans[id(st)] = (start, len(out))
            orelse = getattr(st, "orelse", None)
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    out.append(_Unit(orelse, _read_names(orelse.test, []), frozenset()))
                ob = orelse.body
                _units(ob.body if isinstance(ob, cst.IndentedBlock) else [ob], out, spans)
                orelse = getattr(orelse, "orelse", None)
            for h in getattr(st, "handlers", ()) or ():
                _units(h.body.body if isinstance(h.body, cst.IndentedBlock) else [h.body], out, spans)
            fin = getattr(st, "finalbody", None)
            if fin is not None:
                _units(fin.body.body if isinstance(fin.body, cst.IndentedBlock) else [fin.body], out, spans)


def _scope_and_unit(ctx, node):
    """(the function or module whose statements hold `node`, the statement or header node that
    holds it directly)."""
    unit = None
    for a in ctx.ancestors(node):
        if unit is None and isinstance(a, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            unit = a
        if isinstance(a, (cst.FunctionDef, cst.Module)):
            return a, unit
        if isinstance(a, (cst.ClassDef, cst.Lambda)):
            return None, None
    return None, None


def _slice_reads(ctx, first_node, node, target_node, bindings: dict | None, freed: frozenset, carried: bool):
    """The reads, in order, of names on the way to the loss (a backward slice from it, over the
    statements between the two backward passes or, `carried`, the loop body), each as (Name
    node, whether its binding holds a freed graph, whether it is carried round the loop); None
    when the statements cannot be read (another scope, no loop)."""
    if not bindings or target_node is None:
        return None
    scope, unit2 = _scope_and_unit(ctx, node)
    scope1, unit1 = _scope_and_unit(ctx, first_node)
    module_level = isinstance(scope, cst.Module) and isinstance(scope1, cst.Module)  # chunks of one file
    if scope is None or not (scope is scope1 or module_level) or unit2 is None or unit1 is None:
        return None
    units: list[_Unit] = []
    spans: dict = {}
    if module_level:
        body = ctx.module_statements()
    elif isinstance(scope, cst.FunctionDef) and isinstance(scope.body, cst.IndentedBlock):
        body = scope.body.body
    else:
        return None
    _units(body, units, spans)
    index = {id(u.node): k for k, u in enumerate(units)}
    i2, i1 = index.get(id(unit2)), index.get(id(unit1))
    if i2 is None or i1 is None:
        return None
    if carried:
        loop = next((a for a in ctx.ancestors(node) if isinstance(a, (cst.For, cst.While))), None)
        if loop is None or id(loop) not in spans:
            return None
        lo, hi = spans[id(loop)]
    elif i1 < i2:
        lo, hi = i1 + 1, i2
    else:
        return None

    def holds_freed(name: str) -> bool:
        v = bindings.get(name)
        return v is not None and bool(getattr(v, "graphs", None)) and not v.graphs.isdisjoint(freed)

    target_reads = _read_names(target_node, [])
    needed = {n.value for n in target_reads}
    picked: list[int] = []
    for k in range(i2 - 1, lo - 1, -1):
        if units[k].writes & needed:
            needed |= {n.value for n in units[k].reads}
            picked.append(k)
    order = [(k, units[k].reads) for k in reversed(picked)] + [(i2, target_reads)]
    out = []
    for k, reads in order:
        rebound = set().union(*(units[j].writes for j in range(lo, k))) if k > lo else set()
        for n in reads:
            fresh = n.value in rebound  # bound anew on the way (`actions = policy.act(obs)`)
            round_loop = not fresh and any(n.value in units[j].writes for j in range(k, hi))
            out.append((n, holds_freed(n.value), round_loop, fresh))
    return out


def reuse_site(ctx, first_node, node, target_node, bindings: dict | None, freed: frozenset, carried: bool):
    """The Name node where a value still holding a freed graph is read on the way to the
    loss `target_node` differentiated at `node` (see above), or None."""
    reads = _slice_reads(ctx, first_node, node, target_node, bindings, freed, carried)
    for n, freed_held, round_loop, fresh in reads or ():
        if fresh or not freed_held:
            continue
        if carried and not round_loop:
            continue  # not carried round the loop: bound before it
        return n
    return None


def reset_after_backward(ctx, node, target_node, bindings: dict | None, freed: frozenset) -> bool:
    """Every value that brings a freed graph into the loss at `node` is a name carried round
    the loop that the same path rebinds afresh right after this backward (`loss.backward();
    loss = 0` under `if step % k == 0:`, the running loss of truncated backpropagation): the
    path that freed the graph no longer holds it, and the path that still holds it freed
    nothing. The analysis joins the two paths; the statements tell them apart."""
    reads = _slice_reads(ctx, node, node, target_node, bindings, freed, True)
    holders = [(n, round_loop) for n, freed_held, round_loop, _ in reads or () if freed_held]
    carried = {n.value for n, round_loop in holders if round_loop}
    if not carried or any(not round_loop and n.value not in carried for n, round_loop in holders):
        # a name bound anew in this iteration that holds a freed graph, other than the carried
        # one added to (`loss = loss + ...`), got it some other way (an RNN state kept on an
        # object): that carrier is not seen here
        return False
    return all(_rebound_after(ctx, node, name) for name in carried)


def _rebound_after(ctx, node, name: str) -> bool:
    """`name = <fresh>` (not reading `name`) after the statement holding `node`, in its block or
    an enclosing one, before the loop's end."""
    _, unit = _scope_and_unit(ctx, node)
    stmt = unit
    for a in ctx.ancestors(unit) if unit is not None else ():
        if isinstance(a, cst.SimpleStatementLine):
            stmt = a
            continue
        if isinstance(a, cst.IndentedBlock):
            body = list(a.body)
            at = next((i for i, s in enumerate(body) if s is stmt), None)
            for later in body[at + 1:] if at is not None else ():
                if not isinstance(later, cst.SimpleStatementLine):
                    continue
                for small in later.body:
                    if isinstance(small, cst.Assign) and any(name in _bound(t.target, set()) for t in small.targets) \
                            and name not in {r.value for r in _read_names(small.value, [])}:
                        return True
            continue
        if isinstance(a, (cst.For, cst.While, cst.FunctionDef, cst.Module)):
            return False
        stmt = a
    return False
