"""Evidence from use: what the code of one scope proves about a name by how it uses it.

Real training code receives its model, optimizer and loss as parameters, keeps them on `self`,
or gets them from imported classes and factories: the analysis does not see them constructed.
What it does see is how they are used, and use is proof (issue 13, "believe only what you can
prove"):

- `x.backward()`, `torch.autograd.grad(x, ...)`, `scaler.scale(x).backward()`,
  `accelerator.backward(x)`, `self.manual_backward(x)` prove that `x` has autograd history;
- `o.zero_grad()` together with `o.step()`, `o.param_groups`, `scaler.step(o)`,
  `scaler.unscale_(o)` prove that `o` is an optimizer — and so does a bare `o.step()` in a scope
  that backpropagates, when nothing else steps there and `o` is not a scheduler;
- `s.scale(...)` or `s.unscale_(...)` together with `s.step(...)` or `s.update()` prove that `s`
  is a GradScaler (so `s.step(opt)` steps inside the loop, and a float16 backward through
  `s.scale(loss)` is scaled);
- `m.parameters()`, `m.named_parameters()`, `m.train()`, `m.eval()`, `m.modules()`, ... prove
  that `m` is a module, and so does `m(...)` whose result reaches a value that is
  backpropagated (a forward pass on the loss path).

This is a flow-insensitive pre-pass over one scope's syntax (a function body without its nested
functions; the module body without its functions; for `self.x`, every method of a class): it
is cheap, computed once per scope, and what it proves is applied by the interpreter where it
binds or reads the name (interp/evidence_apply). A name it proves nothing about stays unknown.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field

import libcst as cst

from .frameworks.arrays import HARD_CUT_METHODS
from .names import dotted_name
from .walk import code_children, walk

# Methods only a module has (not a tensor, not an optimizer or scheduler: those have
# state_dict/load_state_dict too, tensors have to/cuda/float/apply_).
MODULE_ONLY_METHODS = frozenset({
    "parameters", "named_parameters", "train", "eval", "modules", "children", "named_modules",
    "named_children", "buffers", "named_buffers", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_buffer", "register_parameter", "add_module",
    "trainable_variables", "trainable_weights",
})
# Attributes only a Keras layer/model (a tf.Module) has.
_MODULE_ONLY_ATTRS = frozenset({"trainable_variables", "trainable_weights"})
# Methods that differentiate their (first) argument when called on anything.
BACKWARD_OF_ARGUMENT = frozenset({"manual_backward"})
_CONTAINER_ADDS = frozenset({"append", "extend", "insert", "appendleft", "add"})
_SCHEDULER_NAME = re.compile(r"sched|lr_?policy|warmup", re.I)


class Role:
    MODULE = "module"  # a module method was called on it (parameters, train, eval, ...)
    CALLED = "called"  # only called on the way to a backpropagated value: a module, or a loss function
    OPTIMIZER = "optimizer"
    SCALER = "scaler"  # a GradScaler: `scaler.scale(loss)` with `scaler.step(opt)` or `scaler.update()`


_SCALER_ONLY_METHODS = frozenset({"scale", "unscale_"})


@dataclass
class _Assignment:
    targets: set[str]
    names: set[str]  # dotted names read by the value
    callees: set[str]  # dotted names called by the value


@dataclass
class Uses:
    """The evidence of one scope. Names are dotted paths as written (`self.model`, `opt`)."""

    methods: dict[str, set[str]] = field(default_factory=dict)
    bare_steps: set[str] = field(default_factory=set)  # `x.step()` with no argument
    attrs_read: dict[str, set[str]] = field(default_factory=dict)
    backprop: dict[str, cst.CSTNode] = field(default_factory=dict)  # name -> the call proving it
    loss_path: set[str] = field(default_factory=set)  # names a backpropagated value is computed from
    forward_callees: set[str] = field(default_factory=set)  # called where the result reaches a backpropagated value
    scaler_args: set[str] = field(default_factory=set)  # `scaler.step(o)` / `scaler.unscale_(o)`
    # called where the call's result *is* the backpropagated value (`loss = loss_fn(out, y)`;
    # `loss.backward()`): a loss function, whatever its arguments are
    loss_callees: set[str] = field(default_factory=set)
    # `with tf.GradientTape() as tape: ...; tape.gradient(loss, ...)`: the scope differentiates
    # with TensorFlow, so what its uses prove to be a module is a Keras one
    tape_diff: bool = False
    # called with a value converted out of the framework (`obsfilt(state.numpy())`): a NumPy
    # function (an observation filter, a scaler), not a module, whatever its result feeds
    host_fed: set[str] = field(default_factory=set)
    _roles: dict[str, str | None] = field(default_factory=dict)

    @property
    def backpropagates(self) -> bool:
        return bool(self.backprop)

    def role(self, name: str) -> str | None:
        """Role.OPTIMIZER, Role.SCALER, Role.MODULE, Role.CALLED or None (nothing proven)."""
        if name in self._roles:
            return self._roles[name]
        r = self._role(name)
        self._roles[name] = r
        return r

    def _role(self, name: str) -> str | None:
        ms = self.methods.get(name, set())
        if name in self.scaler_args or "param_groups" in self.attrs_read.get(name, ()):
            return Role.OPTIMIZER
        if "zero_grad" in ms and "step" in ms:
            return Role.OPTIMIZER
        if ms & _SCALER_ONLY_METHODS and ms & {"step", "update"}:
            # `scaler.scale(loss).backward(); scaler.step(opt); scaler.update()`: scale/unscale_
            # name no other object's step-and-update API
            return Role.SCALER
        if ms & MODULE_ONLY_METHODS or self.attrs_read.get(name, set()) & _MODULE_ONLY_ATTRS:
            return Role.MODULE
        if name in self.forward_callees and name not in self.host_fed:
            return Role.CALLED
        if (name in self.bare_steps and self.backpropagates and not _SCHEDULER_NAME.search(name)
                and len([n for n in self.bare_steps if not _SCHEDULER_NAME.search(n)]) == 1):
            # the one thing stepped where something is backpropagated: the optimizer
            return Role.OPTIMIZER
        return None

    def merged(self, other: "Uses") -> "Uses":
        out = Uses()
        for mine, theirs, dest in ((self.methods, other.methods, out.methods), (self.attrs_read, other.attrs_read, out.attrs_read)):
            for k in set(mine) | set(theirs):
                dest[k] = set(mine.get(k, ())) | set(theirs.get(k, ()))
        out.bare_steps = self.bare_steps | other.bare_steps
        out.backprop = {**other.backprop, **self.backprop}
        out.loss_path = self.loss_path | other.loss_path
        out.forward_callees = self.forward_callees | other.forward_callees
        out.scaler_args = self.scaler_args | other.scaler_args
        out.loss_callees = self.loss_callees | other.loss_callees
        out.tape_diff = self.tape_diff or other.tape_diff
        out.host_fed = self.host_fed | other.host_fed
        return out

    def framework(self, name: str) -> str:
        """The library of a module proven by these uses: Keras when only TensorFlow code has its
        uses (`.trainable_variables`, differentiated by a GradientTape), else torch."""
        if self.attrs_read.get(name, set()) & _MODULE_ONLY_ATTRS or (self.tape_diff and not self.methods.get(name, set()) & MODULE_ONLY_METHODS):
            return "tf"
        return "torch"


def _names_in(node: cst.CSTNode) -> tuple[set[str], set[str]]:
    """(dotted names read, dotted names called) in an expression (not inside lambdas)."""
    names: set[str] = set()
    callees: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Name, cst.Attribute)):
            d = dotted_name(n)
            if d is not None:
                names.add(d)
                # `self.model.encoder` also reads `self.model` and `self`
                while "." in d:
                    d = d.rsplit(".", 1)[0]
                    names.add(d)
                continue
        if isinstance(n, cst.Call):
            d = dotted_name(n.func)
            if d is not None:
                callees.add(d)
        if isinstance(n, cst.Lambda):
            continue
        stack.extend(code_children(n))
    return names, callees


def _converted_out(e: cst.CSTNode) -> bool:
    """`x.numpy()`, `x.cpu().numpy()`, `x.tolist()`, `x.item()`: a value taken out of the framework."""
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value in HARD_CUT_METHODS


def _target_names(t: cst.CSTNode) -> set[str]:
    if isinstance(t, (cst.Tuple, cst.List)):
        out: set[str] = set()
        for e in t.elements:
            out |= _target_names(e.value)
        return out
    if isinstance(t, cst.StarredElement):
        return _target_names(t.value)
    while isinstance(t, cst.Subscript):
        t = t.value
    d = dotted_name(t)
    return {d} if d else set()


class _Collector(cst.CSTVisitor):
    def __init__(self, uses: Uses, root: cst.CSTNode, self_name: str | None) -> None:
        self.uses = uses
        self.root = root
        self.self_name = self_name  # rename the method's first parameter to "self"
        self.assignments: list[_Assignment] = []
        self.diff_exprs: list[cst.CSTNode] = []
        self.call_results: list[tuple[set[str], str]] = []  # `t = f(...)`: (targets, f)
        self.tapes: set[str] = set()  # names bound by `with ...GradientTape(...) as name`
        self.gradient_calls: list[tuple[str, cst.CSTNode, cst.Call]] = []  # `r.gradient(target, ...)`

    def _name(self, node) -> str | None:
        d = dotted_name(node)
        if d is not None and self.self_name is not None and self.self_name != "self":
            if d == self.self_name or d.startswith(self.self_name + "."):
                d = "self" + d[len(self.self_name):]
        return d

    # nested scopes are their own
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.root

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return node is self.root

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        u = self.uses
        f = node.func
        if any(_converted_out(a.value) for a in node.args):
            callee = self._name(f)
            if callee is not None:
                u.host_fed.add(callee)
        if isinstance(f, cst.Attribute) and f.attr.value in _CONTAINER_ADDS and node.args:
            recv = self._name(f.value)
            if recv is not None:
                for item in node.args:  # `losses.append(-log_p * r)`: the list is computed from its items
                    self._assign({recv}, item.value)
        if isinstance(f, cst.Attribute):
            m = f.attr.value
            recv = self._name(f.value)
            if recv is not None:
                u.methods.setdefault(recv, set()).add(m)
                if m == "step" and not node.args:
                    u.bare_steps.add(recv)
            if m == "backward":
                base = f.value
                if isinstance(base, cst.Call) and isinstance(base.func, cst.Attribute) and base.func.attr.value == "scale" and base.args:
                    self._diff(base.args[0].value, node)  # scaler.scale(loss).backward()
                    sc = self._name(base.func.value)
                    if sc is not None:
                        u.methods.setdefault(sc, set()).add("scale")
                elif recv in ("torch.autograd", "autograd"):
                    if node.args:
                        self._diff(node.args[0].value, node)
                else:
                    self._diff(base, node)
                    # accelerator.backward(loss) / fabric.backward(loss) / engine.backward(loss):
                    # the argument is what is differentiated (a tensor's backward() takes a
                    # gradient instead, which this marks too: harmless, it is a tensor)
                    if node.args and node.args[0].keyword is None and isinstance(node.args[0].value, (cst.Name, cst.Attribute, cst.Subscript)):
                        self._diff(node.args[0].value, node)
            elif m in BACKWARD_OF_ARGUMENT and node.args:
                self._diff(node.args[0].value, node)
            elif m == "grad" and recv in ("torch.autograd", "autograd") and node.args:
                self._diff(node.args[0].value, node)
            elif m in ("unscale_",) and node.args and recv is not None:
                a = self._name(node.args[0].value)
                if a:
                    u.scaler_args.add(a)
            elif m == "step" and node.args and recv is not None and len(node.args) == 1:
                # scaler.step(optimizer): a GradScaler also scales or updates
                a = self._name(node.args[0].value)
                if a and (u.methods.get(recv, set()) & {"scale", "update", "unscale_"} or "scaler" in recv.lower()):
                    u.scaler_args.add(a)
            elif m == "gradient" and node.args and recv is not None:
                self.gradient_calls.append((recv, node.args[0].value, node))  # a tape's: see finish()
        elif isinstance(f, cst.Name) and f.value == "grad" and node.args:
            self._diff(node.args[0].value, node)  # `from torch.autograd import grad`
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "outputs" and dotted_name(f) in ("torch.autograd.grad", "autograd.grad"):
                self._diff(arg.value, node)

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and item.asname is not None and isinstance(item.asname.name, cst.Name):
                d = dotted_name(call.func)
                if d is not None and d.rsplit(".", 1)[-1] == "GradientTape":
                    self.tapes.add(item.asname.name.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        base = self._name(node.value)
        if base is not None:
            self.uses.attrs_read.setdefault(base, set()).add(node.attr.value)

    def _diff(self, expr: cst.CSTNode, call: cst.CSTNode) -> None:
        self.diff_exprs.append(expr)
        d = self._name(expr)
        if d is not None:
            self.uses.backprop.setdefault(d, call)

    def _assign(self, targets: set[str], value: cst.CSTNode | None) -> None:
        if value is None or not targets:
            return
        if isinstance(value, cst.Call):
            f = self._name(value.func)
            if f is not None:
                self.call_results.append((targets, f))
        names, callees = _names_in(value)
        if self.self_name is not None and self.self_name != "self":
            names = {self._rename(n) for n in names}
            callees = {self._rename(n) for n in callees}
        self.assignments.append(_Assignment(targets, names, callees))

    def _rename(self, d: str) -> str:
        s = self.self_name
        if s and (d == s or d.startswith(s + ".")):
            return "self" + d[len(s):]
        return d

    def _targets(self, t: cst.CSTNode) -> set[str]:
        return {self._rename(n) for n in _target_names(t)}

    def visit_Assign(self, node: cst.Assign) -> None:
        targets: set[str] = set()
        for t in node.targets:
            targets |= self._targets(t.target)
        self._assign(targets, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assign(self._targets(node.target), node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assign(self._targets(node.target), node.value)

    def visit_For(self, node: cst.For) -> None:
        self._assign(self._targets(node.target), node.iter)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._assign(self._targets(node.target), node.value)

    def finish(self) -> None:
        u = self.uses
        for recv, target, call in self.gradient_calls:
            if recv in self.tapes:
                self._diff(target, call)
                u.tape_diff = True
        path: set[str] = set()
        callees: set[str] = set()
        for e in self.diff_exprs:
            names, cs = _names_in(e)
            path |= {self._rename(n) for n in names}
            callees |= {self._rename(n) for n in cs}
        changed = True
        while changed:
            changed = False
            for a in self.assignments:
                if a.targets & path and not (a.names <= path and a.callees <= callees):
                    path |= a.names
                    callees |= a.callees
                    changed = True
        u.loss_path = path
        backprop = set(u.backprop)
        u.loss_callees = {f for targets, f in self.call_results if len(targets) == 1 and targets & backprop}
        u.loss_callees |= {d for e in self.diff_exprs if isinstance(e, cst.Call) and (d := self._name(e.func)) is not None}
        # a callee that is a method of a value on the loss path (`out.mean()`) is not a forward pass
        u.forward_callees = {c for c in callees if "." not in c or c.rsplit(".", 1)[0] not in path or c.startswith("self.")}


def _collect(c: _Collector, root: cst.CSTNode) -> None:
    """`root.visit(c)`, without libcst's visitor machinery (analysis/walk.py): the same nodes in
    the same order, each handed to `c.visit_<Type>`; a handler returning False skips the
    node's children, as in libcst."""

    def enter(node: cst.CSTNode) -> bool:
        handler = _HANDLERS.get(type(node))
        return handler is None or handler(c, node) is not False

    for _ in walk(root, enter, code_only=True):
        pass


_HANDLERS = {
    getattr(cst, name[len("visit_"):]): fn
    for name, fn in vars(_Collector).items()
    if name.startswith("visit_") and callable(fn)
}

# scope node -> (the node, self_name, its Uses): a project module's functions are the same
# parsed nodes in every check of a process (loader.py caches the parse by content hash), so
# their evidence is collected once, not once per file that imports them. The node is kept with
# its entry so that its id cannot be reused while the entry lives.
_USES: "OrderedDict[tuple[int, str | None], tuple[cst.CSTNode, Uses]]" = OrderedDict()
_USES_KEEP = 4096


def uses_of(scope: cst.CSTNode, self_name: str | None = None) -> Uses:
    """The evidence of a function (its body without nested functions) or of a list of module
    statements (`scope` a Module or a FunctionDef). For a method, `self_name` is its first
    parameter, read as `self`. The result is shared: callers must not modify it."""
    key = (id(scope), self_name)
    hit = _USES.get(key)
    if hit is not None and hit[0] is scope:
        _USES.move_to_end(key)
        return hit[1]
    uses = Uses()
    c = _Collector(uses, scope, self_name)
    _collect(c, scope)
    c.finish()
    _USES[key] = (scope, uses)
    if len(_USES) > _USES_KEEP:
        _USES.popitem(last=False)
    return uses


def module_uses(body: list[cst.CSTNode]) -> Uses:
    """The evidence of module-level statements (functions and classes are their own scopes)."""
    uses = Uses()
    c = _Collector(uses, None, None)  # type: ignore[arg-type]
    for stmt in body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            continue
        _collect(c, stmt)
    c.finish()
    return uses


def class_uses(methods: list[tuple[cst.FunctionDef, str | None]]) -> Uses:
    """The evidence about `self.x` across the methods of a class (`self` renamed per method)."""
    out = Uses()
    for node, self_name in methods:
        out = out.merged(uses_of(node, self_name))
    return out
