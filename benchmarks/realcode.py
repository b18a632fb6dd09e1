"""Run gradlint over the real-code corpus: files, lines, findings by rule, GL001/GL002, time.

usage: python benchmarks/realcode.py CORPUS [--jobs N] [--exhaustive] [--compare] [--findings FILE]

CORPUS is the tree rebuilt by ../shared/tools/fetch_realcode.sh (about 6,700 files, 2.4 M
lines). --compare also runs the exhaustive path (every chunk of every file with
differentiation evidence) and reports any file where the findings differ: the narrowing must
lose nothing. --findings writes every finding as `path:line:col: CODE message`.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradlint.engine import check_source_full  # noqa: E402
from gradlint.source import DecodeError, decode_source  # noqa: E402


def _key(diags):
    return sorted((d.code, d.start.line, d.start.column, d.message) for d in diags)


def _check(args):
    path, exhaustive, compare = args
    t0 = time.process_time()
    try:
        text = decode_source(Path(path).read_bytes())
    except (OSError, DecodeError) as exc:
        return path, 0, [], f"unreadable: {exc}", 0.0, None, 0
    res = check_source_full(text, path, exhaustive=exhaustive)
    dt = time.process_time() - t0
    mismatch = None
    if compare and not res.skipped:
        full = check_source_full(text, path, exhaustive=True)
        if _key(full.diagnostics) != _key(res.diagnostics):
            mismatch = (_key(res.diagnostics), _key(full.diagnostics))
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    diags = [(d.code, d.start.line, d.start.column, d.message) for d in res.diagnostics]
    return path, lines, diags, None, dt, mismatch, res.timings.get("parsed_lines", 0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--exhaustive", action="store_true", help="no narrowing (every chunk of gated files)")
    ap.add_argument("--compare", action="store_true", help="also run the exhaustive path and diff")
    ap.add_argument("--findings", type=Path, help="write all findings to this file")
    args = ap.parse_args(argv)
    files = sorted(str(p) for p in args.corpus.rglob("*.py"))
    t0 = time.perf_counter()
    counts: collections.Counter = collections.Counter()
    total_lines = parsed_lines = 0
    cpu = 0.0
    mismatches = []
    unreadable = []
    out = open(args.findings, "w") if args.findings else None
    work = [(f, args.exhaustive, args.compare) for f in files]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for path, lines, diags, err, dt, mismatch, plines in pool.map(_check, work, chunksize=16):
            total_lines += lines
            parsed_lines += plines
            cpu += dt
            if err:
                unreadable.append((path, err))
            if mismatch:
                mismatches.append((path, mismatch))
            for code, line, col, msg in diags:
                counts[code] += 1
                if out:
                    out.write(f"{path}:{line}:{col + 1}: {code} {msg}\n")
    wall = time.perf_counter() - t0
    if out:
        out.close()
    n = sum(counts.values())
    print(f"files {len(files)}  lines {total_lines:,}  parsed lines {parsed_lines:,} ({parsed_lines / max(total_lines, 1):.1%})")
    print(f"wall {wall:.1f} s  cpu (workers) {cpu:.1f} s  {total_lines / wall:,.0f} lines/s  jobs {args.jobs}")
    print(f"findings {n}  ({1000 * n / max(total_lines, 1):.3f} per 1,000 lines)  GL001 {counts['GL001']}  GL002 {counts['GL002']}")
    for code, c in sorted(counts.items()):
        print(f"  {code} {c}")
    if unreadable:
        print(f"unreadable files: {len(unreadable)}")
    if args.compare:
        print(f"fast vs exhaustive mismatches: {len(mismatches)}")
        for path, (fast, full) in mismatches[:20]:
            print(f"  {path}\n    fast: {fast}\n    full: {full}")
    return 1 if (counts["GL002"] or mismatches) else 0


if __name__ == "__main__":
    raise SystemExit(main())
