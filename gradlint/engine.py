"""The static engine: parse once, interpret once, run every selected rule on the events.

    text ─► cheap first pass (prefilter.py: can this file hold a finding at all? which top-level
            statements matter?) ─► libcst parse ─► Interpreter (analysis/) emitting events ─►
            rule hooks ─► findings ─► positions, fixes, `# noqa` ─► [Diagnostic]

Nothing here imports torch, TensorFlow or JAX, and nothing here runs user code.
"""

from __future__ import annotations

import gc
import re
import time
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

import libcst as cst

from . import limits, prefilter
from .analysis.events import EVENT_HOOKS, CallEvent
from .analysis.interpreter import AnalysisBudgetExceeded, Interpreter, RunCache
from .analysis.walk import parent_map
from .chunks import ChunkCache, ParsedChunk
from .config import Config
from .diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Severity
from .rules import load_all
from .rules.base import REGISTRY, Rule, RuleFix
from .rules.meta import RuleErrorRule, SyntaxErrorRule, meta_diagnostic
from .rules.meta import io_error as io_error  # re-exported: the CLI reports unreadable files through the engine
from .source import SourceText, lf_line_ends

if TYPE_CHECKING:  # pragma: no cover
    from .project import ProjectModules as Project


@dataclass
class _Finding:
    rule: Rule
    node: cst.CSTNode
    message: str
    fix: RuleFix | None
    severity: Severity


class FileContext:
    """What a rule sees of the file it checks (implements rules.context.FileContext)."""

    def __init__(self, chunks: list[ParsedChunk], source: SourceText, path: str, interp: Interpreter,
                 code_text: str | None = None) -> None:
        self.chunks = chunks
        self.module = chunks[0].module if chunks else cst.Module(body=[])
        self.source = source
        self.path = path
        self.interp = interp
        self.findings: list[_Finding] = []
        self._code_cache: dict[int, str] = {}
        self._parents: dict[int, cst.CSTNode] | None = None
        self._foreign_parents: dict[tuple, dict] = {}  # (id(module), units parsed) -> its parent map
        self._discarded: set[int] | None = None
        self._ranges: dict[int, tuple | None] = {}
        self._code_text = code_text  # the prefilter's mask when it made one

    @property
    def frameworks(self) -> set[str]:
        return self.interp.frameworks

    def add_finding(self, rule: Rule, node, message, fix, severity) -> None:
        self.findings.append(_Finding(rule, node, message, fix, severity))

    @property
    def code_text(self) -> str:
        """The file with strings and comments blanked out (for "does the code use X" checks)."""
        if self._code_text is None:
            self._code_text = prefilter.code_mask(self.source.text)
        return self._code_text

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The parent of a node that is code (the map is built on first use: most files never
        need it; syntax trivia, two thirds of a tree, is left out of it)."""
        if self._parents is None:
            # the chunks' own maps, kept between versions: an edit rebuilds only the touched one's
            parents: dict[int, cst.CSTNode] = {}
            for pc in self.chunks:
                parents.update(pc.parents())
            self._parents = parents
        p = self._parents.get(id(node))
        if p is None and self.interp is not None and self.interp.modules_read and not isinstance(node, cst.Module):
            p = self._foreign_parent(node)
        return p

    def _foreign_parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The parent of a node of an imported project module the analysis read (a backward in
        a helper module whose caller here guards it: `if loss.requires_grad:`)."""
        owner = next((m for m in self.interp.modules_read if m.owns(node)), None)
        if owner is None:
            return None
        units = owner.parsed_units()
        key = (id(owner), len(units))  # a module's statements are parsed as they are needed
        maps = self._foreign_parents
        if key not in maps:
            maps[key] = parent_map([module for _unit, module in units])
        return maps[key].get(id(node))

    def discarded(self, node: cst.CSTNode) -> bool:
        """Whether `node` is the value of an expression statement (`x.add(1)` on a line of its
        own). Answered from the statements alone, not from the parent map: a rule asks this of
        every call of a common method name, and the parent map walks every expression."""
        if self._discarded is None:
            self._discarded = _expression_statements([pc.module for pc in self.chunks])
        return id(node) in self._discarded

    def module_statements(self) -> list:
        """The file's top-level statements in order, across the chunks it was parsed in."""
        return [stmt for pc in self.chunks for stmt in pc.module.body]

    def ancestors(self, node: cst.CSTNode):
        p = self.parent(node)
        while p is not None:
            yield p
            p = self.parent(p)

    def code(self, node: cst.CSTNode) -> str:
        """Source text of a node (without its surrounding whitespace)."""
        key = id(node)
        c = self._code_cache.get(key)
        if c is None:
            c = self.module.code_for_node(node)
            self._code_cache[key] = c
        return c

    def range_of(self, node: cst.CSTNode) -> tuple[Position, Position] | None:
        """File positions of a node. libcst is lossless, so a node's code is a verbatim slice of
        its chunk: when that text occurs once in the file's chunks, its offset gives the
        position without generating code for the whole chunk; otherwise the position maps of
        the chunks that contain the text decide (computed once per chunk)."""
        key = id(node)
        cached = self._ranges.get(key)
        if cached is not None:
            return cached
        snippet = self.code(node)
        candidates = [pc for pc in self.chunks if snippet in pc.chunk.text] if snippet else list(self.chunks)
        result = None
        if len(candidates) == 1 and candidates[0].chunk.text.count(snippet) == 1:
            pc = candidates[0]
            off = pc.chunk.text.find(snippet)
            result = self._span(pc, off, snippet)
        else:
            for pc in candidates or self.chunks:
                rng = pc.positions().get(node)
                if rng is not None:
                    fl = pc.chunk.file_line
                    result = Position(fl(rng.start.line), rng.start.column), Position(fl(rng.end.line), rng.end.column)
                    break
        self._ranges[key] = result
        return result

    @staticmethod
    def _span(pc: "ParsedChunk", off: int, snippet: str) -> tuple[Position, Position]:
        text = pc.chunk.text
        local = 1 + text.count("\n", 0, off)
        col = off - (text.rfind("\n", 0, off) + 1)
        nl = snippet.count("\n")
        fl = pc.chunk.file_line
        if nl:
            end = Position(fl(local + nl), len(snippet) - snippet.rfind("\n") - 1)
        else:
            end = Position(fl(local), col + len(snippet))
        return Position(fl(local), col), end


def _expression_statements(roots: list[cst.CSTNode]) -> set[int]:
    """ids of the values of every expression statement under `roots`, found by walking
    statements and blocks only (expressions hold no statements; lambdas hold none)."""
    out: set[int] = set()
    stack: list = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            out.update(id(s.value) for s in node.body if isinstance(s, cst.Expr))
        elif isinstance(node, (cst.Module, cst.IndentedBlock)):
            stack.extend(node.body)
        else:
            for field in ("body", "orelse", "finalbody"):
                part = getattr(node, field, None)
                if isinstance(part, cst.CSTNode):
                    stack.append(part)
            stack.extend(getattr(node, "handlers", ()))
            stack.extend(getattr(node, "cases", ()))
    return out


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]
    parsed: bool = True
    skipped: bool = False  # the cheap first pass proved the file cannot hold a finding
    timings: dict = field(default_factory=dict)


def _selected_rules(config: Config | None, path: str | None, select: Iterable[str] | None) -> list[type[Rule]]:
    load_all()
    codes: Iterable[str]
    if select is not None:
        codes = set(select)
    elif config is not None:
        codes = config.enabled_codes(path, codes=REGISTRY)
    else:
        codes = set(REGISTRY)
    return [REGISTRY[c] for c in sorted(codes) if c in REGISTRY]


def check_source(
    text: str,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    select: Iterable[str] | None = None,
    exhaustive: bool = False,
    always_parse: bool = False,
    project: Project | None = None,
) -> list[Diagnostic]:
    """Lint one file's text. `exhaustive=True` parses and analyses every chunk (used to prove
    the narrowing loses no finding); `always_parse=True` parses a file without
    differentiation evidence too, so that a syntax error is reported (the language server
    wants GL001 on every buffer). With a `project` (gradlint.project.ProjectModules) the
    project modules the file imports are read and inlined where called, and a pitfall found
    in one of them is reported at its own path and line."""
    return check_source_full(text, path, config, select=select, exhaustive=exhaustive, always_parse=always_parse,
                             project=project).diagnostics


def _parse_chunks(chunks: list[prefilter.Unit], cache: ChunkCache | None) -> list[ParsedChunk]:
    out = []
    used: set[int] = set()
    for c in chunks:
        item = cache.get(c.text) if cache is not None else None
        if item is not None and id(item) in used:
            # the same text twice in one file (two `y.backward()`): the analysis tells
            # statements apart by node, so the second one gets a tree of its own
            out.append(ParsedChunk(c, cst.parse_module(c.text)))
            continue
        if item is None:
            module = cst.parse_module(c.text)
            if cache is not None:
                item = cache.put(c.text, module)
        if item is not None:
            used.add(id(item))
        out.append(ParsedChunk(c, item[0], item) if item is not None else ParsedChunk(c, module))
    return out


def check_source_full(
    text: str,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    select: Iterable[str] | None = None,
    exhaustive: bool = False,
    always_parse: bool = False,
    cache: ChunkCache | None = None,
    run_cache: RunCache | None = None,
    project: Project | None = None,
) -> CheckResult:
    config = config or Config()
    text = lf_line_ends(text)  # classic-Mac "\r" ends: same offsets, lines as Python counts them
    rules = _selected_rules(config, path, select)
    enabled = {r.code for r in rules}
    source = SourceText(text)
    if "\x00" in text:  # CPython refuses the file (libcst would parse it)
        return CheckResult(_null_byte(source, path, config, enabled), parsed=False)
    diags: list[Diagnostic] = []
    t0 = time.perf_counter()

    analysed = [r for r in rules if not r.code.startswith("GL00")]
    if "GL001" in enabled and not analysed:
        always_parse = True  # only syntax errors asked for: every file must be parsed
    plan = prefilter.plan(text, analysed, narrow=not exhaustive)
    if plan.skip and analysed and project is not None:
        hot = _imports_differentiating(text, project)
        if hot:
            # the evidence is in a project module it imports (its Trainer calls backward()):
            # what the file does with what it imports from there is the hot code
            plan = prefilter.plan(text, analysed, narrow=not exhaustive, evidence=True, hot_words=hot)
    if plan.skip or not analysed:
        if always_parse:
            screened = limits.screen([prefilter.Unit(text, [])], text, path, config, enabled)
            if not screened.complete:  # too complex for libcst: CPython's verdict only
                return CheckResult(screened.diagnostics if screened.syntax_error else [], parsed=False)
            try:
                limits.on_big_stack(cst.parse_module, text)
            except cst.ParserSyntaxError as exc:
                diags = [d for d in _syntax_error(exc, source, path, config, enabled) if not source.is_suppressed(d)]
                return CheckResult(diags, parsed=False)
            except RecursionError:
                return CheckResult(_too_deep(source, path, config, enabled), parsed=False)
        return CheckResult([], parsed=False, skipped=True)
    screened = limits.screen(plan.units, text, path, config, enabled)  # GL004 for units too deep to parse
    if screened.syntax_error:
        return CheckResult(screened.diagnostics, parsed=False)
    diags.extend(screened.diagnostics)
    try:
        parsed = limits.on_big_stack(_parse_chunks, screened.units, cache)
    except (cst.ParserSyntaxError, RecursionError):
        if not screened.complete:  # the whole file holds what the screen kept out
            return CheckResult(diags, parsed=False)
        # a chunk did not parse on its own (the split guessed wrong, or the file is broken):
        # parse the whole file; a real syntax error is reported from there
        whole = prefilter.Unit(text, list(range(1, text.count("\n") + 2)))
        try:
            parsed = limits.on_big_stack(_parse_chunks, [whole], cache)
        except cst.ParserSyntaxError as exc:
            return CheckResult(_syntax_error(exc, source, path, config, enabled), parsed=False)
        except RecursionError:
            return CheckResult(_too_deep(source, path, config, enabled), parsed=False)
    t1 = time.perf_counter()

    # rules that ran into an exception
    failed: dict[str, BaseException] = {}
    instances: list[Rule] = []
    handlers: dict[type, list] = {}
    call_all: list = []
    call_by_name: dict[str, list] = {}
    body = [stmt for pc in parsed for stmt in pc.module.body]
    # a class skeleton's left-out methods exist: calling one is not followed (not, by use, a submodule)
    elided = {id(s): pc.chunk.elided for pc in parsed if pc.chunk.elided for s in pc.module.body if isinstance(s, cst.ClassDef)}
    interp = Interpreter(body, lambda ev: None, run_cache=run_cache, project=project, elided_members=elided)
    ctx = FileContext(parsed, source, path, interp, code_text=plan.mask)
    for rule_cls in analysed:
        try:
            inst = rule_cls(ctx)
        except Exception as exc:  # pragma: no cover - defensive
            failed[rule_cls.code] = exc
            continue
        instances.append(inst)
        hooks = rule_cls.subscribed_hooks()
        for ev_cls, hook in EVENT_HOOKS.items():
            if hook not in hooks:
                continue
            fn = getattr(inst, hook)
            if ev_cls is CallEvent:
                if inst.call_names is None:
                    call_all.append((inst, fn))
                else:
                    for name in inst.call_names:
                        call_by_name.setdefault(name, []).append((inst, fn))
            else:
                handlers.setdefault(ev_cls, []).append((inst, fn))

    # per callee name, every rule that hears of its calls (call_all + call_by_name[name]),
    # merged on first use: a check emits hundreds of thousands of call events
    call_handlers: dict[str | None, list] = {}

    def disable(inst: Rule, exc: BaseException) -> None:
        # new lists, not edits in place: emit() may be iterating one of them right now
        failed[inst.code] = exc
        call_all[:] = [h for h in call_all if h[0] is not inst]  # read only when merging below
        for name, lst in list(call_by_name.items()):
            call_by_name[name] = [h for h in lst if h[0] is not inst]
        for ev_type, lst in list(handlers.items()):
            handlers[ev_type] = [h for h in lst if h[0] is not inst]
        call_handlers.clear()

    # emit runs for every event of every check (hundreds of thousands in a large file): the
    # handler lookup is written out in it and in emit_to rather than called, on purpose
    def emit(ev) -> None:
        if type(ev) is CallEvent:
            hs = call_handlers.get(ev.name)
            if hs is None:
                hs = call_handlers[ev.name] = call_all + call_by_name.get(ev.name, [])
        else:
            hs = handlers.get(type(ev))
        if not hs:
            return
        for inst, fn in hs:
            try:
                fn(ev)
            except Exception as exc:
                disable(inst, exc)

    def emit_to(ev, codes: frozenset[str]) -> None:
        """A replayed event, to the rules with these codes only (RunCache)."""
        if type(ev) is CallEvent:
            hs = call_handlers.get(ev.name)
            if hs is None:
                hs = call_handlers[ev.name] = call_all + call_by_name.get(ev.name, [])
        else:
            hs = handlers.get(type(ev))
        for inst, fn in hs or ():
            if inst.code in codes:
                try:
                    fn(ev)
                except Exception as exc:
                    disable(inst, exc)

    interp.set_emitter(emit, emit_to)
    if run_cache is not None:
        interp.rule_states = _RuleStates(instances, ctx)
    budget_hit = False
    try:
        interp.run()
    except (AnalysisBudgetExceeded, RecursionError):
        budget_hit = True
    for inst in instances:
        if inst.code in failed:
            continue
        try:
            inst.finish()
        except Exception as exc:
            failed[inst.code] = exc
    t2 = time.perf_counter()

    findings = [f for f in ctx.findings if f.rule.code not in failed]
    foreign: list[Diagnostic] = []
    if findings:
        if interp.modules_read:
            findings, foreign = _split_foreign(findings, ctx, interp, project, config)
        namer = _line_namer(None, ctx, interp, project) if interp.modules_read else None
        diags.extend(_to_diagnostics(findings, ctx, path, config, line_of=namer))
    for code, failure in sorted(failed.items()):
        if "GL002" in enabled:
            diags.append(_rule_error(code, failure, source, path, config))
    if interp.errors and "GL002" in enabled:
        stmt, err = interp.errors[0]
        diags.append(_analysis_error(stmt, err, ctx, path, config, len(interp.errors)))
    diags = [d for d in _dedupe(diags) if not source.is_suppressed(d)] + foreign
    diags.sort(key=Diagnostic.sort_key)
    return CheckResult(
        diags,
        timings={
            "parse": t1 - t0,
            "analysis": t2 - t1,
            "budget_hit": budget_hit,
            "narrowed": plan.narrowed,
            "lines": plan.total_lines,
            "parsed_lines": sum(len(pc.chunk.lines) for pc in parsed),
        },
    )


_SCALARS = (bool, int, float, str, type(None))


class _RuleStates:
    """What each rule has accumulated, summarised cheaply (container sizes, flags, findings):
    a rule whose summary is equal before and after a run was not changed by the run's events,
    and a replay of the run (RunCache) need not go to it."""

    def __init__(self, instances: list[Rule], ctx: FileContext) -> None:
        self.instances = instances
        self.ctx = ctx

    @staticmethod
    def _summary(inst: Rule) -> tuple:
        sig: list = []
        for k, v in vars(inst).items():
            if k == "ctx":
                continue
            if isinstance(v, (list, dict, set, frozenset, tuple)):
                sig.append(len(v))
            elif isinstance(v, _SCALARS):
                sig.append(v)
        return tuple(sig)

    def snapshot(self) -> tuple[int, list[tuple]]:
        return len(self.ctx.findings), [self._summary(inst) for inst in self.instances]

    def reacting(self, before: tuple[int, list[tuple]]) -> frozenset[str]:
        n_findings, summaries = before
        codes = {f.rule.code for f in self.ctx.findings[n_findings:]}
        for inst, old in zip(self.instances, summaries):
            if self._summary(inst) != old:
                codes.add(inst.code)
        return frozenset(codes)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        k = (d.code, d.start, d.end, d.message)
        if k in seen:
            continue
        seen.add(k)
        out.append(d)
    return out


def _imports_differentiating(text: str, project: Project) -> frozenset[str]:
    from .project.evidence import imports_differentiating

    return imports_differentiating(text, project)


def _module_context(m, interp: Interpreter) -> FileContext:
    """Positions in an imported project module (the statements of it that were parsed)."""
    return FileContext([ParsedChunk(unit, module) for unit, module in m.parsed_units()], SourceText(m.text), m.path, interp)


def _line_namer(home, ctx: FileContext, interp: Interpreter, project: Project | None):
    """How a message names the line of a node: its number when the node is in the file the
    finding is reported in (`home`: an imported module, or None for the checked file), else
    `path:line` (`trainer/loop.py:5`)."""
    contexts: dict[int, FileContext] = {}

    def shown(path: str) -> str:
        return project.display(path) if project is not None else path

    def line_of(n):
        owner = next((m for m in interp.modules_read if m.owns(n)), None)
        if owner is None:
            r = ctx.range_of(n)
            if r is None:
                return "?"
            return r[0].line if home is None else f"{shown(ctx.path)}:{r[0].line}"
        octx = contexts.get(id(owner))
        if octx is None:
            octx = contexts[id(owner)] = _module_context(owner, interp)
        r = octx.range_of(n)
        if r is None:
            return "?"
        return r[0].line if owner is home else f"{shown(owner.path)}:{r[0].line}"

    return line_of


# "on line trainer/loop.py:5" -> "at trainer/loop.py:5": a site in another file
_OTHER_FILE_LINE = re.compile(r"\b(?:on )?line (\S+\.(?:pyi?|ipynb):\d+)")


def _split_foreign(findings: list[_Finding], ctx: FileContext, interp: Interpreter, project: Project | None,
                   config: Config) -> tuple[list[_Finding], list[Diagnostic]]:
    """Findings whose node lies in an imported project module become diagnostics at that
    module's path and line (without fixes: an edit belongs to a check of that file)."""
    local: list[_Finding] = []
    by_module: dict[int, tuple] = {}
    for f in findings:
        owner = next((m for m in interp.modules_read if m.owns(f.node)), None)
        if owner is None:
            local.append(f)
        else:
            by_module.setdefault(id(owner), (owner, []))[1].append(f)
    out: list[Diagnostic] = []
    for owner, fs in by_module.values():
        octx = _module_context(owner, interp)
        enabled = config.enabled_codes(owner.path)
        line_of = _line_namer(owner, ctx, interp, project)
        for d in _to_diagnostics([_Finding(f.rule, f.node, f.message, None, f.severity) for f in fs], octx, owner.path, config,
                                 line_of=line_of):
            if d.code in enabled and not octx.source.is_suppressed(d):
                out.append(d)
    return local, _dedupe(out)


def _to_diagnostics(findings: list[_Finding], ctx: FileContext, path: str, config: Config, *,
                    line_of=None) -> list[Diagnostic]:
    """`line_of`: how a message names a node's line (by default: its number in this file)."""
    out = []

    if line_of is None:
        def line_of(n):
            r = ctx.range_of(n)
            return r[0].line if r else "?"

    said = set()
    for f in findings:
        rng = ctx.range_of(f.node)
        if rng is None:
            continue
        start, end = rng
        message = f.message
        if callable(message):
            # messages may name the line of another node ("differentiated on line 26"), in
            # another file too ("differentiated at trainer/loop.py:5")
            message = message(line_of)
            if ":" in message:
                message = _OTHER_FILE_LINE.sub(r"at \1", message)
        if (f.rule.code, start, message) in said:  # `m.mul_(d).add_(x)`: one finding to a reader
            continue
        said.add((f.rule.code, start, message))
        fix = _resolve_fix(f.fix, ctx) if f.fix is not None else None
        out.append(
            Diagnostic(
                code=f.rule.code,
                name=f.rule.name,
                message=message,
                severity=f.severity,
                start=start,
                end=end,
                path=path,
                fix=fix,
                url=config.url_for(f.rule.code),
            )
        )
    return out


def _resolve_fix(fix: RuleFix, ctx: FileContext) -> Fix | None:
    edits = []
    for e in fix.edits:
        rng = ctx.range_of(e.node)
        if rng is None:
            return None
        start, end = rng
        if e.how == "replace":
            edits.append(Edit(start, end, e.text))
        elif e.how == "before":
            edits.append(Edit(start, start, e.text))
        elif e.how == "after":
            edits.append(Edit(end, end, e.text))
        elif e.how == "replace_span":
            rng2 = ctx.range_of(e.end_node)
            if rng2 is None:
                return None
            edits.append(Edit(start, rng2[1], e.text))
    return Fix(fix.message, tuple(edits), fix.applicability)


def _syntax_error(exc: cst.ParserSyntaxError, source: SourceText, path: str, config: Config, enabled) -> list[Diagnostic]:
    if "GL001" not in enabled:
        return []
    line = max(1, exc.raw_line)
    col = max(0, exc.raw_column)
    msg = str(exc.message).strip().splitlines()[0] if exc.message else "invalid syntax"
    # CPython's parser words errors better ("'(' was never closed") and points at the cause.
    import ast

    try:
        ast.parse(source.text)
    except SyntaxError as py:
        if py.lineno:
            line = py.lineno
            col = max(0, (py.offset or 1) - 1)
        msg = py.msg or msg
    except (ValueError, RecursionError, MemoryError):
        pass
    text = source.line(line)
    col = min(col, len(text))
    end = Position(line, min(len(text), col + 1)) if text else Position(line, col)
    return [meta_diagnostic(SyntaxErrorRule, f"SyntaxError: {msg}", Position(line, col), end, path, config)]


def _null_byte(source: SourceText, path: str, config: Config, enabled) -> list[Diagnostic]:
    if "GL001" not in enabled:
        return []
    at = source.position(source.text.index("\x00"))
    end = Position(at.line, at.column + 1)
    return [meta_diagnostic(SyntaxErrorRule, "SyntaxError: source code cannot contain null bytes", at, end, path, config)]


def _too_deep(source: SourceText, path: str, config: Config, enabled) -> list[Diagnostic]:
    if "GL001" not in enabled:
        return []
    return [meta_diagnostic(SyntaxErrorRule, "SyntaxError: the file is too deeply nested to parse", Position(1, 0), Position(1, 0), path, config)]


def _rule_error(code: str, exc: BaseException, source: SourceText, path: str, config: Config) -> Diagnostic:
    rule = REGISTRY.get(code)
    where = ""
    tb = traceback.extract_tb(exc.__traceback__)
    if tb:
        last = tb[-1]
        where = f" at {last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
    name = rule.name if rule else code
    return meta_diagnostic(
        RuleErrorRule,
        f"rule {code} ({name}) failed on this file: {type(exc).__name__}: {exc}{where}; its findings are missing (please report this)",
        Position(1, 0),
        Position(1, 0),
        path,
        config,
        severity=Severity.WARNING,
    )


def _analysis_error(stmt, exc, ctx: FileContext, path, config, count: int) -> Diagnostic:
    try:
        rng = ctx.range_of(stmt)
        start = rng[0] if rng else Position(1, 0)
    except Exception:  # pragma: no cover
        start = Position(1, 0)
    more = f" (and {count - 1} more statements)" if count > 1 else ""
    return meta_diagnostic(
        RuleErrorRule,
        f"the shared analysis failed on this statement{more}: {type(exc).__name__}: {exc}; findings that depend on it may be missing (please report this)",
        start,
        start,
        path,
        config,
        severity=Severity.WARNING,
    )


def internal_error(path: str, exc: BaseException, config: Config) -> Diagnostic:
    """A failure outside any rule (a gradlint bug): reported, so one file cannot stop a run."""
    message = f"gradlint failed on this file: {type(exc).__name__}: {exc}; its findings are missing (please report this)"
    return meta_diagnostic(RuleErrorRule, message, Position(1, 0), Position(1, 0), path, config, severity=Severity.WARNING)


def fix_source(
    text: str,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    unsafe: bool = False,
    max_passes: int = 4,
    select_codes: Iterable[str] | None = None,
) -> tuple[str, int]:
    """Apply fixes (safe ones unless `unsafe`) until none is left; returns (text, fixes applied)."""
    out = fix_source_full(text, path, config, unsafe=unsafe, max_passes=max_passes, select_codes=select_codes)
    return out.text, out.applied


@dataclass
class FixOutcome:
    text: str
    applied: int
    # the diagnostics of `text` when the last pass checked it (None if the passes ran out first)
    remaining: list[Diagnostic] | None


def fix_source_full(
    text: str,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    unsafe: bool = False,
    max_passes: int = 4,
    select_codes: Iterable[str] | None = None,
    diagnostics: list[Diagnostic] | None = None,
    project: Project | None = None,
) -> FixOutcome:
    """`fix_source`, for a caller that has already checked `text` (`diagnostics`, with the same
    selection) and wants the diagnostics left after fixing: neither check is run twice."""
    from .source import apply_edits

    applied = 0
    diags = diagnostics
    for _ in range(max_passes):
        if diags is None:
            diags = check_source(text, path, config, select=select_codes, project=project)
        edits = []
        for d in diags:
            if d.fix is None:
                continue
            if d.fix.applicability is not Applicability.SAFE and not unsafe:
                continue
            edits.extend(d.fix.edits)
            applied += 1
        if not edits:
            return FixOutcome(text, applied, diags)
        new = apply_edits(text, edits)
        if new == text:
            return FixOutcome(text, applied, diags)
        text, diags = new, None
    return FixOutcome(text, applied, None)


class DocumentChecker:
    """Checks successive versions of one document (the language server keeps one per open
    buffer). It reuses the parsed chunks (and their positions) that an edit did not touch;
    `check` always returns the complete, up-to-date list of diagnostics for `text`."""

    def __init__(self, path: str, config: Config | None = None) -> None:
        self.path = path
        self.config = config or Config()
        self._cache = ChunkCache()
        self._runs = RunCache()
        self.last_timings: dict = {}
        self.last_deps: list[str] = []  # project files the last check read (absolute paths)

    def set_config(self, config: Config) -> None:
        self.config = config
        self._runs = RunCache()  # other rules: recorded events are still valid, but keep it simple

    def check(self, text: str, project: Project | None = None) -> list[Diagnostic]:
        """`project`: the document is analysed in its project (the modules it imports are read
        from `project.texts`, the editor's unsaved buffers, or from disk); `last_deps` are then
        the files the check read, whose change should re-check this document."""
        # The caches keep hundreds of thousands of objects alive; a full garbage collection in
        # the middle of a check costs 100+ ms. Collect between checks instead (`idle`).
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            result = check_source_full(text, self.path, self.config, always_parse=True, cache=self._cache, run_cache=self._runs,
                                       project=project)
        finally:
            if was_enabled:
                gc.enable()
        self.last_timings = dict(result.timings, run_cache_hits=self._runs.hits, run_cache_misses=self._runs.misses)
        self.last_deps = sorted(project.used) if project is not None else []
        return result.diagnostics

    @staticmethod
    def idle() -> None:
        """Call when the editor is idle after a check: collects cyclic garbage and freezes what
        survives, so that no long collection falls into the next check."""
        gc.collect()
        gc.freeze()
