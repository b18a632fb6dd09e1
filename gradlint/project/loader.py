"""Reading the project modules a check imports: each at most once per check, parsed at most
once per process for the same content (keyed by content hash), within limits.

Beyond a limit (a module over MAX_BYTES, more than MAX_MODULES modules for one check, a file
that does not decode or parse, one too deep for libcst) the module is *unknown*: `load`
returns None, the import stays a name the analysis cannot see into, and calls through it have
unknown results, as a library's would. A truncated view never becomes a finding.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field

import libcst as cst

from .. import limits
from ..cache import content_hash
from ..analysis.walk import children
from ..source import DecodeError, decode_source, lf_line_ends
from .resolve import absolute, find_module, module_name
from .roots import project_root, search_roots

MAX_BYTES = 512 * 1024  # a module larger than this is generated or vendored, not read
MAX_MODULES = 64  # project modules read for one check
_PARSED_KEEP = 256

# content hash -> parsed module, shared by the checks of one process (a CLI worker checks many
# files importing the same `models.py`; the language server re-checks the same project)
_PARSED: "OrderedDict[str, cst.Module]" = OrderedDict()


@dataclass(eq=False)
class ModuleSource:
    """One project module as read for a check."""

    name: str
    path: str
    text: str
    module: cst.Module
    is_package: bool
    _ids: frozenset | None = field(default=None, repr=False)

    def owns(self, node: cst.CSTNode) -> bool:
        """Whether `node` is part of this module's tree (by identity: the same text may occur
        in the checked file too)."""
        if self._ids is None:
            ids: set[int] = set()
            stack: list[cst.CSTNode] = [self.module]
            while stack:
                cur = stack.pop()
                ids.add(id(cur))
                stack.extend(children(cur))
            self._ids = frozenset(ids)
        return id(node) in self._ids


def _parse(text: str) -> cst.Module | None:
    digest = content_hash(text.encode("utf-8", "surrogatepass"))
    hit = _PARSED.get(digest)
    if hit is not None:
        _PARSED.move_to_end(digest)
        return hit
    if limits.excess(text) is not None:
        return None
    try:
        module = limits.on_big_stack(cst.parse_module, text)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    _PARSED[digest] = module
    if len(_PARSED) > _PARSED_KEEP:
        _PARSED.popitem(last=False)
    return module


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
        self.read: dict[str, tuple[int, int]] = {}
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

    def load(self, name: str) -> ModuleSource | None:
        """The module `name` if it is a module of the project that can be read (else None)."""
        if name in self._by_name:
            return self._by_name[name]
        self._by_name[name] = None
        path = find_module(name, self.roots)
        if path is None or os.path.abspath(path) == self.path or len(self.loaded) >= MAX_MODULES:
            return None
        text = self.texts.get(os.path.abspath(path))
        if text is None:
            try:
                data, st = limits.read_regular(path, MAX_BYTES)
            except OSError:
                return None
            try:
                text = decode_source(data)
            except DecodeError:
                return None
            self.read[path] = (st.st_size, st.st_mtime_ns)
        elif len(text) > MAX_BYTES:
            return None
        module = _parse(lf_line_ends(text))
        if module is None:
            return None
        src = ModuleSource(name, path, lf_line_ends(text), module, os.path.basename(path) == "__init__.py")
        self._by_name[name] = src
        self.loaded.append(src)
        return src

    def display(self, path: str) -> str:
        rel = os.path.relpath(path, self.display_root)
        return path if rel.startswith(os.pardir) else rel
