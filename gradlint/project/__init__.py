"""Project-wide analysis: the modules of the project a checked file imports.

`roots.py` finds where imports are resolved from (the project root, a `src/` layout, the
directories given), `resolve.py` turns an import into a file of the project, and `loader.py`
reads and parses such a file once (cached by content hash) within size and count limits.
The interpreter sees a project through `ProjectModules` only (analysis/interp/modules.py
executes a module's definitions); nothing here knows a rule.
"""

from .loader import ModuleSource, ProjectModules
from .roots import search_roots

__all__ = ["ModuleSource", "ProjectModules", "search_roots"]
