"""Rule families. Importing a family module registers its rule classes."""

from __future__ import annotations

import importlib

FAMILIES = (
    "gradlint.rules.meta",
    "gradlint.rules.graph_breaks",
    "gradlint.rules.lifetime",
    "gradlint.rules.grad_state",
    "gradlint.rules.precision",
    "gradlint.rules.api_misuse",
    "gradlint.rules.runtime",
)

_loaded = False


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    for mod in FAMILIES:
        importlib.import_module(mod)
    _loaded = True


def all_codes() -> list[str]:
    from .base import REGISTRY

    load_all()
    return sorted(REGISTRY)
