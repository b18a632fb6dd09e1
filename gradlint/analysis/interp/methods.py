"""Method calls `recv.m(...)`, dispatched on what the receiver is: a loss (`backward`), an
optimizer, a module, a container, a number, or a tensor. What each library's methods do comes
from the framework overlays (frameworks/); this module only decides whose they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..events import DiffKind, StoreEvent

from ..frameworks.array_methods import ARRAY_METHOD_NAMES
from ..names import NOCONST, dotted_name, in_place_name
from ..queries import dtype_named, is_gradient, numel, truthy
from ..values import EMPTY, Val, combine, join
from .state import ClassInfo, State, SuperView

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from .host import InterpreterHost as _Base
else:
    _Base = object

_CONTAINER_KINDS = (K.CONTAINER, K.LIST, K.DICT, K.GRAD, K.TUPLE, K.PARAMS)
# what a field of an object may hold that runs when called by its field's name (`self.loss_fn(x)`)
_CALLABLE_FIELD_KINDS = frozenset({K.INSTANCE, K.FUNCTION, K.BOUND, K.CLASS})
_PRIMITIVE_KINDS = (K.NUMBER, K.STR, K.BOOL, K.NONE, K.META)
# methods of Python containers (an unknown receiver with one of these is treated as a container)
_CONTAINER_METHODS = frozenset({"append", "extend", "insert", "appendleft", "setdefault", "pop", "popleft", "get", "values", "items", "keys", "clear", "update"})


# methods that return their receiver (a module) or a copy of the same kind (a tensor)
_SAME_OBJECT_METHODS = frozenset({"to", "cuda", "cpu", "train", "eval", "float", "double", "half", "bfloat16", "share_memory", "type", "to_empty"})


def set_training(module: Val, flag: Val, _seen: set | None = None) -> None:
    """`model.eval()` / `model.train(mode)` on a module of the file's classes: its `training`
    (and that of the submodules it holds) is the flag from now on — the object changes, as in
    torch, whoever else holds it. `self.training` in a forward then decides its branch."""
    seen = _seen if _seen is not None else set()
    fields = module.get(F.FIELDS)
    if not isinstance(fields, dict) or id(fields) in seen:
        return
    seen.add(id(fields))
    fields["training"] = flag
    for v in list(fields.values()):
        if v is not None and v.kind == K.MODULE:
            set_training(v, flag, seen)


def _chain_root(node):
    """`mem.mul_(d).add_(x)`: an in-place method returns its receiver, so the second call also
    changes `mem` (an EMA update, a recurrent memory); the name the chain starts from."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and in_place_name(node.func.attr.value):
        node = node.func.value
    return node


class MethodsMixin(_Base):
    def call_method(self, ev: "CallEvent", st: State, star: list[Val]) -> Val | None:
        m = ev.method
        recv = ev.recv
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        kind = recv.kind
        recv_node = node.func.value if isinstance(node.func, cst.Attribute) else None
        recv_name = dotted_name(recv_node)
        if recv_name is None and in_place_name(m):
            recv_name = dotted_name(_chain_root(recv_node))
        if m in frameworks.CLIP_METHODS:
            # accelerator.clip_grad_norm_(params, ...): a norm of the gradients, not a graph value
            self.opt_event(node, st, "clip", args[0] if args else EMPTY)
            return Val(kind=K.TENSOR, attrs={F.FW: "torch"})
        # ---- differentiation
        helper_backward = (m == "backward" and args and kind is None and not recv.get(F.SYM) and not recv.live
                           and not recv.cuts and not recv.graphs and recv.get(F.HISTORY) is None)
        if m == "backward" and not helper_backward and (kind not in (K.OPTIMIZER, K.MODULE, K.INSTANCE, K.SCALER) or recv.get(F.WRAPS)):
            retain = truthy(ev.arg(1, "retain_graph"))
            create = truthy(ev.arg(2, "create_graph"))
            if ev.arg(1, "retain_graph") is None:
                retain = create
            target = recv
            self.differentiate(ev, st, DiffKind.BACKWARD, target, recv_node, retain=retain, create_graph=create)
            return Val(kind=K.NONE)
        own = recv.get(F.CLS)
        if m in frameworks.BACKWARD_METHODS and kind in (None, K.INSTANCE, K.MODULE) and args and not (
                own is not None and own.find_method(m) is not None):  # a class of the file with its own `backward` (FAMO): inline it
            # accelerator.backward(loss) / self.manual_backward(loss) / fabric.backward(loss)
            if recv.get(F.SYM) or kind in (K.INSTANCE, K.MODULE) or recv is EMPTY or (kind is None and not recv.live) or recv_name in ("self",):
                create = truthy(kwargs.get("create_graph"))  # (it retains the graph unless told otherwise, as loss.backward's)
                self.differentiate(ev, st, DiffKind.BACKWARD, args[0], ev.arg_nodes[0], create_graph=create,
                                   retain=truthy(kwargs.get("retain_graph")) if "retain_graph" in kwargs else create)
                return Val(kind=K.NONE)
        if kind == K.INSTANCE and recv.get(F.CLS) is None:
            # a library object's other methods (`accelerator.prepare(...)`, `.unwrap_model(m)`):
            # code the analysis does not see (apply_call's unknown_result: wrappers, opaque)
            return None
        # ---- values a library owns: optimizers, tapes, gradient scalers
        if kind == K.OPTIMIZER:
            spec = frameworks.OPTIMIZER_METHODS.get(m)
            if spec is not None and (args or not spec.needs_args):
                if spec.runs_closure:
                    for a in args:
                        if a.kind == K.FUNCTION:
                            self.call_function(a.attrs[F.FN], ev, st, list(a.get(F.PARTIAL_ARGS) or ()), {}, None)
                loss = ev.arg(0, "loss") if spec.differentiates else None
                if loss is not None and loss.kind == K.FUNCTION and ev.arg(1, "var_list") is not None \
                        and recv.get(F.FW) == "tf":
                    frameworks.tensorflow.minimize_callable(self, ev, st, loss)
                elif loss is not None and (loss.live or loss.cuts) and loss.kind in (K.TENSOR, None):
                    # a tensor (TensorFlow 1; a Keras 3 optimizer takes a callable instead); one
                    # whose every path to a variable is cut (`tf.floor` of the prediction) too:
                    # that is the "No gradients provided for any variable" the rules explain
                    self.differentiate(ev, st, DiffKind.TF_GRAPH, loss, ev.arg_node(0, "loss"),
                                       sources=ev.arg(1, "var_list"), source_node=ev.arg_node(1, "var_list"))
                self.opt_event(node, st, spec.event, recv)
            return EMPTY
        handler = frameworks.RECEIVER_METHODS.get(kind)  # (a dict read: this runs for every method call)
        if handler is not None:
            return handler(self, ev, st, recv, recv_name)
        # ---- modules
        member_of = recv.get(F.MEMBER_OF)
        if member_of is not None:
            return self.module_method(ev, st, member_of, m, recv_name)  # `model.encoder.parameters()`
        if kind in (K.MODULE, K.INSTANCE) and recv.get(F.CLS) is not None:
            info: ClassInfo = recv.attrs[F.CLS]
            meth = info.find_method(m)
            if isinstance(info, SuperView):
                # `super().forward(x)`: only the lookup starts at the bases; the method runs on
                # the object itself (its own overrides, what it returns: `return super().to(d)`)
                info = info.cls
                recv = recv.with_fact(F.CLS, info)
            if meth is not None:
                return self.call_function(meth, ev, st, args, kwargs, self_val=recv)
            entry = frameworks.jax.flax_entry(info, m, kwargs)
            if entry is not None:
                # `model.apply(variables, x)`: the module's __call__(x) (rngs/mutable are flax's)
                call, skip = entry
                own = {k: v for k, v in kwargs.items() if k not in ("rngs", "mutable", "capture_intermediates")}
                out = self.call_function(call, ev, st, args[skip:], own, self_val=recv)
                return out if m == "apply" else Val(kind=K.DICT)  # init returns the variables
            called = ev.func.get(F.CLS)
            if ev.func.kind in _CALLABLE_FIELD_KINDS and not (called is not None and getattr(called, "is_autograd_fn", False)):
                # `self.criterion(x)` with `self.criterion = FocalLoss()` (a plain class of the
                # file with `__call__`), a function or a class kept on the object: not a method
                # of its class, the attribute's own value is what runs (apply_call, by its kind).
                # Not an autograd Function's instance: calling one is the legacy API (GL512)
                return None
        if kind == K.MODULE or (recv.live and any(o.kind == K.ORIGIN_MODULE for o in recv.live) and m in frameworks.MODULE_LIKE_METHODS):
            return self.module_method(ev, st, recv, m, recv_name)
        if recv.get(F.SYM) and m in frameworks.MODULE_EVIDENCE:
            for o in recv.live:
                if o.kind == K.ORIGIN_SYM:
                    o.certain = True
                    o.kind = K.ORIGIN_MODULE
            return self.module_method(ev, st, recv, m, recv_name)
        if recv.get(F.SYM) and m in ("zero_grad",):
            self.opt_event(node, st, "zero_grad", recv)
            return EMPTY
        if kind in _CONTAINER_KINDS or (kind is None and m in _CONTAINER_METHODS and not recv.get(F.FW)):
            r = self.container_method(ev, st, recv, m, recv_name, recv_node)
            if r is not None:
                return r
        if kind in _PRIMITIVE_KINDS:
            return Val(kind=kind if m not in ("format", "join", "split") else K.STR)
        if kind is None and m in _SAME_OBJECT_METHODS and not recv.live and not recv.get(F.FW):
            # `GPT(cfg).to(device)`, `Net().train()`: a module's and a tensor's spelling alike; on
            # an object the analysis knows nothing about the result is that object, still unknown
            # (its uses may prove it a module when it is bound)
            return recv
        # ---- tensors (and unknown receivers)
        for overlay in frameworks.TENSOR_METHOD_CHAIN:
            r = overlay.tensor_method(self, ev, st, recv, m, recv_name, recv_node)
            if r is not None:
                return r
        return self._any_method(ev, st, recv, m)

    def module_method(self, ev: "CallEvent", st: State, recv: Val, m: str, recv_name) -> Val:
        if m in ("train", "eval") and isinstance(recv.get(F.FIELDS), dict):
            mode = ev.arg(0, "mode") if m == "train" else None
            c = mode.get(F.CONST, NOCONST) if mode is not None else (m == "train")
            set_training(recv, Val(kind=K.BOOL, attrs={F.CONST: c} if isinstance(c, bool) else None))
        handler = frameworks.MODULE_METHODS.get(m)
        if handler is not None:
            return handler(self, ev, st, recv, recv_name)
        # a method of a module that no library declares (`model.encode(x)`, `model.generate(x)`):
        # it may use the module's parameters, so its result depends on them (a detach of it still
        # starves the module), but whether it records a graph is unknown (it may run under
        # no_grad): no graph node, so no claim that a backward frees or re-walks it
        out = combine([recv] + ev.args + list(ev.kwargs.values()))
        return Val(out.live, out.cuts, out.notes, frozenset(), None, {F.FW: recv.get(F.FW)} if recv.get(F.FW) else None)

    def unpacked(self, v: Val) -> list[Val]:
        """The positional arguments `*v` gives: a list or tuple known item by item is those
        items, in order (`nn.Sequential(*layers)`); anything else one starred element."""
        items = v.get(F.ITEMS) if v.kind in (K.LIST, K.TUPLE) else None
        return list(items) if isinstance(items, tuple) else [self.iter_val(v).with_fact(F.STARRED, True)]

    def container_method(self, ev: "CallEvent", st: State, recv: Val, m: str, recv_name, recv_node) -> Val | None:
        args = ev.args
        if m in ("append", "add", "extend", "insert", "appendleft", "update", "setdefault"):
            if args:
                value = args[-1] if m != "extend" else self.iter_val(args[0])
                if m == "setdefault":
                    value = args[1] if len(args) > 1 else EMPTY
                sev = StoreEvent(ev.node, st.ctx, "append", recv, recv_node, recv_name, value, ev.arg_nodes[-1] if ev.arg_nodes else None)
                self.emit(sev)
                if sev.notes:
                    value = value.add_notes(sev.notes)
                if recv_name is not None:
                    # `d.update(other)` may replace any key: what KEYS said of d is no longer known
                    dropped = (F.ITEMS, F.ELEM, F.KEYS) if m == "update" else (F.ITEMS, F.ELEM)
                    attrs = {k: v for k, v in (recv.attrs or {}).items() if k not in dropped}
                    attrs[F.ELEM] = join([recv.get(F.ELEM) or self.iter_val(recv), value]) if (recv.get(F.ELEM) is not None or recv.get(F.ITEMS)) else value
                    if m == "append" and recv.kind == K.LIST and isinstance(recv.get(F.ITEMS), tuple):
                        attrs[F.ITEMS] = recv.attrs[F.ITEMS] + (value,)  # the order stays known (`layers.append(nn.Tanh())`)
                    st.env[recv_name] = combine([recv, value], kind=recv.kind or K.LIST, attrs=attrs)
                if m == "setdefault":
                    return value
            return Val(kind=K.NONE)
        if m in ("pop", "popleft", "get", "values", "copy", "items", "keys"):
            if m == "get":
                key = ev.arg(0)
                keys = recv.get(F.KEYS)
                c = key.get(F.CONST) if key is not None else None
                if isinstance(keys, dict) and isinstance(c, str) and c in keys:
                    return keys[c]
                default = ev.arg(1)
                return join([self.iter_val(recv)] + ([default] if default is not None else []))
            if m == "items":
                e = self.iter_val(recv) if recv.kind != K.DICT else Val(recv.live, recv.cuts, recv.notes, recv.graphs, None)
                return Val(recv.live, recv.cuts, recv.notes, recv.graphs, K.LIST,
                           {F.ELEM: combine([e], kind=K.TUPLE, attrs={F.ITEMS: (Val(kind=K.STR), e)})})
            if m == "keys":
                return Val(kind=K.LIST, attrs={F.ELEM: Val(kind=K.STR)})
            if m == "values":
                e = Val(recv.live, recv.cuts, recv.notes, recv.graphs, None)
                keys = recv.get(F.KEYS)
                if isinstance(keys, dict) and keys:  # the values of the keys the code wrote (at least these)
                    return Val(recv.live, recv.cuts, recv.notes, recv.graphs, K.LIST, {F.ELEM: join(list(keys.values())), F.ITEMS: tuple(keys.values())})
                return Val(recv.live, recv.cuts, recv.notes, recv.graphs, K.LIST, {F.ELEM: e})
            if m == "copy":
                return recv
            return self.iter_val(recv)
        if m in ("clear",):
            if recv_name is not None:
                st.env[recv_name] = Val(kind=recv.kind)
            return Val(kind=K.NONE)
        if m in ("index", "count"):
            return Val(kind=K.NUMBER)
        return None

    def _any_method(self, ev: "CallEvent", st: State, recv: Val, m: str) -> Val:
        """A method no overlay knows: on an array, the result derives from the receiver and the
        arguments; on an object the analysis knows nothing about (`augment.tune(pred)`), it is
        unknown."""
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        fw = recv.get(F.FW)
        if recv.kind is None and not fw and m not in ARRAY_METHOD_NAMES:
            return self.unknown_result(ev, st, [recv] + args + list(kwargs.values()))
        attrs = {}
        if fw:
            attrs[F.FW] = fw
            if fw == "jax" and recv.get(F.JAX_ARRAY):
                attrs[F.JAX_ARRAY] = True
        dt = recv.get(F.DTYPE)
        if m == "astype":
            dt = dtype_named(ev.arg(0, "dtype"))  # `x.astype(jnp.float32)`: unknown unless named
        if dt and m not in ("float", "double"):
            attrs[F.DTYPE] = dt
        if recv.get(F.TRACED):
            attrs[F.TRACED] = True
        if recv.get(F.STAGED):
            attrs[F.STAGED] = recv.get(F.STAGED)  # (where a static value became a tracer)
        if st.ctx.grad == "inference":
            attrs[F.INFERENCE] = st.ctx.grad_node or node
        if is_gradient(recv):
            attrs[F.GRAD_DERIVED] = True
        n = numel([recv])
        if n:
            attrs[F.NUMEL] = n
        if m not in frameworks.REDUCTIONS and (recv.get(F.SCALAR) is False or any(a.get(F.SCALAR) is False for a in args)):
            attrs[F.SCALAR] = False
        vals = [recv] + args + list(kwargs.values())
        kind = K.TENSOR if recv.kind in (K.TENSOR, K.GRAD) or fw else None
        if kind == K.TENSOR and any(v.get(F.RG) and v.get(F.LEAF) and not v.graphs for v in vals):
            attrs[F.NONLEAF_FROM] = node  # `w.sub(lr * w.grad)`: a new tensor, as `w - lr * w.grad` (the operator's)
        # `accelerator.prepare(model)`: no tensor goes in, so nothing is saved for backward
        tensor_in = any(v.graphs or v.kind in (K.TENSOR, K.GRAD) for v in vals)
        return self.op_result(node, st, vals, kind=kind, attrs=attrs or None, saves=tensor_in)
