"""The processes of a check, found through /proc: the worker and everything it started.

torch-free and stdlib-only: the parent (CLI, language server) and the child both use it.

A target can leave the worker's process group (`os.setpgid(0, 0)`) or even its session
(`os.setsid()`), so neither a group kill nor a session kill reaches everything. The tree of a
worker is therefore every process that is

- a descendant of the worker (by parent pid) -- the worker is a child subreaper
  (PR_SET_CHILD_SUBREAPER, child.py), so an orphan whose parent died is re-parented to the
  worker instead of init and stays a descendant, `setsid` and double forks included;
- in the worker's session or process group (the worker is the leader of both), which catches a
  process that left the tree some other way but not the session.

Killing first stops every member (SIGSTOP: a stopped process cannot fork), rescanning until no
new member appears, then kills them all, so a fork loop cannot outrun it.

Memory: RLIMIT_DATA (child.py) limits each process's private memory but not shared mappings
(MAP_SHARED, /dev/shm, torch's share_memory_). `MemoryWatch` adds up, for the whole tree,
resident anonymous + shared-memory pages (RssAnon + RssShmem from /proc/PID/status, cheap)
plus files created in /dev/shm during the check that a member was seen holding (open or
mapped, polled every 0.1 s: a file another program writes meanwhile is not the check's) and
that no member maps any longer; above the limit it
re-measures with proportional set sizes (Pss_Anon + Pss_Shmem from smaps_rollup, which counts a
page shared by several members once) and only then reports the check over the limit.

Linux only; elsewhere `available()` is False and callers fall back to the process group.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass

PROC = "/proc"
SHM = "/dev/shm"
PR_SET_CHILD_SUBREAPER = 36


def available() -> bool:
    return sys.platform.startswith("linux") and os.path.isdir(os.path.join(PROC, "self"))


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    pgrp: int
    sid: int
    state: str


def snapshot() -> dict[int, Proc]:
    """Every process this user can see, from /proc/PID/stat."""
    procs: dict[int, Proc] = {}
    try:
        names = os.listdir(PROC)
    except OSError:
        return procs
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{PROC}/{name}/stat", "rb") as f:
                data = f.read()
        except OSError:
            continue
        # comm may contain spaces and parentheses: the fields start after the last ')'
        fields = data[data.rfind(b")") + 2:].split()
        try:
            procs[int(name)] = Proc(int(name), int(fields[1]), int(fields[2]), int(fields[3]),
                                    fields[0].decode("ascii", "replace"))
        except (IndexError, ValueError):
            continue
    return procs


def members(root: int, procs: dict[int, Proc] | None = None) -> set[int]:
    """The tree of `root` (see the module docstring), root included if it exists."""
    procs = snapshot() if procs is None else procs
    children: dict[int, list[int]] = {}
    for p in procs.values():
        children.setdefault(p.ppid, []).append(p.pid)
    found = {p.pid for p in procs.values() if p.sid == root or p.pgrp == root}
    if root in procs:
        found.add(root)
    stack = list(found)
    while stack:
        for kid in children.get(stack.pop(), ()):
            if kid not in found:
                found.add(kid)
                stack.append(kid)
    return found


def alive(pids: set[int], procs: dict[int, Proc] | None = None) -> set[int]:
    """Those of `pids` that are running (not zombies)."""
    procs = snapshot() if procs is None else procs
    return {pid for pid in pids if pid in procs and procs[pid].state not in ("Z", "X")}


def command(pid: int, limit: int = 80) -> str:
    try:
        with open(f"{PROC}/{pid}/cmdline", "rb") as f:
            text = " ".join(f.read().replace(b"\0", b" ").decode("utf-8", "replace").split())
    except OSError:
        text = ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def kill_tree(root: int, keep_root: bool = False, rounds: int = 50) -> list[tuple[int, str]]:
    """Stop, then kill, every process in root's tree (root too unless `keep_root`).
    -> (pid, command) of the processes other than root that were running."""
    stopped: set[int] = set()
    found: list[tuple[int, str]] = []
    own = command(root, limit=10**6)
    for _ in range(rounds):
        procs = snapshot()
        tree = members(root, procs)
        if keep_root:
            tree.discard(root)
        fresh = alive(tree, procs) - stopped
        if not fresh:
            break
        for pid in fresh:
            if pid != root:
                cmd = command(pid)
                forked = own and command(pid, limit=10**6) == own
                found.append((pid, "a fork of the checking process (os.fork, multiprocessing)" if forked else cmd))
            _signal(pid, signal.SIGSTOP)
            stopped.add(pid)
    for pid in stopped:
        _signal(pid, signal.SIGKILL)
    return found


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def become_subreaper() -> bool:
    """Orphans of the processes we start are re-parented to us, not to init (Linux >= 3.4)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# -- memory -----------------------------------------------------------------------------------


def _status_kb(pid: int, keys: tuple[str, ...]) -> int:
    try:
        with open(f"{PROC}/{pid}/status") as f:
            return sum(int(line.split()[1]) for line in f if line.split(":", 1)[0] in keys)
    except (OSError, ValueError, IndexError):
        return 0


def _rollup_kb(pid: int, keys: tuple[str, ...]) -> int:
    try:
        with open(f"{PROC}/{pid}/smaps_rollup") as f:
            return sum(int(line.split()[1]) for line in f if line.split(":", 1)[0] in keys)
    except (OSError, ValueError, IndexError):
        return _status_kb(pid, ("RssAnon", "RssShmem"))


def _shm_files() -> dict[str, int]:
    """/dev/shm files of this user: path -> bytes allocated."""
    out: dict[str, int] = {}
    uid = os.getuid()
    try:
        with os.scandir(SHM) as it:
            for entry in it:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if st.st_uid == uid and entry.is_file(follow_symlinks=False):
                    out[entry.path] = st.st_blocks * 512
    except OSError:
        pass
    return out


def _mapped(pids: set[int]) -> set[str]:
    paths: set[str] = set()
    for pid in pids:
        try:
            with open(f"{PROC}/{pid}/maps") as f:
                for line in f:
                    if SHM in line:
                        paths.add(line.split(None, 5)[-1].strip().removesuffix(" (deleted)"))
        except OSError:
            continue
    return paths


def _opened(pids: set[int]) -> set[str]:
    """/dev/shm files that the processes hold open."""
    paths: set[str] = set()
    for pid in pids:
        fd_dir = f"{PROC}/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"{fd_dir}/{fd}")
            except OSError:
                continue
            if target.startswith(SHM + "/"):
                paths.add(target.removesuffix(" (deleted)"))
    return paths


class MemoryWatch:
    """Measures the memory of a worker's tree while a check runs (see the module docstring)."""

    POLL = 0.1  # seconds between measurements
    RESCAN = 0.5  # seconds between full /proc scans for new members

    def __init__(self, root: int, limit_bytes: int) -> None:
        self.root = root
        self.limit = limit_bytes
        self.shm_before = set(_shm_files())
        # /dev/shm files this check's processes were seen holding (open or mapped): only those
        # count. A file that appeared during the check but that no member ever held is another
        # program's -- a concurrent check, a DataLoader elsewhere -- not this check's.
        self.shm_owned: set[str] = set()
        self.pids: set[int] = {root}
        self.next_poll = 0.0
        self.next_scan = 0.0
        self.peak = 0

    def _shm_extra(self, pids: set[int]) -> int:
        new = {p: n for p, n in _shm_files().items() if p not in self.shm_before}
        if not new:
            return 0
        mapped = _mapped(pids)  # mapped pages are already in RssShmem / Pss_Shmem
        self.shm_owned |= (mapped | _opened(pids)) & new.keys()
        return sum(n for p, n in new.items() if p in self.shm_owned and p not in mapped)

    def usage(self, precise: bool = False) -> int:
        """Bytes: the tree's anonymous + shared-memory pages, plus unmapped new /dev/shm files."""
        if precise:
            kb = sum(_rollup_kb(pid, ("Pss_Anon", "Pss_Shmem")) for pid in self.pids)
        else:
            kb = sum(_status_kb(pid, ("RssAnon", "RssShmem")) for pid in self.pids)
        return kb * 1024 + self._shm_extra(self.pids)

    def over(self, now: float | None = None) -> int | None:
        """Polled by the parent's wait loop: the usage in bytes if it is over the limit."""
        now = time.monotonic() if now is None else now
        if self.limit <= 0 or now < self.next_poll:
            return None
        self.next_poll = now + self.POLL
        if now >= self.next_scan:
            self.next_scan = now + self.RESCAN
            self.pids = members(self.root) or {self.root}
        used = self.usage()
        self.peak = max(self.peak, used)
        if used <= self.limit:
            return None
        used = self.usage(precise=True)
        return used if used > self.limit else None
