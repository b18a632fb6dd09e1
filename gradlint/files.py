"""Running gradlint over files: discovery, the per-file job (check, fix, diff), the cache and
the worker processes.

Discovery follows ruff (`*.py`, `*.pyi` and notebooks, `*.ipynb`): paths named on the
command line are always checked (unless `force_exclude`); directories are walked honouring
`.gitignore` files, `.git/info/exclude` and the configuration's `exclude`/`extend-exclude`,
skipping hidden directories and virtualenvs, never entering a directory twice (symlink
loops).

Work is split in two: the parent process stats every file against the cache (no read when the
stat matches); only the rest is read, hashed and, when the content changed, checked — in
worker processes (watchdog.py), each file under a time limit: a check that runs past it, or a
worker that dies, becomes that file's finding and the run goes on.
"""

from __future__ import annotations

import difflib
import errno
import fnmatch
import functools
import multiprocessing
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import engine, limits, watchdog
from .cache import Cache, content_hash
from .config import Config, load_config
from .diagnostics import Diagnostic
from .gctune import tuned
from .gitignore import IgnoreFile, IgnoreStack, stack_for
from .project import ProjectModules
from .source import CODING_COOKIE, DecodeError, decode_source, split_lines_keepends

PY_SUFFIXES = (".py", ".pyi")
NOTEBOOK_SUFFIX = ".ipynb"
CHECKED_SUFFIXES = (*PY_SUFFIXES, NOTEBOOK_SUFFIX)  # what the walk picks up
PARALLEL_MIN = 30  # below this many files to check, worker start-up costs more than it saves
BATCH = 32  # files per task: amortises inter-process traffic over many small files


# ---------------------------------------------------------------------------- discovery
@dataclass
class Discovery:
    files: list[str] = field(default_factory=list)  # absolute, sorted, unique
    diagnostics: list[Diagnostic] = field(default_factory=list)  # GL003 for missing paths
    warnings: list[str] = field(default_factory=list)


def discover(paths: Iterable[str | os.PathLike], config: Config, *, force_exclude: bool = False) -> Discovery:
    found = Discovery()
    seen_dirs: set[tuple[int, int]] = set()
    files: set[str] = set()
    for raw in paths:
        path = os.path.abspath(raw)
        try:
            os.stat(path)
        except OSError as exc:  # missing, a dangling symlink or a symlink loop, unsearchable
            found.diagnostics.append(engine.io_error(path, _stat_error(exc), config))
            continue
        if force_exclude and is_force_excluded(path, config):
            continue
        if os.path.isdir(path):
            _walk(path, config, seen_dirs, files, found)
        else:
            files.add(path)
    found.files = sorted(files)
    return found


def _stat_error(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "no such file or directory"
    if exc.errno == errno.ELOOP:
        return "cannot read file: a symlink loop (too many levels of symbolic links)"
    return f"cannot read file: {exc.strerror or exc}"


def is_force_excluded(path: str, config: Config) -> bool:
    """`--force-exclude`: the path or one of its directories (below the project root) is
    excluded by the configuration or ignored by git."""
    root = str(config.root or os.getcwd()).rstrip(os.sep)
    candidates = [path]
    parent = os.path.dirname(path)
    while parent.startswith(root + os.sep):
        candidates.append(parent)
        parent = os.path.dirname(parent)
    if any(config.is_excluded(Path(c)) for c in candidates):
        return True
    if config.respect_gitignore:
        return stack_for(os.path.dirname(path), stop=root).is_ignored(path, os.path.isdir(path))
    return False


class Excluder:
    """`config.is_excluded`, made cheap for the walk: patterns without a `/` (all the default
    ones) are one compiled regex tested on the name and the root-relative path, which is
    sliced rather than computed with `relpath`. Other patterns take the configuration's path."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.root = str(config.root or os.getcwd()).rstrip(os.sep)
        patterns = list(config.exclude) + list(config.extend_exclude)
        simple = [p for p in patterns if "/" not in p.replace(os.sep, "/")]
        self.literal = frozenset(simple)
        self.regex = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in simple)) if simple else None
        self.complex = len(simple) < len(patterns)
        self._dirs: dict[str, str] = {}

    def __call__(self, path: str) -> bool:
        name = os.path.basename(path)
        if name in self.literal:
            return True
        if self.regex is not None:
            if self.regex.match(name) or self.regex.match(self._relative(path)):
                return True
        return self.complex and self.config.is_excluded(Path(path))

    def _relative(self, path: str) -> str:
        if path.startswith(self.root + os.sep):
            return path[len(self.root) + 1 :].replace(os.sep, "/")
        # Outside the root: relpath once per directory, not per file.
        directory, name = os.path.split(path)
        rel = self._dirs.get(directory)
        if rel is None:
            rel = self._dirs[directory] = os.path.relpath(directory, self.root).replace(os.sep, "/")
        return f"{rel}/{name}"


def _walk(top: str, config: Config, seen: set, out: set, found: Discovery) -> None:
    gitignore = config.respect_gitignore
    excluded = Excluder(config)
    ignores = stack_for(top, stop=str(config.root or top)) if gitignore else IgnoreStack()
    stack = [(top, ignores)]
    while stack:
        directory, ign = stack.pop()
        try:
            st = os.stat(directory)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in seen:
            continue  # a symlink loop, or a directory reached twice
        seen.add((st.st_dev, st.st_ino))
        if gitignore and directory != top:
            ign = ign.push(IgnoreFile.read(os.path.join(directory, ".gitignore")))
        try:
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError as exc:
            found.diagnostics.append(engine.io_error(directory, f"cannot read directory: {exc.strerror or exc}", config))
            continue
        for entry in entries:
            name = entry.name
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if name.startswith(".") or name == "__pycache__":
                    continue
                if excluded(entry.path) or (gitignore and ign.matches(entry.path, True)):
                    continue
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                    continue  # a virtualenv, whatever its name
                stack.append((entry.path, ign))
            elif name.endswith(CHECKED_SUFFIXES):
                if excluded(entry.path) or (gitignore and ign.matches(entry.path, False)):
                    continue
                out.add(entry.path)


# ---------------------------------------------------------------------------- one file
@dataclass
class TextOutcome:
    diagnostics: list[Diagnostic]
    text: str  # after fixes (== the input when nothing was fixed)
    fixed: int = 0
    original: list[Diagnostic] | None = None  # those of the input, when fixes changed it


def check_text(text: str, path: str, config: Config, *, mode: str | None = None, unsafe: bool = False,
               project: ProjectModules | None = None) -> TextOutcome:
    """Check one file's text; in mode "fix" or "diff" also apply the applicable fixes.
    In "fix" mode the diagnostics are those left after fixing; in "diff" mode, the original ones.
    With a `project`, the project modules the file imports are read (see gradlint/project/)."""
    diags = _guarded_check(text, path, config, project)
    if mode is None or not any(d.fix is not None and (unsafe or d.fix.is_safe) for d in diags):
        return TextOutcome(diags, text)
    try:
        out = engine.fix_source_full(text, path, config, unsafe=unsafe, diagnostics=diags, project=project)
    except Exception as exc:  # a bug in a fix: report it, leave the file alone
        return TextOutcome(diags + unless_ignored(engine.internal_error(path, exc, config), config), text)
    if out.text == text:
        return TextOutcome(diags, text)
    new = out.text  # (edits take the line ends of the lines they are on: source.apply_edits)
    if mode != "fix":
        remaining = diags
    elif out.remaining is not None:
        remaining = out.remaining  # the engine's last pass checked exactly this text
    else:
        remaining = _guarded_check(new, path, config, project)
    return TextOutcome(remaining, new, out.applied, diags)


def _guarded_check(text: str, path: str, config: Config, project: ProjectModules | None = None) -> list[Diagnostic]:
    """The engine reports rule failures as GL002 itself; this catches failures outside any
    rule (a gradlint bug) so that one file cannot stop the run."""
    try:
        return engine.check_source(text, path, config, project=project)
    except Exception as exc:  # RecursionError included
        return unless_ignored(engine.internal_error(path, exc, config), config)


def encode_like(original: bytes, text: str) -> bytes:
    """Encode fixed text as the original was: same BOM, same PEP 263 encoding."""
    if original.startswith(b"\xef\xbb\xbf"):
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    m = CODING_COOKIE.search(original[:200])
    encoding = m.group(1).decode("ascii", "replace") if m else "utf-8"
    try:
        return text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return text.encode("utf-8")


def unified_diff(old: str, new: str, name: str) -> str:
    """Lines are Python's (not str.splitlines', which also breaks at form feed and U+2028);
    a line ending in a classic-Mac "\\r" is still printed on a line of its own."""
    out = []
    a, b = split_lines_keepends(old), split_lines_keepends(new)
    for line in difflib.unified_diff([x for x in a if x], [x for x in b if x], name, name):
        out.append(line)
        if line.endswith("\r"):
            out.append("\n")
        elif not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


@dataclass
class FileOutcome:
    path: str
    diagnostics: list[Diagnostic]
    size: int = -1  # stat and hash of the content the diagnostics belong to (-1: not cacheable)
    stamp: tuple = (0, 0)  # (mtime_ns, ctime_ns)
    digest: str | None = None
    cached: bool = False  # the content hash matched the cache: diagnostics come from it
    fixed: int = 0
    diff: str | None = None
    changed: bool = False
    deps: dict = field(default_factory=dict)  # project modules read: path -> (size, mtime_ns)


@dataclass(frozen=True)
class _Job:
    config: Config
    mode: str | None
    unsafe: bool
    cwd: str
    file_timeout: float | None = None  # seconds a file may take; None: by its size; 0: no limit
    roots: tuple[str, ...] | None = None  # project-wide: the paths given (None: each file on its own)

    def project_for(self, path: str) -> ProjectModules | None:
        return ProjectModules(path, self.roots) if self.roots is not None else None


@dataclass
class BytesOutcome:
    """One file's content checked (and fixed or diffed): a .py file or a notebook."""

    diagnostics: list[Diagnostic]
    data: bytes | None = None  # the new content, when fixes changed it
    fixed: int = 0
    original: list[Diagnostic] | None = None  # the diagnostics of the old content, when it changed
    diff: str | None = None  # in "diff" mode


def check_bytes(data: bytes, path: str, config: Config, *, mode: str | None, unsafe: bool, name: str,
                project: ProjectModules | None = None) -> BytesOutcome:
    """Decode and check one file's bytes; `name` is the path diffs show."""
    if path.endswith(NOTEBOOK_SUFFIX):
        from .notebook.check import check_notebook

        nb = check_notebook(
            data, path, config,
            check=lambda text: _guarded_check(text, path, config, project),
            io_error=lambda message: unless_ignored(engine.io_error(path, message, config), config),
            mode=mode, unsafe=unsafe, name=name,
        )
        return BytesOutcome(nb.diagnostics, nb.data, nb.fixed, nb.original, nb.diff)
    try:
        text = decode_source(data)
    except DecodeError as exc:
        return BytesOutcome(unless_ignored(engine.io_error(path, f"cannot decode file: {exc}", config), config))
    res = check_text(text, path, config, mode=mode, unsafe=unsafe, project=project)
    if res.text == text:
        return BytesOutcome(res.diagnostics)
    diff = unified_diff(text, res.text, name) if mode == "diff" else None
    return BytesOutcome(res.diagnostics, encode_like(data, res.text), res.fixed, res.original, diff)


def process_file(path: str, expected: str | None, job: _Job) -> FileOutcome:
    """Read, hash and (unless the hash is the cached one) check one file; fix or diff it."""
    config = job.config
    try:
        data, st = limits.read_regular(path)  # never blocks: a FIFO or a device is GL003
    except OSError as exc:
        return FileOutcome(path, unless_ignored(engine.io_error(path, f"cannot read file: {exc.strerror or exc}", config), config))
    digest = content_hash(data)
    if digest == expected:
        return FileOutcome(path, [], st.st_size, (st.st_mtime_ns, st.st_ctime_ns), digest, cached=True)
    project = job.project_for(path)
    res = check_bytes(data, path, config, mode=job.mode, unsafe=job.unsafe, name=_display(path, job.cwd), project=project)
    out = FileOutcome(path, res.diagnostics, st.st_size, (st.st_mtime_ns, st.st_ctime_ns), digest, fixed=res.fixed,
                      deps=dict(project.read) if project is not None else {})
    if res.data is None:
        return out
    out.changed = True
    if job.mode == "diff":
        out.diff = res.diff
        return out
    try:
        with watchdog.uninterruptible():  # a worker stopped now must not leave half a file
            with open(path, "wb") as fh:
                fh.write(res.data)
        st = os.stat(path)
    except OSError as exc:
        # nothing was fixed: the file still holds what it held
        out.diagnostics = (res.original or []) + unless_ignored(engine.io_error(path, f"cannot write fixes: {exc.strerror or exc}", config), config)
        out.size, out.fixed, out.changed = -1, 0, False
        return out
    out.size, out.stamp, out.digest = st.st_size, (st.st_mtime_ns, st.st_ctime_ns), content_hash(res.data)
    return out


def unless_ignored(d: Diagnostic, config: Config) -> list[Diagnostic]:
    return [d] if d.code in config.enabled_codes(d.path) else []


def _display(path: str, cwd: str) -> str:
    rel = os.path.relpath(path, cwd)
    return path if rel.startswith("..") else rel


# ---------------------------------------------------------------------------- workers
_WORKER_JOB: _Job | None = None


def _init_worker(job: _Job) -> None:
    global _WORKER_JOB
    _WORKER_JOB = job


def _run_one(item: tuple[str, str | None]) -> FileOutcome:
    assert _WORKER_JOB is not None
    return process_file(item[0], item[1], _WORKER_JOB)


def _limit(job: _Job, item: tuple[str, str | None]) -> float | None:
    if job.file_timeout == 0:
        return None
    return job.file_timeout or watchdog.default_limit(watchdog.file_size(item[0]))


def _stopped(job: _Job, item: tuple[str, str | None], why: watchdog.Stopped) -> FileOutcome:
    """The finding for a file whose check was stopped (size -1: never cached)."""
    diag = _stop_diagnostic(item[0], why, job.config, job.file_timeout is not None)
    return FileOutcome(item[0], unless_ignored(diag, job.config))


def _stop_diagnostic(path: str, why: watchdog.Stopped, config: Config, explicit: bool) -> Diagnostic:
    if why.kind == "timeout":
        limit = "the `--file-timeout`" if explicit else "the limit for a file of its size; `--file-timeout` sets it"
        return limits.too_complex(
            path,
            f"not analysed: checking this file took longer than {why.limit:.3g} s ({limit}) and was stopped, "
            "so its findings are missing",
            config,
        )
    return engine.internal_error(path, RuntimeError(why.detail), config)


def _mp_context():
    # fork: workers inherit the loaded rules (and any registered at run time) for free. Only
    # safe while this process runs a single thread; otherwise start clean interpreters.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _process_all(todo: list[tuple[str, str | None]], job: _Job, jobs: int) -> list[FileOutcome]:
    if job.file_timeout == 0 and (jobs <= 1 or len(todo) < PARALLEL_MIN):
        with tuned():
            return [process_file(path, expected, job) for path, expected in todo]
    # With a time limit even one file is checked in a worker: only a process can be stopped.
    return watchdog.run(
        todo, _run_one, functools.partial(_stopped, job),
        jobs=1 if len(todo) < PARALLEL_MIN else jobs, limit=functools.partial(_limit, job),
        init=_init_worker, init_args=(job,), batch=BATCH, context=_mp_context(),
    )


def check_bytes_bounded(data: bytes, path: str, config: Config, *, mode: str | None = None, unsafe: bool = False,
                        name: str, file_timeout: float | None = None, project: bool = False) -> BytesOutcome:
    """`check_bytes` under the same time limit as a file (for standard input). `project`: the
    text is analysed in the project of `path` (`--stdin-filename`), and only its own
    findings are returned."""
    if file_timeout == 0:
        res = check_bytes(data, path, config, mode=mode, unsafe=unsafe, name=name,
                          project=ProjectModules(path) if project else None)
        res.diagnostics = [d for d in res.diagnostics if d.path == path]
        return res
    limit = file_timeout or watchdog.default_limit(len(data))
    [res] = watchdog.run(
        [(data, path, config, mode, unsafe, name, project)], _check_bytes_item,
        lambda item, why: BytesOutcome(unless_ignored(_stop_diagnostic(path, why, config, file_timeout is not None), config)),
        jobs=1, limit=lambda item: limit, context=_mp_context(),
    )
    res.diagnostics = [d for d in res.diagnostics if d.path == path]
    return res


def _check_bytes_item(item: tuple) -> BytesOutcome:
    data, path, config, mode, unsafe, name, project = item
    return check_bytes(data, path, config, mode=mode, unsafe=unsafe, name=name, project=ProjectModules(path) if project else None)


# ---------------------------------------------------------------------------- the run
def _reported(by_path: dict[str, list[Diagnostic]], given: set[str]) -> list[Diagnostic]:
    """The findings on the files that were given, once each. A file's check reports on the
    file itself and on the project modules it imports; a pitfall in `losses.py` is found from
    every file that trains through it (each message names one differentiation site: the first
    is kept, and none when `losses.py`'s own check reports it), and one in a module outside
    the given paths is not reported."""
    out = [d for path, ds in by_path.items() for d in ds if d.path == path]
    seen = {(d.path, d.code, d.start, d.end) for d in out}
    foreign = sorted((d for path, ds in by_path.items() for d in ds if d.path != path), key=Diagnostic.sort_key)
    for d in foreign:
        key = (d.path, d.code, d.start, d.end)
        if d.path in given and key not in seen:
            seen.add(key)
            out.append(d)
    return out


@dataclass
class RunResult:
    diagnostics: list[Diagnostic]
    files: list[str]
    fixed: int = 0  # fixes applied (fix mode) or that would be applied (diff mode)
    changed: list[str] = field(default_factory=list)  # files rewritten / that would be
    diffs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cache_hits: int = 0
    checked: int = 0  # files read (not answered by the cache's stat check)


def run_paths(
    paths: Iterable[str | os.PathLike] = (".",),
    config: Config | None = None,
    *,
    fix: bool = False,
    diff: bool = False,
    unsafe_fixes: bool = False,
    use_cache: bool = False,
    jobs: int | None = None,
    force_exclude: bool = False,
    file_timeout: float | None = None,
    project: bool = False,
) -> RunResult:
    """Lint files and directories. `fix` rewrites files with the applicable fixes; `diff`
    computes the same changes as unified diffs without writing. `use_cache` reads and writes
    the results cache (the CLI's default; off for library calls, which should not leave a
    `.gradlint_cache` behind unasked). `jobs`: worker processes (default: one per CPU).
    `file_timeout`: seconds one file may take (default: watchdog.default_limit of its size;
    0: no limit, and small runs are checked in this process). `project`: each file is analysed
    with the project modules it imports (read, not reported on): findings are reported only
    for the files found under `paths`, once each."""
    paths = [os.fspath(p) for p in paths] or ["."]
    if config is None:
        config = load_config(Path(paths[0]))
    found = discover(paths, config, force_exclude=force_exclude)
    mode = "diff" if diff else "fix" if fix else None
    roots = tuple(os.path.abspath(p) for p in paths) if project else None
    job = _Job(config, mode, unsafe_fixes, os.getcwd(), file_timeout, roots)
    variant = "project:" + "\0".join(roots) if roots is not None else ""
    cache = Cache.load(config, variant) if use_cache else Cache.disabled()

    by_path: dict[str, list[Diagnostic]] = {}
    todo: list[tuple[str, str | None]] = []
    for path in found.files:
        try:
            st = os.stat(path)
        except OSError:
            todo.append((path, None))
            continue
        wants_fix = mode is not None and cache.has_fix(path, unsafe_fixes)
        if not wants_fix:
            diags = cache.by_stat(path, st.st_size, (st.st_mtime_ns, st.st_ctime_ns))
            if diags is not None:
                by_path[path] = diags
                continue
        todo.append((path, None if wants_fix else cache.digest(path)))

    result = RunResult([], found.files, warnings=found.warnings, checked=len(todo))
    for o in _process_all(todo, job, jobs if jobs is not None else (os.cpu_count() or 1)):
        if o.cached:
            diags = cache.by_digest(o.path, o.digest or "", o.size, o.stamp)
            if diags is None:  # the entry vanished or was broken: check after all
                o = process_file(o.path, None, job)
            else:
                by_path[o.path] = diags
                continue
        by_path[o.path] = o.diagnostics
        if o.size >= 0 and o.digest is not None:
            # In diff mode the file was not written: its diagnostics are still the original's.
            cache.store(o.path, o.size, o.stamp, o.digest, o.diagnostics, o.deps)
        result.fixed += o.fixed
        if o.changed:
            result.changed.append(o.path)
        if o.diff:
            result.diffs.append(o.diff)
    cache.save()

    result.cache_hits = cache.hits
    diags = _reported(by_path, set(found.files)) + found.diagnostics
    diags.sort(key=Diagnostic.sort_key)
    result.diagnostics = diags
    result.changed.sort()
    result.diffs.sort()
    return result
