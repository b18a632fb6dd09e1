"""Garbage-collector settings for processes that analyse many files.

Checking a file allocates millions of small objects (libcst nodes, abstract values) and frees
them when the file is done; almost none of them are in reference cycles, so CPython's cyclic
collector finds nothing to collect, yet its full collections walk every live object — the parsed
trees cached for reuse, the whole of libcst — again and again. On the 22 training repositories
(one process, `benchmarks/static_speed.py`-like run) the default thresholds (700, 10, 10) cost
about a fifth of the time: 17.4 s -> 13.5 s with the thresholds below. Objects created while
importing are moved out of the collector's view (`gc.freeze()`).

Only our own processes are tuned for good (the CLI's workers, the language server's lint
processes); an in-process check restores the caller's settings afterwards (`tuned()`), since
gradlint can be imported as a library (the pytest plugin).
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

THRESHOLDS = (100_000, 50, 1_000)


def tune() -> None:
    """For a process that exists to check files: fewer collections, import-time objects frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


@contextlib.contextmanager
def tuned() -> Iterator[None]:
    """The same thresholds for the duration of a block, then the caller's again."""
    old = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*old)
