"""Reading and writing LSP frames over stdio or one TCP connection.

pygls' own loops read stdin on an executor thread (interpreter exit then waits for a read that
may never return) and drop a malformed message without a word. Here:
- stdin is pumped by a daemon thread into an asyncio StreamReader;
- a body that is not JSON gets a ParseError response (id null), a frame without a valid
  Content-Length is skipped, and the loop goes on;
- EOF, `exit`, a broken pipe or `stop()` end the session; the caller cleans up and the
  process exits with 0 (1 for `exit` without `shutdown`, as LSP asks).
- The real stdout is kept for frames only; Python's `sys.stdout` and fd 1 are pointed at
  stderr so that a stray print anywhere can never corrupt the stream.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
from typing import Any, BinaryIO
from collections.abc import Callable

log = logging.getLogger(__name__)

MAX_BODY = 512 * 1024 * 1024  # a larger Content-Length is a corrupt header, not a message
PARSE_ERROR = -32700


class Writer:
    """pygls' writer interface over a byte sink; a vanished client ends the session instead of
    raising out of whichever handler happened to be sending."""

    def __init__(self, write: Callable[[bytes], Any], close: Callable[[], Any], on_lost: Callable[[], None]) -> None:
        self._write = write
        self._close = close
        self._on_lost = on_lost
        self.lost = False
        self._lock = threading.Lock()  # frames must not interleave if a thread ever sends

    def write(self, data: bytes) -> None:
        if self.lost:
            return
        try:
            with self._lock:
                self._write(data)
        except (OSError, ValueError, RuntimeError) as exc:  # EPIPE, closed file, closed transport
            self.lost = True
            log.info("the client went away (%s)", exc)
            self._on_lost()

    def close(self) -> None:
        try:
            self._close()
        except (OSError, ValueError, RuntimeError):
            pass


def _pump(fd: int, loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader) -> None:
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            data = b""
        try:
            if not data:
                loop.call_soon_threadsafe(reader.feed_eof)
                return
            loop.call_soon_threadsafe(reader.feed_data, data)
        except RuntimeError:  # the loop is closed: the session is over
            return


class Session:
    def __init__(self, server, stdio: bool) -> None:
        self.server = server
        self.stdio = stdio
        self._stop: asyncio.Future | None = None

    def stop(self, code: int = 0) -> None:
        if self._stop is not None and not self._stop.done():
            self._stop.set_result(code)

    async def serve(self, reader: asyncio.StreamReader, writer: Writer) -> int:
        protocol = self.server.protocol
        protocol.set_writer(writer, include_headers=True)
        loop = asyncio.get_running_loop()
        self._stop = loop.create_future()
        messages = asyncio.ensure_future(self._read_loop(reader, protocol, writer))
        await asyncio.wait({messages, self._stop}, return_when=asyncio.FIRST_COMPLETED)
        if messages.done() and not messages.cancelled() and messages.exception() is None:
            code = messages.result()
        else:
            code = self._stop.result() if self._stop.done() else 0
            messages.cancel()
        try:
            await self.server.cleanup()
        except Exception:
            log.exception("cleanup failed")
        return code

    async def _read_loop(self, reader: asyncio.StreamReader, protocol, writer: Writer) -> int:
        while True:
            length = await _read_headers(reader)
            if length is None:
                log.info("end of input: the client went away")
                return 0
            try:
                body = await reader.readexactly(length)
            except asyncio.IncompleteReadError:
                return 0
            try:
                message = json.loads(body, object_hook=protocol.structure_message)
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                log.warning("malformed JSON from the client: %s", exc)
                _parse_error(protocol, str(exc))
                continue
            except Exception as exc:  # a notification with invalid params: nobody to answer
                log.warning("ignoring an undecodable message: %s", exc)
                continue
            try:
                protocol.handle_message(message)
            except SystemExit as exc:  # pygls' `exit` handler
                return int(exc.code or 0)
            except Exception:
                log.exception("failed to handle a message")
            if writer.lost:
                return 0


async def _read_headers(reader: asyncio.StreamReader) -> int | None:
    """Content-Length of the next frame; None at EOF. Garbage is skipped."""
    length: int | None = None
    seen_header = False
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # an endless line: not a header
            log.warning("skipping an over-long header line")
            continue
        if not line:
            return None
        if line.strip() == b"":
            if seen_header and length is not None:
                return length
            if seen_header:
                log.warning("skipping a frame without a valid Content-Length")
            seen_header, length = False, None
            continue
        seen_header = True
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            try:
                n = int(value.strip())
            except ValueError:
                n = -1
            length = n if 0 <= n <= MAX_BODY else None


def _parse_error(protocol, detail: str) -> None:
    # a plain dict: lsprotocol's converter would drop the `id: null` JSON-RPC requires here
    protocol._send_data({"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": f"Parse error: {detail}"}})


def _stdio_writer(on_lost: Callable[[], None]) -> Writer:
    out: BinaryIO = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = out.write(view)
            view = view[n:]

    return Writer(write, out.close, on_lost)


async def serve_stdio(server) -> int:
    loop = asyncio.get_running_loop()
    session = Session(server, stdio=True)
    server.session = session
    reader = asyncio.StreamReader(limit=1 << 20)
    threading.Thread(target=_pump, args=(sys.stdin.fileno(), loop, reader), name="lsp-stdin", daemon=True).start()
    writer = _stdio_writer(lambda: loop.call_soon_threadsafe(session.stop, 0))
    return await session.serve(reader, writer)


async def serve_tcp(server, host: str, port: int, ready: Callable[[str, int], None] | None = None) -> int:
    """Listen, serve the first client that connects, exit when it leaves."""
    loop = asyncio.get_running_loop()
    session = Session(server, stdio=False)
    server.session = session
    done: asyncio.Future = loop.create_future()
    taken = False

    async def on_connect(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        nonlocal taken
        if taken:  # one client per server process, as with stdio
            w.close()
            return
        taken = True
        writer = Writer(w.write, w.close, lambda: loop.call_soon(session.stop, 0))
        try:
            code = await session.serve(r, writer)
        except Exception as exc:  # pragma: no cover
            log.exception("session failed")
            code = 1
            if not done.done():
                done.set_exception(exc)
        writer.close()
        if not done.done():
            done.set_result(code)

    listener = await asyncio.start_server(on_connect, host, port, limit=1 << 20)
    addr = listener.sockets[0].getsockname()
    if ready is not None:
        ready(addr[0], addr[1])
    try:
        return await done
    finally:
        listener.close()
