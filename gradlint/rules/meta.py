"""GL0xx: gradlint's own diagnostics. They have pages like every rule but no hooks: the engine
reports them (through `meta_diagnostic`). This module imports no parser, so the language
server's main process can report an unreadable file without loading the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Position, Severity
from .base import Family, Invalid, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..config import Config

FAMILY = Family("GL0", "gradlint itself")


class SyntaxErrorRule(Rule):
    code = "GL001"
    message = "the file does not parse"
    severity = Severity.ERROR
    frameworks = ()
    rationale = """
        gradlint parses each file once with libcst. A file that does not parse cannot be
        analysed; the diagnostic gives the parser's message and position. The rest of the run
        goes on. Files that mention nothing gradlint looks for are not parsed by `gradlint
        check` (the cheap first pass skips them), so only those can report GL001 there; the
        language server always parses the buffer it shows. A NUL byte is reported in every
        file, in CPython's words: the interpreter refuses such a file.
    """
    invalid = [Invalid("import torch\nloss = model(x\nloss.backward()\n", line=2)]


class RuleErrorRule(Rule):
    code = "GL002"
    message = "a rule failed on this file"
    severity = Severity.WARNING
    frameworks = ()
    rationale = """
        A rule raised an exception on this file. The diagnostic names the rule; the findings of
        every other rule on the file are still reported. This is a bug in gradlint: please
        report it with the file (or a reduced version of it).
    """


class UnreadableFileRule(Rule):
    code = "GL003"
    message = "the file could not be read or decoded"
    severity = Severity.ERROR
    frameworks = ()
    rationale = """
        The file could not be read (permissions, a broken link, a symlink loop), `--fix` could
        not write it, its bytes are not text in its declared encoding (UTF-8 unless a PEP 263
        `coding:` line says otherwise), or a notebook is not nbformat-4 JSON with cells. The
        message says which. The run goes on with the other files.
    """


class TooComplexToAnalyseRule(Rule):
    code = "GL004"
    message = "a statement (or the file) is beyond what gradlint can parse in bounded time and stack"
    severity = Severity.WARNING
    frameworks = ()
    rationale = """
        gradlint's parser (libcst) takes time that grows faster than linearly with how deeply
        an expression nests or chains: a sum of 3,000 terms takes half a minute, and a few
        thousand nested brackets overflow its stack. Before parsing, each statement's depth is
        estimated from its text. A top-level statement (a whole function or class) holding an
        expression beyond the bound is not parsed, and this finding marks the expression's
        line; the rest of the file is analysed, but findings in that statement, and those that
        depend on it, are missing. Hand-written code is far from the bound: it is met in
        generated tables, minified code and hostile input. The same finding reports a file
        with more than 4 MB of code to parse, and, in `gradlint check`, a file whose check ran
        past the time limit (`--file-timeout`). If Python itself refuses the file (more than
        200 nested brackets), the finding is GL001 instead. Exclude generated files, or ignore
        GL004 for them with `per-file-ignores`.
    """


def meta_diagnostic(rule: type[Rule], message: str, start: Position, end: Position, path: str, config: "Config",
                    severity: Severity = Severity.ERROR) -> Diagnostic:
    """A GL0xx diagnostic."""
    return Diagnostic(code=rule.code, name=rule.name, message=message, severity=severity, start=start, end=end, path=path,
                      url=config.url_for(rule.code))


def io_error(path: str, message: str, config: "Config | None" = None) -> Diagnostic:
    """GL003: the file could not be read or decoded."""
    if config is None:
        from ..config import Config

        config = Config()
    return meta_diagnostic(UnreadableFileRule, message, Position(1, 0), Position(1, 0), path, config)
