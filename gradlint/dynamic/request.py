"""Execute one check request (a JSON-able dict) and return the report as a dict.

This is what the child process runs for each request; it is also callable in-process (tests,
or a caller that accepts running the target in its own process). The schema of the request
and of the result is documented in docs/gradcheck.md and must stay stable.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from typing import Any

from .report import GradcheckReport, error_report

REQUEST_KEYS = {"target": str, "inputs": (str, type(None)), "against": (str, type(None)),
                "dtype": (str, type(None)), "seed": int, "cwd": (str, type(None)),
                "directions": (int, type(None)), "constants": (list, str, type(None)),
                "id": (int, str, type(None))}


class RequestError(ValueError):
    """The request itself is malformed (a caller bug, not a user-code problem)."""


def validate(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise RequestError("a request must be a JSON object")
    if not isinstance(request.get("target"), str) or not request["target"].strip():
        raise RequestError("the request needs a 'target' string (path.py::name or package.module:name)")
    for key, types in REQUEST_KEYS.items():
        if key in request and not isinstance(request[key], types):
            raise RequestError(f"request field {key!r} has the wrong type: {type(request[key]).__name__}")
    constants = request.get("constants")
    if isinstance(constants, list) and not all(isinstance(c, str) for c in constants):
        raise RequestError("request field 'constants' must be a list of argument names")
    if request.get("dtype") not in (None, "float32", "float64"):
        raise RequestError(f"dtype must be float32 or float64, not {request['dtype']!r}")
    return request


def constant_names(value: list[str] | str | None) -> list[str]:
    """`["w", "bank"]`, or one string `"w, bank"` (a comment or a command-line value)."""
    if not value:
        return []
    items = value if isinstance(value, list) else [value]
    return [name.strip() for item in items for name in item.split(",") if name.strip()]


def execute(request: dict[str, Any], progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run one request in this process. Never raises for problems in user code: they come back
    as a report with verdict "error" and the reason."""
    t0 = time.perf_counter()
    say = progress or (lambda message: None)
    try:
        request = validate(request)
    except RequestError as e:
        return error_report("request", str(e)).to_dict()
    target = request["target"]
    cwd = request.get("cwd") or os.getcwd()
    here = os.getcwd()
    phase = "loading the target"
    try:
        os.chdir(cwd)
        from .api import check_resolved
        from .inputs import InputsError, build
        from .settings import configured_inputs
        from .targets import TargetError, load

        try:
            say(f"loading {target}")
            resolved, _ = load(target, cwd)
            against = load(request["against"], cwd)[0].fn if request.get("against") else None
            phase = "building its inputs"
            say("building inputs")
            expr, configured = request.get("inputs"), None
            if not expr:
                configured = configured_inputs(target, cwd)
                expr = configured[0] if configured else None
            built = build(resolved, expr, int(request.get("seed", 0)))
            if configured:
                built.source = "config"
                built.notes.insert(0, f"Inputs from [tool.gradlint.gradcheck.inputs] in {configured[1]}.")
        except TargetError as e:
            return _timed(error_report("target", str(e), target=target), t0)
        except InputsError as e:
            return _timed(error_report("inputs", str(e), target=target), t0)
        t_inputs = time.perf_counter() - t0
        phase = "checking gradients"
        say("checking gradients")
        report = check_resolved(resolved, built, against, dtype=request.get("dtype"),
                                seed=int(request.get("seed", 0)), directions=request.get("directions"),
                                name=target, constants=constant_names(request.get("constants")))
        report.timings["inputs"] = t_inputs
        return _timed(report, t0)
    except SystemExit as e:
        code = e.code if e.code is not None else 0
        return _timed(error_report("exit", f"The target called sys.exit({code!r}) while {phase}.",
                                   target=target, traceback=_tb(e)), t0)
    except KeyboardInterrupt as e:
        return _timed(error_report("exception", f"The target raised KeyboardInterrupt while {phase}.",
                                   target=target, traceback=_tb(e)), t0)
    except (ImportError, SyntaxError) as e:
        if phase == "loading the target":
            return _timed(error_report("import", f"Importing {target} failed: {type(e).__name__}: {e}",
                                       target=target, traceback=_tb(e)), t0)
        return _timed(_exception(e, target, phase), t0)
    except Exception as e:  # noqa: BLE001 - any failure of user code is the report
        return _timed(_exception(e, target, phase), t0)
    finally:
        try:
            os.chdir(here)
        except OSError:
            pass


def _exception(e: BaseException, target: str, phase: str) -> GradcheckReport:
    first = str(e).splitlines()[0] if str(e) else ""
    oom = isinstance(e, MemoryError) or "can't allocate memory" in str(e)
    if oom:
        return error_report("memory", f"The target ran out of memory while {phase} "
                            f"({type(e).__name__}: {first}): it hit the memory limit.",
                            target=target, traceback=_tb(e))
    return error_report("exception", f"The target raised {type(e).__name__} while {phase}: {first}",
                        target=target, traceback=_tb(e))


def _tb(e: BaseException) -> str:
    return "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-10))


def _timed(report: GradcheckReport, t0: float) -> dict[str, Any]:
    report.timings["total"] = time.perf_counter() - t0
    return report.to_dict()
