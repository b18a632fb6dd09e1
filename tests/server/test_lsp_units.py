"""Unit tests of the server's pure parts: positions, edits, targets, notebooks, settings, and the
scheduler's debounce/coalescing (with a fake check)."""

from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import given, settings as hsettings, strategies as st
from lsprotocol import types

from gradlint.diagnostics import Position
from gradlint_server import targets
from gradlint_server.documents import DocumentClosed, Scheduler
from gradlint_server.positions import UTF8, UTF16, UTF32, LineIndex, minimal_edit, to_code_points, to_units
from gradlint_server.settings import Settings, from_sources, merge


# ---------------------------------------------------------------------- positions
def _units(s: str, enc: str) -> int:
    if enc == UTF16:
        return len(s.encode("utf-16-le")) // 2
    if enc == UTF8:
        return len(s.encode("utf-8"))
    return len(s)


line_text = st.text(alphabet=st.sampled_from(list("ab ()=_xé€😀\t中𝔘")), max_size=30)


@given(line_text, st.integers(0, 40), st.sampled_from([UTF8, UTF16, UTF32]))
@hsettings(max_examples=300, deadline=None)
def test_code_points_round_trip(line: str, col: int, enc: str) -> None:
    units = to_units(line, col, enc)
    assert units == _units(line[: min(col, len(line))], enc)
    assert to_code_points(line, units, enc) == min(col, len(line))


def test_unit_inside_a_character_rounds_down() -> None:
    line = "a😀b"
    assert to_code_points(line, 2, UTF16) == 1  # between the surrogates
    assert to_code_points(line, 3, UTF8) == 1  # inside the 4-byte sequence
    assert to_code_points(line, 99, UTF16) == 3


def test_line_index_clamps_positions_past_the_end() -> None:
    idx = LineIndex("x = 1\r\né = 2\n", UTF16)
    assert idx.to_lsp(Position(99, 0)) == types.Position(line=2, character=0)
    assert idx.to_lsp(Position(2, 99)) == types.Position(line=1, character=5)  # "\r" is no column
    assert idx.to_engine(types.Position(line=50, character=3)) == Position(3, 0)
    assert idx.to_engine(types.Position(line=1, character=2)) == Position(2, 2)


def _apply(text: str, edit: types.TextEdit) -> str:
    # LSP's line ends: "\r\n", "\r" and "\n" (each line here keeps its end)
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)

    def offset(p: types.Position) -> int:
        line = lines[p.line].rstrip("\r\n") if p.line < len(lines) else ""
        return sum(len(ln) for ln in lines[: p.line]) + to_code_points(line, p.character, UTF16)

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


docs = st.lists(st.sampled_from(["a", "b = 1", "", "é😀", "x\r", "y\rz"]), max_size=8).map("\n".join)


@given(docs, docs)
@hsettings(max_examples=300, deadline=None)
def test_minimal_edit_turns_old_into_new(old: str, new: str) -> None:
    edit = minimal_edit(old, new, LineIndex(old, UTF16))
    if old == new:
        assert edit is None
    else:
        assert _apply(old, edit) == new


# ---------------------------------------------------------------------- targets
SOURCE = '''\
import torch
from torch import nn


# gradlint: inputs=(torch.randn(2, 3,
#                   dtype=torch.float64),)
# gradlint: seed=3
@torch.jit.ignore
def f(x):
    def inner(y):
        return y * 2
    return inner(x).sum()


class Net(nn.Module):
    def forward(self, x):
        return x


class Sub(Net):
    pass


class Square(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g


class Plain:
    def method(self, x):
        return x
'''


def test_targets_cover_functions_methods_modules_and_functions() -> None:
    found = {t.qualname: t.kind for t in targets.all_targets(SOURCE)}
    assert found == {"f": "function", "Net": "module", "Sub": "module", "Square": "autograd-function", "Plain.method": "method"}
    lines = SOURCE.split("\n")

    def at(snippet: str) -> str | None:
        t = targets.target_at(SOURCE, lines.index(snippet) + 1)
        return t.qualname if t else None

    assert at("        return y * 2") == "f"  # a closure belongs to its function
    assert at("@torch.jit.ignore") == "f"
    assert at("        return x") in ("Net", "Plain.method")
    assert at("        return g") == "Square"
    assert at("import torch") is None
    assert targets.all_targets("def broken(:\n") == []


def test_inputs_comment_above_decorators_with_continuation() -> None:
    t = targets.find(SOURCE, "f")
    assert targets.comment_options(SOURCE, t) == {"inputs": "(torch.randn(2, 3, dtype=torch.float64),)", "seed": "3"}
    assert targets.comment_options(SOURCE, targets.find(SOURCE, "Net")) == {}


def test_locate_follows_moves_and_notices_edits() -> None:
    where = targets.locate(SOURCE, "Plain.method")
    assert SOURCE.split("\n")[where.line - 1][where.start_col : where.end_col] == "method"
    moved = "\n\n" + SOURCE
    assert targets.locate(moved, "Plain.method").line == where.line + 2
    assert targets.locate(moved, "Plain.method").digest == where.digest
    edited = SOURCE.replace("        return x\n'''", "").replace("    def method(self, x):\n        return x", "    def method(self, x):\n        return -x")
    assert targets.locate(edited, "Plain.method").digest != where.digest
    assert targets.locate(SOURCE, "missing") is None


# ---------------------------------------------------------------------- settings
def test_settings_merge_validates_and_keeps_untrusted_off() -> None:
    s = from_sources({"gradlint": {"select": "GL1, GL2", "debounce": 10}}, {"ignore": ["GL205"], "debounce": "fast", "dynamicChecks": True})
    assert s.select == ("GL1", "GL2") and s.ignore == ("GL205",) and s.debounce_ms == 10
    assert any("debounce" in p for p in s.problems)
    untrusted = from_sources({"dynamicChecks": False}, {"dynamicChecks": True})
    assert untrusted.dynamic_checks is False
    assert merge(Settings(), {"interpreter": ["/usr/bin/python3"]}).python == "/usr/bin/python3"
    assert merge(Settings(), None) == Settings()


@pytest.mark.parametrize("shape", [
    {"dynamicChecks": False},
    {"gradlint": {"dynamicChecks": False}},
    {"dynamicChecks": False, "gradlint": {"select": ["GL"]}},  # a flat false beside a section
    {"dynamicChecks": True, "gradlint": {"dynamicChecks": False}},
    {"dynamicChecks": False, "gradlint": {"dynamicChecks": True}},
    {"dynamicChecks": "false"}, {"dynamicChecks": "true"}, {"dynamicChecks": 1}, {"dynamicChecks": 0},
    {"dynamicChecks": None}, {"gradlint": {"dynamicChecks": []}}, {"gradlint": {"dynamicChecks": {}}},
])
def test_dynamic_checks_fail_closed(shape) -> None:
    """Only a literal `true` leaves gradient checks on; any other value, in either shape, turns
    them off, and nothing later turns them back on (REPORT.md #14)."""
    s = from_sources(shape)
    assert s.dynamic_checks is False, shape
    assert from_sources(shape, {"dynamicChecks": True}, {"gradlint": {"dynamicChecks": True}}).dynamic_checks is False
    if any(not isinstance(v, bool) for v in (shape.get("dynamicChecks"), (shape.get("gradlint") or {}).get("dynamicChecks")) if v is not None):
        assert any("dynamicChecks" in p and "gradient checks are off" in p for p in s.problems), s.problems


def test_dynamic_checks_on_only_when_literally_true() -> None:
    assert from_sources(None).dynamic_checks is True  # the documented default: absent means on
    assert from_sources({"select": ["GL1"]}, {"gradlint": {"debounce": 5}}).dynamic_checks is True
    assert from_sources({"dynamicChecks": True}, {"gradlint": {"dynamicChecks": True}}).dynamic_checks is True
    assert from_sources({"dynamicChecks": True}, {"dynamicChecks": None}).dynamic_checks is False  # a later off wins


# ---------------------------------------------------------------------- scheduler
class FakeChecks:
    def __init__(self, delay: float = 0.05) -> None:
        self.delay = delay
        self.text: dict[str, str] = {}
        self.checked: list[tuple[str, str]] = []
        self.published: list[tuple[str, int, str]] = []

    async def run(self, key: str) -> str:
        text = self.text[key]  # read before the first await, as the contract says
        await asyncio.sleep(self.delay)
        self.checked.append((key, text))
        return text

    def on_result(self, key, result) -> None:
        self.published.append((key, result.gen, result.payload))


async def test_burst_of_changes_coalesces_and_publishes_only_the_newest() -> None:
    fake = FakeChecks(delay=0.05)
    sched = Scheduler(fake.run, fake.on_result)
    sched.start()
    fake.text["a"] = "v0"
    sched.touch("a", 0)
    await asyncio.sleep(0.01)  # the first check is running
    for i in range(1, 1001):
        fake.text["a"] = f"v{i}"
        sched.touch("a", 0)
    result = await asyncio.wait_for(sched.current("a"), 5)
    assert result.payload == "v1000"
    assert len(fake.checked) <= 3  # the one running, then the newest: never 1,000
    assert [p for _, _, p in fake.published] == ["v1000"]  # "v0" was stale when it finished
    await sched.stop()


async def test_debounce_waits_for_quiet_and_close_cancels() -> None:
    fake = FakeChecks(delay=0)
    sched = Scheduler(fake.run, fake.on_result)
    sched.start()
    for i in range(5):
        fake.text["a"] = f"v{i}"
        sched.touch("a", 0.1)
        await asyncio.sleep(0.02)
    assert fake.checked == []
    await asyncio.sleep(0.2)
    assert fake.checked == [("a", "v4")]
    fake.text["b"] = "x"
    sched.touch("b", 10)
    waiter = asyncio.ensure_future(sched.current("b"))  # flushes the 10 s debounce
    assert (await asyncio.wait_for(waiter, 2)).payload == "x"
    sched.touch("b", 10)
    waiter = asyncio.ensure_future(sched.current("b"))
    sched.close("b")
    await asyncio.sleep(0)
    with pytest.raises(DocumentClosed):
        await waiter
    await sched.stop()


async def test_invalidate_only_then_pull_checks_on_demand() -> None:
    fake = FakeChecks(delay=0)
    sched = Scheduler(fake.run, fake.on_result)
    sched.start()
    fake.text["a"] = "v1"
    sched.touch("a", None)
    await asyncio.sleep(0.05)
    assert fake.checked == []  # pull mode: nothing until asked
    assert (await asyncio.wait_for(sched.current("a"), 2)).payload == "v1"
    assert sched.latest("a") is not None
    await sched.stop()


# ---------------------------------------------------------------------- incremental sync
def _reference_offset(text: str, pos: types.Position, enc: str) -> int:
    # LSP's line ends: "\r\n", "\r" and "\n" (each line here keeps its end)
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text) or [""]
    if pos.line >= len(lines):
        return len(text)
    line = lines[pos.line].rstrip("\r\n")
    codec, width = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}[enc]
    # a column inside a character rounds down (a partial sequence decodes to nothing)
    prefix = line.encode(codec)[: pos.character * width].decode(codec, "ignore")
    return sum(len(ln) for ln in lines[: pos.line]) + len(prefix)


position = st.builds(types.Position, line=st.integers(0, 6), character=st.integers(0, 12))


@given(docs, st.lists(st.tuples(position, position, st.sampled_from(["", "x", "é\n", "😀", "\n\n", "\x0c", "\r", "y\r\n"])), max_size=6), st.sampled_from([UTF8, UTF16, UTF32]))
@hsettings(max_examples=200, deadline=None)
def test_incremental_changes_match_a_reference(text: str, changes, enc: str) -> None:
    from pygls.workspace.position_codec import PositionCodec

    from gradlint_server.protocol import _Document

    doc = _Document("file:///t.py", source=text, version=1, position_codec=PositionCodec(enc))
    expected = text
    for a, b, new in changes:
        start, end = sorted([(a.line, a.character), (b.line, b.character)])
        rng = types.Range(start=types.Position(*start), end=types.Position(*end))
        s0, s1 = _reference_offset(expected, rng.start, enc), _reference_offset(expected, rng.end, enc)
        expected = expected[:s0] + new + expected[max(s0, s1):]
        doc.apply_change(types.TextDocumentContentChangePartial(range=rng, text=new))
        assert doc.source == expected
