"""The static engine: parse once, interpret once, run every selected rule on the events.

    text ─► cheap first pass (prefilter.py: can this file hold a finding at all? which top-level
            statements matter?) ─► libcst parse ─► Interpreter (analysis/) emitting events ─►
            rule hooks ─► findings ─► positions, fixes, `# noqa` ─► [Diagnostic]

Nothing here imports torch, TensorFlow or JAX, and nothing here runs user code.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Iterable

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import prefilter
from .analysis.events import EVENT_HOOKS
from .analysis.interpreter import AnalysisBudgetExceeded, Interpreter
from .config import Config
from .diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Severity
from .rules import load_all
from .rules.base import REGISTRY, NodeEdit, Rule, RuleFix
from .source import SourceText

SYNTAX_ERROR = ("GL001", "syntax-error")
RULE_ERROR = ("GL002", "rule-error")
IO_ERROR = ("GL003", "unreadable-file")


@dataclass
class _Finding:
    rule: Rule
    node: cst.CSTNode
    message: str
    fix: RuleFix | None
    severity: Severity


class FileContext:
    """What a rule sees of the file it checks."""

    def __init__(self, module: cst.Module, source: SourceText, path: str, interp: Interpreter) -> None:
        self.module = module
        self.source = source
        self.path = path
        self.interp = interp
        self.findings: list[_Finding] = []
        self._code_cache: dict[int, str] = {}
        self._parents: dict[int, cst.CSTNode] | None = None

    @property
    def frameworks(self) -> set[str]:
        return self.interp.frameworks

    def add_finding(self, rule: Rule, node, message, fix, severity) -> None:
        self.findings.append(_Finding(rule, node, message, fix, severity))

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The parent of a node (the map is built on first use: most files never need it)."""
        if self._parents is None:
            parents: dict[int, cst.CSTNode] = {}

            def walk(n: cst.CSTNode) -> None:
                stack = [n]
                while stack:
                    cur = stack.pop()
                    for child in cur.children:
                        parents[id(child)] = cur
                        stack.append(child)

            walk(self.module)
            self._parents = parents
        return self._parents.get(id(node))

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


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]
    parsed: bool = True
    skipped: bool = False  # the cheap first pass proved the file cannot hold a finding
    timings: dict = field(default_factory=dict)


def _selected_rules(config: Config | None, path: str | None, select: Iterable[str] | None) -> list[type[Rule]]:
    load_all()
    if select is not None:
        codes = set(select)
    elif config is not None:
        codes = config.enabled_codes(path)
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
) -> list[Diagnostic]:
    """Lint one file's text. `exhaustive=True` skips the cheap first pass (used to prove it
    loses no finding); `always_parse=True` still parses a file the first pass would skip, so
    that a syntax error is reported (the language server wants GL001 on every buffer)."""
    return check_source_full(text, path, config, select=select, exhaustive=exhaustive, always_parse=always_parse).diagnostics


def check_source_full(
    text: str,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    select: Iterable[str] | None = None,
    exhaustive: bool = False,
    always_parse: bool = False,
) -> CheckResult:
    config = config or Config()
    rules = _selected_rules(config, path, select)
    enabled = {r.code for r in rules}
    source = SourceText(text)
    diags: list[Diagnostic] = []
    t0 = time.perf_counter()

    plan = None
    if "GL001" in enabled and all(r.code.startswith("GL00") for r in rules):
        always_parse = True  # only syntax errors asked for: every file must be parsed
    if not exhaustive:
        plan = prefilter.plan(text, rules)
        if plan.skip:
            if always_parse:
                try:
                    cst.parse_module(text)
                except cst.ParserSyntaxError as exc:
                    diags = [d for d in _syntax_error(exc, source, path, config, enabled) if not source.is_suppressed(d)]
                    return CheckResult(diags, parsed=False)
                except RecursionError:
                    return CheckResult(_too_deep(source, path, config, enabled), parsed=False)
            return CheckResult([], parsed=False, skipped=True)
    parse_text = plan.text if plan is not None else text
    try:
        module = cst.parse_module(parse_text)
    except cst.ParserSyntaxError as exc:
        if plan is not None and plan.narrowed:
            # the narrowed text did not parse (the split guessed wrong): use the whole file
            parse_text = text
            try:
                module = cst.parse_module(text)
            except cst.ParserSyntaxError as exc2:
                return CheckResult(_syntax_error(exc2, source, path, config, enabled), parsed=False)
            except RecursionError:
                return CheckResult(_too_deep(source, path, config, enabled), parsed=False)
        else:
            return CheckResult(_syntax_error(exc, source, path, config, enabled), parsed=False)
    except RecursionError:
        return CheckResult(_too_deep(source, path, config, enabled), parsed=False)
    t1 = time.perf_counter()

    # rules that ran into an exception
    failed: dict[str, BaseException] = {}
    instances: list[Rule] = []
    handlers: dict[type, list] = {}
    interp = Interpreter(module, lambda ev: None)
    ctx = FileContext(module, source, path, interp)
    for rule_cls in rules:
        if rule_cls.code in ("GL001", "GL002", "GL003"):
            continue
        try:
            inst = rule_cls(ctx)
        except Exception as exc:  # pragma: no cover - defensive
            failed[rule_cls.code] = exc
            continue
        instances.append(inst)
        for ev_cls, hook in EVENT_HOOKS.items():
            fn = getattr(inst, hook, None)
            if fn is not None:
                handlers.setdefault(ev_cls, []).append((inst, fn))

    def emit(ev) -> None:
        hs = handlers.get(type(ev))
        if not hs:
            return
        for inst, fn in hs:
            if inst.code in failed:
                continue
            try:
                fn(ev)
            except Exception as exc:
                failed[inst.code] = exc

    interp._emit = emit
    budget_hit = False
    try:
        interp.run()
    except AnalysisBudgetExceeded:
        budget_hit = True
    except RecursionError:
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
    if findings:
        diags.extend(_to_diagnostics(findings, module, source, path, config))
    for code, exc in sorted(failed.items()):
        if "GL002" in enabled:
            diags.append(_rule_error(code, exc, source, path, config))
    if interp.errors and "GL002" in enabled:
        stmt, exc = interp.errors[0]
        diags.append(_analysis_error(stmt, exc, module, source, path, config, len(interp.errors)))
    diags = [d for d in _dedupe(diags) if not source.is_suppressed(d)]
    diags.sort(key=Diagnostic.sort_key)
    return CheckResult(
        diags,
        timings={"parse": t1 - t0, "analysis": t2 - t1, "budget_hit": budget_hit, "narrowed": bool(plan and plan.narrowed)},
    )


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


def _to_diagnostics(findings: list[_Finding], module: cst.Module, source: SourceText, path: str, config: Config) -> list[Diagnostic]:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    out = []
    for f in findings:
        rng = positions.get(f.node)
        if rng is None:
            continue
        start = Position(rng.start.line, rng.start.column)
        end = Position(rng.end.line, rng.end.column)
        fix = _resolve_fix(f.fix, positions) if f.fix is not None else None
        message = f.message
        if callable(message):
            # messages may name the line of another node ("differentiated on line 26")
            message = message(lambda n: positions[n].start.line if n in positions else "?")
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


def _resolve_fix(fix: RuleFix, positions) -> Fix | None:
    edits = []
    for e in fix.edits:
        rng = positions.get(e.node)
        if rng is None:
            return None
        start = Position(rng.start.line, rng.start.column)
        end = Position(rng.end.line, rng.end.column)
        if e.how == "replace":
            edits.append(Edit(start, end, e.text))
        elif e.how == "before":
            edits.append(Edit(start, start, e.text))
        elif e.how == "after":
            edits.append(Edit(end, end, e.text))
        elif e.how == "replace_span":
            rng2 = positions.get(e.end_node)
            if rng2 is None:
                return None
            edits.append(Edit(start, Position(rng2.end.line, rng2.end.column), e.text))
    return Fix(fix.message, tuple(edits), fix.applicability)


def _meta(code_name: tuple[str, str], message: str, start: Position, end: Position, path: str, config: Config, severity=Severity.ERROR) -> Diagnostic:
    code, name = code_name
    return Diagnostic(code=code, name=name, message=message, severity=severity, start=start, end=end, path=path, url=config.url_for(code))


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
    return [_meta(SYNTAX_ERROR, f"SyntaxError: {msg}", Position(line, col), end, path, config)]


def _too_deep(source: SourceText, path: str, config: Config, enabled) -> list[Diagnostic]:
    if "GL001" not in enabled:
        return []
    return [_meta(SYNTAX_ERROR, "SyntaxError: the file is too deeply nested to parse", Position(1, 0), Position(1, 0), path, config)]


def _rule_error(code: str, exc: BaseException, source: SourceText, path: str, config: Config) -> Diagnostic:
    rule = REGISTRY.get(code)
    where = ""
    tb = traceback.extract_tb(exc.__traceback__)
    if tb:
        last = tb[-1]
        where = f" at {last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
    name = rule.name if rule else code
    return _meta(
        RULE_ERROR,
        f"rule {code} ({name}) failed on this file: {type(exc).__name__}: {exc}{where}; its findings are missing (please report this)",
        Position(1, 0),
        Position(1, 0),
        path,
        config,
        severity=Severity.WARNING,
    )


def _analysis_error(stmt, exc, module, source, path, config, count: int) -> Diagnostic:
    try:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        rng = wrapper.resolve(PositionProvider).get(stmt)
        start = Position(rng.start.line, rng.start.column) if rng else Position(1, 0)
    except Exception:  # pragma: no cover
        start = Position(1, 0)
    more = f" (and {count - 1} more statements)" if count > 1 else ""
    return _meta(
        RULE_ERROR,
        f"the shared analysis failed on this statement{more}: {type(exc).__name__}: {exc}; findings that depend on it may be missing (please report this)",
        start,
        start,
        path,
        config,
        severity=Severity.WARNING,
    )


def io_error(path: str, message: str, config: Config | None = None) -> Diagnostic:
    return _meta(IO_ERROR, message, Position(1, 0), Position(1, 0), path, config or Config())


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
    from .source import apply_edits

    applied = 0
    for _ in range(max_passes):
        diags = check_source(text, path, config, select=select_codes)
        edits = []
        for d in diags:
            if d.fix is None:
                continue
            if d.fix.applicability is not Applicability.SAFE and not unsafe:
                continue
            edits.extend(d.fix.edits)
            applied += 1
        if not edits:
            break
        new = apply_edits(text, edits)
        if new == text:
            break
        text = new
    return text, applied


class DocumentChecker:
    """Checks successive versions of one document (the language server keeps one per open
    buffer). It may reuse work between versions; `check` always returns the complete,
    up-to-date list of diagnostics for `text`."""

    def __init__(self, path: str, config: Config | None = None) -> None:
        self.path = path
        self.config = config or Config()

    def set_config(self, config: Config) -> None:
        self.config = config

    def check(self, text: str) -> list[Diagnostic]:
        return check_source(text, self.path, self.config, always_parse=True)
