"""What tracing costs: one traced training step against an untraced one, on a small MLP and a
small CNN, with torch.autograd.detect_anomaly measured side by side.

    python benchmarks/trace_overhead.py [--rounds 20] [--steps-per-round 10] [--threads 1]
                                        [--device cpu|cuda] [--json FILE]

Made to give stable ratios on a busy machine:

- Each mode runs in its own long-lived process (instrumentation never leaks into the baseline;
  memory is per mode): `plain`, `traced` (the instrumentation of `gradlint trace`, installed
  in-process with an unlimited step budget, so every measured step is observed) and `anomaly`
  (`torch.autograd.detect_anomaly()` around the steps).
- The modes are **interleaved**: in each round every process runs `--steps-per-round` steps in
  turn (the order rotates from round to round) while the others wait, so a burst of load from
  elsewhere hits all modes alike instead of one configuration.
- Every step is timed by wall clock and by the process's CPU time (CPU time does not count the
  time the process waited for a core: on a shared machine it is the steadier measure). A mode's
  step time is the median over all its steps; a ratio is the median over rounds of
  (median traced step / median plain step) within the round, with the spread of the per-round
  ratios (25th-75th percentile) shown beside it.
- Memory ("train MB"): the peak resident set during the measured steps (the kernel's high-water
  mark, reset after warm-up) minus the resident set before the model was built — the model,
  optimizer state, activations, graphs and what the instrumentation keeps, plus the kernel
  libraries torch loads on first use (the same in every mode); not the interpreter and torch.
  The whole process's peak is shown as well, and "step +MB": how far the peak of the measured
  steps rose above the resident set after warm-up (memory that grows with the steps).

Bounds (issue 16): traced <= 3x plain in step time (wall and CPU) and <= 1.5x in memory. The
exit status is 1 when a bound is exceeded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

MODELS = ("mlp", "cnn")
MODES = ("plain", "traced", "anomaly")
TIME_BOUND, MEMORY_BOUND = 3.0, 1.5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------------------- the child
def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_peak() -> bool:
    """Reset the kernel's high-water mark of this process's RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _peak() -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(model: str, mode: str, threads: int, device: str) -> None:
    """Set up one mode, then serve the parent: `run N` (times of N steps), `memory`, `quit`."""
    if mode == "traced":
        sys.path.insert(0, ROOT)
        from gradlint.trace import hooks
        from gradlint.trace.state import Session, activate

        activate(Session(steps=10**9))
        hooks.install([])
    import torch
    import torch.nn as nn

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    base = _rss()  # the interpreter, torch and (traced) the instrumentation: not training
    if model == "mlp":
        net = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
        x = torch.randn(128, 784)
    else:
        net = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Flatten(), nn.Linear(64 * 8 * 8, 10))
        x = torch.randn(64, 3, 32, 32)
    net, x = net.to(device), x.to(device)
    y = torch.randint(0, 10, (x.shape[0],), device=device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step() -> None:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        if device == "cuda":
            torch.cuda.synchronize()

    warnings.filterwarnings("ignore", message="Anomaly Detection has been enabled")
    ctx = torch.autograd.detect_anomaly() if mode == "anomaly" else None
    if ctx is not None:
        ctx.__enter__()
    for _ in range(5):  # warm-up: allocator pools, lazy initialisation, first-call caches
        step()
    warm = _rss()
    exact_peak = _reset_peak()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd or cmd[0] == "quit":
            break
        if cmd[0] == "run":
            wall, cpu = [], []
            for _ in range(int(cmd[1])):
                w0, c0 = time.perf_counter(), time.process_time()
                step()
                c1, w1 = time.process_time(), time.perf_counter()
                wall.append(w1 - w0)
                cpu.append(c1 - c0)
            print(json.dumps({"wall": wall, "cpu": cpu}), flush=True)
        elif cmd[0] == "memory":
            peak = _peak()
            print(json.dumps({"train_mb": max(0, peak - base) / 2**20, "peak_mb": peak / 2**20,
                              "step_growth_mb": max(0, peak - warm) / 2**20, "exact_peak": exact_peak}), flush=True)
    if ctx is not None:
        ctx.__exit__(None, None, None)


# ---------------------------------------------------------------------------- the parent
class Mode:
    def __init__(self, model: str, mode: str, args: argparse.Namespace) -> None:
        self.mode = mode
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--child", model, mode, "--threads", str(args.threads),
             "--device", args.device],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.rounds: list[dict] = []

    def ask(self, command: str) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if command:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.mode} process ended (exit {self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ask("quit")
            except (RuntimeError, BrokenPipeError, ValueError):
                pass
            self.proc.wait(30)


def _quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def measure(model: str, args: argparse.Namespace) -> dict:
    modes = [Mode(model, m, args) for m in MODES]
    try:
        for m in modes:
            m.ask("")  # ready: set up and warmed up
        for r in range(args.rounds):
            k = r % len(modes)
            for m in modes[k:] + modes[:k]:  # rotate who goes first
                m.rounds.append(m.ask(f"run {args.steps_per_round}"))
        memory = {m.mode: m.ask("memory") for m in modes}
    finally:
        for m in modes:
            m.close()
    by_mode = {m.mode: m for m in modes}
    out = {"model": model, "modes": {}}
    for m in modes:
        row: dict = {"memory": memory[m.mode]}
        for clock in ("wall", "cpu"):
            steps = [t for rnd in m.rounds for t in rnd[clock]]
            row[f"{clock}_ms"] = 1000 * statistics.median(steps)
            base_rounds = by_mode["plain"].rounds
            ratios = [statistics.median(a[clock]) / statistics.median(b[clock]) for a, b in zip(m.rounds, base_rounds)]
            row[f"{clock}_ratio"] = statistics.median(ratios)
            row[f"{clock}_ratio_iqr"] = _quartiles(ratios)
        plain_mem = memory["plain"]["train_mb"]
        row["memory_ratio"] = memory[m.mode]["train_mb"] / plain_mem if plain_mem > 0 else float("nan")
        row["peak_ratio"] = memory[m.mode]["peak_mb"] / memory["plain"]["peak_mb"]
        out["modes"][m.mode] = row
    return out


def report(results: list[dict], args: argparse.Namespace) -> bool:
    print(f"{args.rounds} interleaved rounds x {args.steps_per_round} steps per mode, {args.threads} thread(s), "
          f"{args.device}; ratios: median over rounds [25th-75th percentile]")
    print(f"{'model':<5} {'mode':<8} {'wall ms':>8} {'x plain':>18} {'cpu ms':>8} {'x plain':>18} "
          f"{'train MB':>9} {'x plain':>8} {'peak MB':>8} {'step +MB':>8}")
    ok = True
    for res in results:
        for mode, row in res["modes"].items():
            cells = []
            for clock in ("wall", "cpu"):
                lo, hi = row[f"{clock}_ratio_iqr"]
                cells.append(f"{row[clock + '_ms']:>8.2f} {row[clock + '_ratio']:>6.2f} [{lo:.2f}-{hi:.2f}]")
            mem = row["memory"]
            print(f"{res['model']:<5} {mode:<8} {cells[0]:>27} {cells[1]:>27} {mem['train_mb']:>9.1f} "
                  f"{row['memory_ratio']:>8.2f} {mem['peak_mb']:>8.1f} {mem['step_growth_mb']:>8.1f}")
        t = res["modes"]["traced"]
        within = (t["wall_ratio"] <= TIME_BOUND and t["cpu_ratio"] <= TIME_BOUND and t["memory_ratio"] <= MEMORY_BOUND)
        ok &= within
        print(f"      traced/plain: wall {t['wall_ratio']:.2f}x, cpu {t['cpu_ratio']:.2f}x (bound {TIME_BOUND:g}x); "
              f"training memory {t['memory_ratio']:.2f}x, whole process {t['peak_ratio']:.2f}x "
              f"(bound {MEMORY_BOUND:g}x) — {'within' if within else 'OUT OF'} bounds")
    if not all(r["modes"]["plain"]["memory"]["exact_peak"] for r in results):
        print("note: could not reset the peak RSS (/proc/self/clear_refs): memory includes start-up peaks")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--steps-per-round", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--models", default=",".join(MODELS), help="comma-separated: mlp,cnn")
    ap.add_argument("--json", metavar="FILE", help="also write the measurements as JSON")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.threads, args.device)
        return 0
    if args.rounds < 1 or args.steps_per_round < 1:
        ap.error("--rounds and --steps-per-round must be at least 1")
    results = [measure(model, args) for model in args.models.split(",")]
    ok = report(results, args)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"args": {k: v for k, v in vars(args).items() if k != "child"}, "results": results}, fh, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
