"""The registry of framework overlays: one vocabulary for the interpreter, the canonical
names, `framework_of` and the cheap first pass."""

from __future__ import annotations

import pytest

from gradlint import prefilter
from gradlint.analysis import frameworks
from gradlint.analysis.frameworks import FRAMEWORKS, TENSOR_METHOD_CHAIN, by_head, canonical, framework_of
from gradlint.analysis.frameworks.base import Framework


def test_every_overlay_is_registered_once_with_its_heads():
    names = [fw.name for fw in FRAMEWORKS]
    assert len(set(names)) == len(names) and all(names)
    for fw in FRAMEWORKS:
        assert fw.heads, fw.name
        for head in fw.heads:
            assert by_head(head) is fw
    assert set(TENSOR_METHOD_CHAIN) <= set(FRAMEWORKS)


@pytest.mark.parametrize("fw", FRAMEWORKS, ids=lambda f: f.name)
def test_members_are_reachable(fw: Framework):
    """A member keyed by a name whose head belongs to another overlay would never be called."""
    for q in fw.members:
        assert canonical(q) == q, q
        assert by_head(q.split(".", 1)[0]) is fw, q


def test_one_vocabulary_for_libraries():
    # haiku was JAX for framework_of but not for the interpreter's dispatch: one registry now
    assert framework_of("haiku.Linear") == "jax" and by_head("haiku") is frameworks.jax.JAX
    assert framework_of("torchvision.models.resnet18") == "torch"
    assert framework_of("keras.layers.Dense") == "tf"
    assert framework_of("numpy.mean") == "np"
    assert framework_of("builtins.float") is None and framework_of("sklearn.metrics.f1_score") is None


def test_canonical_names():
    assert canonical("tensorflow.keras.layers.Dense") == "keras.layers.Dense"
    assert canonical("tf_keras.Model") == "keras.Model"
    assert canonical("pytorch_lightning.LightningModule") == "lightning.pytorch.LightningModule"
    assert canonical("jax.experimental.stax.Dense") == "jax.example_libraries.stax.Dense"
    assert canonical("torch.nn.Linear") == "torch.nn.Linear"
    for fw in FRAMEWORKS:
        for prefix in fw.aliases:
            c = canonical(prefix)
            assert canonical(c) == c  # idempotent


def test_evidence_passes_the_quick_gate():
    """Every evidence literal contains one of the quick words, or the first check of
    has_diff_evidence would reject a file that has it."""
    ev = frameworks.EVIDENCE
    for lit in ev.literals:
        assert any(w in lit for w in ev.words), lit
        assert prefilter.has_diff_evidence(lit), lit
    for name in ev.bare_calls:
        assert prefilter.has_diff_evidence(f"{name}(loss_fn)"), name
        assert not prefilter.has_diff_evidence(f"no_{name}(loss_fn)"), name
    for needle, _ in ev.patterns:
        assert any(w in needle for w in ev.words), needle
    assert prefilter.has_diff_evidence("model.compile(optimizer='adam', loss=my_loss)")
    assert not prefilter.has_diff_evidence("with torch.no_grad():\n    y = model(x)\n")


def test_class_roles():
    assert frameworks.class_roles("torch.nn.Module") == {"module"}
    assert frameworks.class_roles("lightning.pytorch.LightningModule") == {"module", "lightning"}
    assert frameworks.class_roles("keras.Model") == {"module", "keras"}
    assert frameworks.class_roles("torch.autograd.Function") == {"autograd_function"}
    assert frameworks.class_roles("unittest.TestCase") == {"test"}
    assert frameworks.class_roles("transformers.BertModel") == {"module"}


def test_tables_do_not_conflict():
    with pytest.raises(ValueError, match="declared by both"):
        frameworks._merge([(frameworks.torch.TORCH, {"x": 1}), (frameworks.jax.JAX, {"x": 2})], "thing")
