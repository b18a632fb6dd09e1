"""Recall on positive/ and false alarms on negative/ of a labelled pitfall corpus.

usage: python benchmarks/corpus_eval.py CORPUS_DIR [--verbose] [--json] [--exhaustive]

A positive file names its expected line in a header comment (`# expect: line N — ...`); it is
found when a diagnostic starts within one line of N. A negative file (`negative/`) is a false
alarm when any diagnostic is reported on it. GL001/GL002/GL003 count as failures too: a
positive is not "found" by a syntax error, and a GL002 on a negative is an alarm.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradlint.engine import check_source  # noqa: E402

EXPECT = re.compile(r"^#\s*expect:\s*line\s+(\d+)", re.M)
FAMILY = re.compile(r"^#\s*family:\s*(\w+)", re.M)


def evaluate(corpus: Path, exhaustive: bool = False) -> dict:
    results = {"positive": [], "negative": []}
    for kind in ("positive", "negative"):
        folder = corpus / kind
        if not folder.is_dir():
            continue
        for f in sorted(folder.glob("*.py")):
            text = f.read_text(encoding="utf-8")
            fam = FAMILY.search(text)
            t0 = time.perf_counter()
            diags = check_source(text, str(f), exhaustive=exhaustive)
            dt = time.perf_counter() - t0
            entry = {
                "file": f.name,
                "family": fam.group(1) if fam else "?",
                "diagnostics": [(d.start.line, d.code, d.message) for d in diags],
                "seconds": dt,
            }
            if kind == "positive":
                m = EXPECT.search(text)
                expected = int(m.group(1)) if m else None
                entry["expected"] = expected
                entry["found"] = expected is not None and any(
                    abs(line - expected) <= 1 and not code.startswith("GL00") for line, code, _ in entry["diagnostics"]
                )
            else:
                entry["alarm"] = bool(diags)
            results[kind].append(entry)
    return results


def summarize(results: dict) -> dict:
    pos = results["positive"]
    neg = results["negative"]
    by_family: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in pos:
        by_family[e["family"]][1] += 1
        by_family[e["family"]][0] += int(e["found"])
    neg_family: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in neg:
        neg_family[e["family"]][1] += 1
        neg_family[e["family"]][0] += int(e["alarm"])
    found = sum(e["found"] for e in pos)
    alarms = sum(e["alarm"] for e in neg)
    return {
        "positives": len(pos),
        "found": found,
        "recall": found / len(pos) if pos else 0.0,
        "negatives": len(neg),
        "false_alarms": alarms,
        "by_family": {k: {"found": v[0], "total": v[1]} for k, v in sorted(by_family.items())},
        "alarms_by_family": {k: {"alarms": v[0], "total": v[1]} for k, v in sorted(neg_family.items())},
        "extra_findings_on_positives": sum(
            sum(1 for line, code, _ in e["diagnostics"] if e["expected"] is None or abs(line - e["expected"]) > 1) for e in pos
        ),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--verbose", "-v", action="store_true", help="list every file")
    ap.add_argument("--json", action="store_true", help="print the full results as JSON")
    ap.add_argument("--exhaustive", action="store_true", help="skip the cheap first pass")
    args = ap.parse_args(argv)
    results = evaluate(args.corpus, exhaustive=args.exhaustive)
    summary = summarize(results)
    if args.json:
        print(json.dumps({"summary": summary, "results": results}, indent=2))
        return 0
    if args.verbose:
        for e in results["positive"]:
            mark = "ok  " if e["found"] else "MISS"
            got = ", ".join(f"{line}:{code}" for line, code, _ in e["diagnostics"]) or "-"
            print(f"{mark} {e['file']:<55} expect {e['expected']:<4} got {got}")
        for e in results["negative"]:
            mark = "ALARM" if e["alarm"] else "ok   "
            got = ", ".join(f"{line}:{code}" for line, code, _ in e["diagnostics"]) or "-"
            print(f"{mark} {e['file']:<55} got {got}")
        print()
    print(f"positives: {summary['found']}/{summary['positives']} found (recall {summary['recall']:.1%})")
    for fam, v in summary["by_family"].items():
        print(f"  family {fam}: {v['found']}/{v['total']}")
    print(f"negatives: {summary['false_alarms']}/{summary['negatives']} with a false alarm")
    for fam, v in summary["alarms_by_family"].items():
        if v["alarms"]:
            print(f"  family {fam}: {v['alarms']}/{v['total']}")
    print(f"other findings on positive files (not at the expected line): {summary['extra_findings_on_positives']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
