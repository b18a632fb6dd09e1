"""A gitignore matcher (gitignore(5) semantics, no dependency).

Supported: comments and blank lines, trailing-space trimming (unless escaped), backslash
escapes, `!` negation, dir-only patterns (`build/`), anchoring (a `/` at the start or in the
middle ties a pattern to its file's directory), `*`, `?`, `[...]` / `[!...]` classes, and the
three `**` forms (`**/x`, `x/**`, `a/**/b`). Nested `.gitignore` files and
`.git/info/exclude` are combined by `IgnoreStack`: deeper files take precedence, and within a
file the last matching pattern wins. A path inside an ignored directory stays ignored (git
cannot re-include it); the directory walker gets this for free by not descending, and
`IgnoreStack.is_ignored` checks the ancestors explicitly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern
    negated: bool
    dir_only: bool
    source: str


def _translate(glob: str) -> str:
    """Regex for a gitignore glob body (no leading `!`, no trailing `/`, no leading `/`)."""
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "*":
            j = i
            while j < n and glob[j] == "*":
                j += 1
            stars = j - i
            at_start = i == 0 or glob[i - 1] == "/"
            at_end = j == n or glob[j] == "/"
            if stars >= 2 and at_start and at_end:
                if j == n:
                    # `x/**` (or a bare `**`): everything below.
                    out.append(".*" if i == 0 else ".+")
                else:
                    # `**/` at the start or `/**/` in the middle: zero or more directories.
                    out.append("(?:.*/)?")
                    j += 1  # the slash is part of the group
            else:
                out.append("[^/]*")
            i = j
            continue
        if c == "?":
            out.append("[^/]")
        elif c == "[":
            cls, i = _char_class(glob, i)
            out.append(cls)
            continue
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _char_class(glob: str, i: int) -> tuple[str, int]:
    """Translate `[...]` starting at glob[i]; an unterminated `[` is a literal."""
    j = i + 1
    negate = j < len(glob) and glob[j] in "!^"
    if negate:
        j += 1
    body_start = j
    if j < len(glob) and glob[j] == "]":
        j += 1  # a leading `]` is literal
    while j < len(glob) and glob[j] != "]":
        j += 2 if glob[j] == "\\" else 1
    if j >= len(glob):
        return re.escape("["), i + 1
    body = glob[body_start:j]
    parts = []
    k = 0
    while k < len(body):
        ch = body[k]
        if ch == "\\" and k + 1 < len(body):
            k += 1
            parts.append(re.escape(body[k]))
        elif ch in "\\]^[":
            parts.append("\\" + ch)
        else:
            parts.append(ch)  # letters, digits and `-` ranges pass through
        k += 1
    # A class never matches the separator.
    cls = ("[^/" if negate else "(?!/)[") + "".join(parts) + "]"
    return cls, j + 1


def parse_line(line: str) -> Pattern | None:
    line = line.rstrip("\n").rstrip("\r")
    if not line or line.startswith("#"):
        return None
    # Trailing spaces are dropped unless the last one is escaped.
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    line = stripped
    if not line:
        return None
    negated = line.startswith("!")
    if negated or line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/") and not line.endswith("\\/")
    body = line.rstrip("/") if dir_only else line
    if not body:
        return None
    anchored = "/" in body
    body = body.lstrip("/") if body.startswith("/") else body
    regex = _translate(body)
    if not anchored:
        regex = "(?:.*/)?" + regex
    return Pattern(re.compile(regex + r"\Z", re.S), negated, dir_only, line)


class IgnoreFile:
    """The patterns of one ignore file, relative to `base` (an absolute directory)."""

    def __init__(self, base: str, lines: Iterable[str]) -> None:
        self.base = base.replace(os.sep, "/").rstrip("/")
        self.patterns = [p for p in (parse_line(line) for line in lines) if p is not None]
        # Most paths match no pattern: one combined regex answers that in a single match.
        self._any = re.compile("|".join(f"(?:{p.regex.pattern})" for p in self.patterns), re.S) if self.patterns else None

    @classmethod
    def read(cls, path: str, base: str | None = None) -> IgnoreFile | None:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return None
        return cls(base if base is not None else os.path.dirname(path), lines)

    def match(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!` pattern; None: no pattern matches."""
        path = path.replace(os.sep, "/")
        prefix = self.base + "/"
        if not path.startswith(prefix):
            return None
        rel = path[len(prefix):]
        if self._any is None or not self._any.match(rel):
            return None
        for pat in reversed(self.patterns):
            if pat.dir_only and not is_dir:
                continue
            if pat.regex.match(rel):
                return not pat.negated
        return None

    def __bool__(self) -> bool:
        return bool(self.patterns)


class IgnoreStack:
    """Ignore files in precedence order (lowest first: info/exclude, then root to leaf)."""

    def __init__(self, files: tuple[IgnoreFile, ...] = ()) -> None:
        self.files = files

    def push(self, f: IgnoreFile | None) -> IgnoreStack:
        return IgnoreStack(self.files + (f,)) if f else self

    def matches(self, path: str, is_dir: bool) -> bool:
        """Whether `path` itself is ignored (its ancestors are not consulted)."""
        for f in reversed(self.files):
            verdict = f.match(path, is_dir)
            if verdict is not None:
                return verdict
        return False

    def is_ignored(self, path: str, is_dir: bool) -> bool:
        """Whether `path` or any of its ancestors below the ignore files' bases is ignored."""
        path = os.path.abspath(path).replace(os.sep, "/")
        bases = [f.base for f in self.files]
        top = min(bases, key=len) if bases else None
        if top is None:
            return False
        parts = path.split("/")
        for k in range(1, len(parts)):
            ancestor = "/".join(parts[:k])
            if len(ancestor) > len(top) and ancestor.startswith(top + "/") and self.matches(ancestor, True):
                return True
        return self.matches(path, is_dir)


def git_root(start: str) -> str | None:
    """The nearest directory at or above `start` that holds `.git` (a dir or a worktree file)."""
    d = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def stack_for(directory: str, stop: str | None = None) -> IgnoreStack:
    """The ignore files that apply to the contents of `directory`: `.git/info/exclude` and every
    `.gitignore` from the repository root (or `stop`, when outside a repository) down to it."""
    directory = os.path.abspath(directory)
    root = git_root(directory) or (os.path.abspath(stop) if stop else directory)
    if not (directory == root or directory.startswith(root.rstrip(os.sep) + os.sep)):
        root = directory
    stack = IgnoreStack()
    info = os.path.join(root, ".git", "info", "exclude")
    if os.path.isfile(info):
        stack = stack.push(IgnoreFile.read(info, root))
    chain = [directory]
    while chain[-1] != root:
        chain.append(os.path.dirname(chain[-1]))
    for d in reversed(chain):
        stack = stack.push(IgnoreFile.read(os.path.join(d, ".gitignore")))
    return stack
