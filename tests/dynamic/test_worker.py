"""The warm worker API the language server uses: reuse, progress, cancellation, restart,
and seeing edits to the user's files."""

from __future__ import annotations

import os
import threading
import time

from conftest import target


def test_second_check_reuses_the_warm_worker(pool):
    w = pool.get()
    first = w.run({"target": target("smooth"), "inputs": "torch.randn(3, 4), torch.randn(3, 4)"}, timeout=30)
    pid = w.hello["pid"]
    second = w.run({"target": target("smooth"), "inputs": "torch.randn(3, 4), torch.randn(3, 4)"}, timeout=30)
    assert first["verdict"] == second["verdict"] == "pass"
    assert w.hello["pid"] == pid and pool.get() is w
    assert "startup" not in second["timings"]
    assert second["timings"]["wall"] < first["timings"]["startup"]


def test_progress_messages_arrive(pool):
    seen: list[str] = []
    r = pool.get().run({"target": target("ScaledSoftplus"), "inputs": "torch.randn(6, 6)"}, timeout=30,
                       progress=seen.append)
    assert r["verdict"] == "fail"
    assert any(m.startswith("loading") for m in seen) and "checking gradients" in seen


def test_cancel_kills_the_check_and_the_next_run_starts_fresh(pool):
    w = pool.get()
    w.run({"target": target("smooth"), "inputs": "torch.randn(2), torch.randn(2)"}, timeout=30)
    old = w.hello["pid"]
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    r = w.run({"target": target("loop", "isolation"), "inputs": "torch.randn(3)"}, timeout=60, cancel=cancel)
    assert r["verdict"] == "error" and r["error"]["kind"] == "cancelled"
    assert time.monotonic() - started < 3
    assert not w.alive
    again = w.run({"target": target("smooth"), "inputs": "torch.randn(2), torch.randn(2)"}, timeout=30)
    assert again["verdict"] == "pass" and w.hello["pid"] != old


def test_a_crash_is_followed_by_a_fresh_worker(pool):
    w = pool.get()
    r = w.run({"target": target("bail", "isolation"), "inputs": "torch.randn(3)"}, timeout=30)
    assert r["error"]["kind"] == "exit"
    r = w.run({"target": target("smooth"), "inputs": "torch.randn(2), torch.randn(2)"}, timeout=30)
    assert r["verdict"] == "pass"


def test_edits_to_the_target_file_are_seen_by_the_warm_worker(pool, tmp_path):
    src = tmp_path / "edited.py"
    helper = tmp_path / "edited_helper.py"
    helper.write_text("def scale():\n    return 1.0\n")
    src.write_text(
        "import torch\nfrom edited_helper import scale\n\n"
        "class F(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x.sin()\n"
        "    @staticmethod\n    def backward(ctx, g):\n        (x,) = ctx.saved_tensors\n"
        "        return g * x.cos() * scale()\n")
    request = {"target": f"{src}::F", "inputs": "torch.randn(5)", "cwd": str(tmp_path)}
    w = pool.get()
    assert w.run(request, timeout=30)["verdict"] == "pass"
    helper.write_text("def scale():\n    return 1.5\n")
    assert w.run(request, timeout=30)["verdict"] == "fail"


def test_output_of_the_target_comes_back(pool):
    r = pool.get().run({"target": target("fine", "isolation"), "inputs": "torch.randn(3)"}, timeout=30)
    assert r["verdict"] == "pass"
    assert "hello from the target" in r["output"]


def test_a_malformed_request_is_an_error_report(pool):
    r = pool.get().run({"target": target("smooth"), "dtype": "float16"}, timeout=30)
    assert r["verdict"] == "error" and r["error"]["kind"] == "request"


def test_inputs_from_pyproject_are_used_when_none_are_given(pool, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.gradlint.gradcheck.inputs]\n"pkg/model.py::pair" = "torch.randn(2, 7), torch.randn(7, 3)"\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text("def pair(a, b):\n    return (a @ b).sin()\n")
    r = pool.get().run({"target": "pkg/model.py::pair", "cwd": str(tmp_path)}, timeout=30)
    assert r["verdict"] == "pass" and r["inputs_source"] == "config"
    assert [i["shape"] for i in r["inputs"]] == [[2, 7], [7, 3]]


def test_child_env_drops_the_editor_bundle(monkeypatch, tmp_path):
    from gradlint.dynamic import worker

    bundle = tmp_path / "bundled" / "libs"
    monkeypatch.setenv("GRADLINT_BUNDLE", str(bundle))
    monkeypatch.setenv("PYTHONPATH", f"{bundle}{os.pathsep}/opt/user/lib")
    env = worker._child_env()
    assert env["PYTHONPATH"] == "/opt/user/lib"
    monkeypatch.setenv("PYTHONPATH", str(bundle))
    assert "PYTHONPATH" not in worker._child_env()


def test_close_waits_for_a_cancellation_that_is_killing_the_tree(pool, monkeypatch):
    """The server's shutdown cancels a running check and closes the pool at once, then exits.
    The cancelled check's thread takes the child and kills its tree (every member stopped, then
    killed): a close() that returned before that finished let the server exit between the two,
    leaving the tree stopped forever (seen after full CI runs: state T, re-parented to init)."""
    from gradlint.dynamic import worker as worker_mod

    real = worker_mod._terminate
    entered = threading.Event()

    def slow_terminate(*taken):
        if taken[0] is not None:
            entered.set()
            time.sleep(0.5)  # widen the window between taking the child and killing it
        return real(*taken)

    monkeypatch.setattr(worker_mod, "_terminate", slow_terminate)
    w = pool.get()
    w.run({"target": target("smooth"), "inputs": "torch.randn(2), torch.randn(2)"}, timeout=30)
    pid = w.hello["pid"]
    cancel = threading.Event()
    result: dict = {}
    t = threading.Thread(target=lambda: result.update(r=w.run(
        {"target": target("loop", "isolation"), "inputs": "torch.randn(3)"}, timeout=60, cancel=cancel)))
    t.start()
    time.sleep(0.3)
    cancel.set()
    assert entered.wait(10)  # the check's thread is terminating the child
    w.close()  # the shutdown's close, on another thread
    # when close() returns, the child is gone, not stopped
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        state = "gone"
    assert state in ("gone", "Z", "X"), state
    t.join(10)
    assert result["r"]["error"]["kind"] == "cancelled"
