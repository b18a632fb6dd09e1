"""The differentiation-evidence gate, project-wide: a file that shows no evidence itself is
still analysed when it calls a definition of a project module that differentiates
(`scripts/train.py` builds the model and hands it to `Trainer(...).fit`, which calls
backward() in `mylib/trainer.py`). Only the file's own
imports are looked at, and only their text (no parse): the gate stays cheap.

What counts is the evidence of what the file imports: for `from mylib.trainer import Trainer`,
the definition of `Trainer` (and the module's definitions it names); for `import mylib.train`,
the module's code outside its import statements (a package's `__init__.py` that re-exports
`value_and_grad` differentiates nothing: flax's `nnx/__init__.py` would otherwise send every
file that imports `nnx` to an analysis). `from pkg import Trainer` is followed through the
re-export to the module that defines `Trainer`."""

from __future__ import annotations

import os
import re

from .. import prefilter
from ..analysis import frameworks
from .loader import ProjectModules
from .resolve import find_module
from .summary import FROM as _FROM
from .summary import IMPORT_STATEMENT as _IMPORT_STATEMENT
from .summary import code_evidence, definition_evidence

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w., \t\\]+|\*))|import[ \t]+([\w., \t]+))", re.M
)
MAX_REEXPORT_HOPS = 4


def imported_modules(mask: str, project: ProjectModules) -> list[tuple[str, str | None, str, str | None]]:
    """What the file imports, from its code with strings and comments masked, as (module,
    name, bound, prefix): `from module import name` binds `bound` (name and bound "*": a star
    import);
    `import module` (name None) is used as `prefix.attr` (`a.b.f` after `import a.b`, `m.f`
    after `import a.b as m`). `from pkg import sub` of a submodule is listed both ways."""
    out: list[tuple[str, str | None, str, str | None]] = []
    for m in _IMPORT.finditer(mask):
        if m.group(5) is not None:
            for part in m.group(5).split(","):
                words = part.split()
                if words:
                    aliased = len(words) == 3 and words[1] == "as"
                    out.append((words[0], None, words[2] if aliased else words[0].split(".")[0], words[2] if aliased else words[0]))
            continue
        base = project.absolute(m.group(2) or None, len(m.group(1)), project.name, project.is_package)
        if base is None:
            continue
        for name in (m.group(3) or m.group(4) or "").replace("\\", " ").split(","):
            words = name.split()
            if not words:
                continue
            bound = words[2] if len(words) == 3 and words[1] == "as" else words[0]
            if words[0] == "*":
                out.append((base, "*", "*", None))
                continue
            out.append((base, words[0], bound, None))
            out.append((f"{base}.{words[0]}", None, bound, bound))  # a submodule, if it is one
    return out


_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*)[ \t]*\(")


def calls_in(text: str) -> frozenset[str]:
    """The (dotted) names the text calls: `fit`, `trainer.fit`, `train_utils.fit`."""
    return frozenset(re.sub(r"[ \t]", "", c) for c in _CALL.findall(text))


def _import_differentiates(calls: frozenset[str], module: str, name: str | None, bound: str, prefix: str | None,
                           project: ProjectModules) -> set[str]:
    """The names the file calls, bound by this import, whose definitions differentiate (a call
    hands them the file's objects: `Trainer(model)`, `fit(model, ...)`; a base class or a name
    passed on is not a call)."""
    if frameworks.by_head(module.split(".", 1)[0]) is not None:
        return set()  # a library an overlay describes, even from inside it: never read (interp/modules.py)
    if name == "*":  # `from models import *` then `train(Net())`: the names it calls
        path = find_module(module, project.roots) if project.has_top(module.split(".", 1)[0]) else None
        index = project.index_of(path) if path is not None and os.path.abspath(path) != project.path else None
        if index is None:
            return set()
        return {c for c in calls if "." not in c and c in index.binds and _module_differentiates(module, c, project)}
    if name is not None:
        return {bound} if bound in calls and _module_differentiates(module, name, project) else set()
    if prefix is None or not project.has_top(module.split(".", 1)[0]) or find_module(module, project.roots) is None:
        return set()
    return {bound} if _uses_differentiating(calls, prefix, module, project) else set()


def _uses_differentiating(calls: frozenset[str], prefix: str, module: str, project: ProjectModules, depth: int = 0) -> bool:
    """Whether the file calls (`prefix.name(...)`) a definition of the project module `module`
    that differentiates: `import train_utils` then `train_utils.fit(model, ...)`."""
    head = prefix + "."
    for attr in sorted({c[len(head):] for c in calls if c.startswith(head)}):
        first, _, rest = attr.partition(".")
        if rest:
            if find_module(f"{module}.{first}", project.roots) is not None and depth < MAX_REEXPORT_HOPS:  # `pkg.sub.f()`
                if _uses_differentiating(calls, f"{prefix}.{first}", f"{module}.{first}", project, depth + 1):
                    return True
        elif _module_differentiates(module, first, project):
            return True
    return False


def _module_differentiates(module: str, name: str | None, project: ProjectModules, hops: int = 0) -> bool:
    """For `from module import name`: whether `name`'s definition differentiates (followed
    through re-exports); for `from module import *` (None): whether the module's code does."""
    head = module.split(".", 1)[0]
    if frameworks.by_head(head) is not None or not project.has_top(head):
        return False
    path = find_module(module, project.roots)
    if path is None:
        return False
    if name is None:
        return _file_differentiates(path, project)
    index = project.index_of(path)
    if index is None or os.path.abspath(path) == project.path:
        return False
    if definition_evidence(index, name):
        return True
    if hops >= MAX_REEXPORT_HOPS:
        return False
    # `from pkg import Trainer`: the module `pkg` imports Trainer from
    is_package = os.path.basename(path) == "__init__.py"
    for i in index.binds.get(name, ()):
        m = _FROM.match(index.code, index.chunks[i].start)
        if m is None:
            continue
        source = project.absolute(m.group(2) or None, len(m.group(1)), module, is_package)
        if source is not None and source != module and _module_differentiates(source, name, project, hops + 1):
            return True
    return False


def _file_differentiates(path: str, project: ProjectModules) -> bool:
    if os.path.abspath(path) == project.path:
        return False
    index = project.index_of(path)  # read once per process (loader.py)
    return index is not None and code_evidence(index)


def imports_differentiating(text: str, project: ProjectModules) -> frozenset[str]:
    """The names the file binds from project modules and calls, whose definitions
    differentiate (empty: none): the file's hot words."""
    # first on the raw text (no mask: most files call nothing that differentiates), then, for
    # a file that may, exactly on its code
    calls = calls_in(text)
    found = imported_modules(text, project)
    if not any(_import_differentiates(calls, *entry, project) for entry in found if entry[1] != "*"):
        if not any(entry[1] == "*" for entry in found):
            return frozenset()
    mask = prefilter.code_mask(text)
    code = _IMPORT_STATEMENT.sub("", mask)
    if "(" not in code:
        # nothing but imports (a package's `__init__` re-exporting its modules): no code here
        # can call what it imports
        return frozenset()
    calls = calls_in(code)
    hot: set[str] = set()
    for entry in imported_modules(mask, project):
        hot |= _import_differentiates(calls, *entry, project)
    return frozenset(hot)
