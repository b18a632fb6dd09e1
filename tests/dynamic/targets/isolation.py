"""Targets that misbehave: each must end as verdict "error" with a reason, within the time
limit, leaving no process behind."""

import ctypes
import os
import subprocess
import sys
import threading
import time

import torch


def loop(x):
    while True:
        pass


def hog(x):
    keep = []
    while True:
        keep.append(torch.empty(1 << 26))  # 256 MiB a step


def chatty(x):
    line = "x" * (1 << 20)
    while True:
        print(line)


def bail(x):
    os._exit(3)


def segfault(x):
    ctypes.string_at(0)


def spawn_and_hang(x, pidfile):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(pidfile, "w") as f:
        f.write(str(child.pid))
    while True:
        time.sleep(0.05)


def spawn_and_return(x, pidfile):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(pidfile, "w") as f:
        f.write(str(child.pid))
    return x * 2


def leave_thread(x):
    threading.Thread(target=lambda: time.sleep(120), daemon=True).start()
    return x * 2


def quit_(x):
    sys.exit(3)


def boom(x):
    raise ValueError("negative widths are not supported")


def fine(x):
    print("hello from the target")
    return (x * x).sum()


# -- escapes from the process group, the session, the memory limit, the reply channel ----------


def _escape(pidfile, how):
    """Fork a sleeper that leaves our process group (setpgid) or session (setsid, double fork)."""
    pid = os.fork()
    if pid == 0:
        if how == "setsid_orphan":  # double fork: the sleeper's parent exits, it is re-parented
            os.setsid()
            if os.fork() != 0:
                os._exit(0)
        elif how == "setsid":
            os.setsid()
        else:
            os.setpgid(0, 0)
        with open(pidfile + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(pidfile + ".tmp", pidfile)
        time.sleep(120)
        os._exit(0)
    deadline = time.monotonic() + 10
    while not os.path.exists(pidfile) and time.monotonic() < deadline:
        time.sleep(0.01)
    if how == "setsid_orphan":
        # the double fork's middle process exits at once: reap it, so that only the orphaned
        # sleeper is left (under load it could still be exiting when the check returns)
        os.waitpid(pid, 0)


def setpgid_and_pass(x, pidfile):
    if not os.path.exists(pidfile):
        _escape(pidfile, "setpgid")
    return x * 2


def setsid_and_pass(x, pidfile):
    if not os.path.exists(pidfile):
        _escape(pidfile, "setsid_orphan")
    return x * 2


def setpgid_and_hang(x, pidfile):
    _escape(pidfile, "setpgid")
    while True:
        time.sleep(0.05)


def shared_mmap(x):
    import mmap

    m = mmap.mmap(-1, 2 << 30)  # MAP_SHARED: RLIMIT_DATA does not count it
    for i in range(0, len(m), 4096):
        m[i] = 1
    return x * 2


def shm_file(x, path):
    with open(path, "wb") as f:  # tmpfs: memory, though no process maps it
        block = b"\1" * (1 << 20)
        for _ in range(2048):
            f.write(block)
            f.flush()
    return x * 2


def forge(x):
    """Write a forged 'pass' to every descriptor it has (the reply channel among them)."""
    import json

    line = (json.dumps({"type": "result", "id": 1, "report": {"verdict": "pass", "explanation": "FORGED"}})
            + "\n").encode()
    for fd in range(3, 1024):
        try:
            os.write(fd, line)
        except OSError:
            pass
    return x * 2


def close_channel(x):
    os.closerange(3, 1 << 16)
    time.sleep(60)


def channel_hidden(x):
    """Passes only if neither the command line nor a subprocess sees the reply channel."""
    import stat

    for a in sys.argv[1:]:
        if a.isdigit():
            try:
                assert not stat.S_ISSOCK(os.fstat(int(a)).st_mode), sys.argv
            except OSError:
                pass  # not a descriptor of ours (the memory limit)
    out = subprocess.run(["ls", "-l", "/proc/self/fd"], capture_output=True, text=True).stdout
    assert "socket" not in out, out
    assert sys.stdin.read() == ""
    return x * 2
