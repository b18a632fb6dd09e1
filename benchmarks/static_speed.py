"""Static speed: gradlint check (cold and warm) against ruff and a bare libcst parse.

usage: python benchmarks/static_speed.py CORPUS [--repeat N] [--skip-libcst] [--jobs N]

Over CORPUS (the ~6,700-file, 2.4 M-line tree from ../shared/tools/fetch_realcode.sh) it runs,
alternating the tools in each round so that machine noise hits all of them alike:

  gradlint-cold   gradlint check CORPUS --no-cache            (parallel over the cores)
  gradlint-warm   gradlint check CORPUS  (after a priming run; nothing changed)
  ruff            ruff check --select ALL --no-cache --exit-zero CORPUS
  libcst-parse    libcst.parse_module on every file, one process

and prints wall time, CPU time (user+sys of the process tree), lines/s, peak RSS (sum over the
process tree, sampled every 20 ms), the median over the rounds, and the ratios the issue asks
for: gradlint cold / ruff (target <= 1.0), warm (target <= 3 s), peak RSS (target <= 1 GB).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _tree_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants, in bytes."""
    total = 0
    children: dict[int, list[int]] = {}
    try:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                ppid = int(fields[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    except OSError:
        return 0
    stack = [pid]
    page = os.sysconf("SC_PAGE_SIZE")
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            pass
        stack.extend(children.get(p, ()))
    return total


def run(cmd: list[str], env: dict | None = None) -> dict:
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            done.wait(0.02)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, err = proc.communicate()
    done.set()
    th.join()
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode(errors='replace')[-2000:]}")
    return {"wall": wall, "cpu": cpu, "rss": peak}


def count_lines(corpus: Path) -> tuple[int, int]:
    files = lines = 0
    for p in corpus.rglob("*.py"):
        files += 1
        with open(p, "rb") as f:
            lines += f.read().count(b"\n")
    return files, lines


LIBCST_SCRIPT = r"""
import sys, libcst
from pathlib import Path
for p in sorted(Path(sys.argv[1]).rglob("*.py")):
    try:
        libcst.parse_module(p.read_text(encoding="utf-8"))
    except Exception:
        pass
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-libcst", action="store_true", help="skip the (slow, ~3 min) bare libcst parse")
    ap.add_argument("--jobs", type=int, default=0, help="gradlint workers (default: all cores)")
    args = ap.parse_args(argv)
    corpus = args.corpus.resolve()
    files, lines = count_lines(corpus)
    py = sys.executable
    ruff = shutil.which("ruff") or str(Path(py).parent / "ruff")
    cache = Path(tempfile.mkdtemp(prefix="gradlint-bench-cache-"))
    env = dict(os.environ)
    gl = [py, "-m", "gradlint", "check", str(corpus), "--exit-zero", "--quiet"]
    if args.jobs:
        gl += ["--jobs", str(args.jobs)]
    tools = {
        "gradlint-cold": lambda: run(gl + ["--no-cache"], env),
        "gradlint-warm": lambda: run(gl + ["--cache-dir", str(cache)], env),
        "ruff": lambda: run([ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", str(corpus)]),
    }
    if not args.skip_libcst:
        tools["libcst-parse"] = lambda: run([py, "-c", LIBCST_SCRIPT, str(corpus)])
    print(f"corpus: {corpus}  files {files:,}  lines {lines:,}  cores {os.cpu_count()}")
    run(gl + ["--cache-dir", str(cache)], env)  # prime the warm cache
    results: dict[str, list[dict]] = {k: [] for k in tools}
    for r in range(args.repeat):
        for name, fn in tools.items():
            if name == "libcst-parse" and r > 0:
                continue  # minutes per run: once is enough for the ratio
            res = fn()
            results[name].append(res)
            print(f"  round {r + 1} {name:<14} wall {res['wall']:7.2f} s  cpu {res['cpu']:7.2f} s  rss {res['rss'] / 2**20:7.0f} MiB", flush=True)
    shutil.rmtree(cache, ignore_errors=True)

    def med(name: str, key: str) -> float:
        return statistics.median(x[key] for x in results[name])

    print()
    print(f"{'tool':<15}{'wall s':>9}{'cpu s':>9}{'lines/s':>12}{'peak RSS MiB':>14}")
    for name in tools:
        w = med(name, "wall")
        print(f"{name:<15}{w:>9.2f}{med(name, 'cpu'):>9.2f}{lines / w:>12,.0f}{max(x['rss'] for x in results[name]) / 2**20:>14.0f}")
    cold, warm, ruffw = med("gradlint-cold", "wall"), med("gradlint-warm", "wall"), med("ruff", "wall")
    print()
    print(f"gradlint cold / ruff (wall): {cold / ruffw:.2f}   (target <= 1.0)")
    print(f"gradlint warm: {warm:.2f} s   (target <= 3 s)")
    print(f"gradlint peak RSS: {max(x['rss'] for x in results['gradlint-cold']) / 2**20:.0f} MiB   (target <= 1024)")
    if "libcst-parse" in results:
        print(f"bare libcst parse / gradlint cold (wall): {med('libcst-parse', 'wall') / cold:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
