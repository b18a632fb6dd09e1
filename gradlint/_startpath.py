"""`python -m gradlint ...`: take the working directory off sys.path before gradlint imports
anything else. `-m` puts it first, so a repository checked in CI, or a folder an editor opened,
would shadow every module imported from here on (`json.py`, `dataclasses.py`...).

Best effort only (docs/security.md): a `gradlint/` there has already replaced this package, and
what Python imported before gradlint started (`runpy` on 3.10, `types` on 3.12+) was looked up
there too. The `gradlint` console script never has the directory on its path.

Imported first by gradlint/__init__.py, so it must import nothing that Python has not loaded at
start-up: `sys` is built in, `os` was loaded by `site` (no `from __future__` either: that
imports a module too).
"""

import os
import sys


def main_module(orig_argv: list) -> "str | None":
    """The NAME of `python [options] -m NAME ...` in a command line as given (sys.orig_argv,
    Python 3.10+), or None when Python runs a script, `-c` or stdin."""
    args = iter(orig_argv[1:])
    for arg in args:
        if arg == "--check-hash-based-pycs":
            next(args, None)  # the one long option with a value
            continue
        if arg.startswith("--"):
            continue
        if not arg.startswith("-") or arg == "-":
            return None  # a script (or stdin): no -m
        for i, flag in enumerate(arg[1:], 1):  # short options may be clustered: -Bm NAME
            if flag == "m":
                return arg[i + 1:] or next(args, None)
            if flag == "c":
                return None
            if flag in "XW":  # a value follows: the rest of this argument, or the next one
                if i == len(arg) - 1:
                    next(args, None)
                break
    return None


def drop_start_dir(package_file: str) -> None:
    """Called while `python -m gradlint[.x]` locates its module (sys.argv[0] is then "-m").
    Not for another module that imports gradlint from its package's __init__ while being
    located: that program may rely on the directory being there."""
    if sys.argv[:1] != ["-m"] or not sys.path:
        return
    name = main_module(list(getattr(sys, "orig_argv", [])))
    if name is None or name.split(".")[0] != "gradlint":
        return
    first = os.path.realpath(sys.path[0] or os.curdir)
    here = os.path.dirname(os.path.dirname(os.path.realpath(package_file)))
    if first == os.path.realpath(os.getcwd()) and first != here:  # not a source checkout
        del sys.path[0]
