"""`gradlint lsp`: the CLI calls `add_arguments(parser)` and `run(args)` (lazily, so that
`gradlint check` never imports pygls)."""

from __future__ import annotations

import argparse
import asyncio
import logging


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

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    finally:
        server.linter.kill_now()
