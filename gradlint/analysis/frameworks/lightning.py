"""PyTorch Lightning (and Fabric): `training_step` returns are differentiated by the trainer,
`self.manual_backward(loss)` / `fabric.backward(loss)` differentiate their argument."""

from __future__ import annotations

from .base import Evidence, Framework, returns_library_object

LIGHTNING_BASES = ("lightning.pytorch.LightningModule", "lightning.LightningModule", "lightning.pytorch.core.LightningModule")


class Lightning(Framework):
    name = "lightning"
    tag = "torch"
    heads = ("lightning",)
    aliases = {
        "pytorch_lightning": "lightning.pytorch",
        "lightning.pytorch": "lightning.pytorch",
        "lightning": "lightning",
    }
    evidence = Evidence(words=("training_step", "backward"), literals=("training_step", "manual_backward"))
    backward_methods = frozenset({"backward", "manual_backward"})
    members = {"lightning.fabric.Fabric": returns_library_object, "lightning.Fabric": returns_library_object}

    def class_roles(self, qual: str) -> frozenset[str]:
        return frozenset({"module", "lightning"}) if qual in LIGHTNING_BASES else frozenset()


LIGHTNING = Lightning()
