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
