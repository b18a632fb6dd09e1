"""Project modules: what `from losses import smooth_l1` binds when `losses.py` belongs to the
project being checked.

The engine gives the interpreter a `Project` (gradlint/project/ implements it): where imports
resolve and the parsed modules. A project module is executed here once per check, with its
events discarded, and only its *definitions*: imports, functions, classes, assignments, and
`if`/`try` blocks around them (never `if __name__ == "__main__":`, loops or expression
statements: importing a module defines things, the rest is that module's own program). Its
functions and classes then behave as if defined in the checked file: a call inlines them with
the caller's values (to the same depth), so the pitfall in `losses.py` is seen with the model
output that `trainer/loop.py` passes and backpropagates. Their global names resolve in their
own module's namespace (the module dict is the last environment of their closure).

Bounds: a module is executed at most once per check, nested imports at most
MAX_NESTING deep, and a module being executed that is imported again (an import cycle) is
unknown at that point, as in Python. Whatever is not resolved stays a name the analysis cannot
see into: an unknown result, never an invented one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..events import Ctx
from ..values import Val, ref
from ..walk import children
from .state import Activation, AnalysisBudgetExceeded, State

if TYPE_CHECKING:  # pragma: no cover
    from .host import InterpreterHost as _Base
else:
    _Base = object

MAX_NESTING = 4  # a module importing a module importing ... beyond this is unknown
MAX_ALIAS_HOPS = 6  # re-exports followed through `__init__` modules


def _discard(ev: Any) -> None:
    pass


class ModuleView(Protocol):
    name: str
    path: str
    module: cst.Module
    is_package: bool


class Project(Protocol):
    """What the interpreter needs of the project (gradlint.project.ProjectModules)."""

    name: str | None  # the checked file's module name
    is_package: bool

    def load(self, name: str) -> ModuleView | None: ...
    def absolute(self, module: str | None, level: int, importer: str | None, importer_is_package: bool) -> str | None: ...
    def has_top(self, head: str) -> bool: ...


def _is_main_guard(node: cst.If) -> bool:
    return any(isinstance(n, cst.Name) and n.value == "__name__" for n in _names(node.test))


def _names(node: cst.CSTNode):
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(children(cur))


_DEFINING_SMALL = (cst.Import, cst.ImportFrom, cst.Assign, cst.AnnAssign)


def definitions(body) -> list[cst.CSTNode]:
    """The statements of a module body that importing it runs for its definitions."""
    out: list[cst.CSTNode] = []
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            if all(isinstance(s, _DEFINING_SMALL) for s in stmt.body):
                out.append(stmt)
        elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef, cst.Try)):
            out.append(stmt)
        elif isinstance(stmt, cst.If) and not _is_main_guard(stmt):
            out.append(stmt)
    return out


class ModulesMixin(_Base):
    project: Project | None
    _module_envs: dict[str, dict | None]
    _loading: list[Any]
    _env_module: dict[int, Any]

    def _init_modules(self, project: Project | None) -> None:
        self.project = project
        self._module_envs = {}
        self._loading = []
        self._env_module = {}  # id(module dict) -> its ModuleView
        self.modules_read: list[Any] = []  # the project modules executed (for positions)

    # ---------------------------------------------------------------- where we are
    def current_module(self, st: State) -> tuple[str | None, bool]:
        """The module whose code runs in `st` (for relative imports)."""
        if self._loading:
            m = self._loading[-1]
            return m.name, m.is_package
        closure = st.act.closure
        if closure:
            m = self._env_module.get(id(closure[-1]))
            if m is not None:
                return m.name, m.is_package
        p = self.project
        return (p.name, p.is_package) if p is not None else (None, False)

    def is_foreign(self, fn) -> bool:
        """A function defined in another module of the project (run where it is called only:
        that module's own check reports what it does on its own)."""
        return bool(fn.closure) and id(fn.closure[-1]) in self._env_module

    # ---------------------------------------------------------------- imports
    def absolute_import(self, node: cst.ImportFrom, st: State, base: str) -> str | None:
        """The absolute module name of `from <base> import ...` (None without a project or
        when a relative import climbs out of it)."""
        p = self.project
        if p is None:
            return None
        level = len(node.relative)
        if level == 0:
            return base
        name, is_pkg = self.current_module(st)
        return p.absolute(base.lstrip(".") or None, level, name, is_pkg)

    def star_import(self, module: str, st: State) -> bool:
        """`from module import *` of a project module: its public names (`__all__` is not
        read: every name without a leading underscore, a superset)."""
        env = self.module_env(module)
        if env is None:
            return False
        for k, v in env.items():
            if not k.startswith("_") and "." not in k:
                st.env[k] = v
        return True

    def resolved_ref(self, qual: str) -> Val:
        """`ref(qual)`, or the project's definition when `qual` names one."""
        if self.project is not None:
            v = self.project_value(qual)
            if v is not None:
                return v
        return ref(qual)

    def project_value(self, qual: str, hops: int = 0) -> Val | None:
        """What the dotted name `qual` is in the project (a function, a class, a value of a
        module), following re-exports; None when it is not the project's or not known."""
        p = self.project
        if p is None or hops > MAX_ALIAS_HOPS:
            return None
        parts = qual.split(".")
        head = parts[0]
        if not head or frameworks.by_head(head) is not None or not p.has_top(head):
            return None
        for i in range(len(parts) - 1, 0, -1):
            env = self.module_env(".".join(parts[:i]))
            if env is None:
                continue
            rest = parts[i:]
            v = env.get(rest[0])
            if v is None:
                return None
            if v.kind == K.REF:
                target = ".".join([v.attrs[F.QUAL], *rest[1:]])
                return self.project_value(target, hops + 1) or (v if len(rest) == 1 else None)
            return v if len(rest) == 1 else None
        return None

    def module_env(self, name: str) -> dict | None:
        """The namespace of the project module `name` after its definitions ran (None: not a
        project module, beyond the bounds, or being executed: an import cycle)."""
        envs = self._module_envs
        if name in envs:
            return envs[name]
        p = self.project
        if p is None or len(self._loading) >= MAX_NESTING:
            return None
        src = p.load(name)
        if src is None:
            envs[name] = None
            return None
        envs[name] = None  # a cycle back to this module sees it unknown
        env: dict[str, Val] = {}
        self._env_module[id(env)] = src
        self.modules_read.append(src)
        n_functions = len(self.functions)
        n_errors = len(self.errors)
        saved_emit, saved_recording = self._emit, self._recording
        self.set_emitter(_discard)  # defining things reports nothing
        self._recording = None
        self._loading.append(src)
        st = State(env, frozenset(), Ctx(run=self.runs), Activation(None, (), 0))
        try:
            self.exec_block(definitions(src.module.body), st)
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        finally:
            self._loading.pop()
            self.set_emitter(saved_emit)
            self._recording = saved_recording
            del self.errors[n_errors:]  # a failure in another module is that module's check's
        for fn in self.functions[n_functions:]:
            if not fn.closure:
                fn.closure = (env,)  # its globals are its module's
            fn.standalone_done = True
        envs[name] = env
        return env
