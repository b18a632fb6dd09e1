"""Logging: stderr always; the server's own messages also to the client (`window/logMessage`,
the editor's output panel). Never stdout: that is the LSP stream.

pygls logs every frame at INFO ("Sending data: <the whole 5 MB document>"), so its loggers
stay at WARNING unless asked for debug output; and records about sending are never forwarded
to the client (forwarding one would send another, forever).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading

from lsprotocol import types

_LEVELS = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


class ClientLogHandler(logging.Handler):
    """Forwards records to the client once a server with a running loop is attached."""

    def __init__(self, level: int = logging.INFO) -> None:
        super().__init__(level)
        self.server = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._local = threading.local()

    def attach(self, server, loop: asyncio.AbstractEventLoop) -> None:
        self.server, self.loop = server, loop

    def emit(self, record: logging.LogRecord) -> None:
        server, loop = self.server, self.loop
        if record.name.startswith("gradlint_server.timing"):
            return  # per-check timings: for logs and benchmarks, not the editor's panel
        if server is None or loop is None or loop.is_closed() or getattr(self._local, "busy", False):
            return
        try:
            msg = self.format(record)
        except Exception:
            return
        kind = _LEVELS.get(record.levelno, types.MessageType.Log if record.levelno < logging.INFO else types.MessageType.Error)

        def send() -> None:
            self._local.busy = True
            try:
                server.window_log_message(types.LogMessageParams(type=kind, message=msg))
            except Exception:
                pass
            finally:
                self._local.busy = False

        try:
            if threading.current_thread() is threading.main_thread():
                send()
            else:
                loop.call_soon_threadsafe(send)
        except RuntimeError:
            pass


client_handler = ClientLogHandler()


def setup(level: str = "info", log_file: str | None = None) -> None:
    """`level`: error | warning | info | debug (ours, with per-check timings) | trace (also
    every JSON-RPC frame, from pygls)."""
    trace = level == "trace"
    lvl = logging.DEBUG if trace else getattr(logging, level.upper(), logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    stream: logging.Handler = logging.StreamHandler(sys.stderr)
    stream.setFormatter(fmt)
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(stream)
    if log_file:
        fh = logging.FileHandler(log_file, encoding="utf-8")
        fh.setFormatter(fmt)
        root.addHandler(fh)
    root.setLevel(lvl)
    logging.getLogger("pygls").setLevel(logging.DEBUG if trace else logging.WARNING)
    ours = logging.getLogger("gradlint_server")
    client_handler.setFormatter(logging.Formatter("%(message)s"))
    client_handler.setLevel(max(lvl, logging.INFO))
    if client_handler not in ours.handlers:
        ours.addHandler(client_handler)


def attach_logging(server) -> None:
    """Forward the server's log records to its client (called in the server's event loop)."""
    client_handler.attach(server, asyncio.get_running_loop())
