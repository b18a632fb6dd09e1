"""The TensorFlow and JAX probes against the real frameworks: the scripts in
tests/trace/frameworks/ are traced like tests/trace/scripts/ (each pitfall reported at its
`# expect:` line and nothing else, each `*_ok.py` silent). They run only where the framework is
importable by the interpreter running the tests (`tf_*.py` need tensorflow, `jax_*.py` jax);
gradlint's CI has neither, so there they skip (docs/trace.md says what was verified by hand)."""

from __future__ import annotations

import importlib.util

import pytest

from trace_support import HERE, expectations, trace

FRAMEWORKS = HERE / "frameworks"
NEEDS = {"tf": "tensorflow", "jax": "jax"}
ALL = sorted(FRAMEWORKS.glob("*.py"))


def _needs(script) -> str:
    return NEEDS[script.stem.split("_", 1)[0]]


@pytest.mark.parametrize("script", ALL, ids=lambda p: p.stem)
def test_framework_script(script):
    framework = _needs(script)
    if importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed")
    report = trace(script, timeout=240.0)  # importing TensorFlow takes a while on a busy machine
    must, may = expectations(script)
    found = {(f["code"], f["line"]) for f in report["findings"]}
    detail = [(f["code"], f["line"], f["message"][:120]) for f in report["findings"]]
    assert must <= found, (f"missing {sorted(must - found)}", detail, report.get("error"), report.get("output"))
    assert found <= must | may, (f"unexpected {sorted(found - must - may)}", detail)
    assert framework in report["frameworks"]
    if script.stem.endswith("_ok"):
        assert not must and not found
    err = report.get("error")
    if err is not None:  # only the errors the findings explain (a reused tape, a tracer conversion)
        assert err.get("explained"), err
    else:
        assert report["status"] in ("stopped", "finished")


def test_keras_optimizer_steps_are_counted_and_stop_the_program():
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    report = trace(FRAMEWORKS / "tf_train_ok.py", steps=2, timeout=240.0)
    assert report["status"] == "stopped" and report["steps"] == 2, report


def test_every_script_names_its_framework_and_has_expectations_or_is_ok():
    assert {_needs(p) for p in ALL} == {"tensorflow", "jax"}
    for p in ALL:
        assert p.stem.endswith("_ok") or expectations(p)[0], f"{p.name} has no `# expect:` line"


TF_FUNCTION = '''\
import tensorflow as tf

w = tf.Variable(tf.ones([8, 1]))
unused = tf.Variable(tf.ones([1]))
opt = tf.keras.optimizers.SGD(0.01)


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w - y) ** 2)
    grads = tape.gradient(loss, [w, unused])
    opt.apply_gradients([(g, v) for g, v in zip(grads, [w, unused]) if g is not None])
    return loss


for _ in range(5):
    step(tf.ones([4, 8]), tf.zeros([4, 1]))
'''


def test_tf_function_steps_are_not_observed_and_the_trace_says_so(tmp_path):
    # autograph runs the step once, from a generated file: nothing may be reported there, and
    # that single graph-building call is not an optimizer step
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    script = tmp_path / "compiled_step.py"
    script.write_text(TF_FUNCTION)
    report = trace(script, timeout=240.0)
    assert report["findings"] == [] and report["status"] == "finished" and report["steps"] == 0, report
    assert any("tf.function" in n for n in report["notes"]), report["notes"]
