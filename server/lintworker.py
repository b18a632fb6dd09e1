"""The lint process: runs `gradlint.engine` for the server, one request at a time.

Why a process and not a thread: libcst's native parser holds the GIL for long stretches (a
1 MB buffer blocks other threads for seconds), which would freeze the server's event loop —
no hover, no cancellation, no other document. In a child process a slow or runaway check
costs nothing but time, and a wedged one can be killed.

Frames on stdin/stdout: 4-byte big-endian length + pickle (parent and child are the same code,
same interpreter). Requests `(id, op, payload)`; replies `(id, ok, value)`.
  op "check": {key, path, config, text, limit, project} -> (diagnostics, seconds, deps)
                                               one DocumentChecker per key; `project` None, or
                                               {roots, texts}: analysed in its project (texts: the
                                               unsaved buffers by path), `deps` the files it read
  op "fix":   {path, config, text, limit}      -> (text, n)                  safe fixes only
  op "forget": {key}                           -> no reply                   the document was closed
  op "files": {paths}                          -> no reply                   files changed on disk
`limit` (seconds of CPU time, or None) is armed as an interval timer around the request: its
signal ends this process wherever it is (libcst's parser cannot be interrupted otherwise), and
the server, seeing SIGPROF in the exit status, reports the buffer as "not checked".
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import time
import traceback
from typing import BinaryIO

HEADER = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> object | None:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)


def frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def main() -> int:
    requests = sys.stdin.buffer
    replies = os.fdopen(os.dup(1), "wb")
    # Anything the engine might print must not corrupt the reply pipe.
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    from gradlint.engine import DocumentChecker, fix_source
    from gradlint.gctune import tune
    from gradlint.watchdog import arm_cpu_limit as arm

    tune()  # a process that exists to check documents (gradlint/gctune.py)

    checkers: dict[str, DocumentChecker] = {}
    while True:
        try:
            msg = read_frame(requests)
        except (OSError, pickle.UnpicklingError, EOFError):
            return 1
        if msg is None:
            return 0  # the server went away
        req_id, op, payload = msg  # type: ignore[misc]
        if op == "forget":
            checkers.pop(payload["key"], None)
            continue
        if op == "files":
            from gradlint.project import forget_files

            forget_files(payload["paths"])
            continue
        arm(payload.get("limit"))
        try:
            if op == "check":
                checker = checkers.get(payload["key"])
                if checker is None or checker.path != payload["path"]:
                    checker = checkers[payload["key"]] = DocumentChecker(payload["path"], payload["config"])
                elif checker.config != payload["config"]:
                    checker.set_config(payload["config"])
                t0 = time.perf_counter()
                project = payload.get("project")
                if project is not None:
                    from gradlint.project import ProjectModules

                    project = ProjectModules(payload["path"], tuple(project["roots"]), project["texts"])
                diags = checker.check(payload["text"], project)
                value: object = (diags, time.perf_counter() - t0, checker.last_deps)
            elif op == "fix":
                value = fix_source(payload["text"], payload["path"], payload["config"])
            else:
                raise ValueError(f"unknown op {op!r}")
            reply = (req_id, True, value)
        except BaseException as exc:  # noqa: BLE001 - report anything, keep serving
            if isinstance(exc, KeyboardInterrupt):
                return 1
            reply = (req_id, False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}")
        finally:
            arm(None)
        try:
            replies.write(frame(reply))
            replies.flush()
        except OSError:
            return 0
        if op == "check":
            # off the latency path: collect what the check left behind, then freeze the
            # survivors (parsed units, recorded runs) so later collections skip them
            DocumentChecker.idle()


if __name__ == "__main__":
    sys.exit(main())
