"""`gradlint lsp`: the CLI calls `add_arguments(parser)` and `run(args)` (lazily, so that
`gradlint check` never imports pygls)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected PORT or HOST:PORT, got {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range: {number}")
    return host or "127.0.0.1", number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="[HOST:]PORT", type=_address, help="listen on a TCP port instead and serve the first client that connects (port 0: any free port, printed on stderr)")
    parser.add_argument("--log-level", default="info", choices=["trace", "debug", "info", "warning", "error"],
                        help="logging on stderr and window/logMessage (default: info; debug adds per-check timings, trace every JSON-RPC frame)")
    parser.add_argument("--log-file", metavar="FILE", help="also write the log to FILE")


def run(args: argparse.Namespace) -> int:
    from . import logs
    from . import create_server
    from .transport import serve_stdio, serve_tcp

    logs.setup(args.log_level, args.log_file)
    server = create_server()

    async def main() -> int:
        if args.tcp:
            host, port = args.tcp
            return await serve_tcp(server, host, port, ready=lambda h, p: logging.getLogger(__name__).warning("gradlint lsp: listening on %s:%s", h, p))
        return await serve_stdio(server)

    def terminated(signum, frame) -> None:
        # SIGTERM (an editor or a test harness stopping the server) ends the process through
        # the `finally` below instead of at once: a check being cancelled must not be left
        # between its tree kill's SIGSTOPs and SIGKILLs
        raise SystemExit(128 + signum)

    with contextlib.suppress(ValueError, OSError, AttributeError):  # not the main thread / no SIGTERM
        signal.signal(signal.SIGTERM, terminated)
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    finally:
        server.linter.kill_now()
        _close_check_workers()


def _close_check_workers() -> None:
    """The gradcheck and trace workers, their process trees included (only if that code was
    ever loaded: a server that ran no check has none)."""
    mod = sys.modules.get("gradlint.dynamic.worker")
    if mod is not None:
        mod.close_all()
