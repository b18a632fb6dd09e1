"""Safe fixes on real code: apply every safe fix gradlint offers to every file of a tree of real
repositories, then check that the result parses and that checking it again finds nothing new
(a rewritten value that is later backpropagated or used as a tensor would show up as a new
finding). Nothing is written back: the fixed text stays in memory.

usage: python benchmarks/safe_fixes_real.py TREES [--show]
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

from gradlint.engine import check_source, fix_source


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees")
    ap.add_argument("--show", action="store_true", help="print every fixed file and what changed")
    args = ap.parse_args(argv)
    files = fixed_files = edits = broken = new_findings = 0
    for path in sorted(Path(args.trees).rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
            ast.parse(text)
        except (UnicodeDecodeError, SyntaxError, ValueError):
            continue
        files += 1
        fixed, n = fix_source(text, str(path))
        if n == 0:
            continue
        fixed_files += 1
        edits += n
        try:
            ast.parse(fixed)
        except SyntaxError as exc:
            broken += 1
            print(f"DOES NOT PARSE after --fix: {path}: {exc}")
            continue
        before = {(d.code, d.message.split(":")[0]) for d in check_source(text, str(path))}
        after = [d for d in check_source(fixed, str(path)) if (d.code, d.message.split(":")[0]) not in before]
        new_findings += len(after)
        for d in after:
            print(f"NEW FINDING after --fix: {path}:{d.start.line}: {d.code} {d.message[:120]}")
        if args.show:
            print(f"fixed {path}: {n} edit(s)")
    print(f"{files} files, {fixed_files} with safe fixes ({edits} edits); {broken} do not parse after the fix, "
          f"{new_findings} new findings after the fix")
    return 1 if broken or new_findings else 0


if __name__ == "__main__":
    sys.exit(main())
