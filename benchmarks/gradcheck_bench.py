"""gradlint.gradcheck against torch.autograd.gradcheck (fast and slow mode).

Cases (from issue 4):
  mse      (x + 1) / 2 then MSELoss(reduction="sum") over 140x120
  mlp      Linear(128, 256) - ReLU - Linear(256, 10) at 64x128 (input and parameters)
  softplus a 96x96 custom autograd.Function: correct, backward x1.01, x1.001, wrong where
           x > 2, and using the saved tensor transposed

Reports, per case: best-of-N time of the check itself (in-process API, one thread, interpreter
start excluded), peak extra memory (each tool in a fresh process), which planted bugs each
tool catches, and false alarms on the correct cases over many seeds in float64 and float32.
And the cold start: a whole `gradlint gradcheck` command (a fresh interpreter, its child, torch
imported, the check) and the first check of a fresh worker (what the editor's first check
costs), each next to a bare `python -c "import torch"` on the same machine, interleaved.
torch.autograd.gradcheck sees the same work: for the MLP, input and parameters through
torch.func.functional_call.

    python benchmarks/gradcheck_bench.py            # full run (~5 min, slow mode included)
    python benchmarks/gradcheck_bench.py --quick    # ~1 min, slow mode on one case only
    python benchmarks/gradcheck_bench.py --only cold     # the cold-start section only
    python benchmarks/gradcheck_bench.py --only timing   # check times and memory only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gradlint.dynamic import gradcheck

BUGS = ("x1.01", "x1.001", "gt2", "transposed")


# -- the cases ---------------------------------------------------------------------------------


def softplus_function(kind: str = "ok"):
    class Softplus(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return nn.functional.softplus(x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            s = torch.sigmoid(x)
            if kind == "x1.01":
                return g * s * 1.01
            if kind == "x1.001":
                return g * s * 1.001
            if kind == "gt2":  # "softplus(x) ~ x for large x", with the threshold far too low
                return g * torch.where(x > 2, torch.ones_like(s), s)
            if kind == "transposed":
                return g * torch.sigmoid(x.t())
            return g * s

    Softplus.__name__ = f"Softplus[{kind}]"
    return Softplus


def make_case(case: str, seed: int, kind: str = "ok"):
    """-> (our target, its inputs, (torch function, torch inputs in float64 requiring grad))."""
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    if case == "mse":
        target = torch.randn(140, 120, generator=g)
        loss = nn.MSELoss(reduction="sum")

        def f(x):
            return loss((x + 1) / 2, target.to(x.dtype))

        x = torch.randn(140, 120, generator=g)
        return f, (x,), (f, (x.double().requires_grad_(),))
    if case == "mlp":
        model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))
        x = torch.randn(64, 128, generator=g)
        ref = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10)).double()
        ref.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
        names = [n for n, _ in ref.named_parameters()]

        def call(x, *params):
            return torch.func.functional_call(ref, dict(zip(names, params)), (x,))

        params = [p.detach().clone().requires_grad_() for p in ref.parameters()]
        return model, (x,), (call, (x.double().requires_grad_(), *params))
    fn = softplus_function(kind)
    x = torch.randn(96, 96, generator=g)
    return fn, (x,), (fn.apply, (x.double().requires_grad_(),))


def torch_check(fn, args, fast: bool) -> bool:
    try:
        return bool(torch.autograd.gradcheck(fn, args, fast_mode=fast, raise_exception=False))
    except RuntimeError:
        return False


# -- measurements --------------------------------------------------------------------------------


def best_ms(fn, repeats: int) -> float:
    """Best of `repeats` runs after two warm-ups: on a shared machine the scheduler adds 1-20 ms
    to single runs at random (medians of a 1-ms check then measure the load, not the code)."""
    for _ in range(2):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * min(times)


def timings(case: str, repeats: int, slow: bool) -> dict:
    ours_fn, ours_args, (tfn, targs) = make_case(case, 0)
    ours = best_ms(lambda: gradcheck(ours_fn, *ours_args), repeats)
    fast = best_ms(lambda: torch_check(tfn, targs, True), repeats)
    ours = min(ours, best_ms(lambda: gradcheck(ours_fn, *ours_args), repeats))  # interleaved
    row = {"case": case, "ours_ms": ours, "fast_ms": fast, "slow_s": None}
    if slow:
        t = time.perf_counter()
        torch_check(tfn, targs, False)
        row["slow_s"] = time.perf_counter() - t
    return row


def memory_child(case: str, tool: str) -> None:
    """In a fresh process: peak resident memory added by one check, in MB."""
    torch.set_num_threads(1)
    ours_fn, ours_args, (tfn, targs) = make_case(case, 0)
    gradcheck(make_case("softplus", 1)[0], torch.randn(4, 4))  # import/warm everything first
    torch_check(*make_case("softplus", 1)[2], True)
    before = _rss_mb()
    if tool == "ours":
        gradcheck(ours_fn, *ours_args)
    else:
        torch_check(tfn, targs, tool == "fast")
    print(json.dumps({"extra_mb": max(0.0, _status_mb("VmHWM") - before)}))


def _rss_mb() -> float:
    return _status_mb("VmRSS")


def _status_mb(field: str) -> float:
    # VmHWM is the peak of this address space (reset by exec); ru_maxrss is not: on Linux a
    # child started after the parent ran slow mode would inherit the parent's 4 GB peak.
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def memory(case: str, tool: str) -> float | None:
    out = subprocess.run([sys.executable, __file__, "--memory-child", case, tool],
                         capture_output=True, text=True, timeout=900, check=False)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])["extra_mb"]
    except (IndexError, ValueError, KeyError):
        return None


def detection(seeds: int, slow: bool) -> list[dict]:
    rows = []
    for kind in BUGS:
        row = {"bug": kind}
        for dtype in ("float64", "float32"):
            verdicts = []
            for s in range(seeds):
                fn, inputs, _ = make_case("softplus", s, kind)
                verdicts.append(gradcheck(fn, *inputs, dtype=dtype, seed=s).verdict)
            row[f"ours_{dtype}"] = (verdicts.count("fail"), verdicts.count("inconclusive"), seeds)
        fast = [not torch_check(*make_case("softplus", s, kind)[2], True) for s in range(seeds)]
        row["fast"] = (sum(fast), seeds)
        row["slow"] = (not torch_check(*make_case("softplus", 0, kind)[2], False), 1) if slow else None
        rows.append(row)
    return rows


def false_alarms(seeds: int) -> list[dict]:
    rows = []
    for case in ("mse", "mlp", "softplus"):
        for dtype in ("float64", "float32"):
            counts = {"pass": 0, "inconclusive": 0, "fail": 0, "error": 0}
            times = []
            for s in range(seeds):
                fn, args, _ = make_case(case, s)
                t = time.perf_counter()
                counts[gradcheck(fn, *args, dtype=dtype, seed=s).verdict] += 1
                times.append(time.perf_counter() - t)
            row = {"case": case, "dtype": dtype, **counts, "median_ms": 1000 * statistics.median(times)}
            if dtype == "float64":
                row["fast_fails"] = sum(not torch_check(*make_case(case, s)[2], True) for s in range(seeds))
            rows.append(row)
    return rows


# -- cold start ------------------------------------------------------------------------------------

COLD_TARGET = """import torch
from torch import nn


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return nn.functional.softplus(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x)
"""


def _gradlint_command() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "gradlint")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "gradlint"]


def _wall(cmd: list[str], cwd: str) -> float:
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    took = time.perf_counter() - t
    if out.returncode not in (0,):
        raise RuntimeError(f"{cmd} exited {out.returncode}: {out.stdout[-500:]}{out.stderr[-500:]}")
    return took


def _first_worker_check(path: str) -> float:
    from gradlint.dynamic.worker import Worker

    with Worker() as worker:
        t = time.perf_counter()
        report = worker.run({"target": f"{path}::Softplus", "inputs": "torch.randn(96, 96)"}, timeout=120)
        took = time.perf_counter() - t
    if report["verdict"] != "pass":
        raise RuntimeError(report["explanation"])
    return took


def cold_start(runs: int) -> dict:
    """Medians over `runs` rounds; each round runs the three one after another, so that the
    machine's load affects them alike."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "softplus_fn.py")
        with open(path, "w") as f:
            f.write(COLD_TARGET)
        bare, cli, worker = [], [], []
        for _ in range(runs):
            bare.append(_wall([sys.executable, "-c", "import torch"], tmp))
            cli.append(_wall([*_gradlint_command(), "gradcheck", f"{path}::Softplus",
                              "--inputs", "torch.randn(96, 96)"], tmp))
            worker.append(_first_worker_check(path))
    return {k: statistics.median(v) for k, v in (("bare", bare), ("cli", cli), ("worker", worker))}


# -- report ------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer seeds and repeats; slow mode on softplus only")
    ap.add_argument("--only", choices=("cold", "timing"), help="run one section only")
    ap.add_argument("--memory-child", nargs=2, metavar=("CASE", "TOOL"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_child:
        memory_child(*args.memory_child)
        return
    torch.set_num_threads(1)  # the machine is shared: one thread gives stable medians
    repeats, seeds, bug_seeds = (7, 20, 10) if args.quick else (25, 120, 40)
    print(f"torch {torch.__version__}, {os.cpu_count()} CPUs, 1 torch thread; "
          f"{'quick' if args.quick else 'full'} run\n")

    cold = cold_start(5 if args.quick else 11) if args.only in (None, "cold") else None
    if cold is not None:
        print("## Cold start (median wall time, softplus autograd.Function 96x96)\n")
        print("| | wall | / bare `import torch` |")
        print("|---|---|---|")
        print(f"| `python -c \"import torch\"` | {cold['bare']:.2f} s | 1.00x |")
        print(f"| cold CLI: `gradlint gradcheck file.py::Softplus --inputs ...` | {cold['cli']:.2f} s | "
              f"{cold['cli'] / cold['bare']:.2f}x |")
        print(f"| first check of a fresh worker (the editor's first check) | {cold['worker']:.2f} s | "
              f"{cold['worker'] / cold['bare']:.2f}x |\n", flush=True)
    if args.only == "cold":
        return

    print(f"## Time of the check (best of {repeats}, in-process) and peak extra memory\n")
    print("| case | gradlint | torch fast | torch slow | gradlint / fast | slow / gradlint "
          "| memory gradlint | memory fast | memory slow |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in ("mse", "mlp", "softplus"):
        slow = not args.quick or case == "softplus"
        row = timings(case, repeats, slow)
        mem = {tool: memory(case, tool) for tool in ("ours", "fast") + (("slow",) if slow else ())}
        slow_s = row["slow_s"]
        slow_cell = f"{slow_s:.2f} s" if slow_s else "-"
        speedup = f"{1000 * slow_s / row['ours_ms']:.0f}x" if slow_s else "-"
        mems = " | ".join(f"{mem[t]:.1f} MB" if mem.get(t) is not None else "-" for t in ("ours", "fast", "slow"))
        print(f"| {case} | {row['ours_ms']:.2f} ms | {row['fast_ms']:.2f} ms | {slow_cell} | "
              f"{row['ours_ms'] / row['fast_ms']:.2f}x | {speedup} | {mems} |", flush=True)
    if args.only == "timing":
        return

    print(f"\n## Planted bugs in the 96x96 softplus Function (caught = verdict fail; {bug_seeds} seeds)\n")
    print("| backward | gradlint float64 | gradlint float32 | torch fast | torch slow (seed 0) |")
    print("|---|---|---|---|---|")
    for r in detection(bug_seeds, not args.quick):
        f64, f32 = r["ours_float64"], r["ours_float32"]
        slow = "-" if r["slow"] is None else ("caught" if r["slow"][0] else "missed")
        unsure = f" ({f32[1]} inconclusive)" if f32[1] else ""
        print(f"| {r['bug']} | {f64[0]}/{f64[2]} | {f32[0]}/{f32[2]}{unsure} | "
              f"{r['fast'][0]}/{r['fast'][1]} | {slow} |", flush=True)

    print(f"\n## Correct cases: verdicts over {seeds} seeds (a false alarm is a fail)\n")
    print("| case | dtype | pass | inconclusive | fail | median time | torch fast fails (float64) |")
    print("|---|---|---|---|---|---|---|")
    for r in false_alarms(seeds):
        print(f"| {r['case']} | {r['dtype']} | {r['pass']} | {r['inconclusive']} | {r['fail']} | "
              f"{r['median_ms']:.1f} ms | {r.get('fast_fails', '-')} |", flush=True)


if __name__ == "__main__":
    main()
