"""The bounds that keep any input from hanging or killing gradlint.

A file is input like any other: a repository can hold a FIFO named `x.py`, a 2,000-deep
expression that overflows libcst's native parser, or a 10,000-term sum that libcst parses in
cubic time. Each kind has a bound here, and each bound ends in a clear finding rather than a
stall or a crash:

- reading (`read_regular`): only regular files are opened, never blocking, and at most
  MAX_READ_BYTES are read (GL003 says why otherwise);
- parsing (`screen`): a unit whose expressions nest or chain beyond what libcst parses
  quickly is not parsed (GL004 on the statement's line) and the rest of the file is analysed;
  so are the heaviest units of a file whose units together would take too long, and all of a
  file with more code to parse than MAX_PARSED_CHARS; when CPython itself rejects such a file
  (more than 200 nested brackets), the finding is its SyntaxError (GL001) instead;
- the C stack (`on_big_stack`): libcst runs in a thread with a large stack, so a deep form the
  screen does not foresee cannot overflow it either.

The time limit per file is enforced by the front ends: `watchdog.py` for `gradlint check`,
`server/linter.py` for the language server.
"""

from __future__ import annotations

import ast
import errno
import itertools
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from .diagnostics import Diagnostic, Position, Severity
from .rules.meta import SyntaxErrorRule, TooComplexToAnalyseRule, meta_diagnostic

T = TypeVar("T")

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
    kind = next((name for test, name in _KINDS if test(mode)), "an unusual kind of file")
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


# ---------------------------------------------------------------------------- parsing
# libcst's parse time grows with the *depth* of what it parses, not only its size: a sum of
# n terms is a left-nested tree of depth n and parses in ~n^2.8 (1,000 terms 1 s, 3,000 terms
# 30 s); nested calls, unary chains, lambdas, ternaries and attribute chains behave alike. So
# each statement gets a cheap estimate of that depth from its masked text (no strings or
# comments): the operators chained at one bracket level, plus the deepest bracket inside, plus
# one per bracket level. The estimate errs high (it counts `a*b + c*d` as 3 deep, not 2).
#
# Bounds, measured on libcst 1.9 (one core): at MAX_EXPRESSION the slowest form (a chain of
# `.f()` calls) parses in about 1 s and takes ~6 MB of C stack; real code stays far below (the
# deepest statement in 22 training repositories, 1,500 files, scores 21; in all of
# site-packages with torch, numpy and sympy, 132 MB, only two generated sympy tables pass 1,000
# and libcst needs 3 and 9 s for them). More than MAX_NESTING brackets is a SyntaxError in
# CPython ("too many nested parentheses"). A unit's statements above FLOOR add
# (score - FLOOR)^2 to its work, so that many statements just below the bound cannot add up to
# a stall either: MAX_UNIT_WORK is two statements at the bound, MAX_FILE_WORK four (beyond it,
# the units with the most work are kept out). Real code does no work at all by this measure.
MAX_NESTING = 200
MAX_EXPRESSION = 1000
FLOOR = 100
MAX_UNIT_WORK = 2 * (MAX_EXPRESSION - FLOOR) ** 2
MAX_FILE_WORK = 2 * MAX_UNIT_WORK
# Memory: libcst needs ~0.3-0.5 GB per MB it parses; the largest hand-written file we know of
# (torch's common_methods_invocations.py) is 1.4 MB.
MAX_PARSED_CHARS = 4_000_000


# Tokens of the masked text, one regex pass in C (this runs on every unit, so it is kept to a
# single character class plus two rarer forms): brackets, separators, operators, keywords
# that nest. A bracket right after a name or a closing bracket is a call or a subscript (one
# more level); `==`, `<`, `>=`... separate the operands of a flat comparison, like `,`.
_TOKENS = re.compile(
    r"<<|>>"  # shifts are binary operators; a lone < or > compares
    r"|[\w)\]}][(\[]"  # a call or subscript: the character before tells
    r"|[-+*/%@&|^~.,;=!<>()\[\]{}\n]"
    r"|(?<!\w)(?:and|or|not|lambda|await|if|else|yield)(?!\w)"  # `not not x`, `lambda: lambda: x`
)
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_SEPARATORS = frozenset(",;=!<>")


@dataclass(frozen=True)
class Excess:
    """Why a unit is not parsed: what exceeded which bound, and where (offset in the unit)."""

    what: str
    offset: int


def measure(code: str, located: bool = False) -> tuple[int, int, int, int]:
    """For masked code: (the deepest statement's score, that statement's offset, the unit's
    work, the offset where brackets first nest deeper than MAX_NESTING, or -1). Offsets are
    computed only when `located` (a second, slower pass for the units that exceed a bound)."""
    if located:
        tokens: Iterable[tuple[str, int]] = ((m.group(), m.start()) for m in _TOKENS.finditer(code))
    else:
        tokens = zip(_TOKENS.findall(code), itertools.repeat(0))
    stack: list[tuple[int, int, int]] = []
    # in the current bracket: operators of the current item, its deepest bracket, the deepest item
    ops = child = best = 0
    top = top_at = work = 0
    start = -1  # offset of the current statement's first token
    too_deep = -1
    for tok, at in tokens:
        c = tok[0]
        if len(tok) == 2 and tok[1] in "([":  # a call or a subscript: `f(`, `x[`, `)(`
            if c in _CLOSE and stack:
                inner = max(best, ops + child) + 1
                ops, child, best = stack.pop()
                if inner > child:
                    child = inner
            if start < 0:
                start = at
            stack.append((ops + 1, child, best))
            ops = child = best = 0
            if len(stack) > MAX_NESTING and too_deep < 0:
                too_deep = at + 1
        elif c in _SEPARATORS or (c == "\n" and not stack):
            if ops + child > best:
                best = ops + child
            ops = child = 0
            if not stack:  # the end of a statement, or of an assignment target
                if best > top:
                    top, top_at = best, max(start, 0)
                if best > FLOOR:
                    work += (best - FLOOR) ** 2
                best = 0
                if c == "\n":
                    start = -1
        elif c != "\n":
            if start < 0:
                start = at
            if c in _OPEN:
                stack.append((ops, child, best))
                ops = child = best = 0
                if len(stack) > MAX_NESTING and too_deep < 0:
                    too_deep = at
            elif c in _CLOSE:
                if stack:
                    inner = max(best, ops + child) + 1
                    ops, child, best = stack.pop()
                    if inner > child:
                        child = inner
            else:
                ops += 1
    while stack:  # unclosed brackets (a syntax error, or a unit split wrongly)
        inner = max(best, ops + child) + 1
        ops, child, best = stack.pop()
        if inner > child:
            child = inner
    last = max(best, ops + child)
    if last > top:
        top, top_at = last, max(start, 0)
    if last > FLOOR:
        work += (last - FLOOR) ** 2
    return top, top_at, work, too_deep


def excess(text: str) -> Excess | None:
    """Why libcst should not parse this unit, or None."""
    return _assess(text)[0]


def _assess(text: str) -> tuple[Excess | None, int]:
    """(why the unit is not to be parsed or None, its work). Cheap: a regex pass over the
    masked text (a unit shorter than FLOOR characters cannot score above it)."""
    if len(text) <= FLOOR:
        return None, 0
    known = _verdicts.get(text)
    if known is not None:
        return known
    from .prefilter import code_mask

    code = code_mask(text)
    top, top_at, work, too_deep = measure(code)
    if too_deep >= 0 or top > MAX_EXPRESSION or work > MAX_UNIT_WORK:
        top, top_at, work, too_deep = measure(code, located=True)
    if too_deep >= 0:
        verdict = Excess(f"brackets nested more than {MAX_NESTING} deep", too_deep)
    elif top > MAX_EXPRESSION:
        verdict = Excess(f"an expression chains or nests about {top:,} operations (the limit is {MAX_EXPRESSION:,})", top_at)
    elif work > MAX_UNIT_WORK:
        verdict = Excess(f"its expressions chain or nest hundreds of operations each, too many of them together "
                         f"(the deepest: about {top:,})", top_at)
    else:
        verdict = None
    _remember(text, (verdict, work))
    return verdict, work


def _heaviest_statement(text: str) -> int:
    """The offset of a unit's deepest statement."""
    from .prefilter import code_mask

    return measure(code_mask(text), located=True)[1]


# The language server re-checks a document on every edit: verdicts are kept by text (most
# recent last), up to VERDICT_CHARS characters of keys.
VERDICT_CHARS = 8_000_000
_verdicts: dict[str, tuple[Excess | None, int]] = {}
_verdict_chars = 0


def _remember(text: str, verdict: tuple[Excess | None, int]) -> None:
    global _verdict_chars
    _verdicts[text] = verdict
    _verdict_chars += len(text)
    while _verdict_chars > VERDICT_CHARS and len(_verdicts) > 1:
        old = next(iter(_verdicts))
        del _verdicts[old]
        _verdict_chars -= len(old)


@dataclass
class Screened:
    units: list  # the units to parse
    diagnostics: list[Diagnostic] = field(default_factory=list)  # GL004 for the others, or GL001
    syntax_error: bool = False  # CPython rejects the file: report `diagnostics` only
    complete: bool = True  # every unit is parsed (the engine may fall back to the whole file)


def screen(units: list, text: str, path: str, config, enabled) -> Screened:
    """Drop the units libcst should not parse, with a GL004 on each (on the offending
    statement's line). When any is dropped, CPython (linear, and it raises rather than
    crashes on depth) decides whether the file is valid at all: if not, its SyntaxError is the
    one finding (GL001), as for any file that does not parse."""
    keep, dropped, work = [], [], {}
    for u in units:
        why, work[id(u)] = _assess(u.text)
        if why is None:
            keep.append(u)
        else:
            dropped.append((u, why))
    total = sum(work[id(u)] for u in keep)
    if total > MAX_FILE_WORK:  # many heavy units, each within its bound: keep out the heaviest
        for u in sorted(keep, key=lambda u: -work[id(u)]):
            if total <= MAX_FILE_WORK:
                break
            total -= work[id(u)]
            keep.remove(u)
            dropped.append((u, Excess("this file has too many statements that chain or nest hundreds of operations "
                                      "(this one is among the heaviest)", _heaviest_statement(u.text))))
    size = sum(len(u.text) for u in keep)
    if size > MAX_PARSED_CHARS:
        why = Excess(f"{size / 1e6:,.1f} MB of code to parse, more than the limit ({MAX_PARSED_CHARS / 1e6:,.0f} MB); "
                     "generated code? exclude the file", 0)
        dropped = [(u, why) for u in keep][:1] + dropped
        keep = []
    if not dropped:
        return Screened(units)
    dropped.sort(key=lambda d: d[0].file_line(1))
    error = python_syntax_error(text)
    if error is not None:
        return Screened([], syntax_diagnostics(error, text, path, config, enabled), syntax_error=True, complete=False)
    diags = []
    for u, why in dropped:
        # on the offending statement's line, at its indentation
        bol = u.text.rfind("\n", 0, why.offset) + 1
        eol = u.text.find("\n", bol)
        line_text = u.text[bol : eol if eol >= 0 else len(u.text)]
        column = len(line_text) - len(line_text.lstrip())
        line = u.file_line(1 + u.text.count("\n", 0, bol))
        message = (f"not analysed: {why.what}; gradlint's parser would take too long or run out of stack on it, "
                   "so findings in this statement and those that depend on it are missing")
        if "GL004" in enabled:
            diags.append(meta_diagnostic(TooComplexToAnalyseRule, message, Position(line, column), Position(line, column), path, config, Severity.WARNING))
    return Screened(keep, diags, complete=False)


def python_syntax_error(text: str) -> SyntaxError | None:
    """CPython's verdict on `text`. Its parser is linear and refuses depth with an exception
    (too many nested parentheses, a parser stack overflow) rather than a crash."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return exc
    except (ValueError, MemoryError, RecursionError):
        return None  # a NUL byte, or too deep for CPython too: the screen's finding stands
    return None


def syntax_diagnostics(exc: SyntaxError, text: str, path: str, config, enabled) -> list[Diagnostic]:
    if "GL001" not in enabled:
        return []
    line = max(1, exc.lineno or 1)
    lines = text.splitlines()
    src = lines[line - 1] if line <= len(lines) else ""
    col = min(max(0, (exc.offset or 1) - 1), len(src))
    end = Position(line, min(len(src), col + 1)) if src else Position(line, col)
    kind = type(exc).__name__  # SyntaxError, IndentationError
    return [meta_diagnostic(SyntaxErrorRule, f"{kind}: {exc.msg}", Position(line, col), end, path, config)]


def too_complex(path: str, message: str, config=None, line: int = 1) -> Diagnostic:
    """A GL004 for a whole file (the CLI's time limit)."""
    from .config import Config

    return meta_diagnostic(TooComplexToAnalyseRule, message, Position(line, 0), Position(line, 0), path, config or Config(), Severity.WARNING)


# ---------------------------------------------------------------------------- the C stack
# libcst's native parser recurses in C once per nesting level, ~6 KB a level for parentheses:
# the 8 MB main-thread stack ends near 1,400 levels with SIGSEGV (no exception, no message).
# The screen keeps the forms we know far below that; running the parse on a thread with a
# large stack (reserved, not committed: untouched pages cost nothing) covers the ones it does
# not know. A thread per file costs ~0.1 ms.
STACK_BYTES = 256 * 1024 * 1024
_local = threading.local()


def on_big_stack(fn: Callable[..., T], *args, **kwargs) -> T:
    """`fn(*args, **kwargs)` on a thread with a STACK_BYTES stack (on this one where such a
    thread cannot be made, or when already on one)."""
    if getattr(_local, "big", False):
        return fn(*args, **kwargs)
    box: dict = {}

    def run() -> None:
        _local.big = True
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = exc

    try:
        old = threading.stack_size(STACK_BYTES)
    except (ValueError, RuntimeError):  # a platform without settable stacks
        return fn(*args, **kwargs)
    try:
        worker = threading.Thread(target=run, name="gradlint-parse", daemon=True)
        worker.start()
    except (RuntimeError, MemoryError):  # no room for the stack: parse where we are
        return fn(*args, **kwargs)
    finally:
        threading.stack_size(old)
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
