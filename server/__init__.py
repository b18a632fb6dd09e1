"""gradlint's language server (pygls 2), installed as `gradlint_server`.

Start it with `gradlint lsp` (or `python -m gradlint_server`); see docs/lsp.md. The module map:
app.py (the server and its services) and handlers.py (the LSP methods); documents.py
(debounce and versions), linter.py + lintworker.py (the engine in child processes),
positions.py (code points <-> UTF-16/UTF-8), convert.py (engine -> LSP diagnostics),
actions.py (code actions), hover.py, gradcheck.py + targets.py (the gradient-check command),
trace.py (the trace command and its findings), settings.py + project.py (configuration),
dependents.py (the open documents as one project: who read what, unsaved buffers),
protocol.py + transport.py (JSON-RPC), logs.py, client.py (client capabilities), cli.py.
Notebook cells are joined and split by gradlint.notebook.cells, which `gradlint check` uses
too.
"""

from __future__ import annotations

__all__ = ["create_server"]


def create_server(pool_factory=None):
    """The composition root: the server (app.py) with the LSP methods (handlers.py) registered.
    Imports on call, so that importing any module of the package stays cheap."""
    from .app import GradlintServer
    from .handlers import register

    server = GradlintServer(pool_factory)
    register(server)
    return server
