"""`python -m gradlint_server [--tcp PORT]`: the language server without the gradlint CLI."""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    # `-m` put the working directory (an editor's workspace) first on sys.path: a workspace with
    # its own `gradlint/` must not be imported, let alone run, in place of the linter
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]

import argparse  # noqa: E402

from .cli import add_arguments, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gradlint lsp", description="gradlint's language server")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
