"""Expressions: names and attributes, subscripts, literals and containers, comprehensions,
comparisons and arithmetic. Calls are in calls.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..events import BinOpEvent, CompareEvent, DiffKind, InspectEvent, UseEvent
from ..facts import Op, propagate
from ..frameworks import torch as torch_overlay
from ..frameworks.tensorflow import stays_tf_constant
from ..frameworks.arrays import NONDIFF_FUNCS, guarded_after_binop, picks_by_index, product_exact, squares_after_binop
from ..names import CMP, NOCONST, OPS, const_of, dotted_name, fold, is_const, literal, single_index_const
from ..queries import broadcast_shape, certainly_computed, data_is_tensor_storage, dtype_of, first_fact, fw_of, none_ness, numel
from ..values import EMPTY, Cut, Origin, Val, combine, cut, join, ref
from .state import ClassInfo, FunctionInfo, State

if TYPE_CHECKING:  # pragma: no cover
    from .host import InterpreterHost as _Base
else:
    _Base = object

BUILTIN_NAMES = frozenset(
    {
        "float", "int", "bool", "complex", "len", "sum", "max", "min", "abs", "list", "tuple",
        "dict", "set", "zip", "enumerate", "range", "isinstance", "print", "super", "getattr",
        "setattr", "hasattr", "sorted", "reversed", "map", "filter", "iter", "next", "round",
        "str", "repr", "any", "all", "type", "id", "callable", "divmod", "pow", "format",
        "open", "vars", "globals", "locals", "frozenset", "object", "staticmethod",
        "classmethod", "property", "NotImplementedError", "ValueError", "RuntimeError",
        "TypeError", "KeyError", "Exception", "AssertionError", "slice", "hash", "math",
    }
)

# Attributes of a tensor that are views of the same values and history.
_SAME_VALUE_ATTRS = frozenset({"T", "mT", "H", "real", "imag"})
# Kinds of values whose attributes the analysis knows nothing about.
_OPAQUE = frozenset({K.NUMBER, K.STR, K.BOOL, K.NONE, K.META, K.FUNCTION, K.TAPE})


# what an index computed from a prediction went through: no gradient, and not on purpose
_INDEX_CUTS = NONDIFF_FUNCS | {"indices", "int_cast"}
# attributes of a module that are its parameters
_PARAMETER_ATTRS = frozenset({"weight", "bias", "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "in_proj_weight", "in_proj_bias"})


class ExpressionsMixin(_Base):
    EXPRESSIONS = {
        cst.Name: "_e_name",
        cst.Attribute: "_e_stored",
        cst.Call: "_e_call",
        cst.BinaryOperation: "_e_binop",
        cst.UnaryOperation: "_e_unary",
        cst.BooleanOperation: "_e_boolop",
        cst.Comparison: "_e_compare",
        cst.Subscript: "_e_stored",
        cst.Tuple: "_e_seq",
        cst.List: "_e_seq",
        cst.Set: "_e_seq",
        cst.Dict: "_e_dict",
        cst.ListComp: "_e_comp",
        cst.SetComp: "_e_comp",
        cst.GeneratorExp: "_e_comp",
        cst.DictComp: "_e_comp",
        cst.Lambda: "_e_lambda",
        cst.IfExp: "_e_ifexp",
        cst.Integer: "_e_number",
        cst.Float: "_e_number",
        cst.Imaginary: "_e_number",
        cst.SimpleString: "_e_string",
        cst.ConcatenatedString: "_e_string",
        cst.FormattedString: "_e_fstring",
        cst.Await: "_e_await",
        cst.Yield: "_e_yield",
        cst.NamedExpr: "_e_walrus",
        cst.StarredElement: "_e_starred",
        cst.Ellipsis: "_e_empty",
    }

    def eval(self, node: cst.BaseExpression | None, st: State) -> Val:
        if node is None:
            return EMPTY
        h = self._expr.get(type(node))
        if h is None:
            return EMPTY
        return h(node, st)

    def _e_empty(self, node, st: State) -> Val:
        return EMPTY

    def _e_number(self, node, st: State) -> Val:
        c = literal(node)
        return Val(kind=K.NUMBER, attrs={F.CONST: c} if is_const(c) else None)

    def _e_string(self, node, st: State) -> Val:
        c = literal(node) if isinstance(node, cst.SimpleString) else NOCONST
        return Val(kind=K.STR, attrs={F.CONST: c} if is_const(c) else None)

    def _e_fstring(self, node: cst.FormattedString, st: State) -> Val:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                self.eval(part.expression, st)
        return Val(kind=K.STR)

    def _e_await(self, node, st: State) -> Val:
        return self.eval(node.expression, st)

    def _e_yield(self, node: cst.Yield, st: State) -> Val:
        if node.value is not None and not isinstance(node.value, cst.From):
            st.act.yields.append(self.eval(node.value, st))
        elif isinstance(node.value, cst.From):
            st.act.yields.append(self.eval(node.value.item, st))
        return EMPTY

    def _e_walrus(self, node: cst.NamedExpr, st: State) -> Val:
        v = self.eval(node.value, st)
        self.bind(node.target, v, st, node)
        return v

    def _e_starred(self, node, st: State) -> Val:
        return self.eval(node.value, st)

    def eval_test(self, test: cst.BaseExpression, st: State) -> Val:
        """The value of an `if`/`while`/conditional test, told to the rules (a "branch" use:
        Python asks it for a bool)."""
        v = self.eval(test, st)
        self.emit(UseEvent(test, st.ctx, "branch", v))
        return v

    def _e_ifexp(self, node: cst.IfExp, st: State) -> Val:
        # a test known on this path (`state is None` once a state is carried) takes one branch, as an `if` does
        const = self.eval_test(node.test, st).get(F.CONST, NOCONST)
        if const is True or const is False:
            return self.eval(node.body if const else node.orelse, st)
        if not isinstance(node.body, cst.Call) and not isinstance(node.orelse, cst.Call):
            return join([self.eval(node.body, st), self.eval(node.orelse, st)])
        # `scaler.scale(loss).backward() if amp else loss.backward()`: one arm runs, so what the
        # first does (free a graph, rebind by walrus) is not seen by the second
        a, b = st.fork(), st.fork()
        values = [self.eval(node.body, a), self.eval(node.orelse, b)]
        st.absorb([a, b])
        return join(values)

    def _e_boolop(self, node: cst.BooleanOperation, st: State) -> Val:
        return join([self.eval(node.left, st), self.eval(node.right, st)])

    def _e_unary(self, node: cst.UnaryOperation, st: State) -> Val:
        v = self.eval(node.expression, st)
        if isinstance(node.operator, cst.Not):
            c = v.get(F.CONST)
            # `not self.freeze` of a known flag: `set_grad_enabled(not freeze)` decides the mode
            return Val(kind=K.BOOL, attrs={F.CONST: not c} if isinstance(c, (bool, int, str)) else None)
        if v.kind == K.NUMBER:
            c = literal(node)
            return Val(kind=K.NUMBER, attrs={F.CONST: c} if is_const(c) else None)
        return v

    # ---------------------------------------------------------------- names
    def _e_name(self, node: cst.Name, st: State) -> Val:
        return self.lookup(node.value, st)

    def lookup(self, name: str, st: State) -> Val:
        v = st.env.get(name)
        if v is not None:
            return v
        for env in st.act.closure:
            v = env.get(name)
            if v is not None:
                return v
        v = self.genv.get(name)
        if v is not None:
            if self._deps is not None and v.kind in (K.FUNCTION, K.CLASS, K.JAXFN, K.BOUND):
                self._depend_on_val(v)
            return self.global_with_evidence(name, v, st)
        if name in ("True", "False", "None"):
            c = {"True": True, "False": False, "None": None}[name]
            return Val(kind=K.NONE if c is None else K.BOOL, attrs={F.CONST: c})
        if name in BUILTIN_NAMES:
            return ref(f"builtins.{name}")
        return EMPTY

    def _depend_on_val(self, v: Val) -> None:
        fn = v.get(F.FN)
        if fn is not None:
            self.depend(fn.node)
        cls = v.get(F.CLS)
        if cls is not None:
            self.depend(cls.node)
        info = v.get(F.JAXFN)
        if info is not None and info.fn is not None:
            self.depend(info.fn.node)

    def _e_stored(self, node: cst.Attribute | cst.Subscript, st: State) -> Val:
        """A value read from an object or a container; one still holding a graph a backward freed
        (an RNN state kept on `self`, in a dict) is noted: the next operation that takes the graph
        in names this read as where it came back (op_result, GL201)."""
        v = self._e_attribute(node, st) if isinstance(node, cst.Attribute) else self._e_subscript(node, st)
        if st.freed and v.graphs and not v.graphs.isdisjoint(st.freed):
            self.freed_read.update({g: node for g in v.graphs & st.freed})
        return v

    def _e_attribute(self, node: cst.Attribute, st: State) -> Val:
        attr = node.attr.value
        full = dotted_name(node)
        if full is not None:
            v = st.env.get(full)
            if v is None:
                for env in st.act.closure:
                    v = env.get(full)
                    if v is not None:
                        break
            if v is None and "." in full and full.split(".", 1)[0] not in st.env:
                v = self.genv.get(full)
            if v is not None:
                return v
        base = self.eval(node.value, st)
        if self._inspected and id(node) in self._inspected and (base.live or base.cuts):
            self.emit(InspectEvent(node, st.ctx, DiffKind.INSPECT, base, node.value))
        out = self.attribute_of(base, attr, node, st)
        if isinstance(node.value, cst.Name) and node.value.value == "self" and st.act.fn is not None and st.act.fn.cls is not None:
            # state held by the object outlives the call (optimizer state, caches)
            if out.kind not in (K.FUNCTION, K.BOUND, K.REF, K.CLASS) and not out.get(F.PERSISTENT):
                out = out.with_fact(F.PERSISTENT, True)
        return out

    def attribute_of(self, base: Val, attr: str, node, st: State) -> Val:
        kind = base.kind
        if kind == K.REF:
            return self.resolved_ref(frameworks.canonical(f"{base.attrs[F.QUAL]}.{attr}"))
        if kind == K.CLASS:
            info: ClassInfo = base.attrs[F.CLS]
            m = info.find_method(attr)
            if m is not None:
                return Val(kind=K.FUNCTION, attrs={F.FN: m, F.UNBOUND: True})
            if attr == "apply" and info.is_autograd_fn:
                return Val(kind=K.AUTOGRAD_APPLY, attrs={F.CLS: info})
            return EMPTY
        names = base.get(F.ITEM_NAMES)
        if names is not None and attr in names and base.get(F.ITEMS) is not None:
            return base.attrs[F.ITEMS][names.index(attr)]  # `torch.max(x, 1).indices`
        if attr in frameworks.META_ATTRS:
            return Val(kind=K.META)
        if attr == "__class__":
            # a type has no autograd history and is no module: `entries.__class__(*fields)` (a
            # namedtuple rebuilt from detached fields, ShangtongZhang/DeepRL PPO) holds only
            # what it is given (META: not a value whose use could prove it a module)
            info = base.get(F.CLS) if kind in (K.INSTANCE, K.MODULE) else None
            return Val(kind=K.CLASS, attrs={F.CLS: info}) if isinstance(info, ClassInfo) else Val(kind=K.META)
        if attr == "grad":
            self.emit(UseEvent(node, st.ctx, "grad", base))
            return self._grad_of(base, node)
        if attr == "data" and data_is_tensor_storage(base):
            c = Cut("data", node, hard=False)
            out = cut(base, c, kind=base.kind, attrs=propagate(base.attrs, Op.DATA))
            return out.with_facts({F.DATA_OF: True, F.DATA_BASE: base})
        if attr in _SAME_VALUE_ATTRS:
            return base
        if kind in (K.INSTANCE, K.MODULE) and base.attrs and F.CLS in base.attrs:
            info = base.attrs[F.CLS]
            m = info.find_method(attr)
            if m is not None:
                return Val(base.live, base.cuts, base.notes, base.graphs, K.BOUND, {F.FN: m, F.SELF: base})
            if attr in info.elided:
                return Val(kind=None, attrs={F.ELIDED_METHOD: attr})
            entry = frameworks.jax.flax_entry(info, attr)
            if entry is not None:  # `jax.jit(model.apply)`: __call__, without the variables
                return Val(base.live, base.cuts, base.notes, base.graphs, K.BOUND,
                           {F.FN: entry[0], F.SELF: base, F.SKIP_ARGS: entry[1]})
            fields = base.get(F.FIELDS)
            if fields and attr in fields:
                return fields[attr]
            if attr == "training" and kind == K.MODULE and isinstance(fields, dict) and info.framework == "torch":
                # a module is in training mode until `.eval()` (set_training); a forward run on its
                # own is analysed as the model being trained
                return Val(kind=K.BOOL, attrs={F.CONST: True})
            facts = self.class_facts(info)
            if attr in facts:
                return self.proven_field_view(info, attr, self._fact_view(base, facts[attr]), node)
            # set where the analysis does not look (a base class, a setup method): what the
            # class's own uses of `self.<attr>` prove it is
            proven = self.self_attribute_by_evidence(info, attr, node)
            if proven is not None:
                return proven
        if kind == K.MODULE:
            if attr in ("trainable_variables", "trainable_weights", "variables", "weights"):
                return Val(base.live, kind=K.PARAMS, attrs={F.FW: base.get(F.FW), F.CLS: base.get(F.CLS), F.FIELDS: base.get(F.FIELDS)})
            if attr in _PARAMETER_ATTRS:
                # `model.weight`, `layer.bias`: a parameter of the module
                return Val(base.live, kind=K.TENSOR, attrs={F.FW: base.get(F.FW) or "torch", F.LEAF: True, F.PARAM: True})
            if base.get(F.CLS) is not None:
                # not set by __init__ (inherited, set elsewhere): could be anything
                o = Origin(K.ORIGIN_SYM, f"{attr}", node, certain=False, framework=base.get(F.FW) or "torch")
                return Val(frozenset({o}), kind=None, attrs={F.FW: base.get(F.FW)} if base.get(F.FW) else None)
            # an attribute of a module whose class the analysis does not see: a submodule when it
            # is called (`model.encoder(x)`), otherwise a value that is not the module's history
            # (`model.num_classes`, `model.training`)
            return Val(kind=None, attrs={F.MEMBER_OF: base})
        member_of = base.get(F.MEMBER_OF)
        if member_of is not None:
            if attr in _PARAMETER_ATTRS:
                return Val(member_of.live, kind=K.TENSOR, attrs={F.FW: member_of.get(F.FW) or "torch", F.LEAF: True, F.PARAM: True})
            # `model.backbone.fc`: still part of the module
            return Val(kind=None, attrs={F.MEMBER_OF: member_of})
        if kind == K.OPTIMIZER:
            if attr == "param_groups":
                return _param_groups(base)
            return EMPTY
        if kind in _OPAQUE:
            return EMPTY
        if base is EMPTY:
            return EMPTY
        # unknown object: its attributes derive from it (e.g. `outputs.logits`)
        return Val(base.live, base.cuts, base.notes, base.graphs, None, propagate(base.attrs, Op.ATTRIBUTE))

    def _grad_of(self, base: Val, node) -> Val:
        origins = base.live or frozenset(o for o, _ in base.cuts)
        return Val(kind=K.TENSOR, attrs={F.GRAD_OF: origins or frozenset({node}), F.FW: base.get(F.FW) or "torch", F.DTYPE: base.get(F.DTYPE)})

    # ---------------------------------------------------------------- containers
    def _e_subscript(self, node: cst.Subscript, st: State) -> Val:
        base = self.eval(node.value, st)
        idx_vals = []
        for el in node.slice:
            sl = el.slice
            if isinstance(sl, cst.Index):
                idx_vals.append(self.eval(sl.value, st))
            elif isinstance(sl, cst.Slice):
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        bound = self.eval(part, st)
                        if st.ctx.traced is not None:
                            # `a[:k]` inside a JAX transform: slice entries must be static
                            self.emit(UseEvent(part, st.ctx, "slice_bound", bound))
        if base.kind == K.REF:
            return base  # typing subscripts: Optional[...], Tensor[...]
        if base.get(F.MEMBER_OF) is not None:
            return base  # `model.blocks[0]`: a submodule
        if base.kind == K.MODULE and base.get(F.CLS) is None:
            # `heads["age"]` of an nn.ModuleDict, `layers[0]` of a Sequential: a submodule
            return _layer_of(base)
        items = base.get(F.ITEMS)
        key = single_index_const(node)
        if items is not None and isinstance(key, int) and -len(items) <= key < len(items):
            return items[key]
        keys = base.get(F.KEYS)
        if isinstance(keys, dict) and isinstance(key, str) and key in keys:
            return keys[key]
        other = base.get(F.OTHER_KEYS)
        if other is not None and isinstance(key, str):
            return other  # `group["lr"]` of a param group: a hyperparameter, not the parameters
        if base.kind == K.DICT:
            # d[k] with k unknown: any of its values (iterating a dict gives keys, indexing values)
            vals = list(keys.values()) if isinstance(keys, dict) and keys else []
            item = join(vals + [Val(base.live, base.cuts, base.notes, base.graphs)]) if vals else Val(base.live, base.cuts, base.notes, base.graphs)
            if base.get(F.PERSISTENT) and not item.get(F.PERSISTENT):
                item = item.with_fact(F.PERSISTENT, True)
            return item
        if base.kind in (K.CONTAINER, K.LIST, K.TUPLE, K.GRAD, K.PARAMS):
            item = self.iter_val(base)
            if base.get(F.PERSISTENT) and not item.get(F.PERSISTENT):
                item = item.with_fact(F.PERSISTENT, True)
            return item
        if base.kind in (K.META, K.NUMBER, K.STR):
            return Val(kind=K.META) if base.kind == K.META else EMPTY
        unseen = base.get(F.UNSEEN_OUTPUT)
        if isinstance(key, str) and unseen in base.graphs:
            # `prediction["v"]` of a network whose code is not seen: a string key proves a
            # mapping of several outputs, and which of the network's nodes each one went through
            # is not known (an actor-critic's separate heads share none), so each key is its own
            # part of the call's graph node: a backward through one does not free the other
            # (ShangtongZhang/DeepRL PPO: policy and value losses, each with its own optimizer)
            piece = (unseen[0], unseen[1], key)
            self._graph_origins[piece] = self._graph_origins.get(unseen, base.live)
            return Val(base.live, base.cuts, base.notes, (base.graphs - {unseen}) | {piece},
                       base.kind if base.kind == K.TENSOR else None, propagate(base.attrs, Op.INDEX))
        # tensor indexing: a view of the same history
        attrs = propagate(base.attrs, Op.INDEX)
        if F.EXACT in attrs and any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.Comparison, cst.UnaryOperation, cst.BinaryOperation))
                                    for e in node.slice):
            del attrs[F.EXACT]  # `x[x > 0]`: a mask by value may be exactly what removes the zeros
        if picks_by_index(node):
            attrs[F.PICKED] = node
        if base.get(F.LEAF) and (base.get(F.PARAM) or base.get(F.RG)) and not base.graphs and _basic_index(node):
            # `bar = foo[10:, 10:]` of a leaf that requires grad: a view (basic indexing), so
            # changing it in place changes the leaf (a computed index would copy)
            attrs[F.LEAF_VIEW] = True
        cuts = base.cuts
        if not base.live and any(v.cuts for v in idx_vals):
            # `centers[pred.argmax(1)]`: a constant table read at an index computed through an
            # operation with no gradient depends on the prediction only through that cut
            # (not a detach, `.data`, no_grad: an index sampled by priorities read through `.data`
            # is data, its history was cut on purpose)
            cuts = cuts | frozenset(oc for v in idx_vals if not v.live for oc in v.cuts if oc[1].kind in _INDEX_CUTS)
        return Val(base.live, cuts, base.notes, base.graphs, base.kind if base.kind == K.TENSOR else None, attrs)

    def _e_seq(self, node, st: State) -> Val:
        vals = []
        for e in node.elements:
            v = self.eval(e.value, st)
            vals.append(v)
        kind = K.TUPLE if isinstance(node, cst.Tuple) else K.LIST if isinstance(node, cst.List) else K.CONTAINER
        attrs = {F.ITEMS: tuple(vals)} if not any(isinstance(e, cst.StarredElement) for e in node.elements) else None
        return combine(vals, kind=kind, attrs=attrs)

    def _e_dict(self, node: cst.Dict, st: State) -> Val:
        vals = []
        keys: dict[str, Val] = {}
        every_key = True  # every key is a constant string: KEYS lists the whole dict
        for e in node.elements:
            if isinstance(e, cst.DictElement):
                k = const_of(e.key)
                v = self.eval(e.value, st)
                self.eval(e.key, st)
                if isinstance(k, str):
                    keys[k] = v
                else:
                    every_key = False
                vals.append(v)
            else:
                every_key = False
                vals.append(self.eval(e.value, st))
        # `out = {}` then `out["loss"] = ...` (a forward filling its outputs by key): the empty
        # dict has KEYS too, so the stores into it stay per key
        return combine(vals, kind=K.DICT, attrs={F.KEYS: keys} if keys or every_key else None)

    def _e_comp(self, node, st: State) -> Val:
        # a comprehension is a loop: run it as iteration 0, and again as iteration 1 when the
        # first pass differentiated or stepped something (a tape used per element) or changed
        # an object (`[cell(x) for x in xs]` with a cell that keeps its state on `self`)
        # The outermost iterable is evaluated once, before the loop, in the enclosing scope
        # (`[norm(g) for g in tape.gradient(loss, vs)]` takes one gradient)
        outer = self.eval(node.for_in.iter, st)
        n_diff, n_stores = self._diff_count, self._attr_stores
        first = self._e_comp_once(node, st, 0, outer)
        if self._diff_count != n_diff or self._attr_stores != n_stores:
            first = join([first, self._e_comp_once(node, st, 1, outer)])
        return first.with_fact(F.ONE_SHOT, node) if isinstance(node, cst.GeneratorExp) else first

    def _e_comp_once(self, node, st: State, iteration: int, outer: Val) -> Val:
        inner = st.fork()
        inner.ctx = st.ctx.replace(loops=st.ctx.loops + ((node, iteration),))
        f = node.for_in
        while f is not None:
            it = outer if f is node.for_in else self.eval(f.iter, inner)
            self.bind(f.target, self.iter_val(it), inner, node)
            for cond in f.ifs:
                self.eval(cond.test, inner)
            f = f.inner_for_in
        if isinstance(node, cst.DictComp):
            self.eval(node.key, inner)
            elt = self.eval(node.value, inner)
            kind = K.DICT
        else:
            elt = self.eval(node.elt, inner)
            kind = K.LIST
        # events and freed graphs inside the comprehension are real; the bindings are not
        st.freed = inner.freed
        st.used = inner.used
        st.gflag = inner.gflag
        return Val(elt.live, elt.cuts, elt.notes, elt.graphs, kind, {F.ELEM: elt})

    def _e_lambda(self, node: cst.Lambda, st: State) -> Val:
        fn = self._fn_by_node.get(id(node))
        if fn is None:
            closure = (st.env,) + st.act.closure if st.act.fn is not None else ((st.env,) if st.env is not self.genv else ())
            fn = FunctionInfo(node, "<lambda>", "<lambda>", None, closure)
            fn.is_lambda = True
            self._read_params(fn, node.params, st)
            self._fn_by_node[id(node)] = fn
            self.functions.append(fn)
        return Val(kind=K.FUNCTION, attrs={F.FN: fn})

    def iter_val(self, v: Val) -> Val:
        """The value of one element of iterable `v`."""
        if v.get(F.MEMBER_OF) is not None:
            return v  # `for block in model.blocks`: submodules of the module
        if v.kind == K.MODULE and v.get(F.CLS) is None:
            return _layer_of(v)  # `for layer in nn.ModuleList(...)`
        elem = v.get(F.ELEM)
        if elem is not None:
            return elem
        items = v.get(F.ITEMS)
        if items is not None:
            return join(items) if items else EMPTY
        keys = v.get(F.KEYS)
        if isinstance(keys, dict) and keys and v.kind == K.DICT:
            return Val(kind=K.STR)
        if v.kind == K.PARAMS:
            return Val(v.live, kind=K.TENSOR, attrs={F.LEAF: True, F.PARAM: True, F.FW: v.get(F.FW) or "torch"})
        if v.kind in (K.NUMBER, K.STR, K.META, K.REF):
            return EMPTY
        if v.kind == K.TENSOR:
            return Val(v.live, v.cuts, v.notes, v.graphs, K.TENSOR, propagate(v.attrs, Op.ITERATE_TENSOR))
        return Val(v.live, v.cuts, v.notes, v.graphs, None, propagate(v.attrs, Op.ITERATE))

    # ---------------------------------------------------------------- operators
    def _e_compare(self, node: cst.Comparison, st: State) -> Val:
        left = self.eval(node.left, st)
        rights = []
        ops = []
        for c in node.comparisons:
            rights.append(self.eval(c.comparator, st))
            ops.append(CMP.get(type(c.operator), "?"))
        self.emit(CompareEvent(node, st.ctx, left, ops, rights, node.left, [c.comparator for c in node.comparisons]))
        if len(ops) == 1 and ops[0] in ("is", "is not") and rights[0].kind == K.NONE:
            # `h is not None`: decided when h is known to be None or a real object, so that
            # `if h is not None: h = h.detach()` runs exactly on the iterations it does
            known = none_ness(left)
            if known is not None:
                return Val(kind=K.BOOL, attrs={F.CONST: known if ops[0] == "is" else not known})
        vals = [left] + rights
        if any(v.kind == K.TENSOR or v.get(F.FW) or v.live for v in vals) and not all(o in ("is", "is not", "in", "not in") for o in ops):
            compared = Cut("compare", node, hard=False)
            # a mask holds exact zeros (its False entries): a product with it is exactly 0 there
            attrs: dict = {F.DTYPE: "bool", F.FW: fw_of(vals), F.EXACT: F.Exact(True, False, node)}
            staged = first_fact(vals, F.STAGED)
            if staged is not None:
                attrs[F.STAGED] = staged  # a comparison of a staged jax value is staged too
            return cut(combine(vals), compared, kind=K.TENSOR, attrs=attrs)
        if len(ops) == 1 and ops[0] in ("==", "!="):
            # `self.activation == 'relu'` with the field set from a constructor argument: decided,
            # so that only the branch the object takes runs (a block built with activation='None'
            # returns its input unchanged)
            a, b = left.get(F.CONST, NOCONST), rights[0].get(F.CONST, NOCONST)
            if isinstance(a, (str, bool, int)) and isinstance(b, (str, bool, int)) and type(a) is type(b):
                return Val(kind=K.BOOL, attrs={F.CONST: (a == b) == (ops[0] == "==")})
        return Val(kind=K.BOOL)

    def _e_binop(self, node: cst.BinaryOperation, st: State) -> Val:
        left = self.eval(node.left, st)
        right = self.eval(node.right, st)
        op = OPS.get(type(node.operator), "?")
        res = self._arith(node, st, [left, right], op=op)
        bev = BinOpEvent(node, st.ctx, op, left, right, res)
        self.emit(bev)
        if bev.notes:
            res = res.add_notes(bev.notes)
        return res

    def _arith(self, node, st: State, vals: list[Val], op: str) -> Val:
        a, b = vals[0], vals[1]
        if a.kind == K.NUMBER and b.kind == K.NUMBER and a.is_empty and b.is_empty:
            ca, cb = a.get(F.CONST, NOCONST), b.get(F.CONST, NOCONST)
            c = fold(op, ca, cb)
            return Val(kind=K.NUMBER, attrs={F.CONST: c} if is_const(c) else None)
        if a.kind in (K.LIST, K.TUPLE) and b.kind in (K.LIST, K.TUPLE) and op == "+":
            ia, ib = a.get(F.ITEMS), b.get(F.ITEMS)
            if isinstance(ia, tuple) and isinstance(ib, tuple):
                # `(loss,) + outputs`: the elements stay where they are (`[0]` is the loss)
                return combine(vals, kind=a.kind, attrs={F.ITEMS: ia + ib})
            return combine(vals, kind=a.kind)
        if a.kind == K.STR or b.kind == K.STR:
            return Val(kind=K.STR)
        saves = op in ("*", "/", "**", "@", "//", "%")
        out = self.op_result(node, st, vals, saves=saves)
        if saves and st.ctx.grad == "on" and isinstance(node, cst.BinaryOperation):
            # mul/matmul/div save an operand when the *other* one needs a gradient; pow saves its base
            for operand, v, other in ((node.left, a, b), (node.right, b, a)):
                needed = bool(other.live) or (op == "**" and operand is node.left)
                if not (certainly_computed(v) and needed):
                    continue
                if isinstance(operand, cst.Name):
                    st.mark_saved(operand.value, node)
                elif (base := torch_overlay.viewed_name(operand)) is not None and (bv := st.env.get(base.value)) is not None \
                        and bv.kind == K.TENSOR:
                    # `q @ k.transpose(-2, -1)`, `h[:, t - 1] @ w`: a view shares its base's version counter
                    st.mark_saved(base.value, node)
        attrs: dict = {}
        fw = fw_of(vals)
        if fw:
            attrs[F.FW] = fw
            if fw == "jax":
                attrs[F.JAX_ARRAY] = True  # arithmetic on JAX values yields arrays
            elif fw == "tf" and stays_tf_constant(vals):
                attrs[F.TFCONST] = True  # `tf.cast(raw, tf.float32) / 255.0`
        dt = dtype_of(vals)
        if dt:
            attrs[F.DTYPE] = dt
        shape = broadcast_shape(vals)
        if shape is not None:
            attrs[F.SHAPE] = shape
        n = numel(vals)
        if n:
            attrs[F.NUMEL] = n
        if all(v.get(F.SCALAR) or v.kind == K.NUMBER for v in vals) and any(v.get(F.SCALAR) for v in vals):
            attrs[F.SCALAR] = True
            reduced = max((v.get(F.REDUCED_FROM) or 0 for v in vals), default=0)
            if reduced:
                attrs[F.REDUCED_FROM] = reduced  # `loss_plus - loss_minus`: a difference of two sums of n values
        elif any(v.get(F.SCALAR) is False for v in vals):
            attrs[F.SCALAR] = False
        if any(v.get(F.TRACED) for v in vals):
            attrs[F.TRACED] = True
        staged = first_fact(vals, F.STAGED)
        if staged is not None:
            attrs[F.STAGED] = staged
        exact = product_exact(op, vals, node)
        if exact is not None:
            attrs[F.EXACT] = exact
        squares = squares_after_binop(op, vals, node, lambda term: st.env.get(term.value) if isinstance(term, cst.Name) else None)
        if squares is not None:
            attrs[F.SQUARES] = squares
        guarded = guarded_after_binop(op, vals, node)
        if guarded is not None:
            attrs[F.GUARDED] = guarded
        if op == "@" or (op == "*" and any(v.get(F.MATMUL) is not None for v in vals) and any(v.kind == K.NUMBER for v in vals)):
            attrs[F.MATMUL] = next((v.get(F.MATMUL) for v in vals if v.get(F.MATMUL) is not None), node)  # `2 * (a @ b)` too
        if st.ctx.grad == "inference":
            attrs[F.INFERENCE] = st.ctx.grad_node or node
        elif any(v.get(F.INFERENCE) for v in vals):
            attrs[F.INFERENCE] = next(v.get(F.INFERENCE) for v in vals if v.get(F.INFERENCE))
        if any(v.get(F.RG) and v.get(F.LEAF) and not v.graphs for v in vals):
            attrs[F.NONLEAF_FROM] = node  # `torch.randn(..., requires_grad=True) * 0.01`
        if st.ctx.grad == "on":
            # arithmetic on a value the code backpropagates has history too (`epoch_ll += loss`
            # with a loss from a function the analysis cannot see, proven by `loss.backward()`)
            history = next((h for v in vals if (h := v.get(F.HISTORY)) is not None and h.value == "yes"), None)
            if history is not None:
                attrs[F.HISTORY] = history
        if op == "@":
            shapes = [v.get(F.SHAPE) for v in vals]
            if all(sh is not None and len(sh) == 1 for sh in shapes):
                attrs[F.SCALAR] = True
            else:
                attrs.pop(F.SCALAR, None)
        kind = K.TENSOR if any(v.kind in (K.TENSOR, K.GRAD) for v in vals) else out.kind
        if kind is None and (fw or any(o.certain for o in out.live)):
            kind = K.TENSOR
        return Val(out.live, out.cuts, out.notes, out.graphs, kind, attrs or None)


def _param_groups(opt: Val) -> Val:
    """`optimizer.param_groups`: a list of dicts whose `"params"` are the parameters the
    optimizer updates and whose other keys (`lr`, `weight_decay`, a user's `lr_scale`) are
    numbers. Only `group["params"]` carries the parameters: `lr * group["lr_scale"]` is a
    learning rate, not a value computed from the model."""
    params = Val(frozenset(opt.get(F.OPT_PARAMS) or ()), kind=K.PARAMS, attrs={F.FW: opt.get(F.FW) or "torch"})
    group = Val(kind=K.DICT, attrs={F.KEYS: {"params": params}, F.OTHER_KEYS: Val(kind=K.NUMBER)})
    return Val(kind=K.LIST, attrs={F.ELEM: group})


def _layer_of(container: Val) -> Val:
    """One layer of a library container module (an element of an nn.ModuleList, a layer of a
    Sequential, a value of a ModuleDict): part of the container, sharing its origin. Every
    layer of a ModuleList built from activation-ending blocks keeps its output for backward."""
    attrs = {F.FW: container.get(F.FW) or "torch"}
    if container.get(F.OUTPUT_SAVED) and (container.get(F.QUAL_NEW) or "").endswith("ModuleList"):
        attrs[F.OUTPUT_SAVED] = True
    if container.get(F.LAYER_QUAL):
        attrs[F.LAYER_QUAL] = container.get(F.LAYER_QUAL)
    return Val(container.live, kind=K.MODULE, attrs=attrs)


def _basic_index(node: cst.Subscript) -> bool:
    """Only literal positions and slices of literals (`x[0]`, `x[10:, :5]`, `x[..., None]`):
    indexing that returns a view of the tensor, not a copy."""
    def literal(e) -> bool:
        if e is None:
            return True
        if isinstance(e, cst.UnaryOperation):
            e = e.expression
        return isinstance(e, (cst.Integer, cst.Ellipsis)) or isinstance(e, cst.Name) and e.value == "None"

    for el in node.slice:
        sl = el.slice
        if isinstance(sl, cst.Slice):
            if not (literal(sl.lower) and literal(sl.upper) and literal(sl.step)):
                return False
        elif not (isinstance(sl, cst.Index) and literal(sl.value)):
            return False
    return True
