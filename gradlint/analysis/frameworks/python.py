"""Python itself: builtins (`float()` leaves the framework, `sum()` of tensors is a tensor),
`math`, `functools.partial`, `copy`, `itertools.chain`, `random`, and the string methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K

from ..names import NOCONST
from ..queries import fw_of
from ..values import EMPTY, Cut, Val, combine, cut, join
from .base import Framework, Interp
from ..interp.state import SuperView

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from ..interp.state import FunctionInfo, State

# Conversions to Python numbers (hard cuts): qualified name -> cut kind.
BUILTIN_CASTS = {"builtins.float": "float", "builtins.int": "int", "builtins.bool": "bool", "builtins.complex": "float"}
STR_METHODS = frozenset({"format", "join", "split", "strip", "startswith", "endswith", "lower", "upper", "replace"})


def _staticmethod(it: Interp, fn: "FunctionInfo", qual: str, dec, call_args, st: "State") -> None:
    fn.is_static = True


def _classmethod(it: Interp, fn: "FunctionInfo", qual: str, dec, call_args, st: "State") -> None:
    fn.is_classmethod = True


# questions about a value's Python type, not its contents
_TYPE_PREDICATES = frozenset({"dataclasses.is_dataclass", "inspect.isclass", "inspect.isfunction", "inspect.ismethod",
                              "inspect.isroutine", "inspect.ismodule", "inspect.isgenerator"})


def _random(it: Interp, q: str, ev: "CallEvent") -> Val | None:
    """The stdlib `random`: a sample of a container whose elements the analysis knows holds them
    (a minibatch sampled from a replay buffer of transitions keeps their fields apart); the rest
    draws plain numbers. A sample of an unknown container stays unknown."""
    args = ev.args
    if q in ("random.sample", "random.choices", "random.choice"):
        if not args or args[0].get(F.ELEM) is None and args[0].get(F.ITEMS) is None:
            return None
        elem = it.iter_val(args[0])
        return elem if q == "random.choice" else Val(kind=K.LIST, attrs={F.ELEM: elem})
    if q in ("random.shuffle", "random.seed"):
        return Val(kind=K.NONE)
    return Val(kind=K.NUMBER)


# the qualified name of a class made by collections.namedtuple (its fields are ITEM_NAMES)
_NAMEDTUPLE_CLASS = "collections.namedtuple()"


def _namedtuple_class(args: list[Val]) -> Val | None:
    """`Transition = namedtuple("Transition", "state action reward")` (or a list of names): a
    class whose instances keep their fields apart, by position and by name."""
    if len(args) < 2:
        return None
    spec = args[1]
    c = spec.get(F.CONST, NOCONST)
    if isinstance(c, str):
        fields = tuple(c.replace(",", " ").split())
    else:
        items = spec.get(F.ITEMS)
        if not items:
            return None
        fields = tuple(i.get(F.CONST, NOCONST) for i in items)
        if not all(isinstance(f, str) for f in fields):
            return None
    if not fields or not all(f.isidentifier() for f in fields):
        return None
    return Val(kind=K.REF, attrs={F.QUAL: _NAMEDTUPLE_CLASS, F.ITEM_NAMES: fields})


def _namedtuple_instance(ev: "CallEvent") -> Val | None:
    """`Transition(s, a, r)`: a tuple of exactly what it is given (`t.state` is `s`), when every
    field is given by position or keyword (defaults and `*args` stay unknown)."""
    fields = ev.func.get(F.ITEM_NAMES) if ev.func is not None else None
    if not fields or any(a.get(F.STARRED) for a in ev.args) or len(ev.args) > len(fields):
        return None
    given = dict(zip(fields, ev.args))
    for k, v in ev.kwargs.items():
        if k not in fields or k in given:
            return None
        given[k] = v
    if len(given) != len(fields):
        return None
    items = tuple(given[f] for f in fields)
    return combine(list(items), kind=K.TUPLE, attrs={F.ITEMS: items, F.ITEM_NAMES: fields})


def _made_type(namespace: Val) -> Val | None:
    """`type("ModelPrediction", (), {"pred_x_start": x})`: a class whose attributes are what the
    namespace dict gives (`.pred_x_start` is `x`), when its keys are known strings."""
    keys = namespace.get(F.KEYS)
    if not isinstance(keys, dict) or not keys or namespace.get(F.OTHER_KEYS) is not None:
        return None
    fields = tuple(keys)
    if not all(isinstance(f, str) and f.isidentifier() for f in fields):
        return None
    items = tuple(keys[f] for f in fields)
    return combine(list(items), kind=K.CONTAINER, attrs={F.ITEMS: items, F.ITEM_NAMES: fields})


class Python(Framework):
    name = "python"
    tag = None  # values of Python itself carry no framework
    heads = ("builtins", "math", "functools", "copy", "itertools", "unittest", "dataclasses", "inspect", "random", "collections")
    decorators = {
        "builtins.staticmethod": _staticmethod, "staticmethod": _staticmethod,
        "builtins.classmethod": _classmethod, "classmethod": _classmethod,
    }

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        head = q.split(".", 1)[0]
        if head == "builtins":
            return call_builtin(it, q[9:], ev, st, allv)
        if head == "math":
            return cut(combine(allv), Cut("math_call", ev.node, hard=True), kind=K.NUMBER)
        args = ev.args
        if q == "functools.partial" and args:
            f = args[0]
            if f.kind in (K.FUNCTION, K.JAXFN, K.REF, K.CLASS):
                return f.with_facts({F.PARTIAL_ARGS: tuple(args[1:]), F.PARTIAL_KEYWORDS: frozenset(ev.kwargs)})
            return f
        if head == "random":
            return _random(it, q, ev)
        if q == "copy.deepcopy" and args and args[0].kind == K.MODULE and any(o.certain for o in args[0].live):
            return _module_copy(it, ev, args[0])
        if q in ("copy.deepcopy", "copy.copy") and args:
            return args[0]
        if q in _TYPE_PREDICATES:
            # what the Python type of a value is: a plain bool under a JAX trace too (big_vision's
            # `if dataclasses.is_dataclass(tree):` in a jitted tree walk)
            return Val(kind=K.BOOL)
        if q == "collections.namedtuple":
            return _namedtuple_class(args)
        if q == _NAMEDTUPLE_CLASS:
            return _namedtuple_instance(ev)
        if q == "itertools.chain" and not ev.kwargs:
            # `Adam(itertools.chain(enc.parameters(), dec.parameters()))`: the items of all its
            # arguments, so an optimizer built from it updates the parameters of each
            elems = [it.iter_val(a) for a in args]
            return combine(args, kind=K.LIST, attrs={F.ELEM: join(elems)} if elems else None)
        return None

    def class_roles(self, qual: str) -> frozenset[str]:
        return frozenset({"test"}) if qual == "unittest.TestCase" else frozenset()

    def tensor_method(self, it: Interp, ev: "CallEvent", st: "State", recv: Val, m: str, recv_name, recv_node) -> Val | None:
        if m in STR_METHODS:
            return Val(kind=K.STR)
        return None


def call_builtin(it: Interp, name: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val:
    node = ev.node
    args = ev.args
    if name in ("float", "int", "bool", "complex"):
        if args:
            return cut(args[0], Cut(name, node, hard=True), kind=K.NUMBER)
        return Val(kind=K.NUMBER)
    if name == "str" and args and args[0].get(F.DEVICE) is not None:
        return Val(kind=K.STR, attrs={F.DEVICE: args[0].get(F.DEVICE)})  # `str(torch.device("cuda"))`
    if name == "isinstance" and len(args) == 2 and args[1].get(F.QUAL) == "torch.Tensor":
        # `if isinstance(v, torch.Tensor): v = v.item()` (a logger's update): decided where the
        # value is known, so the other branch is not taken
        v = args[0]
        # a value with a recorded torch graph is a tensor (what the rules take it for)
        if v.kind in (K.TENSOR, None) and v.get(F.FW) in ("torch", None) and v.graphs and any(
                o.certain and o.framework == "torch" for o in v.live):
            return Val(kind=K.BOOL, attrs={F.CONST: True})
        if v.kind in (K.NUMBER, K.STR, K.NONE) or v.get(F.CONST, None) is not None and not isinstance(v.get(F.CONST), bool):
            return Val(kind=K.BOOL, attrs={F.CONST: False})
    if name == "type" and len(args) == 3:
        made = _made_type(args[2])
        if made is not None:
            return made
    if name in ("len", "isinstance", "hasattr", "callable", "id", "type", "hash", "repr", "str", "format", "print"):
        if name in ("len", "id", "hash"):
            return Val(kind=K.NUMBER, attrs={F.DTYPE: "int"})
        return Val(kind=K.STR if name in ("str", "repr", "format") else K.NUMBER)
    if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset", "iter"):
        if args:
            a = args[0]
            elem = it.iter_val(a)
            items = a.get(F.ITEMS) if name in ("list", "tuple") else None
            attrs: dict = {F.ELEM: elem}
            if items is not None:
                attrs[F.ITEMS] = items
            if name == "iter":
                attrs[F.ONE_SHOT] = node
            return Val(a.live, a.cuts, a.notes, a.graphs, K.LIST if name != "tuple" else K.TUPLE, attrs)
        return Val(kind=K.LIST)
    if name == "dict":
        return combine(allv, kind=K.DICT)
    if name == "zip" and len(args) == 1 and args[0].get(F.STARRED) and isinstance(args[0].get(F.ITEMS), tuple):
        # `states, actions, rewards = zip(*batch)`: the columns of rows whose fields are known
        cols = tuple(combine([item], kind=K.TUPLE, attrs={F.ELEM: item}) for item in args[0].get(F.ITEMS))
        return combine(list(cols), kind=K.LIST, attrs={F.ITEMS: cols})
    if name == "zip":
        elems = tuple(it.iter_val(a) for a in args)
        return combine(args, kind=K.LIST, attrs={F.ELEM: combine(elems, kind=K.TUPLE, attrs={F.ITEMS: elems})})
    if name == "enumerate" and args:
        e = it.iter_val(args[0])
        item = combine([e], kind=K.TUPLE, attrs={F.ITEMS: (Val(kind=K.NUMBER), e)})
        return combine([args[0]], kind=K.LIST, attrs={F.ELEM: item})
    if name == "range":
        return Val(kind=K.LIST, attrs={F.ELEM: Val(kind=K.NUMBER, attrs={F.DTYPE: "int"})})
    if name == "next" and args:
        return it.iter_val(args[0])
    if name in ("sum", "max", "min", "abs", "round", "pow", "divmod", "map", "filter", "any", "all"):
        if name in ("any", "all"):
            return Val(kind=K.BOOL)
        if name == "round" and args and args[0].live:
            return cut(args[0], Cut("round", node, hard=False), kind=args[0].kind)
        vals = [it.iter_val(args[0])] if name == "sum" and args else allv
        if name in ("max", "min") and len(args) == 1:
            vals = [it.iter_val(args[0])]
        if name == "map" and len(args) >= 2 and not ev.kwargs:
            f = args[0]
            fn = f.get(F.FN)
            if fn is not None and f.kind in (K.FUNCTION, K.BOUND):
                # `map(lambda x: x.detach(), entries)` (ShangtongZhang/DeepRL PPO): each element
                # is what the function returns for an element, not the union of function and
                # iterable (which would keep the history the function cuts)
                pre = list(f.get(F.PARTIAL_ARGS) or ())
                elt = it.call_function(fn, ev, st, pre + [it.iter_val(a) for a in args[1:]], {},
                                       self_val=f.get(F.SELF) if f.kind == K.BOUND else None)
                return Val(elt.live, elt.cuts, elt.notes, elt.graphs, K.LIST, {F.ELEM: elt, F.ONE_SHOT: node})
        if name == "filter" and len(args) == 2:
            return combine([args[1]], kind=K.LIST, attrs={F.ELEM: it.iter_val(args[1]), F.ONE_SHOT: node})
        if name in ("map", "filter"):
            return combine(allv, kind=K.LIST, attrs={F.ONE_SHOT: node})
        # sum() only adds (AddBackward saves no tensors: walking it twice is legal, as
        # `sum(p.sum() for p in params)` backpropagated after autograd.grad over it)
        out = it.op_result(node, st, vals + ([args[1]] if name == "sum" and len(args) > 1 else []), saves=name != "sum")
        kinds = {v.kind for v in vals}
        if K.TENSOR in kinds or out.live:
            facts: dict = {F.FW: fw_of(vals)} if fw_of(vals) else {}
            if name == "sum" and all(v.get(F.SCALAR) for v in vals):
                facts[F.SCALAR] = True
            return out.with_(kind=K.TENSOR, attrs=facts or None)
        return out.with_(kind=K.NUMBER) if kinds <= {K.NUMBER, None} and not out.live else out
    if name == "getattr" and len(args) >= 2:
        c = args[1].get(F.CONST, NOCONST)
        if isinstance(c, str):
            return it.attribute_of(args[0], c, node, st)
        return combine([args[0]])
    if name == "super":
        # `super().forward(x)` in a method: the object itself, whose methods are looked up in
        # the bases (a library base's: the module's own call, as `self(x)` in a library layer).
        # Not in `__init__`, where it is the bases' constructor: that ran when the instance was made
        fn = st.act.fn
        me = st.env.get(fn.params[0][0]) if fn is not None and fn.cls is not None and fn.params and not fn.is_static else None
        if me is None or me.kind not in (K.MODULE, K.INSTANCE) or me.get(F.CLS) is None or fn.name == "__init__":
            return EMPTY
        return me.with_fact(F.CLS, SuperView(fn.cls))
    if name == "open":
        return Val(kind=K.INSTANCE)
    return it.op_result(node, st, allv)


PYTHON = Python()


def _module_copy(it: Interp, ev: "CallEvent", original: Val) -> Val:
    """`copy.deepcopy(model)`: a module of its own (an EMA or target network, a teacher), with
    parameters of its own: freezing it (`.requires_grad_(False)`) or training it does not touch
    the original, and an optimizer over the original does not update it."""
    info = original.get(F.CLS)
    if info is not None and getattr(info, "is_module", False):
        return it._instance_val(info, ev.node, None)
    keep = {k: v for k, v in (original.attrs or {}).items() if k not in (F.CREATED, F.FRESH_ORIGIN, F.FIELDS, F.MEMBER_OF)}
    return it.new_module(ev.node, original.get(F.QUAL_NEW) or "copy.deepcopy", original.get(F.FW) or "torch", attrs=keep)
