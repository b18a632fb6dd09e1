"""What tracing costs: one traced training step against an untraced one, on a small CNN and an
MLP, with torch.autograd.detect_anomaly measured side by side.

    python benchmarks/trace_overhead.py [--steps 60] [--threads 1] [--device cpu|cuda]

Each configuration runs in its own process (so instrumentation never leaks into the baseline
and peak memory is per configuration): `plain`, `traced` (the same instrumentation as
`gradlint trace`, installed in-process with an unlimited step budget) and `anomaly`
(`torch.autograd.detect_anomaly()` around the steps). Time is the median of the measured
steps after warm-up; memory is the peak resident-set growth over the steps (what the steps
allocate, not the interpreter and torch). The bounds of issue 16: traced <= 3x plain in time,
<= 1.5x in memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

MODELS = ("mlp", "cnn")
MODES = ("plain", "traced", "anomaly")


def _child(model: str, mode: str, steps: int, threads: int, device: str) -> dict:
    import resource
    import statistics
    import time

    if mode == "traced":
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from gradlint.trace import hooks
        from gradlint.trace.state import Session, activate

        activate(Session(steps=10**9))
        hooks.install([])
    import torch
    import torch.nn as nn

    torch.set_num_threads(threads)
    torch.manual_seed(0)
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

    def rss() -> int:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    ctx = torch.autograd.detect_anomaly() if mode == "anomaly" else None
    if ctx is not None:
        ctx.__enter__()
    for _ in range(5):
        step()
    before = rss()
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if ctx is not None:
        ctx.__exit__(None, None, None)
    return {"model": model, "mode": mode, "step_ms": 1000 * statistics.median(times),
            "peak_growth_mb": max(0, peak - before) / 2**20, "peak_mb": peak / 2**20}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_child(args.child[0], args.child[1], args.steps, args.threads, args.device)))
        return 0
    rows = []
    for model in MODELS:
        for mode in MODES:
            out = subprocess.run([sys.executable, __file__, "--child", model, mode, "--steps", str(args.steps),
                                  "--threads", str(args.threads), "--device", args.device],
                                 capture_output=True, text=True, check=True)
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{'model':<5} {'mode':<8} {'step ms':>9} {'x plain':>8} {'peak MB':>9} {'growth MB':>10}")
    ok = True
    for model in MODELS:
        base = next(r for r in rows if r["model"] == model and r["mode"] == "plain")
        for r in (x for x in rows if x["model"] == model):
            ratio = r["step_ms"] / base["step_ms"]
            print(f"{model:<5} {r['mode']:<8} {r['step_ms']:>9.2f} {ratio:>8.2f} {r['peak_mb']:>9.1f} "
                  f"{r['peak_growth_mb']:>10.1f}")
            if r["mode"] == "traced":
                mem = r["peak_mb"] / base["peak_mb"]
                ok &= ratio <= 3.0 and mem <= 1.5
                print(f"      traced/plain: time {ratio:.2f}x (bound 3x), peak memory {mem:.2f}x (bound 1.5x)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
