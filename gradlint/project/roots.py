"""Where a file's imports are resolved from, as Python would on the project's `sys.path`:

- the project root: the nearest directory above the file holding `pyproject.toml`,
  `setup.cfg`, `setup.py` or `.git`, and its `src/` when the project uses that layout;
- the parent of the file's top-level package (the directory above the highest `__init__.py`
  chain), which is what `python -m pkg.mod` and pytest's rootdir insertion put on the path;
- the file's own directory (a script's `sys.path[0]`);
- the directories given on the command line and the editor's workspace folders (`extra`).

Only directories inside these roots are the project: everything else (site-packages) is a
library, described by the overlays and never read.
"""

from __future__ import annotations

import os
from functools import lru_cache

MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


@lru_cache(maxsize=1024)
def project_root(directory: str) -> str | None:
    """The nearest directory at or above `directory` with a project marker."""
    d = os.path.abspath(directory)
    while True:
        if any(os.path.exists(os.path.join(d, m)) for m in MARKERS):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def package_base(directory: str) -> str:
    """The directory above the top of the package chain `directory` is in (itself when it
    holds no `__init__.py`)."""
    d = os.path.abspath(directory)
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return d


def search_roots(path: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The import roots for the file at `path`, most specific first, without duplicates."""
    here = os.path.dirname(os.path.abspath(path))
    out: list[str] = [here, package_base(here)]
    root = project_root(here)
    if root is not None:
        src = os.path.join(root, "src")
        if os.path.isdir(src):
            out.append(src)
        out.append(root)
    for e in extra:
        e = os.path.abspath(e)
        out.append(e if os.path.isdir(e) else os.path.dirname(e))
    seen: set[str] = set()
    return tuple(d for d in out if not (d in seen or seen.add(d)))  # type: ignore[func-returns-value]
