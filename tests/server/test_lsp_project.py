"""The language server analyses a buffer in its project (server/dependents.py): an edit to a
module re-checks and re-publishes the open documents that import it, unsaved buffers stand in
for their files, a change on disk reported by the file watcher re-checks dependents, and a
pitfall a dependent's check finds in an open module is published on that module."""

from __future__ import annotations

import time

from lsprotocol import types

LOSSES_OK = """import torch


def smooth_l1(pred, target):
    diff = (pred - target).abs()
    return torch.where(diff < 1, 0.5 * diff**2, diff - 0.5).mean()
"""

# the model output leaves the graph: the model gets no gradient (GL101 at line 6)
LOSSES_CUT = """import numpy as np
import torch


def smooth_l1(pred, target):
    diff = (pred - target).abs().detach().cpu().numpy()
    return torch.tensor(np.where(diff < 1, 0.5 * diff**2, diff - 0.5).mean(), requires_grad=True)
"""

LOOP = """from losses import smooth_l1


def fit(model, optimizer, batches):
    for x, y in batches:
        optimizer.zero_grad()
        loss = smooth_l1(model(x), y)
        loss.backward()
        optimizer.step()
"""


def _codes(params: types.PublishDiagnosticsParams) -> list[tuple[int, str]]:
    return sorted((d.range.start.line + 1, str(d.code)) for d in params.diagnostics)


def _project(lsp, name: str, losses: str) -> tuple:
    root = lsp.root / name
    lsp.write(f"{name}/pyproject.toml", "")
    return lsp.write(f"{name}/losses.py", losses), lsp.write(f"{name}/loop.py", LOOP), root


async def test_an_edit_to_a_module_republishes_its_open_dependents(lsp) -> None:
    client = await lsp.start("neovim")
    losses, loop, _ = _project(lsp, "p1", LOSSES_OK)
    loop_uri = lsp.open(client, loop)
    first = await lsp.publish(client, loop_uri)
    assert not first.diagnostics
    losses_uri = lsp.open(client, losses)
    await lsp.publish(client, losses_uri)

    # the module is edited (not saved): the open file that imports it is re-checked with the
    # buffer's text, and the pitfall it now reaches is published on the module, where it is
    since = len(client.published)
    t0 = time.perf_counter()
    lsp.replace_all(client, losses_uri, LOSSES_CUT, 2)
    found = await lsp.publish(client, losses_uri, lambda p: any(str(d.code) == "GL101" for d in p.diagnostics), since=since)
    elapsed = time.perf_counter() - t0
    assert _codes(found) == [(6, "GL101")]
    assert "differentiated at loop.py:8" in found.diagnostics[0].message
    assert elapsed < 1.0 + 0.05, f"dependent re-published after {elapsed:.2f} s"  # 50 ms debounce
    # the dependent itself reports nothing of its own
    assert all(not p.diagnostics for p in client.published[since:] if p.uri == loop_uri)

    # the edit is undone: the finding goes away again
    since = len(client.published)
    lsp.replace_all(client, losses_uri, LOSSES_OK, 3)
    await lsp.publish(client, losses_uri, lambda p: not p.diagnostics and p.version == 3, since=since)


async def test_unopened_modules_are_read_from_disk_and_the_watcher_invalidates(lsp) -> None:
    client = await lsp.start("neovim")
    losses, loop, _ = _project(lsp, "p2", LOSSES_OK)
    loop_uri = lsp.open(client, loop)
    assert (await lsp.publish(client, loop_uri)).diagnostics == ()

    # losses.py changes on disk (a checkout): the watcher's event re-checks loop.py, whose
    # check now reaches the pitfall (reported in losses.py, which is not open: not published)
    losses.write_text(LOSSES_CUT)
    since = len(client.published)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=losses.as_uri(), type=types.FileChangeType.Changed)]))
    again = await lsp.publish(client, loop_uri, since=since)
    assert not again.diagnostics
    # opened now: its own check does not see the backward in loop.py, the dependent's does
    losses_uri = lsp.open(client, losses)
    found = await lsp.publish(client, losses_uri, lambda p: bool(p.diagnostics))
    assert _codes(found) == [(6, "GL101")]


async def test_project_mode_can_be_turned_off(lsp) -> None:
    client = await lsp.start("neovim", init={"project": False})
    losses, loop, _ = _project(lsp, "p3", LOSSES_CUT)
    losses_uri = lsp.open(client, losses)
    loop_uri = lsp.open(client, loop)
    assert (await lsp.publish(client, loop_uri)).diagnostics == ()
    assert (await lsp.publish(client, losses_uri)).diagnostics == ()
