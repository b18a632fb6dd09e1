"""The results cache: an unchanged tree re-checks almost for free.

One JSON file per settings key under `.gradlint_cache/` (in the project root), read once and
written once per run. Entries are keyed by absolute path; a hit needs the same
(size, mtime_ns) — no read at all — or, when only the stat changed (a checkout, `touch`), the
same content hash. The key covers everything else that decides the results: gradlint's
version and code (the rule modules of an editable install change without a version bump), the
configuration's fingerprint and root, and the set of enabled codes. JSON, not pickle: a cache
inside a cloned repository must never be able to run code. A missing, corrupt or foreign cache
file is an empty cache, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from ._version import __version__
from .config import Config
from .diagnostics import Diagnostic

FORMAT = 1
DIR_NAME = ".gradlint_cache"
KEEP = 8  # cache files (settings keys) kept per cache directory
# A file modified this close to the run may be modified again within the same mtime tick
# without changing its size ("racy git"): its stat is not trusted and its content is hashed.
RACY_NS = 2_000_000_000


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# The modules whose code decides the results (not the CLI, the formatters or gradlint.dynamic,
# which change without changing a single finding).
_RESULT_MODULES = ("engine.py", "prefilter.py", "source.py", "config.py", "diagnostics.py", "files.py", "analysis", "rules", "notebook",
                   "project")


def _code_fingerprint() -> str:
    """Size and mtime of every module that decides the results (cheap: a few dozen stats), so
    that an editable install whose rules changed without a version bump gets a fresh cache."""
    h = hashlib.blake2b(digest_size=16)
    pkg = os.path.dirname(os.path.abspath(__file__))
    for name in _RESULT_MODULES:
        path = os.path.join(pkg, name)
        paths = [path]
        if os.path.isdir(path):  # with its subpackages (analysis/frameworks, analysis/interp)
            paths = sorted(os.path.join(d, f) for d, _, files in os.walk(path) for f in files if f.endswith(".py"))
        for p in paths:
            try:
                st = os.stat(p)
            except OSError:
                continue
            h.update(f"{os.path.relpath(p, pkg)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def settings_key(config: Config, variant: str = "") -> str:
    """`variant`: what else decides the results (project-wide analysis and its roots: the
    same file checked on its own and within its project may differ)."""
    parts = [
        variant,
        str(FORMAT),
        __version__,
        _code_fingerprint(),
        config.fingerprint(),
        str(config.root or ""),
        ",".join(sorted(config.enabled_codes())),
        f"{sys.version_info[0]}.{sys.version_info[1]}",
    ]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()


def cache_dir_for(config: Config) -> Path:
    if config.cache_dir is not None:
        return Path(config.cache_dir)
    return Path(config.root or os.getcwd()) / DIR_NAME


class Cache:
    """path -> [size, mtime_ns or None, content hash, [diagnostic dicts], {dependency: [size, mtime_ns]}]

    The dependencies are the project modules the file's check read (gradlint/project/): an
    entry is valid only while each still has the recorded size and mtime (a changed
    `losses.py` re-checks the files that import it)."""

    def __init__(self, path: Path | None, key: str, entries: dict | None = None) -> None:
        self.path = path
        self.key = key
        self.entries: dict[str, list] = entries or {}
        self.dirty = False
        self.hits = 0

    @classmethod
    def disabled(cls) -> Cache:
        return cls(None, "")

    @classmethod
    def load(cls, config: Config, variant: str = "") -> Cache:
        key = settings_key(config, variant)
        path = cache_dir_for(config) / f"cache-{key}.json"
        try:
            with open(path, "rb") as fh:
                data = json.loads(fh.read())
            if data.get("format") != FORMAT or data.get("key") != key or not isinstance(data.get("files"), dict):
                raise ValueError("foreign cache")
            return cls(path, key, data["files"])
        except (OSError, ValueError, AttributeError, RecursionError):
            return cls(path, key)

    @property
    def enabled(self) -> bool:
        return self.path is not None

    # ------------------------------------------------------------------ lookups
    def _entry(self, path: str) -> list | None:
        e = self.entries.get(path)
        # A hand-edited or foreign file may hold anything: such an entry is a miss.
        if isinstance(e, list) and len(e) in (4, 5) and isinstance(e[3], list) and (len(e) == 4 or isinstance(e[4], dict)):
            return e if len(e) == 4 or _deps_unchanged(e[4]) else None
        return None

    def by_stat(self, path: str, size: int, stamp: tuple[int, int]) -> list[Diagnostic] | None:
        """Cached diagnostics when the file's size, mtime and ctime are the recorded ones (ctime
        cannot be set back with `os.utime`: a same-size rewrite that restores the mtime is seen)."""
        e = self._entry(path)
        if e is None or e[1] is None or e[0] != size or e[1] != list(stamp):
            return None
        return self._restore(e)

    def digest(self, path: str) -> str | None:
        e = self._entry(path)
        return e[2] if e is not None else None

    def by_digest(self, path: str, digest: str, size: int, stamp: tuple[int, int]) -> list[Diagnostic] | None:
        """Cached diagnostics when the content is unchanged (the stat is refreshed)."""
        e = self._entry(path)
        if e is None or e[2] != digest:
            return None
        diags = self._restore(e)
        if diags is not None:
            self.store(path, size, stamp, digest, diags, e[4] if len(e) == 5 else None)
        return diags

    def has_fix(self, path: str, unsafe: bool) -> bool:
        """Whether the cached findings of `path` include a fix that `--fix` would apply."""
        e = self._entry(path)
        if e is None:
            return False
        try:
            return any(d.get("fix") and (unsafe or d["fix"].get("applicability") == "safe") for d in e[3])
        except (AttributeError, TypeError):
            return True  # unreadable: let the file be processed

    def _restore(self, e: list) -> list[Diagnostic] | None:
        try:
            diags = [Diagnostic.from_dict(d) for d in e[3]]
        except (ValueError, TypeError):
            return None  # a damaged entry (from_dict checks every field): a miss
        self.hits += 1
        return diags

    # ------------------------------------------------------------------ updates
    def store(self, path: str, size: int, stamp: tuple[int, int], digest: str, diagnostics: list[Diagnostic],
              deps: dict | None = None) -> None:
        """`stamp` is (mtime_ns, ctime_ns); a file modified within RACY_NS of now is recorded
        without it, so that it is verified by content next time."""
        if not self.enabled:
            return
        mtime = list(stamp) if time.time_ns() - stamp[0] > RACY_NS else None
        entry: list = [size, mtime, digest, [d.to_dict() for d in diagnostics]]
        if deps:
            entry.append({p: list(v) for p, v in deps.items()})
        if self.entries.get(path) != entry:
            self.entries[path] = entry
            self.dirty = True

    def save(self) -> None:
        """Write atomically (temp file + rename); failures leave the old cache in place."""
        if not self.enabled or not self.dirty:
            return
        directory = self.path.parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            ignore = directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Automatically created by gradlint.\n*\n")
            payload = json.dumps({"format": FORMAT, "key": self.key, "files": self.entries}, separators=(",", ":"))
            fd, tmp = tempfile.mkstemp(prefix=".cache-", suffix=".tmp", dir=directory)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(payload)
                os.replace(tmp, self.path)
            except BaseException:
                _unlink(tmp)
                raise
            self.dirty = False
            _prune(directory, keep=self.path)
        except OSError:
            pass  # a read-only checkout still lints; it just does not cache


def _deps_unchanged(deps: dict) -> bool:
    """Every module the cached check read still has its recorded size and mtime."""
    for p, v in deps.items():
        try:
            st = os.stat(p)
        except (OSError, TypeError, ValueError):
            return False
        if not (isinstance(v, list) and len(v) == 2 and v[0] == st.st_size and v[1] == st.st_mtime_ns):
            return False
    return True


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _prune(directory: Path, keep: Path) -> None:
    """Keep the KEEP most recently written cache files (one per settings key)."""
    try:
        files = sorted(directory.glob("cache-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for p in files[KEEP:]:
        if p != keep:
            _unlink(str(p))
