"""The open documents as parts of one project (gradlint/project/): what each check read, which
buffers are not on disk, and what a check found in another document.

- **Dependencies.** Each check in project mode answers with the files it read (the modules its
  document imports, transitively, as far as the analysis went). An edit to `losses.py` re-checks
  the open documents whose last check read it (`dependents`); so does a change on disk that the
  client's file watcher reports.
- **Unsaved buffers.** The lint process reads project modules from disk, except those the
  editor holds with unsaved changes: their text travels with each check (`texts`), so that a
  dependent sees the module as it is being edited. A buffer is unsaved from its first change
  to its next save; a document opened with text that differs from its file is unsaved too.
- **Findings in other documents.** `trainer/loop.py`'s check reports the pitfall it reaches
  in `losses.py` at `losses.py`'s line (the CLI does the same): when `losses.py` is open,
  those findings are published on it, next to its own. Each is kept with the text of
  `losses.py` the check saw, and shown only while that is still the text of the document
  (until the dependent's next check brings them up to date).

Nothing here talks LSP or to the lint processes: app.py feeds it and publishes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from gradlint.diagnostics import Diagnostic


class ProjectDocuments:
    def __init__(self) -> None:
        self._deps: dict[str, frozenset[str]] = {}  # document key -> files its last check read
        self._unsaved: dict[str, str] = {}  # path -> text of an open buffer not saved to disk
        # path of a document -> contributing key -> (its text as the check saw it, or None for
        # the file on disk, and the findings there)
        self._found: dict[str, dict[str, tuple[str | None, list[Diagnostic]]]] = {}

    # ------------------------------------------------------------------ buffers
    def edited(self, path: str, text: str) -> None:
        self._unsaved[os.path.abspath(path)] = text

    def saved(self, path: str) -> None:
        self._unsaved.pop(os.path.abspath(path), None)

    def opened(self, path: str, text: str, on_disk: str | None) -> None:
        """A document was opened with `text`; `on_disk`: its file's text (None: unreadable)."""
        if text != on_disk:
            self.edited(path, text)
        else:
            self.saved(path)

    def closed(self, path: str | None) -> bool:
        """Forget an open buffer; True when it was unsaved (its dependents read the file now)."""
        if path is None:
            return False
        return self._unsaved.pop(os.path.abspath(path), None) is not None

    def texts_for(self, path: str | None) -> dict[str, str]:
        """The unsaved buffers a check of the document at `path` reads in place of files."""
        me = os.path.abspath(path) if path else None
        return {p: t for p, t in self._unsaved.items() if p != me}

    # ------------------------------------------------------------------ dependencies
    def dependents(self, paths: Iterable[str], but: str | None = None) -> list[str]:
        """Keys of the documents whose last check read one of `paths`."""
        wanted = {os.path.abspath(p) for p in paths}
        return sorted(k for k, deps in self._deps.items() if k != but and not wanted.isdisjoint(deps))

    def keys(self) -> list[str]:
        return sorted(self._deps)

    def record(self, key: str, path: str | None, deps: Iterable[str], diagnostics: list[Diagnostic],
               seen: dict[str, str]) -> tuple[list[Diagnostic], set[str]]:
        """A check of `key` finished: its own findings (returned) and those in other files
        (kept for them); also returns the paths whose findings from `key` changed. `seen`: the
        unsaved texts the check was given."""
        self._deps[key] = frozenset(os.path.abspath(p) for p in deps)
        me = os.path.abspath(path) if path else None
        own: list[Diagnostic] = []
        elsewhere: dict[str, list[Diagnostic]] = {}
        for d in diagnostics:
            target = os.path.abspath(d.path) if d.path else None
            if target is None or target == me:
                own.append(d)
            else:
                elsewhere.setdefault(target, []).append(d)
        changed: set[str] = set()
        for target, by in self._found.items():
            if key in by and target not in elsewhere:
                del by[key]
                changed.add(target)
        for target, found in elsewhere.items():
            entry = (seen.get(target), found)
            by = self._found.setdefault(target, {})
            if by.get(key) != entry:
                by[key] = entry
                changed.add(target)
        self._drop_empty()
        return own, changed

    def found_in(self, path: str | None, text: str) -> list[Diagnostic]:
        """Findings other documents' checks made in the document at `path`, while its text is
        `text` (an unsaved buffer is compared with what each check was given; a saved one with
        the file those checks read)."""
        if path is None:
            return []
        p = os.path.abspath(path)
        unsaved = p in self._unsaved
        out: list[Diagnostic] = []
        seen_keys: set[tuple] = set()
        for _key, (seen, diags) in sorted(self._found.get(p, {}).items()):
            # an unsaved buffer, or one the check was given as unsaved: the same text only
            # (a check that read the file of a saved buffer saw what the buffer holds)
            if (unsaved or seen is not None) and seen != text:
                continue  # the check saw another version of this document
            for d in diags:
                k = (d.code, d.start, d.end)
                if k not in seen_keys:
                    seen_keys.add(k)
                    out.append(d)
        return out

    def forget(self, key: str) -> set[str]:
        """A document was closed: its dependencies and its findings elsewhere go (the paths
        whose findings changed are returned)."""
        self._deps.pop(key, None)
        changed = {t for t, by in self._found.items() if by.pop(key, None) is not None}
        self._drop_empty()
        return changed

    def _drop_empty(self) -> None:
        for t in [t for t, by in self._found.items() if not by]:
            del self._found[t]
