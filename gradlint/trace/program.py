"""Run the user's program (a script or `-m module`) in this process, under a trace Session,
and say how it ended. Used by the child process of `gradlint trace`."""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from typing import Any

from .sites import traceback_site
from .state import Session, StopTrace


def run(request: dict[str, Any], session: Session) -> dict[str, Any]:
    """-> {"status": "finished" | "stopped" | "error", "error": None | {kind, message, ...}}."""
    script, module = request.get("script"), request.get("module")
    args = [str(a) for a in request.get("args") or []]
    cwd = request.get("cwd") or os.getcwd()
    os.chdir(cwd)
    if module:
        sys.argv = [module, *args]
        sys.path.insert(0, cwd)
    else:
        path = os.path.abspath(os.path.join(cwd, script))
        if not os.path.isfile(path):
            return _error("usage", f"no such file: {script}")
        sys.argv = [path, *args]
        sys.path.insert(0, os.path.dirname(path))
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(path, run_name="__main__")
    except StopTrace:
        return {"status": "stopped", "error": None}
    except SystemExit as exc:
        code = exc.code
        if code in (None, 0):
            return {"status": "finished", "error": None}
        return _error("exit", f"the program exited with status {code!r} after {session.steps_done} optimizer "
                      f"steps", exc)
    except BaseException as exc:  # noqa: BLE001 - whatever the program raised is the result
        if session.stopped:
            return {"status": "stopped", "error": None}
        explained = session.explain(exc)
        where = traceback_site(session.is_user, exc.__traceback__)
        at = f" at {os.path.relpath(where[0]) if where else '?'}:{where[1] if where else '?'}"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        first = first if len(first) <= 240 else first[:239] + "…"
        if isinstance(exc, ImportError) and session.steps_done == 0 and where is None:
            return _error("import", f"importing the program failed: {type(exc).__name__}: {first}", exc)
        oom = isinstance(exc, MemoryError) or "can't allocate memory" in str(exc)
        kind = "memory" if oom else "exception"
        err = _error(kind, f"the program raised {type(exc).__name__}{at}: {first}", exc)
        err["error"]["explained"] = explained
        if where is not None:
            err["error"]["site"] = list(where)
        return err
    return {"status": "finished", "error": None}


def _error(kind: str, message: str, exc: BaseException | None = None) -> dict[str, Any]:
    err: dict[str, Any] = {"kind": kind, "message": message}
    if exc is not None:
        err["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-12))
    return {"status": "error", "error": err}
