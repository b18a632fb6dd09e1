"""The catalogue of real-world pitfalls: each kind mined into tests/realworld, how often, which rule.

usage: python benchmarks/catalogue.py            # print docs/catalogue.md
       python benchmarks/catalogue.py --write    # rewrite docs/catalogue.md, the rules' real-world
                                                 # sightings and the rule pages (docs/rules/)

Nothing in the page is typed by hand except the reasons below. Counts come from the INDEX.tsv of
both halves (only the metadata of the held-out half is read: its code stays unseen, so that it keeps
measuring rules that were not written against it). Which rule covers a kind is what the engine
reports on the *development* positives of that kind at their expected line; a kind no rule finds
there carries a reason (REASONS). tests/test_docs.py checks that the committed outputs are this
script's, and that every kind seen twice has a rule or a reason.
The same run lists, per rule, the threads it is seen in, for the "Seen in the real world" section
of its page (gradlint/rules/_real_world.py, read by Rule.page()).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gradlint.engine import check_source  # noqa: E402

REALWORLD = ROOT / "tests" / "realworld"
PAGE = ROOT / "docs" / "catalogue.md"
SIGHTINGS = ROOT / "gradlint" / "rules" / "_real_world.py"
MAX_SIGHTINGS = 5  # threads listed on a rule page
# a kind seen this often (both halves) must have a rule or a reason
MUST_EXPLAIN = 2

# Why no rule finds a kind: shown only while no rule finds any of the kind's development cases (a
# kind that gains a rule loses its reason from the page, and the entry may then be deleted). Two
# sorts, told apart on the page: a limit of static analysis (`limit`), and an open gap (`gap`): a
# rule meant for the kind that misses every development spelling, or none written yet.
def limit(why: str) -> tuple[str, str]:
    return ("limit", why)


def gap(rule: str | None, missed: str) -> tuple[str, str]:
    meant = f"{rule} is meant for it but finds none of the development cases" if rule else "no rule yet"
    return ("gap", f"{meant}: {missed}")


REASONS: dict[str, tuple[str, str]] = {
    "other-ddp-unused-parameters": limit(
        "a layer forward never calls is harmless until the model runs under DistributedDataParallel "
        "without find_unused_parameters, which is configured in another file or on the command line; "
        "`gradlint trace` GL601 reports parameters that got no gradient in a traced step"),
    "other-rnn-backward-in-eval": limit(
        "only cuDNN refuses backward through an RNN in eval mode (the same code trains on the CPU), and "
        "the mode is state set by calls far away; the error is immediate and names the remedy"),
    "frozen-but-trained": limit(
        "mostly intent the code cannot reveal: `.eval()` or `trainable = False` is also used on purpose "
        "(BatchNorm statistics, a GAN's combined model); the Keras spelling, `trainable` flipped after "
        "`compile()` with no recompile, is decidable and has no rule yet"),
    "jax-concretization": gap("GL121", "int()/range() of a traced count, `jnp.arange` over one, `if` on a staged comparison"),
    "jax-tracer-conversion": gap("GL121", "NumPy/SciPy called on tracers inside a helper, a Flax `__call__` or a custom JVP rule"),
    "inplace-on-leaf": gap("GL308", "slice assignment into `.weight`, `+=` on a `.view()` of a bias, in initialisation code"),
    "detach-on-loss-path": gap("GL103/GL105", "the detach sits in a helper or a GAN's generator branch"),
    "checkpoint-no-input-requires-grad": gap("GL503", "inputs frozen through a library (frozen embeddings, LoRA, open_clip blocks)"),
    "hidden-state-not-detached": gap("GL201", "a recurrent hidden state carried to the next step"),
    "float-equality-on-grads": gap("GL403", "`torch.allclose` with default tolerances, a difference expected to be exactly 0"),
    "grad-without-create-graph": gap("GL203", "a MAML inner step, `torch.autograd.functional.jacobian`"),
    "jax-inplace-update": gap("GL506", "fancy-index slice assignment, a discarded `jax.ops.index_update` result"),
    "inference-mode-tensor-in-training": gap("GL502", "an inference-mode estimate fed back into the training loss"),
    "data-mutation": gap("GL307", "`.weight.data` renormalised inside `forward`"),
    "fp16-without-scaler": gap("GL406", "`autocast()` without a dtype (float16 on CUDA)"),
    "retain-graph-in-loop": gap("GL202", "`retain_graph=True` on each layer's loss in a loop"),
    "func-transform-data-dependent": gap(None, "`.numpy()` or data-dependent control flow under `torch.func.vmap`"),
    "fp16-master-weights": gap(None, "`model.half()` trained by an optimizer on the float16 weights"),
    "no-grad-in-forward": gap(None, "`torch.no_grad()` inside `forward` around layers whose parameters are in the optimizer"),
    "missing-stop-gradient": limit(
        "whether a quantity must be a constant (GradNorm's target, the sample a score-function estimator "
        "scores) is the algorithm's intent: the same expression with and without `stop_gradient` are both "
        "correct programs of different methods"),
    "jax-tracer-leak": gap(None, "a traced value stored outside the transformed function (`global`, a `nondiff_argnums` array)"),
    "optimizer-created-in-step": gap(None, "an optimizer constructed inside the `tf.function` step that applies it"),
}
HELD_OUT_ONLY = ("held-out only", "seen only in the held-out half, whose code is not read here: no rule can be mapped to it")


@dataclass
class Case:
    split: str
    file: str
    url: str
    framework: str
    kind: str
    description: str


@dataclass
class Kind:
    name: str
    dev: int = 0
    heldout: int = 0
    frameworks: set[str] = field(default_factory=set)
    threads: set[str] = field(default_factory=set)
    found: int = 0  # development positives with a finding within one line of the expected line
    rules: Counter = field(default_factory=Counter)  # code -> development positives it finds

    @property
    def total(self) -> int:
        return self.dev + self.heldout


def read_index(split: str) -> list[Case]:
    """The positive rows of one half's INDEX.tsv (negatives are the accepted fixes, not pitfalls)."""
    with (REALWORLD / split / "INDEX.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [Case(split, r["file"], r["source URL"], r["framework"], r["kind"], r["short description"])
            for r in rows if r["file"].startswith("positive/")]


def expected_line(path: Path) -> int:
    """The `# expect: line N` of a development positive (tests/realworld/test_layout.py checks it)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# expect: line "):
            return int(line.split()[3])
    raise ValueError(f"{path}: no '# expect: line N' header")


def findings_near_expected_line(case: Case) -> tuple[bool, set[str]]:
    """Whether a rule reports on a development positive within one line of its expected line (the
    corpus criterion of benchmarks/corpus_eval.py: an expected line may be off by one in a
    multi-line statement), and the rules that report on that line itself. The kind is attributed
    only to the latter: a neighbouring line's finding is another pitfall (or a false alarm), and
    must not put its rule in the kind's row or the thread on its page. GL00x diagnostics are
    about gradlint itself and find nothing."""
    path = REALWORLD / case.split / case.file
    text = path.read_text(encoding="utf-8")
    want = expected_line(path)
    near = [d for d in check_source(text, str(path)) if abs(d.start.line - want) <= 1 and not d.code.startswith("GL00")]
    return bool(near), {d.code for d in near if d.start.line == want}


@dataclass
class Catalogue:
    kinds: list[Kind]
    sightings: dict[str, list[Case]]  # rule code -> development positives it finds, in file order


def build() -> Catalogue:
    kinds: dict[str, Kind] = {}
    sightings: dict[str, list[Case]] = defaultdict(list)
    for split in ("dev", "heldout"):
        for case in read_index(split):
            k = kinds.setdefault(case.kind, Kind(case.kind))
            setattr(k, split, getattr(k, split) + 1)
            k.frameworks.add(case.framework)
            k.threads.add(case.url)
            if split != "dev":
                continue  # the held-out code is never run here
            found, codes = findings_near_expected_line(case)
            k.found += found
            k.rules.update(codes)
            for code in codes:
                sightings[code].append(case)
    ordered = sorted(kinds.values(), key=lambda k: (-k.total, -k.dev, k.name))
    return Catalogue(ordered, {c: sorted(v, key=lambda c: c.file) for c, v in sorted(sightings.items())})


def reason(k: Kind) -> tuple[str, str] | None:
    """Why no rule finds the kind (None while a rule finds some of its development cases, or when
    no reason is written)."""
    if k.rules:
        return None
    if not k.dev:
        return HELD_OUT_ONLY
    return REASONS.get(k.name)


def unexplained(cat: Catalogue) -> list[str]:
    """Kinds seen at least MUST_EXPLAIN times with neither a rule nor a reason."""
    return [k.name for k in cat.kinds if k.total >= MUST_EXPLAIN and not k.rules and reason(k) is None]


# ------------------------------------------------------------------ rendering
def _rules_cell(k: Kind) -> str:
    return ", ".join(f"[{c}](rules/{c}.md)" + (f" ×{n}" if n > 1 else "") for c, n in sorted(k.rules.items()))


def render_page(cat: Catalogue) -> str:
    kinds = cat.kinds
    sorts = Counter("rule" if k.rules else (reason(k) or ("none", ""))[0] for k in kinds)
    dev = sum(k.dev for k in kinds)
    found = sum(k.found for k in kinds)
    out = [
        "# The catalogue of real-world pitfalls",
        "",
        "<!-- generated by `python benchmarks/catalogue.py --write`; do not edit -->",
        "",
        "Every pitfall kind in the threads, bug reports and fixing commits mined into `tests/realworld/`",
        "(the user's own code, with the URL it came from), most frequent first. *dev* and *held-out* count",
        "the positive cases of each half; the halves are split by URL before any rule is written, and only",
        "the held-out half's index is read here. *rules* are those that report on the development cases of",
        "the kind at the line the thread's answer points to (×N: on N cases); *dev recall* is the share of",
        "development cases with a finding within one line of it (the corpus criterion). A kind no rule",
        "finds says why: a **limit** of what the code can show, or a **gap**: a rule meant for the kind",
        "misses every development spelling, or none is written yet.",
        "",
        f"**{len(kinds)} kinds** in {sum(k.total for k in kinds)} cases ({dev} development, "
        f"{sum(k.heldout for k in kinds)} held out): {sorts['rule']} found by a rule, {sorts['limit']} a limit "
        f"of static analysis, {sorts['gap']} open gaps, {sorts['held-out only']} seen only in the held-out half, {sorts['none']} seen once with neither a rule nor a "
        f"reason. Development recall over all kinds: {found}/{dev}.",
        "",
        "| kind | dev | held-out | frameworks | rules | dev recall | why no rule |",
        "| --- | ---: | ---: | --- | --- | ---: | --- |",
    ]
    for k in kinds:
        recall = f"{k.found}/{k.dev}" if k.dev else "–"
        why = reason(k)
        out.append(f"| `{k.name}` | {k.dev} | {k.heldout} | {', '.join(sorted(k.frameworks))} | "
                   f"{_rules_cell(k)} | {recall} | {f'**{why[0]}**: {why[1]}' if why else ''} |")
    out += [
        "",
        "Each rule's page lists up to five of the threads it is seen in (\"Seen in the real world\").",
        "Regenerate after changing a rule or the corpus: `python benchmarks/catalogue.py --write`.",
    ]
    return "\n".join(out) + "\n"


def render_sightings(cat: Catalogue) -> str:
    """gradlint/rules/_real_world.py: per rule, up to MAX_SIGHTINGS distinct threads (URL, what the
    thread is about) from the development positives the rule finds."""
    lines = [
        '"""Threads each rule is seen in: generated by `python benchmarks/catalogue.py --write`; do not edit.',
        "",
        "Per rule code, up to five (source URL, description) pairs from the development positives of",
        'tests/realworld/ that the rule finds at their expected line (read by Rule.page())."""',
        "",
        "SEEN: dict[str, tuple[tuple[str, str], ...]] = {",
    ]
    for code, cases in cat.sightings.items():
        seen: dict[str, str] = {}
        for c in cases:
            if len(seen) < MAX_SIGHTINGS:
                seen.setdefault(c.url, c.description)
        lines.append(f"    {code!r}: (")
        lines += [f"        ({url!r}, {desc!r})," for url, desc in seen.items()]
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite docs/catalogue.md, the sightings and docs/rules/")
    args = ap.parse_args(argv)
    cat = build()
    missing = unexplained(cat)
    if missing:
        print(f"kinds seen at least {MUST_EXPLAIN} times with no rule and no reason (add to REASONS): "
              + ", ".join(missing), file=sys.stderr)
    if not args.write:
        sys.stdout.write(render_page(cat))
        return 1 if missing else 0
    PAGE.write_text(render_page(cat), encoding="utf-8")
    SIGHTINGS.write_text(render_sightings(cat), encoding="utf-8")
    # the rule pages show the sightings just written: render them from the new module
    import importlib

    from gradlint.rules import _real_world, catalog
    importlib.reload(_real_world)
    print(f"wrote {PAGE.relative_to(ROOT)} and {SIGHTINGS.relative_to(ROOT)}", file=sys.stderr)
    catalog.main(["--write", "--root", str(ROOT)])
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
