"""The bounds that keep any input from hanging or killing gradlint.

A file is input like any other: a repository can hold a FIFO named `x.py`, a 2,000-deep
expression that overflows libcst's native parser, or a 10,000-term sum that libcst parses in
cubic time. Each kind has a bound here, and each bound ends in a clear finding rather than a
stall or a crash:

- reading (`read_regular`): only regular files are opened, never blocking, and at most
  MAX_READ_BYTES are read (GL003 says why otherwise);
- parsing (`screen`, in `complexity.py`'s terms): a unit whose expressions are nested or
  chained beyond what libcst parses quickly is not parsed (GL004 on its line), and the rest of
  the file is analysed; so is a file whose parsed code would exceed MAX_PARSED_CHARS;
- the C stack (`parse_module`): libcst runs in a thread with a large stack, so a deep form the
  screen does not foresee cannot overflow it either.

The wall clock per file is the CLI's (`watchdog.py`), the server's is `server/linter.py`'s.
"""

from __future__ import annotations

import errno
import os
import stat

# Reading: a source file beyond this is not text anyone maintains (and reading it whole would
# cost its size in memory before anything else could refuse it).
MAX_READ_BYTES = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _not_regular(mode: int) -> OSError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    hint = " (`gradlint check -` reads standard input)" if stat.S_ISFIFO(mode) else ""
    return OSError(errno.EINVAL, f"{kind}, not a regular file: gradlint reads only regular files{hint}")


def read_regular(path: str, limit: int = MAX_READ_BYTES) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file and its stat; OSError (with a message fit for GL003) for
    anything else. A FIFO would block `open()` until a writer appears and `/dev/zero` never
    ends, so the path is stat-ed first, opened non-blocking (it may have been swapped for a
    FIFO meanwhile) and the open file checked again."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(st.st_mode)
    if st.st_size > limit:
        raise _too_large(st.st_size, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with open(fd, "rb", closefd=True) as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(st.st_mode)
        data = fh.read(limit + 1)  # the file may have grown since the stat
    if len(data) > limit:
        raise _too_large(len(data), limit)
    return data, st


def _too_large(size: int, limit: int) -> OSError:
    return OSError(errno.EFBIG, f"{size / 1e6:,.1f} MB is more than gradlint reads ({limit / 1e6:,.0f} MB)")
