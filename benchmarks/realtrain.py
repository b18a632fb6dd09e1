"""Precision on real training repositories: run gradlint, match every finding with a review.

usage: python benchmarks/realtrain.py TREES [--review TSV ...] [--gradlint CMD] [--json OUT]
                                            [--out FINDINGS.json] [--project]

TREES holds one directory per repository (`owner+name`), e.g. the 22 repositories listed in
../shared/realtrain/REPOS.tsv, brought with `fetch` and extracted at the listed commits (.py
files only; nothing of them is committed here). Reviews are TSV files with the columns
`repo file line code verdict [why]` (verdict: TP | FP | debatable | other); by default
../shared/realtrain/REVIEW.tsv (the review of 2465d6b) and benchmarks/realtrain_review.tsv
(findings reviewed since, with the reason). A finding matches a review row when repo, file and
code agree and the line is within 2 (the same rule as ../shared/tools/review_eval.py).

Prints the findings by verdict and rule, precision = TP / (TP + FP) over reviewed autograd
findings (GL0xx excluded), the known false positives still flagged, the known true positives
lost, and every finding nobody has reviewed yet, which must be reviewed before a number is
quoted.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_REVIEWS = [HERE.parents[1] / "shared" / "realtrain" / "REVIEW.tsv", HERE / "realtrain_review.tsv"]


def load_reviews(paths: list[Path]) -> list[dict]:
    rows = []
    for p in paths:
        if not p.is_file():
            continue
        with p.open(newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                r["source"] = p.name
                rows.append(r)
    return rows


def run(trees: Path, cmd: list[str], extra: tuple[str, ...] = ()) -> tuple[list[dict], float]:
    dirs = sorted(str(d) for d in trees.iterdir() if d.is_dir())
    t0 = time.perf_counter()
    res = subprocess.run(cmd + ["check", *extra, "--no-cache", "--output-format", "json", "--exit-zero", *dirs],
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        return json.loads(res.stdout or "[]"), wall
    except json.JSONDecodeError:
        sys.exit(f"gradlint did not print JSON (exit {res.returncode}): {res.stderr[-2000:]}")


def key_of(d: dict, root: Path) -> tuple[str, str, int, str]:
    rel = os.path.relpath(os.path.abspath(d["filename"]), root).replace(os.sep, "/")
    repo, _, f = rel.partition("/")
    return repo, f, d["location"]["row"], d["code"]


def match(r: dict, x: tuple) -> bool:
    return r["repo"] == x[0] and r["file"] == x[1] and r["code"] == x[3] and abs(int(r["line"]) - x[2]) <= 2


def evaluate(findings: list[dict], root: Path, reviews: list[dict]) -> dict:
    rows = []
    for d in findings:
        x = key_of(d, root)
        verdicts = [r for r in reviews if match(r, x)]
        # the newest review wins (ours come after the shared one)
        v = verdicts[-1]["verdict"] if verdicts else None
        rows.append({"repo": x[0], "file": x[1], "line": x[2], "code": x[3], "verdict": v,
                     "message": d.get("message", ""), "why": verdicts[-1].get("why", "") if verdicts else ""})
    found_keys = [(r["repo"], r["file"], r["line"], r["code"]) for r in rows]
    fp_left = [r for r in reviews if r["verdict"] == "FP" and r["source"] == "REVIEW.tsv" and any(match(r, x) for x in found_keys)]
    tp_lost = [r for r in reviews if r["verdict"] == "TP" and not any(match(r, x) for x in found_keys)]
    return {"rows": rows, "fp_left": fp_left, "tp_lost": tp_lost}


def report(ev: dict, wall: float) -> str:
    rows = [r for r in ev["rows"] if not r["code"].startswith("GL0")]
    out = []
    by = collections.Counter(r["verdict"] or "unreviewed" for r in rows)
    tp, fp = by.get("TP", 0), by.get("FP", 0)
    out.append(f"autograd findings: {len(rows)}  " + "  ".join(f"{k}: {v}" for k, v in sorted(by.items())))
    if tp + fp:
        out.append(f"precision TP/(TP+FP) = {tp}/{tp + fp} = {tp / (tp + fp):.1%}" + ("  (unreviewed findings remain: review them)" if by.get("unreviewed") else ""))
    per_rule = collections.defaultdict(collections.Counter)
    for r in rows:
        per_rule[r["code"]][r["verdict"] or "unreviewed"] += 1
    for code in sorted(per_rule):
        out.append(f"  {code}: " + ", ".join(f"{k} {v}" for k, v in sorted(per_rule[code].items())))
    meta = [r for r in ev["rows"] if r["code"].startswith("GL0")]
    out.append(f"GL0xx findings: {len(meta)} " + str(dict(collections.Counter(r['code'] for r in meta))))
    out.append(f"known false positives (2465d6b review) still flagged: {len(ev['fp_left'])}")
    for r in ev["fp_left"]:
        out.append(f"  FP still flagged: {r['repo']}/{r['file']}:{r['line']} {r['code']}")
    out.append(f"known true positives lost: {len(ev['tp_lost'])}")
    for r in ev["tp_lost"]:
        out.append(f"  TP lost: {r['repo']}/{r['file']}:{r['line']} {r['code']}")
    for r in rows:
        if r["verdict"] is None:
            out.append(f"  unreviewed: {r['repo']}\t{r['file']}\t{r['line']}\t{r['code']}\t{r['message'][:160]}")
    out.append(f"wall time (one gradlint run over all trees, no cache): {wall:.2f} s")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees", type=Path)
    ap.add_argument("--review", type=Path, action="append", help="review TSV (repeatable)")
    ap.add_argument("--gradlint", default=f"{sys.executable} -m gradlint")
    ap.add_argument("--json", type=Path, help="write the matched findings here")
    ap.add_argument("--project", action="store_true", help="check each repository in its project (`gradlint check --project`)")
    args = ap.parse_args(argv)
    cmd = args.gradlint.split()
    if os.path.exists(cmd[0]):
        cmd[0] = os.path.abspath(cmd[0])
    findings, wall = run(args.trees, cmd, ("--project",) if args.project else ())
    ev = evaluate(findings, args.trees.resolve(), load_reviews(args.review or DEFAULT_REVIEWS))
    print(report(ev, wall))
    if args.json:
        args.json.write_text(json.dumps(ev["rows"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
