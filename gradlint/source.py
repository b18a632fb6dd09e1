"""Source text helpers: decoding, line index, `# noqa` suppressions and applying edits."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from .diagnostics import Diagnostic, Edit, Position

# Suppression comments: a bare noqa, or noqa followed by `: GL101` / `: GL101, GL2` (ruff's
# spelling, case-insensitive).
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:[\s,]+[A-Za-z]+[0-9]*)*))?", re.I)
# File-level: `# gradlint: noqa` (everything) or `# gradlint: noqa: GL101`.
_FILE_NOQA = re.compile(r"^#\s*gradlint:\s*noqa(?::\s*(?P<codes>[A-Za-z0-9,\s]+))?\s*$", re.I | re.M)

# PEP 263 encoding declaration (searched in the first 200 bytes: the first two lines)
CODING_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.M)


class DecodeError(Exception):
    """The bytes of a file are not UTF-8 text."""


def decode_source(data: bytes) -> str:
    """Decode Python source; PEP 263 cookies other than UTF-8 are honoured."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    head = data[:200]
    m = CODING_COOKIE.search(head)
    encoding = "utf-8"
    if m:
        declared = m.group(1).decode("ascii", "replace").lower()
        if declared not in ("utf-8", "utf8", "utf_8"):
            encoding = declared
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        if isinstance(exc, UnicodeDecodeError):
            line = len(re.findall(rb"\r\n?|\n", data[: exc.start])) + 1
            raise DecodeError(f"not valid {encoding} (byte 0x{data[exc.start]:02x} on line {line})") from None
        raise DecodeError(f"unknown encoding {encoding!r}") from None


# Python's line ends: CPython's tokenizer reads "\r\n", a lone "\r" (classic Mac) and "\n" as
# line breaks, and nothing else (form feed, U+2028, U+0085 are characters within a line).
EOL = re.compile(r"\r\n?|\n")


def lf_line_ends(text: str) -> str:
    """`text` with every lone "\\r" turned into "\\n": one character for one, so offsets do not
    move, while every line count and split on "\\n" (the engine's, libcst's) sees the lines
    Python sees. "\\r\\n" is left alone: libcst and the engine handle it."""
    if "\r" not in text:
        return text
    return re.sub(r"\r(?!\n)", "\n", text)


def split_lines(text: str) -> list[str]:
    """The lines of `text` without their line ends, split where Python splits them; a text
    ending with a line end has an empty last line (as `str.split("\\n")` gives)."""
    return EOL.split(text) if "\r" in text else text.split("\n")


def split_lines_keepends(text: str) -> list[str]:
    """`split_lines` with each line's end kept: "".join() gives `text` back. The last item is
    what follows the last line end ("" when the text ends with one)."""
    out = []
    pos = 0
    for m in EOL.finditer(text):
        out.append(text[pos : m.end()])
        pos = m.end()
    out.append(text[pos:])
    return out


@dataclass
class SourceText:
    text: str

    @cached_property
    def line_starts(self) -> list[int]:
        if "\r" in self.text:
            return [0, *(m.end() for m in EOL.finditer(self.text))]
        starts = [0]
        find = self.text.find
        i = find("\n")
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1)
        return starts

    @cached_property
    def lines(self) -> list[str]:
        return split_lines(self.text)

    def line(self, lineno: int) -> str:
        lines = self.lines
        if 1 <= lineno <= len(lines):
            return lines[lineno - 1]
        return ""

    def offset(self, pos: Position) -> int:
        starts = self.line_starts
        if pos.line < 1:
            return 0
        if pos.line > len(starts):
            return len(self.text)
        start = starts[pos.line - 1]
        return start + min(max(pos.column, 0), len(self.lines[pos.line - 1]))

    def position(self, offset: int) -> Position:
        line = bisect_right(self.line_starts, offset)
        return Position(line, offset - self.line_starts[line - 1])

    def line_end(self, lineno: int) -> str:
        """The line end that closes line `lineno` ("" for the last line)."""
        starts = self.line_starts
        if not 1 <= lineno < len(starts):
            return ""
        return self.text[starts[lineno - 1] + len(self.lines[lineno - 1]) : starts[lineno]]

    def end_position(self) -> Position:
        return self.position(len(self.text))

    # ------------------------------------------------------------------ noqa
    @cached_property
    def _noqa_by_line(self) -> dict[int, frozenset[str] | None]:
        """line -> None (blanket) or the set of code prefixes suppressed on it."""
        result: dict[int, frozenset[str] | None] = {}
        if "noqa" not in self.text and "NOQA" not in self.text.upper():
            return result
        for lineno, line in enumerate(self.lines, start=1):
            if "#" not in line:
                continue
            m = _NOQA.search(line)
            if not m:
                continue
            codes = m.group("codes")
            if codes is None:
                result[lineno] = None
            else:
                result[lineno] = frozenset(c.upper() for c in re.split(r"[\s,]+", codes) if c)
        return result

    @cached_property
    def _file_noqa(self) -> frozenset[str] | None | bool:
        """False: none; None: whole file suppressed; set: codes suppressed file-wide."""
        codes: set[str] = set()
        found = False
        for m in _FILE_NOQA.finditer(self.text):
            found = True
            if m.group("codes") is None:
                return None
            codes.update(c.upper() for c in re.split(r"[\s,]+", m.group("codes")) if c)
        return frozenset(codes) if found else False

    def is_suppressed(self, diag: Diagnostic) -> bool:
        file_noqa = self._file_noqa
        if file_noqa is None:
            return True
        if file_noqa and any(diag.code.startswith(c) for c in file_noqa):
            return True
        lines = self._noqa_by_line
        if not lines:
            return False
        if diag.start.line not in lines:
            return False
        codes = lines[diag.start.line]
        if codes is None:
            return True
        return any(diag.code.startswith(c) for c in codes)


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (later ones first). Overlapping edits are skipped.

    Fixes write their line breaks as "\\n"; each edit's breaks become the line end of the line
    it starts on, so a "\\r\\n" or classic-Mac "\\r" file keeps its line ends."""
    src = SourceText(text)
    spans = sorted(
        ((src.offset(e.start), src.offset(e.end), _with_line_ends(e.content, src, e.start.line)) for e in edits),
        key=lambda s: (s[0], s[1]),
    )
    chosen: list[tuple[int, int, str]] = []
    last_end = -1
    for start, end, content in spans:
        if start < last_end:
            continue  # overlaps a previous edit: leave it for a second pass
        chosen.append((start, end, content))
        last_end = max(end, start)
    out = text
    for start, end, content in reversed(chosen):
        out = out[:start] + content + out[end:]
    return out


def _with_line_ends(content: str, src: SourceText, line: int) -> str:
    if "\n" not in content and "\r" not in content:
        return content
    # the edit's own line end; on the last line (none), the file's first one
    eol = src.line_end(line) or src.line_end(1) or "\n"
    lines = split_lines(content)
    return eol.join(lines) if eol != "\n" or "\r" in content else content


def noqa_edit(src: SourceText, line: int, code: str) -> Edit:
    """An edit that adds `code` to the `# noqa` comment of `line` (creating one if needed)."""
    text = src.line(line)
    m = _NOQA.search(text)
    if m and m.group("codes") is None:
        # Already a blanket noqa: nothing to add; return a no-op edit at the end of the line.
        return Edit(Position(line, len(text)), Position(line, len(text)), "")
    if m:
        codes = m.group("codes")
        end_col = m.start("codes") + len(codes)
        return Edit(Position(line, end_col), Position(line, end_col), f", {code}")
    stripped = text.rstrip()
    return Edit(Position(line, len(stripped)), Position(line, len(text)), f"  # noqa: {code}")
