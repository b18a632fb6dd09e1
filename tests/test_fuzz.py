"""Property tests for the engine: on any input it terminates quickly, never raises, never
reports GL002, fixes keep code parsing and are idempotent, and `# noqa` silences any finding.

Inputs: syntactically valid random programs (hypothesmith), random byte edits of real pitfall
files (mostly invalid), and mutations that splice autograd idioms into valid programs.
The budget is small by default; GRADLINT_FUZZ_EXAMPLES=2000 (say) runs a longer campaign.
"""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradlint.engine import check_source, fix_source
from gradlint.source import SourceText, apply_edits, noqa_edit

EXAMPLES = int(os.environ.get("GRADLINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize="GRADLINT_FUZZ_EXAMPLES" not in os.environ)
ROOT = Path(__file__).resolve().parents[1]
CORPORA = (ROOT.parent / "shared" / "corpus", ROOT / "tests" / "corpus")  # the first only when present
SEEDS = [f for c in CORPORA for f in sorted(c.glob("*/*.py"))] + sorted((ROOT / "examples").glob("*.py"))
SEED_TEXTS = [p.read_text(encoding="utf-8") for p in SEEDS]
# generous: the engine does ~10k+ lines/s; this only catches blow-ups (loops, recursion)
SECONDS_PER_LINE = 0.01


def _check(text: str, **kw):
    t0 = time.perf_counter()
    diags = check_source(text, "fuzz.py", always_parse=True, **kw)
    elapsed = time.perf_counter() - t0
    assert elapsed < 2.0 + SECONDS_PER_LINE * (text.count("\n") + 1), f"{elapsed:.1f}s"
    assert not [d for d in diags if d.code == "GL002"], [d.message for d in diags if d.code == "GL002"]
    return diags


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


# ------------------------------------------------------------------ strategies
AUTOGRAD_LINES = [
    "loss.backward()",
    "loss.backward(retain_graph=True)",
    "x = torch.randn(3, requires_grad=True)",
    "y = model(x).detach().numpy()",
    "g = torch.autograd.grad(out, x)[0]",
    "opt.step()",
    "opt.zero_grad()",
    "total += loss",
    "p.grad.data.zero_()",
    "state['g'] = p.grad",
    "with torch.no_grad():\n    w -= 0.1 * w.grad",
    "with tf.GradientTape() as tape:\n    y = np.mean(x)",
    "g = tape.gradient(y, x)",
    "f = jax.grad(lambda w: float(w))",
    "z = torch.where(x > 0, torch.log(x), x)",
    "d = torch.sqrt((a - b).pow(2).sum())",
    "for i in range(3):\n    h = rnn(x, h)\n    h.sum().backward()",
]
HEADER = "import numpy as np\nimport torch\nimport tensorflow as tf\nimport jax\nmodel = torch.nn.Linear(3, 3)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


@st.composite
def byte_edits(draw) -> str:
    text = draw(st.sampled_from(SEED_TEXTS))
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["flip", "delete", "insert", "dup"]))
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[i] = draw(st.sampled_from(b"()[]{}:.,=#'\"\\\n\t xyz0"))
        elif op == "delete":
            j = min(len(data), i + draw(st.integers(1, 40)))
            del data[i:j]
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=12))
        else:
            j = min(len(data), i + draw(st.integers(1, 80)))
            data[i:i] = data[i:j]
    return data.decode("utf-8", errors="replace")


@st.composite
def spliced(draw) -> str:
    """A corpus file with autograd idioms inserted at statement boundaries (mostly valid)."""
    lines = draw(st.sampled_from(SEED_TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines)))
        indent = ""
        if 0 < i <= len(lines):
            prev = lines[i - 1]
            indent = prev[: len(prev) - len(prev.lstrip())]
        snippet = draw(st.sampled_from(AUTOGRAD_LINES))
        lines[i:i] = [indent + s for s in snippet.split("\n")]
    return "\n".join(lines)


def _hypothesmith_programs():
    hypothesmith = pytest.importorskip("hypothesmith")
    return hypothesmith.from_grammar().map(lambda body: HEADER + "loss = model(x).sum()\nloss.backward()\n" + body)


# ------------------------------------------------------------------ properties
@FUZZ
@given(byte_edits())
def test_engine_survives_byte_edits(text):
    _check(text)


@FUZZ
@given(spliced())
def test_engine_survives_spliced_idioms(text):
    diags = _check(text)
    if _parses(text):
        assert not [d for d in diags if d.code == "GL001"]


@FUZZ
@given(st.data())
def test_engine_survives_random_valid_programs(data):
    text = data.draw(_hypothesmith_programs())
    if not _parses(text):
        return  # hypothesmith can emit programs CPython rejects (e.g. nonlocal at module level)
    _check(text)


@FUZZ
@given(spliced())
def test_fixes_parse_and_are_idempotent(text):
    if not _parses(text):
        return
    fixed, n = fix_source(text, "fuzz.py", unsafe=True)
    assert _parses(fixed), "a fix produced code that does not parse"
    again, m = fix_source(fixed, "fuzz.py", unsafe=True)
    if n:
        assert again == fixed and m == 0, "applying the fixes a second time changed the code"


@FUZZ
@given(spliced())
def test_noqa_silences_every_finding(text):
    if not _parses(text):
        return
    diags = [d for d in _check(text) if d.code != "GL001"]
    if not diags:
        return
    src = SourceText(text)
    edits = {}
    for d in diags:
        edits.setdefault(d.start.line, set()).add(d.code)
    new = text
    for line in sorted(edits, reverse=True):
        for code in sorted(edits[line]):
            new = apply_edits(new, [noqa_edit(SourceText(new), line, code)])
    assert _parses(new)
    remaining = [d for d in check_source(new, "fuzz.py") if d.code != "GL001"]
    silenced = {(line, c) for line, cs in edits.items() for c in cs}
    assert not [d for d in remaining if (d.start.line, d.code) in silenced], remaining
    assert src.text == text


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_every_seed_file_fix_round_trip(path):
    text = path.read_text(encoding="utf-8")
    fixed, n = fix_source(text, str(path), unsafe=True)
    assert _parses(fixed)
    if n:
        assert fix_source(fixed, str(path), unsafe=True)[0] == fixed
