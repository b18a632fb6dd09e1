"""The in-process Python API: gradcheck(fn, *inputs, ...) -> GradcheckReport.

This runs the target in the calling process (the caller trusts it). The CLI and the language
server go through worker.run_check instead, which runs the same code in a child process.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable, Iterable
from typing import Any

from .report import GradcheckReport, error_report

DTYPES = ("float64", "float32")


def gradcheck(fn: Any, *inputs: Any, against: Callable[..., Any] | None = None, dtype: Any = None,
              seed: int = 0, directions: int | None = None, name: str | None = None,
              constants: Iterable[str | int] = ()) -> GradcheckReport:
    """Check the gradients of `fn` at `inputs` against finite differences.

    fn: a function, a torch.autograd.Function subclass (checked through .apply), or an
        nn.Module class (instantiated without arguments) or instance (copied; its parameters are
        checked too). Without inputs, they are inferred (annotations, first layer, probing).
    against: a hand-written gradient of sum(fn(*inputs)) to compare with autograd, in ulps.
    dtype: the dtype the check runs in; default float64 (inputs are promoted).
    seed: seeds the random directions and any inferred inputs.
    directions: random directions per input (default 1 in float64, 3 in float32).
    constants: arguments (by name or position) or module parameters (by name) to leave out of
        the check: passed through unchanged, their gradient not compared (what
        requires_grad=False does for torch.autograd.gradcheck).
    """
    t0 = time.perf_counter()
    label = name or _label(fn)
    try:
        from .inputs import Built, InputsError, build, param_names
        from .targets import TargetError, resolve

        resolved = resolve(fn)
        if inputs:
            built = Built(list(inputs), "explicit", "", param_names(resolved, len(inputs)))
        else:
            built = build(resolved, None, seed)
        against_fn = resolve(against).fn if against is not None else None
    except (TargetError, InputsError) as e:
        kind = "target" if type(e).__name__ == "TargetError" else "inputs"
        return error_report(kind, str(e), target=label, timings={"total": time.perf_counter() - t0})
    except Exception as e:  # noqa: BLE001 - user code (a constructor, a probe) raised
        return user_error(e, label, "while preparing the check", t0)
    t_inputs = time.perf_counter() - t0
    report = check_resolved(resolved, built, against_fn, dtype=dtype, seed=seed,
                            directions=directions, name=label, constants=constants)
    report.timings["inputs"] = t_inputs
    report.timings["total"] = time.perf_counter() - t0
    return report


def check_resolved(resolved, built, against_fn, *, dtype: Any, seed: int, directions: int | None,
                   name: str, constants: Iterable[str | int] = ()) -> GradcheckReport:
    """Promote, build the Problem, run the Checker; user exceptions become an `error` report."""
    import torch

    from .check import Checker
    from .floats import dtype_name
    from .problem import Problem

    t0 = time.perf_counter()
    try:
        check_dtype = parse_dtype(dtype)
    except ValueError as e:
        return error_report("usage", str(e), target=name)
    args = list(built.args)
    target_dtype = next((dtype_name(a.dtype) for a in args
                         if isinstance(a, torch.Tensor) and a.is_floating_point()), None)
    module = resolved.module
    if module is not None:
        first = next((p for p in module.parameters() if p.is_floating_point()), None)
        target_dtype = target_dtype or (dtype_name(first.dtype) if first is not None else None)
    try:
        if module is not None:
            module.to(check_dtype)
        args = [a.detach().to(check_dtype) if isinstance(a, torch.Tensor) and a.is_floating_point()
                else a for a in args]
        problem = Problem(resolved.fn, args, built.names, module=module, seed=seed,
                          constants=frozenset(str(c).strip() for c in constants))
        report = Checker(problem, dtype=check_dtype, directions=directions, seed=seed,
                         target_dtype=target_dtype, against=against_fn, name=name,
                         kind=resolved.kind, notes=built.notes).run()
    except Exception as e:  # noqa: BLE001 - the target raised: that is the report
        return user_error(e, name, "while checking", t0)
    report.inputs_source = built.source
    report.inputs_expr = built.expr or None
    report.versions = {"torch": torch.__version__}
    return report


def _label(fn: Any) -> str:
    qual = getattr(fn, "__qualname__", None)
    if qual and not qual.startswith("_"):
        return qual
    name = getattr(fn, "__name__", None)  # builtins: torch.relu's qualname is _VariableFunctionsClass.relu
    if name:
        module = getattr(fn, "__module__", None) or ("torch" if "VariableFunctions" in (qual or "") else None)
        return f"{module}.{name}" if module else name
    return type(fn).__name__


def parse_dtype(dtype: Any):
    import torch

    if dtype is None:
        return torch.float64
    if isinstance(dtype, torch.dtype):
        if dtype not in (torch.float64, torch.float32):
            raise ValueError(f"dtype must be float64 or float32, not {dtype}")
        return dtype
    name = str(dtype).replace("torch.", "")
    if name not in DTYPES:
        raise ValueError(f"dtype must be float64 or float32, not {dtype!r}")
    return getattr(torch, name)


def user_error(e: BaseException, name: str, when: str, t0: float) -> GradcheckReport:
    """The target (or its inputs, or the hand-written gradient) raised: say what and where.
    An exception raised by gradlint's own code is not blamed on the target."""
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-8))
    first = str(e).splitlines()[0] if str(e) else ""
    if _is_oom(e):
        what, msg = "memory", f"The target ran out of memory {when}: {type(e).__name__}: {first}"
    elif _raised_by_gradlint(e):
        what, msg = "internal", (f"gradlint's gradient check failed {when} (a bug in gradlint, "
                                 f"please report it): {type(e).__name__}: {first}")
    else:
        what, msg = "exception", f"The target raised {type(e).__name__} {when}: {first}"
    return error_report(what, msg, target=name, traceback=tb,
                        timings={"total": time.perf_counter() - t0})


def _raised_by_gradlint(e: BaseException) -> bool:
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and os.path.dirname(os.path.abspath(last)) == os.path.dirname(__file__)


def _is_oom(e: BaseException) -> bool:
    return isinstance(e, MemoryError) or "can't allocate memory" in str(e) or "out of memory" in str(e)
