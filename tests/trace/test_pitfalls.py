"""Runnable training scripts (tests/trace/scripts/): each pitfall is reported at the line its
`# expect: GLxxx` comment marks, and nothing else (`# also:` marks a second report of the same
error where it was raised); each correct look-alike (`*_ok.py`) is silent."""

from __future__ import annotations

import pytest

from trace_support import SCRIPTS, expectations, trace_all

ALL = sorted(SCRIPTS.glob("*.py"))


@pytest.fixture(scope="module")
def reports():
    return trace_all(ALL)


@pytest.mark.parametrize("script", ALL, ids=lambda p: p.stem)
def test_script(reports, script):
    report = reports[script.name]
    must, may = expectations(script)
    found = {(f["code"], f["line"]) for f in report["findings"]}
    detail = [(f["code"], f["line"], f["message"][:120]) for f in report["findings"]]
    assert must <= found, (f"missing {sorted(must - found)}", detail, report.get("error"))
    assert found <= must | may, (f"unexpected {sorted(found - must - may)}", detail)
    if script.stem.endswith("_ok"):
        assert not must and not found
    err = report.get("error")
    if err is not None:  # only errors the findings explain
        assert err.get("explained"), err
    else:
        assert report["status"] in ("stopped", "finished")


def test_every_pitfall_has_a_correct_look_alike_and_an_expectation():
    pitfalls = [p for p in ALL if not p.stem.endswith("_ok")]
    assert len(pitfalls) >= 15
    for p in pitfalls:
        assert expectations(p)[0], f"{p.name} has no `# expect:` line"
    assert len([p for p in ALL if p.stem.endswith("_ok")]) >= 6


def test_stops_after_the_requested_steps(reports):
    r = reports["missing_zero_grad.py"]
    assert r["status"] == "stopped" and r["steps"] == 3
