"""A gitignore matcher (gitignore(5) semantics, no dependency).

Supported: comments and blank lines, trailing-space trimming (unless escaped), backslash
escapes, `!` negation, dir-only patterns (`build/`), anchoring (a `/` at the start or in the
middle ties a pattern to its file's directory), `*`, `?`, `[...]` / `[!...]` classes (with
ranges and `[:alpha:]`-style names), and the three `**` forms (`**/x`, `x/**`, `a/**/b`). Nested `.gitignore` files and
`.git/info/exclude` are combined by `IgnoreStack`: deeper files take precedence, and within a
file the last matching pattern wins. A path inside an ignored directory stays ignored (git
cannot re-include it); the directory walker gets this for free by not descending, and
`IgnoreStack.is_ignored` checks the ancestors explicitly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from .limits import read_regular


# ------------------------------------------------------------------ the matcher
# A glob is matched by hand rather than translated to a regex: `re` backtracks, and a line
# such as `*a*a*a*a*a*a*a*a*a*a*a*a*b` in a cloned repository's .gitignore then takes
# exponential time on a long name. Here every pattern is a list of path-component patterns
# and `**` items, and both levels use the greedy wildcard algorithm (on a mismatch, retry only
# from the most recent star, one position further). That algorithm is exact when every
# non-star item matches exactly one element (a character in a component, a component in a
# path), which holds at both levels: `*`, `?` and classes never match `/`, and `**` stands
# alone between slashes. Work is at most (pattern length) x (path length) steps.

_LIT, _ANY, _CLASS, _STAR = range(4)

_POSIX_CLASSES = {
    "alnum": str.isalnum, "alpha": str.isalpha, "blank": lambda c: c in " \t",
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127, "digit": lambda c: "0" <= c <= "9",
    "graph": lambda c: c.isprintable() and not c.isspace(), "lower": str.islower,
    "print": str.isprintable, "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "space": str.isspace, "upper": str.isupper, "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}


class _Class:
    """A bracket expression: single characters, ranges and POSIX classes, maybe negated.
    A reversed range (`[z-a]`) matches its first character only, as in git."""

    __slots__ = ("chars", "ranges", "named", "negate")

    def __init__(self, chars: str, ranges: list[tuple[str, str]], named: list, negate: bool) -> None:
        self.chars = frozenset(chars)
        self.ranges = tuple(ranges)
        self.named = tuple(named)
        self.negate = negate

    def __call__(self, c: str) -> bool:
        hit = c in self.chars or any(lo <= c <= hi for lo, hi in self.ranges) or any(f(c) for f in self.named)
        return hit != self.negate  # never called with "/": components hold none


def _parse_class(glob: str, i: int) -> tuple[_Class | None, int]:
    """The bracket expression starting at glob[i] (`[`) and the index after it; None when it
    is not terminated (the `[` is then a literal)."""
    n = len(glob)
    j = i + 1
    negate = j < n and glob[j] in "!^"
    if negate:
        j += 1
    elements: list = []  # a character, or a POSIX predicate
    first = True
    while j < n and (glob[j] != "]" or first):
        first = False
        c = glob[j]
        if c == "[" and glob.startswith("[:", j):
            close = glob.find(":]", j + 2)
            name = glob[j + 2 : close] if close != -1 else None
            if name in _POSIX_CLASSES:
                elements.append(_POSIX_CLASSES[name])
                j = close + 2
                continue
        if c == "\\" and j + 1 < n:
            j += 1
            c = glob[j]
        elements.append(c)
        j += 1
    if j >= n:
        return None, i + 1
    chars, ranges, named = [], [], []
    k = 0
    while k < len(elements):
        e = elements[k]
        if callable(e):
            named.append(e)
        elif k + 2 < len(elements) and elements[k + 1] == "-" and isinstance(elements[k + 2], str):
            # `a-z`; a `-` first or last is a literal. git tests the first end on its own
            # before it sees the `-`, so a reversed range still matches that character.
            chars.append(e)
            ranges.append((e, elements[k + 2]))
            k += 3
            continue
        else:
            chars.append(e)
        k += 1
    return _Class("".join(chars), ranges, named, negate), j + 1


class _Component:
    """The pattern of one path component: an exact name, `prefix*suffix`, or a general glob
    of characters, `?`, classes and `*`."""

    __slots__ = ("tokens", "literal", "prefix", "suffix", "match")

    def __init__(self, tokens: list[tuple[int, object]]) -> None:
        self.tokens = tokens
        kinds = [k for k, _ in tokens]
        self.literal = self.prefix = self.suffix = None
        if all(k == _LIT for k in kinds):
            self.literal = "".join(str(v) for _, v in tokens)
            self.match = self._literal
        elif kinds.count(_STAR) == 1 and all(k in (_LIT, _STAR) for k in kinds):
            star = kinds.index(_STAR)
            self.prefix = "".join(str(v) for _, v in tokens[:star])
            self.suffix = "".join(str(v) for _, v in tokens[star + 1 :])
            self.match = self._affix
        else:
            self.match = self._glob

    def _literal(self, name: str) -> bool:
        return name == self.literal

    def _affix(self, name: str) -> bool:
        return len(name) >= len(self.prefix) + len(self.suffix) and name.startswith(self.prefix) and name.endswith(self.suffix)

    def _glob(self, name: str) -> bool:
        tokens = self.tokens
        nt, ns = len(tokens), len(name)
        ti = si = 0
        star = -1
        mark = 0
        while si < ns:
            if ti < nt:
                kind, value = tokens[ti]
                if kind == _STAR:
                    star, mark = ti, si
                    ti += 1
                    continue
                c = name[si]
                if kind == _ANY or (kind == _LIT and value == c) or (kind == _CLASS and value(c)):  # type: ignore[operator]  # a class token holds its predicate
                    ti += 1
                    si += 1
                    continue
            if star < 0:
                return False
            ti = star + 1
            mark += 1
            si = mark
        while ti < nt and tokens[ti][0] == _STAR:
            ti += 1
        return ti == nt


_DSTAR = None  # a `**` item: zero or more whole components
_ANY_COMPONENT = _Component([(_STAR, None)])


def _compile(glob: str) -> list:
    """Items for a glob body (no leading `!`, no trailing `/`, no leading `/`): _Component
    objects and _DSTAR, split at the slashes."""
    items: list = []
    tokens: list | None = []
    i, n = 0, len(glob)

    def close() -> None:
        items.append(_Component(tokens))

    while i < n:
        c = glob[i]
        if c == "*":
            j = i
            while j < n and glob[j] == "*":
                j += 1
            at_start = i == 0 or glob[i - 1] == "/"
            at_end = j == n or glob[j] == "/"
            if j - i >= 2 and at_start and at_end:
                if j == n:
                    # `x/**`: everything below (one or more components); a bare `**`: anything
                    if i != 0:
                        items.append(_ANY_COMPONENT)
                    items.append(_DSTAR)
                    tokens = None
                else:
                    # `**/` at the start or `/**/` in the middle: zero or more directories
                    items.append(_DSTAR)
                    tokens = []
                    j += 1  # the slash belongs to the `**`
            else:
                tokens.append((_STAR, None))
            i = j
            continue
        if c == "?":
            tokens.append((_ANY, None))
        elif c == "[":
            cls, j = _parse_class(glob, i)
            if cls is not None:
                tokens.append((_CLASS, cls))
                i = j
                continue
            tokens.append((_LIT, "["))
        else:
            if c == "\\" and i + 1 < n:
                i += 1
                c = glob[i]
            if c == "/":
                close()
                tokens = []
            else:
                tokens.append((_LIT, c))
        i += 1
    if tokens is not None:
        close()
    return items


def _match_items(items: list, parts: list[str]) -> bool:
    """The greedy wildcard algorithm over path components (`**` is the star)."""
    ni, np_ = len(items), len(parts)
    ii = pi = 0
    star = -1
    mark = 0
    while pi < np_:
        if ii < ni:
            item = items[ii]
            if item is _DSTAR:
                star, mark = ii, pi
                ii += 1
                continue
            if item.match(parts[pi]):
                ii += 1
                pi += 1
                continue
        if star < 0:
            return False
        ii = star + 1
        mark += 1
        pi = mark
    while ii < ni and items[ii] is _DSTAR:
        ii += 1
    return ii == ni


@dataclass(frozen=True)
class Pattern:
    items: tuple
    negated: bool
    dir_only: bool
    source: str

    @property
    def basename_only(self) -> _Component | None:
        """For `name`-style patterns (no slash): the component the last path component must
        match (most patterns are of this kind, and IgnoreFile indexes them)."""
        if len(self.items) == 2 and self.items[0] is _DSTAR and self.items[1] is not _DSTAR:
            return self.items[1]
        return None

    def matches(self, parts: list[str]) -> bool:
        """Whether the relative path split into `parts` matches (dir-only is the caller's)."""
        last = self.basename_only
        if last is not None:
            return last.match(parts[-1])
        if _DSTAR not in self.items:
            return len(parts) == len(self.items) and all(it.match(p) for it, p in zip(self.items, parts))
        return _match_items(list(self.items), parts)


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
    items = _compile(body)
    if not anchored:
        items = [_DSTAR] + items
    return Pattern(tuple(items), negated, dir_only, line)


class IgnoreFile:
    """The patterns of one ignore file, relative to `base` (an absolute directory)."""

    def __init__(self, base: str, lines: Iterable[str]) -> None:
        self.base = base.replace(os.sep, "/").rstrip("/")
        self.patterns = [p for p in (parse_line(line) for line in lines) if p is not None]
        # Most paths match no pattern. Name patterns (most of them) are indexed so that one
        # set lookup and two C-level str calls rule them all out; only the rest run one by one.
        names, prefixes, suffixes, others = set(), [], [], []
        for p in self.patterns:
            last = p.basename_only
            if last is not None and last.literal is not None:
                names.add(last.literal)
            elif last is not None and last.prefix == "":
                suffixes.append(last.suffix)
            elif last is not None and last.suffix == "":
                prefixes.append(last.prefix)
            else:
                others.append(p)
        self._names = frozenset(names)
        self._prefixes = tuple(prefixes)
        self._suffixes = tuple(suffixes)
        self._others = others

    @classmethod
    def read(cls, path: str, base: str | None = None) -> IgnoreFile | None:
        try:
            # A FIFO named .gitignore must not block the walk.
            lines = read_regular(path)[0].decode("utf-8", "replace").splitlines()
        except OSError:
            return None
        return cls(base if base is not None else os.path.dirname(path), lines)

    def match(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!` pattern; None: no pattern matches."""
        path = path.replace(os.sep, "/")
        prefix = self.base + "/"
        if not path.startswith(prefix) or not self.patterns:
            return None
        parts = path[len(prefix):].split("/")
        name = parts[-1]
        if not (
            name in self._names
            or name.startswith(self._prefixes)
            or name.endswith(self._suffixes)
            or any(p.matches(parts) for p in self._others)
        ):
            return None
        for pat in reversed(self.patterns):
            if pat.dir_only and not is_dir:
                continue
            if pat.matches(parts):
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
