"""Calls: evaluating a call, dispatching it (a library function goes to its framework overlay,
a function or class of the module is inlined), and the primitive results every handler builds
on (`op_result`, `differentiate`, `opt_event`)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Iterable

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..events import CallEvent, DiffEvent, DiffKind, FunctionEvent, InplaceEvent, OptEvent, enter_grad_mode
from ..frameworks import torch as torch_overlay
from ..frameworks.arrays import facts_after_call
from ..names import dotted_name
from ..queries import certainly_computed, computed_by_autograd, fw_of, is_torch_val, module_origins, no_grad_made, numel, dtype_of, param_origins
from ..values import EMPTY, OPAQUE, REWRAP, Cut, Origin, Val, combine, cut, join, not_followed, opaque
from .state import AnalysisBudgetExceeded, Activation, ClassInfo, FunctionInfo, State, self_fields

if TYPE_CHECKING:  # pragma: no cover
    from .host import InterpreterHost as _Base
else:
    _Base = object

_E: frozenset = frozenset()


# Wrappers named by a verb (a class-named callee with a module argument is a wrapper too):
# they return the module they are given, or (_MIRRORING) the objects they are given, in order.
_WRAPPER_VERBS = frozenset({
    "prepare", "prepare_model", "setup", "setup_module", "wrap", "compile", "parallelize_module", "fully_shard",
    "initialize", "convert_sync_batchnorm", "to_device", "unwrap_model",
})
_MIRRORING_WRAPPERS = frozenset({"prepare", "setup", "initialize"})


def _from_trained(v: Val) -> bool:
    """Computed from something certainly trained, with its history: `criterion(model(x), y)`.
    A detached output (`discriminator(generator(z).detach())`) does not make the callee a loss
    function: that is how a GAN's discriminator is trained."""
    return any(o.certain for o in v.live)


def _cut_from_trained(v: Val) -> bool:
    return any(o.certain for o, _ in v.cuts)


def _wrapped_candidates(ev: CallEvent) -> list[Val]:
    """The arguments a wrapper wraps: its first positional argument, a `module=`/`model=`
    keyword, and for the mirroring ones all positional arguments."""
    out = list(ev.args[:1])
    for k in ("module", "model", "models"):
        if k in ev.kwargs:
            out.append(ev.kwargs[k])
    if (ev.name or "") in _MIRRORING_WRAPPERS:
        out = list(ev.args) + out
    return out


def dataclass_fields(node: cst.ClassDef) -> list[str]:
    """The fields of a class decorated with `@dataclass` (`dataclasses.dataclass`, flax's and
    chex's `...dataclass`, with or without arguments) in the order its generated __init__ takes
    them: the annotated names of its body, less `ClassVar`s. Empty for any other class, and for
    one with bases (inherited fields come first, from classes this does not read)."""
    if node.bases:
        return []
    if not any(_last_name(d.decorator) == "dataclass" for d in node.decorators):
        return []
    out = []
    for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                ann = small.annotation.annotation
                head = ann.value if isinstance(ann, cst.Subscript) else ann
                if _last_name(head) != "ClassVar":
                    out.append(small.target.value)
    return out


def _last_name(node) -> str | None:
    """`dataclass` of `dataclass`, `dataclasses.dataclass` and `struct.dataclass(frozen=True)`."""
    if isinstance(node, cst.Call):
        node = node.func
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else None


# cuts that make a new leaf on purpose (not kept by requires_grad_: see make_requires_grad)
_DELIBERATE_CUTS = frozenset({"detach", "data", "no_grad", "inference"})



class CallsMixin(_Base):
    def _e_call(self, node: cst.Call, st: State) -> Val:
        func_node = node.func
        recv = None
        method = None
        if isinstance(func_node, cst.Attribute):
            method = func_node.attr.value
            full = dotted_name(func_node)
            stored = st.env.get(full) if full else None
            if stored is not None and stored.kind in (K.FUNCTION, K.JAXFN, K.CLASS, K.REF, K.BOUND):
                func = stored
                recv = None
                method = None if stored.kind != K.BOUND else method
            else:
                recv = self.eval(func_node.value, st)
                if recv.kind == K.REF:
                    func = self.resolved_ref(frameworks.canonical(f"{recv.attrs[F.QUAL]}.{method}"))
                    recv = None
                    method = None
                elif recv.kind == K.CLASS:
                    func = self.attribute_of(recv, method, func_node, st)
                    recv = None
                    method = None
                elif stored is not None and stored.kind == K.MODULE and recv.kind in (K.INSTANCE, K.MODULE):
                    func = stored  # `self.encoder(x)` in a helper __init__ calls: the submodule as stored so far
                else:
                    func = self.attribute_of(recv, method, func_node, st) if recv.kind in (K.INSTANCE, K.MODULE) else EMPTY
        else:
            func = self.eval(func_node, st)
        args: list[Val] = []
        arg_nodes: list[cst.BaseExpression] = []
        kwargs: dict[str, Val] = {}
        kw_nodes: dict[str, cst.BaseExpression] = {}
        star: list[Val] = []
        for a in node.args:
            v = self.eval(a.value, st)
            if a.keyword is not None:
                kwargs[a.keyword.value] = v
                kw_nodes[a.keyword.value] = a.value
            elif a.star == "*":
                star.append(v)
                args.extend(unpacked := self.unpacked(v))  # (`nn.Sequential(*layers)`: the layers, in order, when known)
                arg_nodes.extend([a.value] * len(unpacked))
            elif a.star == "**":
                star.append(v)
            else:
                args.append(v)
                arg_nodes.append(a.value)
        qual = frameworks.canonical(func.attrs[F.QUAL]) if func.kind == K.REF else None
        ev = CallEvent(node, st.ctx, qual, method, recv, func, args, kwargs, arg_nodes, kw_nodes)
        if func.kind == K.MODULE and func.get(F.ACTS_AS):
            ev.name = func.attrs[F.ACTS_AS]  # `nn.Softmax(dim=1)(z)`, `self.act(z)`: rules see the op
        ev.result = EMPTY
        if args and arg_nodes and torch_overlay.overwrites_input(ev):
            self._overwrite(node, st, args[0], arg_nodes[0], qual or "inplace")
        try:
            result = self.apply_call(ev, st, star)
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        # what the call saved for backward, marked once it returned: a forward() that changes
        # its input in place before using it (`hidden_states *= noise`) changes no saved tensor
        self._mark_saved(node, st, arg_nodes, args, qual, method, func, recv)
        if result.live and st.ctx.grad == "on" and (
            ev.name in torch_overlay.SAVES_OUTPUT
            or (func.kind == K.MODULE and func.get(F.OUTPUT_SAVED))
        ):
            # softmax/sigmoid/tanh/exp/relu keep their *result* for backward: changing it in
            # place afterwards breaks that backward (GL306)
            result = result.with_fact(F.SAVED_OUTPUT, node)
        if result.live or result.kind == K.TENSOR:
            # what the numerics rules ask of a value however it is spelled (arrays.py): a sum of
            # squares, a matrix product, a value kept away from 0
            inputs = ([recv] if method is not None and recv is not None else []) + args
            fw = fw_of(inputs) or ((qual or "").split(".", 1)[0] or None)
            mse = func.kind == K.MODULE and func.get(F.LOSS_MODULE) == "MSELoss"
            for fact, value in facts_after_call(ev.name, fw, inputs, kwargs, node, mse).items():
                if fact != F.EXACT or result.get(F.EXACT) is None:
                    result = result.with_fact(fact, value)
        ev.result = result
        ev.ctx = st.ctx
        self.emit(ev)
        if ev.notes:
            result = result.add_notes(ev.notes)
            st.note_receiver(node, method, ev.notes)  # `x.nan_to_num_()`: said of the tensor it changed
            if (elem := result.get(F.ELEM)) is not None:
                # what a rule says of the call holds for each element of the list it returns
                # (`df_dx, df_dy = tape.gradient(f, [x, y])`)
                result = result.with_fact(F.ELEM, elem.add_notes(ev.notes))
        return result

    def _overwrite(self, node, st: State, target: Val, target_node, op: str) -> None:
        """An activation or dropout that writes its result into its input (`nn.ReLU(inplace=
        True)(x)`): an in-place change of `x` (GL306 when an earlier operation saved it)."""
        if not (target.kind in (K.TENSOR, None) and target.live):
            return
        name = dotted_name(target_node)
        self.emit(InplaceEvent(node, st.ctx, target, target_node, op, False, name, self.saved_by(st, name, target)))

    def _mark_saved(self, node, st: State, arg_nodes, args, qual, method, func, recv=None) -> None:
        """A named tensor given to (or the receiver of) an operation that saves it for backward."""
        if st.ctx.grad != "on":
            return
        positions, name = None, None  # which arguments are saved (None: all that have history)
        if func.kind == K.AUTOGRAD_APPLY:
            # `Square.apply(h)`: what its forward passes to ctx.save_for_backward
            positions = torch_overlay.function_saves(func.get(F.CLS)).inputs
            if not positions:
                return
        elif func.kind == K.MODULE:
            if func.get(F.QUAL_NEW, "").rsplit(".", 1)[-1] in torch_overlay.OUTPUT_ONLY_MODULES:
                return
        elif qual is not None or method is not None:
            name = qual.rsplit(".", 1)[-1] if qual else method
            if qual is not None and not qual.startswith("torch."):
                return
            if name not in torch_overlay.SAVES_INPUT:
                return
            if method is not None and qual is None and recv is not None and isinstance(node.func, cst.Attribute):
                arg_nodes, args = [node.func.value, *arg_nodes], [recv, *args]  # `x.pow(2)` keeps x
        elif not (func.kind is None and any(o.certain for o in func.live)):
            return
        for i, (an, av) in enumerate(zip(arg_nodes, args)):
            if positions is not None and i not in positions:
                continue
            if not certainly_computed(av) or name in torch_overlay.SAVES_FOR_OTHER and len(args) == 2 and not args[1 - i].live:
                continue
            if isinstance(an, (cst.Name, cst.Attribute)) and dotted_name(an) is not None:
                st.mark_saved(dotted_name(an), node, av)  # (`self.state`: kept with the object's field)
                continue
            # a slice or view (`cell(out[:, t - 1])`, `bmm(q, v.mT)`) shares its base's version counter
            base_node = torch_overlay.viewed_name(an)
            base = st.env.get(base_node.value) if base_node is not None else None
            if base is not None and base.kind == K.TENSOR:
                st.mark_saved(base_node.value, node)

    def apply_call(self, ev: CallEvent, st: State, star: list[Val]) -> Val:
        func = ev.func
        if ev.qual is not None:
            return self.call_qual(ev, st, star)
        if func.kind == K.MODULE and ev.recv is not None:
            return self.call_module(func, ev, st)  # `self.encoder(x)`: a submodule call
        if func.get(F.ELIDED_METHOD):  # a method the first pass left out: not followed, as when too deep
            return not_followed(func.attrs[F.ELIDED_METHOD], ev.node)
        member_of = func.get(F.MEMBER_OF)
        if member_of is not None and not (ev.method is not None and ev.method in frameworks.MODULE_METHODS):
            # `model.encoder(x)` where the model's class is not seen: a submodule or a method of
            # it — either way a function of the module's parameters; whether it records a graph
            # (a method may run under no_grad) is not known, so it adds no graph node
            frozen = member_of.get(F.FROZEN) or (member_of.live and all(o.frozen for o in member_of.live))
            vals = ([] if frozen else [member_of]) + ev.args + list(ev.kwargs.values())
            return self.op_result(ev.node, st, vals, kind=None, attrs={F.FW: member_of.get(F.FW) or "torch"}, saves=False)
        if ev.method is not None and ev.recv is not None:
            r = self.call_method(ev, st, star)
            if r is not None:
                return r
        kind = func.kind
        if kind == K.FUNCTION:
            # functools.partial(f, a, b)(c) calls f(a, b, c)
            return self.call_function(func.attrs[F.FN], ev, st, list(func.get(F.PARTIAL_ARGS) or ()) + ev.args, ev.kwargs, self_val=None)
        if kind == K.BOUND and func.get(F.SELF) is not None:  # (paths that bound different objects met: unknown)
            skip = func.get(F.SKIP_ARGS) or 0
            return self.call_function(func.attrs[F.FN], ev, st, ev.args[skip:], ev.kwargs, self_val=func.attrs[F.SELF])
        if kind == K.CLASS:
            return self.instantiate(func.attrs[F.CLS], ev, st)
        handler = frameworks.CALLABLE_KINDS.get(kind)
        if handler is not None:
            return handler(self, func, ev, st)  # a jax-transformed function, Function.apply
        if kind in (K.MODULE, K.INSTANCE):
            return self.call_module(func, ev, st)
        if func.get(F.TRANSFORM):
            # a data transform (torchvision): its output is its input's data, with no parameters
            return combine(ev.args + list(ev.kwargs.values()), kind=K.TENSOR if any(a.kind == K.TENSOR for a in ev.args) else None)
        return self.unknown_result(ev, st, [func] + ev.args + list(ev.kwargs.values()) + star + ([ev.recv] if ev.recv is not None else []))

    def unknown_result(self, ev: CallEvent, st: State, vals: list[Val]) -> Val:
        """A call the analysis cannot see into (another library's function, a method of an object
        it knows nothing about, an imported function or class): unknown (values.opaque), except
        that a wrapper given a module returns a module (`DDP(model)`, `MAML(model, lr=...)`,
        `accelerator.prepare(model, optimizer)`: the objects it is given, in order)."""
        name = ev.name or ""
        mods = [v for v in _wrapped_candidates(ev) if v.kind == K.MODULE]
        if mods:
            if name in _MIRRORING_WRAPPERS and len(ev.args) >= 2:
                return Val(kind=K.TUPLE, attrs={F.ITEMS: tuple(ev.args)})
            if name[:1].isupper() or name in _WRAPPER_VERBS:
                live = frozenset().union(*(m.live for m in mods))
                return Val(live, kind=K.MODULE, attrs={F.FW: mods[0].get(F.FW) or "torch", F.WRAPS: True})
        out = opaque(vals, ev.node)
        fw = fw_of(vals)
        return out.with_fact(F.FW, fw) if fw and fw != "np" and out.cuts else out

    def call_qual(self, ev: CallEvent, st: State, star: list[Val]) -> Val:
        """A library function or class, by qualified name: its framework overlay decides; a
        library no overlay knows computes its result from its arguments."""
        q = ev.qual
        allv = ev.args + list(ev.kwargs.values()) + star
        overlay = frameworks.by_head(q.split(".", 1)[0])
        if overlay is not None:
            out = overlay.call(self, q, ev, st, allv)
            if out is not None:
                return out
        return self.unknown_result(ev, st, allv)

    # ---------------------------------------------------------------- inlining
    def call_function(self, fn: FunctionInfo, ev: CallEvent, st: State, args: list[Val], kwargs: dict[str, Val], self_val: Val | None,
                      traced=None, params_override: dict | None = None) -> Val:
        depth = st.act.depth + 1
        if fn in self._active:
            # recursion: the recursive call adds nothing the non-recursive paths don't
            return Val(kind=None)
        if depth > self.MAX_DEPTH + self.leaf_level(fn, depth) or self.steps > self.budget * 0.8 or not self.follows_foreign(fn):
            # not followed any deeper (nor a project module's function run more often than
            # modules.MAX_FOREIGN_RUNS): the result is unknown (not "differentiable in all the
            # arguments", which would invent history where the callee detaches)
            if depth > self.MAX_DEPTH + self.leaf_level(fn, depth):
                for f in self._active:
                    f.truncated = True
                    if self._truncated_now is not None:
                        self._truncated_now.add(f.node)
            return not_followed(fn.name, ev.node)
        fn.inlined = True
        if self._inlined_now is not None:
            self._inlined_now.add(fn.node)
        self.depend(fn.node)
        if fn.cls is not None:
            self.depend(fn.cls.node)
        env: dict[str, Val] = {}
        params = list(fn.params)
        pos_args = list(args)
        if self_val is not None and params and fn.cls is not None and not fn.is_static:
            env[params[0][0]] = self_val
            params = params[1:]
        elif fn.cls is not None and fn.is_static is False and ev.func.get(F.UNBOUND) and params:
            # Class.method(obj, ...)
            if pos_args:
                env[params[0][0]] = pos_args.pop(0)
            params = params[1:]
        rest_pos: list[Val] = []
        for name, kind, _ann in params:
            if kind == "pos":
                if pos_args:
                    env[name] = pos_args.pop(0)
                elif name in kwargs:
                    env[name] = kwargs[name]
                elif name in fn.defaults:
                    env[name] = fn.defaults[name]
                else:
                    env[name] = EMPTY
            elif kind == "star":
                rest_pos = pos_args
                pos_args = []
                env[name] = combine(rest_pos, kind=K.TUPLE, attrs={F.ITEMS: tuple(rest_pos)})
            elif kind == "kwonly":
                env[name] = kwargs.get(name, fn.defaults.get(name, EMPTY))
            elif kind == "starstar":
                named = {n for n, _, _ in fn.params}
                extra = {k: v for k, v in kwargs.items() if k not in named}
                env[name] = combine(extra.values(), kind=K.DICT, attrs={F.KEYS: extra})
        if params_override:
            env.update(params_override)
        if self_val is not None and fn.params:
            fields = self_val.get(F.FIELDS)
            sn = fn.params[0][0]
            if fields:
                for k, v in fields.items():
                    env.setdefault(f"{sn}.{k}", v)
            caller = st.act.fn
            func = ev.node.func if isinstance(ev.node, cst.Call) else None
            if (caller is not None and caller.cls is not None and not caller.is_static and caller.params
                    and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                    and func.value.value == caller.params[0][0] and func.attr.value == fn.name):
                # `self._init_weights()` inside a method (`__init__`): the callee sees the fields
                # as the caller has them now, not only as the object's record had them before
                prefix = caller.params[0][0] + "."
                for k, v in st.env.items():
                    if k.startswith(prefix):
                        key = f"{sn}.{k[len(prefix):]}"
                        if not (params_override and key in params_override):
                            env[key] = v
        ctx = st.ctx.replace(fn=fn, calls=st.ctx.calls + (ev.node,))
        if fn.grad and enter_grad_mode(ctx.grad, fn.grad) != ctx.grad:
            ctx = ctx.replace(grad=enter_grad_mode(ctx.grad, fn.grad), grad_node=fn.grad_node)
        if traced is not None:
            ctx = ctx.replace(traced=traced)
        act = Activation(fn, fn.closure, depth)
        inner = State(env, st.freed, ctx, act, st.used, st.gflag)
        inner.stale = st.stale
        self_bound = self_val is not None and bool(fn.params) and fn.cls is not None and not fn.is_static
        if st.saved_by:
            self._saved_arguments([n for n, k, _ in params if k == "pos"], ev, st, inner)
        for name, v in list(env.items()):
            if v.kind is None and not (params_override and name in params_override):
                # an argument the caller knows nothing about (an imported model class): what
                # the callee's uses prove it is, as in the callee's own run
                env[name] = self.with_evidence(name, v, inner, fn.node)
        self._active.append(fn)
        try:
            self._exec_function_body(fn, inner)
        finally:
            self._active.pop()
        st.freed = inner.freed
        st.used = inner.used
        st.gflag = inner.gflag
        st.stale = inner.stale
        if self_val is not None and params_override is None:
            fields = self_val.get(F.FIELDS)
            self_name = fn.params[0][0] if fn.params else None
            if fields is not None and self_name:
                fields.update(self_fields(env, self_name))
                _nested_fields_back(inner.env, self_name)
        # containers and objects passed in may have been mutated (append, attribute stores)
        self._propagate_mutations(fn, ev, st, inner, self_bound)
        ret = self._after_function(fn, inner, "inline", env)
        if act.yields and not act.returns:
            ret = combine(act.yields, kind=K.LIST)
        if fn.wrapped:
            ret = Val(ret.live, ret.cuts, ret.notes, ret.graphs)
        return ret

    def _saved_arguments(self, names: list[str], ev: CallEvent, st: State, inner: State) -> None:
        """The callee's parameters name the caller's tensors: what an earlier operation saved
        of an argument is saved of the parameter (an in-place change in the callee breaks it)."""
        for pname, anode in zip(names, ev.arg_nodes):
            if isinstance(anode, cst.Name):
                by = self.saved_by(st, anode.value, EMPTY)
                if by is not None:
                    inner.saved_by[pname] = by

    def _propagate_mutations(self, fn: FunctionInfo, ev: CallEvent, st: State, inner: State, self_bound: bool = False) -> None:
        env = inner.env
        names = [p[0] for p in fn.params]
        arg_nodes = list(ev.arg_nodes)
        if ev.method is not None and ev.recv is not None and names:
            func = ev.node.func if isinstance(ev.node, cst.Call) else None
            recv_node: cst.BaseExpression | None = None
            if isinstance(func, cst.Attribute) and ev.method != fn.name:
                # `self.c3(x)` runs the forward of the submodule `self.c3`: its fields are the
                # submodule's, not the caller's `self`
                recv_node = func
            elif isinstance(func, cst.Attribute):
                recv_node = func.value
            arg_nodes = [recv_node] + arg_nodes
        elif self_bound:  # `model(x)` runs forward(self, x): the arguments start at the second parameter
            arg_nodes = [None] + arg_nodes
        for pname, anode in zip(names, arg_nodes):
            aname = dotted_name(anode) if anode is not None else None
            if aname is None:
                continue
            prefix = pname + "."
            for k, v in env.items():
                if k.startswith(prefix):
                    st.env[aname + k[len(pname):]] = v
            for k, node in inner.saved_by.items():
                if k == pname or k.startswith(prefix):
                    # an operation in the callee saved the tensor the caller passed in
                    st.saved_by[aname + k[len(pname):]] = node
                elif inner.alias_of.get(k) == pname:  # ... under another name (`x = token`)
                    st.saved_by[aname] = node
            inner_v = env.get(pname)
            if inner_v is not None and inner_v.kind in (K.CONTAINER, K.LIST, K.DICT):
                outer = st.env.get(aname)
                if outer is not None and outer is not inner_v:
                    st.env[aname] = join([outer, inner_v])

    def instantiate(self, info: ClassInfo, ev: CallEvent, st: State) -> Val:
        self.depend(info.node)
        if info.is_optimizer:
            params = ev.arg(0, "params") or EMPTY
            return Val(kind=K.OPTIMIZER, attrs={F.OPT_PARAMS: param_origins(params), F.CLS: info})
        inst = self._instance_val(info, ev.node, label=None)
        init = info.find_method("__init__")
        if init is not None:
            # run __init__ with the real arguments: what it stores on self (a model, an
            # optimizer over it, a criterion) is what the other methods will find
            self.call_function(init, ev, st, ev.args, ev.kwargs, self_val=inst)
        elif not info.is_module:
            fields = dataclass_fields(info.node)
            if fields and not any(a.get(F.STARRED) for a in ev.args) and len(ev.args) <= len(fields):
                # `Batch(x, y)` of a @dataclass: the generated __init__ stores each argument in
                # its field (`batch.x` is x), by position, then by keyword
                given = dict(zip(fields, ev.args))
                given.update((k, v) for k, v in ev.kwargs.items() if k in fields and k not in given)
                inst.attrs[F.FIELDS].update(given)
        return inst

    def _call_layers(self, seq: Val, layers: tuple, ev: CallEvent, st: State) -> Val:
        """An nn.Sequential of known layers runs them in order (a layer of the file's own class
        runs its forward()); the layers are part of the Sequential, so their origins in the
        result stand for the Sequential's own (what `seq.parameters()` gives the optimizer)."""
        if any(layer.kind != K.MODULE for layer in layers):
            return self.op_result(ev.node, st, [seq] + ev.args, kind=K.TENSOR, attrs={F.FW: "torch"})
        cur = ev
        out = EMPTY
        for i, layer in enumerate(layers):
            made = layer.get(F.CREATED)
            if i and layer.get(F.INPLACE_MODULE) and out.get(F.SAVED_OUTPUT) is not None and st.ctx.grad == "on" and out.live:
                # `nn.ReLU(), nn.Dropout(p, inplace=True)`: the dropout overwrites what the ReLU kept (GL306)
                self.emit(InplaceEvent(made or ev.node, st.ctx, out, None, "inplace", False, None, out.get(F.SAVED_OUTPUT)))
            # the layer as part of the Sequential: its origin is the Sequential's (what an optimizer
            # over `seq.parameters()` updates); a layer of the file's class keeps its fields
            out = self.call_module(Val(seq.live, frozenset(), layer.notes, frozenset(), K.MODULE, layer.attrs), cur, st)
            if made is not None and out.live and st.ctx.grad == "on" and torch_overlay.saves_output(layer):
                out = out.with_fact(F.SAVED_OUTPUT, made)  # what the next layer must not overwrite
            cur = copy.copy(ev)
            cur.args, cur.kwargs, cur.arg_nodes, cur.kw_nodes = [out], {}, [ev.node], {}
        return out if out.kind is not None else out.with_(kind=K.TENSOR)

    def _instance_val(self, info: ClassInfo, node, label: str | None) -> Val:
        if info.is_module:
            fw = "tf" if info.is_keras else info.framework
            o = Origin(K.ORIGIN_MODULE, label or "", node, certain=True, framework=fw)
            attrs = {F.CLS: info, F.FRESH_ORIGIN: label is None, F.FW: fw, F.FIELDS: {}}
            if label is None:
                attrs[F.CREATED] = node  # made here (`Block(dim)`), not a parameter's symbolic value
            v = Val(frozenset({o}), kind=K.MODULE, attrs=attrs)
            self._module_of[o] = v  # its fields (filled as __init__ runs) hold its submodules
            return v
        # `fields`: the object's attributes as its methods set them (mutable, like the object)
        return Val(kind=K.INSTANCE, attrs={F.CLS: info, F.FIELDS: {}})

    def call_module(self, mod: Val, ev: CallEvent, st: State) -> Val:
        info: ClassInfo | None = mod.get(F.CLS)
        frozen = mod.get(F.FROZEN) or (mod.live and all(o.frozen for o in mod.live))
        if mod.get(F.EVIDENCED) == "called" and (
                any(_from_trained(a) for a in ev.args)
                or any(_cut_from_trained(a) for a in ev.args)
                and self.is_loss_callee(self._self_path(dotted_name(ev.node.func) or "", st), st)):
            # known only from being called, applied to what a trained module computed (or, where its result is
            # backpropagated, to a detached copy): a loss function (`criterion(model(x), y)`), no parameters of its own
            frozen = True
        if (mod.get(F.LOSS_MODULE) and info is None and mod.get(F.FW) == "torch" and mod.get(F.LOSS_MODULE) != "AdaptiveLogSoftmaxWithLoss"
                or info is not None and mod.kind == K.MODULE and info.owns_no_parameters(mod.get(F.FIELDS))):
            # a library loss (`nn.MSELoss()`) or a module class of the file that provably owns no parameters (a Dice loss)
            # computes a loss trained only through its inputs (a detach there starves them)
            frozen = True
        # a frozen module contributes no trainable origin to its output
        vals = ([] if frozen else [mod]) + ev.args + list(ev.kwargs.values())
        fw = mod.get(F.FW) or fw_of(vals) or "torch"
        if info is not None:
            fwd = info.find_method("forward") or info.find_method("call") or info.find_method("__call__") or info.find_method(info.call_method or "")
            if fwd is not None:
                ret = self.call_function(fwd, ev, st, ev.args, ev.kwargs, self_val=mod)
                if not frozen and _cut_inside(ret, mod):
                    # forward() provably cuts the module's own parameters (`self.weight.data`,
                    # a `no_grad` around them): its output does not carry them after all
                    frozen = True
                if mod.kind == K.MODULE:
                    out_attrs = F.propagate(ret.attrs, F.Op.MODULE_OUTPUT)
                    items = out_attrs.get(F.ITEMS) if out_attrs else None
                    keys = out_attrs.get(F.KEYS) if out_attrs else None
                    elem = out_attrs.get(F.ELEM) if out_attrs else None
                    if (items or keys or elem is not None) and not frozen and mod.live:
                        # `output, hidden = self.model(x, h)`: each returned tensor is computed by
                        # the module, whose origin the holder's view carries (a submodule is part
                        # of the module that holds it); unpacking takes the items, not the tuple.
                        # A forward returning a dict (`{"deformed": d, "weight": w.detach()}`) is
                        # read the same way, by key (the detached entry stays detached), and one
                        # returning a list built in a loop by what one element is
                        def held(it: Val) -> Val:
                            return Val(it.live | mod.live, it.cuts, it.notes, it.graphs, it.kind, it.attrs) if it.kind == K.TENSOR and it.live else it
                        out_attrs = dict(out_attrs)
                        if items:
                            out_attrs[F.ITEMS] = tuple(held(it) for it in items)
                        if isinstance(keys, dict) and keys:
                            out_attrs[F.KEYS] = {k: held(it) for k, it in keys.items()}
                        if elem is not None:
                            out_attrs[F.ELEM] = held(elem)  # `[h(x) for h in self.heads]`: one head's output
                    out = self.op_result(ev.node, st, [ret] if frozen else [ret, mod], kind=ret.kind if ret.kind not in (None, K.NONE) else K.TENSOR,
                                         attrs=out_attrs)
                    return out.with_fact(F.FW, fw)
                return ret
        layers = mod.get(F.LAYERS)
        if layers and not frozen:
            return self._call_layers(mod, layers, ev, st)
        outputs = mod.get(F.KERAS_OUTPUTS)
        if outputs is not None and not frozen:
            # a functional Keras model computes its outputs again from what it is given: what the
            # graph built from its Input placeholders carries (its layers, the notes of their ops)
            return self.op_result(ev.node, st, [outputs, mod] + ev.args, kind=K.TENSOR, attrs={F.FW: "tf"})
        runs = mod.get(F.RUNS)
        if runs is not None:
            # a Keras Lambda layer has no weights: its output is what its function computes
            ret = self.call_function(runs.attrs[F.FN], ev, st, ev.args, ev.kwargs, self_val=None)
            return ret if ret.kind is not None else ret.with_(kind=K.TENSOR)
        red = mod.get(F.REDUCTION)
        attrs: dict = {F.FW: fw}
        n = numel(ev.args)
        if n:
            attrs[F.NUMEL] = n  # order of magnitude: layers keep the batch/spatial size
        dt = dtype_of(ev.args)
        if dt:
            attrs[F.DTYPE] = dt
        if red == "none":
            attrs[F.SCALAR] = False
        elif red in ("sum", "mean"):
            attrs[F.SCALAR] = True
        if mod.get(F.LOSS_MODULE):
            attrs[F.LOSS_OF] = mod.get(F.LOSS_MODULE)
            if red is None:
                attrs[F.SCALAR] = True
        if attrs.get(F.SCALAR) and n:
            attrs[F.REDUCED_FROM] = attrs.pop(F.NUMEL)  # a loss that sums or averages n values
        elif red is None and (mod.get(F.QUAL_NEW) or mod.get(F.LAYER_QUAL)) and not mod.get(F.LOSS_MODULE) \
                and any(a.get(F.SCALAR) is False for a in ev.args):
            # a library layer (not a loss: those have LOSS_MODULE) keeps the batch dimension; a
            # module known only from use (`loss_fn or nn.CrossEntropyLoss()`) may be a loss
            attrs[F.SCALAR] = False
        inf = next((v.get(F.INFERENCE) for v in ev.args if v.get(F.INFERENCE) is not None), None)
        if inf is not None and st.ctx.grad == "inference":
            attrs[F.INFERENCE] = inf
        out = self.op_result(ev.node, st, vals, kind=K.TENSOR, attrs=attrs)
        if info is None and not frozen and not (mod.get(F.QUAL_NEW) or mod.get(F.LAYER_QUAL)):
            g = (ev.node, st.ctx.key)
            if g in out.graphs:
                out = out.with_fact(F.UNSEEN_OUTPUT, g)
        return out

    def new_module(self, node, qual: str, fw: str, attrs: dict | None = None) -> Val:
        """A module made by a library class (`nn.Linear(...)`, `timm.create_model(...)`)."""
        o = Origin(K.ORIGIN_MODULE, "", node, certain=True, framework=fw)
        a = {F.FRESH_ORIGIN: True, F.FW: fw, F.QUAL_NEW: qual, F.CREATED: node}
        if attrs:
            a.update(attrs)
        return Val(frozenset({o}), kind=K.MODULE, attrs=a)

    # ---------------------------------------------------------------- primitives
    def op_result(self, node, st: State, vals: Iterable[Val], kind: K.Kind | None = None, attrs: dict | None = None, saves: bool = True) -> Val:
        """A differentiable operation on `vals` under the current grad mode; `saves`: it keeps tensors for backward (mul, linear; not +, views)."""
        vals = list(vals)
        out = combine(vals, kind=kind, attrs=attrs)
        if st.freed and out.graphs and not out.graphs.isdisjoint(st.freed):
            self.freed_fed.update({g: self.freed_read.get(g, node) for g in out.graphs & st.freed if g not in self.freed_fed})
        if st.ctx.grad == "inference" and out.get(F.INFERENCE) is None:
            out = out.with_fact(F.INFERENCE, st.ctx.grad_node or node)
        if st.ctx.grad != "on" and is_torch_val(out) and any(prev.hard for _, prev in out.cuts):
            # under no_grad the result is a constant whatever its inputs were: a conversion
            # before it cut nothing that would have been differentiated (cleanrl's SAC:
            # `alpha = log_alpha.exp().item()` used only in a target built under no_grad)
            c = Cut("no_grad" if st.ctx.grad == "off" else "inference", st.ctx.grad_node or node, hard=False)
            out = out.with_(cuts=frozenset((o, c if prev.hard else prev) for o, prev in out.cuts))
        if not out.live:
            return no_grad_made(out, vals, st.ctx.grad, st.ctx.grad_node or node)
        if st.ctx.grad != "on" and is_torch_val(out):
            # under no_grad / inference_mode torch records nothing
            c = Cut("no_grad" if st.ctx.grad == "off" else "inference", st.ctx.grad_node or node, hard=False)
            res = cut(out, c, kind=kind, attrs=attrs)
            if st.ctx.grad == "inference":
                res = res.with_fact(F.INFERENCE, st.ctx.grad_node or node)
            return no_grad_made(res, vals, st.ctx.grad, st.ctx.grad_node or node)
        if not saves or not any(o.certain for o in out.live):
            # graph nodes matter only where something certainly requires grad
            return out
        g = (node, st.ctx.key)
        # what the node saved: the origins it was computed from (an optimizer step over them
        # makes it stale); made again, it is fresh
        self._graph_origins[g] = out.live
        if st.stale and g in st.stale:
            st.stale = st.stale - {g}
        return Val(out.live, out.cuts, out.notes, out.graphs | {g}, kind, attrs)

    def inplace_result(self, node, st: State, target: Val, vals: list[Val]) -> Val:
        """A tensor modified in place keeps its identity (leaf-ness, origin); no_grad records no update."""
        if st.ctx.grad == "on" or not is_torch_val(target):
            out = self.op_result(node, st, [target] + vals)
            attrs = target.attrs
            if attrs and (F.SAVED_OUTPUT in attrs or F.SAVED_INPUT in attrs):
                attrs = {k: v for k, v in attrs.items() if k not in (F.SAVED_OUTPUT, F.SAVED_INPUT)}
            return Val(out.live, out.cuts, out.notes, out.graphs, target.kind or K.TENSOR, attrs)
        mixed = combine(vals)
        c = Cut("no_grad" if st.ctx.grad == "off" else "inference", st.ctx.grad_node or node, hard=False)
        mixed = cut(mixed, c)
        return Val(target.live, target.cuts | mixed.cuts, target.notes | mixed.notes, target.graphs, target.kind or K.TENSOR, target.attrs)

    def make_requires_grad(self, base: Val, node, name: str | None) -> Val:
        """`x.requires_grad_()` / `x.requires_grad = True`: x becomes an origin."""
        o = Origin(K.ORIGIN_TENSOR, name or "", node, certain=True, framework=base.get(F.FW) or "torch",
                   leaf=bool(base.get(F.LEAF, True)) and not base.live)
        attrs = dict(base.attrs or {})
        attrs[F.RG], attrs[F.RG_SET_AT] = True, node
        if F.NO_GRAD_MADE in attrs:  # a new leaf now, with no path to what it was computed from
            attrs[F.REGRAD_NO_GRAD] = (attrs.pop(F.NO_GRAD_MADE), node)
        attrs.setdefault(F.FW, "torch")
        # requires_grad_ only works on a leaf: whatever the value was computed from, it now
        # starts a new graph (earlier history and markers do not carry over). Cuts by an accident
        # stay: `loss.requires_grad = True` on a loss computed through an argmax or a .item()
        # silences "does not require grad" but the model still gets no gradient. A deliberate
        # cut (`x.detach().requires_grad_()`, or under no_grad) is kept as a REWRAP cut with the
        # line that re-wrapped it: `model(x).detach().requires_grad_()` before the loss is the
        # common "fix" of "does not require grad", and starves the model it detached
        if computed_by_autograd(base):
            # ... but on a non-leaf (which requires grad) it is a no-op: its history stays (a
            # gradient penalty's `interp = a * real + (1 - a) * fake; interp.requires_grad_()`)
            return Val(base.live | {o}, base.cuts, base.notes, base.graphs, K.TENSOR, attrs)
        # A leaf made after no_grad (`y.requires_grad = True` after the block, or in a custom
        # Function's backward) keeps a REWRAP cut too: what it was computed from gets no gradient
        # through it (GL103 reports it where the code wants that gradient: `autograd.grad(y, x)`)
        kept = frozenset(
            (org, Cut(REWRAP, c.node, hard=False, then=node) if c.kind in _DELIBERATE_CUTS else c) for org, c in base.cuts)
        return Val(base.live | {o}, kept, _E, _E, K.TENSOR, attrs)

    def opt_event(self, node, st: State, kind: str, target: Val) -> None:
        """Record optimizer bookkeeping and update the path's last gradient event."""
        self.emit(OptEvent(node, st.ctx, kind, target, st.gflag))
        if kind == "zero_grad":
            prev = st.gflag[0] if st.gflag else None
            # clearing again (the next parameter of `for p in params: p.grad = None`) is still
            # clearing what the backward computed
            st.gflag = ("zero_after_backward" if prev in ("backward", "backward_scaled", "zero_after_backward") else "zero", node)
        elif kind == "step":
            st.gflag = ("step", node)
            direct = frozenset(o for o in (target.get(F.OPT_PARAMS) or ()) if o.certain)
            # `D.parameters()` are also those of D's submodules
            stepped = frozenset().union(direct, *(self.parts_of(o) for o in direct))
            if stepped and target.kind == K.OPTIMIZER and target.get(F.FW) != "tf":
                # the step updates these parameters in place: every graph node built from them
                # so far saved the old values
                now = frozenset(g for g, live in self._graph_origins.items() if live & stepped)
                for g in now - st.stale:
                    self._stale_by[g] = (node, stepped, direct)
                st.stale = st.stale | now
        elif kind == "unscale":
            st.gflag = ("unscaled", node)

    def differentiate(self, ev: CallEvent | None, st: State, kind: DiffKind, target: Val, target_node, *, sources: Val | None = None,
                      source_node=None, retain: bool | None = False, create_graph: bool | None = False, tape=None, node=None,
                      **details) -> DiffEvent:
        """Something is differentiated (see DiffEvent; `details` are its kind-specific fields)."""
        node = node if node is not None else ev.node
        walked = target.graphs
        if kind == DiffKind.AUTOGRAD_GRAD and sources is not None and sources.graphs:
            # autograd.grad(out, inputs) runs only the part of the graph between them: what
            # the inputs were computed from (a gradient penalty's `mixed` from G's `fake`) is
            # neither walked nor freed
            walked = walked - sources.graphs
        hit = walked & st.freed if st.freed else frozenset()
        stale = walked & st.stale if st.stale else frozenset()
        element_hit = frozenset()
        if hit and self._element_graphs:
            picked = [self._element_graphs[id(loop)] for loop, _ in st.ctx.loops if id(loop) in self._element_graphs]
            element_hit = frozenset(g for g in hit if any(g in p for p in picked))
        d = DiffEvent(node, st.ctx, kind, target, target_node, sources=sources, source_node=source_node, retain=retain,
                      create_graph=create_graph, freed_hit=hit, element_hit=element_hit, tape=tape,
                      stale_hit=self._stale_hits(stale), bindings=st.env if hit else None,
                      fed_at={g: self.freed_fed[g] for g in hit if g in self.freed_fed} if hit else None, **details)
        self._diff_count += 1
        self.emit(d)
        if kind == DiffKind.BACKWARD:
            st.gflag = ("backward_scaled" if target.get(F.SCALED) is not None else "backward", node)
        if kind in (DiffKind.BACKWARD, DiffKind.AUTOGRAD_GRAD) and retain is False:
            st.freed = st.freed | walked
        return d

    def parts_of(self, o) -> frozenset:
        """`o` with the origins of its submodules and parameters (`pi` and `self.fc1` of its
        class: a loss computed in `pi`'s own methods holds only the latter)."""
        m = self._module_of.get(o)
        return module_origins(m) | {o} if m is not None else frozenset({o})

    def holders_of(self, o) -> frozenset:
        """`o` with the origins of every module that holds it (an optimizer over
        `pi.parameters()` holds `pi`, a conversion in pi's forward cuts `self.fc1`)."""
        out = {o}
        for owner, m in self._module_of.items():
            if owner is not o and o in module_origins(m):
                out.add(owner)
        return frozenset(out)

    def _stale_hits(self, stale: frozenset) -> dict:
        """{graph node: (the step, the origins it updated, those its parameters came from (`D`
        of `D.parameters()`), the origins the node used)}."""
        return {g: (*self._stale_by[g], self._graph_origins.get(g, frozenset())) for g in stale if g in self._stale_by}

    def _after_function(self, fn: FunctionInfo, st: State, kind: str, params: dict) -> Val:
        ret = join(st.act.returns) if st.act.returns else Val(kind=K.NONE)
        self.emit(FunctionEvent(fn.node, st.ctx, fn, kind, ret, params))
        return ret


def _nested_fields_back(env: dict, self_name: str) -> None:
    """`self.body.log_probs.append(lp)` in a method binds `self.body.log_probs` in the method's
    environment only; the object `self.body` holds it from then on (its fields), so that the
    method that later reads `self.body.log_probs` (another call, another method) sees it."""
    prefix = self_name + "."
    for k, v in env.items():
        if k.startswith(prefix) and k.count(".") >= 2 and not k.endswith(".grad"):
            holder_name, _, leaf = k.rpartition(".")
            holder = env.get(holder_name)
            fields = holder.get(F.FIELDS) if holder is not None and holder.kind in (K.INSTANCE, K.MODULE) else None
            if isinstance(fields, dict):
                fields[leaf] = v


def _cut_inside(ret: Val, mod: Val) -> bool:
    """What a module's forward() returned reaches the module's own origin only through a cut it
    proves (`.data`, `.detach()`, `no_grad`, a conversion), not through unknown code."""
    own = set(mod.live)
    fields = mod.get(F.FIELDS)
    if isinstance(fields, dict):
        for v in fields.values():  # its parameters and submodules (`self.weight`, `self.fc`)
            if isinstance(v, Val) and v.kind in (K.TENSOR, K.MODULE):
                own |= v.live
    if not own or ret.live & own:
        return False
    return any(o in own and c.kind != OPAQUE for o, c in ret.cuts)
