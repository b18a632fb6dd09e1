"""Model zoos built on PyTorch (torchvision, timm, transformers): their classes and factories
make modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..values import Val
from .base import Framework, Interp

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from ..interp.state import State


class ModelZoo(Framework):
    """A library of model classes: `Name(...)` makes a module; with `pretrained`, so do
    `X.from_pretrained(...)` and `create_model(...)`."""

    tag = "torch"
    pretrained = False

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        if q.split(".")[-1][:1].isupper():
            return it.new_module(ev.node, q, fw="torch")
        if self.pretrained and (".from_pretrained" in q or q.endswith("create_model")):
            return it.new_module(ev.node, q, fw="torch")
        return None


class TorchVision(ModelZoo):
    name = "torchvision"
    heads = ("torchvision",)


class Timm(ModelZoo):
    name = "timm"
    heads = ("timm",)
    pretrained = True


class Transformers(ModelZoo):
    name = "transformers"
    heads = ("transformers",)
    pretrained = True

    def class_roles(self, qual: str) -> frozenset[str]:
        if qual == "transformers.PreTrainedModel" or (qual.startswith("transformers.") and "Model" in qual):
            return frozenset({"module"})
        return frozenset()


TORCHVISION = TorchVision()
TIMM = Timm()
TRANSFORMERS = Transformers()
