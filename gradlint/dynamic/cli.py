"""`gradlint gradcheck TARGET ...`: the command line over worker.run_check.

gradlint/cli.py calls add_arguments() on its `gradcheck` subparser and run() with the parsed
namespace; `python -m gradlint.dynamic` runs it standalone. The target runs only in a child
process (see worker.py); this process never imports torch or the user's code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .report import GradcheckReport, error_report
from .text import format_text
from .worker import DEFAULT_MEMORY_MB, run_check

DEFAULT_TIMEOUT = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", help="what to check: path.py::name, path.py::Class.method or "
                        "package.module:name (a function, a torch.autograd.Function subclass or an "
                        "nn.Module subclass, instantiated without arguments)")
    parser.add_argument("--inputs", metavar="EXPR", default=None,
                        help="Python expression for the positional arguments (torch, np, math in "
                        "scope), e.g. \"torch.randn(140, 120), torch.randn(140, 120)\"; default: from "
                        "annotations, the module's first layer, or probing small shapes")
    parser.add_argument("--against", metavar="TARGET", default=None,
                        help="a hand-written gradient of sum(TARGET(*inputs)) to compare with autograd "
                        "(reported in ulps)")
    parser.add_argument("--dtype", choices=("float64", "float32"), default=None,
                        help="dtype of the check (default float64: inputs and parameters are promoted)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"wall-time limit of the check in seconds (default {DEFAULT_TIMEOUT:g}; "
                        "starting the interpreter and importing torch is not counted)")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="interpreter that runs the target (default: this one)")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random directions and inputs")
    parser.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"memory limit of the child process (default {DEFAULT_MEMORY_MB}; 0: none)")
    parser.add_argument("--constant", action="append", default=None, metavar="NAME",
                        help="leave this argument (name or position) or module parameter out of the "
                        "check: passed through unchanged, its gradient not compared (repeat, or "
                        "comma-separate, for several)")
    parser.add_argument("--directions", type=int, default=None, metavar="N",
                        help="random directions per input (default 1 in float64, 3 in float32)")


def run(args: argparse.Namespace) -> int:
    request = {
        "target": args.target,
        "inputs": getattr(args, "inputs", None),
        "against": getattr(args, "against", None),
        "dtype": getattr(args, "dtype", None),
        "seed": getattr(args, "seed", 0),
        "cwd": os.getcwd(),
        "directions": getattr(args, "directions", None),
        "constants": getattr(args, "constant", None) or None,
    }
    try:
        result = run_check(request, python=getattr(args, "python", None),
                           timeout=getattr(args, "timeout", DEFAULT_TIMEOUT),
                           memory_mb=getattr(args, "memory_limit", DEFAULT_MEMORY_MB))
    except KeyboardInterrupt:
        result = error_report("cancelled", "Interrupted.", target=args.target).to_dict()
    report = GradcheckReport.from_dict(result)
    if getattr(args, "output_format", "text") == "json":
        print(json.dumps(result, indent=2, allow_nan=False))
    else:
        print(format_text(report))
    return report.exit_code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gradlint gradcheck",
                                     description="Check the gradients of a function, an autograd.Function "
                                     "or an nn.Module against finite differences, in a child process.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
