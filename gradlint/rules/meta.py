"""GL0xx: gradlint's own diagnostics. They have pages like every rule but no hooks: the engine
reports them."""

from __future__ import annotations

from ..diagnostics import Severity
from .base import Invalid, Rule


class SyntaxErrorRule(Rule):
    code = "GL001"
    name = "syntax-error"
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
    name = "rule-error"
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
    name = "unreadable-file"
    message = "the file could not be read or decoded"
    severity = Severity.ERROR
    frameworks = ()
    rationale = """
        The file could not be read (permissions, a broken link, a symlink loop), `--fix` could
        not write it, its bytes are not text in its declared encoding (UTF-8 unless a PEP 263
        `coding:` line says otherwise), or a notebook is not nbformat-4 JSON with cells. The
        message says which. The run goes on with the other files.
    """
