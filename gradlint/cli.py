"""The `gradlint` command: `check`, `rules`, `rule`, and the `gradcheck` / `lsp` front ends.

Exit codes (ruff's): 0 clean, 1 findings (with `--diff`: changes to make), 2 usage or
configuration error. Never a traceback: an unexpected error prints one line naming it as a
gradlint bug (`GRADLINT_DEBUG=1` shows the traceback) and exits 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ._version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# Subcommands implemented elsewhere: imported only when used, so `check` never loads them.
DELEGATED = {
    "gradcheck": (
        "gradlint.dynamic.cli",
        "check the gradients of a function numerically (runs your code in a child process)",
    ),
    "lsp": ("gradlint_server.cli", "run the language server (stdio by default)"),
    "trace": (
        "gradlint.trace.cli",
        "run a training program for a few optimizer steps and report what it observed (runs your code in a child process)",
    ),
}


class UsageError(Exception):
    """A bad combination of options: one line, exit 2."""


def _codes(value: str) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradlint",
        description="A linter for the bugs that autograd code hides (PyTorch, TensorFlow, JAX).",
    )
    parser.add_argument("--version", action="version", version=f"gradlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="lint files and directories", description="Lint files and directories.")
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or directories to check (default: .); `-` reads standard input"
    )
    sel = check.add_argument_group("rule selection (codes or prefixes, comma-separated; override the configuration)")
    sel.add_argument(
        "--select", type=_codes, action="extend", metavar="CODES",
        help="check only these rules (replaces `select`, `ignore` and `extend-select` of the configuration)",
    )
    sel.add_argument("--ignore", type=_codes, action="extend", metavar="CODES", help="do not check these rules")
    sel.add_argument("--extend-select", type=_codes, action="extend", metavar="CODES", help="check these rules in addition")

    fix = check.add_argument_group("fixes")
    fix.add_argument("--fix", action=argparse.BooleanOptionalAction, default=False, help="apply safe fixes to the files")
    fix.add_argument(
        "--unsafe-fixes", action=argparse.BooleanOptionalAction, default=False,
        help="also apply fixes that can change what code computes",
    )
    fix.add_argument(
        "--diff", action="store_true",
        help="print the changes --fix would make as a unified diff; write nothing (exit 1 if there are any)",
    )

    out = check.add_argument_group("output")
    out.add_argument(
        "--output-format", default="text", choices=["text", "concise", "full", "json", "sarif", "github"],
        help="text (snippets on a terminal), concise, full, json (ruff's shape), sarif (2.1.0, for code scanning), "
        "github (workflow annotations)",
    )
    out.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead of the findings")
    out.add_argument("-q", "--quiet", action="store_true", help="print the findings only (no summary)")
    out.add_argument("-s", "--silent", action="store_true", help="print nothing; report through the exit code only")
    out.add_argument(
        "-v", "--verbose", action="store_true",
        help="also report on stderr how many files were read and how many answered from the cache",
    )
    out.add_argument("--show-files", action="store_true", help="list the files that would be checked, then exit")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    out.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="exit 1 when fixes were applied, even if nothing remains"
    )

    files = check.add_argument_group("files and configuration")
    files.add_argument(
        "--stdin-filename", metavar="NAME",
        help="the file name of the source read from standard input (for configuration and messages)",
    )
    files.add_argument(
        "--force-exclude", action=argparse.BooleanOptionalAction, default=False,
        help="apply exclusions (configuration and .gitignore) to paths named on the command line too",
    )
    files.add_argument("--config", type=Path, metavar="PATH", help="use this pyproject.toml instead of the nearest one")
    files.add_argument("--no-cache", action="store_true", help="neither read nor write the results cache")
    files.add_argument(
        "--project", action=argparse.BooleanOptionalAction, default=False,
        help="analyse each file with the project modules it imports (read, not reported on; a pitfall "
        "is reported where it is, whichever module differentiates it); slower: opt-in for now",
    )
    files.add_argument(
        "--cache-dir", type=Path, metavar="DIR", help="where to keep the cache (default: .gradlint_cache in the project root)"
    )
    files.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: one per CPU)")
    files.add_argument(
        "--file-timeout", type=float, metavar="SECONDS",
        help="stop checking a file after this many seconds and report it as GL004 "
        "(default: 5 s plus 10 s per MB of the file; 0: no limit)",
    )
    files.add_argument(
        "--trace-results", type=Path, action="append", metavar="FILE",
        help="merge findings saved by `gradlint trace --output-format json` (for the files being checked)",
    )
    check.set_defaults(handler=cmd_check)

    rules = sub.add_parser("rules", help="list every rule", description="List every rule.")
    rules.add_argument("--output-format", default="text", choices=["text", "json"])
    rules.set_defaults(handler=cmd_rules)

    rule = sub.add_parser("rule", help="print a rule's page", description="Print a rule's page: what, why, an example, the fix.")
    rule.add_argument("code", metavar="CODE", help="a rule code such as GL301")
    rule.add_argument("--output-format", default="text", choices=["text", "json"])
    rule.set_defaults(handler=cmd_rule)

    for name, (_, help_text) in DELEGATED.items():
        # Parsed by the owning module (see _delegate); listed here for `gradlint --help`.
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


# ---------------------------------------------------------------------------- check
def _load_config(args):
    from .config import load_config

    first = args.paths[0] if args.paths else "."
    if first == "-":
        first = args.stdin_filename or "."
    config = load_config(Path(first), args.config)
    over: dict = {}
    if args.select is not None:
        # ruff: a `select` on the command line starts from scratch, so the configuration's
        # `ignore` and `extend-select` do not carry over; per-file ignores still apply.
        over.update(select=args.select, ignore=[], extend_select=[])
    if args.ignore:
        over["ignore"] = over.get("ignore", config.ignore) + args.ignore
    if args.extend_select:
        over["extend_select"] = over.get("extend_select", config.extend_select) + args.extend_select
    if args.cache_dir is not None:
        over["cache_dir"] = args.cache_dir.resolve()
    for flag in ("select", "ignore", "extend_select"):
        _check_codes(getattr(args, flag) or [], "--" + flag.replace("_", "-"))
    return dataclasses.replace(config, **over) if over else config


def _check_codes(entries: list[str], where: str) -> None:
    """Unknown codes on the command line: one line naming the option (exit 2)."""
    from .rules import all_codes

    codes = all_codes()
    for e in entries:
        e = e.upper()
        if e not in ("ALL", "GL") and not any(c.startswith(e) for c in codes):
            raise UsageError(f"unknown rule code or prefix {e!r} in {where} (see `gradlint rules`)")


def _output_context(args, config):
    from .output import OutputContext

    tty = sys.stdout.isatty()
    force = os.environ.get("FORCE_COLOR", "") not in ("", "0")
    color = force or (tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")
    return OutputContext(color=color, tty=tty, unsafe_fixes=args.unsafe_fixes, config=config)


def cmd_check(args) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.file_timeout is not None and not 0 <= args.file_timeout < float("inf"):
        raise UsageError("--file-timeout must be a number of seconds >= 0")
    stdin = args.paths == ["-"] or (not args.paths and args.stdin_filename is not None)
    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("`-` (standard input) cannot be combined with other paths")
    if args.stdin_filename is not None and args.paths and not stdin:
        raise UsageError("--stdin-filename reads standard input: give `-` or no path")
    config = _load_config(args)
    ctx = _output_context(args, config)
    if args.show_files:
        from .files import discover

        found = discover(args.paths or ["."], config, force_exclude=args.force_exclude)
        sys.stdout.write("".join(ctx.relpath(f) + "\n" for f in found.files))
        return EXIT_CLEAN
    if stdin:
        return _check_stdin(args, config, ctx)
    from .files import run_paths

    started = time.perf_counter()
    result = run_paths(
        args.paths or ["."],
        config,
        fix=args.fix,
        diff=args.diff,
        unsafe_fixes=args.unsafe_fixes,
        use_cache=not args.no_cache,
        jobs=args.jobs,
        force_exclude=args.force_exclude,
        file_timeout=args.file_timeout,
        project=args.project,
    )
    for w in result.warnings:
        _err(f"warning: {w}", args)
    if args.verbose:
        _err(
            f"gradlint: {len(result.files)} files, {result.cache_hits} answered from the cache, "
            f"{result.checked} read, in {time.perf_counter() - started:.2f} s",
            args,
        )
    if args.diff:
        return _report_diff(args, result.diffs, result.fixed)
    diagnostics = _with_trace_results(args, config, result) if args.trace_results else result.diagnostics
    _report(args, ctx, diagnostics, fixed=result.fixed)
    return _exit_code(args, diagnostics, result.fixed)


def _with_trace_results(args, config, result) -> list:
    """The static findings plus those of saved traces for the same files (gradlint/trace/results.py)."""
    from .trace.results import TraceResultsError, filter_diagnostics, load, merge

    checked = {os.path.realpath(f) for f in result.files}
    traced = []
    for path in args.trace_results:
        try:
            diags, warnings = load(path)
        except TraceResultsError as exc:
            raise UsageError(str(exc)) from None
        for w in warnings:
            _err(f"warning: {w}", args)
        traced += [d for d in diags if os.path.realpath(d.path) in checked]
    return merge(result.diagnostics, filter_diagnostics(traced, config))


def _check_stdin(args, config, ctx) -> int:
    from .files import check_bytes_bounded, is_force_excluded

    data = sys.stdin.buffer.read()
    name = args.stdin_filename or "-"
    path = os.path.abspath(name) if args.stdin_filename else "-"
    mode = "diff" if args.diff else "fix" if args.fix else None
    if args.stdin_filename and args.force_exclude and is_force_excluded(path, config):
        if mode == "fix":
            sys.stdout.buffer.write(data)
        return EXIT_CLEAN
    res = check_bytes_bounded(data, path, config, mode=mode, unsafe=args.unsafe_fixes, name=name, file_timeout=args.file_timeout,
                              project=args.project and args.stdin_filename is not None)
    if mode == "diff":
        return _report_diff(args, [res.diff] if res.diff else [], res.fixed)
    ctx.remember(path, res.data if res.data is not None else data)
    if mode == "fix":
        # ruff's convention: the fixed source on stdout, the remaining findings on stderr.
        sys.stdout.buffer.write(res.data if res.data is not None else data)
        sys.stdout.flush()
        _report(args, ctx, res.diagnostics, fixed=res.fixed, stream=sys.stderr)
    else:
        _report(args, ctx, res.diagnostics)
    return _exit_code(args, res.diagnostics, res.fixed)


def _report(args, ctx, diagnostics, *, fixed: int = 0, stream=None) -> None:
    from . import output
    from .output import text

    stream = stream or sys.stdout
    if args.silent:
        return
    fmt = args.output_format
    if args.statistics:
        rows = _statistics(diagnostics, ctx)
        if fmt == "json":
            from .output import json_

            stream.write(json_.render_statistics(rows, ctx))
        else:
            stream.write(text.render_statistics(rows, ctx))
        return
    stream.write(output.render(fmt, diagnostics, ctx))
    if fmt not in output.MACHINE_FORMATS and not args.quiet:
        stream.write("".join(line + "\n" for line in text.summary(diagnostics, ctx, fixed=fixed, fix_mode=args.fix)))
    stream.flush()


def _statistics(diagnostics, ctx) -> list[dict]:
    counts = Counter(d.code for d in diagnostics)
    names = {d.code: d.name for d in diagnostics}
    fixable = {d.code for d in diagnostics if ctx.applicable(d)}
    return [
        {"code": code, "name": names[code], "count": n, "fixable": code in fixable}
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _report_diff(args, diffs: Sequence[str], fixed: int) -> int:
    if not args.silent:
        sys.stdout.write("".join(diffs))
        sys.stdout.flush()
        if not args.quiet:
            n = f"{fixed} error" + ("" if fixed == 1 else "s")
            _err(f"Would fix {n}." if diffs else "No errors would be fixed.", args)
    return EXIT_FINDINGS if diffs and not args.exit_zero else EXIT_CLEAN


def _exit_code(args, diagnostics, fixed: int) -> int:
    if args.exit_zero:
        return EXIT_CLEAN
    if diagnostics or (args.exit_non_zero_on_fix and fixed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _err(message: str, args=None) -> None:
    if args is not None and getattr(args, "silent", False):
        return
    sys.stderr.write(message + "\n")


# ---------------------------------------------------------------------------- rules
def _fix_marker(rule) -> str:
    from .diagnostics import Applicability

    return {Applicability.SAFE: "[*]", Applicability.UNSAFE: "(*)"}.get(rule.fix_applicability, "   ")


def cmd_rules(args) -> int:
    import json

    from .config import Config
    from .rules.base import all_rules

    rules = all_rules()
    url = Config().url_for
    if args.output_format == "json":
        sys.stdout.write(json.dumps([_rule_json(r, url) for r in rules], indent=2) + "\n")
        return EXIT_CLEAN
    cw = max((len(r.code) for r in rules), default=5)
    nw = max((len(r.name) for r in rules), default=4)
    for r in rules:
        sys.stdout.write(f"{r.code:<{cw}}  {_fix_marker(r)}  {r.severity.label:<7}  {r.name:<{nw}}  {r.message}\n")
    sys.stdout.write("\n[*] fixed by `gradlint check --fix`    (*) fix offered as an editor quick fix\n")
    return EXIT_CLEAN


def _rule_json(rule, url) -> dict:
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.label,
        "message": rule.message,
        "fix": rule.fix_applicability.value if rule.fix_applicability else None,
        "url": url(rule.code),
        "docs": rule.docs,
        "rationale": rule.rationale,
    }


def cmd_rule(args) -> int:
    import json

    from .config import Config
    from .rules.base import REGISTRY, all_rules

    all_rules()
    code = args.code.strip().upper()
    rule = REGISTRY.get(code)
    if rule is None:
        by_name = {r.name: r for r in REGISTRY.values()}
        rule = by_name.get(args.code.strip().lower())
    if rule is None:
        raise UsageError(f"unknown rule {args.code!r} (see `gradlint rules`)")
    if args.output_format == "json":
        sys.stdout.write(json.dumps({**_rule_json(rule, Config().url_for), "page": rule.page()}, indent=2) + "\n")
    else:
        sys.stdout.write(rule.page())
    return EXIT_CLEAN


# ---------------------------------------------------------------------------- delegated
def _delegate(name: str, argv: list[str]) -> int:
    module_name, help_text = DELEGATED[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"`gradlint {name}` is not available in this installation ({exc})") from None
    parser = argparse.ArgumentParser(prog=f"gradlint {name}", description=help_text[0].upper() + help_text[1:] + ".")
    module.add_arguments(parser)
    args = parser.parse_args(argv)
    return int(module.run(args) or 0)


# ---------------------------------------------------------------------------- entry point
def _main(argv: list[str]) -> int:
    if argv and argv[0] in DELEGATED:
        return _delegate(argv[0], argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    return args.handler(args)


def main(argv: Sequence[str] | None = None) -> int:
    from .config import ConfigError

    argv = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        try:  # a message a terminal cannot encode must not become a crash
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    try:
        return _main(argv)
    except SystemExit as exc:  # argparse: --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_ERROR)
    except (ConfigError, UsageError) as exc:
        sys.stderr.write(f"gradlint: error: {exc}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("gradlint: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (`gradlint check | head`): stop quietly.
        _silence_stdout()
        return EXIT_FINDINGS
    except Exception as exc:
        if os.environ.get("GRADLINT_DEBUG"):
            import traceback

            traceback.print_exc()
        sys.stderr.write(
            f"gradlint: internal error: {type(exc).__name__}: {exc}. This is a bug in gradlint; please report it "
            "(GRADLINT_DEBUG=1 shows the traceback).\n"
        )
        return EXIT_ERROR


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
