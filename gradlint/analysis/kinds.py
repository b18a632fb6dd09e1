"""What a value is (`Kind`) and what an origin is (`OriginKind`).

`Kind` is a string enum: `Kind.TENSOR == "tensor"` (same hash), so comparisons stay cheap and
messages print the value. The analysis reads the members through this module's aliases
(`from . import kinds as K; v.kind == K.TENSOR`): CPython reads a module attribute about ten
times faster than an enum member off its class, and the interpreter compares kinds on every
operation.
"""

from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """An enum whose members are their string values (`Kind.TENSOR == "tensor"`, same hash), so
    comparisons stay cheap and messages print the value. (enum.StrEnum is Python 3.11+.)"""

    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]


# ------------------------------------------------------------------------------- kinds
class Kind(StrEnum):
    """What a value is. `None` (no kind) means "unknown"."""

    TENSOR = "tensor"  # an array of any framework (torch, tf, jax)
    GRAD = "grad"  # the result of autograd.grad / tape.gradient / jax.grad: gradients (a tuple or tree)
    NDARRAY = "ndarray"  # a NumPy array (left the framework)
    NUMBER = "number"
    STR = "str"
    BOOL = "bool"
    NONE = "none"
    META = "meta"  # metadata of a tensor: shape, dtype, device, sizes
    TUPLE = "tuple"
    LIST = "list"
    DICT = "dict"
    CONTAINER = "container"  # some other mutable collection (set, deque, unknown subscript store)
    PARAMS = "params"  # model.parameters(), trainable_variables
    MODULE = "module"  # an nn.Module / keras layer or model (its origin is its parameters)
    INSTANCE = "instance"  # an object of a class of the file, or of a library class that is not a module
    OPTIMIZER = "optimizer"
    SCALER = "scaler"  # a torch GradScaler
    TAPE = "tape"  # a tf.GradientTape
    CTX = "ctx"  # a context manager of the framework (no_grad, autocast, ...)
    FUNCTION = "function"  # a function or lambda of the file (fact FN)
    BOUND = "bound"  # a method bound to an object of a class of the file (facts FN, SELF)
    CLASS = "class"  # a class of the file (fact CLS)
    REF = "ref"  # a module, class or function of a library, by qualified name (fact QUAL)
    JAXFN = "jaxfn"  # a function transformed by jax.grad/jit/vmap/... (fact JAXFN)
    AUTOGRAD_APPLY = "autograd_apply"  # `MyFunction.apply` of a torch.autograd.Function (fact CLS)

    @property
    def defining(self) -> str | None:
        """The fact without which a value of this kind is meaningless (two different functions
        joined are not a function that can be called precisely)."""
        return DEFINING_FACT.get(self)


class OriginKind(StrEnum):
    """What an origin (something a gradient flows into) is."""

    MODULE = "module"
    TENSOR = "tensor"  # a leaf that requires grad, a Parameter
    TFVAR = "tfvar"
    WATCHED = "watched"  # a tensor watched by a GradientTape
    JAXARG = "jaxarg"  # an argument of a function given to jax.grad
    KERASOUT = "kerasout"  # the prediction argument of a Keras loss function
    SYM = "sym"  # an argument of a function analysed on its own: unknown


# module-level aliases of the members (see the module docstring)
TENSOR = Kind.TENSOR
GRAD = Kind.GRAD
NDARRAY = Kind.NDARRAY
NUMBER = Kind.NUMBER
STR = Kind.STR
BOOL = Kind.BOOL
NONE = Kind.NONE
META = Kind.META
TUPLE = Kind.TUPLE
LIST = Kind.LIST
DICT = Kind.DICT
CONTAINER = Kind.CONTAINER
PARAMS = Kind.PARAMS
MODULE = Kind.MODULE
INSTANCE = Kind.INSTANCE
OPTIMIZER = Kind.OPTIMIZER
SCALER = Kind.SCALER
TAPE = Kind.TAPE
CTX = Kind.CTX
FUNCTION = Kind.FUNCTION
BOUND = Kind.BOUND
CLASS = Kind.CLASS
REF = Kind.REF
JAXFN = Kind.JAXFN
AUTOGRAD_APPLY = Kind.AUTOGRAD_APPLY

# Kinds that are meaningless without one of their facts (names of facts declared in facts.py,
# which checks them when it is imported): two different functions joined are not a function
# that can be called precisely.
DEFINING_FACT = {FUNCTION: "fn", BOUND: "fn", CLASS: "cls", JAXFN: "jaxfn", REF: "qual", TAPE: "tape", AUTOGRAD_APPLY: "cls"}

_ORIGIN = OriginKind
ORIGIN_MODULE, ORIGIN_TENSOR, ORIGIN_TFVAR, ORIGIN_WATCHED = _ORIGIN.MODULE, _ORIGIN.TENSOR, _ORIGIN.TFVAR, _ORIGIN.WATCHED
ORIGIN_JAXARG, ORIGIN_KERASOUT, ORIGIN_SYM = _ORIGIN.JAXARG, _ORIGIN.KERASOUT, _ORIGIN.SYM
