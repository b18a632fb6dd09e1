"""benchmarks/trace_overhead.py still runs: one short interleaved round of each mode on the MLP,
with its JSON (the numbers themselves are measured with the defaults; see docs/trace.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "trace_overhead.py"


def test_benchmark_runs_and_reports_every_mode(tmp_path):
    out_json = tmp_path / "overhead.json"
    out = subprocess.run([sys.executable, str(BENCH), "--rounds", "2", "--steps-per-round", "2", "--models", "mlp",
                          "--json", str(out_json)], capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr  # 1: a bound missed in so short a run on a busy machine
    assert "traced/plain: wall" in out.stdout, out.stdout
    (result,) = json.loads(out_json.read_text())["results"]
    assert set(result["modes"]) == {"plain", "traced", "anomaly"}
    for row in result["modes"].values():
        assert row["wall_ms"] > 0 and row["cpu_ms"] > 0 and row["memory"]["peak_mb"] > 0
    assert result["modes"]["plain"]["wall_ratio"] == 1.0
