"""`gradlint trace [options] SCRIPT [ARGS...]` / `gradlint trace [options] -m MODULE [ARGS...]`.

gradlint/cli.py delegates to add_arguments() and run() (see DELEGATED there). The program runs
only in a child process (runner.py); this process imports no framework. Output formats and
exit codes are `check`'s: 0 nothing found, 1 findings, 2 the trace could not run (a usage
error, or a program that crashed, hung or flooded its output for a reason the trace could not
explain).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..dynamic.worker import DEFAULT_MEMORY_MB
from .runner import DEFAULT_TIMEOUT, run_trace
from .state import DEFAULT_STEPS

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FORMATS = ["text", "concise", "full", "json", "sarif", "github"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = "gradlint trace [options] SCRIPT [ARGS...]  |  gradlint trace [options] -m MODULE [ARGS...]"
    parser.add_argument("-m", dest="module", action="store_true",
                        help="the target is a module to run as `python -m MODULE`")
    parser.add_argument("target", metavar="SCRIPT", help="the training script (or, with -m, the module)")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                        help="arguments for the program (everything after SCRIPT)")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, metavar="N",
                        help=f"optimizer steps to observe before stopping the program (default {DEFAULT_STEPS})")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"wall-time limit in seconds (default {DEFAULT_TIMEOUT:g}; starting Python is included)")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="interpreter that runs the program (default: this one)")
    parser.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"memory limit of the traced process (default {DEFAULT_MEMORY_MB}; 0: none)")
    parser.add_argument("--output-format", choices=FORMATS, default="text",
                        help="as for `gradlint check`; json is also the saved form for `check --trace-results`")
    parser.add_argument("--config", type=Path, metavar="PATH",
                        help="use this pyproject.toml instead of the nearest one (rule selection, per-file ignores)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print the findings only (no summary)")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")


def run(args: argparse.Namespace) -> int:
    from ..config import ConfigError, load_config
    from ..output import MACHINE_FORMATS, OutputContext, render
    from ..output import text as text_out
    from .results import render_json, to_diagnostics

    if args.steps < 1:
        return _usage("--steps must be at least 1")
    if args.timeout <= 0:
        return _usage("--timeout must be positive")
    cwd = os.getcwd()
    if not args.module and not os.path.isfile(args.target):
        return _usage(f"no such file: {args.target}")
    where = Path(args.target).parent if not args.module else Path(cwd)
    try:
        config = load_config(where, args.config)
    except ConfigError as exc:
        return _usage(str(exc))
    request = {"script": None if args.module else os.path.abspath(args.target),
               "module": args.target if args.module else None,
               "args": list(args.args), "cwd": cwd, "steps": args.steps}
    try:
        report = run_trace(request, python=args.python, timeout=args.timeout, memory_mb=args.memory_limit)
    except KeyboardInterrupt:
        sys.stderr.write("gradlint trace: interrupted; the program was stopped\n")
        return 130
    diags = to_diagnostics(report, config)
    tty = sys.stdout.isatty()
    color = os.environ.get("FORCE_COLOR", "") not in ("", "0") or (tty and not os.environ.get("NO_COLOR"))
    ctx = OutputContext(color=bool(color), tty=tty, config=config)
    fmt = args.output_format
    sys.stdout.write(render_json(diags, ctx) if fmt == "json" else render(fmt, diags, ctx))
    failed = describe(report)[0]
    if fmt not in MACHINE_FORMATS and not args.quiet and not (failed and not diags):
        sys.stdout.write("".join(line + "\n" for line in text_out.summary(diags, ctx)))
    sys.stdout.flush()
    _status(report, args, diags)
    if failed:
        return EXIT_ERROR
    if diags and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def describe(report: dict) -> tuple[bool, str]:
    """(the trace failed, one line on how the program ended) — shared with the server."""
    status, steps = report.get("status"), report.get("steps")
    err = report.get("error") or {}
    if status == "stopped":
        return False, f"traced {steps} optimizer step{'s' if steps != 1 else ''}, then stopped the program"
    if status == "finished":
        frameworks = report.get("frameworks") or []
        if not steps and frameworks == ["jax"]:  # JAX has no optimizer object whose steps could be counted
            return False, "the program finished (a JAX program runs to its end: there is no optimizer step to count)"
        extra = "" if steps else " (it made no optimizer step: nothing about training was observed)"
        return False, f"the program finished after {steps or 0} optimizer step{'s' if steps != 1 else ''}{extra}"
    message = err.get("message") or "the trace failed"
    if err.get("explained"):
        return False, f"{message} — explained by the findings above"
    return True, message


def _status(report: dict, args, diags) -> bool:
    failed, line = describe(report)
    if failed:
        sys.stderr.write(f"gradlint trace: error: {line}\n")
        tail = (report.get("output") or "").rstrip()
        if tail:
            lines = tail.splitlines()[-15:]
            sys.stderr.write("  last output of the program:\n" + "".join(
                f"  | {ln if len(ln) <= 160 else ln[:159] + '…'}\n" for ln in lines))
    elif not args.quiet and args.output_format not in ("json", "sarif", "github"):
        sys.stderr.write(f"gradlint trace: {line}\n")
    for note in report.get("notes") or []:
        if not args.quiet:
            sys.stderr.write(f"gradlint trace: note: {note}\n")
    return failed


def _usage(message: str) -> int:
    sys.stderr.write(f"gradlint trace: error: {message}\n")
    return EXIT_ERROR
