"""Applying evidence from use (analysis/evidence.py) where a value is bound or read.

A parameter `optimizer` whose scope calls `optimizer.zero_grad()` and `optimizer.step()`, an
attribute `self.model` that some method of the class trains (`self.model.train()`), a name bound
to the result of an imported factory (`model = GPT(cfg)`) and then called on the way to a
backpropagated loss: the interpreter does not see them constructed, so without evidence they
are unknown. Their uses prove what they are: this mixin turns an *unknown* value into a module
or an optimizer when, and only when, its name's uses prove it, and marks a value that is
backpropagated as having history. A value the analysis knows (a tensor, a module, a number) is
never changed by evidence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K
from ..evidence import Role, Uses, class_uses, module_uses, uses_of
from ..facts import Evidence, Tri
from ..values import OPAQUE, Origin, Val
from .state import ClassInfo, FunctionInfo, State

if TYPE_CHECKING:  # pragma: no cover
    from .host import InterpreterHost as _Base
else:
    _Base = object

# kinds whose values evidence never changes: the analysis knows what they are
_KNOWN = frozenset({
    K.TENSOR, K.GRAD, K.NDARRAY, K.NUMBER, K.STR, K.BOOL, K.NONE, K.META, K.TUPLE, K.LIST, K.DICT,
    K.CONTAINER, K.PARAMS, K.MODULE, K.OPTIMIZER, K.SCALER, K.TAPE, K.CTX, K.FUNCTION, K.BOUND,
    K.CLASS, K.REF, K.JAXFN, K.AUTOGRAD_APPLY,
})


def _history_unknown(v: Val) -> bool:
    """Whether the analysis does not know if `v` has autograd history: a value it did not see
    made (kind unknown, a parameter of the function, the result of code it cannot see). A
    tensor it computed is known either way, and the evidence of the name must not overrule
    it: names are reused (`loss_q` under no_grad, then the meta-loss that is backpropagated)."""
    if v.kind is None:
        return True
    if v.kind != K.TENSOR:
        return False
    return bool(v.get(F.SYM)) or any(not o.certain for o in v.live) or any(c.kind == OPAQUE for _, c in v.cuts)


def _kind_unknown(v: Val) -> bool:
    """What a value is, the analysis does not know: an unknown kind, or a module it knows of but
    not what it holds (a library's model factory, a wrapper of nothing it saw)."""
    return v.kind not in _KNOWN or (v.kind == K.MODULE and not v.live)


def _only_maybe(v: Val) -> bool:
    """A tensor the analysis assumed, not computed: every origin an uncertain symbolic one and
    no operation recorded on it (`self.model = model` of __init__, read back in a method)."""
    return (v.kind == K.TENSOR and bool(v.live) and not v.graphs and not v.cuts
            and all(not o.certain and o.kind == K.ORIGIN_SYM for o in v.live))


def evidenced_optimizer(cuts: frozenset = frozenset()) -> Val:
    """An optimizer proven by its uses: which parameters it updates is unknown. `cuts`: the
    origins it was made from by a call the analysis cannot see into (OPAQUE), which it may hold."""
    return Val(cuts=cuts, kind=K.OPTIMIZER, attrs={F.OPT_PARAMS: frozenset(), F.SYM: True, F.EVIDENCED: True})


def evidenced_scaler(node) -> Val:
    """A GradScaler proven by its uses; `node` (where the proof was read) stands for where it
    was made: what it scales is told apart from what another scaler scales by it."""
    return Val(kind=K.SCALER, attrs={F.CREATED: node, F.EVIDENCED: True})


class EvidenceMixin(_Base):
    _module_uses: Uses | None
    _loss_path_names: frozenset[str] | None

    # ------------------------------------------------------------------ whose evidence
    def uses_of_scope(self, st: State) -> Uses:
        fn = st.act.fn
        if fn is None:
            if self._module_uses is None:
                self._module_uses = module_uses(self.body)
            return self._module_uses
        return self.function_uses(fn)

    def names_on_loss_paths(self) -> frozenset[str]:
        cached = self._loss_path_names
        if cached is None:
            if self._module_uses is None:
                self._module_uses = module_uses(self.body)
            names = set(self._module_uses.loss_path)
            for fn in self.functions:
                # a project module's function counts where it was run (inlined at a call):
                # the others are that module's own check's business, and collecting their
                # evidence was the largest cost of a project-wide check
                if not fn.is_lambda and (fn.inlined or not self.is_foreign(fn)):
                    names |= self.function_uses(fn).loss_path
            cached = self._loss_path_names = frozenset(names)
        return cached

    def loss_path_of(self, fn: FunctionInfo | None) -> frozenset[str]:
        if fn is None:
            if self._module_uses is None:
                self._module_uses = module_uses(self.body)
            return frozenset(self._module_uses.loss_path)
        return frozenset(self.function_uses(fn).loss_path)

    def function_uses(self, fn: FunctionInfo) -> Uses:
        u = fn.uses
        if u is None:
            self_name = fn.params[0][0] if fn.cls is not None and not fn.is_static and fn.params else None
            u = fn.uses = uses_of(fn.node, self_name)
        return u

    def class_uses(self, info: ClassInfo) -> Uses:
        u = info.uses
        if u is None:
            methods = []
            for m in info.methods.values():
                if m.is_lambda or m.is_static:
                    continue
                methods.append((m.node, m.params[0][0] if m.params else None))
            u = info.uses = class_uses(methods)
        return u

    def role_of(self, name: str, st: State) -> str | None:
        fn = st.act.fn
        if fn is not None and fn.cls is not None and (name == "self" or name.startswith("self.")):
            return self.class_uses(fn.cls).role(name)
        return self.uses_of_scope(st).role(name)

    def is_loss_callee(self, name: str | None, st: State) -> bool:
        """`name(...)` is, in this scope, what is backpropagated: a loss function."""
        if name is None:
            return False
        fn = st.act.fn
        if fn is not None and fn.cls is not None and name.startswith("self."):
            return name in self.class_uses(fn.cls).loss_callees
        return name in self.uses_of_scope(st).loss_callees

    def backprop_evidence(self, name: str, st: State):
        """The call that differentiates `name` in this scope, if any."""
        fn = st.act.fn
        if fn is not None and fn.cls is not None and name.startswith("self."):
            return self.class_uses(fn.cls).backprop.get(name)
        return self.uses_of_scope(st).backprop.get(name)

    # ------------------------------------------------------------------ applying it
    def with_evidence(self, name: str, v: Val, st: State, node) -> Val:
        """`v` about to be bound to (or read as) `name`: what its uses prove it is."""
        if _kind_unknown(v) or _only_maybe(v):
            # unknown, or known only as "maybe" a parameter's (`self.model = model` read back):
            # its uses make it a module of its own
            role = self.role_of(name, st)
            if role in (Role.MODULE, Role.CALLED) and v.kind != K.INSTANCE:
                return self.evidenced_module(name, v, node, role, self._uses_for(name, st).framework(name))
            if role == Role.OPTIMIZER and v.kind != K.INSTANCE:
                # what an unseen constructor was given stays as its maybe-contents
                # (`self.optimizer_cls([x], lr=...)`: it may hold x)
                return evidenced_optimizer(v.cuts)
            if role == Role.SCALER and v.kind != K.INSTANCE:
                return evidenced_scaler(node)
        if v.get(F.HISTORY) is None and _history_unknown(v):
            proof = self.backprop_evidence(name, st)
            if proof is not None:
                return v.with_fact(F.HISTORY, Evidence(Tri.YES, proof))
        return v

    def global_with_evidence(self, name: str, v: Val, st: State) -> Val:
        """A module-level value read inside a function (`generator = Generator()` from an
        imported class: unknown at module level; `generator.trainable_variables` in `main()`):
        what the function's uses prove it is. Only for a value the module level left unknown."""
        fn = st.act.fn
        if fn is None or not _kind_unknown(v):
            return v
        key = (id(fn.node), name, id(v))
        hit = self._global_evidence.get(key)
        if hit is not None and hit[0] is v:
            return hit[1]
        out = self.with_evidence(name, v, st, fn.node)
        self._global_evidence[key] = (v, out)  # v kept alive with its entry: its id is not reused
        return out

    def _uses_for(self, name: str, st: State) -> Uses:
        fn = st.act.fn
        if fn is not None and fn.cls is not None and (name == "self" or name.startswith("self.")):
            return self.class_uses(fn.cls)
        return self.uses_of_scope(st)

    def evidenced_module(self, name: str, v: Val, node, role: str, fw: str = "torch") -> Val:
        """A module proven by use: its own origin, or the origins of the modules it wraps.
        `role` CALLED: only its calls prove it, so it may be a loss function (see call_module)."""
        # a symbolic value's own origins are only "maybe" ones: the use is the proof, so an
        # uncertain-only value gets a certain origin of its own, like an unknown one
        origins = frozenset(o for o in v.live if o.certain) or frozenset(
            o for o, c in v.cuts if c.kind == OPAQUE and o.kind == K.ORIGIN_MODULE)
        if not origins:
            o = Origin(K.ORIGIN_MODULE, name.rsplit(".", 1)[-1] if name.startswith("self.") else name, node, certain=True,
                       framework=v.get(F.FW) or fw)
            o.weak = role == Role.CALLED
            origins = frozenset({o})
        fw = v.get(F.FW) or fw
        return Val(origins, kind=K.MODULE, attrs={F.FW: fw, F.EVIDENCED: role})

    def self_attribute_by_evidence(self, info: ClassInfo, attr: str, node) -> Val | None:
        """`self.attr` that no code of the class visibly sets (a base class or a setup method
        the analysis does not see does): what the class's uses of it prove, one value per
        attribute so that every read is the same module or optimizer."""
        cache = info.evidence_values
        if attr in cache:
            return cache[attr]
        role = self.class_uses(info).role("self." + attr)
        v: Val | None = None
        if role in (Role.MODULE, Role.CALLED):
            v = self.evidenced_module("self." + attr, Val(), node, role, self.class_uses(info).framework("self." + attr)).with_fact(F.PERSISTENT, True)
        elif role == Role.OPTIMIZER:
            v = evidenced_optimizer().with_fact(F.PERSISTENT, True)
        elif role == Role.SCALER:
            v = evidenced_scaler(node).with_fact(F.PERSISTENT, True)
        cache[attr] = v
        return v
