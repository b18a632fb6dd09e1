"""The data-flow interpreter (facade): the implementation is in `interp/`, one module per job;
library semantics are in `frameworks/`. Import from here."""

from __future__ import annotations

from .interp.driver import Interpreter
from .interp.state import Activation, AnalysisBudgetExceeded, ClassInfo, FunctionInfo, RunCache, State, TapeInfo
from .names import const_of, dotted_name, is_const

__all__ = [
    "Interpreter", "RunCache", "AnalysisBudgetExceeded", "State", "Activation", "ClassInfo", "FunctionInfo", "TapeInfo",
    "dotted_name", "const_of", "is_const",
]
