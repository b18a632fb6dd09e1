"""What the interpreter keeps while it runs: the state of one path through the code, the
functions and classes of the module, GradientTapes, and the cache of recorded runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

import libcst as cst

from .. import facts as F
from ..events import Ctx
from ..names import dotted_name, in_place_name
from ..values import Val, join


class AnalysisBudgetExceeded(Exception):
    pass


class RunCache:
    """Recorded events of functions interpreted on their own, kept between checks of one
    document. A run is replayed instead of re-interpreted when the function's node and every
    function or class it read are unchanged (parsed units are cached by text, so an unchanged
    function keeps its node object), and so are the module-level statements and what the
    module-level run read (the globals every run sees)."""

    def __init__(self) -> None:
        self.entries: dict[int, tuple] = {}
        self.hits = 0
        self.misses = 0


class RuleStates(Protocol):
    """The engine's view of what the rules have accumulated, for RunCache: `snapshot()` before
    a run, `reacting(snapshot)` after it: the codes of the rules the run's events changed."""

    def snapshot(self) -> Any: ...

    def reacting(self, before: Any) -> frozenset[str]: ...


# what makes or registers a parameter or submodule, in a class's code
_CREATES_PARAMETER = re.compile(r"Parameter|register_(?!buffer)\w+|add_module|setattr|load_state_dict|\bnn\.[A-Z]|\bself\.\w+\s*=\s*[A-Z]\w*\(")
_TORCH_MODULE = ("torch.nn.Module", "torch.nn.modules.module.Module")
_PLAIN_KINDS = frozenset({"number", "str", "bool", "none"})


class ClassInfo:
    __slots__ = ("node", "name", "bases", "methods", "is_module", "is_lightning", "is_autograd_fn", "is_optimizer", "is_keras", "is_test", "facts",
                 "uses", "evidence_values", "framework", "saves", "parents", "elided", "call_method", "_creates_none")

    def __init__(self, node: cst.ClassDef, name: str) -> None:
        self.node = node
        self.name = name
        self.bases: list[str] = []
        self.parents: list[ClassInfo] = []  # the bases defined in the file, in order
        self.methods: dict[str, FunctionInfo] = {}
        self.elided: frozenset[str] = frozenset()  # methods the first pass left out (prefilter.Unit.elided)
        self.call_method: str | None = None  # what a call of an instance runs, by a library base ("_call" of a Transform)
        self.is_module = False
        self.is_lightning = False
        self.is_autograd_fn = False
        self.is_optimizer = False
        self.is_keras = False
        self.framework = "torch"  # whose module it is: "jax" for flax/haiku/equinox, "tf" for Keras
        self.is_test = False
        # what __init__ stores on self (attribute name -> value), computed on first use
        self.facts: dict | None = None
        self.uses: Any = None  # evidence.Uses of `self.x` across the methods (interp/evidence.py)
        self.evidence_values: dict = {}  # self.x proven by use, one value per attribute
        self.saves: Any = None  # a custom autograd.Function's FunctionSaves (frameworks/torch.py), on first use
        self._creates_none: bool | None = None  # owns_no_parameters' reading of the code, on first use

    def find_method(self, name: str) -> "FunctionInfo | None":
        return self.methods.get(name)

    def owns_no_parameters(self, fields: dict | None) -> bool:
        """An nn.Module subclass of the file whose instance provably holds no parameter (a Dice
        loss, a contrastive loss with a temperature): torch.nn.Module its only base, nothing in
        its code that creates or registers one (a buffer is no parameter), and every field
        `__init__` stores a number, a string, a bool, None or a tensor that requires no grad (a
        symbolic argument may be a tensor or a module: not proven)."""
        if not self.is_torch_module or self.parents or self.elided or not all(b in _TORCH_MODULE for b in self.bases):
            return False
        if self._creates_none is None:
            self._creates_none = _CREATES_PARAMETER.search(cst.Module([]).code_for_node(self.node.body)) is None
        return self._creates_none and all(v is not None and (v.kind in _PLAIN_KINDS or v.kind == "tensor" and not v.live)
                                          for v in (fields or {}).values())

    @property
    def is_torch_module(self) -> bool:
        """An nn.Module subclass: not a Keras layer or a flax/haiku/equinox module (which track
        what their list attributes hold, and train elsewhere)."""
        return self.is_module and self.framework == "torch" and not self.is_keras


class SuperView:
    """`super()` in a method of `cls`: the same object, its methods looked up in the bases of
    `cls` that the file defines (`super().forward(x)`). `__init__` is not: the bases' `__init__`
    already ran when the instance was made (calls.py). Anything else is the class's own."""

    __slots__ = ("cls",)

    def __init__(self, cls: ClassInfo) -> None:
        self.cls = cls

    def find_method(self, name: str) -> "FunctionInfo | None":
        if name == "__init__":
            return None
        return next((m for p in self.cls.parents if (m := p.find_method(name)) is not None), None)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.cls, attr)

    def __setattr__(self, attr: str, value: Any) -> None:  # (what is learnt of the class, on the class)
        if attr == "cls":
            object.__setattr__(self, attr, value)
        else:
            setattr(self.cls, attr, value)


@dataclass
class JitSpec:
    """A function decorated with jax.jit/grad (or functools.partial of them)."""

    kind: str  # "grad" | "jit"
    static: set = field(default_factory=set)  # names and positions of static arguments


class FunctionInfo:
    __slots__ = (
        "node", "name", "qualname", "cls", "params", "defaults", "closure", "decorators",
        "grad", "grad_node", "jit", "is_static", "is_classmethod", "is_lambda", "standalone_done", "inlined", "truncated", "uses",
        "wrapped",
    )

    def __init__(self, node, name: str, qualname: str, cls: ClassInfo | None, closure: tuple) -> None:
        self.node = node
        self.name = name
        self.qualname = qualname
        self.cls = cls
        self.params: list[tuple[str, str, Any]] = []  # (name, kind, annotation node)
        self.defaults: dict[str, Val] = {}
        self.closure = closure  # tuple of env dicts, innermost first
        self.decorators: list[str] = []
        self.grad: str | None = None  # grad mode forced by a decorator
        self.grad_node = None
        self.jit: JitSpec | None = None  # when decorated with jax.jit/grad
        self.is_static = False
        self.is_classmethod = False
        self.is_lambda = False
        self.standalone_done = False
        self.inlined = False  # interpreted at least once where it is called
        # a call inside it was cut at the inlining depth where it was inlined: it still runs on
        # its own, where that call is within reach (main -> train -> step -> compute_loss)
        self.truncated = False
        self.uses: Any = None  # evidence.Uses of its body, computed on first use (interp/evidence.py)
        # decorated with a value that is one of several callables (`@value_and_grad` bound to
        # jax.value_and_grad on one path, to a local wrapper on another): what a call returns
        # has the history of the body's result, but its structure is not known
        self.wrapped = False

    def __repr__(self) -> str:  # pragma: no cover
        return f"<fn {self.qualname}>"


class TapeInfo:
    __slots__ = ("node", "persistent", "watch_accessed", "watched", "name", "active", "with_node")

    def __init__(self, node, persistent: bool | None, watch_accessed: bool | None) -> None:
        self.node = node
        self.persistent = persistent
        self.watch_accessed = watch_accessed
        self.watched: set = set()
        self.name: str | None = None
        self.active = False
        self.with_node = None


class Activation:
    """One interpretation of a function body (or of the module body)."""

    __slots__ = ("fn", "returns", "closure", "depth", "loop_exits", "yields")

    def __init__(self, fn: FunctionInfo | None, closure: tuple, depth: int) -> None:
        self.fn = fn
        self.returns: list[Val] = []
        self.closure = closure
        self.depth = depth
        self.loop_exits: list[list[State]] = []
        self.yields: list[Val] = []


class State:
    """One path through the code: the bindings, and what happened on the path so far."""

    __slots__ = ("env", "freed", "used", "gflag", "ctx", "act", "dead", "saved_by", "stale", "alias_of")

    def __init__(self, env: dict, freed: frozenset, ctx: Ctx, act: Activation, used: frozenset = frozenset(), gflag=None,
                 saved_by: dict | None = None) -> None:
        self.env = env
        self.freed = freed  # graph nodes whose buffers a backward pass released
        self.used = used  # consumed one-shot resources (non-persistent tapes), held by object
        self.gflag = gflag  # last gradient bookkeeping event on this path (see OptEvent.prev)
        self.ctx = ctx
        self.act = act
        self.dead = False
        # name (`x`, `self.h`) -> the operation that saved the tensor bound to it for its
        # backward on this path (None: several did, on paths that met), so that an in-place
        # change of it afterwards can name what it breaks
        self.saved_by: dict[str, cst.CSTNode | None] = saved_by if saved_by is not None else {}
        # graph nodes that saved parameters an optimizer step has since changed in place, on
        # every path that met here (a backward through one raises)
        self.stale: frozenset = frozenset()
        # name -> the name it was bound from (`x = token`): both name one tensor, so what an
        # operation saved through either is modified by an in-place change through the other
        self.alias_of: dict[str, str] = {}

    def fork(self) -> "State":
        s = State(dict(self.env), self.freed, self.ctx, self.act, self.used, self.gflag, dict(self.saved_by))
        s.stale = self.stale
        if self.alias_of:
            s.alias_of = dict(self.alias_of)
        return s

    def mark_saved(self, name: str, node: cst.CSTNode, value: "Val | None" = None) -> None:
        """An operation (`node`) kept the tensor bound to `name` for its backward: on this path
        (`saved_by`), and on the value itself, which may leave the scope (returned, carried; an
        attribute's, `value`, read from its object, stays with the object's field)."""
        self.saved_by[name] = node
        v = self.env.get(name, value if "." in name else None)
        if v is not None and v.live:
            self.env[name] = v.with_fact(F.SAVED_INPUT, node)

    def note_receiver(self, node, method: str | None, notes) -> None:
        """What rules noted of the receiver on an in-place method's call (`x.nan_to_num_(0.0)`
        as a statement; Note.of_receiver) holds for the named receiver it changed."""
        if method is None or not in_place_name(method) or not isinstance(node.func, cst.Attribute):
            return
        name = dotted_name(node.func.value)
        v = self.env.get(name) if name is not None else None
        mine = [n for n in notes if n.of_receiver]
        if v is not None and mine:
            self.env[name] = v.add_notes(mine)

    def forget_saved(self, name: str) -> None:
        """`name` was rebound: what an operation saved of its old value is not its value."""
        if self.saved_by:
            prefix = name + "."
            for k in [k for k in self.saved_by if k == name or k.startswith(prefix)]:
                del self.saved_by[k]
        if self.alias_of:
            self.alias_of.pop(name, None)
            for k in [k for k, v in self.alias_of.items() if v == name]:
                del self.alias_of[k]  # its alias now names the old tensor alone

    def alias_root(self, name: str) -> str:
        return self.alias_of.get(name, name)

    def saved_through_alias(self, name: str):
        """What an operation saved of the tensor `name` shares with another name (`x = token`),
        or absent (`...`)."""
        if not self.alias_of:
            return ...
        root = self.alias_of.get(name, name)
        for k, node in self.saved_by.items():
            if k != name and self.alias_of.get(k, k) == root:
                return node
        return ...

    def absorb(self, states: list["State"]) -> None:
        """Become the join of `states` (keeping this env dict's identity)."""
        alive = [s for s in states if not s.dead]
        if not alive:
            self.dead = True
            if states:
                self.freed = frozenset().union(*(s.freed for s in states))
                self.used = frozenset().union(*(s.used for s in states))
            return
        self.dead = False
        if len(alive) == 1:
            env = alive[0].env
            if env is not self.env:
                self.env.clear()
                self.env.update(env)
            if alive[0].saved_by is not self.saved_by:
                self.saved_by = dict(alive[0].saved_by)
            if alive[0].alias_of is not self.alias_of:
                self.alias_of = dict(alive[0].alias_of)
            self.freed = alive[0].freed
            self.used = alive[0].used
            self.gflag = alive[0].gflag
            self.stale = alive[0].stale
            return
        keys: dict[str, None] = {}
        for s in alive:
            keys.update(dict.fromkeys(s.env))
        merged = {}
        for k in keys:
            vals = [s.env[k] for s in alive if k in s.env]
            first = vals[0]
            if all(v is first for v in vals):
                merged[k] = first
            else:
                merged[k] = join(vals)
        self.env.clear()
        self.env.update(merged)
        self.saved_by = _join_saved(alive)
        first = alive[0].alias_of
        self.alias_of = {k: v for k, v in first.items() if all(s.alias_of.get(k) == v for s in alive[1:])} if first else {}
        freed = alive[0].freed
        used = alive[0].used
        for s in alive[1:]:
            if s.freed is not freed:
                freed = freed | s.freed
            if s.used is not used:
                used = used | s.used
        self.freed = freed
        self.used = used
        g = alive[0].gflag
        self.gflag = g if all(s.gflag == g for s in alive) else None
        stale = alive[0].stale
        for s in alive[1:]:
            if s.stale is not stale:
                stale = stale & s.stale  # stepped on every path, not on some
        self.stale = stale


def _join_saved(alive: list[State]) -> dict:
    """A name saved on any path stays saved; by the same operation on every path that saved
    it, or by an unknown one (None)."""
    out: dict = {}
    for s in alive:
        for k, node in s.saved_by.items():
            if k not in out:
                out[k] = node
            elif out[k] is not node:
                out[k] = None
    return out


def self_fields(env: dict, self_name: str) -> dict[str, Val]:
    """`self.x` bindings of a method's environment, as {"x": value} (not `self.x.y`)."""
    prefix = self_name + "."
    return {k[len(prefix):]: v for k, v in env.items() if k.startswith(prefix) and "." not in k[len(prefix):]}
