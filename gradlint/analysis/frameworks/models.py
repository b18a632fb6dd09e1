"""Model zoos built on PyTorch (torchvision, timm, transformers): their classes and factories
make modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K
from ..values import EMPTY, Val, combine
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


class ModelClasses(ModelZoo):
    """A zoo whose capitalised classes are nn.Modules: subclassing one makes a module
    (`class MnistResNet(torchvision.models.resnet.ResNet)`)."""

    module_area: tuple[str, ...] = ()

    def class_roles(self, qual: str) -> frozenset[str]:
        last = qual.rsplit(".", 1)[-1]
        if qual.startswith(self.module_area) and last[:1].isupper():
            return frozenset({"module"})
        return frozenset()


class TorchVision(ModelClasses):
    """torchvision: `models` make modules; `transforms` (v1 and v2) and `datasets` are data
    preprocessing with no trainable parameters (a transform's output is its input's data);
    `ops` are differentiable operations; `utils`/`io` make no value the analysis follows."""

    name = "torchvision"
    heads = ("torchvision",)
    module_area = ("torchvision.models.", "torchvision.ops.")

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        parts = q.split(".")
        area = parts[1] if len(parts) > 2 else ""
        last = parts[-1]
        if area == "transforms":
            if last[:1].isupper():
                return Val(kind=K.INSTANCE, attrs={F.TRANSFORM: True})
            # functional transforms: data in, data out (no parameters, no new graph node)
            return combine(ev.args, kind=K.TENSOR if any(a.kind == K.TENSOR for a in ev.args) else None)
        if area in ("datasets", "io", "utils"):
            return Val(kind=K.INSTANCE) if last[:1].isupper() else EMPTY
        if area == "ops" and not last[:1].isupper():
            return it.op_result(ev.node, st, allv, kind=K.TENSOR, attrs={F.FW: "torch"})
        if area == "models" and not last[:1].isupper() and "." not in q[len("torchvision.models."):]:
            # `torchvision.models.resnet18(weights=...)`: a model factory
            return it.new_module(ev.node, q, fw="torch")
        return super().call_other(it, q, ev, st, allv)


class Timm(ModelClasses):
    name = "timm"
    heads = ("timm",)
    pretrained = True
    module_area = ("timm.models.", "timm.layers.")


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
