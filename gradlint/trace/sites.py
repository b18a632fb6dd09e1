"""Where something happened, in the user's terms: the innermost frame that belongs to the
user's files (not the standard library, not an installed package, not gradlint itself).

A site is a plain tuple `(path, line, col, end_line, end_col)` (1-based lines, 0-based columns)
so that it can be stored cheaply in autograd node metadata and sent as JSON. On Python 3.11+
the columns are those of the exact expression being executed (`co_positions`); before that the
whole line is used.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig

Site = tuple  # (path, line, col, end_line, end_col)

# gradlint's own package: never the user's code (its tests/ folder is, when traced)
_GRADLINT_PKG = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _library_roots() -> tuple[str, ...]:
    roots: set[str] = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            roots.add(os.path.realpath(p))
    try:
        roots.update(os.path.realpath(p) for p in site.getsitepackages())
    except AttributeError:  # pragma: no cover - old virtualenv's site.py
        pass
    user = getattr(site, "getusersitepackages", lambda: None)()
    if user:
        roots.add(os.path.realpath(user))
    for p in sys.path:  # anything else that is a site-/dist-packages folder
        if p.endswith(("site-packages", "dist-packages")):
            roots.add(os.path.realpath(p))
    return tuple(r.rstrip(os.sep) + os.sep for r in roots)


class UserFiles:
    """Classifies code file names: the user's own, or library code. Cached per name (a
    training step runs the same few dozen files over and over)."""

    def __init__(self) -> None:
        self._roots = _library_roots()
        self._cache: dict[str, bool] = {}

    def __call__(self, filename: str) -> bool:
        r = self._cache.get(filename)
        if r is None:
            r = self._cache[filename] = self._classify(filename)
        return r

    def _classify(self, filename: str) -> bool:
        if not filename or filename.startswith("<"):
            return False
        path = os.path.realpath(filename)
        if path.startswith(_GRADLINT_PKG):
            return False
        if "site-packages" + os.sep in path or "dist-packages" + os.sep in path:
            return False
        return not path.startswith(self._roots)


_POSITIONS: dict = {}  # code object -> its instructions' positions (Python 3.11+)


def _positions_at(code, lasti: int):
    table = _POSITIONS.get(code)
    if table is None:
        get = getattr(code, "co_positions", None)
        try:
            table = _POSITIONS[code] = list(get()) if get is not None else []
        except (ValueError, TypeError):  # pragma: no cover - odd code objects
            table = _POSITIONS[code] = []
    i = lasti // 2
    if 0 <= i < len(table):
        l0, l1, c0, c1 = table[i]
        if None not in (l0, l1, c0, c1):
            return l0, c0, l1, c1
    return None


def _position(frame) -> tuple[int, int, int, int]:
    pos = _positions_at(frame.f_code, frame.f_lasti)
    if pos is not None:
        return pos
    line = frame.f_lineno or 1
    return line, 0, line, 0


def site_of(frame) -> Site:
    line, col, end_line, end_col = _position(frame)
    return (frame.f_code.co_filename, line, col, end_line, end_col)


def user_frame(is_user: UserFiles, start=None, depth: int = 1):
    """The innermost frame in the user's files, starting `depth` frames above the caller."""
    f = start if start is not None else sys._getframe(depth + 1)
    while f is not None:
        if is_user(f.f_code.co_filename):
            return f
        f = f.f_back
    return None


def user_site(is_user: UserFiles, start=None, depth: int = 1) -> Site | None:
    f = user_frame(is_user, start, depth + 1 if start is None else depth)
    return site_of(f) if f is not None else None


def traceback_site(is_user: UserFiles, tb) -> Site | None:
    """The innermost user frame of an exception's traceback (where, in the user's code, it was
    raised)."""
    best = None
    while tb is not None:
        if is_user(tb.tb_frame.f_code.co_filename):
            best = (tb.tb_frame.f_code.co_filename, tb.tb_lineno, 0, tb.tb_lineno, 0)
            pos = _tb_position(tb)
            if pos is not None:
                best = (tb.tb_frame.f_code.co_filename, *pos)
        tb = tb.tb_next
    return best


def _tb_position(tb):
    pos = _positions_at(tb.tb_frame.f_code, tb.tb_lasti)
    return pos if pos is not None and pos[0] == tb.tb_lineno else None


def short(site: Site | None) -> str:
    """`file.py:12` for messages."""
    if site is None:
        return "?"
    return f"{os.path.basename(site[0])}:{site[1]}"
