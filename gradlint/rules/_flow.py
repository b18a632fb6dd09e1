"""Queries over the analysis that several rules share (kept here so rules stay declarative)."""

from __future__ import annotations

import re

from typing import Iterable

import libcst as cst

from ..analysis import facts as F
from ..analysis.events import DiffEvent, OptEvent
from ..analysis.values import OPAQUE, REWRAP, Cut, Origin, Val
from ..analysis.frameworks.arrays import NONDIFF_FUNCS
from ..analysis.names import dotted_name
from ..analysis.walk import walk
from .base import Rule

TORCH_DIFF = frozenset({"backward", "autograd_grad", "lightning"})
TORCH_GRAPH_DIFF = frozenset({"backward", "autograd_grad"})  # written in the code (not Lightning's)
HARD_CONVERSIONS = frozenset({"numpy", "item", "tolist", "float", "int", "bool", "np_call", "math_call", "predict"})
SOFT_DETACH = frozenset({"detach", "data"})
NO_GRAD = frozenset({"no_grad", "inference"})
# the cut kinds of piecewise-constant operations: every function the array overlays cut that way
# (frameworks/arrays.py NONDIFF_FUNCS), comparisons, integer casts and the indices of max/sort
NONDIFF = NONDIFF_FUNCS | frozenset({"compare", "int_cast", "indices"})


def origin_name(o: Origin) -> str:
    if o.label == "self" and o.kind == "module":
        return "the module's parameters"
    if o.label:
        return f"`{o.label}`"
    return {
        "module": "the model",
        "tensor": "the tensor that requires grad",
        "tfvar": "the tf.Variable",
        "watched": "the watched tensor",
        "jaxarg": "the differentiated argument",
        "kerasout": "the model output",
    }.get(o.kind, "the trainable value")


def certain_cuts(target: Val, kinds: Iterable[str] | None = None, framework: str | None = None) -> list[tuple[Origin, Cut]]:
    """(origin, cut) pairs on the target whose origin is certainly trainable (and trained at
    this differentiation: an origin frozen by `requires_grad_(False)` wants no gradient, so a
    cut cannot starve it)."""
    out = []
    ks = frozenset(kinds) if kinds is not None else None
    for o, c in target.cuts:
        if not o.certain or o.frozen:
            continue
        if ks is not None and c.kind not in ks:
            continue
        if framework is not None and o.framework != framework and not (framework == "tf" and o.kind == "kerasout"):
            continue
        out.append((o, c))
    # frozenset order depends on object ids: sort so messages are reproducible
    out.sort(key=lambda oc: (oc[0].seq, oc[1].seq))
    return out


def starved(target: Val) -> dict[Origin, list[Cut]]:
    """Origins the target depends on *only* through gradient-stopping operations."""
    res: dict[Origin, list[Cut]] = {}
    live = target.live
    # reached through a call the analysis cannot see into: maybe not starved at all
    maybe = {o for o, c in target.cuts if c.kind == OPAQUE}
    for o, c in target.sorted_cuts():
        if o in live or o in maybe or not o.certain or o.frozen:
            continue  # a frozen origin (`G.requires_grad_(False)`) wants no gradient: nothing starves it
        res.setdefault(o, []).append(c)
    return res


def source_items(v: Val | None) -> list[Val]:
    if v is None:
        return []
    items = v.get(F.ITEMS)
    if items:
        return list(items)
    return [v]


_MODULE_ALIASES = frozenset({"np", "numpy", "onp", "torch", "T", "tf", "jnp", "jax", "F", "nn", "K", "math", "keras", "lax", "ops", "scipy"})


def call_name(node: cst.CSTNode) -> str:
    """A short display name for a call's callee: `np.mean`, `.numpy()`, `float()`."""
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute):
            base = f.value
            if isinstance(base, cst.Name):
                if base.value in _MODULE_ALIASES:
                    return f"{base.value}.{f.attr.value}"
                return f"{base.value}.{f.attr.value}()"
            path = dotted_name(f)
            if path is not None and path.split(".", 1)[0] in _MODULE_ALIASES:
                return path  # `tf.math.floor`, `torch.linalg.norm`
            return f".{f.attr.value}()"
        if isinstance(f, cst.Name):
            return f"{f.value}()"
        if isinstance(f, cst.Call):
            return call_name(f)  # `nn.Softplus()(x)`: the layer made and called at once
    if isinstance(node, cst.Attribute):
        return f".{node.attr.value}"
    return "this operation"


def shortened(code: str, limit: int) -> str:
    """`code` for a message: at most `limit` characters, cut with "..." when longer."""
    return code if len(code) <= limit else code[: limit - 3] + "..."


def backward_seed_given(node: cst.Call) -> bool:
    """`x.backward(...)` given a gradient: positionally, as `gradient=`/`grad_tensors=`, or
    possibly through a `*`/`**` spread. Without one, torch requires `x` to be a scalar."""
    return any(a.keyword is None or a.keyword.value in ("gradient", "grad_tensors") for a in node.args)


def from_earlier_iteration(g, ctx) -> bool:
    """Was graph node `g` created inside one of the loops of `ctx`, in an earlier iteration?
    (A node created before the loop is shared by all iterations; one created in iteration 0
    and still reachable in iteration 1 was *carried* across.)"""
    loops_key = g[1][0]
    current = {id(n): i for n, i in ctx.loops}
    for lid, i in loops_key:
        j = current.get(lid)
        if j is not None and i < j:
            return True
    return False


def diff_phrase(ev: DiffEvent, line) -> str:
    """How a message names the place where something is differentiated."""
    if ev.kind == "lightning":
        return "the loss `training_step` returns (Lightning calls backward() on it)"
    if ev.kind == "keras":
        return "this Keras loss"
    if ev.kind == "jax":
        return "the value returned to jax.grad"
    if ev.kind == "inspect":
        return f"the value whose graph line {line(ev.node)} checks (`.{ev.node.attr.value}`)"
    return f"the loss differentiated on line {line(ev.node)}"


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)", re.M)
_FROM_IMPORT_MODULE = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\w+)[ \t]+as[ \t]+(\w+)", re.M)
_modules_cache: dict[int, tuple[str, frozenset[str]]] = {}


def imported_modules(ctx) -> frozenset[str]:
    """Names the file binds to modules by `import x`, `import x.y as z` (the head or the alias):
    `sum` called on one of them is a library function (`th.sum(x)`), not a method of a value."""
    text = ctx.code_text
    hit = _modules_cache.get(id(ctx))
    if hit is not None and hit[0] is text:
        return hit[1]
    out: set[str] = {"torch", "jnp", "tf", "np"}  # the conventional names, bound or not
    for m in _IMPORT.finditer(text):
        for part in m.group(1).split(","):
            bits = part.split()
            if len(bits) == 3 and bits[1] == "as":
                out.add(bits[2])
            elif bits:
                out.add(bits[0].split(".")[0])
    for m in _FROM_IMPORT_MODULE.finditer(text):  # `from jax import numpy as jnp`
        out.add(m.group(2))
    result = frozenset(out)
    if len(_modules_cache) > 64:
        _modules_cache.clear()
    _modules_cache[id(ctx)] = (text, result)
    return result


def carried_from_earlier_iteration(ctx, ev, cut_node) -> bool:
    """The cut is in the body of a loop around the differentiation, after it: its value can
    reach this differentiation only through the loop's back edge, from an earlier iteration
    (BEGAN's `k = k + lambda_k * diff.item()`, fed into the next step's loss). That iteration's
    graph is freed and its step taken: a number there is the right thing, not a lost gradient."""
    if not ev.ctx.loops or cut_node is None:
        return False
    loops = {id(n) for n, _ in ev.ctx.loops}
    if not any(id(a) in loops for a in ctx.ancestors(cut_node)):
        return False
    # where the loop body reaches the differentiation: itself, or the call of the function it
    # happens in (`train_step(logits, y)` in the loop, its tape.gradient above in the file)
    anchor = ev.node
    if not any(id(a) in loops for a in ctx.ancestors(anchor)):
        anchor = next((c for c in ev.ctx.calls if any(id(a) in loops for a in ctx.ancestors(c))), anchor)
    here, there = ctx.range_of(anchor), ctx.range_of(cut_node)
    return here is not None and there is not None and (there[0].line, there[0].column) > (here[1].line, here[1].column)


def _function_of(ctx, node):
    for a in ctx.ancestors(node):
        if isinstance(a, cst.FunctionDef):
            return a
    return None


def hidden_from_inspection(ctx, ev, cut_node) -> bool:
    """For an InspectEvent (`print(y.requires_grad)`): whether the cut lies in another function
    than the inspection — the code checks a value other code produced and expects it to carry
    a graph. A cut in the inspecting function itself is more likely a demonstration of what it
    does (`y = x.detach(); print(y.requires_grad)`). Other evidence: always."""
    if ev.kind != "inspect":
        return True
    return cut_node is not None and _function_of(ctx, cut_node) is not _function_of(ctx, ev.node)


class BackwardLog:
    """The backward calls, optimizer steps and gradient clears of a file in order, as a rule
    sees them (feed it `opt(ev)` / `diff(ev)`), and what they say about which optimizer uses
    the gradients a backward computes."""

    def __init__(self) -> None:
        self.steps: list[OptEvent] = []
        self.zeros: list[OptEvent] = []
        self.diffs: list[DiffEvent] = []

    def opt(self, ev: OptEvent) -> None:
        if ev.kind == "step":
            self.steps.append(ev)
        elif ev.kind == "zero_grad":
            self.zeros.append(ev)

    def diff(self, ev: DiffEvent) -> None:
        self.diffs.append(ev)

    def next_backward(self, ev: DiffEvent) -> float:
        """The sequence number of the next backward in the same run after `ev` (inf: none)."""
        return min((d.seq for d in self.diffs if d.ctx.run == ev.ctx.run and d.seq > ev.seq and d.kind in TORCH_GRAPH_DIFF),
                   default=float("inf"))

    def steps_after(self, ev: DiffEvent) -> list[OptEvent]:
        """The optimizer steps of the same run after backward `ev`, before the next backward."""
        limit = self.next_backward(ev)
        return [s for s in self.steps if s.ctx.run == ev.ctx.run and ev.seq < s.seq < limit]

    def trained_by_another_loss(self, ev: DiffEvent, o: Origin, parts: frozenset | None = None,
                                holders: frozenset | None = None) -> bool:
        """`o` has a loss and an optimizer of its own, and what `ev` computes for it is never
        used: every optimizer stepped after `ev` until `o`'s gradient is next cleared provably
        holds other parameters, and one that holds `o` steps after another backward that
        reaches it (SAC: the actor's loss uses `alpha = log_alpha.exp().item()` as a constant;
        `log_alpha` is trained by its own `alpha_loss` and `a_optimizer`). A gradient left to
        accumulate into a later step (BicycleGAN's generator, stepped after a second backward)
        is used. `parts`: `o` with its submodules' origins (a module whose own methods compute
        its loss: `self.fc1` there, `pi` where it was called); `holders`: `o` with the modules
        that hold it (an optimizer over `pi.parameters()` updates `self.fc1`)."""
        if ev.kind not in TORCH_GRAPH_DIFF:
            return False
        parts = parts or frozenset({o})
        updated_by = parts | (holders or frozenset({o}))  # optimizers holding these update o
        later = sorted((e for e in self.steps + self.zeros if e.ctx.run == ev.ctx.run and e.seq > ev.seq), key=lambda e: e.seq)
        stepped = False
        for e in later:
            params = e.target.get(F.OPT_PARAMS) or frozenset()
            if e.kind == "zero_grad":
                if updated_by & params or parts & e.target.live:
                    break  # cleared: what `ev` left in it is gone
                continue
            if e.target.get(F.SYM) or not params or updated_by & params:
                return False
            stepped = True
        if not stepped:
            return False
        return any(d is not ev and d.kind in TORCH_GRAPH_DIFF and parts & d.target.live
                   and any(updated_by & (s.target.get(F.OPT_PARAMS) or frozenset()) for s in self.steps_after(d))
                   for d in self.diffs)


class StarvedOrigins(Rule):
    """Shared by the rules about a trained origin that the differentiated value reaches *only*
    through gradient-stopping operations of some kinds (GL103 detach, GL104 no_grad, GL410
    non-differentiable ops): collects the differentiations whose targets starve an origin and,
    at the end, reports the cuts (`emit_cut`) of the origins the code evidently trains."""

    kinds: frozenset = frozenset()  # the cut kinds the rule is about

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._pending: list[tuple[DiffEvent, dict]] = []
        self._log = BackwardLog()
        self._grad_reads: list = []  # `p.grad` reads (UseEvent): the code wants p's gradient

    def on_use(self, ev) -> None:
        if ev.name == "grad" and ev.value.live:
            self._grad_reads.append(ev)

    def on_opt(self, ev: OptEvent) -> None:
        self._log.opt(ev)

    def on_diff(self, ev: DiffEvent) -> None:
        self._log.diff(ev)
        hungry = starved(ev.target)
        if not hungry:
            return
        self._pending.append((ev, hungry))

    def on_inspect(self, ev) -> None:
        hungry = starved(ev.target)
        if hungry:
            self._pending.append((ev, hungry))

    def finish(self) -> None:
        for ev, hungry in self._pending:
            if any(behind_graph_check(self.ctx, n) for n in (ev.node, *ev.ctx.calls)):
                # `if loss.requires_grad: loss.backward()` (or `mp_trainer.backward(loss)`, the
                # backward in a helper): a loss without a graph is skipped
                continue
            wanted = self._wanted(ev, hungry)
            for o in wanted:
                for c in hungry[o]:
                    if not carried_from_earlier_iteration(self.ctx, ev, c.node) and hidden_from_inspection(self.ctx, ev, c.node):
                        self.emit_cut(ev, o, c)

    def emit_cut(self, ev: DiffEvent, o: Origin, c: Cut) -> None:
        raise NotImplementedError

    def _wanted(self, ev: DiffEvent, hungry: dict) -> list:
        """The starved origins that the code evidently wants gradients for. One starved only by
        re-wrapping (a REWRAP cut: detached, then made a new leaf on purpose) needs the strict
        evidence: an optimizer stepping it after this backward, or Lightning's own step."""
        rewrapped = {o for o, cs in hungry.items() if all(c.kind == REWRAP for c in cs)}
        if not rewrapped or ev.kind in ("lightning", "autograd_grad"):
            # `torch.autograd.grad(y, x)` names what it wants the gradient of: asking for x's
            # is the evidence, however y was cut from x (it returns None, or raises "One of the
            # differentiated Tensors appears to not have been used in the graph")
            return self._wanted_by(ev, hungry)
        out = self._wanted_by(ev, {o: cs for o, cs in hungry.items() if o not in rewrapped})
        if ev.kind in TORCH_GRAPH_DIFF:
            strict = {o: hungry[o] for o in rewrapped}
            out += [o for o in self._stepped(ev, strict) + self._grad_read(ev, strict) if o not in out]
        return out

    def _grad_read(self, ev: DiffEvent, hungry: dict) -> list:
        """The starved origins whose `.grad` the code reads after this backward, before the next
        one (a hand-written update `p.data.add_(-lr * p.grad)`): it finds None there."""
        limit = self._log.next_backward(ev)
        read: set = set()
        for u in self._grad_reads:
            if u.ctx.run == ev.ctx.run and ev.seq < u.seq < limit:
                read |= u.value.live
        return [o for o in hungry if o in read]

    def _wanted_by(self, ev: DiffEvent, hungry: dict) -> list:
        if not hungry:
            return []
        if not ev.target.certain_live() or ev.kind in ("lightning", "inspect"):
            return list(hungry)
        if ev.kind == "tape":
            requested = set()
            for item in source_items(ev.sources):
                requested |= item.live
            return [o for o in hungry if o in requested]
        if ev.kind == "autograd_grad":
            requested = set(ev.sources.live) if ev.sources is not None else set()
            return [o for o in hungry if o in requested]
        if ev.kind == "tf_graph":  # tf.gradients(ys, xs) / minimize(loss, var_list): all trainable without xs
            if ev.sources is None:
                return list(hungry)
            requested = set()
            for item in source_items(ev.sources):
                requested |= item.live
            return [o for o in hungry if o in requested]
        if ev.kind in ("jax", "keras"):
            return list(hungry)
        return self._stepped(ev, hungry)

    def _stepped(self, ev: DiffEvent, hungry: dict) -> list:
        """Torch backward: the starved origins an optimizer steps next (same run, before the
        next backward), not fed a gradient by another backward since it last cleared them."""
        wanted: list = []
        fresh = rewrapped_leaves(ev.target)
        for s in self._log.steps_after(ev):
            params = s.target.get(F.OPT_PARAMS)
            if fresh and s.target.get(F.SYM) and not _made_from(s.target, fresh):
                # an optimizer whose parameters are unseen (received, or built by a call the
                # analysis cannot see into, from none of these leaves) steps after a loss whose
                # only leaves were made by re-wrapping detached values: it cannot hold them,
                # so what it trains is what they were detached from
                params = frozenset(hungry)
            params = params or frozenset()
            for o in hungry:
                if o in params and o not in wanted and not self._fed_before_step(ev, s, o):
                    wanted.append(o)
        return wanted

    def _fed_before_step(self, ev: DiffEvent, step: OptEvent, o: Origin) -> bool:
        """Another backward since the optimizer's gradients were last cleared gives `o` its
        gradient (gradient accumulation: `loss.backward()` for the model, then the
        discriminator's `d_loss.backward()` on `pred.detach()`, then one step for both)."""
        start = max((z.seq for z in self._log.zeros if z.ctx.run == ev.ctx.run and z.seq < step.seq
                     and (o in (z.target.get(F.OPT_PARAMS) or ()) or o in z.target.live)), default=-1)
        return any(d is not ev and d.ctx.run == ev.ctx.run and start < d.seq < step.seq and d.kind in TORCH_GRAPH_DIFF
                   and o in d.target.live for d in self._log.diffs)


_GRAPH_CHECKS = frozenset({"requires_grad", "grad_fn", "is_grad_enabled"})


def behind_graph_check(ctx, node) -> bool:
    """`node` runs only when a test of an `if` around it asks whether there is a graph
    (`if loss.requires_grad:`, `if out.grad_fn is not None:`, `if torch.is_grad_enabled():`):
    the code expects to meet values without one (the same step run under no_grad for validation)."""
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, cst.If) and child is anc.body and any(
                isinstance(n, cst.Attribute) and n.attr.value in _GRAPH_CHECKS or isinstance(n, cst.Name) and n.value in _GRAPH_CHECKS
                for n in walk(anc.test, code_only=True)):
            return True
        if isinstance(anc, (cst.FunctionDef, cst.Module)):
            return False
        child = anc
    return False


def rewrapped_leaves(target: Val, certain_only: bool = True) -> frozenset[Origin]:
    """The (certain) live origins of `target` when every one is a leaf made by re-wrapping a
    detached value (`out.detach().requires_grad_()`: a REWRAP cut names the line that made it),
    else none. With `certain_only` the uncertain ones are left out: what the code received and
    nothing shows to be trained (a `criterion` parameter)."""
    made = {id(c.then) for _, c in target.cuts if c.kind == REWRAP}
    live = frozenset(o for o in target.live if o.certain or not certain_only)
    return live if made and all(id(o.node) in made for o in live) else frozenset()


def _made_from(v: Val, leaves: frozenset[Origin]) -> bool:
    """`v` may hold one of `leaves`: it reaches one, or was computed from what was re-wrapped
    into one (`opt_cls([x_var], lr=...)`: a list of x_var, given to a call the analysis cannot see into)."""
    nodes = {id(o.node) for o in leaves}
    return bool(leaves & v.live) or any(o in leaves or c.kind == REWRAP and id(c.then) in nodes for o, c in v.cuts)


class SecondOrder:
    """The `torch.autograd.grad(..., create_graph=True)` calls of a file, as a rule sees them
    (`note(ev)` on every DiffEvent), and the graphs of such gradients a value is built from:
    a value computed from a create_graph gradient exists to be differentiated (a gradient
    penalty). GL106 and GL408 both ask."""

    def __init__(self, tensorflow: bool = False) -> None:
        self._calls: set[int] = set()
        # also TensorFlow's differentiable gradients (tf.gradients; a tape inside a recording tape)
        self._kinds = ("autograd_grad", "tf_graph", "tape") if tensorflow else ("autograd_grad",)

    def __bool__(self) -> bool:
        return bool(self._calls)

    def note(self, ev) -> bool:
        """Record `ev` if it takes a create_graph gradient; whether it did."""
        if ev.kind in self._kinds and ev.create_graph is True:
            self._calls.add(id(ev.node))
            return True
        return False

    def graphs(self, v) -> set:
        if not self._calls:
            return set()
        return {g for g in v.graphs if isinstance(g, tuple) and id(g[0]) in self._calls}

    def built_from(self, v) -> bool:
        """`v` is computed from a create_graph gradient (the cheap question: asked of every
        assignment, whose graphs can be many)."""
        calls = self._calls
        return bool(calls) and any(isinstance(g, tuple) and id(g[0]) in calls for g in v.graphs)

    def has_call(self, node) -> bool:
        return id(node) in self._calls


def trained_forward(fn) -> bool:
    """`fn` is the forward() of a PyTorch model class (the call() of a Keras layer or model) that
    no code of the file calls: the model is trained elsewhere (`def fit(model, ...)`, another module), so what forward() returns is
    on a differentiated path as surely as a loss computed in the file."""
    cls = fn.cls
    if cls is None or not cls.is_module or fn.inlined:
        return False
    if cls.is_keras:
        return fn.name == "call"  # a Keras Layer/Model subclass: its call() is what the model computes
    return fn.name == "forward" and cls.framework == "torch"


def free_names(fn: cst.FunctionDef) -> frozenset[str]:
    """The names a function reads that it neither takes nor binds: what it closes over or reads
    from the module (`params` in `def model(x): return x @ params["w"]`). Syntactic; attribute
    names (`.w` of `a.w`) and keyword names are not reads."""
    bound: set[str] = set()
    p = fn.params
    for param in (*p.posonly_params, *p.params, *p.kwonly_params):
        bound.add(param.name.value)
    for star in (p.star_arg, p.star_kwarg):
        if isinstance(star, cst.Param):
            bound.add(star.name.value)
    skip: set[int] = set()
    read: set[str] = set()
    for node in walk(fn.body, code_only=True):
        if isinstance(node, cst.Attribute):
            skip.add(id(node.attr))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            skip.add(id(node.keyword))
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.AsName, cst.NamedExpr)):
            target = getattr(node, "target", None) or getattr(node, "name", None)
            for t in walk(target, code_only=True) if target is not None else ():
                if isinstance(t, cst.Name):
                    bound.add(t.value)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node is not fn:
            bound.add(node.name.value)
        elif isinstance(node, cst.Name) and id(node) not in skip:
            read.add(node.value)
    return frozenset(read - bound)


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node, code_only=True) if isinstance(n, cst.Name)}


def returns_mention(fn: cst.FunctionDef, sources: set[str]) -> bool:
    """Whether any `return` of `fn` may depend on the names `sources`, by a syntactic taint
    that over-approximates: a statement that mentions a tainted name taints every name in it
    (its targets, a list it appends to, the receiver of a method), a compound statement whose
    header mentions one taints everything its body binds, a nested function that reads one is
    tainted; to a fixed point. Used to confirm, independently of the data flow, that a value
    does *not* depend on an argument (a false "independent" would be a false finding)."""
    tainted = set(sources)
    stmts: list[tuple[cst.CSTNode, set[str]]] = []  # (statement, the names it mentions)
    for node in walk(fn.body, code_only=True):
        if isinstance(node, cst.SimpleStatementLine):
            stmts.append((node, _names_in(node)))
        elif isinstance(node, (cst.If, cst.While)):
            stmts.append((node, _names_in(node.test) | _names_in(node.body)))
        elif isinstance(node, cst.For):
            stmts.append((node, _names_in(node.iter) | _names_in(node.target) | _names_in(node.body)))
        elif isinstance(node, cst.With):
            stmts.append((node, set().union(*(_names_in(i) for i in node.items)) | _names_in(node.body)))
        elif isinstance(node, (cst.FunctionDef, cst.Lambda)) and node is not fn:
            names = _names_in(node)
            if isinstance(node, cst.FunctionDef):
                names.add(node.name.value)
            stmts.append((node, names))
    changed = True
    while changed:
        changed = False
        for _stmt, names in stmts:
            if names & tainted and not names <= tainted:
                tainted |= names
                changed = True
    returns = [n for n in walk(fn.body, code_only=True) if isinstance(n, cst.Return) and n.value is not None]
    return any(_names_in(r.value) & tainted for r in returns)


def takes_remainder(test: cst.BaseExpression) -> bool:
    """`i % k == 0`, `(step + 1) % accum`: the test computes a remainder (walked, not printed:
    a check prints hundreds of `if` tests otherwise)."""
    return any(isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo) for n in walk(test, code_only=True))
