"""Rule families. A family is a module of this package that declares `FAMILY = Family(prefix,
title)`; importing it registers its rule classes. Families are found by walking the package:
adding one is adding a module."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

# Every rule class, by code: a class joins by being defined (Rule.__init_subclass__). Typed
# `Any` here because base.py (which imports this package) defines Rule; use base.REGISTRY.
REGISTRY: dict[str, Any] = {}

# Modules of this package that hold no rules.
_INFRASTRUCTURE = frozenset({"base", "catalog", "context"})

_families: list[ModuleType] | None = None


def family_modules() -> list[ModuleType]:
    """The family modules, in code order (GL0, GL1, ...)."""
    global _families
    if _families is None:
        found = []
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_") or info.name in _INFRASTRUCTURE:
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            if getattr(module, "FAMILY", None) is None:
                raise RuntimeError(f"{module.__name__} is in the rules package but declares no FAMILY")
            found.append(module)
        _families = sorted(found, key=lambda m: m.FAMILY.prefix)
    return _families


def load_all() -> None:
    family_modules()


def all_codes() -> list[str]:
    load_all()
    return sorted(REGISTRY)


def family_titles() -> dict[str, str]:
    """Code prefix -> title (`"GL3"` -> `"gradient state"`)."""
    return {m.FAMILY.prefix: m.FAMILY.title for m in family_modules()}
