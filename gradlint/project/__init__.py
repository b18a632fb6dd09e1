"""Project-wide analysis: the modules of the project a checked file imports.

`roots.py` finds where imports are resolved from (the project root, a `src/` layout, the
directories given), `resolve.py` turns an import into a file of the project, `loader.py`
reads such a file once per process into an index of its top-level statements (each parsed
when first needed) within size and count limits, `summary.py` says from the text which
definitions differentiate, and `evidence.py` is the gate that analyses a file without
evidence of its own when it calls one. The interpreter sees a project through
`ProjectModules` only (analysis/interp/modules.py defines a module's names lazily); nothing
here knows a rule.
"""

from . import loader, resolve, roots
from .loader import ModuleSource, ProjectModules
from .roots import search_roots


def forget_files(paths: list[str] | None = None) -> None:
    """Files changed on disk (the editor's file watcher): what this process remembers of them,
    and where project roots are, is read again."""
    loader.forget(paths)
    resolve.forget()
    roots.project_root.cache_clear()


__all__ = ["ModuleSource", "ProjectModules", "forget_files", "search_roots"]
