"""Output formats for `gradlint check`: each module renders a list of diagnostics to a string.

A format is a function `(diagnostics, ctx) -> str`. `FORMATS` maps the `--output-format` names
to them; modules are imported on first use so that `gradlint check` loads only the one it prints.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..config import Config
from ..diagnostics import Diagnostic
from ..source import SourceText

# name -> (module, function). `text` shows a source snippet only when stdout is a terminal;
# `full` always does and `concise` never does.
FORMATS: dict[str, tuple[str, str]] = {
    "text": ("gradlint.output.text", "render"),
    "concise": ("gradlint.output.text", "render_concise"),
    "full": ("gradlint.output.text", "render_full"),
    "json": ("gradlint.output.json_", "render"),
    "sarif": ("gradlint.output.sarif", "render"),
    "github": ("gradlint.output.github", "render"),
}
MACHINE_FORMATS = frozenset({"json", "sarif", "github"})


@dataclass
class OutputContext:
    cwd: str = field(default_factory=os.getcwd)
    color: bool = False
    tty: bool = False  # `text` shows snippets only on a terminal
    unsafe_fixes: bool = False  # unsafe fixes count as applicable ([*] marker)
    # Text of a file by its diagnostic path (stdin text is registered here; files are read).
    sources: dict[str, str] = field(default_factory=dict)
    config: Config | None = None  # for rule URLs
    _lines: dict[str, SourceText | None] = field(default_factory=dict, repr=False)

    def url_for(self, code: str) -> str:
        return (self.config or Config()).url_for(code)

    def relpath(self, path: str) -> str:
        """`path` relative to the working directory when it is below it, else as is."""
        if path in ("-", "<stdin>") or not os.path.isabs(path):
            return path
        try:
            rel = os.path.relpath(path, self.cwd)
        except ValueError:  # another drive on Windows
            return path
        return path if rel.startswith("..") else rel

    def source_of(self, path: str) -> str | None:
        if path not in self.sources:
            from ..source import DecodeError, decode_source

            try:
                with open(path, "rb") as fh:
                    self.sources[path] = decode_source(fh.read())
            except (OSError, DecodeError):
                self.sources[path] = None  # type: ignore[assignment]
        return self.sources[path]

    def lines_of(self, path: str) -> SourceText | None:
        """The file split into lines once (a file with many findings shows many snippets)."""
        if path not in self._lines:
            text = self.source_of(path)
            self._lines[path] = SourceText(text) if text is not None else None
        return self._lines[path]

    def applicable(self, d: Diagnostic) -> bool:
        """Whether `--fix` (with the current `--unsafe-fixes`) would apply the fix of `d`."""
        return d.fix is not None and (d.fix.is_safe or self.unsafe_fixes)


Renderer = Callable[[Sequence[Diagnostic], OutputContext], str]


def get(name: str) -> Renderer:
    module, func = FORMATS[name]
    return getattr(importlib.import_module(module), func)


def render(name: str, diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return get(name)(diagnostics, ctx)
