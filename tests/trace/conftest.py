"""The traced scripts in tests/trace/scripts/ are PyTorch training loops: without torch the
modules that trace them are skipped, while the torch-free ones still run (the probes'
stand-in tests, the language server's unit tests, and the TensorFlow/JAX scripts, which need
their own framework instead)."""

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TORCH_FREE = {"test_trace_frameworks.py", "test_frameworks_real.py", "test_server_trace.py", "test_trace_isolation.py"}


def pytest_collection_modifyitems(items) -> None:
    if importlib.util.find_spec("torch") is not None:
        return
    skip = pytest.mark.skip(reason="needs torch: the traced scripts are PyTorch training loops")
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if path.parent == HERE and path.name not in TORCH_FREE:
            item.add_marker(skip)
