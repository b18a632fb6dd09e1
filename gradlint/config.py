"""Configuration: `[tool.gradlint]` in the nearest pyproject.toml, merged with CLI options.

Rule selection follows ruff: `select` (default: every rule) plus `extend-select`, minus
`ignore`; entries are codes or prefixes (`GL3`, `GL30`, `GL301`); `ALL` and `GL` mean all.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "venv", "__pypackages__", "_build",
    "buck-out", "dist", "node_modules", "site-packages", ".gradlint_cache", "__pycache__",
)
DEFAULT_DOCS_URL = "https://github.com/gradlint-autograd/gradlint/blob/main/docs/rules/{code}.md"

_KNOWN_KEYS = {
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude",
    "respect-gitignore", "docs-url", "cache-dir", "extend-per-file-ignores",
    "gradcheck",  # [tool.gradlint.gradcheck.inputs]: read by the dynamic checker
}


class ConfigError(Exception):
    """A configuration problem, reported as one line and exit code 2."""


@dataclass
class Config:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    extend_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    docs_url: str = DEFAULT_DOCS_URL
    root: Path | None = None  # directory of the pyproject.toml it came from
    source: Path | None = None
    cache_dir: Path | None = None

    # ------------------------------------------------------------------ selection
    def enabled_codes(self, path: str | None = None, codes: Iterable[str] | None = None) -> frozenset[str]:
        """The codes this configuration enables (for `path`, with its per-file ignores), out of
        `codes`: every rule code (default: the registered rules)."""
        codes = sorted(codes) if codes is not None else _registered_codes()
        selected = set(codes) if self.select is None else _expand(self.select, codes, "select")
        selected |= _expand(self.extend_select, codes, "extend-select")
        selected -= _expand(self.ignore, codes, "ignore")
        if path and self.per_file_ignores:
            rel = self._relative(path)
            for pattern, ignored in self.per_file_ignores.items():
                if _glob_match(rel, pattern):
                    selected -= _expand(ignored, codes, "per-file-ignores")
        return frozenset(selected)

    def validate(self, codes: Iterable[str] | None = None) -> None:
        """Raise ConfigError for unknown codes (one clear line)."""
        codes = sorted(codes) if codes is not None else _registered_codes()
        self.enabled_codes(codes=codes)
        for ignored in self.per_file_ignores.values():
            _expand(ignored, codes, "per-file-ignores")

    def _relative(self, path: str) -> str:
        p = os.path.abspath(path)
        root = str(self.root) if self.root else os.getcwd()
        try:
            return os.path.relpath(p, root).replace(os.sep, "/")
        except ValueError:
            return p.replace(os.sep, "/")

    def url_for(self, code: str) -> str:
        return self.docs_url.format(code=code)

    def fingerprint(self) -> str:
        data = {
            "select": self.select,
            "ignore": self.ignore,
            "extend_select": self.extend_select,
            "pfi": self.per_file_ignores,
            "docs": self.docs_url,
        }
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def is_excluded(self, path: Path) -> bool:
        name = path.name
        patterns = list(self.exclude) + list(self.extend_exclude)
        rel = self._relative(str(path))
        for pat in patterns:
            if name == pat or fnmatch.fnmatchcase(name, pat) or _glob_match(rel, pat):
                return True
        return False


def _registered_codes() -> list[str]:
    """Every rule code. The rules package sits above this module: it is imported only here,
    when a caller did not pass the codes it already has (the engine does)."""
    from .rules import all_codes

    return all_codes()


def _glob_match(rel: str, pattern: str) -> bool:
    pattern = pattern.replace(os.sep, "/")
    if fnmatch.fnmatchcase(rel, pattern):
        return True
    if "/" not in pattern:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern)
    if pattern.startswith("**/"):
        return _glob_match(rel, pattern[3:]) or any(
            fnmatch.fnmatchcase("/".join(rel.split("/")[i:]), pattern[3:]) for i in range(len(rel.split("/")))
        )
    return False


def _expand(entries: list[str], codes: list[str], where: str) -> set[str]:
    out: set[str] = set()
    for e in entries:
        e = e.strip().upper()
        if not e:
            continue
        if e in ("ALL", "GL"):
            out |= set(codes)
            continue
        matched = {c for c in codes if c.startswith(e)}
        if not matched:
            raise ConfigError(f"unknown rule code or prefix {e!r} in {where} (see `gradlint rules`)")
        out |= matched
    return out


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that configures gradlint, else the
    nearest one at all (so a broken one is still reported). Only regular files count (as in
    ruff): a directory named pyproject.toml is looked past, and so is a directory that cannot
    be searched (the path named is reported by discovery, not here)."""
    start = _absolute(start)
    if not _is(start.is_dir):
        start = start.parent
    nearest = None
    for d in [start, *start.parents]:
        candidate = d / "pyproject.toml"
        if _is(candidate.is_file):
            if nearest is None:
                nearest = candidate
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return candidate
            if "[tool.gradlint" in text:
                return candidate
    return nearest


def _absolute(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return Path(os.path.abspath(path))


def _is(test) -> bool:
    """`Path.is_file()`/`is_dir()` that says False where the answer cannot be had (EACCES)."""
    try:
        return test()
    except OSError:
        return False


def load_config(start: Path | None = None, explicit: Path | None = None) -> Config:
    path = explicit if explicit is not None else find_pyproject(start or Path.cwd())
    if path is None:
        return Config()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table ([tool.gradlint] lives in it)")
    section = tool.get("gradlint")
    cfg = Config(root=path.parent, source=path)
    if section is None:
        return cfg
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.gradlint] must be a table")
    unknown = set(section) - _KNOWN_KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.gradlint]: {', '.join(sorted(unknown))}")
    _Reader(path, section).into(cfg)
    cfg.validate()
    return cfg


class _Reader:
    """Reads `[tool.gradlint]` into a Config with one clear line per wrong value: each setting
    has exactly one type (a list is never also a string: `ignore = "GL3"` is a mistake for
    `ignore = ["GL3"]`, and ruff rejects it too)."""

    def __init__(self, path: Path, section: dict) -> None:
        self.path = path
        self.section = section

    def error(self, key: str, expected: str, example: str) -> ConfigError:
        value = self.section[key]
        if isinstance(value, list):
            bad = next((x for x in value if not isinstance(x, str)), None)
            got = f"{type(bad).__name__} {bad!r:.60} in the list" if bad is not None else "list"
        else:
            got = type(value).__name__ if isinstance(value, dict) else f"{type(value).__name__} {value!r:.60}"
        return ConfigError(f"{self.path}: [tool.gradlint] {key} must be {expected}, e.g. {key} = {example} (found {got})")

    def strings(self, key: str, what: str, example: str) -> list[str]:
        v = self.section.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.error(key, f"a list of {what}", example)
        return list(v)

    def table_of_codes(self, key: str) -> dict[str, list[str]]:
        v = self.section.get(key, {})
        example = '{ "tests/**" = ["GL4"] }'
        if not isinstance(v, dict):
            raise self.error(key, "a table of glob = [rule codes]", example)
        for glob, codes in v.items():
            if not isinstance(codes, list) or not all(isinstance(x, str) for x in codes):
                raise ConfigError(
                    f"{self.path}: [tool.gradlint] {key}.{glob!r} must be a list of rule codes, e.g. {key} = {example}"
                )
        return {glob: list(codes) for glob, codes in v.items()}

    def into(self, cfg: Config) -> None:
        sec = self.section
        codes_example = '["GL3", "GL205"]'
        if "select" in sec:
            cfg.select = self.strings("select", "rule codes", codes_example)
        cfg.ignore = self.strings("ignore", "rule codes", codes_example)
        cfg.extend_select = self.strings("extend-select", "rule codes", codes_example)
        for key in ("per-file-ignores", "extend-per-file-ignores"):
            cfg.per_file_ignores.update(self.table_of_codes(key))
        if "exclude" in sec:
            cfg.exclude = self.strings("exclude", "path globs", '["generated", "*_pb2.py"]')
        cfg.extend_exclude = self.strings("extend-exclude", "path globs", '["generated", "*_pb2.py"]')
        if "respect-gitignore" in sec:
            if not isinstance(sec["respect-gitignore"], bool):
                raise self.error("respect-gitignore", "true or false", "false")
            cfg.respect_gitignore = sec["respect-gitignore"]
        if "docs-url" in sec:
            url = sec["docs-url"]
            if not isinstance(url, str) or not url.strip():
                raise self.error("docs-url", "a URL template", '"https://example.org/rules/{code}.md"')
            cfg.docs_url = url
        if "cache-dir" in sec:
            cache = sec["cache-dir"]
            if not isinstance(cache, str) or not cache.strip():
                raise self.error("cache-dir", "a directory path", '".gradlint_cache"')
            cfg.cache_dir = (self.path.parent / cache).resolve()
        if "gradcheck" in sec:
            self.gradcheck()

    def gradcheck(self) -> None:
        """`[tool.gradlint.gradcheck.inputs]` is read by the gradient checker; its shape is
        checked here too, so that a mistake shows on the first `gradlint check`."""
        table = self.section["gradcheck"]
        example = '{ inputs = { "model.py::loss" = "torch.randn(8, 3)" } }'
        if not isinstance(table, dict) or set(table) - {"inputs"}:
            raise self.error("gradcheck", "a table with only `inputs`", example)
        inputs = table.get("inputs", {})
        if not isinstance(inputs, dict) or not all(isinstance(v, str) for v in inputs.values()):
            raise ConfigError(
                f"{self.path}: [tool.gradlint.gradcheck] inputs must be a table of target = \"input expressions\", "
                f"e.g. gradcheck = {example}"
            )
