"""Project modules: what `from losses import smooth_l1` binds when `losses.py` belongs to the
project being checked.

The engine gives the interpreter a `Project` (gradlint/project/ implements it): where imports
resolve, and each module's top-level statements with the names they bind. A project module's
namespace (`Namespace`) is filled *lazily*: reading a name runs the statements that bind it
(parsed on first use, once per process), with their events discarded, and only definitions:
imports, functions, classes, assignments and `if`/`try` blocks around them (never
`if __name__ == "__main__":`, loops or expression statements: importing a module defines
things, the rest is that module's own program). So a check pays for the definitions it
reaches, not for every module its imports could reach: `kornia/__init__.py` re-exports
hundreds of names through star imports, and a file that calls one of them executes that one.

The functions and classes then behave as if defined in the checked file: a call inlines them
with the caller's values (to the same depth), so the pitfall in `losses.py` is seen with the
model output that `trainer/loop.py` passes and backpropagates. Their global names resolve in
their own module's namespace (the namespace is the last environment of their closure), which
reads on as lazily.

Bounds: a statement runs at most once per check, nested module executions at most
MAX_NESTING deep, and a name whose statement is running when it is read again (an import
cycle, `x = f(x)` across modules) is unknown at that point, as in Python. Whatever is not
resolved stays a name the analysis cannot see into: an unknown result, never an invented one.
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

MAX_NESTING = 6  # a definition reading a module's definition reading ... beyond this is unknown
MAX_ALIAS_HOPS = 6  # re-exports followed through `__init__` modules
# times one project function is inlined in one check: a model block called in a loop of a
# forward called from every function of a training script is seen often enough by then, and
# beyond it each call would re-run it (a fasterRCNN script ran one block's `call` 297 times)
MAX_FOREIGN_RUNS = 8
# what one check may spend on the project's modules: statements defined on the way and calls
# of their functions inlined. A training script reaches a few dozen of each (on the 22
# repositories: p90 70 calls and 61 statements, the largest 177 and 112); a module of a
# library reaches into the whole library (kornia's feature/integrated.py: 471 calls, 313
# statements). Beyond, names are unknown and calls are not followed.
MAX_FOREIGN_CALLS = 200
MAX_FOREIGN_STATEMENTS = 150


def _discard(ev: Any) -> None:
    pass


class ModuleIndexView(Protocol):
    binds: dict[str, list[int]]
    stars: list[int]

    def parsed(self, i: int) -> cst.Module | None: ...


class ModuleView(Protocol):
    name: str
    path: str
    index: Any  # ModuleIndexView
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


class Namespace(dict):
    """A project module's names for one check, defined on first read: `get(name)` runs the
    module's statements that bind `name` (then the star imports, for a public name not bound
    otherwise). The interpreter reads a closure's environments with `get` only, so functions
    of the module resolve their globals through this."""

    def __init__(self, host: "ModulesMixin", src: ModuleView) -> None:
        super().__init__()
        self.host = host
        self.src = src
        self.settled: set[str] = set()  # names whose statements ran (or are running)
        self.ran: set[int] = set()  # statements run
        self.stars: list[str] = []  # modules star-imported, in order

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        v = dict.get(self, name)
        if v is None:
            head = name.split(".", 1)[0]
            if head not in self.settled:
                self.host._settle(self, head)
                v = dict.get(self, name)
        return default if v is None else v


class Globals(dict):
    """The checked file's module namespace in project mode: a name it does not bind may come
    from a project module it star-imports (looked up there on first read)."""

    def __init__(self, host: "ModulesMixin") -> None:
        super().__init__()
        self.host = host
        self.stars: list[str] = []

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        v = dict.get(self, name)
        if v is None and self.stars and "." not in name and not name.startswith("_"):
            v = self.host._from_stars(self.stars, name)
        return default if v is None else v


class ModulesMixin(_Base):
    genv: dict[str, Val]  # a `Globals` in project mode
    project: Project | None
    _module_envs: dict[str, Namespace | None]
    _loading: list[tuple[ModuleView, Namespace]]
    _env_module: dict[int, Any]

    def _init_modules(self, project: Project | None) -> None:
        self.project = project
        self._module_envs = {}
        self._loading = []
        self._env_module = {}  # id(namespace) -> its ModuleView
        self.modules_read: list[Any] = []  # the project modules read (for positions)
        self._foreign_runs: dict[Any, int] = {}  # project function -> times inlined (follows_foreign)
        self._foreign_calls = 0  # project functions inlined in this check
        self._foreign_statements = 0  # project modules' statements run in this check
        if project is not None:
            self.genv = Globals(self)

    # ---------------------------------------------------------------- where we are
    def current_module(self, st: State) -> tuple[str | None, bool]:
        """The module whose code runs in `st` (for relative imports)."""
        if self._loading:
            m = self._loading[-1][0]
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

    def follows_foreign(self, fn) -> bool:
        """Whether a call of `fn` may be inlined (counted): a project module's function at most
        MAX_FOREIGN_RUNS times per check; beyond, its result is unknown, as beyond the
        inlining depth."""
        if not self._env_module or not self.is_foreign(fn):
            return True
        n = self._foreign_runs.get(fn, 0)
        if n >= MAX_FOREIGN_RUNS or self._foreign_calls >= MAX_FOREIGN_CALLS:
            return False
        self._foreign_runs[fn] = n + 1
        self._foreign_calls += 1
        return True

    # ---------------------------------------------------------------- recorded runs
    def modules_of(self, nodes) -> tuple | None:
        """The project modules (name, index) the nodes are in; None when one is in none of
        them (a run that read something else cannot be replayed by this record)."""
        out: dict[str, Any] = {}
        for n in nodes:
            src = next((m for m in self.modules_read if m.owns(n)), None)
            if src is None:
                return None
            out[src.name] = src.index
        return tuple(out.items())

    def modules_unchanged(self, modules: tuple) -> bool:
        """Whether each recorded module still has the same text here (the same index: the same
        parsed statements); it is then among the modules this check read (for positions)."""
        for name, index in modules:
            env = self.module_env(name)
            if env is None or env.src.index is not index:
                return False
        return True

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
        found = p.absolute(base.lstrip(".") or None, level, name, is_pkg)
        if found is not None and frameworks.by_head(found.split(".", 1)[0]) is not None:
            # inside a library an overlay describes (checking transformers' own trainer.py):
            # its modules are neither read nor given the overlay's meaning of the library's
            # public names (`.trainer_callback.TrainerState` is not a model) - as on its own
            return None
        return found

    def star_import(self, module: str, st: State) -> bool:
        """`from module import *` of a project module: its public names (`__all__` is not
        read: every name without a leading underscore, a superset), looked up there when
        read (a star import is module-level: the importing module's namespace, or the checked
        file's globals, remembers where to look)."""
        if self.module_env(module) is None:
            return False
        target = self._loading[-1][1] if self._loading else self.genv
        stars = getattr(target, "stars", None)
        if stars is None:
            return False
        if module not in stars:
            stars.append(module)
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
                if target == qual:
                    return v  # a definition left unknown (`_run_statement`)
                return self.project_value(target, hops + 1) or (v if len(rest) == 1 else None)
            return v if len(rest) == 1 else None
        return None

    def module_env(self, name: str) -> Namespace | None:
        """The namespace of the project module `name` (None: not a project module, or beyond
        the bounds). Its names are defined when read (`Namespace.get`)."""
        envs = self._module_envs
        if name in envs:
            return envs[name]
        p = self.project
        src = p.load(name) if p is not None else None
        if src is None:
            envs[name] = None
            return None
        env = envs[name] = Namespace(self, src)
        self._env_module[id(env)] = src
        self.modules_read.append(src)
        return env

    def _from_stars(self, stars: list[str], name: str) -> Val | None:
        """`name` from the modules star-imported (the last import wins, as in Python)."""
        for module in reversed(stars):
            env = self.module_env(module)
            if env is None:
                continue
            index = env.src.index
            if name in index.binds or index.stars:
                v = env.get(name)
                if v is not None:
                    return v
        return None

    # ---------------------------------------------------------------- defining names
    def _settle(self, ns: Namespace, name: str) -> None:
        """Run the statements of `ns`'s module that bind `name` (then, for a public name bound
        by none, its star imports), each once per check."""
        ns.settled.add(name)  # read again while its statements run: unknown there (a cycle)
        index = ns.src.index
        for i in index.binds.get(name, ()):
            self._run_statement(ns, i)
        if dict.get(ns, name) is not None or name.startswith("_"):
            return
        for i in index.stars:
            self._run_statement(ns, i)
        if ns.stars:
            v = self._from_stars(ns.stars, name)
            if v is not None:
                dict.__setitem__(ns, name, v)

    def _run_statement(self, ns: Namespace, i: int) -> None:
        """Run top-level statement `i` of `ns`'s module for its definitions, on a fresh
        environment whose misses read `ns` (so that what it reads is defined on the way),
        events discarded; what it binds goes into `ns`."""
        if i in ns.ran or len(self._loading) >= MAX_NESTING or self._foreign_statements >= MAX_FOREIGN_STATEMENTS:
            return
        ns.ran.add(i)
        self._foreign_statements += 1
        module = ns.src.index.parsed(i)
        stmts = definitions(module.body) if module is not None else []
        if not stmts:
            return
        local: dict[str, Val] = {}
        n_functions = len(self.functions)
        n_errors = len(self.errors)
        saved_emit, saved_recording = self._emit, self._recording
        self.set_emitter(_discard)  # defining things reports nothing
        self._recording = None
        self._loading.append((ns.src, ns))
        st = State(local, frozenset(), Ctx(run=self.runs), Activation(None, (ns,), 0))
        try:
            self.exec_block(stmts, st)
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        finally:
            self._loading.pop()
            self.set_emitter(saved_emit)
            self._recording = saved_recording
            del self.errors[n_errors:]  # a failure in another module is that module's check's
        if not st.dead:
            for k, v in local.items():
                dict.__setitem__(ns, k, v)
        for fn in self.functions[n_functions:]:
            # defined at the module's top level (methods, and functions whose closure is this
            # run's environment or a branch's copy of it): its globals are the module's
            if not fn.closure or (len(fn.closure) == 1 and not isinstance(fn.closure[0], Namespace)):
                fn.closure = (ns,)
            fn.standalone_done = True
