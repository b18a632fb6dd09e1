"""Columns: the engine's code points <-> the client's negotiated position encoding.

The engine reports 1-based lines and 0-based columns in Unicode code points. LSP counts
0-based lines and columns in UTF-16 code units unless the client offered another encoding in
`general.positionEncodings` (Neovim 0.11 prefers UTF-8). A line with `é` or an emoji before a
finding must still underline the right characters, so every column crossing the wire goes
through here.

Lines end at "\\r\\n", "\\r" or "\\n" — where Python and LSP both end them (not at form feed or
U+2028) — exactly as `gradlint.source.SourceText` splits them, so engine line N is index N-1
here.
"""

from __future__ import annotations

from lsprotocol import types

from gradlint.diagnostics import Position
from gradlint.source import split_lines, split_lines_keepends

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def normalize_encoding(encoding: object) -> str:
    """`PositionEncodingKind.Utf8`, "utf-8" or None (LSP's default: UTF-16) -> "utf-8"..."""
    value = getattr(encoding, "value", encoding)
    if value in (UTF8, UTF16, UTF32):
        return value  # type: ignore[return-value]
    return UTF16


def units(text: str, encoding: str) -> int:
    """Length of `text` in the encoding's code units."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def to_units(line: str, column: int, encoding: str) -> int:
    """Code-point column on `line` -> code units (clamped to the line's end)."""
    column = max(0, min(column, len(line)))
    if encoding == UTF32 or line.isascii():
        return column
    return units(line[:column], encoding)


def to_code_points(line: str, column: int, encoding: str) -> int:
    """Code-unit column on `line` -> code points. A column inside a character (half a
    surrogate pair, the middle of a UTF-8 sequence) rounds down; past the end clamps."""
    if column <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(column, len(line))
    seen = 0
    for i, ch in enumerate(line):
        width = (1 if ord(ch) <= 0xFFFF else 2) if encoding == UTF16 else len(ch.encode("utf-8", "surrogatepass"))
        if seen + width > column:
            return i
        seen += width
    return len(line)


class LineIndex:
    """Positions of one text, in one encoding."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self.encoding = encoding
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def line(self, index: int) -> str:
        """0-based line text ("" past the end)."""
        lines = self.lines
        return lines[index] if 0 <= index < len(lines) else ""

    def to_lsp(self, pos: Position) -> types.Position:
        """Engine position -> LSP position, clamped into the text."""
        lines = self.lines
        index = pos.line - 1
        if index < 0:
            return types.Position(line=0, character=0)
        if index >= len(lines):
            index = len(lines) - 1
            return types.Position(line=index, character=units(lines[index], self.encoding))
        return types.Position(line=index, character=to_units(lines[index], pos.column, self.encoding))

    def range(self, start: Position, end: Position) -> types.Range:
        return types.Range(start=self.to_lsp(start), end=self.to_lsp(max(start, end)))

    def to_engine(self, pos: types.Position) -> Position:
        """LSP position -> engine position, clamped (a client may ask past the end)."""
        lines = self.lines
        index = min(max(pos.line, 0), len(lines) - 1)
        column = to_code_points(lines[index], pos.character, self.encoding)
        if pos.line >= len(lines):
            column = len(lines[index])
        return Position(index + 1, column)

    def end(self) -> types.Position:
        last = len(self.lines) - 1
        return types.Position(line=last, character=units(self.lines[last], self.encoding))


def minimal_edit(old: str, new: str, index: LineIndex) -> types.TextEdit | None:
    """One TextEdit turning `old` (the text `index` was built on) into `new`. It replaces only
    the lines that differ, so the editor keeps the cursor, folds and marks elsewhere; whole
    lines with their line ends are replaced, so a "\\r\\n" is never split in two."""
    if old == new:
        return None
    a = split_lines_keepends(old)
    b = split_lines_keepends(new)
    head = 0
    while head < min(len(a), len(b)) - 1 and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head - 1 and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    # replace old lines head .. len(a)-tail-1 (inclusive) by new lines head .. len(b)-tail-1
    start = types.Position(line=head, character=0)
    # with a common tail, up to the start of its first line; else to the end of the text
    end = types.Position(line=len(a) - tail, character=0) if tail else index.end()
    return types.TextEdit(range=types.Range(start=start, end=end), new_text="".join(b[head : len(b) - tail]))
