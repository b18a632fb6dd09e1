"""Which `gradlint.config.Config` applies to a document: the nearest pyproject.toml's
`[tool.gradlint]`, then the editor's `select`/`ignore` on top.

Loaded configs are cached per directory until a pyproject.toml changes: the server hears of
that from the client's file watcher, and also compares the file's mtime before each use (not
every client can watch files, e.g. Neovim without dynamic registration). A broken
pyproject.toml (bad TOML, unknown code) is reported once per distinct problem through
`report` and the defaults are used, so one typo never stops linting nor floods the editor.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable

from gradlint.config import Config, ConfigError, find_pyproject, load_config

from .settings import Settings

log = logging.getLogger(__name__)


class ProjectConfigs:
    def __init__(self, report: Callable[[str], None]) -> None:
        self._report = report
        self._by_dir: dict[str, tuple[Config, Path | None, int]] = {}
        self._reported: set[str] = set()

    def reload(self) -> None:
        """Forget every cached config (a pyproject.toml changed). Problems are reported again
        if they persist: the user just edited the file and expects to hear about it."""
        self._by_dir.clear()
        self._reported.clear()

    def _problem(self, message: str) -> None:
        if message in self._reported:
            return
        self._reported.add(message)
        log.error("%s", message)
        self._report(message)

    def project_config(self, directory: Path | None) -> Config:
        key = str(directory) if directory is not None else ""
        cached = self._by_dir.get(key)
        if cached is not None:
            config, source, mtime = cached
            if source is None or _mtime(source) == mtime:
                return config
            self._reported.clear()  # edited: say again what is still wrong
        source = None
        if directory is None:
            config = Config()
        else:
            try:
                source = find_pyproject(directory)
                config = load_config(directory, explicit=source) if source is not None else Config()
            except ConfigError as exc:
                self._problem(f"gradlint: {exc} — using the default configuration")
                config = Config()
            except Exception as exc:  # an unreadable tree must not take the server down
                self._problem(f"gradlint: cannot load configuration near {directory}: {exc}")
                config = Config()
        self._by_dir[key] = (config, source, _mtime(source) if source is not None else 0)
        return config

    def config_for(self, path: str | None, settings: Settings, fallback_dir: Path | None = None) -> Config:
        """The config for a file at `path` (None: an unsaved buffer, looked up from
        `fallback_dir`, the workspace root)."""
        directory = Path(path).parent if path else fallback_dir
        config = self.project_config(directory)
        if settings.select is None and not settings.ignore:
            return config
        combined = replace(
            config,
            select=list(settings.select) if settings.select is not None else config.select,
            ignore=[*config.ignore, *settings.ignore],
        )
        try:
            combined.validate()
        except ConfigError as exc:
            self._problem(f"gradlint: editor setting: {exc} — the editor's select/ignore are not applied")
            return config
        return combined


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1
