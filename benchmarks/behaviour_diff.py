"""Behaviour diff: what two versions of gradlint report and fix, compared byte for byte.

usage: python benchmarks/behaviour_diff.py A B [--realtrain DIR] [--realcode DIR] [--shared-corpus DIR]
                                                [--only NAME,...] [--jobs N] [--no-cache]

A and B are commits (anything `git rev-parse` accepts: 2465d6b, HEAD, main) or directories
holding a gradlint checkout (a worktree, with its uncommitted changes). A commit is
materialised with `git archive` into a temporary directory (read-only for the repository: no
worktree is added). Each side runs as `python -m gradlint` with *its own* source first on
PYTHONPATH (checked: the script stops if the interpreter imports gradlint from elsewhere).

Inputs, copied once into a scratch tree so that both sides see the same paths and no
configuration (an empty pyproject.toml is passed with --config):
  shared-corpus   ../shared/corpus (the pitfall corpus)             --shared-corpus, skipped if absent
  tests-corpus    tests/corpus (the held-out corpus)                from B (A's files where B has none)
  examples        examples/                                         from B (then A)
  rule-examples   every rule's valid/invalid examples, as files     from both sides (union by content)
  fixtures        tests/rules/fixtures/                             from B (then A)
  realtrain       the 22 real training repositories                 --realtrain, skipped if absent
  realcode        the 2.4 M-line real-code corpus (fetch_realcode.sh) --realcode, skipped if absent

For each side it records
  check   `gradlint check --output-format json` over all inputs: every diagnostic's code,
          name, severity, file, range, message and fix (the url is left out: it is a setting);
  fix     `gradlint check --fix --unsafe-fixes --output-format json` on a private copy: the
          bytes of every file afterwards, the remaining diagnostics and the exit code;
  rules   `gradlint rules --output-format json` (names, messages, fix kinds).

It prints a summary and every difference, grouped by file and rule code (`+` only in B,
`-` only in A; fixed files as unified diffs), and exits 1 if there is any difference, 0 if
none, 2 if a side could not run. The results of a *commit* are cached under
~/.cache/gradlint-behaviour-diff (keyed by the commit and the inputs' content), so comparing
a fixed baseline against successive versions costs one run per version (--no-cache: always
run).
"""

from __future__ import annotations

import argparse
import collections
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_REALTRAIN = Path(os.environ.get("GRADLINT_REALTRAIN", "/work/realtrain/trees"))
DEFAULT_REALCODE = Path(os.environ.get("GRADLINT_REALCODE", "/work/realcode")) / "corpus"
DEFAULT_SHARED = REPO.parent.parent / "shared" / "corpus" if (REPO.parent.parent / "shared").is_dir() else Path("/work/shared/corpus")
CACHE_ROOT = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gradlint-behaviour-diff"
FORMAT = 1  # bump when what is recorded changes

# Writes the rule examples of the gradlint on sys.path into argv[1], one file per example.
EXAMPLES_SCRIPT = r"""
import hashlib, sys
from pathlib import Path
from gradlint.rules.base import all_rules, dedent, examples_of
out = Path(sys.argv[1])
for rule in all_rules():
    valid, invalid = examples_of(rule)
    for kind, items in (("valid", valid), ("invalid", invalid)):
        for ex in items:
            code = dedent(ex.code)
            digest = hashlib.sha1(code.encode()).hexdigest()[:10]
            (out / f"{rule.code}-{kind}-{digest}.py").write_text(code, encoding="utf-8")
"""

PROBE_SCRIPT = "import gradlint, sys; sys.stdout.write(gradlint.__file__)"


class SideError(Exception):
    """A side could not be materialised or run."""


# ----------------------------------------------------------------------------- sides
class Side:
    """One version of gradlint: a directory holding its source, and the commit if any."""

    def __init__(self, spec: str, scratch: Path, label: str) -> None:
        self.spec = spec
        self.label = label
        path = Path(spec)
        if path.is_dir() and (path / "gradlint" / "__init__.py").is_file():
            self.root = path.resolve()
            self.commit = None  # a working tree: never cached (it may have uncommitted edits)
            return
        try:
            self.commit = subprocess.run(
                ["git", "-C", str(REPO), "rev-parse", "--verify", spec + "^{commit}"],
                check=True, capture_output=True, text=True,
            ).stdout.strip()
        except subprocess.CalledProcessError as exc:
            raise SideError(f"{spec!r} is neither a gradlint directory nor a commit: {exc.stderr.strip()}") from None
        self.root = scratch / f"src-{label}"
        self.root.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", self.commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(self.root)], input=archive, check=True)

    @property
    def name(self) -> str:
        return f"{self.label}={self.spec}" + (f" ({self.commit[:10]})" if self.commit and not self.commit.startswith(self.spec) else "")

    def env(self) -> dict:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("GRADLINT_DEBUG", None)
        env["NO_COLOR"] = "1"
        return env

    def python(self, args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, *args], cwd=cwd, env=self.env(), capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise SideError(f"{self.name}: {' '.join(args[:3])} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return proc

    def probe(self, cwd: Path) -> None:
        found = Path(self.python(["-c", PROBE_SCRIPT], cwd).stdout.strip()).resolve()
        if not found.is_relative_to(self.root):
            raise SideError(f"{self.name}: the interpreter imports gradlint from {found}, not from {self.root}")


# ----------------------------------------------------------------------------- inputs
def _copy_tree(src: Path, dst: Path) -> int:
    """Copy the .py files of `src` into `dst` (keeping the layout); returns how many."""
    n = 0
    for p in sorted(src.rglob("*.py")):
        if not p.is_file():
            continue
        target = dst / p.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, target)
        n += 1
    return n


def build_inputs(a: Side, b: Side, args, scratch: Path) -> tuple[Path, list[str], list[str]]:
    """The scratch tree every side checks; returns (root, groups present, notes)."""
    root = scratch / "inputs"
    root.mkdir()
    notes: list[str] = []
    groups: list[str] = []

    def want(name: str) -> bool:
        return not args.only or name in args.only

    if want("shared-corpus"):
        if args.shared_corpus.is_dir():
            _copy_tree(args.shared_corpus, root / "shared-corpus")
            groups.append("shared-corpus")
        else:
            notes.append(f"skipped shared-corpus: {args.shared_corpus} is absent")
    for group, rel in (("tests-corpus", "tests/corpus"), ("examples", "examples"), ("fixtures", "tests/rules/fixtures")):
        if not want(group):
            continue
        copied = 0
        for side in (b, a):  # B's files win: the inputs as of the newer version
            src = side.root / rel
            if not src.is_dir():
                continue
            for p in sorted(src.rglob("*.py")):
                target = root / group / p.relative_to(src)
                if target.exists():
                    if target.read_bytes() != p.read_bytes():
                        notes.append(f"{group}/{p.relative_to(src)} differs between the sides: B's copy is used")
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, target)
                copied += 1
        if copied:
            groups.append(group)
    if want("rule-examples"):
        out = root / "rule-examples"
        out.mkdir()
        for side in (a, b):
            side.python(["-c", EXAMPLES_SCRIPT, str(out)], scratch)
        groups.append("rule-examples")
    if want("realtrain"):
        if args.realtrain.is_dir():
            _copy_tree(args.realtrain, root / "realtrain")
            groups.append("realtrain")
        else:
            notes.append(f"skipped realtrain: {args.realtrain} is absent (--realtrain DIR)")
    if want("realcode"):
        if args.realcode.is_dir():
            _copy_tree(args.realcode, root / "realcode")
            groups.append("realcode")
        else:
            notes.append(f"skipped realcode: {args.realcode} is absent (--realcode DIR)")
    (scratch / "pyproject.toml").write_text("# no [tool.gradlint]: every rule, default settings\n", encoding="utf-8")
    return root, groups, notes


def inputs_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


# ----------------------------------------------------------------------------- runs
def _normalise(diags: list[dict], root: Path) -> list[dict]:
    prefix = str(root) + os.sep
    out = []
    for d in diags:
        d = {k: v for k, v in d.items() if k != "url"}
        fn = d.get("filename", "")
        if fn.startswith(prefix):
            d["filename"] = fn[len(prefix):]
        out.append(d)
    out.sort(key=lambda d: (d["filename"], d["location"]["row"], d["location"]["column"], d["code"], d["message"]))
    return out


def _json_or_fail(side: Side, proc: subprocess.CompletedProcess, what: str):
    if proc.returncode not in (0, 1):
        raise SideError(f"{side.name}: {what} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise SideError(f"{side.name}: {what} printed no JSON ({exc}):\n{proc.stdout[:500]}\n{proc.stderr[-2000:]}") from None


def run_side(side: Side, inputs: Path, groups: list[str], scratch: Path, jobs: int | None) -> dict:
    config = scratch / "pyproject.toml"
    common = ["--no-cache", "--config", str(config)] + (["--jobs", str(jobs)] if jobs else [])
    t0 = time.perf_counter()
    paths = [str(inputs / g) for g in groups]
    proc = side.python(["-m", "gradlint", "check", "--output-format", "json", *common, *paths], scratch, check=False)
    check = _normalise(_json_or_fail(side, proc, "check"), inputs)
    t_check = time.perf_counter() - t0

    work = scratch / f"fix-{side.label}"
    shutil.copytree(inputs, work)
    t0 = time.perf_counter()
    fpaths = [str(work / g) for g in groups]
    proc = side.python(
        ["-m", "gradlint", "check", "--fix", "--unsafe-fixes", "--output-format", "json", *common, *fpaths], scratch, check=False
    )
    remaining = _normalise(_json_or_fail(side, proc, "check --fix"), work)
    fixed: dict[str, str] = {}
    for p in sorted(work.rglob("*.py")):
        rel = str(p.relative_to(work))
        data = p.read_bytes()
        if data != (inputs / rel).read_bytes():
            fixed[rel] = data.decode("utf-8", errors="surrogateescape")
    t_fix = time.perf_counter() - t0
    shutil.rmtree(work, ignore_errors=True)

    rules = side.python(["-m", "gradlint", "rules", "--output-format", "json"], scratch).stdout
    return {
        "check": check,
        "fix_exit": proc.returncode,
        "fix_remaining": remaining,
        "fixed": fixed,
        "rules": json.loads(rules),
        "seconds": {"check": round(t_check, 1), "fix": round(t_fix, 1)},
    }


def cached_run(side: Side, inputs: Path, groups: list[str], scratch: Path, args) -> tuple[dict, bool]:
    key = None
    if side.commit and not args.no_cache:
        key = CACHE_ROOT / f"{side.commit}-{hashlib.sha256((inputs_digest(inputs) + ','.join(groups) + str(FORMAT)).encode()).hexdigest()[:20]}.json"
        if key.is_file():
            try:
                return json.loads(key.read_text(encoding="utf-8")), True
            except (OSError, json.JSONDecodeError):
                pass
    side.probe(scratch)
    result = run_side(side, inputs, groups, scratch, args.jobs)
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        tmp = key.with_suffix(".tmp")
        tmp.write_text(json.dumps(result), encoding="utf-8")
        tmp.replace(key)
    return result, False


# ----------------------------------------------------------------------------- report
def _fmt(d: dict) -> str:
    loc, end = d["location"], d["end_location"]
    fix = ""
    if d.get("fix"):
        f = d["fix"]
        edits = "; ".join(
            f"{e['location']['row']}:{e['location']['column']}-{e['end_location']['row']}:{e['end_location']['column']} {e['content']!r}"
            for e in f["edits"]
        )
        fix = f"\n          fix ({f['applicability']}): {f['message']} [{edits}]"
    return f"{loc['row']}:{loc['column']}-{end['row']}:{end['column']} {d['code']} {d['name']} ({d['severity']}) {d['message']}{fix}"


def diff_diagnostics(a: list[dict], b: list[dict], title: str, out: list[str]) -> int:
    """Print the diagnostics only in A (-) or only in B (+), grouped by file and code."""
    key = lambda d: json.dumps(d, sort_keys=True)  # noqa: E731
    ca = collections.Counter(key(d) for d in a)
    cb = collections.Counter(key(d) for d in b)
    only_a = ca - cb
    only_b = cb - ca
    if not only_a and not only_b:
        return 0
    by_file: dict[str, dict[str, list[tuple[str, dict]]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    for sign, counter in (("-", only_a), ("+", only_b)):
        for k, n in counter.items():
            d = json.loads(k)
            for _ in range(n):
                by_file[d["filename"]][d["code"]].append((sign, d))
    count = sum(only_a.values()) + sum(only_b.values())
    out.append(f"\n== {title}: {sum(only_a.values())} only in A (-), {sum(only_b.values())} only in B (+), in {len(by_file)} files")
    for fn in sorted(by_file):
        out.append(f"  {fn}")
        for code in sorted(by_file[fn]):
            items = sorted(by_file[fn][code], key=lambda sd: (sd[1]["location"]["row"], sd[1]["location"]["column"], sd[0] == "+"))
            out.append(f"    {code}: " + ", ".join(f"{s}{len([1 for x in items if x[0] == s])}" for s in "-+" if any(x[0] == s for x in items)))
            for sign, d in items:
                out.append(f"      {sign} {_fmt(d)}")
    return count


def diff_fixed(a: dict, b: dict, inputs: Path, out: list[str]) -> int:
    files = sorted(set(a) | set(b))
    differing = [f for f in files if a.get(f) != b.get(f)]
    if not differing:
        return 0
    out.append(f"\n== --fix --unsafe-fixes: {len(differing)} files end up different")
    for f in differing:
        orig = (inputs / f).read_text(encoding="utf-8", errors="surrogateescape")
        ta, tb = a.get(f, orig), b.get(f, orig)
        out.append(f"  {f}  (A {'changed it' if f in a else 'left it as is'}, B {'changed it' if f in b else 'left it as is'})")
        for line in difflib.unified_diff(ta.splitlines(), tb.splitlines(), "A/" + f, "B/" + f, lineterm="", n=2):
            out.append("    " + line)
    return len(differing)


def diff_rules(a: list, b: list, out: list[str]) -> int:
    ka = {r["code"]: r for r in a}
    kb = {r["code"]: r for r in b}
    lines = []
    for code in sorted(set(ka) | set(kb)):
        if ka.get(code) != kb.get(code):
            lines.append(f"  {code}: A {json.dumps(ka.get(code), sort_keys=True)}\n  {' ' * len(code)}  B {json.dumps(kb.get(code), sort_keys=True)}")
    if lines:
        out.append(f"\n== `gradlint rules`: {len(lines)} rules differ")
        out.extend(lines)
    return len(lines)


def _per_group(diags: list[dict]) -> collections.Counter:
    return collections.Counter(d["filename"].split(os.sep, 1)[0] for d in diags)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="baseline: a commit or a gradlint directory")
    ap.add_argument("b", help="candidate: a commit or a gradlint directory")
    ap.add_argument("--realtrain", type=Path, default=DEFAULT_REALTRAIN, help=f"the real training repositories (default {DEFAULT_REALTRAIN})")
    ap.add_argument("--realcode", type=Path, default=DEFAULT_REALCODE, help=f"the real-code corpus (default {DEFAULT_REALCODE})")
    ap.add_argument("--shared-corpus", type=Path, default=DEFAULT_SHARED, help=f"the pitfall corpus (default {DEFAULT_SHARED})")
    ap.add_argument("--only", type=lambda s: [x.strip() for x in s.split(",") if x.strip()], default=None,
                    help="input groups to use: shared-corpus,tests-corpus,examples,rule-examples,fixtures,realtrain,realcode")
    ap.add_argument("--jobs", type=int, default=None, help="gradlint worker processes (default: gradlint's)")
    ap.add_argument("--no-cache", action="store_true", help="run a commit even when its results are cached")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory (printed)")
    args = ap.parse_args(argv)

    scratch = Path(tempfile.mkdtemp(prefix="gradlint-bdiff-"))
    try:
        try:
            a = Side(args.a, scratch, "A")
            b = Side(args.b, scratch, "B")
            inputs, groups, notes = build_inputs(a, b, args, scratch)
            n_files = sum(1 for _ in inputs.rglob("*.py"))
            print(f"A: {a.name}  [{a.root}]")
            print(f"B: {b.name}  [{b.root}]")
            print(f"inputs: {n_files} files in {', '.join(groups)}")
            for note in notes:
                print(f"  note: {note}")
            results = {}
            for side in (a, b):
                res, hit = cached_run(side, inputs, groups, scratch, args)
                results[side.label] = res
                how = "cached" if hit else f"check {res['seconds']['check']} s, fix {res['seconds']['fix']} s"
                print(f"{side.label}: {len(res['check'])} diagnostics, {len(res['fixed'])} files changed by --fix ({how})")
        except SideError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        ra, rb = results["A"], results["B"]
        out: list[str] = []
        n = diff_diagnostics(ra["check"], rb["check"], "check --output-format json", out)
        n += diff_fixed(ra["fixed"], rb["fixed"], inputs, out)
        n += diff_diagnostics(ra["fix_remaining"], rb["fix_remaining"], "diagnostics left after --fix --unsafe-fixes", out)
        if ra["fix_exit"] != rb["fix_exit"]:
            out.append(f"\n== --fix exit code: A {ra['fix_exit']}, B {rb['fix_exit']}")
            n += 1
        n += diff_rules(ra["rules"], rb["rules"], out)
        print("\nper input group (A / B diagnostics):")
        ga, gb = _per_group(ra["check"]), _per_group(rb["check"])
        for g in groups:
            print(f"  {g:<14} {ga.get(g, 0):>6} / {gb.get(g, 0):<6}{'' if ga.get(g, 0) == gb.get(g, 0) else '  <- differs'}")
        print("\n".join(out))
        print(f"\n{'no differences' if n == 0 else f'{n} differences'} between A and B")
        return 1 if n else 0
    finally:
        if args.keep:
            print(f"scratch kept: {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
