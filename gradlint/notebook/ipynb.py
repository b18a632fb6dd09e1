"""The .ipynb file: its cells, where each cell's source sits in the JSON text, and writing
changed sources back without touching another byte.

`json` gives the values but not where they are, so a small walker over the text (with the
`json` module's own string scanner and decoder) records the span of every cell's `source`
and of each string in it. That serves two purposes:

- `--fix` splices a changed source into its span: indentation, key order, escapes, the
  trailing newline and every other cell stay byte-identical (a round trip through
  `json.dumps` would reformat the whole file);
- a finding at (cell, line, column) has a position in the file itself, which is what GitHub
  annotations and SARIF (code scanning) point at.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import Position
from ..source import SourceText

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# a \u escape of a non-ASCII character: the file was written with ensure_ascii=True
_ESCAPED_NON_ASCII = re.compile(r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})")
BOM = b"\xef\xbb\xbf"


class NotebookError(Exception):
    """Not a notebook gradlint can read (the message says why, for a GL003 finding)."""


@dataclass
class Cell:
    index: int  # among all cells, 0-based (shown 1-based: "cell 3")
    kind: str  # code | markdown | raw
    source: str
    language: str | None  # a cell's own language (VS Code's metadata.vscode.languageId)

    @property
    def is_python(self) -> bool:
        return self.kind == "code" and (self.language is None or _is_python(self.language))


def _is_python(language: str) -> bool:
    return language.lower() in ("python", "python3", "ipython", "ipython3")


@dataclass
class Notebook:
    text: str  # the JSON text (without a BOM)
    bom: bool
    cells: list[Cell]
    language: str | None  # metadata.language_info.name or kernelspec.language

    @property
    def is_python(self) -> bool:
        """A notebook without language metadata is taken for Python (as ruff does)."""
        return self.language is None or _is_python(self.language)

    @property
    def code_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.is_python]

    @cached_property
    def _lines(self) -> SourceText:
        return SourceText(self.text)

    @cached_property
    def _spans(self) -> dict[int, tuple[tuple[int, int], list[tuple[int, str]]]]:
        """cell index -> (span of its `source` in the text, [(offset, raw JSON token) of each
        string in it]). Walked only when needed (a fix, or an output that points into the
        file): the walk costs ten times json.loads."""
        return _source_spans(self.text)

    # ------------------------------------------------------------------ positions
    def file_position(self, cell_index: int, pos: Position) -> Position:
        """The position in the .ipynb file of (line, column) of a cell's source."""
        cell = self.cells[cell_index]
        if cell_index not in self._spans:  # (cannot happen for JSON that json.loads read)
            return Position(1, 0)
        span, strings = self._spans[cell_index]
        offset = SourceText(cell.source).offset(pos)
        seen = 0
        for k, (start, token) in enumerate(strings):
            offsets = _raw_offsets(token)
            n = len(offsets) - 1  # characters this string holds
            if offset < seen + n or (offset == seen + n and k == len(strings) - 1):
                return self._lines.position(start + offsets[offset - seen])
            seen += n
        return self._lines.position(span[0])  # an empty source: the `[]` or `""`

    # ------------------------------------------------------------------ writing
    def with_sources(self, sources: dict[int, str]) -> str:
        """The file's text with the sources of some cells (by index) replaced."""
        out = self.text
        for index in sorted(sources, reverse=True):
            if sources[index] == self.cells[index].source:
                continue
            if index not in self._spans:  # (cannot happen for JSON that json.loads read)
                raise NotebookError(f"the source of cell {index + 1} could not be located in the file")
            span, strings = self._spans[index]
            out = out[: span[0]] + self._source_json(span, strings, sources[index]) + out[span[1] :]
        return out

    @cached_property
    def _ascii(self) -> bool:
        return bool(_ESCAPED_NON_ASCII.search(self.text)) and self.text.isascii()

    def _dumps(self, s: str) -> str:
        return json.dumps(s, ensure_ascii=self._ascii)

    def _source_json(self, span: tuple[int, int], strings: list[tuple[int, str]], source: str) -> str:
        """The JSON for a changed source, written as the old one (at `span`) was."""
        if self.text[span[0]] == '"':
            return self._dumps(source)
        # as nbformat writes it: one string per line, each with its line end; an unchanged
        # line keeps its token exactly (its escapes may differ from json.dumps')
        tokens: dict[str, str] = {}
        for _, token in strings:
            tokens.setdefault(json.loads(token), token)
        parts = [tokens.get(p) or self._dumps(p) for p in source.splitlines(True)]
        if not parts:
            return "[]"
        lead, sep, trail = self._list_layout(span, strings)
        return "[" + lead + sep.join(parts) + trail + "]"

    def _list_layout(self, span: tuple[int, int], strings: list[tuple[int, str]]) -> tuple[str, str, str]:
        """(after `[`, between items, before `]`) as the list is written, or as nbformat
        would write it from the surrounding indentation when the list was empty."""
        start, end = span
        if strings:
            first, last = strings[0], strings[-1]
            lead = self.text[start + 1 : first[0]]
            trail = self.text[last[0] + len(last[1]) : end - 1]
            if len(strings) > 1:
                second = strings[1]
                sep = self.text[first[0] + len(first[1]) : second[0]]
            else:
                sep = "," + lead if "\n" in lead else ", "
            return lead, sep, trail
        if "\n" not in self.text.strip():  # all on one line: items separated as elsewhere
            other = re.search(r'"(,\s*)"', self.text)
            return "", other.group(1) if other else ", ", ""
        line_start = self.text.rfind("\n", 0, start) + 1
        indent = re.match(r"[ \t]*", self.text[line_start:]).group(0)
        unit = re.search(r"\{\s*?\n([ \t]+)\"", self.text)
        step = unit.group(1) if unit else " "
        return "\n" + indent + step, ",\n" + indent + step, "\n" + indent


def _raw_offsets(token: str) -> list[int]:
    """For a JSON string token (with its quotes): the offset in the token of each character
    it decodes to, then of the closing quote."""
    out = []
    i = 1
    while token[i] != '"':
        out.append(i)
        if token[i] != "\\":
            i += 1
        elif token[i + 1] != "u":
            i += 2
        elif 0xD800 <= int(token[i + 2 : i + 6], 16) < 0xDC00 and token[i + 6 : i + 8] == "\\u" and 0xDC00 <= int(token[i + 8 : i + 12], 16) < 0xE000:
            i += 12  # a surrogate pair: one character
        else:
            i += 6
    out.append(i)
    return out


# ---------------------------------------------------------------------- reading
def read(data: bytes) -> Notebook:
    bom = data.startswith(BOM)
    if bom:
        data = data[len(BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise NotebookError("invalid JSON: nested too deeply") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a Jupyter notebook: the JSON has no `cells` list")
    version = nb.get("nbformat")
    if isinstance(version, int) and version < 4:
        raise NotebookError(f"nbformat {version} is not supported (version 4 is; `jupyter nbconvert --to notebook` converts it)")
    cells = [_cell(i, raw) for i, raw in enumerate(nb["cells"])]
    return Notebook(text, bom, cells, _language(nb.get("metadata")))


def _cell(i: int, raw: object) -> Cell:
    where = f"cell {i + 1}"
    if not isinstance(raw, dict) or not isinstance(raw.get("cell_type"), str):
        raise NotebookError(f"not a Jupyter notebook: {where} has no `cell_type`")
    source = raw.get("source")
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        text = "".join(source)
    elif isinstance(source, str):
        text = source
    else:
        raise NotebookError(f"not a Jupyter notebook: {where} has no `source` (a string or a list of strings)")
    meta = raw.get("metadata")
    vscode = meta.get("vscode") if isinstance(meta, dict) else None
    language = vscode.get("languageId") if isinstance(vscode, dict) else None
    return Cell(i, raw["cell_type"], text, language if isinstance(language, str) else None)


def _language(meta: object) -> str | None:
    if not isinstance(meta, dict):
        return None
    info = meta.get("language_info")
    if isinstance(info, dict) and isinstance(info.get("name"), str):
        return info["name"]
    spec = meta.get("kernelspec")
    if isinstance(spec, dict) and isinstance(spec.get("language"), str):
        return spec["language"]
    return None


# ---------------------------------------------------------------------- the walker
def _ws(s: str, i: int) -> int:
    return _WS.match(s, i).end()


def _members(s: str, i: int):
    """(key, value start, value end) of the object at `i` (valid JSON: json.loads read it).
    A duplicated key yields twice; the last one wins, as in json.loads."""
    i = _ws(s, i + 1)
    if s[i] == "}":
        return
    while True:
        key, i = json.decoder.scanstring(s, i + 1)  # type: ignore[attr-defined]  # public, not in typeshed
        i = _ws(s, _ws(s, i) + 1)  # past the ':'
        end = _DECODER.raw_decode(s, i)[1]
        yield key, i, end
        i = _ws(s, end)
        if s[i] == "}":
            return
        i = _ws(s, i + 1)  # past the ','


def _elements(s: str, i: int):
    """(start, end) of each value of the array at `i`."""
    i = _ws(s, i + 1)
    if s[i] == "]":
        return
    while True:
        end = _DECODER.raw_decode(s, i)[1]
        yield i, end
        i = _ws(s, end)
        if s[i] == "]":
            return
        i = _ws(s, i + 1)


def _source_spans(text: str) -> dict[int, tuple[tuple[int, int], list[tuple[int, str]]]]:
    """cell index -> (span of its `source` value, [(offset, token) of each string in it])."""
    start = _ws(text, 0)
    cells_span = None
    for key, a, b in _members(text, start):
        if key == "cells":
            cells_span = (a, b)
    out: dict[int, tuple[tuple[int, int], list[tuple[int, str]]]] = {}
    if cells_span is None or text[cells_span[0]] != "[":
        return out
    for index, (a, _b) in enumerate(_elements(text, cells_span[0])):
        if text[a] != "{":
            continue
        for key, va, vb in _members(text, a):
            if key != "source":
                continue
            if text[va] == '"':
                strings = [(va, text[va:vb])]
            elif text[va] == "[":
                strings = [(x, text[x:y]) for x, y in _elements(text, va)]
            else:
                strings = []
            out[index] = ((va, vb), strings)
    return out
