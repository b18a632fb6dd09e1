"""The cheap first pass must lose no finding: the narrowed path (hot chunks and their
neighbours, each parsed on its own) reports exactly what the exhaustive path (every chunk)
reports, on the pitfall corpus, on the rules' own examples, and on real code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gradlint.engine import DocumentChecker, check_source, check_source_full
from gradlint import prefilter
from gradlint.prefilter import has_diff_evidence, plan, split_chunks
from gradlint.rules.base import all_rules, dedent, examples_of

# the shared corpus beside the repository (when there is one) and the repository's own
CORPORA = (Path(__file__).resolve().parents[2] / "shared" / "corpus", Path(__file__).resolve().parent / "corpus")
REALCODE = Path(os.environ.get("GRADLINT_REALCODE", "/work/realcode"))


def _key(diags):
    return sorted((d.code, d.start.line, d.start.column, d.message) for d in diags)


def _corpus_files():
    return [f for corpus in CORPORA if corpus.is_dir() for f in sorted(corpus.glob("*/*.py"))]


@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: f"{p.parents[2].name}/{p.parent.name}/{p.name}")
def test_fast_equals_exhaustive_on_corpus(path):
    text = path.read_text(encoding="utf-8")
    assert _key(check_source(text, str(path))) == _key(check_source(text, str(path), exhaustive=True))


def test_fast_equals_exhaustive_on_rule_examples():
    for rule in all_rules():
        valid, invalid = examples_of(rule)
        for ex in list(valid) + list(invalid):
            code = dedent(ex.code)
            assert _key(check_source(code, "x.py")) == _key(check_source(code, "x.py", exhaustive=True)), rule.code


def test_chunks_cover_the_text_in_order():
    text = dedent(
        '''
        """Module docstring
        that spans lines
        with text at column 0
        """
        import torch

        @torch.no_grad()
        @other
        def f(x):
            return x

        x = [
        1,
        2]
        if x:
            pass
        else:
            pass
        s = """
        def not_a_function():
        """
        class A:
            pass
        '''
    )
    chunks = split_chunks(text)
    assert "".join(c.text for c in chunks) == text
    firsts = [c.text.split("\n", 1)[0] for c in chunks]
    assert firsts[0].startswith('"""Module docstring')
    assert "@torch.no_grad()" in firsts
    assert "def f(x):" not in firsts  # decorators stay with their def
    assert "1," not in firsts and "2]" not in firsts  # brackets continue a statement
    assert "else:" not in firsts
    assert "def not_a_function():" not in firsts  # inside a string
    assert "class A:" in firsts
    for c in chunks:
        assert text.count("\n", 0, c.start) + 1 == c.line


def test_differentiation_evidence():
    assert has_diff_evidence("loss.backward()")
    assert has_diff_evidence("from jax import grad\ng = grad(f)")
    assert has_diff_evidence("with tf.GradientTape() as t:\n  pass")
    assert has_diff_evidence("model.compile(optimizer='adam', loss=my_loss)")
    # an optimizer built inside the call before the loss keyword (one level of parentheses)
    assert has_diff_evidence("model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=RelativeError())")
    assert not has_diff_evidence("with torch.no_grad():\n    y = model(x)\n")
    assert not has_diff_evidence("x.requires_grad_(False)\n")


def test_narrowing_keeps_callers_and_callees():
    text = dedent(
        """
        import numpy as np
        import torch

        def unrelated():
            return 1

        def helper(p):
            return torch.tensor(np.mean(p.detach().numpy()), requires_grad=True)

        def train(model, x):
            loss = helper(model(x))
            loss.backward()

        def main():
            train(torch.nn.Linear(2, 1), torch.randn(3, 2))
        """
    )
    p = plan(text, [r for r in all_rules() if not r.code.startswith("GL00")])
    included = {u.text.split("(", 1)[0] for u in p.units}
    assert "def helper" in included and "def train" in included and "def main" in included
    assert "def unrelated" not in included


def test_class_members_are_narrowed_and_lines_map_back():
    text = dedent(
        """
        import torch

        class Trainer:
            \"\"\"Docs.\"\"\"
            lr = 0.1

            def __init__(self, model):
                self.model = model

            def unrelated(self):
                return [i for i in range(10)]

            @torch.no_grad()
            def evaluate(self, x):
                return self.model(x)

            def step(self, x):
                loss = self.model(x).sum()
                loss.backward()
        """
    )
    p = plan(text, [r for r in all_rules() if not r.code.startswith("GL00")])
    (cls,) = [u for u in p.units if "class Trainer" in u.text]
    assert "def step" in cls.text and "def __init__" in cls.text
    assert "def unrelated" not in cls.text and "def evaluate" not in cls.text
    src_lines = text.split("\n")
    for k, line in enumerate(cls.text.split("\n")[:-1], start=1):
        assert src_lines[cls.file_line(k) - 1] == line


def _realcode_sample():
    if not REALCODE.is_dir():
        return []
    files = sorted(REALCODE.rglob("*.py"))
    limit = int(os.environ.get("GRADLINT_REALCODE_SAMPLE", "60"))
    hot = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if has_diff_evidence(text) and len(text) < 200_000:
            hot.append(f)
    step = max(1, len(hot) // limit) if limit else 1
    return hot[::step][:limit] if limit else hot


@pytest.mark.slow
@pytest.mark.parametrize("path", _realcode_sample(), ids=lambda p: str(p.relative_to(REALCODE)) if REALCODE in p.parents else p.name)
def test_fast_equals_exhaustive_on_real_code(path):
    text = path.read_text(encoding="utf-8")
    fast = check_source_full(text, str(path))
    full = check_source_full(text, str(path), exhaustive=True)
    assert _key(fast.diagnostics) == _key(full.diagnostics)


def test_the_editors_cached_path_reports_what_check_source_reports():
    """The language server's DocumentChecker reuses parsed chunks by text; two identical
    statements in one file (two `y.backward()`) must still be two statements (they were one
    node, so the second backward looked like a loop's)."""
    text = "import torch\nw = torch.randn(3, requires_grad=True)\ny = (w * 2).sum()\ny.backward()\nprint(2)\ny.backward()\n"
    checker = DocumentChecker("a.py")
    want = _key(check_source(text, "a.py"))
    assert [k[:2] for k in want] == [("GL201", 6)]
    assert _key(checker.check(text)) == want
    assert _key(checker.check(text)) == want  # and again, from the cache
    for path in _corpus_files():
        src = path.read_text(encoding="utf-8")
        assert _key(DocumentChecker(str(path)).check(src)) == _key(check_source(src, str(path), always_parse=True)), path


def test_fstring_replacement_fields_are_code():
    # `print(f"{jax.grad(f)(x)}")` differentiates: only the literal text of an f-string is blanked
    from gradlint.prefilter import code_mask, has_diff_evidence

    text = 'print(f"grad = {jax.grad(f)(x)} {{literal}}")  # jax.grad(g)\nprint("jax.grad(h)")\n'
    mask = code_mask(text)
    assert len(mask) == len(text) and mask.count("\n") == text.count("\n")
    assert "jax.grad(f)(x)" in mask
    assert "literal" not in mask and "jax.grad(g)" not in mask and "jax.grad(h)" not in mask
    assert has_diff_evidence(mask)
    assert not has_diff_evidence(code_mask('print(f"use jax.grad(f) here")\n'))


def test_patterns_are_tried_loose_first_and_the_loose_form_is_a_superset():
    """The evidence patterns run first without their `\\b` (the regex engine's literal-prefix
    scan; 17x faster on the corpus), then exactly: both must agree with the exact pattern."""
    from gradlint.prefilter import _PATTERNS, _without_word_boundaries

    assert _without_word_boundaries(r"\bnn\.[A-Z]") == r"nn\.[A-Z]"
    assert _without_word_boundaries(r"[\b]\bx|\by") == r"[\b]x|y"  # a class's \b is a backspace
    samples = ["h = nn.Linear(4, 2)(x)", "hnn.Linear(4, 2)(x)", "model.compile(optimizer='adam', loss=my_loss)",
               "def my_loss(y_true, y_pred):", "torch.utils.checkpoint.checkpoint(block, x)", "optim.SGD(p, lr=1)"]
    for _needle, loose, exact in _PATTERNS:
        for s in samples:
            if exact.search(s):
                assert loose.search(s), (exact.pattern, s)
    assert prefilter.has_diff_evidence("y = nn.Linear(4, 2)(x)")
    assert not prefilter.has_diff_evidence("y = hnn.Linear(4, 2)(x)")


def test_an_alias_that_cannot_complete_an_evidence_literal_is_not_rewritten():
    # `import torch.nn as nn` would rewrite every `nn.` of the file for nothing; `import jax as J`
    # must still read `J.grad(` as `jax.grad(`
    assert prefilter._unaliased("import torch.nn as nn\ny = nn.Linear(1, 1)\n").endswith("y = nn.Linear(1, 1)\n")
    assert prefilter.has_diff_evidence("import jax as J\ng = J.grad(f)\n")
    assert prefilter.has_diff_evidence("from torch.optim import Optimizer as Base\nclass O(Base):\n    pass\n")


def test_every_evidence_literal_and_pattern_is_reachable_from_a_quick_word():
    # has_diff_evidence looks at the literals, bare calls and patterns only once a quick word
    # is in the text: a literal no quick word covers would never count (a TF1
    # `keras.optimizers.SGD().minimize(loss)` says neither `grad` nor `Optimizer`)
    from gradlint.analysis.frameworks import EVIDENCE

    words = EVIDENCE.words
    for lit in EVIDENCE.literals + EVIDENCE.bare_calls:
        assert any(w in lit for w in words), lit
    for needle, _ in EVIDENCE.patterns:
        assert any(w in needle for w in words), needle


def test_a_method_left_out_of_a_skeleton_is_not_followed_not_taken_for_a_submodule():
    # forward -> plan -> plan_with_head -> row: the first pass keeps what the interpreter
    # inlines, and `row` is one call deeper. Called as `self.row(h)`, a left-out method must not
    # be proven a submodule by that use (its NumPy result then "carried the parameters" and
    # np.stack of it was a GL101 only the narrowed path reported, transformers' BigBirdPegasus)
    text = dedent(
        """
        import numpy as np
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)

            def forward(self, x):
                plan = np.stack(self.plan(3), axis=0)
                return self.q(x) * torch.tensor(plan)

            def plan(self, n):
                return self.plan_with_head(n)

            def plan_with_head(self, n):
                out = [np.zeros(3) for _ in range(n)]
                for h in range(n):
                    out[h][1:2] = self.row(h)
                return out

            def row(self, h):
                return np.random.permutation(h)[:1]

        model = Block()
        model(torch.randn(2, 4)).sum().backward()
        """
    )
    p = plan(text, [r for r in all_rules() if not r.code.startswith("GL00")])
    (cls,) = [u for u in p.units if "class Block" in u.text]
    assert "def row" not in cls.text and cls.elided == frozenset({"row"})
    narrowed = check_source_full(text, "block.py").diagnostics
    assert narrowed == check_source_full(text, "block.py", exhaustive=True).diagnostics == []
