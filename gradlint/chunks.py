"""Parsed chunks of a document (a top-level statement or a class skeleton each), with what is
computed once per chunk (positions, the parent map), and the cache that keeps them between
versions of a document: an edit re-parses and re-maps only the chunks it touched."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .analysis.walk import parent_map

if TYPE_CHECKING:  # pragma: no cover
    from . import prefilter


class ParsedChunk:
    """One unit (a top-level statement or a class skeleton) parsed on its own; its lines map
    to file lines through `chunk.lines`."""

    __slots__ = ("chunk", "module", "_positions", "_parents", "_cached")

    def __init__(self, chunk: prefilter.Unit, module: cst.Module, cached: list | None = None) -> None:
        self.chunk = chunk
        self.module = module
        self._cached = cached  # its ChunkCache entry [module, positions, parents], if any
        self._positions = cached[1] if cached is not None else None
        self._parents: dict[int, cst.CSTNode] | None = cached[2] if cached is not None else None

    def parents(self) -> dict[int, cst.CSTNode]:
        """id(node) -> parent of its code nodes, kept for the next version like the positions."""
        if self._parents is None:
            self._parents = parent_map([self.module])
            if self._cached is not None:
                self._cached[2] = self._parents
        return self._parents

    def positions(self):
        if self._positions is None:
            self._positions = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
            if self._cached is not None:  # the next version of the document reuses them
                self._cached[1] = self._positions
        return self._positions


class ChunkCache:
    """Parsed chunks by text, for checking successive versions of a document: an edit
    re-parses only the chunks it touched (and their positions are kept too)."""

    def __init__(self, max_chunks: int = 4000) -> None:
        from collections import OrderedDict

        self._items: "OrderedDict[str, list]" = OrderedDict()
        self.max_chunks = max_chunks

    def get(self, text: str):
        item = self._items.get(text)
        if item is not None:
            self._items.move_to_end(text)
        return item

    def put(self, text: str, module: cst.Module) -> list:
        item = [module, None, None]
        self._items[text] = item
        if len(self._items) > self.max_chunks:
            self._items.popitem(last=False)
        return item
