"""Recall and false alarms on labelled pitfall corpora, measured as the benchmark does.

- ../shared/corpus: the project's visible corpus (not copied into the repo);
- tests/corpus: 106 positives and 66 negatives written by a team member who had not read the
  rules, in the same format, to check that the rules generalise beyond the visible files.
Every positive must be found (a diagnostic within one line of the expected line) and no
negative may raise a finding; a regression here is a regression in the rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus_eval  # noqa: E402

CORPORA = [p for p in (ROOT.parent / "shared" / "corpus", ROOT / "tests" / "corpus") if (p / "positive").is_dir()]


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda p: p.parent.name + "/" + p.name)
def test_every_positive_found_and_no_false_alarm(corpus):
    results = corpus_eval.evaluate(corpus)
    missed = [(e["file"], e["expected"], e["diagnostics"]) for e in results["positive"] if not e["found"]]
    alarms = [(e["file"], e["diagnostics"]) for e in results["negative"] if e["alarm"]]
    assert not missed, missed
    assert not alarms, alarms


def test_corpus_eval_counts_a_miss_and_an_alarm(tmp_path):
    (tmp_path / "positive").mkdir()
    (tmp_path / "negative").mkdir()
    (tmp_path / "positive" / "p.py").write_text("# family: A\n# expect: line 4 - x\nimport torch\nx = 1\n")
    (tmp_path / "negative" / "n.py").write_text(
        "import torch\nx = torch.zeros(3, requires_grad=True)\nx += 1\n(x * 2).sum().backward()\n"
    )
    summary = corpus_eval.summarize(corpus_eval.evaluate(tmp_path))
    assert summary["found"] == 0 and summary["positives"] == 1
    assert summary["false_alarms"] == 1
