"""What the torch probe concludes when the trace ends (imports torch: runs only in the traced
process): parameters in an optimizer that never got a gradient and the cut that starved them
(GL601 or the cut's code), trainable parameters no optimizer holds (GL602), graphs kept alive
across iterations and what keeps them (GL202/GL205). Reads the records of torch_records.py.
"""

from __future__ import annotations

import ast
import collections
import gc
import sys
import types

import torch

from .sites import short
from .torch_graph import Tensor, params_of
from .torch_records import CUT_CODES, CUT_WORDS, Cut, Modules, OState, TorchState, cut_advice


def finalize(st: TorchState, modules: Modules) -> None:
    """Report what only the whole run shows."""
    _starved(st, modules)
    _unoptimized(st, modules)
    _kept(st)


def _starved(st: TorchState, modules: Modules) -> None:
    """Parameters in an optimizer that never got a gradient (in steps whose loss reached
    other parameters), with the operation that cut them."""
    stepped = [o for o in st.opts.values() if o.count > 0 and o.ref() is not None]
    if not stepped:
        return
    owners = None
    for o in stepped:
        opt = o.ref()
        params = [p for p in params_of(opt) if p.requires_grad]
        states = [st.params.get(id(p)) for p in params]
        if not any(s is not None and s.got for s in states):
            # nothing in this optimizer ever got a gradient: say so once (unless a backward
            # did reach them and something cleared the gradients: that is GL303's finding)
            if st.backwards and not any(s is not None and s.reached for s in states):
                cut = st.find_cut({id(p) for p in params})
                _report_starved(st, modules, o, params, cut, whole=True)
            continue
        starved = [p for p, s in zip(params, states) if s is not None and s.got == 0 and (s.missing or s.zero)]
        if not starved:
            continue
        ids = {id(p) for p in starved}
        cut = st.find_cut(ids)
        if cut is not None:
            _report_starved(st, modules, o, starved, cut)
            continue
        if o.count < min(2, st.s.steps):
            continue  # one step is too little to call a missing gradient systematic
        zero = [p for p in starved if st.params[id(p)].zero]
        if zero:
            node_site = st.zero_grad_op({id(p) for p in zero})
            if node_site is not None:
                st.s.report(
                    "GL410", node_site[0],
                    f"`{node_site[1]}` has a zero derivative everywhere: {modules.names_of(zero)} (in the optimizer "
                    f"created at {short(o.site)}) got only zero gradients in every traced step; use a differentiable "
                    f"surrogate (a straight-through estimator, a soft relaxation)",
                )
                continue
        if owners is None:
            owners = modules.owners()
        by_module: dict = collections.defaultdict(list)
        for p in starved:
            m = owners.get(id(p), (None, None))[0]
            by_module[id(m) if m is not None else None].append((p, m))
        for items in by_module.values():
            m = items[0][1]
            where = modules.site_of(m) if m is not None else None
            where = where or o.site
            what = f"the parameters of this {type(m).__name__}" if m is not None else modules.names_of([p for p, _ in items])
            st.s.report(
                "GL601", where,
                f"{what} are in the optimizer created at {short(o.site)} but got no gradient in any of the "
                f"{o.count} traced steps, while the loss reached other parameters: nothing the loss depends on "
                f"used them (an unused layer, a branch not taken, or a graph cut gradlint could not see)",
            )


def _report_starved(st: TorchState, modules: Modules, o: OState, params: list, cut: Cut | None,
                    whole: bool = False) -> None:
    names = modules.names_of(params)
    last = st.backwards[-1] if st.backwards else None
    if cut is None:
        if last is not None and whole:
            st.s.report(
                "GL601", last.site,
                f"none of the parameters of the optimizer created at {short(o.site)} got a gradient from this "
                f"backward() in any of the {o.count} traced steps: the loss does not depend on them",
            )
        return
    loss_at = f" differentiated at {short(last.site)}" if last is not None else ""
    st.s.report(
        CUT_CODES[cut.kind], cut.site,
        f"{CUT_WORDS[cut.kind]} here cuts {names} (in the optimizer created at {short(o.site)}) from the loss"
        f"{loss_at}: they got no gradient in any of the {o.count} traced steps" + ("" if whole else
        ", while the loss reached the optimizer's other parameters") + "; " + cut_advice(cut.kind),
        [(last.site, "the backward")] if last is not None else [],
    )


def _unoptimized(st: TorchState, modules: Modules) -> None:
    """Trainable parameters that backward reached, that no optimizer holds and that never
    changed — in a module in training mode, or one called inside an optimized module's
    forward (layers kept in a plain list)."""
    if not any(o.count > 0 for o in st.opts.values()):
        return
    held = set()
    for o in st.opts.values():
        opt = o.ref()
        if opt is not None:
            held.update(id(p) for p in params_of(opt))
    owners = modules.owners()
    groups: dict = collections.defaultdict(list)
    for pid, ps in st.params.items():
        p = ps.ref()
        if p is None or not ps.reached or pid in held or not isinstance(p, torch.nn.Parameter):
            continue
        if p._version != ps.version or p.grad is None:
            continue
        m = owners.get(pid, (None, None))[0]
        if m is None:
            continue
        nest = st.nested_in.get(id(m))
        parent = nest[1]() if nest else None
        parent_trained = parent is not None and any(id(q) in held for q in parent.parameters())
        if not (m.training or parent_trained):
            continue
        site = modules.site_of(m)
        groups[site].append((m, p, parent if parent_trained else None))
    for site, items in groups.items():
        if site is None:
            continue
        mods = list({id(m): m for m, _, _ in items}.values())
        parent = next((par for _, _, par in items if par is not None), None)
        kind = type(mods[0]).__name__
        count = len(items)
        lst = _held_in_plain_container(mods[0], parent) if parent is not None else None
        if parent is not None:
            how = (f"they are called inside `{type(parent).__name__}.forward` but are not registered submodules of "
                   f"it" + (f" (kept in a plain {lst})" if lst else "") +
                   ", so `.parameters()` misses them; use `nn.ModuleList`/`nn.ModuleDict`")
        else:
            how = ("add them to the optimizer, or freeze them (`requires_grad_(False)`, `.eval()`) if they are meant "
                   "to stay fixed")
        layers = f"{len(mods)} {kind} layers" if len(mods) > 1 else f"this {kind}"
        st.s.report(
            "GL602", site,
            f"{layers} got gradients in every traced step but no optimizer holds their {count} parameters: they "
            f"never change; {how}",
        )


def _kept(st: TorchState) -> None:
    """Graphs of earlier iterations still alive: through a value carried across iterations
    (an op that uses it), or a container that keeps outputs."""
    bounds = st.boundaries()
    current = st.iteration_of(st.now, bounds)
    # carried values need the iteration boundaries: known once the first optimizer stepped
    # again (a program that crashed in its first iteration has none)
    edges = list(st.edges.items()) if st.cycle_last is not None else []
    for site, seen in edges:
        if st.s.has("GL201", site):
            continue
        for old_site, old_seq, new_seq in seen:
            a, b = st.iteration_of(old_seq, bounds), st.iteration_of(new_seq, bounds)
            if a >= b:
                continue
            code = "GL202" if st.retained_any else "GL205"
            st.s.report(
                code, site,
                f"this operation combines a value with history from iteration {a} (computed at {short(old_site)}) "
                f"with iteration {b}'s graph: every iteration's graph stays alive, chained to the next" +
                (" (backward runs with retain_graph=True, so nothing is freed)" if st.retained_any else "") +
                "; accumulate a Python number (`loss.item()`) or detach what is carried across iterations",
                [(old_site, "where the carried value was computed")],
            )
            break
    if current < 3:
        return
    by_site: dict = collections.defaultdict(list)
    for items in st.live.values():
        for w, site, seq in items:
            it = st.iteration_of(seq, bounds)
            if it > current - 2:
                continue
            t = w()
            if t is not None and t.grad_fn is not None:
                by_site[site].append((t, it))
    for site, items in by_site.items():
        t, first = items[0]
        keeper = _keeper(st, t)
        where = keeper[0] if keeper else site
        holder = f" in `{keeper[1]}`" if keeper else ""
        st.s.report(
            "GL205", where,
            f"tensors with autograd history computed at {short(site)} in iteration {first} are still alive in "
            f"iteration {current}: they are kept{holder}, and each keeps its whole graph (activations included) "
            f"alive, so memory grows with every step; keep `loss.item()` (or `.detach()`) instead",
            [(site, "where the kept tensor was computed")],
        )


def _held_in_plain_container(m, parent) -> str | None:
    for name, value in vars(parent).items():
        if isinstance(value, (list, tuple)) and any(x is m for x in value):
            return f"{type(value).__name__} `self.{name}`"
        if isinstance(value, dict) and any(x is m for x in value.values()):
            return f"dict `self.{name}`"
    return None


def _keeper(st: TorchState, t: Tensor):
    """(site of the statement that stores `t`, the container's name) — found through the
    containers that refer to it and the user's frames on the stack."""
    gc.collect()
    containers = [r for r in gc.get_referrers(t) if isinstance(r, (list, dict, tuple, collections.deque))]
    frame = sys._getframe(1)
    frames = []
    while frame is not None:
        if st.s.is_user(frame.f_code.co_filename):
            frames.append(frame)
        frame = frame.f_back
    for c in containers:
        for f in frames:
            for scope in (f.f_locals, f.f_globals):
                for name, value in list(scope.items()):
                    owner_attr = None
                    if value is c:
                        owner_attr = name
                    elif hasattr(value, "__dict__") and not isinstance(value, types.ModuleType):
                        try:
                            for attr, v in vars(value).items():
                                if v is c:
                                    owner_attr = f"{name}.{attr}"
                                    break
                        except TypeError:
                            continue
                    if owner_attr is None:
                        if isinstance(value, dict) and value is not f.f_globals:
                            for k, v in value.items():
                                if v is c:
                                    owner_attr = f"{name}[{k!r}]"
                                    break
                    if owner_attr is None:
                        continue
                    site = _store_site(f.f_code.co_filename, owner_attr, c)
                    if site is not None:
                        return site, owner_attr
                    return None
    return None


def _store_site(filename: str, name: str, container):
    """The statement in `filename` that adds to `name` (`name.append(...)`, `name[k] = ...`,
    `name += [...]`), preferring one inside a loop."""
    try:
        with open(filename, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return None
    base = name.split("[")[0]
    found = []

    def text(node) -> str:
        try:
            return ast.unparse(node)
        except Exception:  # noqa: BLE001
            return ""

    class V(ast.NodeVisitor):
        loops = 0

        def generic_visit(self, node):
            is_loop = isinstance(node, (ast.For, ast.While, ast.AsyncFor))
            self.loops += is_loop
            super().generic_visit(node)
            self.loops -= is_loop

        def visit_Call(self, node):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("append", "extend", "insert", "add", "appendleft", "setdefault") \
                    and _matches(text(f.value), base):
                found.append((self.loops > 0, node))
            self.generic_visit(node)

        def visit_Assign(self, node):
            for tgt in node.targets:
                if isinstance(tgt, ast.Subscript) and _matches(text(tgt.value), base):
                    found.append((self.loops > 0, node))
            self.generic_visit(node)

        def visit_AugAssign(self, node):
            if _matches(text(node.target), base) and isinstance(container, list):
                found.append((self.loops > 0, node))
            self.generic_visit(node)

    V().visit(tree)
    if not found:
        return None
    found.sort(key=lambda x: (not x[0], x[1].lineno))
    n = found[0][1]
    return (filename, n.lineno, n.col_offset, n.end_lineno or n.lineno, n.end_col_offset or n.col_offset)


def _matches(expr: str, name: str) -> bool:
    return expr == name or expr.endswith("." + name.split(".")[-1]) and name.split(".")[-1] == expr.split(".")[-1]
