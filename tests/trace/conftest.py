import pytest

pytest.importorskip("torch")  # the traced scripts are PyTorch training loops
