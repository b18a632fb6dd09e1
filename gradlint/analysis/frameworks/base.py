"""What a framework overlay is: one library's semantics, declared in one place.

An overlay is a `Framework` subclass in its own module. It declares
- `name`, `tag` (the `fw` fact of the values it makes: torch | tf | jax | np, None for Python),
  `heads` (the first components of its qualified names: `torch`, `torchvision`) and `aliases`
  (prefixes that name the same API: `tensorflow.keras` -> `keras`);
- `evidence`: what in a file's text proves that something is differentiated (read by the cheap
  first pass, prefilter.py);
- `members`: exact qualified names -> a call handler (pytype's member_map), and `call_other`
  for the rest of its names (prefix rules, generic functions);
- method tables by receiver: `module_methods`, `optimizer_methods`, `receiver_methods` (values
  only this library makes: a GradientTape, a GradScaler), `tensor_method` (its part of the
  array-method ladder), `callable_kinds` (calling a value it made: a jax-transformed function);
- `decorators`, `class_roles` (which library classes make a subclass a module, an optimizer,
  an autograd.Function), `annotations` (parameter annotations that say what an argument is).

The registry (`frameworks/__init__.py`) merges these, and the interpreter, `knowledge`
lookups and the prefilter read only the registry. A handler receives the interpreter (`it`,
see `Interp` below for what it may call) and returns a `Val`, or None to let the generic rule
decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Mapping, Protocol

from .. import facts as F
from .. import kinds as K
from ..kinds import Kind
from ..values import EMPTY, Cut, Val, combine, cut

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent, DiffEvent, DiffKind
    from ..interp.state import FunctionInfo, State


class Interp(Protocol):
    """What an overlay may ask of the interpreter (interp/driver.py implements it)."""

    default_dtype: str
    jax_x64: bool
    classes: list  # the file's classes (ClassInfo)
    _jax_analysed: set
    body: list  # the module's statements

    def eval(self, node: Any, st: "State") -> Val: ...
    def qual_of(self, node: Any, st: "State") -> str | None: ...
    def lookup(self, name: str, st: "State") -> Val: ...
    def iter_val(self, v: Val) -> Val: ...
    def attribute_of(self, base: Val, attr: str, node: Any, st: "State") -> Val: ...
    def emit(self, ev: Any) -> None: ...
    def op_result(self, node: Any, st: "State", vals: Iterable[Val], kind: Kind | None = None, attrs: dict | None = None,
                  saves: bool = True) -> Val: ...
    def inplace_result(self, node: Any, st: "State", target: Val, vals: list[Val]) -> Val: ...
    def saved_by(self, st: "State", name: str | None, value: Val) -> Any: ...
    def make_requires_grad(self, base: Val, node: Any, name: str | None) -> Val: ...
    def opt_event(self, node: Any, st: "State", kind: str, target: Val) -> None: ...
    def differentiate(self, ev: "CallEvent | None", st: "State", kind: "DiffKind", target: Val, target_node: Any,
                      **kw: Any) -> "DiffEvent": ...
    def call_function(self, fn: "FunctionInfo", ev: "CallEvent", st: "State", args: list[Val], kwargs: dict[str, Val],
                      self_val: Val | None, traced: Any = None, params_override: dict | None = None) -> Val: ...
    def call_module(self, mod: Val, ev: "CallEvent", st: "State") -> Val: ...
    def new_module(self, node: Any, qual: str, fw: str, attrs: dict | None = None) -> Val: ...
    def _instance_val(self, info: Any, node: Any, label: str | None) -> Val: ...


# handler signatures
CallHandler = Callable[[Interp, "CallEvent", "State", list], "Val | None"]  # (it, ev, st, every argument value)
MethodHandler = Callable[[Interp, "CallEvent", "State", Val, "str | None"], Val]  # (it, ev, st, receiver, receiver's name)
KindCall = Callable[[Interp, Val, "CallEvent", "State"], Val]  # (it, the called value, ev, st)
DecoratorHandler = Callable[[Interp, "FunctionInfo", str, Any, Any, "State"], None]  # (it, fn, its qualified name, decorator node, call args, st)


@dataclass(frozen=True)
class Evidence:
    """Text that proves a file differentiates something (see prefilter.has_diff_evidence).

    `words`: cheap substrings, one of which any evidence contains (a quick reject);
    `literals`: substrings that are evidence; `bare_calls`: names that are evidence when called
    bare (`grad(` from `from jax import grad`, not `no_grad(`); `patterns`: (needle, regex)
    pairs, the regex tried only when the needle is in the text."""

    words: tuple[str, ...] = ()
    literals: tuple[str, ...] = ()
    bare_calls: tuple[str, ...] = ()
    patterns: tuple[tuple[str, re.Pattern], ...] = ()


@dataclass(frozen=True)
class OptimizerMethod:
    """What `optimizer.<name>(...)` does: the bookkeeping event it records (step | zero_grad)."""

    event: str
    needs_args: bool = False  # only with arguments (`opt.minimize(loss, vars)`)
    runs_closure: bool = False  # `opt.step(closure)` calls the closure (LBFGS)
    # `opt.minimize(loss, var_list)` (TensorFlow 1): it differentiates its first argument, a
    # tensor, with respect to `var_list` (its second), then steps
    differentiates: bool = False


class Framework:
    """One library. Subclasses set the class attributes and override what they need."""

    name: ClassVar[str] = ""
    tag: ClassVar[str | None] = None
    heads: ClassVar[tuple[str, ...]] = ()
    aliases: ClassVar[Mapping[str, str]] = {}
    evidence: ClassVar[Evidence] = Evidence()
    members: ClassVar[Mapping[str, CallHandler]] = {}
    decorators: ClassVar[Mapping[str, DecoratorHandler]] = {}
    module_methods: ClassVar[Mapping[str, MethodHandler]] = {}
    # methods that make a value computed from a module (a wrapper) behave as the module
    module_like_methods: ClassVar[frozenset] = frozenset()
    # methods whose call proves that an unknown parameter is a module
    module_evidence: ClassVar[frozenset] = frozenset()
    optimizer_methods: ClassVar[Mapping[str, OptimizerMethod]] = {}
    receiver_methods: ClassVar[Mapping[Kind, MethodHandler]] = {}
    callable_kinds: ClassVar[Mapping[Kind, KindCall]] = {}
    # methods on any object that clip gradients / call backward on their argument
    clip_methods: ClassVar[frozenset] = frozenset()
    backward_methods: ClassVar[frozenset] = frozenset()
    # methods that a call of an instance runs, by the library base a class derives from (a torch
    # Transform's `_call`): the class gets the role "call:<method>" (class_roles)
    instance_call_methods: ClassVar[frozenset] = frozenset()
    # parameter annotations (qualified) -> "module" | "optimizer" | "tensor"
    annotations: ClassVar[Mapping[str, str]] = {}

    def call(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        """A call of one of this library's names (`q` is canonical)."""
        handler = self.members.get(q)
        if handler is not None:
            out = handler(it, ev, st, allv)
            if out is not None:
                return out
        return self.call_other(it, q, ev, st, allv)

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        """Names that are not members (prefix rules, the library's generic functions)."""
        return None

    def class_roles(self, qual: str) -> frozenset[str]:
        """What subclassing `qual` makes a class: module | lightning | keras |
        autograd_function | optimizer | test."""
        return frozenset()

    def tensor_method(self, it: Interp, ev: "CallEvent", st: "State", recv: Val, m: str, recv_name: str | None, recv_node) -> Val | None:
        """`recv.m(...)` on an array (or an unknown receiver): this library's part of the ladder
        (see registry.TENSOR_METHOD_CHAIN for the order), None: not one of its methods."""
        return None

    def __repr__(self) -> str:  # pragma: no cover
        return f"<framework {self.name}>"


# ------------------------------------------------------------------------ effects
# Small handlers for the common shapes of library knowledge, so that tables read as data.
def returns_nothing(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """A call that returns nothing the analysis follows (`torch.manual_seed(0)`)."""
    return EMPTY


def returns_first_arg(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """A wrapper that returns what it is given (`torch.compile(model)`), or nothing known."""
    return ev.args[0] if ev.args else EMPTY


def returns_library_object(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    """A library object that is neither a module, a tensor nor an optimizer
    (`Accelerator()`, `Fabric()`): its own methods are known (`accelerator.backward(loss)`), and
    it carries no history of its arguments — an unknown call's result would, and its
    `.backward(loss)` would then read as a tensor's."""
    return Val(kind=K.INSTANCE, attrs={F.FW: "torch"})


def method_returns_receiver(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name: str | None) -> Val:
    """`model.train()`, `model.to(device)`: the same object."""
    return recv


def method_returns_nothing(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name: str | None) -> Val:
    return EMPTY


def drawn(values: Iterable[Val], node: Any, attrs: dict) -> Val:
    """Indices drawn from a categorical distribution the values parameterise
    (`torch.multinomial`, `tf.random.categorical`, `jax.random.categorical`): a tensor without
    history (autograd has no derivative for a draw), cut from its inputs as a "sample"."""
    return cut(combine(values), Cut("sample", node, hard=False), kind=K.TENSOR, attrs=attrs)


def table(names: Iterable[str], handler: Any) -> dict[str, Any]:
    """The same handler for several names."""
    return {n: handler for n in names}
