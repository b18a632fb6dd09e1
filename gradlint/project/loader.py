"""Reading the project modules a check imports, lazily and once per process.

A module is read into a `ModuleIndex` (process-wide, keyed by path and content): its text
split into top-level statements (the first pass's splitter, no parse) and, for each name, the
statements that may bind it. A statement is parsed only when a name it binds is read, and
then once per process (the index keeps the tree): checking a file that calls `losses.smooth_l1`
parses `def smooth_l1` (and what it reads), not the other 2,000 lines of `losses.py`. Every
check of the process (a CLI worker checks many files importing the same `models.py`; the
language server re-checks the same project) shares the indexes and their trees; what the
definitions *are* for one check (their values) is built per check by
analysis/interp/modules.py.

Beyond a limit (a module over MAX_BYTES, more than MAX_MODULES modules for one check, a file
that does not decode, a statement that does not parse or is too deep for libcst) the module
or the statement is *unknown*: `load` returns None or `parsed` returns None, the names stay
ones the analysis cannot see into, and calls through them have unknown results, as a
library's would. A truncated view never becomes a finding.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field

import libcst as cst

from .. import limits, prefilter
from ..analysis.walk import children
from ..cache import content_hash
from ..source import DecodeError, decode_source, lf_line_ends
from .resolve import absolute, find_module, module_name
from .roots import project_root, search_roots

MAX_BYTES = 512 * 1024  # a module larger than this is generated or vendored, not read
MAX_MODULES = 64  # project modules read for one check
_INDEX_KEEP = 512  # modules whose index (and parsed statements) a process keeps

# ------------------------------------------------------------------ what a statement binds
_IMPORT_HEAD = re.compile(r"(?:from|import)\b")
_IMPORT_ANY = re.compile(r"^[ \t]*(?:from[ \t]+[\w. \t]*?[ \t]+import[ \t]+(\*|\([^)]*\)|[^\n]*)|import[ \t]+([^\n]*))", re.M)
_STAR = re.compile(r"\bimport[ \t]+\*")
_NESTED_DEF = re.compile(r"^[ \t]+(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", re.M)
_MAIN_GUARD = re.compile(r"if[ \t(]+__name__\b")
# statements that importing a module does not run for its definitions (analysis/interp/
# modules.py `definitions`): not worth a parse
_NOT_DEFINING = re.compile(r"(?:async[ \t]+)?(?:for|while|with|del|assert|raise|return|pass|global|nonlocal|print|match)\b")
_ASSIGN_OP = re.compile(r"(?<![=!<>:+\-*/%&|^@])=(?!=)")


def _import_names(spec: str | None, plain: str | None) -> set[str]:
    """The names an import binds: `import a.b` binds `a`, `import a.b as c` and
    `from x import a as c` bind `c`, `from x import *` binds "*"."""
    out: set[str] = set()
    if spec is not None:
        spec = spec.strip().strip("()").replace("\\", " ")
        if spec == "*":
            return {"*"}
        for part in spec.split(","):
            words = part.split()
            if words:
                out.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0])
    elif plain is not None:
        for part in plain.replace("\\", " ").split(","):
            words = part.split()
            if words:
                out.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0].split(".")[0])
    return {n for n in out if n == "*" or n.isidentifier()}


def _assigned_names(code: str) -> set[str]:
    """Names a simple statement may bind: every identifier left of its last assignment `=`
    outside brackets (`a, b = ...`, `x = y = 0`, `a.b = ...` and `x[i] = ...` change `a`
    and `x`). An over-approximation only makes a lookup run one more statement."""
    depth = 0
    last = -1
    for m in re.finditer(r"[()\[\]{}]|" + _ASSIGN_OP.pattern, code):
        ch = m.group()
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            last = m.start()
    if last < 0:
        return set()
    return {n for n in prefilter._IDENT.findall(code[:last]) if n.isidentifier()}


def statement_binds(code: str) -> set[str] | None:
    """The module-level names a top-level statement (its masked text) may bind; None for a
    statement that importing the module does not run for its definitions."""
    head = code.lstrip(" \t")
    while head.startswith("@"):  # decorators belong to the def/class below them
        nl = head.find("\n")
        head = head[nl + 1 :].lstrip(" \t\n") if nl != -1 else ""
    if _IMPORT_HEAD.match(head):
        names: set[str] = set()
        for m in _IMPORT_ANY.finditer(head):
            names |= _import_names(m.group(1), m.group(2))
        return names
    if head.startswith(("def", "class", "async")) and prefilter._HEAD.match(head):
        return {prefilter._HEAD.match(head).group(1)}  # type: ignore[union-attr]
    if _NOT_DEFINING.match(head) or _MAIN_GUARD.match(head):
        return None
    if head.startswith(("if", "try")) and re.match(r"(?:if|try)\b", head):
        names = set(prefilter._defined_names(code)) | set(_NESTED_DEF.findall(code))
        for m in _IMPORT_ANY.finditer(code):
            names |= _import_names(m.group(1), m.group(2))
        return names
    return _assigned_names(head) or None


# ------------------------------------------------------------------ the index of a module
@dataclass(eq=False)
class ModuleIndex:
    """One module's text, its top-level statements and which of them bind each name; the
    statements parsed so far (shared by every check in the process: same text, same trees)."""

    text: str = field(repr=False)
    chunks: list[prefilter.Chunk] = field(repr=False)
    binds: dict[str, list[int]] = field(repr=False)  # name -> statements that may bind it, in order
    stars: list[int] = field(repr=False)  # statements with `import *`
    code: str = field(repr=False)  # the text with strings and comments masked
    _parsed: dict[int, cst.Module | None] = field(default_factory=dict)
    _ids: dict[int, frozenset] = field(default_factory=dict)
    memo: dict = field(default_factory=dict)  # what other passes derive from the text (evidence.py)

    @classmethod
    def build(cls, text: str) -> ModuleIndex:
        code, spans = prefilter._masked(text)
        chunks = prefilter.split_chunks(text, prefilter._Masked(code, spans))
        binds: dict[str, list[int]] = {}
        stars: list[int] = []
        for i, c in enumerate(chunks):
            names = statement_binds(code[c.start : c.end])
            if not names:
                continue
            if "*" in names:
                stars.append(i)
            for n in names:
                if n != "*":
                    binds.setdefault(n, []).append(i)
        return cls(text, chunks, binds, stars, code)

    def parsed(self, i: int) -> cst.Module | None:
        """Statement `i` parsed (None: it does not parse on its own, or is too deep for libcst)."""
        if i in self._parsed:
            return self._parsed[i]
        text = self.chunks[i].text
        module: cst.Module | None = None
        if limits.excess(text) is None:
            try:
                module = limits.on_big_stack(cst.parse_module, text)
            except (cst.ParserSyntaxError, RecursionError, ValueError):
                module = None
        self._parsed[i] = module
        return module

    def parsed_indexes(self) -> list[int]:
        return [i for i, m in self._parsed.items() if m is not None]

    def unit(self, i: int) -> prefilter.Unit:
        c = self.chunks[i]
        n = c.text.count("\n") + (0 if c.text.endswith("\n") else 1)
        return prefilter.Unit(c.text, list(range(c.line, c.line + max(n, 1))))

    def ids(self, i: int) -> frozenset:
        """Identities of the nodes of statement `i`'s tree (which module a finding is in)."""
        hit = self._ids.get(i)
        if hit is None:
            module = self._parsed.get(i)
            found: set[int] = set()
            stack: list[cst.CSTNode] = [module] if module is not None else []
            while stack:
                cur = stack.pop()
                found.add(id(cur))
                stack.extend(children(cur))
            hit = self._ids[i] = frozenset(found)
        return hit


# (path, content hash) -> index; and path -> the stat it was read with and its content hash,
# so that a module is read and decoded once per process while its stat is unchanged
_INDEXES: "OrderedDict[tuple[str, str], ModuleIndex]" = OrderedDict()
_READ: dict[str, tuple[tuple[int, int, int], str, str]] = {}


def _index(path: str, text: str, digest: str | None = None) -> ModuleIndex:
    digest = digest or content_hash(text.encode("utf-8", "surrogatepass"))
    key = (path, digest)
    hit = _INDEXES.get(key)
    if hit is not None:
        _INDEXES.move_to_end(key)
        return hit
    index = _INDEXES[key] = ModuleIndex.build(text)
    if len(_INDEXES) > _INDEX_KEEP:
        _INDEXES.popitem(last=False)
    return index


def read_module(path: str) -> tuple[str, str, tuple[int, int]] | None:
    """(text, content hash, (size, mtime_ns)) of a module file, from this process's memory
    while its size, mtime and ctime are the ones it was read with; None when it cannot be
    read or decoded, or is over MAX_BYTES."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    hit = _READ.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2], (st.st_size, st.st_mtime_ns)
    try:
        data, st = limits.read_regular(path, MAX_BYTES)
        text = lf_line_ends(decode_source(data))
    except (OSError, DecodeError):
        return None
    digest = content_hash(data)
    _READ[path] = ((st.st_size, st.st_mtime_ns, st.st_ctime_ns), text, digest)
    return text, digest, (st.st_size, st.st_mtime_ns)


def forget(paths: list[str] | None = None) -> None:
    """Drop what this process remembers of these files (all: None), e.g. when the editor says
    they changed on disk. (A stale entry is also caught by its stat.)"""
    if paths is None:
        _READ.clear()
        _INDEXES.clear()
        return
    gone = {os.path.abspath(p) for p in paths}
    for p in gone:
        _READ.pop(p, None)
    for key in [k for k in _INDEXES if k[0] in gone]:
        del _INDEXES[key]


@dataclass(eq=False)
class ModuleSource:
    """One project module as seen by one check (the index is the process's)."""

    name: str
    path: str
    index: ModuleIndex
    is_package: bool

    @property
    def text(self) -> str:
        return self.index.text

    def owns(self, node: cst.CSTNode) -> bool:
        """Whether `node` is part of this module's parsed statements (by identity: the same
        text may occur in the checked file too)."""
        key = id(node)
        index = self.index
        return any(key in index.ids(i) for i in index.parsed_indexes())

    def parsed_units(self) -> list[tuple[prefilter.Unit, cst.Module]]:
        """The statements parsed so far, with their line maps (for positions)."""
        index = self.index
        out = []
        for i in sorted(index.parsed_indexes()):
            module = index.parsed(i)
            if module is not None:
                out.append((index.unit(i), module))
        return out


class ProjectModules:
    """The project as seen from one checked file: where its imports resolve, and the modules
    read so far (`read`: path -> (size, mtime_ns), what a cached result depends on).
    `texts` holds the editor's unsaved buffers by absolute path; other files are read from disk."""

    def __init__(self, path: str, extra_roots: tuple[str, ...] = (), texts: dict[str, str] | None = None) -> None:
        self.path = os.path.abspath(path)
        self.roots = search_roots(self.path, extra_roots)
        self.name = module_name(self.path, self.roots)
        self.is_package = os.path.basename(self.path) == "__init__.py"
        self.texts = texts or {}
        self.read: dict[str, tuple[int, int]] = {}  # files read from disk
        self.used: set[str] = set()  # every project file looked at (disk or buffer)
        self.loaded: list[ModuleSource] = []
        self._by_name: dict[str, ModuleSource | None] = {}
        self._tops: dict[str, bool] = {}
        root = project_root(os.path.dirname(self.path))
        self.display_root = root or os.path.dirname(self.path)

    def absolute(self, module: str | None, level: int, importer: str | None, importer_is_package: bool) -> str | None:
        return absolute(module, level, importer, importer_is_package)

    def has_top(self, head: str) -> bool:
        """Whether a top-level module or package `head` exists under the roots (cheap: asked
        for every dotted name the file uses, before any module is looked for)."""
        hit = self._tops.get(head)
        if hit is None:
            hit = self._tops[head] = any(
                os.path.isfile(os.path.join(r, head + ".py")) or os.path.isdir(os.path.join(r, head)) for r in self.roots
            )
        return hit

    def index_of(self, path: str) -> ModuleIndex | None:
        """The index of the module file at `path` (the editor's buffer when it is open)."""
        path = os.path.abspath(path)
        self.used.add(path)
        text = self.texts.get(path)
        if text is not None:
            if len(text) > MAX_BYTES:
                return None
            return _index(path, lf_line_ends(text))
        got = read_module(path)
        if got is None:
            return None
        text, digest, stamp = got
        self.read[path] = stamp
        return _index(path, text, digest)

    def load(self, name: str) -> ModuleSource | None:
        """The module `name` if it is a module of the project that can be read (else None)."""
        if name in self._by_name:
            return self._by_name[name]
        self._by_name[name] = None
        path = find_module(name, self.roots)
        if path is None or os.path.abspath(path) == self.path or len(self.loaded) >= MAX_MODULES:
            return None
        index = self.index_of(path)
        if index is None:
            return None
        src = ModuleSource(name, os.path.abspath(path), index, os.path.basename(path) == "__init__.py")
        self._by_name[name] = src
        self.loaded.append(src)
        return src

    def display(self, path: str) -> str:
        rel = os.path.relpath(path, self.display_root)
        return path if rel.startswith(os.pardir) else rel
