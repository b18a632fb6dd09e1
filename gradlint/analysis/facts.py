"""The facts a value may carry, each with its join and the operations it survives.

A `Val` (values.py) has a `kind` (`Kind`, kinds.py) and a small dict of *facts*: its dtype, the
origins it is the gradient of, whether an object holds it... Every fact is declared here once,
with
- `join`: what the value of the fact is where two paths meet (`Join.EQUAL`: kept when both
  paths agree, otherwise unknown and dropped; `Join.UNION`: the union of both sides' sets,
  kept even when one side lacks it; `Join.TRI`: a three-valued fact, see below;
  `Join.PER_ELEMENT`: a container's elements, joined element by element);
- `survives`: the operation classes (`Op`) that carry it from their input to their output.
  `propagate(attrs, op)` is the only place that decides what a view, a cast, a detach... keeps:
  a rule that needs a new fact declares it here and it flows everywhere it should.

The interpreter and the overlays read and write facts through these names (`F.DTYPE`), never
through string literals; `tests/analysis/test_facts.py` runs the analysis over the corpora and
fails on any fact that is not declared.

Three-valued facts (the open-world analysis, issue 13) are declared with `join=Join.TRI`; their
value is an `Evidence(Tri.YES | Tri.NO | Tri.UNKNOWN, node)`: where two paths meet they keep the
first path's evidence when both say the same, and become unknown (dropped) otherwise:

    HAS_HISTORY = fact("has_history", "the value has autograd history (evidence: the node that
                       proves it, e.g. a backward() of it)", join=Join.TRI,
                       survives={Op.INDEX, Op.VIEW, Op.MOVE, Op.FLOAT_CAST, Op.CLONE})
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Mapping

from .kinds import DEFINING_FACT, StrEnum


# ------------------------------------------------------------------------------- facts
class Join(Enum):
    EQUAL = "equal"  # kept where both paths agree (identical or ==), else dropped (unknown)
    UNION = "union"  # sets: the union of both paths, kept when only one path has it
    # a fact that holds on some path is what the rule needs ("may be an inference tensor": the
    # path that made it raises): kept when either path has it (the first path's value)
    ANY = "any"
    # kept (the first path's value) when every path has it, whatever the values: "some
    # operation saved this tensor" holds for an item of a list of ReLU outputs, each saved by
    # its own ReLU
    EVERY = "every"
    TRI = "tri"  # Evidence: kept (first path's evidence) when both paths give the same Tri
    # Vals: joined themselves (ELEM), or position by position where both are as long (ITEMS):
    # a replay buffer of `(state, action, reward)` tuples appended in a loop keeps its fields
    # apart, so `b[0]` of a sampled transition is the states, not everything it holds
    PER_ELEMENT = "per_element"


class Op(Enum):
    """Classes of operations that make a value from another one (see `propagate`)."""

    DATA = "x.data"
    ATTRIBUTE = "attribute of an unknown object (`outputs.logits`)"
    INDEX = "indexing a tensor"
    ITERATE_TENSOR = "an element of a tensor"
    ITERATE = "an element of an unknown iterable"
    MODULE_OUTPUT = "the output of a module whose forward() is in the file"
    DETACH_FN = "torch.detach(x)"
    DETACH = "x.detach()"
    CLONE = "x.clone()"
    FLOAT_CAST = "x.float()/.double()/.half()"
    MOVE = "x.to()/.cuda()/.cpu()/.type()/.contiguous()"
    VIEW = "x.view()/.reshape()/.transpose()/... (views)"


@dataclass(frozen=True)
class FactSpec:
    name: str
    doc: str
    join: Join
    survives: frozenset


FACTS: dict[str, FactSpec] = {}


def fact(name: str, doc: str, *, join: Join = Join.EQUAL, survives: Iterable[Op] = ()) -> str:
    """Declare a fact; returns its name (the key in `Val.attrs`)."""
    if name in FACTS:
        raise ValueError(f"fact {name!r} declared twice")
    FACTS[name] = FactSpec(name, doc, join, frozenset(survives))
    return name


_ALL_TENSOR_OPS = set(Op) - {Op.MODULE_OUTPUT}

# --- what the value is
FW = fact("fw", "the framework of the value: torch | tf | jax | np", survives=_ALL_TENSOR_OPS)
CONST = fact("const", "the Python value of a literal (numbers, strings, True/False/None)")
DTYPE = fact(
    "dtype", "float64 | float32 | float16 | bfloat16 | int | bool | complex64 | complex128",
    survives={Op.DATA, Op.INDEX, Op.ITERATE_TENSOR, Op.MODULE_OUTPUT, Op.DETACH_FN, Op.DETACH, Op.CLONE, Op.MOVE, Op.VIEW},
)
SHAPE = fact(
    "shape", "the shape, when the code states it (tuple of ints)",
    survives={Op.DATA, Op.MODULE_OUTPUT, Op.DETACH_FN, Op.DETACH, Op.CLONE, Op.FLOAT_CAST, Op.MOVE},
)
NUMEL = fact(
    "numel", "an order of magnitude of the number of elements",
    survives={Op.DATA, Op.DETACH, Op.CLONE, Op.FLOAT_CAST, Op.MOVE},
)
SCALAR = fact(
    "scalar", "True: a 0-dim value (a loss); False: it keeps a batch dimension; None: unknown",
    survives={Op.MODULE_OUTPUT, Op.DETACH, Op.CLONE, Op.FLOAT_CAST, Op.MOVE},
)
REDUCED_FROM = fact("reduced_from", "numel of the tensor a full reduction (x.sum()) was taken of")
NP_FUNC = fact("np_func", "the numpy function that made this array")
STARRED = fact("starred", "an element of a `*args` argument")

# --- containers and objects
ITEM_NAMES = fact("item_names", "the field names of a named tuple's ITEMS (`torch.max(x, 1)`: (\"values\", \"indices\")): "
                  "`.indices` reads the item")
ITEMS = fact("items", "the elements of a tuple/list literal, in order (tuple of Vals)", join=Join.PER_ELEMENT,
             survives={Op.MODULE_OUTPUT})
ELEM = fact("elem", "what one element of an iterable is (a Val)", join=Join.PER_ELEMENT, survives={Op.MODULE_OUTPUT})
KEYS = fact("keys", "the values of a dict's string keys (dict[str, Val])", survives={Op.MODULE_OUTPUT})
OTHER_KEYS = fact("other_keys", "what a dict's constant string keys not in KEYS hold (a Val): an optimizer's param group holds numbers besides 'params'")
FIELDS = fact("fields", "an object's attributes as its methods set them (a mutable dict, shared like the object)")
PERSISTENT = fact("persistent", "held by an object (`self.x`): it outlives the call", survives={Op.DATA, Op.ATTRIBUTE, Op.INDEX})
SUBMODULE_OF = fact("submodule_of", "an attribute of a module whose class is not in the file")

# --- callables and references
QUAL = fact("qual", "qualified name of a library module/class/function (REF), or of the class an object was made from")
LAYER_QUAL = fact("layer_qual", "for an nn.ModuleList of library layers of one class (`ModuleList([nn.Linear(8, 2) for _ in ...])`), "
                  "and for each layer read from it: that class (`torch.nn.Linear`)")
QUAL_NEW = fact("qual_new", "the library class a module was constructed from (`torch.nn.Linear`)")
FN = fact("fn", "the FunctionInfo of a FUNCTION or BOUND value")
SELF = fact("self", "the receiver of a BOUND method")
UNBOUND = fact("unbound", "a method read off its class (`Class.method(obj, ...)`)")
CLS = fact("cls", "the ClassInfo of a CLASS, of an INSTANCE/MODULE of it, or of an optimizer subclass")
JAXFN = fact("jaxfn", "the JaxTransform of a JAXFN value (which transform, of which function)")
PARTIAL_ARGS = fact("partial_args", "arguments bound by functools.partial")
SKIP_ARGS = fact("skip_args", "leading arguments a bound method ignores: flax's `model.apply(variables, x)` runs "
                 "`__call__(x)`")
PARTIAL_KEYWORDS = fact("partial_keywords", "the names of the keyword arguments functools.partial binds")
TAPE = fact("tape", "the TapeInfo of a TAPE value")
GRAD_CTX = fact("grad_ctx", "the grad mode a context manager sets: on | off | inference | enable (grad on, inference mode kept)")
AUTOCAST = fact("autocast", "the CallEvent of the torch.autocast(...) a context manager is")
DEVICE = fact("device", "the device type ('cuda', 'cpu', ...) a torch.device(...) denotes; its str() and attributes "
              "(`device.type`) keep it", survives={Op.ATTRIBUTE})

# --- autograd
GRAD_OF = fact(
    "grad_of", "the origins whose .grad buffer this is (frozenset)",
    survives={Op.DATA, Op.INDEX, Op.DETACH, Op.FLOAT_CAST, Op.MOVE, Op.VIEW},
)
GRAD_RESULT = fact("grad_result", "the call (autograd.grad, tape.gradient, jax.grad) whose gradients this is")
GRAD_DERIVED = fact("grad_derived", "computed from a gradient (a reduction or a method of one)")
CREATED_BY_GRAD = fact("created_by_grad", "an element of what torch.autograd.grad returned")
LEAF = fact("leaf", "a leaf tensor (created by a factory, not computed)", survives={Op.DATA})
PARAM = fact("param", "a parameter of a module")
LAYERS = fact("layers", "the layers of an `nn.Sequential(a, b, ...)`, in order (a tuple of module values): calling it runs them")
OUTPUT_SAVED = fact("output_saved", "a torch module whose call keeps its *output* for backward: an activation "
                    "(`nn.Sigmoid()`), or an `nn.Sequential` whose last layer is one")
ACTS_AS = fact("acts_as", "the functional op a call of this library module computes last (`nn.Softmax(dim=1)`, a Keras "
               "`Dense(4, activation=\"softmax\")`, a Sequential ending in one: \"softmax\"): the call's event carries "
               "that name, so a rule that knows `torch.softmax(z)` knows the module forms")
INPLACE_MODULE = fact("inplace_module", "an activation or dropout module built with inplace=True (`nn.ReLU(inplace=True)`): it overwrites its input")
LEAF_VIEW = fact("leaf_view", "a view of a leaf that requires grad (`conv.bias.view(3, -1)`): changing it in place changes the leaf",
                 survives={Op.VIEW, Op.INDEX})
RG = fact("rg", "requires_grad was switched on")
RG_SET_AT = fact("rg_set_at", "where requires_grad was switched on")
NONLEAF_FROM = fact("nonleaf_from", "the operation that made a non-leaf from a leaf that requires grad (`.to(device)`); "
                    "a may-fact: on the path that made it, .grad stays None; a move, cast or view of it is one too "
                    "(`x.double().to(device)`, `x.permute(2, 0, 1).unsqueeze(0)`)", join=Join.ANY,
                    survives={Op.FLOAT_CAST, Op.MOVE, Op.VIEW})
RETAINS_GRAD = fact("retains_grad", "x.retain_grad() was called")
FRESH_ORIGIN = fact("fresh_origin", "the value's origin was created here: the first name it is bound to labels it")
CREATED = fact("created", "the node that created the value (module, tensor, scaler)")
NOT_FOLLOWED = fact("not_followed", "the result of a call of the code's own function that the analysis did not follow (too deep): "
                   "what it did is unknown, as are the gradients it may have cleared")
ELIDED_METHOD = fact("elided_method", "a method of the class that the cheap first pass left out of the analysed code "
                     "(prefilter): calling it is not followed, as beyond the inlining depth")
SYM = fact("sym", "a parameter of a function analysed on its own (its name), or derived from one", survives={Op.ATTRIBUTE, Op.INDEX, Op.VIEW})
FROZEN = fact("frozen", "a module attribute whose parameters had requires_grad switched off")
OPT_PARAMS = fact("opt_params", "the origins an optimizer updates (frozenset)", join=Join.UNION)
WATCHED_BY = fact("watched_by", "ids of the GradientTapes watching this tensor (frozenset)", join=Join.UNION)
INFERENCE = fact(
    "inference", "made under torch.inference_mode (the with/decorator node); detaching it or taking a view keeps it one",
    survives={Op.INDEX, Op.ITERATE_TENSOR, Op.MODULE_OUTPUT, Op.MOVE, Op.VIEW, Op.DETACH, Op.DETACH_FN}, join=Join.ANY,
)
NO_GRAD_MADE = fact(
    "no_grad_made", "a torch operation computed this with gradients off: (the grad mode, off | inference, and the "
    "with/decorator/def that set it); "
    "it has no grad_fn whatever its inputs were; kept by views, lost by any other operation",
    survives={Op.INDEX, Op.VIEW, Op.MOVE},
)
REGRAD_NO_GRAD = fact("regrad_no_grad", "requires_grad was switched on (the node) for a value computed with gradients off "
                      "(NO_GRAD_MADE): a new leaf, with no path to what it was computed from")
SAVED_OUTPUT = fact("saved_output", "the operation that saved this tensor (its output) for backward: kept when a module's forward returns it, "
                    "and by its views and `.detach()` (they share its version counter, so an in-place change of one breaks that backward)",
                    survives={Op.INDEX, Op.MODULE_OUTPUT, Op.VIEW, Op.DETACH}, join=Join.EVERY)
SAVED_INPUT = fact("saved_input", "an operation given this tensor kept it for backward (the call node): it travels with the value "
                   "into lists, returns and the next loop iteration, and with its views and `.detach()`",
                   survives={Op.INDEX, Op.VIEW, Op.DETACH})
DATA_OF = fact("data_of", "the value is `x.data`")
DATA_BASE = fact("data_base", "for `x.data`: the value of x")
SCALED = fact("scaled", "the loss was scaled by a GradScaler (its creation node)")
TRACED = fact(
    "traced", "a value traced by jax.grad/jit",
    survives={Op.INDEX, Op.ITERATE_TENSOR, Op.CLONE, Op.FLOAT_CAST, Op.MOVE, Op.VIEW},
)
STAGED = fact(
    "staged", "computed by a jax.numpy/lax operation inside a jitted function: a tracer even when made from constants "
    "or static arguments (omnistaging); the jax.numpy call that made a tracer from static values only, or True",
    survives={Op.INDEX, Op.ITERATE_TENSOR, Op.CLONE, Op.FLOAT_CAST, Op.MOVE, Op.VIEW},
)
JAX_ARRAY = fact("jax_array", "a JAX array (arithmetic and jnp results; a view, slice or cast of one is one too)",
                 survives={Op.VIEW, Op.INDEX, Op.ITERATE_TENSOR, Op.CLONE, Op.FLOAT_CAST, Op.MOVE})
AT_OF = fact("at_of", "the `x.at[...]` helper of a JAX array")
TFVAR = fact("tfvar", "a tf.Variable")
TFCONST = fact("tfconst", "a tf constant (not watched by a tape unless watched explicitly)")
# The evidence that a singular point (sqrt/norm/arctan2 at 0, cos at inf) is reached: a rule
# that says "this gradient is NaN" on ordinary-looking code needs the value to be proven there.
SQUARES = fact(
    "squares", "elementwise squares or a sum/mean of them, a variance, a mean squared error, a vector's dot product "
    "with itself, a product of such squared norms, a squared distance expanded as |x|^2 + |y|^2 - 2 x.y: 0 wherever "
    "the underlying vector is, where a square root of it has an infinite derivative (the node that made it)",
    survives={Op.INDEX, Op.ITERATE_TENSOR, Op.FLOAT_CAST, Op.MOVE, Op.VIEW, Op.CLONE},
)
GUARDED = fact("guarded", "kept away from 0 by an added epsilon (`u + 1e-8`, `n + eps`) or a positive lower clamp: its "
               "log, square root or reciprocal stays finite (the node)", survives={Op.INDEX, Op.FLOAT_CAST, Op.MOVE, Op.VIEW, Op.CLONE})
PICKED = fact("picked", "entries selected by a computed index, one per row (`p[a]`, `p[range(n), actions]`, "
              "`p.gather(1, a)`): the probability of an action taken, not the whole distribution (the node)",
              survives={Op.INDEX, Op.FLOAT_CAST, Op.MOVE, Op.VIEW, Op.CLONE})
MATMUL = fact("matmul", "a matrix product (`a @ b.T`, mm, matmul, bmm, einsum): the cross term of a squared distance "
              "expanded as |x|^2 + |y|^2 - 2 x.y (the node)", survives={Op.INDEX, Op.FLOAT_CAST, Op.MOVE, Op.VIEW, Op.CLONE})
EXACT = fact(
    "exact", "may contain exact zeros / infinities: an `Exact(zero, inf, node)` whose node proves it (a literal 0 or "
    "inf in the data, `zeros(...)`, a comparison mask, a product with such a value)",
    survives={Op.DATA, Op.INDEX, Op.ITERATE_TENSOR, Op.DETACH_FN, Op.DETACH, Op.CLONE, Op.FLOAT_CAST, Op.MOVE, Op.VIEW,
              Op.MODULE_OUTPUT},
)

# --- evidence (issue 13: three-valued facts, proven by construction or by use)
HISTORY = fact(
    "history", "the value has autograd history: Evidence(Tri.YES, the backward()/grad() call of it that proves it)",
    join=Join.TRI, survives={Op.INDEX, Op.VIEW, Op.MOVE, Op.FLOAT_CAST, Op.CLONE},
)
EVIDENCED = fact(
    "evidenced", "a module or optimizer the analysis knows from how the code uses it, not from its construction: the "
    "evidence.Role (`called`: only called on the loss path, maybe a loss function)")
MEMBER_OF = fact("member_of", "an attribute of a module whose class the analysis does not see: the module (a submodule if called)")
TRANSFORM = fact("transform", "a data transform (torchvision.transforms): calling it returns data, it has no parameters")
WRAPS = fact("wraps", "a module made by a call the analysis cannot see into from a module it was given (DDP(model), MAML(model))")

# --- losses
REDUCTION = fact("reduction", "the reduction of a loss (module argument or functional keyword): mean | sum | none")
KERAS_OUTPUTS = fact("keras_outputs", "what a functional Keras `Model(inputs, outputs)` computes: its outputs, built from its Input "
                    "placeholders (one tensor value); calling the model computes it again")
RUNS = fact("runs", "the function value a Keras `Lambda(f)` layer runs when it is called (kind FUNCTION)")
LOSS_MODULE = fact("loss_module", "the class name of a loss module (`MSELoss`)")
DISTRIBUTION = fact("distribution", "a torch.distributions object (its qualified class): sample() draws a value with no "
                    "history, rsample() and log_prob() keep its parameters'")
UNSEEN_OUTPUT = fact(
    "unseen_output", "the output of a module whose code is not seen (an imported network): its graph node, so that "
    "outputs taken from it by name (`out[\"v\"]`) are told apart (which internal nodes they share is not known)",
)
ONE_SHOT = fact("one_shot", "an iterator that can be walked once (`model.parameters()`, `filter(...)`, `map(...)`, `iter(...)`, a "
                "generator expression): the node that made it; `list(...)` of it is a list again")
LOSS_OF = fact("loss_of", "the loss function or loss module that computed this value")


UNION_FACTS = frozenset(n for n, s in FACTS.items() if s.join is Join.UNION)
ANY_FACTS = frozenset(n for n, s in FACTS.items() if s.join is Join.ANY)
TRI_FACTS = frozenset(n for n, s in FACTS.items() if s.join is Join.TRI)
EVERY_FACTS = frozenset(n for n, s in FACTS.items() if s.join is Join.EVERY)
PER_ELEMENT_FACTS = frozenset(n for n, s in FACTS.items() if s.join is Join.PER_ELEMENT)
KIND_DEFINING: Mapping[Any, str] = DEFINING_FACT  # looked up with Kind members, plain strings or None
assert set(KIND_DEFINING.values()) <= set(FACTS), "kinds.DEFINING_FACT names an undeclared fact"

# For each operation class, the facts it carries over (in declaration order).
_SURVIVORS: dict[Op, tuple[str, ...]] = {op: tuple(n for n, s in FACTS.items() if op in s.survives) for op in Op}


def propagate(attrs: dict | None, op: Op) -> dict:
    """The facts of `attrs` that survive an operation of class `op` (always a fresh dict;
    unknown values (None) are not carried)."""
    if not attrs:
        return {}
    return {k: attrs[k] for k in _SURVIVORS[op] if k in attrs and attrs[k] is not None}


def survivors(op: Op) -> tuple[str, ...]:
    return _SURVIVORS[op]


@dataclass(frozen=True)
class Exact:
    """The value of the `exact` fact: which special values the data may hold, and the node (a
    literal, a factory call, a product) that proves it."""

    zero: bool
    inf: bool
    node: Any = None
    all_zero: bool = False  # every element is 0 (`zeros(...)`, `[0., 0.]`): a norm is singular only then


# ------------------------------------------------------------------------------- Tri
class Tri(StrEnum):
    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Evidence:
    """The value of a three-valued fact, with the node that proves it."""

    value: Tri
    node: Any = None


def join_tri(a: Evidence | None, b: Evidence | None) -> Evidence | None:
    """Where two paths meet: the same answer keeps the first path's evidence; anything else is
    unknown (None: the fact is dropped)."""
    if a is None or b is None:
        return None
    if a.value is b.value:
        return a
    return None
