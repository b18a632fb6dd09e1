"""Statements: bindings and stores, definitions, branches, loops, `with`, imports.

Branches run on copies of the state (`State.fork`) that are joined afterwards (`absorb`);
loop bodies run twice (see `_loop`), so what iteration k leaves behind reaches iteration k+1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..frameworks import jax as jax_overlay
from ..events import AssignEvent, AttrSetEvent, InplaceEvent, StoreEvent, enter_grad_mode

from ..names import NOCONST, OPS, const_of, dotted_name, root_name, single_index_const
from ..queries import computed_by_autograd, data_is_tensor_storage, freeze
from ..walk import stored_names
from ..values import EMPTY, Cut, Val, combine, cut, extended_list, ref
from .state import AnalysisBudgetExceeded, ClassInfo, FunctionInfo, State, TapeInfo

if TYPE_CHECKING:  # pragma: no cover
    from .host import InterpreterHost as _Base
else:
    _Base = object



_GRAPH_ATTRS = frozenset({"grad_fn", "requires_grad"})


def _inspects_graph(node) -> bool:
    """`x.grad_fn` / `x.requires_grad`: asks whether x carries a graph."""
    return isinstance(node, cst.Attribute) and node.attr.value in _GRAPH_ATTRS

class StatementsMixin(_Base):
    STATEMENTS = {
        cst.SimpleStatementLine: "_s_simple_line",
        cst.FunctionDef: "_s_funcdef",
        cst.ClassDef: "_s_classdef",
        cst.If: "_s_if",
        cst.For: "_s_for",
        cst.While: "_s_while",
        cst.With: "_s_with",
        cst.Try: "_s_try",
        cst.TryStar: "_s_try",
        cst.Match: "_s_match",
    }
    SMALL_STATEMENTS = {
        cst.Expr: "_s_expr",
        cst.Assign: "_s_assign",
        cst.AugAssign: "_s_augassign",
        cst.AnnAssign: "_s_annassign",
        cst.Return: "_s_return",
        cst.Import: "_s_import",
        cst.ImportFrom: "_s_importfrom",
        cst.Raise: "_s_raise",
        cst.Pass: "_s_nothing",
        cst.Break: "_s_loop_exit",
        cst.Continue: "_s_loop_exit",
        cst.Del: "_s_del",
        cst.Global: "_s_nothing",
        cst.Nonlocal: "_s_nothing",
        cst.Assert: "_s_assert",
    }

    def exec_block(self, stmts: Iterable[cst.CSTNode], st: State) -> None:
        for stmt in stmts:
            if st.dead:
                return
            handler = self._stmt.get(type(stmt))
            if handler is None:
                # the body of a one-line compound statement (`if c: x = x.unsqueeze(0)`, a
                # SimpleStatementSuite) holds small statements directly
                handler = self._small.get(type(stmt))
                if handler is None:
                    continue
            self.steps += 1
            if self.steps > self.budget:
                raise AnalysisBudgetExceeded()
            try:
                handler(stmt, st)
            except (AnalysisBudgetExceeded, RecursionError):
                raise
            except Exception as exc:  # an analysis bug must not hide the rest of the file
                self.errors.append((stmt, exc))

    def _s_simple_line(self, node: cst.SimpleStatementLine, st: State) -> None:
        for small in node.body:
            if st.dead:
                return
            h = self._small.get(type(small))
            if h is not None:
                h(small, st)

    def _s_nothing(self, node, st: State) -> None:
        pass

    def _s_expr(self, node: cst.Expr, st: State) -> None:
        call = node.value
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "print":
            marks = [a.value for a in call.args if _inspects_graph(a.value)]
            if marks:
                self._eval_inspecting(call, marks, st)
                return
        self.eval(call, st)

    def _s_assert(self, node: cst.Assert, st: State) -> None:
        test = node.test
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            # `assert out.grad_fn is not None`
            cmp = test.comparisons[0]
            if isinstance(cmp.operator, cst.IsNot) and isinstance(cmp.comparator, cst.Name) and cmp.comparator.value == "None":
                test_attr = test.left
            else:
                test_attr = None
        else:
            test_attr = test  # `assert out.requires_grad`
        if test_attr is not None and _inspects_graph(test_attr):
            self._eval_inspecting(node.test, [test_attr], st)
            return
        self.eval(test, st)

    def _eval_inspecting(self, expr, marks: list, st: State) -> None:
        """Evaluate `expr`, reporting what the attributes in `marks` inspect (see InspectEvent)."""
        before = self._inspected
        self._inspected = before | {id(m) for m in marks}
        try:
            self.eval(expr, st)
        finally:
            self._inspected = before

    def _s_raise(self, node, st: State) -> None:
        if node.exc is not None:
            self.eval(node.exc, st)
        st.dead = True

    def _s_loop_exit(self, node, st: State) -> None:
        """`break` and `continue` alike: the state joins the loop's next pass and what follows
        the loop (for `break`, a safe over-approximation)."""
        if st.act.loop_exits:
            st.act.loop_exits[-1].append(st.fork())
        st.dead = True

    def _s_return(self, node: cst.Return, st: State) -> None:
        v = self.eval(node.value, st) if node.value is not None else Val(kind=K.NONE)
        st.act.returns.append(v)
        st.dead = True

    def _s_del(self, node: cst.Del, st: State) -> None:
        target = node.target
        targets = target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
        for t in targets:
            name = dotted_name(t.value if isinstance(t, cst.Element) else t)
            if name is not None:
                st.env.pop(name, None)

    def _s_import(self, node: cst.Import, st: State) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if alias.asname is not None:
                st.env[alias.asname.name.value] = self.resolved_ref(frameworks.canonical(full))
            else:
                head = full.split(".", 1)[0]
                st.env[head] = ref(head)
            self._note_framework(full)

    def _s_importfrom(self, node: cst.ImportFrom, st: State) -> None:
        if node.module is None:
            base = "." * len(node.relative)
        else:
            base = "." * len(node.relative) + (dotted_name(node.module) or "")
        self._note_framework(base)
        absolute = self.absolute_import(node, st, base)  # with a project: `..losses` -> `pkg.losses`
        if isinstance(node.names, cst.ImportStar):
            if absolute is not None:
                self.star_import(absolute, st)
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            bound = alias.asname.name.value if alias.asname is not None else name
            if absolute is not None:
                st.env[bound] = self.resolved_ref(frameworks.canonical(f"{absolute}.{name}"))
                continue
            qual = frameworks.canonical(f"{base}.{name}") if not base.endswith(".") else f"{base}{name}"
            st.env[bound] = ref(qual)

    def _note_framework(self, qual: str) -> None:
        fw = frameworks.framework_of(frameworks.canonical(qual.lstrip(".")))
        if fw:
            self.frameworks.add(fw)

    # ---------------------------------------------------------------- assignment
    def _s_assign(self, node: cst.Assign, st: State) -> None:
        v = self.eval(node.value, st)
        for t in node.targets:
            self.bind(t.target, v, st, node, value_node=node.value)

    def _s_annassign(self, node: cst.AnnAssign, st: State) -> None:
        if node.value is None:
            return
        v = self.eval(node.value, st)
        self.bind(node.target, v, st, node, value_node=node.value)

    def _s_augassign(self, node: cst.AugAssign, st: State) -> None:
        target = node.target
        old = self.eval(target, st)
        value = self.eval(node.value, st)
        op = OPS.get(type(node.operator), "?")
        name = dotted_name(target)
        tensorish = old.kind in (K.TENSOR, K.GRAD) or old.get(F.FW) in ("torch", "tf", "jax") or bool(old.live)
        if tensorish and old.get(F.FW) not in ("jax", "tf"):
            new = self.inplace_result(node, st, old, [value])
        else:
            new = self._arith(node, st, [old, value], op=op)
        if old.kind == K.CONTAINER or old.kind == K.LIST:  # (`layers += [conv, bn, relu]` holds them too)
            new = new.with_(kind=old.kind, attrs=extended_list(old, value) if old.kind == K.LIST and op == "+" else old.attrs)
        if tensorish and old.get(F.FW) != "jax":
            via_data = bool(old.get(F.DATA_OF))
            tgt = old.get(F.DATA_BASE) if via_data else old
            by = self.saved_by(st, name, old)
            self.emit(InplaceEvent(node, st.ctx, tgt, target, f"{op}=", via_data, name, by))
        if name is not None:
            self._attr_stores += isinstance(target, cst.Attribute)
            aev = AssignEvent(node, st.ctx, name, old, value, new, op, target)
            self.emit(aev)
            if aev.notes:
                new = new.add_notes(aev.notes)
            st.env[name] = new
        elif isinstance(target, cst.Subscript):
            root = root_name(target)
            if root is not None:
                aev = AssignEvent(node, st.ctx, root, old, value, new, op, target)
                self.emit(aev)
                if aev.notes:
                    new = new.add_notes(aev.notes)  # `losses[k] += loss`: the element carries it
            self._store_item(target, new, st, node, node.value)

    @staticmethod
    def saved_by(st: State, name: str | None, value: Val) -> cst.CSTNode | None:
        """The operation that saved the tensor bound to `name` (or `value` itself: its output,
        or an input it kept, SAVED_INPUT) for backward, on this path; None when nothing did, or
        when a backward already walked that operation's graph (freed: nothing left to break)."""
        by: Any
        if name is not None and name in st.saved_by:
            by = st.saved_by[name]
        else:
            by = st.saved_through_alias(name) if name is not None else ...
            if by is ...:
                by = value.get(F.SAVED_OUTPUT) or value.get(F.SAVED_INPUT)
        if by is not None and st.freed and any(g[0] is by for g in st.freed):
            return None  # a backward already walked (and freed) what that operation saved: nothing left to break
        return by

    def bind(self, target: cst.BaseExpression, v: Val, st: State, stmt, value_node=None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            old = st.env.get(name)
            if v.live and v.get(F.FRESH_ORIGIN):
                for o in v.live:
                    if o.label in ("", "?"):
                        o.label = name
            v = self.with_evidence(name, v, st, stmt)
            aev = AssignEvent(stmt, st.ctx, name, old, v, v, None, target)
            self.emit(aev)
            if aev.notes:
                v = v.add_notes(aev.notes)
            st.env[name] = v
            # attribute facts of the old binding do not survive a rebinding
            if old is not None:
                prefix = name + "."
                for k in [k for k in st.env if k.startswith(prefix)]:
                    del st.env[k]
                st.forget_saved(name)
            if isinstance(value_node, cst.Name) and value_node.value != name and v.kind in (K.TENSOR, K.GRAD) and v.live:
                st.alias_of[name] = st.alias_root(value_node.value)  # `x = token`: one tensor, two names
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            elems = [e.value for e in target.elements]
            items = v.get(F.ITEMS)
            star = any(isinstance(e, cst.StarredElement) for e in target.elements)
            if items is not None and len(items) == len(elems) and not star:
                for e, iv in zip(elems, items):
                    self.bind(e, iv, st, stmt)
            else:
                elem = self.iter_val(v)
                for e in elems:
                    if isinstance(e, cst.StarredElement):
                        self.bind(e.value, elem.with_(kind=K.LIST, attrs=None), st, stmt)
                    else:
                        self.bind(e, elem, st, stmt)
            return
        if isinstance(target, cst.StarredElement):
            self.bind(target.value, v, st, stmt)
            return
        if isinstance(target, cst.Attribute):
            self._store_attr(target, v, st, stmt, value_node)
            return
        if isinstance(target, cst.Subscript):
            self._store_item(target, v, st, stmt, value_node)
            return

    def _store_attr(self, target: cst.Attribute, v: Val, st: State, stmt, value_node) -> None:
        base_node = target.value
        base = self.eval(base_node, st)
        attr = target.attr.value
        base_name = dotted_name(base_node)
        self._attr_stores += st.act.fn is None or st.act.fn.name != "__init__"  # (not a new object's own fields)
        self.emit(AttrSetEvent(stmt, st.ctx, base, attr, v, base_name, value_node))
        if attr == "requires_grad" and base_name is not None:
            c = v.get(F.CONST, NOCONST)
            if computed_by_autograd(base) and c in (True, False):
                return  # a computed tensor's flag cannot change (RuntimeError, GL310): nothing changes
            if c is True:
                freeze(base, False)
                st.env[base_name] = self.make_requires_grad(base, target, base_name)
            elif c is False:
                freeze(base, True)
            return
        if attr == "data" and base_name is not None and data_is_tensor_storage(base):
            self.emit(InplaceEvent(stmt, st.ctx, base, base_node, "data=", True, base_name))
            return
        if attr == "grad":
            if v.kind == K.NONE:
                self.opt_event(stmt, st, "zero_grad", base)
            if base_name is not None and v.kind != K.NONE:
                st.env[f"{base_name}.grad"] = v
            elif base_name is not None:
                st.env.pop(f"{base_name}.grad", None)
            return
        self.emit(StoreEvent(stmt, st.ctx, "attr", base, base_node, base_name, v, value_node, attr))
        name = dotted_name(target)
        if name is not None:
            if v.live and v.kind in (K.TENSOR, K.MODULE):
                for o in v.live:
                    if o.label == "" and (o.node is not None and o.node is getattr(value_node, "func", None) or o.node is value_node
                                          or v.get(F.FRESH_ORIGIN)):
                        # `self.weight = nn.Parameter(...)`, `self.policy = Policy(...).to(device)`:
                        # made here, named by its attribute
                        o.label = name
            v = self.with_evidence(self._self_path(name, st), v, st, stmt)
            old = st.env.get(name)
            if old is None:
                old = self.attribute_of(base, attr, target, st)
            aev = AssignEvent(stmt, st.ctx, name, old, v, v, None, target)
            self.emit(aev)
            if aev.notes:
                v = v.add_notes(aev.notes)  # `self.avg = 0.9 * self.avg + 0.1 * loss`: a rule's marker on it
            st.env[name] = v
            # `model.fc = nn.Linear(...)`: the module now reaches what it holds. Objects are
            # field-sensitive otherwise: `args.n = model.n` says nothing about `args.lr`.
            if base_name is not None and base_name in st.env and v.live:
                old = st.env[base_name]
                if old.kind in (K.MODULE, K.INSTANCE) and not old.get(F.SYM):
                    st.env[base_name] = Val(old.live | v.live, old.cuts, old.notes, old.graphs, old.kind, old.attrs)

    def _self_path(self, name: str, st: State) -> str:
        """`this.model` in a method whose first parameter is `this`: evidence is kept per class
        as `self.model`."""
        fn = st.act.fn
        if fn is not None and fn.cls is not None and fn.params and not fn.is_static:
            me = fn.params[0][0]
            if me != "self" and (name == me or name.startswith(me + ".")):
                return "self" + name[len(me):]
        return name

    def _store_item(self, target: cst.Subscript, v: Val, st: State, stmt, value_node) -> None:
        container_node = target.value
        container = self.eval(container_node, st)
        # (a mask's own dependence, `b[p > t] = 1`: what is stored where depends on p, without a gradient)
        masks = [m for el in target.slice if isinstance(el.slice, cst.Index) and (m := self.eval(el.slice.value, st)).cuts and not m.live]
        root = root_name(target)
        sev = StoreEvent(stmt, st.ctx, "item", container, container_node, root, v, value_node)
        self.emit(sev)
        if sev.notes:
            v = v.add_notes(sev.notes)
        if container.kind in (K.TENSOR, K.GRAD) or container.get(F.FW) in ("torch", "tf", "jax"):
            via_data = bool(container.get(F.DATA_OF))
            by = self.saved_by(st, root, container)
            self.emit(InplaceEvent(stmt, st.ctx, container.get(F.DATA_BASE) if via_data else container, container_node, "[]=", via_data, root, by))
        if root is not None:
            old = st.env.get(root)
            if old is None:
                old = self.lookup(root, st) if "." not in root else EMPTY
            keys = old.get(F.KEYS) if old is not None else None
            key_const = single_index_const(target)
            if isinstance(keys, dict) and isinstance(key_const, str) and container_node is not None and dotted_name(container_node) == root:
                new_keys = dict(keys)
                new_keys[key_const] = v
                st.env[root] = Val(
                    old.live | v.live, old.cuts | v.cuts, old.notes | v.notes, old.graphs | v.graphs, old.kind,
                    {**(old.attrs or {}), F.KEYS: new_keys},
                )
            elif old is not None and (old.kind in (K.TENSOR,) or old.get(F.FW)):
                attrs = old.attrs
                if attrs and F.LEAF in attrs and not old.live and st.ctx.grad == "on" and any(o.certain for o in v.live):
                    # `b = torch.zeros_like(a); b[:, 0] = a[:, 0]`: b is now computed (CopySlices)
                    attrs = {k: x for k, x in attrs.items() if k != F.LEAF}
                st.env[root] = combine([old, v, *masks], kind=old.kind, attrs=attrs)
            else:
                kind = old.kind if old is not None and old.kind else K.CONTAINER
                attrs = {k: x for k, x in (old.attrs or {}).items() if k not in (F.ITEMS,)} if old is not None else None
                if attrs and attrs.get(F.ELEM) is not None:
                    # `losses[k] += loss`: what a later `losses[-1]` reads may be the new value
                    attrs[F.ELEM] = combine([attrs[F.ELEM], v])
                st.env[root] = combine([old or EMPTY, v], kind=kind, attrs=attrs or None)

    # ---------------------------------------------------------------- definitions
    def _s_funcdef(self, node: cst.FunctionDef, st: State, cls: ClassInfo | None = None) -> FunctionInfo:
        fn = self._fn_by_node.get(id(node))
        fresh = fn is None
        if fresh:
            qual = f"{cls.name}.{node.name.value}" if cls else node.name.value
            if st.act.fn is not None and cls is None:
                qual = f"{st.act.fn.qualname}.<locals>.{node.name.value}"
            closure = (st.env,) + st.act.closure if st.act.fn is not None else self._module_branch_env(st, cls)
            fn = FunctionInfo(node, node.name.value, qual, cls, closure)
            self._fn_by_node[id(node)] = fn
            self.functions.append(fn)
            self._read_params(fn, node.params, st)
            for dec in node.decorators:
                self._apply_decorator(fn, dec, st)
        else:
            # re-entered (loop iteration / inlined caller): refresh the closure to this env
            if st.act.fn is not None and cls is None:
                fn.closure = (st.env,) + st.act.closure
            elif st.act.fn is None and cls is None:
                fn.closure = self._module_branch_env(st, cls)
        val = Val(kind=K.FUNCTION, attrs={F.FN: fn})
        if fn.jit is not None and fn.jit.kind == "grad":
            val = jax_overlay.transformed_function(fn, node)  # @jax.grad: calls return gradients
        if cls is None:
            st.env[node.name.value] = val
        return fn

    def _module_branch_env(self, st: State, cls: ClassInfo | None) -> tuple:
        """A module-level function defined inside an `if __name__ == "__main__":` block or a loop:
        that code runs on a copy of the module's names, which the function must see (LBFGS's
        `closure()` reads the model made in the same block)."""
        return (st.env,) if cls is None and st.env is not self.genv else ()

    def _read_params(self, fn: FunctionInfo, params: cst.Parameters, st: State) -> None:
        for p in params.posonly_params:
            fn.params.append((p.name.value, "pos", p.annotation.annotation if p.annotation else None))
        for p in params.params:
            fn.params.append((p.name.value, "pos", p.annotation.annotation if p.annotation else None))
        if isinstance(params.star_arg, cst.Param):
            fn.params.append((params.star_arg.name.value, "star", None))
        for p in params.kwonly_params:
            fn.params.append((p.name.value, "kwonly", p.annotation.annotation if p.annotation else None))
        if params.star_kwarg is not None:
            fn.params.append((params.star_kwarg.name.value, "starstar", None))
        for p in list(params.posonly_params) + list(params.params) + list(params.kwonly_params):
            if p.default is not None:
                try:
                    fn.defaults[p.name.value] = self.eval(p.default, st)
                except Exception:
                    fn.defaults[p.name.value] = EMPTY

    def _apply_decorator(self, fn: FunctionInfo, dec: cst.Decorator, st: State) -> None:
        expr = dec.decorator
        call_args = None
        if isinstance(expr, cst.Call):
            call_args = expr.args
            expr = expr.func
        try:
            v = self.eval(expr, st)
        except Exception:
            return
        qual = frameworks.canonical(v.attrs[F.QUAL]) if v.kind == K.REF else None
        if qual is None:
            if isinstance(expr, cst.Name):
                fn.decorators.append(expr.value)
            if v.kind is None and v is not EMPTY and call_args is None:
                fn.wrapped = True  # alternatives met (a join): which one wraps it is not known
            return
        fn.decorators.append(qual)
        handler = frameworks.decorator(qual)
        if handler is not None:
            handler(self, fn, qual, dec, call_args, st)

    def _s_classdef(self, node: cst.ClassDef, st: State) -> None:
        info = ClassInfo(node, node.name.value)
        self.classes.append(info)
        for arg in node.bases:
            try:
                b = self.eval(arg.value, st)
            except Exception:
                continue
            if b.kind == K.REF:
                q = frameworks.canonical(b.attrs[F.QUAL])
                info.bases.append(q)
                roles = frameworks.class_roles(q)
                if "module" in roles:
                    info.is_module = True
                if "lightning" in roles:
                    info.is_lightning = True
                    info.is_module = True
                if "keras" in roles:
                    info.is_keras = info.is_module
                    info.framework = "tf"
                if q.startswith(("flax.", "haiku.", "equinox.")):
                    info.framework = "jax"
                if "autograd_function" in roles:
                    info.is_autograd_fn = True
                    info.is_module = False
                if "optimizer" in roles:
                    info.is_optimizer = True
                if "test" in roles:
                    info.is_test = True
                info.call_method = next((r[len("call:"):] for r in roles if r.startswith("call:")), info.call_method)
            elif b.kind == K.CLASS:
                parent: ClassInfo = b.attrs[F.CLS]
                info.bases.append(parent.name)
                info.parents.append(parent)
                info.is_module |= parent.is_module
                info.is_lightning |= parent.is_lightning
                info.is_autograd_fn |= parent.is_autograd_fn
                info.is_optimizer |= parent.is_optimizer
                info.call_method = info.call_method or parent.call_method
                info.is_keras |= parent.is_keras
                if parent.framework != "torch":
                    info.framework = parent.framework
                for mname, m in parent.methods.items():
                    info.methods.setdefault(mname, m)
                info.elided |= parent.elided
        inherited = dict(info.methods)
        info.methods = {}
        info.elided |= self.elided_members.get(id(node), frozenset())
        body = node.body.body
        class_env = st  # class bodies see enclosing names; methods close over the module
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                fn = self._s_funcdef(stmt, class_env, cls=info)
                info.methods[stmt.name.value] = fn
        for mname, m in inherited.items():
            info.methods.setdefault(mname, m)
        st.env[node.name.value] = Val(kind=K.CLASS, attrs={F.CLS: info})

    # ---------------------------------------------------------------- branches
    def _s_if(self, node: cst.If, st: State) -> None:
        test = self.eval_test(node.test, st)
        const = test.get(F.CONST, NOCONST)
        a = st.fork()
        if const is not False:
            self.exec_block(node.body.body, a)
        else:
            a.dead = True
        b = st.fork()
        if node.orelse is not None and const is not True:
            if isinstance(node.orelse, cst.If):
                self._s_if(node.orelse, b)
            else:
                self.exec_block(node.orelse.body.body, b)
        elif const is True:
            b.dead = True
        st.absorb([a, b])

    def _s_match(self, node: cst.Match, st: State) -> None:
        self.eval(node.subject, st)
        branches = []
        for case in node.cases:
            s = st.fork()
            self.exec_block(case.body.body, s)
            branches.append(s)
        s = st.fork()
        branches.append(s)
        st.absorb(branches)

    def _s_try(self, node, st: State) -> None:
        before = st.fork()
        self.exec_block(node.body.body, st)
        outs = []
        if node.orelse is not None and not st.dead:
            self.exec_block(node.orelse.body.body, st)
        outs.append(st.fork() if not st.dead else st)
        for h in node.handlers:
            s = before.fork()
            s.freed = st.freed | before.freed
            if h.name is not None and isinstance(h.name.name, cst.Name):
                s.env[h.name.name.value] = EMPTY
            self.exec_block(h.body.body, s)
            outs.append(s)
        was_dead = st.dead
        st.dead = False
        imported = {} if was_dead else _imported_with_fallback(node, outs[0])
        st.absorb(outs[1:] if was_dead else outs)
        # `try: from pytorch_lightning import LightningModule` / `except ImportError:` a stub of
        # it: the names the try imports are the library's (the stub stands in only where it is
        # missing); flags the handler sets (`HAS_APEX = False`) stay joined
        st.env.update(imported)
        if node.finalbody is not None:
            dead = st.dead
            st.dead = False
            self.exec_block(node.finalbody.body.body, st)
            st.dead = st.dead or dead

    def _s_with(self, node: cst.With, st: State) -> None:
        saved_ctx = st.ctx
        entered_tapes: list[TapeInfo] = []
        for item in node.items:
            v = self.eval(item.item, st)
            mode = v.get(F.GRAD_CTX)
            if mode is not None:
                new_mode = enter_grad_mode(st.ctx.grad, mode)
                if new_mode != st.ctx.grad or st.ctx.grad_node is None:
                    # (an enable_grad inside inference mode leaves the region where it was)
                    st.ctx = st.ctx.replace(grad=new_mode, grad_node=node)
            if v.get(F.AUTOCAST) is not None:
                st.ctx = st.ctx.replace(amp=v.get(F.AUTOCAST))
            tape = v.get(F.TAPE)
            if tape is not None and v.kind == K.TAPE:
                tape.active = True
                tape.with_node = node
                st.ctx = st.ctx.replace(tapes=st.ctx.tapes + (tape,))
                entered_tapes.append(tape)
            if item.asname is not None:
                self.bind(item.asname.name, v, st, node)
                if tape is not None and isinstance(item.asname.name, cst.Name):
                    tape.name = item.asname.name.value
        self.exec_block(node.body.body, st)
        for tape in entered_tapes:
            tape.active = False
        st.ctx = saved_ctx

    # ---------------------------------------------------------------- loops
    def _s_for(self, node: cst.For, st: State) -> None:
        it = self.eval(node.iter, st)
        elem = self.iter_val(it)
        # `for p in model.parameters(): p.grad = None`: a trained module's parameters are not
        # empty (without any, nothing here is trained), so the body runs
        params = it.kind == K.PARAMS and any(o.certain for o in it.live)
        runs = params or _runs_as_before(node, st.ctx.loops, self._loop_scopes)
        if elem.graphs and it.kind in _CONTAINERS:
            self._element_graphs[id(node)] = self._element_graphs.get(id(node), frozenset()) | elem.graphs
        self._loop(node, st, lambda s: self.bind(node.target, elem, s, node), node.body.body, node.orelse, always_runs=runs)
        detach = _detaches_loop_variable(node)
        if detach is not None and isinstance(node.iter, cst.Name) and node.iter.value in st.env:
            # `for s in state: s.detach_()` detaches every element of `state` in place (the
            # recurrent state of truncated BPTT): the container now holds detached tensors
            name = node.iter.value
            st.env[name] = _detached(st.env[name], Cut("detach", detach, hard=False))

    def _s_while(self, node: cst.While, st: State) -> None:
        self.eval_test(node.test, st)
        const = const_of(node.test)
        self._loop(node, st, lambda s: self.eval(node.test, s), node.body.body, node.orelse, always_runs=const is True)

    def _loop(self, node, st: State, head: Callable[[State], Any], body, orelse, always_runs: bool = False) -> None:
        saved_ctx = st.ctx
        unroll = self.LOOP_UNROLL if self._loop_depth < self.MAX_LOOP_NEST_UNROLLED else 1
        self._loop_depth += 1
        outs: list[State] = [] if always_runs else [st.fork()]
        exits: list[State] = []
        cur = st
        try:
            for i in range(unroll):
                s = cur.fork()
                s.ctx = saved_ctx.replace(loops=saved_ctx.loops + ((node, i),))
                st.act.loop_exits.append(exits)
                try:
                    head(s)
                    self.exec_block(body, s)
                finally:
                    st.act.loop_exits.pop()
                # `continue` states rejoin the next iteration; `break` states leave the loop
                conts = [e for e in exits if not e.dead]
                end = s.fork() if not s.dead else s
                if conts:
                    merged = end.fork()  # absorb() sets all of its flow state from the live states
                    merged.absorb(([end] if not end.dead else []) + conts)
                    end = merged
                outs.append(end)
                if end.dead:
                    break
                cur = end
        finally:
            self._loop_depth -= 1
        for o in outs:
            o.ctx = saved_ctx
        for e in exits:
            e.ctx = saved_ctx
        st.absorb(outs + exits)
        st.ctx = saved_ctx
        if orelse is not None and not st.dead:
            self.exec_block(orelse.body.body, st)


# iterables whose elements are distinct objects (not the rows of one tensor, which share its graph)
_CONTAINERS = frozenset({K.LIST, K.TUPLE, K.DICT, K.CONTAINER})


def _runs_as_before(node: cst.For, loops: tuple, cache: dict) -> bool:
    """`for _ in range(accum):` in a later iteration of an enclosing loop of the same function that
    assigns none of range's names: the trip count is the one of the first iteration. Had it been
    zero, the values it would leave behind are those from before the enclosing loop, not those of
    the previous iteration — so taking it as zero-trip here would carry over (and report as
    carried) values no run can carry."""
    rng = node.iter
    while isinstance(rng, cst.Call) and dotted_name(rng.func) == "reversed" and len(rng.args) == 1:
        rng = rng.args[0].value  # `reversed(range(T))`: the same trip count
    if not isinstance(rng, cst.Call) or dotted_name(rng.func) != "range":
        return False
    later = [loop for loop, i in loops if i >= 1]
    names = _count_names(rng) if later else None
    if names is None:
        return False
    for loop in later:  # outermost first; a caller's loops hold other functions' statements
        stored, loops_inside = _loop_scope(loop, cache)
        if id(node) in loops_inside:
            return not (names & stored)
    return False


_SIZE_METHODS = frozenset({"size", "dim", "numel"})  # a tensor's sizes change only when it is rebound


def _count_names(call: cst.Call) -> set[str] | None:
    """The root names a range's arguments read, or None when they do more than arithmetic on names,
    attributes and tensor sizes (`x.size(1)`, `x.shape[0]`); another call may count something
    that changes (`len(buffer)` of a buffer the loop appends to)."""
    names: set[str] = set()
    todo: list[cst.CSTNode] = [a.value for a in call.args]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _SIZE_METHODS:
            todo += [n.func.value] + [a.value for a in n.args]
        elif (isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape"
              and single_index_const(n) is not None):
            todo.append(n.value)
        elif isinstance(n, (cst.Integer, cst.Name, cst.Attribute)):
            root = root_name(n) if not isinstance(n, cst.Integer) else None
            if root is not None:
                names.add(root)
            elif not isinstance(n, cst.Integer):
                return None
        elif isinstance(n, cst.BinaryOperation):
            todo += [n.left, n.right]
        elif isinstance(n, cst.UnaryOperation):
            todo.append(n.expression)
        else:
            return None
    return names


def _loop_scope(loop, cache: dict) -> tuple[frozenset, frozenset]:
    """walk.stored_names of a loop, once per loop (a loop is unrolled, and reached from every call)."""
    hit = cache.get(id(loop))
    if hit is None:
        hit = cache[id(loop)] = stored_names(loop)
    return hit


def _detaches_loop_variable(node: cst.For) -> cst.Call | None:
    """The `s.detach_()` statement of `for s in xs: s.detach_()`, if the body has one."""
    if not isinstance(node.target, cst.Name):
        return None
    for stmt in node.body.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            call = small.value if isinstance(small, cst.Expr) else None
            if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "detach_"
                    and isinstance(call.func.value, cst.Name) and call.func.value.value == node.target.value):
                return call
    return None


def _detached(v: Val, c: Cut) -> Val:
    """`v` with every element detached (a tuple or list of tensors, or a tensor)."""
    items = v.get(F.ITEMS)
    attrs = dict(v.attrs) if v.attrs else {}
    if items is not None:
        attrs[F.ITEMS] = tuple(_detached(item, c) for item in items)
    elem = v.get(F.ELEM)
    if elem is not None:
        attrs[F.ELEM] = _detached(elem, c)
    return cut(v, c, kind=v.kind, attrs=attrs or None)


def _imported_with_fallback(node: cst.Try, out: State) -> dict[str, Val]:
    """The library objects a `try` imports (as its completed path binds them) when a handler
    catches ImportError/ModuleNotFoundError: name -> the import's value."""
    if not any(_catches_import_error(h) for h in node.handlers):
        return {}
    found: dict[str, Val] = {}
    for stmt in (s for line in node.body.body if isinstance(line, cst.SimpleStatementLine) for s in line.body):
        if isinstance(stmt, (cst.Import, cst.ImportFrom)) and not isinstance(stmt.names, cst.ImportStar):
            for alias in stmt.names:  # (`import a.b` binds `a`)
                name = alias.evaluated_alias or (alias.evaluated_name.split(".")[0] if isinstance(stmt, cst.Import) else alias.evaluated_name)
                if (v := out.env.get(name)) is not None and v.kind == K.REF:
                    found[name] = v
    return found


def _catches_import_error(h: cst.ExceptHandler) -> bool:
    t = h.type
    kinds = [e.value for e in t.elements] if isinstance(t, cst.Tuple) else [t]
    return any(dotted_name(k) in ("ImportError", "ModuleNotFoundError") for k in kinds if k is not None)
