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
from ..diagnostics import Diagnostic, Position
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
    config: Config | None = None  # for rule URLs
    # Content of a file by its diagnostic path (stdin is registered here; files are read).
    _data: dict[str, bytes | None] = field(default_factory=dict, repr=False)
    _lines: dict[tuple[str, int | None], SourceText | None] = field(default_factory=dict, repr=False)
    _notebooks: dict[str, object] = field(default_factory=dict, repr=False)

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

    def remember(self, path: str, data: bytes) -> None:
        """The content of `path` as checked (standard input has no file to read back)."""
        self._data[path] = data

    def _bytes(self, path: str) -> bytes | None:
        if path not in self._data:
            try:
                with open(path, "rb") as fh:
                    self._data[path] = fh.read()
            except OSError:
                self._data[path] = None
        return self._data[path]

    def notebook_of(self, path: str):
        """The notebook (`gradlint.notebook.ipynb.Notebook`) a cell's diagnostic is in."""
        if path not in self._notebooks:
            from ..notebook import ipynb

            data = self._bytes(path)
            try:
                self._notebooks[path] = ipynb.read(data) if data is not None else None
            except ipynb.NotebookError:
                self._notebooks[path] = None
        return self._notebooks[path]

    def lines_of(self, path: str, cell: int | None = None) -> SourceText | None:
        """The file (or a notebook's cell, 1-based) split into lines once: a file with many
        findings shows many snippets."""
        key = (path, cell)
        if key not in self._lines:
            text = None
            if cell is not None:
                nb = self.notebook_of(path)
                if nb is not None and 1 <= cell <= len(nb.cells):
                    text = nb.cells[cell - 1].source
            else:
                from ..source import DecodeError, decode_source

                data = self._bytes(path)
                try:
                    text = decode_source(data) if data is not None else None
                except DecodeError:
                    text = None
            self._lines[key] = SourceText(text) if text is not None else None
        return self._lines[key]

    def file_positions(self, d: Diagnostic) -> tuple[Position, Position]:
        """Where `d` is in its file's own text: a notebook cell's finding is somewhere in the
        JSON (what GitHub annotations and SARIF regions point at)."""
        if d.cell is None:
            return d.start, d.end
        nb = self.notebook_of(d.path)
        if nb is None or not 1 <= d.cell <= len(nb.cells):
            return Position(1, 0), Position(1, 0)
        return nb.file_position(d.cell - 1, d.start), nb.file_position(d.cell - 1, d.end)

    def applicable(self, d: Diagnostic) -> bool:
        """Whether `--fix` (with the current `--unsafe-fixes`) would apply the fix of `d`."""
        return d.fix is not None and (d.fix.is_safe or self.unsafe_fixes)


Renderer = Callable[[Sequence[Diagnostic], OutputContext], str]


def get(name: str) -> Renderer:
    module, func = FORMATS[name]
    return getattr(importlib.import_module(module), func)


def render(name: str, diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return get(name)(diagnostics, ctx)
