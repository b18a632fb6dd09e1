"""Hugging Face Accelerate: `accelerator.backward(loss)` differentiates its argument;
`accelerator.clip_grad_norm_(...)` clips gradients."""

from __future__ import annotations

from .base import Framework, returns_library_object


class Accelerate(Framework):
    name = "accelerate"
    tag = "torch"
    heads = ("accelerate",)
    backward_methods = frozenset({"backward"})
    clip_methods = frozenset({"clip_grad_norm_", "clip_grad_value_"})
    members = {"accelerate.Accelerator": returns_library_object}


ACCELERATE = Accelerate()
