"""Mutation recall on real training code: inject one pitfall into a real file, see if it is found.

usage: python benchmarks/mutations.py TREES [--kinds K,K] [--per-file N] [--json OUT]
                                            [--gradlint CMD] [--show-misses] [--list]
                                            [--cross-module]

TREES holds real training repositories, one directory per repository (e.g. the 22 of
../shared/realtrain, extracted with `fetch`; nothing of them is committed here). Every file
that differentiates something (`.backward(`, `autograd.grad`, `GradientTape`, `jax.grad`,
`value_and_grad`) is a candidate. Each *kind* below knows where its pitfall can be injected
(delete the `zero_grad()` of a loop that steps, put `.numpy()` on the model output a
backpropagated loss is computed from, drop `create_graph=True`, ...) and which lines a linter
should then point at. One mutation per program: a mutant is the original tree with exactly one
file changed; mutants of different files are checked in one gradlint run per batch (a batch never
holds two mutants of the same file), and a finding only counts when it is new: the unmutated
file did not have it (same code, same line after the mutation's line shift).

Reports recall per kind and overall, the codes that found each kind, and (with --show-misses)
every mutant that was missed, so that a miss can be read. The unmutated originals' findings are
the false alarms of this benchmark (review them with ../shared/tools/review_eval.py).

Mutations are written with Python's own `ast` (positions in UTF-8 bytes) as line/column edits of
the original text, so everything but the mutated span is byte-identical.

`--cross-module`: the pitfall goes into the module that *defines* the loss or the model a
differentiating file imports from its own repository, and the backward stays in the importing
file: the loss function's result is rebuilt from a Python float (`return torch.tensor(float(...),
requires_grad=True)`), or the model's `forward` returns its output through NumPy
(`return torch.tensor(out.detach().cpu().numpy())`, the numpy_on_output kind). Expected: a finding
on the mutated line of the defining module, reported there by a project-wide check
(`gradlint check --project REPO`) of the repository. Imports are resolved with gradlint's own
project resolver (gradlint/project/), which only decides where mutants can be placed; at most
one mutant per repository is checked per run, so that mutants never see one another. Not
placed: definitions of a package an overlay describes (timm's own models: a library is not
read), and definitions imported or instantiated inside an `if` (one path of several: a cut
on some paths is by design not reported).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

DIFF_WORDS = (".backward(", "autograd.grad(", "GradientTape", "jax.grad(", "value_and_grad(", "grad(")


# ----------------------------------------------------------------------------- source model
class Source:
    """A file's text with helpers to edit it by ast positions (byte columns)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.tree = ast.parse(text)
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        p = self.parent(node)
        while p is not None:
            yield p
            p = self.parent(p)

    def scope(self, node: ast.AST) -> ast.AST:
        for a in self.ancestors(node):
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                return a
        return self.tree

    def loop(self, node: ast.AST) -> ast.AST | None:
        """The innermost loop around `node` within its function."""
        for a in self.ancestors(node):
            if isinstance(a, (ast.For, ast.While, ast.AsyncFor)):
                return a
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return None
        return None

    def stepping_loop(self, node: ast.AST) -> ast.AST | None:
        """The loop whose iterations are optimizer steps: the innermost loop around `node` (within
        its function) that calls `.step(...)`; the innermost loop if none does. Graphs kept across
        the micro-batches of one step (gradient accumulation, the tasks of a meta-batch) and
        released at the next are bounded: the pitfall is keeping them across steps."""
        innermost = self.loop(node)
        for a in self.ancestors(node):
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                break
            if isinstance(a, (ast.For, ast.While, ast.AsyncFor)) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "step" for c in ast.walk(a)):
                return a
        return innermost

    def statement(self, node: ast.AST) -> ast.stmt:
        cur = node
        while not isinstance(cur, ast.stmt):
            cur = self.parent(cur)
        return cur

    def indent_of(self, node: ast.stmt) -> str:
        line = self.lines[node.lineno - 1]
        return line[: len(line) - len(line.lstrip())]


@dataclass
class Edit:
    """Replace the span (line, col)-(end_line, end_col) (1-based lines, byte columns)."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str


def apply_edits(src: Source, edits: list[Edit]) -> str:
    data = src.text.encode("utf-8")
    starts = [0]
    for ln in src.lines:
        starts.append(starts[-1] + len(ln.encode("utf-8")))

    def off(line: int, col: int) -> int:
        return starts[line - 1] + col

    out = data
    for e in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        a, b = off(e.line, e.col), off(e.end_line, e.end_col)
        out = out[:a] + e.text.encode("utf-8") + out[b:]
    return out.decode("utf-8")


def span(node: ast.AST, text: str) -> Edit:
    return Edit(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text)


@dataclass
class Mutant:
    kind: str
    file: str  # relative to TREES
    text: str
    expected: set[int]  # lines (after the mutation) a finding should be on
    shift_at: int = 0  # lines >= this (in the original) moved by `shift`
    shift: int = 0
    where: str = ""  # human description
    codes: tuple[str, ...] = ()


# ----------------------------------------------------------------------------- pattern helpers
def call_name(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def backward_calls(src: Source) -> list[tuple[ast.Call, ast.AST]]:
    """(call, differentiated expression) for `L.backward()`, `scaler.scale(L).backward()`,
    `accelerator.backward(L)`, `self.manual_backward(L)`."""
    out = []
    for node in ast.walk(src.tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr = node.func.attr
        recv = node.func.value
        if attr == "backward":
            if isinstance(recv, ast.Call) and call_name(recv) == "scale" and recv.args:
                out.append((node, recv.args[0]))
            elif isinstance(recv, ast.Name) and recv.id in ("torch",):
                continue
            elif dotted(recv) in ("accelerator", "self.accelerator", "fabric", "self.fabric"):
                if node.args:
                    out.append((node, node.args[0]))
            elif not isinstance(recv, ast.Name) or recv.id not in ("autograd",):
                if isinstance(recv, ast.Name) and recv.id in ("accelerator", "fabric"):
                    if node.args:
                        out.append((node, node.args[0]))
                    continue
                out.append((node, recv))
        elif attr == "manual_backward" and node.args:
            out.append((node, node.args[0]))
    return sorted(out, key=lambda p: (p[0].lineno, p[0].col_offset))


def assignments_before(src: Source, scope: ast.AST, name: str, line: int) -> list[ast.Assign]:
    """Plain `name = ...` statements in `scope` (not in nested functions) before `line`."""
    out = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno < line and src.scope(node) is scope:
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    out.append(node)
    return sorted(out, key=lambda n: n.lineno)


def loss_assignment(src: Source, call: ast.Call, target: ast.AST) -> ast.Assign | None:
    """The statement that computes the differentiated name (the last assignment before the
    backward in the same function)."""
    if not isinstance(target, ast.Name):
        return None
    cands = assignments_before(src, src.scope(call), target.id, call.lineno)
    if not cands:
        return None
    return cands[-1]


# Calls whose result is not a forward pass: tensor constructors and factories (a label tensor
# `valid = Variable(Tensor(n, 1).fill_(1.0), requires_grad=False)`, `torch.randint` inputs),
# data moves and wrappers of data (`Variable(imgs)`), an argparse namespace, a module copy
# (`learner = maml.clone()`). Detaching one of them is not the pitfall (a no-op, or a crash that
# is not about gradients): until this list was complete, 13 of the 97 detach_output mutants were
# such equivalent or invalid mutants.
NOT_FORWARD = frozenset({
    "zeros", "ones", "randn", "rand", "randint", "randperm", "tensor", "full", "arange", "linspace", "eye",
    "empty", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "randint_like", "empty_like",
    "Tensor", "FloatTensor", "LongTensor", "from_numpy", "as_tensor", "fill_", "Variable",
    "to", "cuda", "float", "long", "view", "size", "len", "range", "enumerate", "next", "iter",
    "parse_args", "clone",
})


def model_output_names(src: Source, loss: ast.Assign) -> list[tuple[ast.Name, ast.Assign]]:
    """Names used in the loss expression that were assigned the result of a call (a forward
    pass) earlier in the same function: the values a cut would disconnect from the model."""
    scope = src.scope(loss)
    out = []
    seen = set()
    callees = {id(n.func) for n in ast.walk(loss.value) if isinstance(n, ast.Call)}
    for node in ast.walk(loss.value):
        if id(node) in callees:
            continue  # `model(x)`: the module, not an output
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in seen:
            defs = assignments_before(src, scope, node.id, loss.lineno)
            if defs and isinstance(defs[-1].value, ast.Call) and len(defs[-1].targets) == 1:
                fn = call_name(defs[-1].value) or ""
                if fn in NOT_FORWARD:
                    continue
                seen.add(node.id)
                out.append((node, defs[-1]))
    out.sort(key=lambda p: (p[0].lineno, p[0].col_offset))
    return out


def in_loop_with(src: Source, loop: ast.AST, pred: Callable[[ast.AST], bool]) -> list[ast.AST]:
    return [n for n in ast.walk(loop) if pred(n)]


def is_method_call(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name


def imports_name(src: Source, name: str) -> bool:
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if (a.asname or a.name.split(".")[0]) == name:
                    return True
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if (a.asname or a.name) == name:
                    return True
    return False


# ----------------------------------------------------------------------------- the kinds
KINDS: dict[str, tuple[Callable[[Source], Iterator[tuple]], tuple[str, ...]]] = {}


def kind(name: str, codes: tuple[str, ...]):
    def deco(fn):
        KINDS[name] = (fn, codes)
        return fn

    return deco


@kind("zero_grad_deleted", ("GL302", "GL3"))
def _zero_grad_deleted(src: Source):
    """Delete the `zero_grad()` of a loop that also runs backward and step (replaced by `pass`
    so no line moves). Expected: a backward or step line of that loop."""
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Expr) and is_method_call(node.value, "zero_grad"):
            loop = src.loop(node)
            if loop is None:
                continue
            backs = [c for c, _ in backward_calls(src) if src.loop(c) is loop or loop in list(src.ancestors(c))]
            steps = in_loop_with(src, loop, lambda n: is_method_call(n, "step") or (isinstance(n, ast.Call) and call_name(n) == "step"))
            if not backs or not steps:
                continue
            expected = {c.lineno for c in backs} | {s.lineno for s in steps}
            yield [span(node, "pass")], expected, 0, 0, f"deleted {src.segment(node)} (line {node.lineno})"


def _targets(src: Source):
    for call, target in backward_calls(src):
        loss = loss_assignment(src, call, target)
        if loss is not None:
            yield call, target, loss


@kind("numpy_on_output", ("GL1",))
def _numpy_on_output(src: Source):
    """The forward output a backpropagated loss is computed from goes through NumPy and back:
    `out = torch.tensor(model(x).detach().cpu().numpy())`. Expected: that line."""
    if not imports_name(src, "torch"):
        return
    done = set()
    for _call, _target, loss in _targets(src):
        for name, d in model_output_names(src, loss):
            if id(d) in done:
                continue
            done.add(id(d))
            v = d.value
            txt = f"torch.tensor({src.segment(v)}.detach().cpu().numpy())"
            yield [span(v, txt)], {d.lineno}, 0, 0, f"{name.id} via numpy (line {d.lineno})"
            break


@kind("item_on_term", ("GL1",))
def _item_on_term(src: Source):
    """A term of a backpropagated sum is turned into a Python float: `loss = a + b.item()`."""
    for _call, _target, loss in _targets(src):
        v = loss.value
        if isinstance(v, ast.BinOp) and isinstance(v.op, (ast.Add, ast.Sub)):
            right = v.right
            if isinstance(right, ast.Constant):
                continue
            yield [span(right, f"({src.segment(right)}).item()")], {right.lineno, loss.lineno}, 0, 0, f"term .item() (line {loss.lineno})"


@kind("float_rewrap_loss", ("GL1",))
def _float_rewrap(src: Source):
    """The loss is rebuilt from a Python float, the classic "fix" for "does not require grad":
    `loss = torch.tensor(float(expr), requires_grad=True)`."""
    if not imports_name(src, "torch"):
        return
    for _call, _target, loss in _targets(src):
        v = loss.value
        yield [span(v, f"torch.tensor(float({src.segment(v)}), requires_grad=True)")], {loss.lineno}, 0, 0, f"float rewrap (line {loss.lineno})"


@kind("detach_output", ("GL1",))
def _detach_output(src: Source):
    """A forward output is detached where the backpropagated loss uses it."""
    if not imports_name(src, "torch"):
        return  # `.detach()` is torch's (micrograd's Value has none)
    for _call, _target, loss in _targets(src):
        names = model_output_names(src, loss)
        if names:
            name, d = names[0]
            yield [span(name, f"{name.id}.detach()")], {name.lineno, loss.lineno}, 0, 0, f"{name.id}.detach() in loss (line {loss.lineno})"
            continue
        # `loss = criterion(model(x), y)`: detach the forward call inside the loss expression
        v = loss.value
        if isinstance(v, ast.Call) and v.args and isinstance(v.args[0], ast.Call):
            a = v.args[0]
            yield [span(a, f"{src.segment(a)}.detach()")], {loss.lineno, a.lineno}, 0, 0, f"forward .detach() in loss (line {loss.lineno})"


@kind("detach_rewrap", ("GL1",))
def _detach_rewrap(src: Source):
    """The common "fix" of "does not require grad": a forward output is detached and made a
    new leaf (`out.detach().requires_grad_()`) where the backpropagated loss uses it."""
    if not imports_name(src, "torch"):
        return
    for edits, expected, line, shift, what in _detach_output(src):
        (e,) = edits
        yield ([Edit(e.line, e.col, e.end_line, e.end_col, e.text.replace(".detach()", ".detach().requires_grad_()"))],
               expected, line, shift, what.replace(".detach()", ".detach().requires_grad_()"))


@kind("create_graph_dropped", ("GL203", "GL2"))
def _create_graph_dropped(src: Source):
    """`create_graph=True` removed from `autograd.grad` (gradient penalty, inner MAML step)."""
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call) and call_name(node) == "grad":
            for kw in node.keywords:
                if kw.arg == "create_graph" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                    # delete ", create_graph=True" including the preceding comma
                    seg = src.segment(node)
                    kwseg = src.segment(kw)
                    i = seg.find(kwseg)
                    j = seg.rfind(",", 0, i)
                    new = seg[:j] + seg[i + len(kwseg):] if j >= 0 else seg.replace(kwseg, "")
                    yield [span(node, new)], {node.lineno}, 0, 0, f"create_graph dropped (line {node.lineno})"


@kind("loss_accumulated", ("GL205", "GL2"))
def _loss_accumulated(src: Source):
    """`running += loss.item()` becomes `running += loss`: every iteration's graph is kept."""
    for node in ast.walk(src.tree):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and src.loop(node) is not None:
            v = node.value
            if is_method_call(v, "item") and not v.args and isinstance(v.func.value, ast.Name):
                # only where the value is one that is backpropagated in the same loop
                loop = src.loop(node)
                name = v.func.value.id
                outer = src.stepping_loop(node)
                if outer is not loop and isinstance(node.target, ast.Name) and any(
                        isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.target.id for t in a.targets)
                        and src.loop(a) is outer for a in ast.walk(outer)):
                    continue  # reset every step, summed over its micro-batches: bounded, not the pitfall
                if any(isinstance(t, ast.Name) and t.id == name and src.loop(c) is loop for c, t in backward_calls(src)):
                    yield [span(v, name)], {node.lineno}, 0, 0, f"+= {name} (line {node.lineno})"


@kind("loss_appended", ("GL205", "GL2"))
def _loss_appended(src: Source):
    """The backpropagated loss tensor is appended to a list made before the loop."""
    for call, target in backward_calls(src):
        if not isinstance(target, ast.Name):
            continue
        loop = src.stepping_loop(call)
        if loop is None:
            continue
        stmt = src.statement(call)
        lstmt = loop
        ind_loop = src.indent_of(lstmt)
        ind = src.indent_of(stmt)
        # insert `kept_losses = []` before the loop and `kept_losses.append(loss)` after backward
        e1 = Edit(lstmt.lineno, 0, lstmt.lineno, 0, f"{ind_loop}kept_losses = []\n")
        e2 = Edit(stmt.end_lineno + 1, 0, stmt.end_lineno + 1, 0, f"{ind}kept_losses.append({target.id})\n")
        if stmt.end_lineno >= len(src.lines):
            continue
        # after the first insertion, the append sits at end_lineno + 2
        yield [e1, e2], {stmt.end_lineno + 2}, lstmt.lineno, 1, f"append {target.id} (after line {stmt.end_lineno})"


@kind("loss_running_average", ("GL205", "GL2"))
def _loss_running_average(src: Source):
    """Like loss_appended, but the backpropagated loss is smoothed for logging:
    `ema_loss = 0.9 * ema_loss + 0.1 * loss` chains every iteration's graph."""
    for edits, expected, line, shift, what in _loss_appended(src):
        e1, e2 = edits
        name = what.split()[1]
        e1 = Edit(e1.line, e1.col, e1.end_line, e1.end_col, e1.text.replace("kept_losses = []", "ema_loss = 0.0"))
        e2 = Edit(e2.line, e2.col, e2.end_line, e2.end_col,
                  e2.text.replace(f"kept_losses.append({name})", f"ema_loss = 0.9 * ema_loss + 0.1 * {name}"))
        yield [e1, e2], expected, line, shift, what.replace("append", "running average of")


@kind("loss_kept_in_dict", ("GL205", "GL2"))
def _loss_kept_in_dict(src: Source):
    """Like loss_appended, but the loss is kept inside a per-step record:
    `kept_steps.append({"loss": loss, "step": ...})` keeps the graph just the same."""
    for edits, expected, line, shift, what in _loss_appended(src):
        e1, e2 = edits
        name = what.split()[1]
        e2 = Edit(e2.line, e2.col, e2.end_line, e2.end_col,
                  e2.text.replace(f"kept_losses.append({name})", f'kept_losses.append({{"loss": {name}, "n": len(kept_losses)}})'))
        yield [e1, e2], expected, line, shift, what.replace("append", "append a dict holding")


@kind("grad_kept_no_clone", ("GL301", "GL3"))
def _grad_kept(src: Source):
    """`zero_grad(set_to_none=False)`, and the optimizer's `p.grad` tensors appended to a history
    list after every backward: every entry aliases the same buffers, which the next zero_ and
    backward rewrite, so the history holds the last gradients N times."""
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Expr) and is_method_call(node.value, "zero_grad") and not node.value.args and not node.value.keywords:
            loop = src.loop(node)
            if loop is None:
                continue
            opt = dotted(node.value.func.value)
            if opt is None:
                continue
            backs = [c for c, _ in backward_calls(src) if loop in list(src.ancestors(c)) and c.lineno > node.lineno]
            if not backs:
                continue
            back = src.statement(backs[0])
            if back.end_lineno >= len(src.lines):
                continue
            ind = src.indent_of(back)
            z = node.value
            e0 = Edit(loop.lineno, 0, loop.lineno, 0, f"{src.indent_of(loop)}grad_history = []\n")
            e1 = span(z, f"{src.segment(z.func)}(set_to_none=False)")
            # an optimizer's parameters, or a module's (`model.zero_grad()`)
            params = f"(p for g in {opt}.param_groups for p in g['params'])" if "opt" in opt.lower() else f"{opt}.parameters()"
            e2 = Edit(back.end_lineno + 1, 0, back.end_lineno + 1, 0,
                      f"{ind}grad_history.append([p.grad for p in {params}])\n")
            # two lines inserted: one before the loop, one after the backward
            yield [e0, e1, e2], {back.end_lineno + 2}, loop.lineno, 1, f"p.grad history after line {back.end_lineno}"
            return


@kind("loss_under_no_grad", ("GL1", "GL5"))
def _loss_under_no_grad(src: Source):
    """The backpropagated loss is computed inside `with torch.no_grad():`."""
    if not imports_name(src, "torch"):
        return
    for call, _target, loss in _targets(src):
        ind = src.indent_of(loss)
        body = "".join(src.lines[loss.lineno - 1 : loss.end_lineno])
        if not body.endswith("\n"):
            continue
        new = f"{ind}with torch.no_grad():\n" + "".join("    " + ln if ln.strip() else ln for ln in body.splitlines(keepends=True))
        e = Edit(loss.lineno, 0, loss.end_lineno + 1, 0, new)
        expected = {loss.lineno, loss.lineno + 1, call.lineno + 1}
        yield [e], expected, loss.lineno, 1, f"no_grad around line {loss.lineno}"


@kind("second_backward", ("GL201", "GL2"))
def _second_backward(src: Source):
    """A second backward through the same graph without retain_graph: drop an existing
    `retain_graph=True`, else differentiate the loss once more right after."""
    for node in ast.walk(src.tree):
        if is_method_call(node, "backward"):
            for kw in node.keywords:
                if kw.arg == "retain_graph" and isinstance(kw.value, ast.Constant) and kw.value.value is True and src.loop(node) is not None:
                    seg = src.segment(node)
                    new = seg.replace(src.segment(kw), "").replace("(, ", "(").replace(", )", ")").replace("()", "()")
                    # the next backward in the same loop is the one that fails
                    later = [c for c, _ in backward_calls(src) if c.lineno > node.lineno and src.loop(c) is src.loop(node)]
                    if later:
                        yield [span(node, new)], {c.lineno for c in later[:1]}, 0, 0, f"retain_graph dropped (line {node.lineno})"
                        return
    for call, target in backward_calls(src):
        if not isinstance(target, ast.Name) or src.loop(call) is None:
            continue
        stmt = src.statement(call)
        if stmt.end_lineno >= len(src.lines):
            continue
        ind = src.indent_of(stmt)
        e = Edit(stmt.end_lineno + 1, 0, stmt.end_lineno + 1, 0, f"{ind}{target.id}.backward()\n")
        yield [e], {stmt.end_lineno + 1}, stmt.end_lineno + 1, 1, f"second {target.id}.backward() after line {stmt.end_lineno}"
        return


@kind("tf_numpy_in_tape", ("GL1",))
def _tf_numpy_in_tape(src: Source):
    """Inside `with tf.GradientTape() as tape:`, a forward output goes through `.numpy()`."""
    for node in ast.walk(src.tree):
        if not isinstance(node, ast.With):
            continue
        if not any(isinstance(i.context_expr, ast.Call) and call_name(i.context_expr) == "GradientTape" for i in node.items):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                used = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for s in node.body if s.lineno > stmt.lineno for n in ast.walk(s))
                if used:
                    yield [span(stmt.value, f"{src.segment(stmt.value)}.numpy()")], {stmt.lineno}, 0, 0, f"{name}.numpy() in tape (line {stmt.lineno})"
                    break


@kind("jax_float_in_grad", ("GL1",))
def _jax_float_in_grad(src: Source):
    """In a function given to `jax.grad`/`value_and_grad`, a traced value goes through `float()`."""
    funcs = {n.name: n for n in ast.walk(src.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    targets = []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call) and call_name(node) in ("grad", "value_and_grad") and node.args:
            f = node.args[0]
            if isinstance(f, ast.Name) and f.id in funcs:
                targets.append(funcs[f.id])
    for fn in targets:
        rets = [n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None and src.scope(n) is fn]
        if not rets:
            continue
        ret = rets[0]
        names = {n.id for n in ast.walk(ret.value) if isinstance(n, ast.Name)}
        assigns = [s for s in fn.body if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id in names and isinstance(s.value, (ast.Call, ast.BinOp))]
        if assigns:
            a = assigns[-1]
            yield [span(a.value, f"float({src.segment(a.value)})")], {a.lineno}, 0, 0, f"float() in {fn.name} (line {a.lineno})"
        else:
            v = ret.value.elts[0] if isinstance(ret.value, ast.Tuple) and ret.value.elts else ret.value
            yield [span(v, f"float({src.segment(v)})")], {v.lineno}, 0, 0, f"float() return in {fn.name} (line {v.lineno})"


# ----------------------------------------------------------------------------- across modules
CROSS_KINDS = {"xmod_loss_rewrapped": ("GL1",), "xmod_forward_numpy": ("GL1",)}


def _project_imports(path: Path, repo: Path, src: Source) -> dict[str, tuple[Path, str]]:
    """Names the file binds from modules of its own repository: name -> (file, defined name)."""
    from gradlint.analysis import frameworks
    from gradlint.project import ProjectModules
    from gradlint.project.resolve import find_module

    project = ProjectModules(str(path), (str(repo),))

    def own(module: str | None) -> Path | None:
        if not module or frameworks.by_head(module.split(".", 1)[0]) is not None:
            return None  # a library an overlay describes (timm in timm's repository): not read
        found = find_module(module, project.roots)
        if found is None or Path(found).resolve() == path.resolve() or repo.resolve() not in Path(found).resolve().parents:
            return None
        return Path(found)

    out: dict[str, tuple[Path, str]] = {}
    for node in ast.walk(src.tree):
        if _conditional(src, node):
            continue  # `if args.arch == "swagan": from swagan import ...`: one path of several
        if isinstance(node, ast.Import):  # `import losses` then `losses.smooth_l1(...)`
            for a in node.names:
                if a.asname:
                    file = own(a.name)
                    if file is not None:
                        out[a.asname] = (file, "")
                elif "." not in a.name and own(a.name) is not None:
                    out[a.name] = (own(a.name), "")  # type: ignore[assignment]
            continue
        if not isinstance(node, ast.ImportFrom) or node.module is None and not node.level:
            continue
        base = project.absolute(node.module, node.level, project.name, project.is_package)
        file = own(base)
        if file is None:
            continue
        for a in node.names:
            if a.name != "*":
                out[a.asname or a.name] = (file, a.name)
                continue
            try:  # `from models import *`: its top-level definitions
                tree = ast.parse(file.read_text(encoding="utf-8"))
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            for d in tree.body:
                if isinstance(d, (ast.FunctionDef, ast.ClassDef)) and not d.name.startswith("_"):
                    out.setdefault(d.name, (file, d.name))
    return out


def _conditional(src: Source, node: ast.AST) -> bool:
    """Whether `node` runs on some paths only (inside an `if` of its function or module): a
    mutant reached that way is a cut on one path, which by design is not reported."""
    for a in src.ancestors(node):
        if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
        if isinstance(a, ast.If) and not (isinstance(a.test, ast.Compare) and isinstance(a.test.left, ast.Name)
                                          and a.test.left.id == "__name__"):  # the main guard runs
            return True
    return False


def _imported_callee(call: ast.Call, imported: dict[str, tuple[Path, str]]) -> tuple[Path, str] | None:
    """The definition a call names: `f(...)` of `from m import f`, or `m.f(...)` of `import m`."""
    f = call.func
    if isinstance(f, ast.Name) and f.id in imported and imported[f.id][1]:
        return imported[f.id]
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in imported and not imported[f.value.id][1]:
        return imported[f.value.id][0], f.attr
    return None


def _definition(src: Source, name: str) -> ast.AST | None:
    for node in src.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return node
    return None


def _last_return(fn: ast.AST) -> ast.Return | None:
    rets = [n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    rets = [r for r in rets if not any(isinstance(a, (ast.FunctionDef, ast.Lambda)) and a is not fn
                                       for a in _between(fn, r))]
    return max(rets, key=lambda r: r.lineno) if rets else None


def _between(root: ast.AST, target: ast.AST) -> list[ast.AST]:
    """The nodes from `root` down to `target` (exclusive of both)."""
    path: list[ast.AST] = []

    def walk(node: ast.AST) -> bool:
        for child in ast.iter_child_nodes(node):
            if child is target:
                return True
            path.append(child)
            if walk(child):
                return True
            path.pop()
        return False

    walk(root)
    return path


def cross_module_mutants(trees: Path, kinds: list[str]) -> tuple[list[Mutant], int]:
    """One mutant per definition (loss function or model class) that a differentiating file
    imports from its repository and uses where it differentiates."""
    mutants: list[Mutant] = []
    seen: set[tuple[str, str, str]] = set()
    skipped = 0
    for p in candidates(trees):
        repo = trees / p.relative_to(trees).parts[0]
        try:
            src = Source(p.read_text(encoding="utf-8"))
        except (SyntaxError, ValueError, UnicodeDecodeError):
            skipped += 1
            continue
        imported = _project_imports(p, repo, src)
        if not imported:
            continue
        wanted: list[tuple[str, tuple[Path, str]]] = []  # (kind, (file, definition))
        # models made here from an imported class: instance name -> its class
        instances: dict[str, tuple[Path, str]] = {}
        for node in ast.walk(src.tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1:
                made = node.value
                # `Net().to(device)`, `Net().cuda()`, `nn.DataParallel(Net())`: the model inside
                while isinstance(made, ast.Call) and _imported_callee(made, imported) is None:
                    if isinstance(made.func, ast.Attribute) and isinstance(made.func.value, ast.Call) and made.func.attr in ("to", "cuda", "train", "float", "double"):
                        made = made.func.value
                    elif made.args and isinstance(made.args[0], ast.Call) and call_name(made) in ("DataParallel", "DistributedDataParallel", "DDP", "FSDP", "compile"):
                        made = made.args[0]
                    else:
                        break
                callee = _imported_callee(made, imported) if isinstance(made, ast.Call) else None
                name = dotted(node.targets[0])
                if _conditional(src, node):
                    continue  # `model = torch.load(...)` on the other branch
                if callee is not None and name is not None:
                    instances[name] = callee
        for _call, _target, loss in _targets(src):
            # what the backpropagated loss is computed from: its expression, and the forward
            # outputs it uses
            exprs = [loss.value] + [d.value for _n, d in model_output_names(src, loss)]
            for e in exprs:
                for n in ast.walk(e):
                    if not isinstance(n, ast.Call):
                        continue
                    callee = _imported_callee(n, imported)
                    if callee is not None and e is loss.value:
                        wanted.append(("xmod_loss_rewrapped", callee))
                    model = dotted(n.func)
                    if model in instances:  # `model(x)` of a model made here
                        wanted.append(("xmod_forward_numpy", instances[model]))
        for k, (file, name) in wanted:
            if k not in kinds:
                continue
            key = (k, str(file), name)
            if key in seen:
                continue
            seen.add(key)
            try:
                msrc = Source(file.read_text(encoding="utf-8"))
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            if not imports_name(msrc, "torch"):
                continue
            d = _definition(msrc, name)
            if k == "xmod_loss_rewrapped" and isinstance(d, ast.FunctionDef):
                ret = _last_return(d)
                if ret is None or isinstance(ret.value, ast.Tuple):
                    continue
                edit = span(ret.value, f"torch.tensor(float({msrc.segment(ret.value)}), requires_grad=True)")
                what = f"{name}() returns a float rewrapped (line {ret.lineno}), differentiated in {p.relative_to(trees)}"
            elif k == "xmod_forward_numpy" and isinstance(d, ast.ClassDef):
                fwd = next((b for b in d.body if isinstance(b, ast.FunctionDef) and b.name == "forward"), None)
                ret = _last_return(fwd) if fwd is not None else None
                if ret is None or isinstance(ret.value, (ast.Tuple, ast.Dict, ast.List)):
                    continue
                edit = span(ret.value, f"torch.tensor(({msrc.segment(ret.value)}).detach().cpu().numpy())")
                what = f"{name}.forward returns its output through NumPy (line {ret.lineno}), trained in {p.relative_to(trees)}"
            else:
                continue
            text = apply_edits(msrc, [edit])
            try:
                ast.parse(text)
            except SyntaxError:
                continue
            mutants.append(Mutant(k, str(file.relative_to(trees)), text, {ret.lineno}, 0, 0, what, CROSS_KINDS[k]))
    return mutants, skipped


# ----------------------------------------------------------------------------- running
def candidates(trees: Path) -> list[Path]:
    out = []
    for p in sorted(trees.rglob("*.py")):
        try:
            t = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if any(w in t for w in DIFF_WORDS):
            out.append(p)
    return out


def make_mutants(trees: Path, kinds: list[str], per_file: int) -> tuple[list[Mutant], int]:
    mutants: list[Mutant] = []
    skipped = 0
    for p in candidates(trees):
        rel = str(p.relative_to(trees))
        try:
            src = Source(p.read_text(encoding="utf-8"))
        except (SyntaxError, ValueError, UnicodeDecodeError):
            skipped += 1
            continue
        for k in kinds:
            gen, codes = KINDS[k]
            n = 0
            for edits, expected, shift_at, shift, where in gen(src):
                text = apply_edits(src, edits)
                try:
                    ast.parse(text)
                except SyntaxError:
                    continue
                mutants.append(Mutant(k, rel, text, set(expected), shift_at, shift, where, codes))
                n += 1
                if n >= per_file:
                    break
    return mutants, skipped


def run_gradlint(cmd: list[str], root: Path, files: list[str], extra: tuple[str, ...] = ()) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = collections.defaultdict(list)
    if not files:
        return out
    res = subprocess.run(cmd + ["check", *extra, "--no-cache", "--output-format", "json", "--exit-zero", *files],
                         cwd=root, capture_output=True, text=True)
    if res.returncode not in (0, 1):
        # older versions have no --exit-zero
        res = subprocess.run(cmd + ["check", "--no-cache", "--output-format", "json", *files], cwd=root, capture_output=True, text=True)
    try:
        data = json.loads(res.stdout or "[]")
    except json.JSONDecodeError:
        sys.exit(f"gradlint output is not JSON: {res.stdout[:500]} {res.stderr[:500]}")
    for d in data:
        rel = os.path.relpath(os.path.join(root, d["filename"]), root) if not os.path.isabs(d["filename"]) else os.path.relpath(d["filename"], root)
        out[rel].append(d)
    return out


def _repo(m: Mutant) -> str:
    return Path(m.file).parts[0]


def batches(mutants: list[Mutant], cross: bool = False) -> list[list[Mutant]]:
    """Groups in which no file appears twice (no repository, across modules)."""
    out: list[list[Mutant]] = []
    for m in mutants:
        for b in out:
            if all((_repo(x) != _repo(m)) if cross else (x.file != m.file) for x in b):
                b.append(m)
                break
        else:
            out.append([m])
    return out


def evaluate(trees: Path, mutants: list[Mutant], cmd: list[str], cross: bool = False) -> tuple[list[dict], dict]:
    # across modules: each mutant's whole repository is checked in its project
    extra = ("--project",) if cross else ()

    def paths(ms: list[Mutant]) -> list[str]:
        return sorted({_repo(m) if cross else m.file for m in ms})

    base = run_gradlint(cmd, trees, paths(mutants), extra)
    results = []
    with tempfile.TemporaryDirectory(prefix="gl-mut-") as tmp:
        work = Path(tmp) / "trees"
        shutil.copytree(trees, work, symlinks=True)
        for batch in batches(mutants, cross):
            for m in batch:
                (work / m.file).write_text(m.text, encoding="utf-8")
            found = run_gradlint(cmd, work, paths(batch), extra)
            for m in batch:
                orig = {(d["code"], d["location"]["row"] + (m.shift if d["location"]["row"] >= m.shift_at and m.shift_at else 0)) for d in base.get(m.file, [])}
                new = [d for d in found.get(m.file, []) if (d["code"], d["location"]["row"]) not in orig]
                hit = [d for d in new if any(abs(d["location"]["row"] - e) <= 1 for e in m.expected) and d["code"].startswith(m.codes)]
                near = [d for d in new if any(abs(d["location"]["row"] - e) <= 1 for e in m.expected)]
                results.append({
                    "kind": m.kind, "file": m.file, "where": m.where, "expected": sorted(m.expected),
                    "found": bool(hit), "codes": sorted({d["code"] for d in hit}),
                    "wrong_rule": sorted({d["code"] for d in near if d not in hit}),
                    "new_elsewhere": sorted({(d["code"], d["location"]["row"]) for d in new if d not in near}),
                })
            for m in batch:
                shutil.copyfile(trees / m.file, work / m.file)
    return results, base


def summarize(results: list[dict]) -> str:
    by = collections.defaultdict(list)
    for r in results:
        by[r["kind"]].append(r)
    lines = [f"{'kind':24} {'mutants':>7} {'found':>6} {'recall':>7}  codes"]
    tot = fnd = 0
    for k in sorted(by):
        rs = by[k]
        f = sum(r["found"] for r in rs)
        codes = collections.Counter(c for r in rs for c in r["codes"])
        lines.append(f"{k:24} {len(rs):7} {f:6} {f / len(rs):7.0%}  {dict(codes)}")
        tot += len(rs)
        fnd += f
    if tot:
        lines.append(f"{'overall':24} {tot:7} {fnd:6} {fnd / tot:7.0%}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees", type=Path)
    ap.add_argument("--kinds", default="", help="default: every kind of the mode")
    ap.add_argument("--per-file", type=int, default=1, help="mutants per file and kind (default 1)")
    ap.add_argument("--json", type=Path, help="write every mutant's result here")
    ap.add_argument("--gradlint", default=f"{sys.executable} -m gradlint", help="command that runs gradlint")
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cross-module", action="store_true",
                    help="inject into the module that defines the loss or the model (see above); kinds: " + ", ".join(CROSS_KINDS))
    args = ap.parse_args(argv)
    known = CROSS_KINDS if args.cross_module else KINDS
    kinds = [k for k in args.kinds.split(",") if k] if args.kinds else list(known)
    unknown = [k for k in kinds if k not in known]
    if unknown:
        ap.error(f"unknown kinds {unknown}; known: {', '.join(known)}")
    random.seed(args.seed)
    if args.cross_module:
        mutants, skipped = cross_module_mutants(args.trees, kinds)
    else:
        mutants, skipped = make_mutants(args.trees, kinds, args.per_file)
    print(f"{len(mutants)} mutants from {len(candidates(args.trees))} candidate files ({skipped} unparsable)")
    if args.list:
        for m in mutants:
            print(f"{m.kind:22} {m.file}: {m.where}")
        return 0
    cmd = args.gradlint.split()
    if os.path.exists(cmd[0]):
        cmd[0] = os.path.abspath(cmd[0])  # gradlint runs with the tree as its working directory
    results, base = evaluate(args.trees, mutants, cmd, args.cross_module)
    print(summarize(results))
    if args.show_misses:
        for r in results:
            if not r["found"]:
                extra = f" (wrong rule at the line: {r['wrong_rule']})" if r["wrong_rule"] else ""
                print(f"MISS {r['kind']:22} {r['file']}: {r['where']}{extra}")
    if args.json:
        args.json.write_text(json.dumps({"results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
