"""Equivalent spellings of a program, for the metamorphic tests (issue 15, "every spelling").

Each transformation rewrites a rule example into a program that does the same thing written
differently, and says where each line went, so a finding pinned to a line can be followed:

- `aliased_imports`: every imported name is bound under another alias (`import torch as
  torch_m`, `from torch import nn as nn_m`, `import numpy as np` -> `np_m`) and every use follows;
- `inside_a_function`: the program after its imports becomes the body of `def main(): ...`,
  called at the end (a script turned into a function: its globals become locals and closures);
- `renamed_variables`: every variable the program binds gets another name (`model` ->
  `model_v`), so no rule can lean on conventional names;
- `in_a_training_function`: the training loop becomes `def train(model, opt, ...)`, called with
  the objects built above it (how real code hands them over);
- `in_a_trainer_class`: the loop becomes the `train` method of a `Trainer` class whose
  `__init__` keeps the objects on `self` (`self.model(x)`, `self.opt.step()`), built with what
  the script made: `Trainer(model, opt).train()`;
- `library_training_function` and `library_trainer_class` (not in `variants`:
  tests/rules/test_metamorphic.py checks them on their own): the same function or class alone
  in its module, nothing built, nothing calling it: the open world, where what the parameters
  and attributes are must be proven from their uses.

A transformation returns None when it does not apply to an example (nothing to rename, an import
it cannot alias faithfully); the variants are built with libcst, so everything else is kept.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Callable

import libcst as cst

_BUILTINS = frozenset(dir(builtins)) | {"self", "cls", "__name__", "__file__"}


@dataclass(frozen=True)
class Variant:
    name: str
    code: str
    line_map: Callable[[int], int]  # original line -> line in the variant


def _same(n: int) -> int:
    return n


# ----------------------------------------------------------------------------- aliases
class _Rename(cst.CSTTransformer):
    """Renames Name nodes (not attributes, not keyword names, not import statements)."""

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)  # `f(x=...)`: the keyword is not a variable

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        return updated.with_changes(name=original.name)  # parameters keep their names (callers use them)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        return updated.with_changes(name=original.name)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        return updated.with_changes(name=original.name)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        new = self.mapping.get(original.value)
        return updated.with_changes(value=new) if new else updated


def aliased_imports(code: str) -> Variant | None:
    module = cst.parse_module(code)
    mapping: dict[str, str] = {}

    class Aliases(cst.CSTTransformer):
        def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
            names = []
            for a in updated.names:
                if a.asname is None and isinstance(a.name, cst.Attribute):
                    names.append(a)  # `import torch.nn` binds `torch`: not aliased faithfully
                    continue
                bound = a.asname.name.value if a.asname is not None else a.name.value  # type: ignore[union-attr]
                mapping[bound] = bound + "_m"
                names.append(a.with_changes(asname=cst.AsName(name=cst.Name(bound + "_m"))))
            return updated.with_changes(names=names)

        def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
            if isinstance(updated.names, cst.ImportStar) or (updated.module is not None and cst.Module([]).code_for_node(updated.module) == "__future__"):
                return updated
            names = []
            for a in updated.names:
                bound = a.asname.name.value if a.asname is not None else a.name.value  # type: ignore[union-attr]
                mapping[bound] = bound + "_m"
                names.append(a.with_changes(asname=cst.AsName(name=cst.Name(bound + "_m"))))
            return updated.with_changes(names=names)

    aliased = module.visit(Aliases())
    if not mapping:
        return None
    # a dotted `import torch.nn` keeps binding `torch`: leave `torch` as it is then
    dotted = {a.name.value.value for s in _imports(module) if isinstance(s, cst.Import) for a in s.names  # type: ignore[union-attr]
              if a.asname is None and isinstance(a.name, cst.Attribute) and isinstance(a.name.value, cst.Name)}
    for d in dotted:
        mapping.pop(d, None)
    if not mapping:
        return None
    return Variant("aliased-imports", aliased.visit(_Rename(mapping)).code, _same)


def _imports(module: cst.Module):
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if isinstance(s, (cst.Import, cst.ImportFrom)):
                    yield s


# ----------------------------------------------------------------------------- a function
def _leading_imports(body: list) -> int:
    """How many of the module's first statements are import lines."""
    n = 0
    for stmt in body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)):
            break
        n += 1
    return n


def inside_a_function(code: str) -> Variant | None:
    module = cst.parse_module(code)
    body = list(module.body)
    n_imports = _leading_imports(body)
    rest = body[n_imports:]
    if not rest or any(isinstance(s, cst.ClassDef) for s in rest):
        return None  # a class in a function changes what `super()`/pickling see: not the same program
    head = module.with_changes(body=body[:n_imports])
    last_import_line = head.code.count("\n")
    main = cst.FunctionDef(
        name=cst.Name("main"), params=cst.Parameters(), body=cst.IndentedBlock(body=rest),
        leading_lines=[],
    )
    call = cst.SimpleStatementLine(body=[cst.Expr(cst.Call(func=cst.Name("main")))])
    new = module.with_changes(body=[*body[:n_imports], main, call])
    text = new.code

    def shift(line: int) -> int:
        return line + 1 if line > last_import_line else line

    # leading blank lines of the first moved statement stay above the `def`
    return Variant("inside-a-function", text, _line_mapper(code, text, shift))


def _line_mapper(old: str, new: str, guess: Callable[[int], int]) -> Callable[[int], int]:
    """Follow a line by its text (the transformation only indents it), falling back on `guess`."""
    old_lines, new_lines = old.splitlines(), new.splitlines()

    def line_map(line: int) -> int:
        if 1 <= line <= len(old_lines):
            want = old_lines[line - 1].strip()
            g = guess(line)
            for cand in (g, g - 1, g + 1, g + 2):
                if 1 <= cand <= len(new_lines) and new_lines[cand - 1].strip() == want:
                    return cand
            anywhere = [i + 1 for i, text in enumerate(new_lines) if text.strip() == want]
            if want and len(anywhere) == 1:
                return anywhere[0]  # a definition moved further (the setup above it removed)
        return guess(line)

    return line_map


# ----------------------------------------------------------------------------- renames
def renamed_variables(code: str) -> Variant | None:
    module = cst.parse_module(code)
    bound: set[str] = set()
    params: set[str] = set()
    defined: set[str] = set()
    imported: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            _targets(node.target, bound)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            _targets(node.target, bound)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            _targets(node.target, bound)

        def visit_For(self, node: cst.For) -> None:
            _targets(node.target, bound)

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if node.asname is not None:
                _targets(node.asname.name, bound)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            _targets(node.target, bound)

        def visit_Param(self, node: cst.Param) -> None:
            params.add(node.name.value)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            defined.add(node.name.value)

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            defined.add(node.name.value)

        def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
            n = node.asname.name if node.asname is not None else node.name
            while isinstance(n, cst.Attribute):
                n = n.value
            if isinstance(n, cst.Name):
                imported.add(n.value)

    module.visit(Collect())
    names = bound - params - defined - imported - _BUILTINS
    if not names:
        return None
    mapping = {n: n + "_v" for n in names}
    return Variant("renamed-variables", module.visit(_Rename(mapping)).code, _same)


def _targets(t: cst.CSTNode, out: set[str]) -> None:
    if isinstance(t, cst.Name):
        out.add(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for e in t.elements:
            _targets(e.value, out)
    elif isinstance(t, cst.StarredElement):
        _targets(t.value, out)


# ----------------------------------------------------------------------------- training functions
def _split_at_loop(code: str):
    """(module, imports, setup, loop part): the loop part starts at the first top-level `for` or
    `while` and runs to the end; the setup is what comes between the imports and it. None when
    there is no loop, or when the loop part defines functions or classes (moving a definition
    into a function changes what other definitions see)."""
    module = cst.parse_module(code)
    body = list(module.body)
    n_imports = _leading_imports(body)
    start = next((i for i in range(n_imports, len(body)) if isinstance(body[i], (cst.For, cst.While))), None)
    if start is None:
        return None
    part = body[start:]
    if any(isinstance(s, (cst.FunctionDef, cst.ClassDef)) for s in part):
        return None
    return module, body[:n_imports], body[n_imports:start], part


def _free_setup_names(setup: list, part: list) -> list[str]:
    """The names the setup binds (not functions or classes) that the loop part reads, in order of
    first binding: what a training function receives as its parameters."""
    bound: list[str] = []
    for stmt in setup:
        found: set[str] = set()
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for t in small.targets:
                        _targets(t.target, found)
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    _targets(small.target, found)
        elif isinstance(stmt, (cst.With, cst.For, cst.While, cst.If)):
            return []  # setup that binds inside blocks: leave the example alone
        bound += sorted(found - set(bound))
    read: set[str] = set()

    class Reads(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            read.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)  # `x.attr`: `attr` is not a variable
            return False

    for stmt in part:
        stmt.visit(Reads())
    return [n for n in bound if n in read]


def _training_function(params: list[str], part: list) -> cst.FunctionDef:
    return cst.FunctionDef(
        name=cst.Name("train"),
        params=cst.Parameters(params=[cst.Param(cst.Name(n)) for n in params]),
        body=cst.IndentedBlock(body=part),
    )


def _lines(module: cst.Module, body: list) -> int:
    """How many lines `body` takes at the top of `module`: its header comments included, its
    footer (the comments after the last statement) not."""
    return module.with_changes(body=body, footer=[]).code.count("\n")


def _definitions(setup: list) -> list:
    """The module's own functions and classes among the setup: a library module keeps them."""
    return [s for s in setup if isinstance(s, (cst.FunctionDef, cst.ClassDef))]


def _training_split(code: str):
    """`_split_at_loop` and the training function's parameters, or None when either is missing."""
    split = _split_at_loop(code)
    if split is None:
        return None
    params = _free_setup_names(split[2], split[3])
    return (*split, params) if params else None


def in_a_training_function(code: str) -> Variant | None:
    """The script's training loop (from its first top-level loop on) becomes
    `def train(model, opt, ...)`, the objects built above it passed as arguments:
    `train(model, opt, ...)` at the end."""
    split = _training_split(code)
    if split is None:
        return None
    module, imports, setup, part, params = split
    call = cst.SimpleStatementLine(body=[cst.Expr(cst.Call(
        func=cst.Name("train"), args=[cst.Arg(cst.Name(n)) for n in params]))])
    new = module.with_changes(body=[*imports, *setup, _training_function(params, part), call])
    first_moved = _lines(module, [*imports, *setup])
    text = new.code
    return Variant("in-a-training-function", text, _line_mapper(code, text, lambda n: n + 1 if n > first_moved else n))


def library_training_function(code: str) -> Variant | None:
    """The open world: the same training function in a module of its own, its objects built by
    whoever calls it (no setup, no call): what they are must be proven from their uses."""
    split = _training_split(code)
    if split is None:
        return None
    module, imports, setup, part, params = split
    kept = _definitions(setup)
    new = module.with_changes(body=[*imports, *kept, _training_function(params, part)])
    text = new.code
    first_moved = _lines(module, [*imports, *setup])
    removed = first_moved - _lines(module, [*imports, *kept])
    return Variant("library-training-function", text,
                   _line_mapper(code, text, lambda n: n + 1 - removed if n > first_moved else n))


# ----------------------------------------------------------------------------- trainer classes
class _OnSelf(_Rename):
    """Reads of the given names become `self.<name>` (attributes, keywords and parameters kept)."""

    def leave_Name(self, original: cst.Name, updated: cst.Name):  # type: ignore[override]
        if original.value in self.mapping:
            return cst.Attribute(value=cst.Name("self"), attr=cst.Name(original.value))
        return updated


def _assigned_in(part: list) -> set[str]:
    """The names the loop part binds (assignment, augmented assignment, `for` and `with` targets,
    walrus, comprehension and lambda variables): those cannot become attributes by renaming."""
    found: set[str] = set()

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            _targets(node.target, found)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            _targets(node.target, found)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            _targets(node.target, found)

        def visit_For(self, node: cst.For) -> None:
            _targets(node.target, found)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            _targets(node.target, found)

        def visit_AsName(self, node: cst.AsName) -> None:
            _targets(node.name, found)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            _targets(node.target, found)

        def visit_Param(self, node: cst.Param) -> None:
            found.add(node.name.value)

        def visit_Global(self, node: cst.Global) -> None:
            found.update(n.name.value for n in node.names)

    for stmt in part:
        stmt.visit(Targets())
    return found


def _trainer_class(params: list[str], part: list) -> tuple[cst.ClassDef, int]:
    """`class Trainer` keeping `params` on self, its `train` method the loop part; and how many
    lines the method's prelude adds before the part (a name the loop rebinds is read from `self`
    into a local first: `h = self.h`)."""
    rebound = _assigned_in(part)
    on_self = {n: n for n in params if n not in rebound}
    prelude = [cst.SimpleStatementLine(body=[cst.Assign(
        targets=[cst.AssignTarget(cst.Name(n))],
        value=cst.Attribute(value=cst.Name("self"), attr=cst.Name(n)))]) for n in params if n in rebound]
    body = [s.visit(_OnSelf(on_self)) for s in part]
    init = cst.FunctionDef(
        name=cst.Name("__init__"),
        params=cst.Parameters(params=[cst.Param(cst.Name(n)) for n in ["self", *params]]),
        body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Assign(
            targets=[cst.AssignTarget(cst.Attribute(value=cst.Name("self"), attr=cst.Name(n)))],
            value=cst.Name(n))]) for n in params]),
    )
    train = cst.FunctionDef(
        name=cst.Name("train"), params=cst.Parameters(params=[cst.Param(cst.Name("self"))]),
        body=cst.IndentedBlock(body=[*prelude, *body]),
        leading_lines=[cst.EmptyLine()],
    )
    return cst.ClassDef(name=cst.Name("Trainer"), body=cst.IndentedBlock(body=[init, train])), len(prelude)


def _part_offset(code: str, text: str, first_moved: int, prelude: int) -> Callable[[int], int]:
    """Line map for a variant whose loop part (original lines after `first_moved`) now follows
    `def train(self):` and its prelude; lines above the part stay where they were."""
    train_line = text.splitlines().index("    def train(self):") + 1
    shift = train_line + prelude - first_moved

    def line_map(line: int) -> int:
        return line + shift if line > first_moved else line

    return line_map


def in_a_trainer_class(code: str) -> Variant | None:
    """The training loop becomes `Trainer.train`, its objects kept on `self` by `__init__`:
    `Trainer(model, opt, ...).train()` at the end."""
    split = _training_split(code)
    if split is None:
        return None
    module, imports, setup, part, params = split
    cls, prelude = _trainer_class(params, part)
    call = cst.SimpleStatementLine(body=[cst.Expr(cst.Call(func=cst.Attribute(
        value=cst.Call(func=cst.Name("Trainer"), args=[cst.Arg(cst.Name(n)) for n in params]),
        attr=cst.Name("train"))))])
    new = module.with_changes(body=[*imports, *setup, cls, call])
    first_moved = _lines(module, [*imports, *setup])
    text = new.code
    return Variant("in-a-trainer-class", text, _part_offset(code, text, first_moved, prelude))


def library_trainer_class(code: str) -> Variant | None:
    """The open world: the Trainer class alone in its module, its objects given by whoever
    builds it."""
    split = _training_split(code)
    if split is None:
        return None
    module, imports, setup, part, params = split
    cls, prelude = _trainer_class(params, part)
    text = module.with_changes(body=[*imports, *_definitions(setup), cls]).code
    # the part follows the class's `train`; a definition kept from the setup is found by its text
    part_map = _part_offset(code, text, _lines(module, [*imports, *setup]), prelude)
    return Variant("library-trainer-class", text, _line_mapper(code, text, part_map))


TRANSFORMS = (aliased_imports, inside_a_function, renamed_variables, in_a_training_function, in_a_trainer_class)


def variants(code: str) -> list[Variant]:
    out = []
    for t in TRANSFORMS:
        try:
            v = t(code)
        except cst.ParserSyntaxError:
            v = None
        if v is not None and v.code != code:
            out.append(v)
    return out
