"""GL4xx numerical precision: finite differences, gradcheck dtypes, exact comparisons, large
low-precision sums, AMP scaling, and the operations whose gradient turns into NaN.

Why this module is long: it is a catalogue of 14 rules, one class each, and a rule class is
its own specification (rationale, flagged and correct examples, fix); the logic of a rule is a
few dozen lines. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import builtins
import math
import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.frameworks import jax as jax_overlay
from ..analysis.frameworks.arrays import NONDIFF_FUNCS, PROB_SAMPLERS, epsilon_like
from ..analysis.frameworks import tensorflow as tf_overlay
from ..analysis.frameworks import torch as torch_overlay
from ..analysis.frameworks.torch import TORCH_GRADCHECK
from ..analysis.names import dotted_name, literal
from ..analysis.queries import certainly_computed, dtype_named, every_origin, is_gradient
from ..analysis.walk import callee_last, code_children, own_small_statements, walk
from ..analysis.events import BinOpEvent, CallEvent, CompareEvent, DiffEvent, DiffKind, OptEvent
from ..analysis.values import Note
from ..diagnostics import Applicability, Severity
from ._flow import NONDIFF, SecondOrder, StarvedOrigins, call_name, imported_modules, shortened, trained_forward
from .base import Family, Invalid, NodeEdit, Rule, RuleFix

FAMILY = Family("GL4", "numerical precision")

LOW_PRECISION = ("float32", "float16", "bfloat16")
_EPS_MACH = {"float16": 9.8e-4, "bfloat16": 7.8e-3, "float32": 1.2e-7, "float64": 2.2e-16}


def _low(dtype: str | None) -> bool:
    return dtype in LOW_PRECISION


def _eps_name(node: cst.CSTNode) -> str | None:
    """The variable a finite-difference denominator is made of: `eps`, `2 * eps`, `(2*h)`,
    `2 * self.eps` (a step kept on the object)."""
    name = dotted_name(node)
    if name is not None:
        return name
    if isinstance(node, cst.BinaryOperation):
        for side in (node.left, node.right):
            n = _eps_name(side)
            if n:
                return n
    return None


class FiniteDifferenceLowPrecision(Rule):
    code = "GL401"
    message = "a hand-written finite difference in float32/half with a step too small for the dtype: rounding dominates"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/notes/gradcheck.html"
    triggers = ("eps", "/", "h")
    rationale = """
        A finite difference `(f(x + h) - f(x - h)) / (2h)` subtracts two nearly equal numbers.
        In float32 each evaluation carries a rounding error of about `eps_mach * |f|`
        (eps_mach = 1.2e-7), so the quotient carries `eps_mach * |f| / h`: with h = 1e-7 that is
        the size of the derivative itself, and with a summed loss of ~2.5e4 (ulp 2^-9) even
        h = 1e-3 gives values that are multiples of ~1.95. Half precision is hopeless at any
        step. The "mismatch" such a check reports is rounding, not a bug — or a real bug hides
        under it.

        Instead: evaluate in float64 (`x.double()`, the function too), use a central difference
        with h ≈ 1e-6 relative to |x| (float64) — or let `gradlint gradcheck` do it: it picks the
        step, estimates the noise floor and says whether a difference is round-off or a wrong
        gradient.
    """
    invalid = [
        Invalid(
            """
            import torch
            def f(w, x):
                return torch.tanh(x @ w).pow(2).sum()
            x = torch.randn(16, 8)
            w = torch.randn(8, 4, requires_grad=True)
            f(w, x).backward()
            eps = 1e-7
            numeric = torch.zeros_like(w)
            for i in range(8):
                for j in range(4):
                    w_p, w_m = w.clone(), w.clone()
                    w_p[i, j] += eps
                    w_m[i, j] -= eps
                    numeric[i, j] = (f(w_p, x) - f(w_m, x)) / (2 * eps)
            """,
            line=12,
        )
    ]
    valid = [
        """
        import torch
        def f(w):
            return torch.tanh(w).pow(2).sum()
        w = torch.randn(8, dtype=torch.float64, requires_grad=True)
        f(w).backward()
        eps = 1e-6
        e = torch.zeros_like(w)
        e[0] = eps
        numeric = (f(w + e) - f(w - e)) / (2 * eps)
        """
    ]

    def on_binop(self, ev: BinOpEvent) -> None:
        if ev.op != "/":
            return
        h = ev.right.get(F.CONST)
        if not isinstance(h, (int, float)) or isinstance(h, bool) or not (0 < h <= 0.1):
            return
        num = ev.node.left
        if not (isinstance(num, cst.BinaryOperation) and isinstance(num.operator, cst.Subtract)):
            return
        if not (isinstance(num.left, (cst.Call, cst.Name, cst.Subscript)) and isinstance(num.right, (cst.Call, cst.Name, cst.Subscript))):
            return
        dtype = ev.left.get(F.DTYPE)
        if dtype is None and ev.left.kind in ("tensor", None) and ev.left.get(F.FW) == "torch":
            dtype = self.ctx.interp.default_dtype
        if dtype is None and ev.left.get(F.FW) == "jax":
            dtype = "float64" if self.ctx.interp.jax_x64 else "float32"  # JAX's default
        if not _low(dtype):
            return
        reduced = ev.left.get(F.REDUCED_FROM) or 0
        em = _EPS_MACH[dtype]
        # perturbing one of N reduced elements changes f by about |f|/N, while each evaluation
        # rounds by em x |f|: the relative error of the estimate is about em x N / h
        bad = dtype in ("float16", "bfloat16") or h < 1e-4 or em * max(reduced, 1) / h > 1e-2
        if not bad:
            return
        site = self._perturbation_site(ev.node, _eps_name(ev.node.right)) or ev.node
        why = f"with h = {h:g} the rounding error of each evaluation (about {em:.1e} x |f|) divided by h swamps the derivative"
        if reduced > 1 and h >= 1e-4:
            why = (f"the value reduces ~{reduced:,} elements, so perturbing one changes it by about 1/{reduced:,} of its size, while "
                   f"each evaluation rounds by about {em:.1e} of it: divided by h = {h:g} that is an error of ~{min(em * reduced / h, 9.99):.0%} of the estimate")
        self.report(
            site,
            f"hand-written finite-difference gradient in {dtype}: {why}; compute it in float64 with h ≈ 1e-6 (central "
            f"difference), or run `gradlint gradcheck`, which separates round-off from real errors",
        )

    def _perturbation_site(self, quotient: cst.CSTNode, eps: str | None) -> cst.CSTNode | None:
        """The statement that perturbs the input (`w_p[i, j] += eps`), reported instead of the
        quotient when it comes earlier in the same block."""
        if eps is None:
            return None
        stmt = None
        for anc in self.ctx.ancestors(quotient):
            if isinstance(anc, cst.SimpleStatementLine):
                stmt = anc
                break
        if stmt is None:
            return None
        block = self.ctx.parent(stmt)
        body = getattr(block, "body", None)
        if not isinstance(body, (list, tuple)):
            return None
        for s in body:
            if s is stmt:
                break
            if not isinstance(s, cst.SimpleStatementLine):
                continue
            for small in s.body:
                if isinstance(small, cst.AugAssign) and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)):
                    if dotted_name(small.value) == eps:
                        return s
        return None


class GradcheckLowPrecision(Rule):
    code = "GL402"
    message = "gradcheck/gradgradcheck on float32 (or half) inputs: it will fail or pass for the wrong reason"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.autograd.gradcheck.gradcheck.html"
    triggers = ("gradcheck",)
    fix_applicability = Applicability.SAFE
    rationale = """
        `torch.autograd.gradcheck` compares autograd with finite differences (eps=1e-6 by
        default) under tolerances designed for float64. In float32 the finite differences are
        dominated by rounding: the check fails on correct code, and with loosened `atol`/`eps`
        it passes real bugs. PyTorch warns "Input #0 requires gradient and is not a double
        precision floating point".

        Instead: create the inputs with `dtype=torch.float64` (and the function's parameters,
        e.g. `module.double()`). The fix adds `dtype=torch.float64` where the input is created;
        it is applied by `--fix` only when that tensor is used for nothing but the check.
    """
    invalid = [
        Invalid(
            """
            import torch
            from torch.autograd import gradcheck
            x = torch.randn(20, requires_grad=True)
            print(gradcheck(torch.sigmoid, (x,), eps=1e-6, atol=1e-4))
            """,
            line=4,
            fixed="""
            import torch
            from torch.autograd import gradcheck
            x = torch.randn(20, requires_grad=True, dtype=torch.float64)
            print(gradcheck(torch.sigmoid, (x,), eps=1e-6, atol=1e-4))
            """,
        )
    ]
    valid = [
        """
        import torch
        x = torch.randn(20, dtype=torch.double, requires_grad=True)
        assert torch.autograd.gradcheck(torch.sigmoid, (x,))
        """
    ]

    call_names = frozenset({"gradcheck", "gradgradcheck"})

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual not in TORCH_GRADCHECK:
            return
        inputs = ev.arg(1, "inputs")
        if inputs is None:
            return
        items = inputs.get(F.ITEMS) or (inputs,)
        bad = []
        for item in items:
            dt = item.get(F.DTYPE)
            if _low(dt) and item.live and (item.get(F.RG) or any(o.kind == "tensor" for o in item.live)):
                bad.append(item)
        if not bad:
            return
        dt = bad[0].get(F.DTYPE)
        edits = []
        for item in bad:
            created = item.get(F.CREATED)
            e = self._dtype_edit(created)
            if e is None:
                edits = []
                break
            edits.append(e)
        fix = None
        if edits:
            safe = all(self._only_used_for_check(item.get(F.CREATED)) for item in bad) and self._stateless(ev)
            fix = RuleFix("Create the inputs in float64", tuple(edits), Applicability.SAFE if safe else Applicability.UNSAFE)
        self.report(
            ev.node,
            f"gradcheck on {dt} inputs: its finite differences are dominated by rounding in {dt}, so it fails on correct "
            f"code or, with loosened tolerances, passes real bugs; create the inputs with `dtype=torch.float64`",
            fix=fix,
        )

    def _dtype_edit(self, created) -> NodeEdit | None:
        if not isinstance(created, cst.Call) or not created.args:
            return None
        if any(a.keyword is not None and a.keyword.value == "dtype" for a in created.args):
            return None
        f = created.func
        torch_name = "torch"
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name):
            torch_name = f.value.value
        last = created.args[-1]
        if last.star:
            return None
        return NodeEdit(last, f", dtype={torch_name}.float64", how="after")

    def _stateless(self, ev: CallEvent) -> bool:
        """The checked function is a lambda or a def of this file that reads nothing but its own
        parameters, locals it computes from them, and library modules, and creates no tensor:
        then float64 inputs make it compute in float64. A module, or a function that closes
        over weights (`lambda v: W @ v`), keeps its float32 state, and float64 inputs would
        raise a dtype error: not provable, so an editor fix."""
        fnval = ev.arg(0, "func")
        if fnval is None:
            return False
        qual = fnval.get(F.QUAL) if fnval.kind == K.REF else None
        if qual and qual.startswith(("torch.", "math.")) and not qual.startswith("torch.nn.") or (qual or "").startswith("torch.nn.functional."):
            return True  # a library function (`torch.sigmoid`): it computes in its inputs' dtype
        fn = fnval.get(F.FN)
        cls = fnval.get(F.CLS)
        if fn is None and cls is not None and cls.is_module and "__init__" not in cls.methods and set(cls.methods) <= {"forward"}:
            fn = cls.methods.get("forward")  # a module without state (no __init__): its forward is the function
        if fn is None or not isinstance(fn.node, (cst.Lambda, cst.FunctionDef)):
            return False
        params = {p for p, _, _ in fn.params}
        names = _NameUse(fn.node.body)
        if names.calls & _TENSOR_FACTORIES or (names.self_attributes and fn.cls is not None):
            return False
        libraries = _library_names(self.ctx.code_text)
        return all(n in params or n in names.stored or n in libraries or n in _BUILTINS for n in names.loaded)

    def _only_used_for_check(self, created) -> bool:
        """True when the variable holding the created tensor is read only by the gradcheck."""
        stmt = None
        for anc in self.ctx.ancestors(created):
            if isinstance(anc, cst.Assign):
                stmt = anc
                break
        if stmt is None or len(stmt.targets) != 1 or not isinstance(stmt.targets[0].target, cst.Name):
            return created is not None
        name = stmt.targets[0].target.value
        uses = len(re.findall(rf"(?<![\w.]){re.escape(name)}\b", self.ctx.code_text))
        return uses <= 2


_TENSOR_FACTORIES = frozenset({
    "tensor", "as_tensor", "randn", "rand", "randint", "zeros", "ones", "empty", "full", "arange", "linspace", "eye",
    "Tensor", "FloatTensor", "from_numpy", "zeros_like", "ones_like", "randn_like", "rand_like", "full_like",
})
_BUILTINS = frozenset(dir(builtins))


class _NameUse:
    """The names a function body loads and stores, the names it calls, and whether it reads a
    field of `self` (an attribute contributes only its head: `torch.sin` loads `torch`)."""

    def __init__(self, root: cst.CSTNode) -> None:
        self.loaded: set[str] = set()
        self.stored: set[str] = set()
        self.calls: set[str] = set()
        self.self_attributes = False
        stack = [root]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Attribute):
                if isinstance(n.value, cst.Name) and n.value.value == "self":
                    self.self_attributes = True
                stack.append(n.value)
                continue
            if isinstance(n, cst.Name):
                self.loaded.add(n.value)
            elif isinstance(n, cst.AssignTarget):
                if isinstance(n.target, cst.Name):
                    self.stored.add(n.target.value)
            elif isinstance(n, cst.Call):
                f = n.func
                name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
                if name:
                    self.calls.add(name)
            stack.extend(code_children(n))


def _library_names(text: str) -> set[str]:
    """Names the file binds to library modules or their functions (`import torch`,
    `import numpy as np`, `from torch.nn import functional as F`, `from math import pi`)."""
    out: set[str] = set()
    for m in re.finditer(r"^\s*import\s+([\w.]+)(?:\s+as\s+(\w+))?", text, re.M):
        if m.group(1).split(".")[0] in _LIBRARIES:
            out.add(m.group(2) or m.group(1).split(".")[0])
    for m in re.finditer(r"^\s*from\s+([\w.]+)\s+import\s+([\w\s,]+?)\s*$", text, re.M):
        if m.group(1).split(".")[0] in _LIBRARIES:
            for part in m.group(2).split(","):
                bits = part.split()
                if bits:
                    out.add(bits[-1])
    return out


_LIBRARIES = frozenset({"torch", "numpy", "math", "functools", "operator"})


# exact comparisons of other libraries: qualified name -> is an equality (not an inequality)
_OTHER_EQUALITIES = {
    **{f"{m}.{f}": True for m in ("numpy", "jax.numpy") for f in ("array_equal", "equal")},
    "numpy.not_equal": False, "jax.numpy.not_equal": False,
    "numpy.testing.assert_array_equal": True, "numpy.testing.assert_equal": True,
    "tensorflow.debugging.assert_equal": True, "tensorflow.math.equal": True, "tensorflow.equal": True,
    "tensorflow.math.not_equal": False, "tensorflow.not_equal": False,
}


class ExactComparisonOfGradients(Rule):
    code = "GL403"
    message = "gradients are compared with == / != / torch.equal: floating-point results differ by rounding"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/testing.html"
    triggers = ("grad",)
    rationale = """
        Gradients are floating-point results of long computations; two mathematically equal
        gradients (two implementations, a function that is constant by symmetry such as
        softmax outputs summing to one) differ by rounding, typically ~1e-8 relative in
        float32. `grad == 0`, `g1 == g2` or `torch.equal(g1, g2)` then fail on correct code — or
        pass only by luck on one machine.

        Instead: compare with a tolerance: `torch.testing.assert_close(g1, g2)`,
        `torch.allclose(g, torch.zeros_like(g), atol=1e-6)`.
    """
    invalid = [
        Invalid(
            """
            import torch
            logits = torch.randn(4, 10, requires_grad=True)
            torch.softmax(logits, dim=-1).sum().backward()
            assert (logits.grad == 0).all()
            """,
            line=4,
        )
    ]
    valid = [
        """
        import torch
        x = torch.randn(8, 64, requires_grad=True)
        (g1,) = torch.autograd.grad(x.pow(2).sum(), x)
        (g2,) = torch.autograd.grad((x * x).sum(), x)
        torch.testing.assert_close(g1, g2, rtol=1e-4, atol=1e-5)
        assert x.grad is None
        """
    ]

    @staticmethod
    def _is_grad(v) -> bool:
        return v is not None and is_gradient(v)

    def on_compare(self, ev: CompareEvent) -> None:
        self._judge(ev.node, [ev.left] + ev.rights, "==" in ev.ops)

    def _judge(self, node, sides: list, equal: bool) -> None:
        """`sides` compared for (in)equality; `equal`: with ==, not !=."""
        grads = [v for v in sides if self._is_grad(v)]
        if not equal and len(grads) < len(sides):
            return  # `g != 0` is the usual "not all zero" sanity check; `g1 != g2` is not
        if not grads:
            return
        for v in sides:
            if v.kind in ("none", "str", "bool") or v.get(F.CONST, 0) is None:
                return
            if v.get(F.DTYPE) in ("int", "bool"):
                return
        others = [v for v in sides if not self._is_grad(v)]
        # "expect exactly 0" or two gradients compared; an exact non-zero value at a special
        # point (a subgradient fixed by a `where`) is often intended
        if others and not all(v.kind == "number" and v.get(F.CONST) == 0 for v in others):
            return
        if others and self._counted(node):
            return  # `(g == 0).float().mean()`: how many are exactly 0 (dead units, underflow) is a count
        self._report(node, grads[0])

    def _counted(self, node) -> bool:
        """The comparison's mask is counted, not tested: cast to numbers or reduced
        (`tf.cast(g == 0, tf.float32)`, `(g == 0).sum()`, `torch.count_nonzero(g == 0)`)."""
        parent = self.ctx.parent(node)
        if isinstance(parent, cst.Arg):
            call = self.ctx.parent(parent)
            return isinstance(call, cst.Call) and callee_last(call) in _COUNTING
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return parent.attr.value in _COUNTING
        return False

    call_names = frozenset({"equal", "eq", "ne", "not_equal", "array_equal", "assert_equal", "assert_array_equal"})

    def on_call(self, ev: CallEvent) -> None:
        # the method and function forms of ==, != and torch.equal: `g.eq(ref)`, `torch.ne(g1, g2)`,
        # `g1.equal(g2)`; NumPy's, JAX's and TensorFlow's (`np.array_equal(g1, g2)`,
        # `tf.debugging.assert_equal(g_custom, g_auto)`): judged as `==`/`!=`
        if ev.qual in _OTHER_EQUALITIES and len(ev.args) >= 2:
            self._judge(ev.node, list(ev.args[:2]), _OTHER_EQUALITIES[ev.qual])
            return
        if ev.qual in ("torch.equal", "torch.eq", "torch.ne") and len(ev.args) == 2:
            sides = list(ev.args)
        elif ev.qual is None and ev.method in ("equal", "eq", "ne") and ev.recv is not None and len(ev.args) == 1:
            sides = [ev.recv, ev.args[0]]
        else:
            return
        name = ev.name
        if name == "equal":
            if any(self._is_grad(a) for a in sides):
                self._report(ev.node, sides[0])
            return
        self._judge(ev.node, sides, name == "eq")

    def _report(self, node, v) -> None:
        fw = v.get(F.FW)
        instead = {
            "jax": "`np.testing.assert_allclose(...)` or `jnp.allclose(..., atol=...)`",
            "tf": "`np.testing.assert_allclose(...)` or `tf.debugging.assert_near(...)`",
            "np": "`np.testing.assert_allclose(...)` or `np.allclose(..., atol=...)`",
        }.get(fw, "`torch.testing.assert_close(...)` or `torch.allclose(..., atol=...)`")
        self.report(
            node,
            "exact comparison of floating-point gradients: results that are equal mathematically differ by rounding "
            f"(~1e-8 relative in float32), so this fails on correct code or passes by luck; use {instead}",
        )


class LargeSumInLowPrecision(Rule):
    code = "GL404"
    message = "a sum-reduced loss over a very large float32/half tensor: its magnitude hides small changes (ulp >> tolerance)"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/notes/numerical_accuracy.html"
    triggers = ("sum",)
    rationale = """
        `reduction="sum"` (or `.sum()`) over millions of elements makes the loss huge: summing
        ~1e7 per-pixel terms gives a loss of ~1e7, whose float32 spacing (ulp) is 1.0. Changes
        smaller than that — an early-stopping threshold of 1e-3, a finite-difference step —
        are invisible, the gradient scale depends on the batch and image size, and in half
        precision the sum overflows (float16 max 65504) or stagnates.

        Instead: `reduction="mean"` (scale the learning rate if needed), or accumulate in
        float64 (`loss.double()`), and compare losses relative to their magnitude.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            seg_head = nn.Conv2d(64, 21, 1)
            feats = torch.randn(8, 64, 256, 256)
            labels = torch.randint(0, 21, (8, 256, 256))
            criterion = nn.CrossEntropyLoss(reduction="sum")
            loss = criterion(seg_head(feats), labels)
            loss.backward()
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch
        w = torch.randn(4, 3, requires_grad=True)
        x = torch.randn(2, 4)
        task_losses = torch.stack([(x @ w)[:, k].pow(2).mean() for k in range(3)])
        total = (torch.tensor([1.0, 0.5, 0.25]) * task_losses).sum()
        total.backward()
        """
    ]
    THRESHOLD = {"float32": 1_000_000, "float16": 10_000, "bfloat16": 10_000}

    def on_call(self, ev: CallEvent) -> None:
        func = ev.func
        if not (func.kind == "module" or ev.name == "sum" or (ev.qual and "reduction" in ev.kwargs)):
            return
        n = max((a.get(F.NUMEL) or 0 for a in ev.args), default=0)
        if func.kind == "module" and func.get(F.REDUCTION) == "sum" and func.get(F.LOSS_MODULE):
            dt = ev.result.get(F.DTYPE) or self._dtype(ev.args)
            if self._big(n, dt):
                self._report(func.get(F.CREATED) or ev.node, n, dt)
            return
        q = ev.qual or ""
        if q.startswith("torch.nn.functional.") and "reduction" in ev.kwargs and ev.kwargs["reduction"].get(F.CONST) == "sum":
            dt = self._dtype(ev.args)
            if self._big(n, dt):
                self._report(ev.node, n, dt)
            return
        if ev.method == "sum" and ev.recv is not None and not ev.args and not ev.kwargs:
            dt = ev.recv.get(F.DTYPE)
            n = ev.recv.get(F.NUMEL) or 0
            if dt in ("float16", "bfloat16") and n >= self.THRESHOLD[dt]:
                self._report(ev.node, n, dt)

    def _dtype(self, args) -> str | None:
        for a in args:
            d = a.get(F.DTYPE)
            if d in ("float32", "float16", "bfloat16", "float64"):
                return d
        return None

    def _big(self, n: int, dt: str | None) -> bool:
        return dt in self.THRESHOLD and n >= self.THRESHOLD[dt]

    def _report(self, node, n: int, dt: str) -> None:
        self.report(
            node,
            f"sum reduction over ~{n:,} {dt} values: the loss reaches a magnitude whose {dt} spacing (ulp) hides small changes "
            f"(thresholds, finite-difference steps) and its scale depends on batch and image size; use reduction=\"mean\" "
            f"or accumulate in float64",
        )


class HalfClassLossMeanOverflow(Rule):
    code = "GL414"
    message = "nll_loss/cross_entropy averaged in float16 over more than 65504 targets: the float16 sum and count overflow, the loss is nan, inf or 0"
    severity = Severity.ERROR
    docs = "https://github.com/pytorch/pytorch/issues/61523"
    triggers = ("half", "float16")
    # a function computing the loss of a float16 model it is given (`F.cross_entropy(out, y)`)
    chunk_triggers = (r"\b(?:nll_loss|cross_entropy|NLLLoss|CrossEntropyLoss)\b",)
    rationale = """
        With class-index targets, `nll_loss` and `cross_entropy` (and `nn.NLLLoss`,
        `nn.CrossEntropyLoss`) compute the mean as a sum of the picked log-probabilities
        divided by the number (the total weight) of targets, both accumulated in the input's
        dtype. In float16 (largest value 65504) a segmentation batch of 32x256x256 pixels
        overflows both: the loss is nan (inf/inf), inf, or 0, and the model does not train
        (pytorch#29429, pytorch#61523; measured on torch 2.13: 66,000 targets already give 0
        or nan). bfloat16 has float32's range; under autocast these losses run in float32.

        Instead: compute the loss in float32 (`F.cross_entropy(logits.float(), target)`), or
        run the forward pass under `torch.autocast`, which does that for you.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            logits = torch.randn(8, 21, 128, 128).half()
            target = torch.randint(0, 21, (8, 128, 128))
            loss = F.cross_entropy(logits, target)
            """,
            line=5,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(8, 21, 128, 128).half()
        target = torch.randint(0, 21, (8, 128, 128))
        loss = F.cross_entropy(logits.float(), target)
        """,
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(256, 1000).half()
        target = torch.randint(0, 1000, (256,))
        loss = F.cross_entropy(logits, target)
        """,
    ]
    LIMIT = 65504  # the largest float16 value: a count of targets beyond it is inf
    FUNCTIONS = {"torch.nn.functional.nll_loss", "torch.nn.functional.cross_entropy"}
    MODULES = {"NLLLoss", "CrossEntropyLoss", "NLLLoss2d"}

    def on_call(self, ev: CallEvent) -> None:
        if len(ev.args) < 2 or ev.ctx.amp is not None:
            return  # autocast runs these losses in float32
        func = ev.func
        if ev.qual in self.FUNCTIONS:
            red = torch_overlay.reduction_of(ev.kwargs)
        elif func is not None and func.kind == K.MODULE and func.get(F.LOSS_MODULE) in self.MODULES:
            red = func.get(F.REDUCTION)
        else:
            return
        if red not in (None, "mean"):
            return
        logits, target = ev.args[0], ev.args[1]
        if logits.get(F.DTYPE) != "float16" or target.get(F.DTYPE) not in ("int", None):
            return  # (probability targets: the sum depends on the values, not on a count)
        n = self._targets(logits, target)
        if n is not None and n > self.LIMIT:
            self.report(ev.node, (
                f"this loss averages ~{n:,} float16 terms: it divides their float16 sum by their float16 count, and both "
                f"overflow past 65504, so the loss is nan, inf or 0; compute it in float32 (`.float()` on the input) "
                f"or under torch.autocast"))

    @staticmethod
    def _targets(logits, target) -> int | None:
        """How many targets are averaged: the target's size, else the input's without the class
        dimension (`(N, C, d1, ...)`). None when neither is stated."""
        shape = target.get(F.SHAPE)
        if shape is not None and all(isinstance(d, int) for d in shape):
            return math.prod(shape)
        shape = logits.get(F.SHAPE)
        if shape is not None and len(shape) >= 2 and all(isinstance(d, int) for d in shape):
            return math.prod(shape[:1] + shape[2:])
        return None


class ClipBeforeUnscale(Rule):
    code = "GL405"
    message = "gradients are clipped while still multiplied by the GradScaler's scale: call scaler.unscale_(optimizer) first"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping"
    triggers = ("clip_grad",)
    rationale = """
        With `torch.cuda.amp.GradScaler`, `scaler.scale(loss).backward()` leaves gradients
        multiplied by the loss scale (65536 at first, changing over training).
        `clip_grad_norm_(params, max_norm=1.0)` on those gradients compares a norm ~65536 times
        too large with the threshold: clipping fires on every step with a varying effective
        strength.

        Instead: `scaler.unscale_(optimizer)` right before clipping (then `scaler.step` knows
        not to unscale again).
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(8, 1).cuda()
            opt = torch.optim.AdamW(model.parameters())
            scaler = torch.cuda.amp.GradScaler()
            with torch.autocast("cuda", dtype=torch.float16):
                loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
            scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.step(opt)
            scaler.update()
            """,
            line=8,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(8, 1).cuda()
        opt = torch.optim.AdamW(model.parameters())
        scaler = torch.cuda.amp.GradScaler()
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(opt)
        scaler.update()
        """
    ]

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind == "clip" and ev.prev is not None and ev.prev[0] == "backward_scaled":
            self.report(
                ev.node,
                lambda line, bw=ev.prev[1]: (
                    f"the gradients from the scaled backward on line {line(bw)} are still multiplied by the GradScaler's "
                    f"scale (e.g. 65536): clipping compares a norm that much too large with max_norm; call "
                    f"`scaler.unscale_(optimizer)` before clipping"
                ),
            )


class Fp16AutocastWithoutGradScaler(Rule):
    code = "GL406"
    message = ("a float16 loss is differentiated without loss scaling (torch autocast without a GradScaler, Keras "
               "mixed_float16 in a GradientTape loop without a LossScaleOptimizer): small gradients underflow to zero")
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/amp.html#gradient-scaling"
    triggers = ("autocast",)
    rationale = """
        Under `torch.autocast(device_type="cuda", dtype=torch.float16)` (the default dtype on
        CUDA, and `torch.cuda.amp.autocast()`), activations and their gradients are float16,
        whose smallest normal value is 6e-5: many gradients underflow to zero and the model
        trains worse or not at all. bfloat16 has float32's range and needs no scaling.

        Keras is the same under the `mixed_float16` policy: `fit` wraps the optimizer in a
        `LossScaleOptimizer` by itself, but a GradientTape loop of one's own (or an overridden
        `train_step`) differentiates the unscaled loss, and the float16 gradients underflow.

        Instead: `scaler = torch.amp.GradScaler()`, `scaler.scale(loss).backward()`,
        `scaler.step(optimizer)`, `scaler.update()` — or autocast to `torch.bfloat16`. In Keras:
        `LossScaleOptimizer(opt)` with `get_scaled_loss` / `get_unscaled_gradients` (Keras 3:
        `optimizer.scale_loss(loss)`), or the `mixed_bfloat16` policy.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(8, 1).cuda()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            with torch.autocast("cuda", dtype=torch.float16):
                loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
            loss.backward()
            opt.step()
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(8, 1).cuda()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
        loss.backward()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._tapes: list[DiffEvent] = []  # GradientTape differentiations (Keras mixed precision)
        self._policies: list[tuple[int, str | None]] = []  # (seq, policy name) of each global policy set

    def finish(self) -> None:
        self._keras_fp16()

    def on_call(self, ev: CallEvent) -> None:
        self._keras_policy(ev)
        amp = ev.ctx.amp
        if amp is None or not ev.result.live or not self._fp16(amp):
            return
        ev.add_note(Note("amp16", amp.node))

    @staticmethod
    def _fp16(amp: CallEvent) -> bool:
        # `autocast(enabled=use_amp)`, `autocast(fp16_scaler is not None)`: a switch the program
        # sets together with its scaler (DINO, many trainers); only a constant True is certain
        enabled = amp.arg(0 if amp.qual == "torch.cuda.amp.autocast" else 2, "enabled")
        if enabled is not None and enabled.get(F.CONST) is not True:
            return False
        dt = amp.kwargs.get("dtype")
        if dt is not None:
            return dt.get(F.QUAL) in ("torch.float16", "torch.half")
        if amp.qual == "torch.cuda.amp.autocast":
            return True
        dev = amp.arg(0, "device_type")
        # `"cuda"`, or what a torch.device("cuda") gives: `str(device)`, `device.type`
        return dev is not None and (dev.get(F.CONST) == "cuda" or dev.get(F.DEVICE) == "cuda")

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "tape":
            self._tapes.append(ev)
            return
        if ev.kind != "backward" or ev.target.get(F.SCALED) is not None:
            return
        if not any(n.kind == "amp16" for n in ev.target.notes):
            return
        if "GradScaler" in self.ctx.code_text:
            return
        self.report(
            ev.node,
            "backward() on a loss computed under float16 autocast, without a GradScaler: gradients below ~6e-5 underflow "
            "to zero in float16; use `scaler = torch.amp.GradScaler()` and `scaler.scale(loss).backward()`, or autocast "
            "to bfloat16",
        )

    def _keras_policy(self, ev: CallEvent) -> None:
        """`mixed_precision.set_global_policy("mixed_float16")` (or a `Policy(...)` of it): the
        policy named in the call, None when not written there."""
        if not (ev.qual or "").endswith(("mixed_precision.set_global_policy", "mixed_precision.experimental.set_policy")):
            return
        node = ev.arg_node(0, "policy")
        m = _POLICY_NAME.search(self.ctx.code(node)) if node is not None else None
        self._policies.append((ev.seq, m.group(1) if m else None))

    def _keras_fp16(self) -> None:
        """A GradientTape loop of the file's own under the mixed_float16 policy (set globally, or
        a layer `dtype`), with no loss scaling anywhere in the file: `fit` wraps the optimizer in
        a LossScaleOptimizer, a custom loop (or an overridden `train_step`) must do it itself.
        The policy in force at a tape of module-level code is the last one set before it; in a
        function (run later, by whoever calls it), every policy the file sets must be float16.
        Reported once, at the first such tape."""
        if not self._tapes or _LOSS_SCALING.search(self.ctx.code_text):
            return
        text = self.ctx.source.text
        for ev in self._tapes:
            if not self._policies:
                fp16 = _FP16_LAYER_DTYPE.search(text) is not None  # `Dense(16, dtype="mixed_float16")`
            elif ev.ctx.fn is None:
                before = [v for seq, v in self._policies if seq < ev.seq]
                fp16 = bool(before) and before[-1] == "mixed_float16"
            else:
                fp16 = all(v == "mixed_float16" for _, v in self._policies)
            if fp16:
                self.report(
                    ev.node,
                    "this GradientTape differentiates a model under the mixed_float16 policy without loss scaling: its "
                    "float16 gradients below ~6e-5 underflow to zero (only `fit` scales the loss by itself); wrap the "
                    "optimizer in `LossScaleOptimizer` and use `optimizer.get_scaled_loss(loss)` / "
                    "`get_unscaled_gradients(grads)` (Keras 3: `optimizer.scale_loss(loss)`), or use mixed_bfloat16",
                )
                return

# Keras mixed precision: the float16 policy named in code (not a comment), and loss scaling
_POLICY_NAME = re.compile(r"""['"](mixed_float16|mixed_bfloat16|float16|bfloat16|float32|float64)['"]""")
_FP16_LAYER_DTYPE = re.compile(r"""^[^#\n]*\bdtype\s*=\s*['"]mixed_float16['"]""", re.M)
_LOSS_SCALING = re.compile(r"\b(?:LossScaleOptimizer|get_scaled_loss|get_unscaled_gradients|scale_loss)\b")


# ------------------------------------------------------------------ NaN-gradient traps
# exp/expm1: a `where` used as an overflow guard (`where(x < th, exp(x), c)`) still
# differentiates exp where it overflowed: inf * 0 = NaN (pytorch#156212)
_UNSAFE_FUNCS = frozenset({"log", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "acos", "asin", "atanh", "pow", "float_power", "lgamma", "digamma", "exp", "expm1"})
_DIVIDE_FUNCS = frozenset({"divide", "truediv", "div", "true_divide"})  # `tf.math.divide(a, b)`, `a.div(b)`: b is the danger
# TensorFlow computes the gradients of sqrt and rsqrt from their output in a way that gives 0,
# not NaN, where the incoming gradient is 0 (measured on TF 2.21: tf.where(x > 0, tf.sqrt(x), 0)
# has gradient [0.5, 0, 0] at x = [1, 0, -2]; log, x ** 0.5 and 1/x give NaN there)
_TF_ZERO_SAFE_GRADS = frozenset({"sqrt", "rsqrt"})
_MODULE_NAMES = frozenset({"torch", "jnp", "np", "tf", "math", "F", "K", "ops", "jax", "lax", "special", "linalg"})
_SANITIZERS = frozenset({"where", "clamp", "clamp_min", "clip", "clip_by_value", "maximum", "clamp_", "nan_to_num", "softplus", "abs"})
# for where(): abs keeps log/sqrt/1/x out of the negative half only; the points a condition like
# `d > 0` or `x != 0` sends to the other branch are d == 0, where 1/abs(d) and log(abs(d)) are
# infinite all the same (`denom = tf.abs(y_pred)`; `where(denom > 0, err / denom, 0)`: NaN)
_WHERE_SANITIZERS = _SANITIZERS - {"abs"}


def _capped(node) -> bool:
    """An upper bound applied to the value: `minimum(x, c)`, `x.clamp(max=c)`, `clamp(x, lo, hi)`,
    `clip_by_value(x, lo, hi)` (exp of it cannot overflow)."""
    name = callee_last(node) if isinstance(node, cst.Call) else None
    if name in ("minimum", "fmin", "clamp_max", "clip_by_value"):
        return True
    if name in ("clamp", "clip"):
        method = isinstance(node.func, cst.Attribute) and dotted_name(node.func.value) not in ("torch", "np", "jnp", "tf")
        positional = [a for a in node.args if a.keyword is None]
        return any(a.keyword is not None and a.keyword.value in ("max", "a_max") for a in node.args) or len(positional) >= (2 if method else 3)
    return False


# what turns a boolean mask into a count (GL403: counting exact zeros is not an equality test)
_COUNTING = frozenset({"cast", "float", "double", "int", "long", "sum", "mean", "count_nonzero", "reduce_sum", "reduce_mean",
                       "astype", "type", "nonzero", "to"})


def _singular_exponent(e) -> bool:
    """A power whose derivative is infinite at 0: a fractional literal (`0.5`) or a negative one."""
    return (isinstance(e, cst.Float) and float(e.value) % 1 != 0) or isinstance(e, cst.UnaryOperation)


def _names_in(node: cst.CSTNode) -> set[str]:
    out: set[str] = set()
    for n in walk(node, code_only=True):
        if isinstance(n, cst.Name):
            out.add(n.value)
        elif isinstance(n, cst.Attribute):
            full = dotted_name(n)
            if full:
                out.add(full)
    return out


def _has_additive_const(node: cst.CSTNode) -> bool:
    """`u + eps`, `u + 1e-8`, `eps + u` at the top of an expression."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        if epsilon_like(node.left) or epsilon_like(node.right):
            return True
        return _has_additive_const(node.left) or _has_additive_const(node.right)
    return False


def _same_code(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    m = cst.Module(body=[])
    return type(a) is type(b) and m.code_for_node(a) == m.code_for_node(b)


def xlogx_product(ctx, log_call: cst.CSTNode, arg: cst.CSTNode) -> cst.BinaryOperation | None:
    """`p * log(p)` / `p.log() * p`: the product when the log's argument is also the other
    factor (an entropy term; GL802 reports it, GL409 leaves it to that rule)."""
    parent = ctx.parent(log_call)
    if not (isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Multiply)):
        return None
    other = parent.right if parent.left is log_call else parent.left
    return parent if _same_code(other, arg) else None


class _FlowsToLoss(Rule):
    """Base for risky operations: mark the result with a note, report when the note reaches
    something that is differentiated."""

    note_kind = ""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # read only through the engine's rule signature: a run that marked notes on values is
        # not inert, so the editor's run cache replays it (the notes live on the values)
        self._sites: dict[int, tuple] = {}

    def mark(self, ev: CallEvent, site, data=None, of_receiver: bool = False) -> None:
        self._sites[id(site)] = (site, data)
        ev.add_note(Note(self.note_kind, site, data=data, of_receiver=of_receiver))

    def on_diff(self, ev: DiffEvent) -> None:
        for n in ev.target.sorted_notes(self.note_kind):
            self.report_site(n.node, n.data, ev)

    def on_function(self, ev) -> None:
        """The output of a PyTorch model's forward() counts as differentiated when nothing in
        the file calls the model: it is trained elsewhere (`def fit(model, ...)`, another
        module). Only an output computed from the model's own parameters with grad on."""
        if ev.kind != "standalone" or ev.ctx.grad != "on" or not trained_forward(ev.fn):
            return
        if not any(o.certain for o in ev.returns.live):
            return
        for n in ev.returns.sorted_notes(self.note_kind):
            self.report_site(n.node, n.data, None)

    def report_site(self, site, data, ev: DiffEvent | None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# calls through whose result no gradient flows back to their input
_NO_GRADIENT_CALLS = NONDIFF_FUNCS | frozenset({"detach", "stop_gradient", "item", "numpy", "tolist", "zeros_like", "ones_like",
                                                "full_like", "empty_like"})


class WhereNanGradient(_FlowsToLoss):
    code = "GL407"
    message = "torch.where() with log/sqrt/division on the untaken branch: its infinite gradient leaks through as NaN"
    severity = Severity.ERROR
    docs = "https://github.com/pytorch/pytorch/issues/23395"
    triggers = ("where",)
    note_kind = "where_trap"
    rationale = """
        `torch.where(cond, torch.log(x), other)` evaluates `log(x)` everywhere, including where
        `cond` is false (x <= 0). The forward result there is discarded, but the backward pass
        multiplies the untaken branch's local gradient (1/x = inf at 0, NaN below) by zero,
        and inf * 0 = NaN: the whole gradient becomes NaN. The same holds for `sqrt`, `1/x`,
        `pow` with a fractional exponent, `acos`, and for `exp` behind an overflow guard
        (`where(x < 80, exp(x), c)`: exp(x) = inf where x is large), in PyTorch, JAX
        (`jnp.where`) and TensorFlow — except TensorFlow's `sqrt`/`rsqrt`, whose gradient
        kernels give 0 where the incoming gradient is 0 (TF 2.21), so they are not reported
        there. An argument kept away from 0 before (`u = relu(p) + 1e-6`, a positive clamp) or
        one that carries no history (no gradient flows into it) is not reported either; a
        TensorFlow 1 placeholder counts when a `tf.gradients(y, x)` names it as a source. A
        branch computed on an earlier line and passed by name (`z = x.sqrt() + 1`, then
        `where(x == 0, y, z)`) is the same pitfall when the condition tests the variable the
        operation is applied to; it is reported at the where().

        Instead: make the input safe *before* the operation (the "double where"):
        `safe = torch.where(cond, x, torch.ones_like(x))`, then
        `torch.where(cond, torch.log(safe), other)`; or clamp: `torch.log(x.clamp_min(1e-12))`.
    """
    invalid = [
        Invalid(
            """
            import torch
            scale = torch.ones(5, requires_grad=True)
            rate = torch.tensor([0.0, 3.0, 5.0, 1.0, 0.0]) * scale
            out = torch.where(rate > 1, torch.log(rate), rate - 1)
            out.mean().backward()
            """,
            line=4,
        )
    ]
    valid = [
        """
        import torch
        x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
        pos = x > 0
        safe_x = torch.where(pos, x, torch.ones_like(x))
        y = torch.where(pos, torch.sqrt(safe_x), torch.zeros_like(x))
        y.sum().backward()
        """
    ]

    call_names = _SANITIZERS | _UNSAFE_FUNCS | {"where"}
    _tf_where = False  # the where() being checked is TensorFlow's

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # log/sqrt/division nodes that cannot put a NaN into a gradient: their argument was kept
        # away from 0 already (GUARDED: an added epsilon, a positive clamp, bound to a name
        # before: `x = relu(y) + 1e-6`), or it carries no history (no gradient flows into it)
        self._harmless_ops: set[int] = set()
        # operations whose argument is only a TensorFlow 1 placeholder (a graph input): a NaN
        # there matters only to a tf.gradients that names the placeholder among its sources
        self._needs_source: dict[int, frozenset] = {}

    def _judge_argument(self, node, arg, numerator=None) -> None:
        def carried(v) -> bool:
            return v is not None and bool(v.live or v.get(F.TRACED))

        # a division's derivative in its numerator is 1 / denominator: infinite at 0 whether or
        # not the denominator carries history (`where(y != 0, (pred - y) / y, pred)`: NaN)
        if arg is not None and (arg.get(F.GUARDED) is not None or not carried(arg) and not carried(numerator)):
            self._harmless_ops.add(id(node))
        elif arg is not None and arg.live and all(not o.certain and o.kind == K.ORIGIN_SYM and o.framework == "tf" for o in arg.live):
            self._needs_source[id(node)] = frozenset(arg.live)

    def on_diff(self, ev: DiffEvent) -> None:
        for n in ev.target.sorted_notes(self.note_kind):
            data = n.data[1] if isinstance(n.data, tuple) else n.node
            needs = self._needs_source.get(id(data))
            if needs is not None and not (ev.sources is not None and needs & every_origin(ev.sources)):
                continue  # `tf.gradients(loss, [w])`: the placeholder fed to the where is data here
            self.report_site(n.node, n.data, ev)

    def on_binop(self, ev) -> None:
        if ev.op in ("/", "**"):
            self._judge_argument(ev.node, ev.right if ev.op == "/" else ev.left, ev.left if ev.op == "/" else None)
            self._note_unsafe(ev)

    def _note_unsafe(self, ev) -> None:
        """An unsafe operation with history (`z = x.sqrt() + 1`): its result carries a note, so
        that a where() given the name it was bound to (`where(x == 0, y, z)`) sees it."""
        if id(ev.node) in self._harmless_ops or not ev.result.live:
            return
        self._tf_where = (getattr(ev, "qual", None) or "").startswith(("tensorflow.", "keras."))
        hit = self._unsafe_here(ev.node)
        if hit is not None:
            ev.add_note(Note("unsafe_op", hit[0], data=hit[1]))

    def on_call(self, ev: CallEvent) -> None:
        last = ev.name
        if last in _WHERE_SANITIZERS and ev.result.live:
            ev.add_note(Note("sanitized", ev.node, through_cuts=True))
        if last in _UNSAFE_FUNCS:
            self._judge_argument(ev.node, ev.recv if ev.method is not None and ev.recv is not None and not ev.qual
                                 else (ev.args[0] if ev.args else None))
            self._note_unsafe(ev)
            return
        if last != "where":
            return
        if len(ev.arg_nodes) >= 3:
            branches = list(zip(ev.arg_nodes[1:3], ev.args[1:3]))
        elif (len(ev.arg_nodes) == 2 and ev.method == "where" and ev.qual is None and ev.recv is not None
              and isinstance(ev.node.func, cst.Attribute) and not self._module_path(ev.node.func.value)):
            # `torch.sqrt(x).where(x > 0, 0.0)`: the receiver is the branch taken where the condition holds
            branches = [(ev.node.func.value, ev.recv), (ev.arg_nodes[1], ev.args[1])]
        else:
            return
        self._tf_where = (ev.qual or "").startswith(("tensorflow.", "keras."))
        cond_node = ev.arg_nodes[0]
        cond_names = _names_in(cond_node)
        cond_val = ev.args[0]
        for branch_node, branch_val in branches:
            hit = self._unsafe_op(branch_node)
            bound = hit is None and isinstance(branch_node, cst.Name)
            if bound:
                hit = self._bound_unsafe_op(branch_val, cond_names)
            hit = self._past_safe(ev, hit, bound)
            if hit is None:
                continue
            op_node, arg_node = hit
            arg_names = _names_in(arg_node)
            related = bool(arg_names & cond_names)
            if not related:
                cond_origins = every_origin(cond_val)
                related = bool(cond_origins & set(branch_val.live))
            if not related:
                continue
            if bound:
                # the operation is on another line: the where() that mixes it in is the site
                self.mark(ev, ev.node, data=(last, op_node))
            else:
                self.mark(ev, op_node, data=last)
            return

    def _past_safe(self, ev, hit, bound: bool):
        """The first unsafe operation once those made safe are passed: `log(1 + exp(x))` (a
        hand-written softplus) has a safe log and an exp inside it that overflows."""
        while hit is not None and (id(hit[0]) in self._harmless_ops or self._sanitized_arg(ev, hit[1])):
            hit = None if bound else self._unsafe_op(hit[1])
        if hit is not None and callee_last(hit[0]) in ("exp", "expm1") and _capped(hit[1]):
            return None  # `exp(minimum(x, 20))`: capped before it can overflow
        return hit

    def _bound_unsafe_op(self, branch_val, cond_names: set):
        """A branch passed by name, computed from an unsafe operation on what the condition
        tests (`z = x.sqrt() + 1`, then `where(x == 0, y, z)`): named by the same variable, not
        merely related through the model (a name proves the condition was written about it)."""
        for n in branch_val.sorted_notes("unsafe_op"):
            if _names_in(n.data) & cond_names:
                return n.node, n.data
        return None

    def _unsafe_op(self, node: cst.CSTNode):
        """(operation node, its argument) for the first log/sqrt/.../`c / x` in `node`, looking
        through arithmetic (`p * torch.log(p)`)."""
        hit = self._unsafe_here(node)
        if hit is not None:
            return hit
        if isinstance(node, cst.BinaryOperation):
            return self._unsafe_op(node.left) or self._unsafe_op(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self._unsafe_op(node.expression)
        if isinstance(node, cst.Call) and callee_last(node) not in _NO_GRADIENT_CALLS:
            # `torch.log1p(torch.exp(x))`, `torch.tanh(torch.sqrt(x))`: the chain rule multiplies
            # the inner operation's infinite derivative in just the same
            f = node.func
            inner = [f.value] if isinstance(f, cst.Attribute) and not self._module_path(f.value) else []
            for n in inner + [a.value for a in node.args]:
                hit = self._unsafe_op(n)
                if hit is not None:
                    return hit
        return None

    def _unsafe_here(self, node: cst.CSTNode):
        name = callee_last(node)
        if name in _UNSAFE_FUNCS and isinstance(node, cst.Call):
            f = node.func
            if self._tf_where and name in _TF_ZERO_SAFE_GRADS:
                return None  # TensorFlow's SqrtGrad/RsqrtGrad give 0 where the incoming gradient is 0
            if isinstance(f, cst.Attribute) and not self._module_path(f.value):
                # x.log() method form: the receiver is the argument (`tf.math.log(x)`,
                # `torch.special.log1p(x)` are functions of a module path)
                if name in ("pow", "float_power") and not (node.args and _singular_exponent(node.args[0].value)):
                    return None
                return node, f.value
            if node.args:
                if name in ("pow", "float_power") and not (len(node.args) > 1 and _singular_exponent(node.args[1].value)):
                    return None
                return node, node.args[0].value
            return None
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide) and not isinstance(node.right, (cst.Integer, cst.Float)):
            return node, node.right
        if name in _DIVIDE_FUNCS and isinstance(node, cst.Call):
            method = isinstance(node.func, cst.Attribute) and not self._module_path(node.func.value)
            k = 0 if method else 1
            den = node.args[k].value if len(node.args) > k and node.args[k].keyword is None else None
            if den is not None and not isinstance(den, (cst.Integer, cst.Float)):
                return node, den
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power) and _singular_exponent(node.right):
            return node, node.left  # `x ** 0.5`: infinite derivative at 0, NaN below
        return None

    def _module_path(self, node) -> bool:
        """`tf.math`, `torch.special`, `jnp.linalg`, `F`: a module the file imports (or a
        conventional name), not a tensor whose method is called."""
        name = dotted_name(node)
        if name is None:
            return False
        head = name.split(".", 1)[0]
        return head in _MODULE_NAMES or head in imported_modules(self.ctx)

    def _sanitized_arg(self, ev: CallEvent, arg_node) -> bool:
        # arguments computed by where/clamp/abs+eps were made safe before the operation
        if isinstance(arg_node, (cst.BinaryOperation, cst.UnaryOperation)) and any(
                isinstance(b := _last_binding(self.ctx, n), cst.Call) and callee_last(b) in _WHERE_SANITIZERS
                for n in walk(arg_node) if isinstance(n, cst.Name)):
            return True  # `1.0 / (1.0 - x_neg)` of `x_neg = where(neg, x, 0)`: the double where's fill, the author's choice
        if isinstance(arg_node, cst.Name) and any(
            n.kind == "sanitized" and n.node is not None for v in ev.args[1:3] for n in v.notes
        ):
            return True
        if isinstance(arg_node, cst.Call) and callee_last(arg_node) in _WHERE_SANITIZERS:
            return True
        return _has_additive_const(arg_node)

    def report_site(self, site, data, ev: DiffEvent | None) -> None:
        op = site
        if isinstance(data, tuple):
            data, op = data  # a branch bound to a name: reported at the where(), the operation named
        what = callee_last(op) or ("a fractional power" if isinstance(op, cst.BinaryOperation) and isinstance(op.operator, cst.Power)
                                   else "division")
        where = "where the condition rejects large inputs it overflows to inf" if what in ("exp", "expm1") else "where the condition excludes its domain"
        shown = what if what.startswith("a ") else f"`{what}`"
        # the remedy in the framework the code differentiates with
        safe = {DiffKind.TAPE: "tf.where(cond, x, tf.ones_like(x))", DiffKind.TF_GRAPH: "tf.where(cond, x, tf.ones_like(x))",
                DiffKind.KERAS: "tf.where(cond, x, tf.ones_like(x))", DiffKind.JAX: "jnp.where(cond, x, 1.0)"}.get(
                    ev.kind if ev is not None else None, "torch.where(cond, x, torch.ones_like(x))")
        self.report(
            site,
            lambda line: (
                f"{shown}{f' (line {line(op)})' if op is not site else ''} is evaluated on both branches of {data}(): {where}, its "
                f"gradient there is inf/NaN, and inf * 0 = NaN leaks into the whole gradient; make the input safe before the "
                f"operation (`safe = {safe}`) or clamp it"
            ),
        )


_FLOORS = frozenset({"maximum", "clamp", "clamp_min", "clip", "clip_by_value", "fmax"})


def _floored_sqrt(ctx, ev: CallEvent):
    """The sqrt call a floor (`maximum(d, eps)`, `d.clamp(min=eps)`, `clip_by_value(d, eps, m)`)
    is applied to, `d` being the call or a name bound to it earlier in the function; None
    otherwise. The floor is a small positive constant (a literal, `eps`, `K.epsilon()`)."""
    f = ev.node.func
    kw = ev.kw_nodes
    if ev.method is not None and isinstance(f, cst.Attribute) and ev.recv is not None and ev.qual is None:
        pairs = [(f.value, kw.get("min") if ev.name in ("clamp", "clip") else (ev.arg_nodes or [kw.get("min")])[0])]
        if ev.name in ("clamp", "clip") and "min" not in kw and ev.arg_nodes:
            pairs = [(f.value, ev.arg_nodes[0])]
    else:
        nodes = ev.arg_nodes
        if len(nodes) < 1:
            return None
        if ev.name in ("maximum", "fmax"):
            pairs = [(nodes[0], nodes[1]), (nodes[1], nodes[0])] if len(nodes) >= 2 else []
        else:
            pairs = [(nodes[0], kw.get("min") or kw.get("clip_value_min") or kw.get("a_min") or (nodes[1] if len(nodes) >= 2 else None))]
    for operand, floor in pairs:
        if floor is None or not _positive_constant(floor):
            continue
        node = operand
        if isinstance(node, cst.Name):
            node = _last_binding(ctx, node)
        if isinstance(node, cst.Call) and callee_last(node) == "sqrt":
            # `torch.sqrt(s)`, or the method `s.sqrt()`
            inner = node.args[0].value if node.args else node.func.value if isinstance(node.func, cst.Attribute) else None
            if inner is not None and not _kept_from_zero(ctx, inner):
                return node
    return None


def _kept_from_zero(ctx, node, depth: int = 0) -> bool:
    """The sqrt's input is already kept away from 0: floored (`maximum(s, eps)`, `s.clamp(min=eps)`),
    a softplus, or `s + eps` (a name bound to one earlier in the function counts)."""
    if isinstance(node, cst.Name) and depth < 2:
        bound = _last_binding(ctx, node)
        return bound is not None and _kept_from_zero(ctx, bound, depth + 1)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _positive_constant(node.left) or _positive_constant(node.right)
    if not isinstance(node, cst.Call):
        return False
    name = callee_last(node)
    if name == "softplus":
        return True
    if name not in _FLOORS:
        return False
    floors = [a.value for a in node.args if a.keyword is None or a.keyword.value in ("min", "clip_value_min", "a_min")]
    if isinstance(node.func, cst.Attribute) and name in ("clamp", "clip", "clamp_min"):
        floors = floors[:1]  # `s.clamp(min=eps)`, `s.clamp_min(eps)`: the receiver is the input
    # any floor but a literal 0 (or below): a named bound (`CLAMP_LB`, `min_var`) is one
    return any(not isinstance(v := literal(f), (int, float)) or v > 0 for f in floors)


def _positive_constant(node) -> bool:
    """A small positive constant: a positive literal, a name that says it is an epsilon, a call
    that returns one (`K.epsilon()`) or makes a tensor of one (`torch.tensor(1e-6)`)."""
    v = literal(node)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v > 0
    if isinstance(node, cst.Call):
        if callee_last(node) in ("tensor", "constant", "array", "asarray", "as_tensor", "convert_to_tensor") and node.args:
            return _positive_constant(node.args[0].value)  # `torch.tensor(1e-6)`, `tf.constant(1e-7)`
        return callee_last(node) == "epsilon"
    if isinstance(node, cst.Name) and node.value.isupper():
        return True  # a module constant (`CLAMP_LB`, `MIN_NORM`)
    return not isinstance(node, (cst.Integer, cst.Float)) and epsilon_like(node)


class SqrtOfSumOfSquares(_FlowsToLoss):
    code = "GL408"
    message = ("sqrt(sum(x**2)), sqrt(var), a JAX/TensorFlow norm, or a sqrt floored only after the fact, without an epsilon "
               "inside: the gradient is NaN where the value is exactly 0")
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.linalg.vector_norm.html"
    triggers = ("sqrt", "** 0.5", "**0.5", "norm", "std")
    note_kind = "sqrt_trap"
    fix_applicability = Applicability.UNSAFE
    rationale = """
        d/du sqrt(u) = 1 / (2 sqrt(u)) is infinite at u = 0. A hand-written Euclidean distance
        `torch.sqrt(((a - b) ** 2).sum(1))` has u = 0 for identical pairs, and a standard
        deviation `torch.sqrt(z.var(0))` has u = 0 for a collapsed (constant) feature: the
        chain rule then gives 0 * inf = NaN, and one NaN poisons every parameter. A weighted
        sum of squares (`matmul(bands, norm(spec) ** 2)`, a band energy) is 0 where its vector
        is (a silent band) just the same.

        JAX's `jnp.linalg.norm` and TensorFlow's `tf.norm` are this square root (their gradient
        at the zero vector is NaN, unlike torch's norms): a squared norm, the norm of a
        difference or of a gradient (a WGAN-GP slope), and `x / norm(x)` (torch's F.normalize
        ported without its eps: a zero row from padding is 0/0) on the differentiated path are
        reported too. A gradient taken
        by a `GradientTape` inside another recording tape, or by TF1's `tf.gradients`, is
        differentiable again, so a penalty built from it is on the path.

        A floor applied *after* the square root — `maximum(sqrt(s), eps)`,
        `sqrt(s).clamp(min=eps)`, a hand-written cosine or norm denominator, whatever `s` is —
        says that `s` can be 0 and keeps the value finite, but at `s == 0` the sqrt's
        derivative is infinite and the floor's is 0: 0 * inf = NaN (measured on torch 2.13;
        optax documents it for JAX, keras#3031 for Keras). Not reported when the input is
        floored first, nor for TensorFlow's own `tf.maximum` / `tf.clip_by_value`: TF's sqrt
        gradient is 0 where the incoming gradient is 0 (TF 2.21), so that floor is safe there.

        Instead: `torch.linalg.vector_norm(a - b, dim=1)` (its gradient at 0 is defined), or
        `torch.sqrt(u + eps)` with a small eps (1e-12 in float64, 1e-8 in float32), or floor
        the input: `sqrt(maximum(s, eps ** 2))`.
    """
    invalid = [
        Invalid(
            """
            import torch
            emb = torch.nn.Embedding(100, 16)
            a, b = emb(torch.tensor([1, 2, 3])), emb(torch.tensor([4, 2, 5]))
            d = torch.sqrt(torch.sum((a - b) ** 2, dim=1))
            d.mean().backward()
            """,
            line=4,
            fixed="""
            import torch
            emb = torch.nn.Embedding(100, 16)
            a, b = emb(torch.tensor([1, 2, 3])), emb(torch.tensor([4, 2, 5]))
            d = torch.sqrt(torch.sum((a - b) ** 2, dim=1) + 1e-12)
            d.mean().backward()
            """,
        ),
        Invalid(  # jax#4177, jax#21723: a squared norm written through the norm
            """
            import jax
            import jax.numpy as jnp
            def squared_2_norm(x):
                return jnp.linalg.norm(x) ** 2
            print(jax.grad(squared_2_norm)(jnp.zeros(2)))
            """,
            line=4,
        ),
        Invalid(  # a WGAN-GP critic step in TF2: the penalty's tape runs inside the step's tape
            """
            import tensorflow as tf
            critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            def critic_step(real, fake):
                with tf.GradientTape() as tape:
                    eps = tf.random.uniform([real.shape[0], 1])
                    x_hat = eps * real + (1 - eps) * fake
                    with tf.GradientTape() as gp_tape:
                        gp_tape.watch(x_hat)
                        d_hat = critic(x_hat)
                    grads = gp_tape.gradient(d_hat, x_hat)
                    slopes = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1))
                    loss = tf.reduce_mean(critic(fake) - critic(real)) + 10.0 * tf.reduce_mean((slopes - 1.0) ** 2)
                return tape.gradient(loss, critic.trainable_variables)
            """,
            line=11,
        ),
        Invalid(  # keras-team/keras#3031: a cosine denominator floored after its sqrt
            """
            import torch
            a = torch.zeros(4, 8, requires_grad=True)
            b = torch.randn(4, 8)
            denominator = torch.sqrt((a * b).sum(-1) ** 2 + (a * a).sum(-1) * (b * b).sum(-1))
            cosine = (a * b).sum(-1) / torch.clamp(denominator, min=1e-7)
            cosine.sum().backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        a = torch.zeros(4, 8, requires_grad=True)
        b = torch.randn(4, 8)
        denominator = torch.sqrt(torch.clamp((a * a).sum(-1) * (b * b).sum(-1), min=1e-14))
        cosine = (a * b).sum(-1) / denominator
        cosine.sum().backward()
        """,
        """
        import torch
        emb = torch.nn.Embedding(100, 16)
        a, b = emb(torch.tensor([1, 2, 3])), emb(torch.tensor([4, 2, 5]))
        d = torch.sqrt(((a - b) ** 2).sum(dim=1) + 1e-8)
        (d.mean() + torch.linalg.vector_norm(a - b, dim=1).mean()).backward()
        """,
        """
        import jax
        import jax.numpy as jnp
        def loss(w, x):
            z = x @ w
            z = z * jax.lax.rsqrt(jnp.maximum(jnp.sum(z * z, axis=-1, keepdims=True), 1e-24))  # normalising, floored inside
            return jnp.sum(z ** 2) + 1e-4 * jnp.sum(w ** 2)  # a squared norm as a sum of squares
        print(jax.grad(loss)(jnp.ones((3, 2)), jnp.ones((4, 3))))
        """,
    ]

    call_names = frozenset({"sqrt", "pow", "norm", "vector_norm", "reduce_euclidean_norm", "global_norm", "std", "nanstd", "reduce_std"}) | _FLOORS
    _NAN_NORMS = jax_overlay.NAN_AT_ZERO_NORMS | tf_overlay.NAN_AT_ZERO_NORMS
    _NAN_STDS = jax_overlay.NAN_AT_ZERO_STDS | tf_overlay.NAN_AT_ZERO_STDS

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # binop results cannot take notes: `x ** 0.5` sites are reported when the file
        # differentiates anything
        self._binop_sites: list[tuple] = []
        self._any_diff = False
        self._second_order = SecondOrder(tensorflow=True)
        self._penalties: set[int] = set()  # sites reported through a returned penalty
        self._framework: dict[int, str] = {}  # sites computed by TensorFlow/JAX (torch otherwise): the remedy's spelling
        self._floor_of: dict[int, cst.CSTNode] = {}  # sqrt call -> the floor applied to its result afterwards
        self._tf_floored: set[int] = set()  # sqrt calls TensorFlow's maximum/clip_by_value floors afterwards

    def on_call(self, ev: CallEvent) -> None:
        last = ev.name
        if last in _FLOORS:
            if ev.qual is not None and ev.qual.startswith("tensorflow."):
                # TensorFlow's own floor: its zero gradient reaches TF's SqrtGrad, which gives 0
                # for a zero incoming gradient (measured on TF 2.21; _TF_ZERO_SAFE_GRADS): the
                # square root is safe. Keras's `K.maximum` may run on JAX: 0 * inf = NaN there
                floored = _floored_sqrt(self.ctx, ev)
                if floored is not None:
                    self._tf_floored.add(id(floored))
                return
            floored = _floored_sqrt(self.ctx, ev) if ev.qual is None or ev.qual.startswith(("torch.", "jax.", "keras.")) else None
            if floored is not None and ev.result.live:
                self._floor_of.setdefault(id(floored), ev.node)  # the message names the floor, however the site is reached
                self.mark(ev, floored, data=("floor", ev.node))
            return
        if ev.qual in self._NAN_NORMS and ev.result.live:
            # JAX's and TensorFlow's Euclidean norm is this square root (torch's norms define 0 there)
            order = ev.arg(1, "ord")
            if order is None or order.get(F.CONST) in (None, 2, "fro", "euclidean"):
                why = self._norm_reaches_zero(ev)
                if why:
                    self.mark(ev, ev.node, data=("norm", why))
                elif ev.arg_nodes and self._framework_norm_bound(ev):
                    # `norm = jnp.linalg.norm(x, ...)` then `x / norm`: the division decides
                    ev.add_note(Note("norm_of", ev.node, data=self.ctx.code(ev.arg_nodes[0])))
            return
        if (ev.qual in self._NAN_STDS or ev.qual is None and last == "std" and ev.recv is not None and ev.recv.get(F.FW) == "jax") \
                and ev.result.live:
            self.mark(ev, ev.node, data=("norm", "std"))  # sqrt(var), as written by the library
            return
        if last not in ("sqrt", "pow") or not ev.result.live:
            return
        method = ev.method == last and ev.recv is not None
        if last == "pow":  # `torch.pow(s, 0.5)`, `s.pow(0.5)`: a square root too
            exponent = ev.arg_nodes[0 if method else 1] if len(ev.arg_nodes) > (0 if method else 1) else None
            if exponent is None or literal(exponent) != 0.5:
                return
        if method:
            arg = ev.node.func.value if isinstance(ev.node.func, cst.Attribute) else None
        else:
            arg = ev.arg_nodes[0] if ev.arg_nodes else None
        if arg is None or _has_additive_const(arg):
            return
        arg_val = ev.recv if method else (ev.args[0] if ev.args else None)
        if arg_val is not None and arg_val.get(F.GUARDED) is not None:
            return  # `u = u + 1e-12` earlier
        # the argument as written (`sqrt(((a - b) ** 2).sum(1))`), or as computed wherever it was
        # (`sq = ...; sqrt(sq)`, `sqrt(dx ** 2 + dy ** 2)`, an RMSE `sqrt(mse_loss(p, y))`)
        if self._sum_of_squares(arg) or self._variance(arg) or (arg_val is not None and arg_val.get(F.SQUARES) is not None):
            self.mark(ev, ev.node, data=arg)
            fw = ev.result.get(F.FW)
            if fw in ("tf", "jax"):
                self._framework[id(ev.node)] = fw

    def _framework_norm_bound(self, ev: CallEvent) -> bool:
        """The norm is bound to a name (`norm = jnp.linalg.norm(x)`), to be divided by later."""
        return isinstance(self.ctx.parent(ev.node), cst.Assign)

    def on_binop(self, ev: BinOpEvent) -> None:
        if ev.op == "/" and ev.result.live and ev.right.get(F.GUARDED) is None:
            for n in ev.right.notes:
                if n.kind == "norm_of" and n.data == self.ctx.code(ev.node.left) and not isinstance(ev.node.right, cst.Call):
                    # `x / norm` with `norm = jnp.linalg.norm(x)`: F.normalize without its eps
                    self._sites[id(n.node)] = (n.node, ("norm", "normalised"))
                    ev.add_note(Note(self.note_kind, n.node, data=("norm", "normalised")))
                    break
        if ev.op == "**" and isinstance(ev.node.right, cst.Float) and float(ev.node.right.value) == 0.5 and ev.result.live:
            arg = ev.node.left
            if not _has_additive_const(arg) and (self._sum_of_squares(arg) or self._variance(arg) or ev.left.get(F.SQUARES) is not None):
                self._sites[id(ev.node)] = (ev.node, arg)
                self._binop_sites.append((ev.node, arg))
                if ev.result.get(F.FW) in ("tf", "jax"):
                    self._framework[id(ev.node)] = ev.result.get(F.FW)

    def finish(self) -> None:
        if self._any_diff:
            for node, arg in self._binop_sites:
                self.report_site(node, arg, None)

    def on_diff(self, ev: DiffEvent) -> None:
        self._any_diff = True
        self._second_order.note(ev)
        super().on_diff(ev)

    def on_function(self, ev) -> None:
        super().on_function(ev)
        self._returned_penalty(ev)
        # a floor after a sqrt in a forward()/call() whose inputs are what earlier layers
        # computed (a weightless merge layer): the floor is the evidence, its output is trained
        if ev.kind == "standalone" and ev.ctx.grad == "on" and trained_forward(ev.fn) and not any(o.certain for o in ev.returns.live):
            for n in ev.returns.sorted_notes(self.note_kind):
                if isinstance(n.data, tuple) and n.data[0] == "floor":
                    self.report_site(n.node, n.data, None)

    def _returned_penalty(self, ev) -> None:
        """A gradient penalty returned to the caller (`return ((slopes - 1) ** 2).mean()`
        with `slopes = sqrt(sum(g ** 2))` of a create_graph gradient): nothing differentiates
        it here, but a 0-dim value built from a create_graph gradient exists to be
        backpropagated."""
        returned = ev.returns
        if returned.get(F.SCALAR) is not True:
            return  # a penalty is a 0-dim loss term (not a Newton step or a Hessian returned for other uses)
        if not self._second_order.built_from(returned):
            return
        for n in returned.sorted_notes(self.note_kind):
            if id(n.node) not in self._penalties:
                self._penalties.add(id(n.node))
                self.report_site(n.node, n.data, None)

    def _norm_reaches_zero(self, ev: CallEvent) -> str | None:
        """Why a JAX/TensorFlow norm is likely to be taken at the zero vector, or None. A norm
        as such is not reported (a weight norm, a norm for logging). Reported: a squared norm
        (the author wanted sum(x**2), smooth at 0: jax#4177, jax#21723), the norm of a
        difference (identical pairs), the norm of a gradient (a penalty's slope, 0 where the
        critic is flat), and `x / norm(x)` (a port of torch's F.normalize without its eps: a
        zero row, from padding, is 0/0)."""
        parent = self.ctx.parent(ev.node)
        if (isinstance(parent, cst.BinaryOperation) and parent.left is ev.node and isinstance(parent.operator, cst.Power)
                and literal(parent.right) == 2):
            return "squared"
        if isinstance(parent, cst.Arg) and callee_last(self.ctx.parent(parent)) == "square":
            return "squared"
        arg_node = ev.arg_nodes[0] if ev.arg_nodes else None
        if (isinstance(parent, cst.BinaryOperation) and parent.right is ev.node and isinstance(parent.operator, cst.Divide)
                and arg_node is not None and _same_code(parent.left, arg_node)):
            return "normalised"  # `x / jnp.linalg.norm(x)` (a port of F.normalize without its eps)
        if isinstance(arg_node, cst.BinaryOperation) and isinstance(arg_node.operator, cst.Subtract):
            return "difference"
        arg = ev.arg(0, "x") or ev.arg(0, "tensor")
        if arg is not None and (arg.get(F.GRAD_RESULT) is not None or arg.kind == K.GRAD):
            return "gradient"
        return None

    def _sum_of_squares(self, node) -> bool:
        while isinstance(node, cst.Call) and callee_last(node) in ("squeeze", "unsqueeze", "float", "double") and isinstance(node.func, cst.Attribute):
            node = node.func.value
        name = callee_last(node)
        if name not in ("sum", "mean", "nansum", "reduce_sum", "reduce_mean"):
            return False
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not (isinstance(node.func.value, cst.Name) and node.func.value.value in imported_modules(self.ctx)):
            inner = node.func.value
        elif isinstance(node, cst.Call) and node.args:
            inner = node.args[0].value
        else:
            return False
        return self._square(inner)

    @staticmethod
    def _square(node) -> bool:
        if isinstance(node, cst.BinaryOperation):
            if isinstance(node.operator, cst.Power) and isinstance(node.right, cst.Integer) and node.right.value == "2":
                return True
            if isinstance(node.operator, cst.Multiply):
                left, right = node.left, node.right
                return type(left) is type(right) and cst.Module(body=[]).code_for_node(left) == cst.Module(body=[]).code_for_node(right)
        name = callee_last(node)
        if name == "square":
            return True
        if name == "pow" and isinstance(node, cst.Call) and node.args:
            e = node.args[-1].value
            return isinstance(e, cst.Integer) and e.value == "2"
        return False

    @staticmethod
    def _variance(node) -> bool:
        return callee_last(node) == "var"

    def report_site(self, site, data, ev) -> None:
        if id(site) in self._tf_floored:
            return
        if id(site) in self._floor_of:  # ("floor", the floor applied after the sqrt), or a sum of squares floored so
            floor = self._floor_of[id(site)]
            self.report(
                site,
                lambda line: (
                    f"the floor on line {line(floor)} (`{shortened(self.ctx.code(floor), 50)}`) keeps this square root's value away "
                    f"from 0 but not its gradient: where its input is 0 the sqrt's derivative is infinite and the floor's is 0, "
                    f"so 0 * inf = NaN reaches every gradient behind it; floor the input instead (`sqrt(maximum(s, eps ** 2))`)"
                ),
            )
            return
        if isinstance(data, tuple):  # a JAX/TensorFlow norm: ("norm", why)
            what = self.ctx.code(site.func) if isinstance(site, cst.Call) else "this norm"
            where, instead = {
                "squared": ("its square is smooth, but the gradient of the norm itself is 0/0 = NaN at the zero vector",
                            "write the squared norm as a sum of squares (`sum(x ** 2)`), whose gradient 2x is defined at 0"),
                "difference": ("the norm of a difference is 0 for identical pairs, and its gradient there is 0/0 = NaN",
                               "use `sqrt(sum(d ** 2) + eps)` (or the double-where trick to keep the value exact at 0)"),
                "gradient": ("the norm of a gradient is 0 where the gradient vanishes, and its gradient there is 0/0 = NaN",
                             "use `sqrt(sum(g ** 2) + eps)`"),
                "std": ("a standard deviation is 0 where the values are all equal (a collapsed or zero-initialised output), and "
                        "its gradient there is 0/0 = NaN", "take the root of the variance plus a small epsilon, "
                        "`sqrt(var(x) + eps)`"),
                "normalised": ("a row of zeros (padding, a dead feature) makes `x / norm(x)` 0/0 = NaN, and the norm's "
                               "gradient there is 0/0 too",
                               "floor the sum of squares before the root, `x * jax.lax.rsqrt(jnp.maximum(jnp.sum(x * x, axis, "
                               "keepdims=True), eps ** 2))` (what tf.math.l2_normalize does; a floor on the norm itself keeps "
                               "its NaN gradient)"),
            }[data[1]]
            self.report(
                site,
                f"`{what}` is a square root of a sum of squares and {where} in JAX and TensorFlow (unlike torch's "
                f"{'std' if data[1] == 'std' else 'norms'}); one NaN poisons every parameter: {instead}",
            )
            return
        fix = None
        if isinstance(site, cst.Call) and site.args and data is site.args[0].value:
            fix = RuleFix("Add an epsilon inside the square root", (NodeEdit(data, " + 1e-12", how="after"),), Applicability.UNSAFE)
        instead = {
            "tf": "`tf.sqrt(u + eps)` (tf.norm has the same NaN at 0)",
            "jax": "`jnp.sqrt(u + eps)` (jnp.linalg.norm has the same NaN at 0)",
        }.get(self._framework.get(id(site), ""), "`torch.linalg.vector_norm(...)` or `torch.sqrt(u + eps)`")
        self.report(
            site,
            "square root of a sum of squares / variance without an epsilon: where it is exactly 0 (identical pairs, a "
            f"constant feature) its gradient is inf and the chain rule gives NaN; use {instead}",
            fix=fix,
        )


class LogOfSigmoidOrSoftmax(_FlowsToLoss):
    code = "GL409"
    message = "log(sigmoid(z)) / log(1 - sigmoid(z)) / log(softmax(z)) on logits: saturates to log(0) = -inf"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.BCEWithLogitsLoss.html"
    triggers = ("log",)
    note_kind = "log_prob"
    rationale = """
        `sigmoid(z)` rounds to exactly 1.0 for z > ~17 (float32) and to 0 below ~-88;
        `softmax` likewise. Their log is then -inf, the loss inf, and the gradient NaN — a
        confident model breaks training. Hand-written binary cross-entropy
        `-(y * log(p) + (1 - y) * log(1 - p))` is the classic case. Not reported: a log whose
        argument is kept away from 0 (`+ 1e-7`, `+ K.epsilon()`, a positive clamp, also done in
        place: `p.clamp_(0.01, 0.99)`), and a log that only feeds a sampler
        (`tf.random.categorical`, `torch.multinomial`, a Categorical's `sample()`): the draw has
        no gradient and -inf logits are valid there. Nor is the log-probability of the action
        taken (`log(pi.gather(1, a))`, `log(prob[a])`) of a policy the program draws its actions
        from (`Categorical(prob)`, `multinomial`, `np.random.choice(n, p=prob)`): a drawn
        action's probability is not 0, and the gradient reaches that entry only. The log of the
        whole distribution (`Categorical(logits=log(p))`, `w * log(p)`) still is: its zero
        entries get the gradient 1/0.

        Instead: work on logits: `F.binary_cross_entropy_with_logits(z, y)` /
        `nn.BCEWithLogitsLoss`, `F.logsigmoid(z)` (and `F.logsigmoid(-z)` for log(1 - p)),
        `F.log_softmax(z, dim)` / `F.cross_entropy`.
    """
    invalid = [
        Invalid(
            """
            import torch
            clf = torch.nn.Linear(10, 1)
            x, y = torch.randn(32, 10), torch.randint(0, 2, (32, 1)).float()
            p = torch.sigmoid(clf(x))
            loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
            loss.backward()
            """,
            line=5,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        clf = torch.nn.Linear(10, 1)
        x, y = torch.randn(32, 10), torch.randint(0, 2, (32, 1)).float()
        z = clf(x)
        loss = F.binary_cross_entropy_with_logits(z, y) - (y * F.logsigmoid(z)).mean()
        loss.backward()
        """
    ]

    call_names = frozenset({"sigmoid", "softmax", "Sigmoid", "clamp", "clamp_min", "clip", "clip_by_value", "maximum", "log",
                            *PROB_SAMPLERS})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._drawn: set[int] = set()  # sigmoid/softmax calls whose probabilities some sampler draws from
        self._pending: dict[int, tuple] = {}  # (site, data): reported at the end, when every draw is known

    def on_call(self, ev: CallEvent) -> None:
        last = ev.name
        if last in ("sigmoid", "softmax", "Sigmoid"):
            # which probabilities a sampler draws from is asked of every one, live or not (a
            # rollout under no_grad, through .detach().numpy()): a note that survives cuts
            ev.add_note(Note("prob_head", ev.node, through_cuts=True))
            if ev.result.live:
                ev.add_note(Note("prob", ev.node, data=last, through_cuts=False))
            return
        if last in PROB_SAMPLERS:
            drawn = ev.arg(*PROB_SAMPLERS[last]) if last != "multinomial" or ev.recv is None or ev.method != last else ev.recv
            if drawn is not None:
                self._drawn.update(id(n.node) for n in drawn.notes if n.kind == "prob_head")
            return
        if last in ("clamp", "clamp_min", "clip", "clip_by_value", "maximum") and ev.result.live:
            # `tf.clip_by_value(p, 1e-10, 1.0)`, `tf.maximum(p, eps)`: kept away from 0
            ev.add_note(Note("sanitized", ev.node, through_cuts=True))
            return
        if last != "log":
            return
        vals = [ev.recv] if ev.method == "log" and ev.recv is not None else ev.args[:1]
        arg_node = ev.node.func.value if ev.method == "log" and isinstance(ev.node.func, cst.Attribute) else (ev.arg_nodes[0] if ev.arg_nodes else None)
        if not vals or arg_node is None or _has_additive_const(arg_node):
            return
        v = vals[0]
        if any(n.kind == "sanitized" for n in v.notes) or xlogx_product(self.ctx, ev.node, arg_node) is not None:
            return
        if v.get(F.GUARDED) is not None:
            # kept away from 0 however it is spelled: `p + K.epsilon()`, `p = p + eps` on a line
            # before, a positive clamp done in place (`p.clamp_(0.01, 0.99)`, `p.data.clamp_(...)`)
            return
        probs = [n for n in v.notes if n.kind == "prob"]
        if probs and v.live:
            # the probability of the action taken (`pi.gather(1, a)`, `prob[a]`) of a policy the
            # program samples from: which heads are sampled is known at the end
            heads = frozenset(id(n.node) for n in probs) if v.get(F.PICKED) is not None else None
            kind = min(n.data.lower() for n in probs)
            self.mark(ev, ev.node, data=(kind, (ev.qual or "").startswith(("tensorflow.", "keras.")), heads))

    def report_site(self, site, data, ev) -> None:
        self._pending.setdefault(id(site), (site, data))

    def finish(self) -> None:
        for site, (kind, tf, heads) in self._pending.values():
            if heads is not None and heads <= self._drawn:
                # the log-probability of the action taken, under a policy the program draws its
                # actions from (`Categorical(probs).sample()`): a drawn action's probability is
                # not 0, and the gradient reaches that entry only (a log of the whole vector,
                # `Categorical(logits=log(p))`, `w * log(p)`, reaches the zeros too: reported)
                continue
            self._report(site, kind, tf)

    def _report(self, site, data, tf) -> None:
        if tf:
            instead = ("`tf.nn.log_softmax(z)` / `tf.nn.softmax_cross_entropy_with_logits`" if data == "softmax"
                       else "`tf.math.log_sigmoid(z)` or `tf.nn.sigmoid_cross_entropy_with_logits`")
        elif data == "softmax":
            instead = "`F.log_softmax(z, dim)` / `F.cross_entropy`"
        else:
            instead = "`F.logsigmoid(z)` (and `F.logsigmoid(-z)` for log(1 - p)) or `F.binary_cross_entropy_with_logits`"
        self.report(
            site,
            f"log of a {data} output: {data} saturates to exactly 0 or 1 in floating point, so this log becomes -inf and its "
            f"gradient NaN for confident predictions; work on the logits with {instead}",
        )


class NonDifferentiableOpOnLossPath(StarvedOrigins):
    code = "GL410"
    message = "every path from the trained parameters to the loss goes through round/floor/argmax/a comparison: zero gradient"
    severity = Severity.ERROR
    docs = "https://www.tensorflow.org/guide/autodiff#gradients_of_non-differentiable_functions"
    triggers = ("round", "floor", "ceil", "argmax", "argmin", "sign", ">", "<", "==", "long", "int", "cast", "max", "min", "topk",
                "sort", "kthvalue", "median", "mode", "cummax", "cummin")
    rationale = """
        `round`, `floor`, `ceil`, `sign`, `argmax`, comparisons and integer casts are piecewise
        constant: their gradient is zero almost everywhere (or None in TensorFlow, "No gradients
        provided for any variable"). A loss that depends on the model only through such an
        operation — a "hard" accuracy-like loss, thresholded predictions — cannot be trained.

        A comparison used as a constant weight on a loss that is differentiable by another path
        (hard-example mining), or a straight-through estimator (`x + (round(x) - x).detach()`),
        is fine and not flagged. Instead: a smooth surrogate (sigmoid with a temperature,
        softmax instead of argmax) or a straight-through estimator.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            x = tf.random.normal((32, 8))
            y_true = tf.cast(tf.random.uniform((32, 1)) > 0.5, tf.float32)
            with tf.GradientTape() as tape:
                y_pred = tf.floor(tf.sigmoid(model(x)) + 0.5)
                loss = tf.reduce_mean(tf.abs(y_true - y_pred))
            grads = tape.gradient(loss, model.trainable_variables)
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(20, 5)
        x, y = torch.randn(64, 20), torch.randint(0, 5, (64,))
        per_sample = torch.nn.functional.cross_entropy(model(x), y, reduction="none")
        hard = (per_sample > per_sample.detach().quantile(0.7)).float()
        loss = (per_sample * hard).sum() / hard.sum().clamp(min=1)
        loss.backward()
        """
    ]
    kinds = NONDIFF

    def emit_cut(self, ev: DiffEvent, o, c) -> None:
        if c.kind not in self.kinds:
            return
        if any(oo is o and cc.hard for oo, cc in ev.target.cuts):
            return
        name = c.kind if c.kind not in ("compare", "int_cast") else ("a comparison" if c.kind == "compare" else "an integer cast")
        what = f"`{call_name(c.node)}`" if isinstance(c.node, cst.Call) else name
        verb = "is piecewise constant"
        if c.kind == "indices":
            what, verb = f"the indices {what} returns", "are integers"  # `_, idx = torch.max(out, 1)`
        dt = ev.node
        ste = {"tf": "x + tf.stop_gradient(tf.round(x) - x)", "jax": "x + jax.lax.stop_gradient(jnp.round(x) - x)"}.get(
            o.framework or "", "x + (round(x) - x).detach()")
        self.report(
            c.node,
            lambda line, what=what, verb=verb, dt=dt, k=ev.kind, ste=ste: (
                f"{what} {verb} (zero or no gradient), and the "
                f"{'loss differentiated on line ' + str(line(dt)) if k in ('backward', 'tape', 'autograd_grad') else 'value whose graph line ' + str(line(dt)) + ' checks' if k == 'inspect' else 'loss'} "
                f"depends on the model only through it: nothing can be learned; use a smooth surrogate (sigmoid/softmax) "
                f"or a straight-through estimator `{ste}`"
            ),
        )


def _strictly_inside_unit(node) -> bool:
    """A clamp bound that is provably inside (-1, 1): a literal (`0.999`), or `1 - eps` /
    `-1 + eps` (whatever eps is, the code says it wants a margin)."""
    c = literal(node)
    if isinstance(c, (int, float)) and not isinstance(c, bool):
        return abs(c) < 1
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
        one = literal(node.left)
        if isinstance(one, (int, float)) and abs(one) == 1 and literal(node.right) not in (0, 0.0):
            return (one > 0) == isinstance(node.operator, cst.Subtract)
    return False


# operations whose result is never negative
_NONNEGATIVE = frozenset({"abs", "absolute", "square", "relu", "sigmoid", "softmax", "exp", "sqrt", "norm", "vector_norm"})


def _nonnegative(node) -> bool:
    """`abs(x)`, `x.abs()`, `x ** 2`, `torch.sigmoid(x)`: a value that cannot be below 0."""
    if isinstance(node, cst.Call):
        return callee_last(node) in _NONNEGATIVE
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power):
        return literal(node.right) == 2
    return False


class AcosAtUnit(_FlowsToLoss):
    code = "GL411"
    message = "acos/asin of a value that can reach ±1 (a cosine): the gradient is infinite there and NaN downstream"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.acos.html"
    triggers = ("acos", "asin", "arccos", "arcsin")
    note_kind = "acos_at_unit"
    rationale = """
        The derivative of `acos(x)` is `-1 / sqrt(1 - x**2)`: infinite at x = ±1, and `acos` of a
        cosine — an angle between embeddings, ArcFace/CosFace margins, geodesic distances —
        reaches exactly ±1 for identical (or opposite) vectors, or slightly beyond through
        rounding (then the value itself is NaN). The loss may be finite while every gradient
        through that term is NaN. Clamping to [-1, 1] keeps the value finite but not the
        gradient at the bounds.

        Instead: clamp strictly inside, `torch.acos(cos.clamp(-1 + 1e-7, 1 - 1e-7))`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            emb = torch.nn.Linear(16, 8)
            a, b = emb(torch.randn(4, 16)), emb(torch.randn(4, 16))
            cos = F.cosine_similarity(a, b, dim=1)
            angle = torch.acos(cos)
            angle.mean().backward()
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        emb = torch.nn.Linear(16, 8)
        a, b = emb(torch.randn(4, 16)), emb(torch.randn(4, 16))
        cos = F.cosine_similarity(a, b, dim=1).clamp(-1 + 1e-7, 1 - 1e-7)
        angle = torch.acos(cos)
        eps = 1e-6
        other = torch.acos(torch.clamp(F.cosine_similarity(a, b, dim=1), -1 + eps, 1 - eps))
        (angle.mean() + other.mean()).backward()
        """
    ]

    call_names = frozenset({"acos", "asin", "arccos", "arcsin", "clamp", "clip", "clamp_", "clip_by_value", "hardtanh"})

    def on_call(self, ev: CallEvent) -> None:
        last = ev.name
        method = ev.method == last and ev.recv is not None
        if last in ("clamp", "clip", "clamp_", "clip_by_value", "hardtanh"):
            bounds = ev.arg_nodes[0:2] if method else ev.arg_nodes[1:3]
            lo = ev.kw_nodes.get("min") or ev.kw_nodes.get("clip_value_min") or ev.kw_nodes.get("min_val") or (bounds[0] if bounds else None)
            hi = ev.kw_nodes.get("max") or ev.kw_nodes.get("clip_value_max") or ev.kw_nodes.get("max_val") or (bounds[1] if len(bounds) > 1 else None)
            if hi is not None and _strictly_inside_unit(hi) and (
                    lo is not None and _strictly_inside_unit(lo)
                    or lo is None and _nonnegative(ev.node.func.value if method and isinstance(ev.node.func, cst.Attribute) else
                                                   ev.arg_nodes[0] if ev.arg_nodes else None)):
                # `abs(dot).clamp(max=1 - 1e-7)`: a value that is never negative needs no lower bound
                ev.add_note(Note("inside_unit", ev.node, through_cuts=True))
            return
        v = ev.recv if method else (ev.args[0] if ev.args else None)
        if v is None or not v.live or any(n.kind == "inside_unit" for n in v.notes):
            return
        self.mark(ev, ev.node)

    def report_site(self, site, data, ev) -> None:
        self.report(
            site,
            f"`{call_name(site)}` of a value that can reach ±1 (a cosine reaches it for identical vectors): its gradient "
            "-1/sqrt(1 - x²) is infinite there and NaN after the chain rule, though the loss stays finite; clamp strictly "
            "inside first, e.g. `x.clamp(-1 + 1e-7, 1 - 1e-7)`",
        )


# libraries that keep float32 master weights for a float16 model (apex amp O2, its
# FP16_Optimizer, DeepSpeed's fp16 mode): the optimizer does not step the float16 copy
_MASTER_WEIGHTS = ("amp.initialize", "FP16_Optimizer", "deepspeed", "master_params", "fp16_optimizer")


class HalfPrecisionWeightsTrained(Rule):
    code = "GL412"
    message = "a model converted to float16 with .half() is trained by an optimizer that updates its float16 weights directly"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/amp.html"
    triggers = ("half", "float16")
    rationale = """
        `model.half()` (or `.to(torch.float16)`) converts the weights themselves. An optimizer
        over `model.parameters()` then updates float16 numbers: an update smaller than half a
        unit in the last place of a weight (about 5e-4 of its size) is rounded away, so small
        learning rates stop training; Adam's `eps=1e-8` is 0 in float16 and its second-moment
        estimate underflows, so a weight whose gradient is 0 for a while gets a 0/0 = NaN update;
        the float16 gradients themselves overflow to inf or underflow to 0 without loss scaling.
        The loss turns to NaN or inf after a few steps (EDSR-PyTorch#36: "half precision is only
        supported for testing"), and a GradScaler refuses float16 parameters ("Attempting to
        unscale FP16 gradients").

        Instead: keep the model in float32 and run the forward pass under
        `torch.autocast("cuda", dtype=torch.float16)` with a `torch.amp.GradScaler()` (float32
        master weights, float16 compute); convert with `.half()` only for inference.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).half()
            opt = torch.optim.Adam(model.parameters(), lr=1e-4)
            for step in range(100):
                x = torch.randn(16, 32).half()
                loss = model(x).float().pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            """,
            line=3,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
        opt = torch.optim.Adam(model.parameters(), lr=1e-4)
        for step in range(100):
            loss = model(torch.randn(16, 32)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.half().eval()
        with torch.no_grad():
            preds = model(torch.randn(4, 32).half())
        """
    ]

    call_names = frozenset({"half", "to"})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._halved: list = []  # (event, the module's certain origins)
        self._steps: list = []
        self._enabled = not any(w in ctx.source.text for w in _MASTER_WEIGHTS)

    def on_call(self, ev: CallEvent) -> None:
        recv = ev.recv
        if not self._enabled or recv is None or recv.kind != K.MODULE or recv.get(F.FW) not in (None, "torch"):
            return
        if ev.method == "to" and self._named_dtype(ev) != "float16":
            return
        origins = frozenset(o for o in recv.live if o.certain and not o.frozen)
        if origins:
            self._halved.append((ev, origins))

    @staticmethod
    def _named_dtype(ev: CallEvent) -> str | None:
        for v in list(ev.args) + [ev.kwargs.get("dtype")]:
            dt = dtype_named(v)
            if dt is not None:
                return dt
        return None

    def on_opt(self, ev: OptEvent) -> None:
        # a torch.optim optimizer built here (an unseen one may keep master weights of its own)
        if ev.kind == "step" and ev.target.kind == K.OPTIMIZER and (ev.target.get(F.QUAL) or "").startswith("torch.optim."):
            self._steps.append(ev)

    def finish(self) -> None:
        interp = self.ctx.interp
        for ev, origins in self._halved:
            for s in self._steps:
                if s.ctx.run != ev.ctx.run or s.seq < ev.seq:
                    continue
                direct = frozenset(o for o in (s.target.get(F.OPT_PARAMS) or ()) if o.certain)
                updated = frozenset().union(direct, *(interp.parts_of(o) | interp.holders_of(o) for o in direct))
                if origins & updated:
                    self.report(
                        ev.node,
                        lambda line, s=s: (
                            f"this converts the model's weights to float16, and the optimizer stepped on line {line(s.node)} "
                            "updates them in float16: updates below ~5e-4 of a weight are rounded away, Adam's eps (1e-8) "
                            "is 0 and its moments underflow, so training stalls or turns NaN; keep the weights in float32 "
                            "and use torch.autocast(dtype=torch.float16) with a GradScaler (.half() only for inference)"
                        ),
                    )
                    break


# tests whose result says where a value is NaN/inf (`where(isnan(x), 0, x)` sanitises x)
_NONFINITE_TESTS = frozenset({"isnan", "isinf", "isfinite", "is_nan", "is_inf", "is_finite", "isposinf", "isneginf"})


def _nonfinite_tested(cond):
    """The expression a `where` condition tests for NaN/inf (`torch.isnan(x)`, `~torch.isfinite(x)`,
    `x.isnan()`, `tf.math.is_nan(x)`), else None."""
    if isinstance(cond, cst.UnaryOperation):
        cond = cond.expression
    if not isinstance(cond, cst.Call) or callee_last(cond) not in _NONFINITE_TESTS:
        return None
    if cond.args:
        return cond.args[0].value
    return cond.func.value if isinstance(cond.func, cst.Attribute) else None


# operations with a singular point, where they turn finite inputs into NaN/inf *and* have an
# infinite or undefined derivative (unlike log_softmax of a -inf logit, which only passes it on)
_SINGULAR_OPS = frozenset({
    "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "pow", "float_power", "power", "div", "divide",
    "true_divide", "mul", "multiply", "acos", "asin", "arccos", "arcsin", "atanh", "arctanh", "exp", "digamma", "lgamma",
    "cross", "outer", "einsum", "matmul",
})


def _made_at_singular_point(ctx, node, depth: int = 0) -> bool:
    """`node` (an expression, or a name bound to one earlier in the same function) is computed
    by an operation with a singular point: a product, a quotient, a power, a log, a sqrt; sums
    and differences of such terms count."""
    while isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, cst.Name) and depth < 3:
        bound = _last_binding(ctx, node)
        return bound is not None and _made_at_singular_point(ctx, bound, depth + 1)
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, (cst.Multiply, cst.Divide, cst.Power, cst.MatrixMultiply)):
            return True
        if isinstance(node.operator, (cst.Add, cst.Subtract)) and depth < 3:
            return _made_at_singular_point(ctx, node.left, depth + 1) or _made_at_singular_point(ctx, node.right, depth + 1)
        return False
    return isinstance(node, cst.Call) and callee_last(node) in _SINGULAR_OPS


def _last_binding(ctx, name: cst.Name):
    """The value of the last `name = ...` before `name` in its function (or module), or None."""
    scope = next((a for a in ctx.ancestors(name) if isinstance(a, cst.FunctionDef)), None)
    stmts = own_small_statements(scope) if scope is not None else (
        s for top in ctx.module_statements() for s in walk(top) if isinstance(s, cst.Assign))
    at = ctx.range_of(name)
    found = None
    for s in stmts:
        if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name) \
                and s.targets[0].target.value == name.value:
            r = ctx.range_of(s)
            if r is not None and at is not None and r[0].line < at[0].line:
                found = s.value
    return found


class NanMaskedAfterTheFact(_FlowsToLoss):
    code = "GL413"
    message = "nan_to_num()/where(isnan(x), ...)/masked_fill(isnan(x), ...) replaces NaN/inf in the value, not in the gradient: the operation that produced them still differentiates to NaN"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nan_to_num.html"
    triggers = ("nan_to_num", "isnan", "isfinite", "is_nan", "is_finite", "isinf")
    frameworks = ("torch", "tf", "jax")
    note_kind = "nan_masked"
    rationale = """
        `torch.nan_to_num(x)` (or `torch.where(torch.isnan(x), 0, x)`, `x.masked_fill(x.isnan(),
        0)`, the in-place `x.nan_to_num_()`, `jnp.nan_to_num`, `tf.where(tf.math.is_nan(x),
        ...)`) repairs the forward value, so the loss looks finite.
        Its backward passes 0 where it replaced something; the operation that produced the
        NaN/inf then multiplies that 0 by its own derivative there, which is infinite or NaN
        (`0 * log(0)` of an entropy over masked logits, `log(0)`, `x / 0`, `sqrt` of a negative
        number): 0 * inf = NaN, and the NaN reaches every gradient behind it. The code's own
        sanitising is the evidence that the NaN happens. Reported where the sanitised value is
        differentiated, when it was computed by operations with autograd history (not data
        loaded with NaNs).

        Instead: keep the NaN from happening before the operation: a clamp or a `where` on
        the input (`log(x.clamp_min(1e-12))`, the "double where"); for an entropy over masked
        logits, fill them with a large finite negative number instead of `-inf` and take
        `softmax(z) * log_softmax(z)` (or `Categorical(logits=z).entropy()`, which does this).
        `torch.xlogy(p, p)` and `torch.special.entr(p)` are no remedy: they give the value 0
        at p = 0 but still a NaN gradient through the softmax (measured on torch 2.13).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            logits = torch.tensor([[0.0, 1.0, float("-inf")]], requires_grad=True)
            logps = F.log_softmax(logits, dim=-1)
            entropy = -(torch.exp(logps) * logps).nan_to_num(nan=0.0).sum(-1)
            entropy.sum().backward()
            """,
            line=5,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        logits = torch.tensor([[0.0, 1.0, float("-inf")]], requires_grad=True)
        entropy = torch.distributions.Categorical(logits=logits).entropy()
        entropy.sum().backward()
        """,
        """
        import torch
        batch = torch.tensor([[1.0, float("nan")], [2.0, 3.0]])
        w = torch.ones(2, requires_grad=True)
        (batch.nan_to_num(0.0) * w).sum().backward()
        """,
    ]

    call_names = frozenset({"nan_to_num", "nan_to_num_", "where", "masked_fill", "masked_fill_"})

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual is not None and not ev.qual.startswith(("torch.", "jax.", "tensorflow.", "keras.")):
            return  # NumPy's has no gradient to keep
        if ev.name in ("masked_fill", "masked_fill_"):
            # `x.masked_fill(x.isnan(), 0)`: the mask is the receiver's own NaN test
            if ev.qual is not None or not isinstance(ev.node.func, cst.Attribute) or ev.recv is None or not ev.arg_nodes:
                return
            tested = _nonfinite_tested(ev.arg_nodes[0])
            if tested is None or self.ctx.code(tested) != self.ctx.code(ev.node.func.value):
                return
            node, val = ev.node.func.value, ev.recv
        elif ev.name in ("nan_to_num", "nan_to_num_"):
            if ev.qual is None and isinstance(ev.node.func, cst.Attribute) and ev.recv is not None:
                node, val = ev.node.func.value, ev.recv  # `x.nan_to_num()`
            elif ev.args:
                node, val = ev.arg_nodes[0], ev.args[0]
            else:
                return
        elif ev.name == "where" and len(ev.args) >= 3:
            tested = _nonfinite_tested(ev.arg_nodes[0])
            if tested is None:
                return
            code = self.ctx.code(tested)
            branch = next(((n, v) for n, v in zip(ev.arg_nodes[1:3], ev.args[1:3]) if self.ctx.code(n) == code), None)
            if branch is None:
                return
            node, val = branch
        else:
            return
        if not certainly_computed(val) or val.get(F.FW) == "np":
            return  # data with NaNs in it, not NaNs an operation on the differentiated path makes
        if not _made_at_singular_point(self.ctx, node):
            return  # `where(isneginf(logps), 0, logps)` of a log_softmax: it passes a -inf logit on, with a finite derivative
        self.mark(ev, ev.node, data=node, of_receiver=ev.name.endswith("_"))

    def report_site(self, site, data, ev: DiffEvent | None) -> None:
        shown = self.ctx.code(data) if data is not None else "the value"
        if len(shown) > 40:
            shown = "the value"
        else:
            shown = f"`{shown}`"
        self.report(
            site,
            f"this replaces the NaN/inf in {shown} but not in its gradient: the backward pass gives 0 there and the "
            f"operation that produced the NaN multiplies it by its own infinite or undefined derivative (0 * inf = NaN), "
            f"so NaN still reaches every gradient behind it; keep the NaN from happening before the operation "
            f"(a clamp or a where on the input; for an entropy over masked logits, a large finite negative fill instead of "
            f"-inf, or `Categorical(logits=z).entropy()`)",
        )
