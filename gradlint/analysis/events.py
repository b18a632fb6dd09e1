"""Events: what the interpreter saw, in program order, with the abstract values involved.

Rules subscribe to event types (`on_call`, `on_diff`, ...) and read these objects; they never
walk the tree themselves. A loop body is interpreted twice (iteration 0 and 1) and a function
is interpreted on its own and again where it is called, so one node can produce several
events; rules report per node and the engine removes duplicates.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from .kinds import StrEnum
from .values import EMPTY, Val


class DiffKind(StrEnum):
    """How something is differentiated."""

    BACKWARD = "backward"  # loss.backward(), torch.autograd.backward, accelerator.backward(loss)
    AUTOGRAD_GRAD = "autograd_grad"  # torch.autograd.grad(outputs, inputs)
    TAPE = "tape"  # tape.gradient / jacobian / batch_jacobian
    TF_GRAPH = "tf_graph"  # TensorFlow 1 graph mode: tf.gradients(ys, xs), optimizer.minimize(loss)
    JAX = "jax"  # the return value of a function given to jax.grad & co
    KERAS = "keras"  # a loss function given to Keras compile(loss=...)
    LIGHTNING = "lightning"  # what a LightningModule's training_step returns
    INSPECT = "inspect"  # print(x.grad_fn) / assert x.requires_grad: the code expects x to carry a graph


class Traced:
    """Inside a function traced by JAX: by which transform (`kind`: grad | jit | vjp), of which
    function, and where the transform was applied (None: a decorator). `reverse`: the traced
    arguments reverse-mode differentiation (grad, vjp, jacrev) flows back to, empty when the
    output is not differentiated that way (jit alone, jacfwd, jvp)."""

    __slots__ = ("kind", "fn", "node", "reverse")

    def __init__(self, kind: str, fn: Any, node: cst.CSTNode | None = None, reverse: frozenset = frozenset()) -> None:
        self.kind = kind
        self.fn = fn
        self.node = node
        self.reverse = reverse


def enter_grad_mode(current: str, mode: str) -> str:
    """The grad mode inside a context/decorator that sets `mode` entered from `current`.
    "enable" (`torch.enable_grad()`, `set_grad_enabled(True)`) turns grad mode on but does not
    leave inference mode: under `inference_mode()` autograd still records nothing (only
    `inference_mode(False)` leaves it)."""
    if mode == "enable":
        return current if current == "inference" else "on"
    return mode


class Ctx:
    """The dynamic context of an event: loops, grad mode, active tapes, function, call path."""

    __slots__ = ("loops", "grad", "grad_node", "tapes", "fn", "calls", "run", "traced", "amp", "entry", "_key")

    def __init__(
        self,
        *,
        loops: tuple = (),
        grad: str = "on",
        grad_node: cst.CSTNode | None = None,
        tapes: tuple = (),
        fn: Any = None,
        calls: tuple = (),
        run: int = 0,
        traced: Traced | None = None,
        amp: Any = None,
        entry: Any = None,
    ) -> None:
        self.loops = loops  # ((loop node, iteration index), ...) outermost first
        self.grad = grad  # "on" | "off" (no_grad) | "inference"
        self.grad_node = grad_node  # the with/decorator that set the grad mode
        self.tapes = tapes  # active TapeInfo objects, innermost last
        self.fn = fn  # FunctionInfo being interpreted (None: module level)
        self.calls = calls  # call nodes through which the current function was inlined
        self.run = run  # id of the top-level interpretation this belongs to
        self.traced = traced  # JAX tracing context (kind, function) when inside jax.grad/jit
        self.amp = amp  # the autocast CallEvent when inside `with torch.autocast(...)`
        # the function a standalone run started in (None: the module's own code): who calls it,
        # and under which grad mode, the file may not say
        self.entry = entry
        self._key: tuple | None = None

    def replace(self, **kw: Any) -> "Ctx":
        c = Ctx(
            loops=self.loops,
            grad=self.grad,
            grad_node=self.grad_node,
            tapes=self.tapes,
            fn=self.fn,
            calls=self.calls,
            run=self.run,
            traced=self.traced,
            amp=self.amp,
            entry=self.entry,
        )
        for k, v in kw.items():
            setattr(c, k, v)
        return c

    @property
    def key(self) -> tuple:
        """Identifies one dynamic instance of a node (loop iterations and call path)."""
        k = self._key
        if k is None:
            k = self._key = (tuple((id(n), i) for n, i in self.loops), tuple(id(c) for c in self.calls))
        return k

    @property
    def iteration(self) -> int:
        return self.loops[-1][1] if self.loops else 0

    def in_loop(self, node: cst.CSTNode) -> bool:
        return any(n is node for n, _ in self.loops)


class Event:
    __slots__ = ("node", "ctx", "seq")

    node: Any  # the syntax node (a cst.Call for a CallEvent, the statement for an assignment, ...)

    def __init__(self, node: cst.CSTNode, ctx: Ctx) -> None:
        self.node = node
        self.ctx = ctx
        self.seq = 0


class CallEvent(Event):
    """Any call. `qual` is the qualified name of the callee when known (`torch.where`),
    `method` the attribute name for `receiver.method(...)` calls."""

    __slots__ = ("qual", "method", "recv", "func", "args", "kwargs", "arg_nodes", "kw_nodes", "result", "notes", "name")

    def __init__(self, node, ctx, qual, method, recv, func, args, kwargs, arg_nodes, kw_nodes) -> None:
        super().__init__(node, ctx)
        # the callee's last name: "where" for torch.where, "backward" for loss.backward()
        self.name: str | None = qual.rsplit(".", 1)[-1] if qual else method
        self.qual: str | None = qual
        self.method: str | None = method
        self.recv: Val | None = recv
        self.func: Val = func
        self.args: list[Val] = args
        self.kwargs: dict[str, Val] = kwargs
        self.arg_nodes: list[cst.BaseExpression] = arg_nodes
        self.kw_nodes: dict[str, cst.BaseExpression] = kw_nodes
        self.result: Val = EMPTY
        self.notes: list | None = None

    def add_note(self, note) -> None:
        """Attach a Note to this call's result (rules call this from `on_call`)."""
        if self.notes is None:
            self.notes = []
        self.notes.append(note)

    def arg(self, index: int, name: str | None = None) -> Val | None:
        if name is not None and name in self.kwargs:
            return self.kwargs[name]
        if index is not None and 0 <= index < len(self.args):
            return self.args[index]
        return None

    def arg_node(self, index: int | None, name: str | None = None) -> cst.BaseExpression | None:
        if name is not None and name in self.kw_nodes:
            return self.kw_nodes[name]
        if index is not None and 0 <= index < len(self.arg_nodes):
            return self.arg_nodes[index]
        return None


class DiffEvent(Event):
    """Something is differentiated: `loss.backward()`, `torch.autograd.grad(out, ...)`,
    `tape.gradient(y, x)`, the return of a function given to `jax.grad`, a Keras loss,
    a Lightning `training_step` return."""

    __slots__ = (
        "kind", "target", "target_node", "sources", "source_node", "retain", "create_graph", "freed_hit", "element_hit", "stale_hit",
        "tape", "tape_method", "tape_name", "tape_used_before", "transform", "returns", "fn", "compile_call", "bindings", "fed_at",
    )

    def __init__(
        self,
        node,
        ctx,
        kind: DiffKind,
        target: Val,
        target_node,
        *,
        sources: Val | None = None,
        source_node=None,
        retain: bool | None = False,
        create_graph: bool | None = False,
        freed_hit: frozenset = frozenset(),
        element_hit: frozenset = frozenset(),
        stale_hit: dict | None = None,
        tape=None,
        tape_method: str | None = None,
        tape_name: str | None = None,
        tape_used_before: bool = False,
        transform=None,
        returns: Val | None = None,
        fn=None,
        compile_call=None,
        bindings: dict | None = None,
        fed_at: dict | None = None,
    ) -> None:
        super().__init__(node, ctx)
        self.kind = kind
        self.target = target  # what is differentiated (the loss)
        self.target_node = target_node
        self.sources = sources  # what it is differentiated with respect to (autograd.grad inputs, tape sources)
        self.source_node = source_node
        self.retain = retain  # retain_graph: True / False / None (unknown, e.g. a variable)
        self.create_graph = create_graph
        self.freed_hit = freed_hit  # graph nodes of the target whose buffers an earlier backward freed
        # those of them that came from the elements of a container an enclosing loop iterates:
        # each iteration may walk another element's graph (one value to the analysis)
        self.element_hit = element_hit
        # graph nodes of the target built before an optimizer step changed the parameters they
        # saved: {node: (the step's call, the origins it updated, those named by its parameters
        # (`D` of `D.parameters()`, not D's submodules), the origins the node used)}
        self.stale_hit = stale_hit or {}
        # TAPE: the TapeInfo, the method (gradient/jacobian/batch_jacobian), the tape's name,
        # and whether a non-persistent tape was used before on this path
        self.tape = tape
        self.tape_method = tape_method
        self.tape_name = tape_name
        self.tape_used_before = tape_used_before
        # JAX: the JaxTransform and what the function returns; JAX/KERAS: the FunctionInfo
        self.transform = transform
        self.returns = returns
        self.fn = fn
        self.compile_call = compile_call  # KERAS: the compile(...) call
        # when freed_hit is not empty: the names bound on this path at the backward (name ->
        # Val), to find which of them brought the freed graph here; read during the event only
        self.bindings = bindings
        # freed graph node -> the operation that first took it in again after it was freed (or
        # the attribute/item read that brought it: Interpreter.freed_fed), kept with the event
        self.fed_at = fed_at or {}


class OptEvent(Event):
    """Optimizer bookkeeping: `kind` is step | zero_grad | unscale | clip. `prev` is the
    previous gradient event on this path: ("backward" | "zero" | "zero_after_backward" |
    "step", node) or None when paths disagree."""

    __slots__ = ("kind", "target", "prev")

    def __init__(self, node, ctx, kind: str, target: Val, prev=None) -> None:
        super().__init__(node, ctx)
        self.kind = kind  # step | zero_grad | unscale | clip
        self.target = target
        self.prev = prev


class TransformedCallEvent(Event):
    """A call of a function transformed by jax.grad/value_and_grad/jit/vmap/vjp (`g(x, 2)` for
    `g = jax.grad(f)`): `transform` says which transform of which function."""

    __slots__ = ("transform", "args", "kwargs", "arg_nodes", "kw_nodes")

    def __init__(self, node, ctx, transform, args: list[Val], kwargs: dict[str, Val], arg_nodes, kw_nodes) -> None:
        super().__init__(node, ctx)
        self.transform = transform
        self.args = args
        self.kwargs = kwargs
        self.arg_nodes = arg_nodes
        self.kw_nodes = kw_nodes


class AssignEvent(Event):
    """`name = value` (and augmented `name op= value`, with `old` and `op`)."""

    __slots__ = ("name", "old", "value", "new", "op", "target_node", "notes")

    def __init__(self, node, ctx, name: str, old: Val | None, value: Val, new: Val, op: str | None, target_node) -> None:
        super().__init__(node, ctx)
        self.name = name
        self.old = old
        self.value = value
        self.new = new
        self.op = op  # None for plain assignment, "+", "-", ... for augmented
        self.target_node = target_node
        self.notes: list | None = None

    def add_note(self, note) -> None:
        """Attach a Note to the value the name is bound to."""
        if self.notes is None:
            self.notes = []
        self.notes.append(note)


class StoreEvent(Event):
    """A value stored somewhere that outlives the statement: `obj.attr = v`, `c[k] = v`,
    `c.append(v)`. `container` is the value of the object written into."""

    __slots__ = ("kind", "container", "container_node", "root", "value", "value_node", "attr", "notes")

    def __init__(self, node, ctx, kind, container, container_node, root, value, value_node, attr=None) -> None:
        super().__init__(node, ctx)
        self.kind = kind  # attr | item | append
        self.container = container
        self.container_node = container_node
        self.root = root  # name of the variable at the root of the store target ("self.state")
        self.value = value
        self.value_node = value_node
        self.attr = attr
        self.notes: list | None = None

    def add_note(self, note) -> None:
        """Attach a Note to the stored value (the container then carries it)."""
        if self.notes is None:
            self.notes = []
        self.notes.append(note)


class InplaceEvent(Event):
    """A tensor modified in place: `x += y`, `x.add_(y)`, `x[i] = v`, `x.data.clamp_()`."""

    __slots__ = ("target", "target_node", "how", "via_data", "name", "saved_by")

    def __init__(self, node, ctx, target: Val, target_node, how: str, via_data: bool, name: str | None, saved_by=None) -> None:
        super().__init__(node, ctx)
        self.target = target
        self.target_node = target_node
        self.how = how
        self.via_data = via_data
        self.name = name
        # the call/operation that saved this tensor for backward earlier on this path, if any
        self.saved_by = saved_by


class CompareEvent(Event):
    __slots__ = ("left", "ops", "rights", "left_node", "right_nodes")

    def __init__(self, node, ctx, left: Val, ops: list[str], rights: list[Val], left_node, right_nodes) -> None:
        super().__init__(node, ctx)
        self.left = left
        self.ops = ops
        self.rights = rights
        self.left_node = left_node
        self.right_nodes = right_nodes


class BinOpEvent(Event):
    """`left op right` (not augmented assignments, which are AssignEvents)."""

    __slots__ = ("op", "left", "right", "result", "notes")

    def __init__(self, node, ctx, op: str, left: Val, right: Val, result: Val) -> None:
        super().__init__(node, ctx)
        self.op = op
        self.left = left
        self.right = right
        self.result = result
        self.notes: list | None = None

    def add_note(self, note) -> None:
        if self.notes is None:
            self.notes = []
        self.notes.append(note)


class UseEvent(Event):
    """A read that rules care about: `name` is "grad" for `x.grad` (value: x), "branch" for the
    test of an `if`, `while` or conditional expression (value: the test's)."""

    __slots__ = ("name", "value")

    def __init__(self, node, ctx, name: str, value: Val) -> None:
        super().__init__(node, ctx)
        self.name = name
        self.value = value


class FunctionEvent(Event):
    """A function interpreted on its own (`kind="standalone"`) or inlined at a call."""

    __slots__ = ("fn", "kind", "returns", "params")

    def __init__(self, node, ctx, fn, kind: str, returns: Val, params: dict) -> None:
        super().__init__(node, ctx)
        self.fn = fn
        self.kind = kind
        self.returns = returns
        self.params = params


class AttrSetEvent(Event):
    """`x.requires_grad = True`, `p.grad = None`, `x.data = ...` and other attribute writes."""

    __slots__ = ("target", "attr", "value", "target_name", "value_node")

    def __init__(self, node, ctx, target: Val, attr: str, value: Val, target_name, value_node) -> None:
        super().__init__(node, ctx)
        self.target = target
        self.attr = attr
        self.value = value
        self.target_name = target_name
        self.value_node = value_node


class InspectEvent(DiffEvent):
    """The code inspects whether a value carries a graph, expecting it to: `print(loss.grad_fn)`,
    `print(y.requires_grad)`, `assert out.requires_grad`, `assert out.grad_fn is not None` (kind
    INSPECT; `node` is the inspected attribute, `target` the value). Evidence of intent, not a
    differentiation: only rules about values that silently lose their graph subscribe
    (`on_inspect`), and they ignore a cut made in the inspecting function itself (a
    demonstration of what detach does)."""

    __slots__ = ()


EVENT_HOOKS = {
    CallEvent: "on_call",
    DiffEvent: "on_diff",
    InspectEvent: "on_inspect",
    OptEvent: "on_opt",
    AssignEvent: "on_assign",
    StoreEvent: "on_store",
    InplaceEvent: "on_inplace",
    CompareEvent: "on_compare",
    BinOpEvent: "on_binop",
    UseEvent: "on_use",
    FunctionEvent: "on_function",
    AttrSetEvent: "on_attrset",
    TransformedCallEvent: "on_transformed_call",
}
