"""Configuration without restarts: initializationOptions, workspace/configuration,
didChangeConfiguration, pyproject.toml changes (watched or not), broken pyproject.toml."""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types


def codes(pub) -> set[str]:
    return {d.code for d in pub.diagnostics}


async def test_init_options_and_workspace_configuration_select_rules(lsp, findings) -> None:
    safe, unsafe = findings.safe.code, findings.unsafe.code
    path = lsp.copy_fixture("pitfalls.py")
    by_init = await lsp.start("neovim", init={"select": [unsafe]})
    uri = lsp.open(by_init, path)
    assert codes(await lsp.publish(by_init, uri)) == {unsafe}

    # workspace/configuration is asked before the first check and wins over init options
    by_config = await lsp.start("neovim", init={"select": [unsafe]}, settings={"select": [safe]})
    uri = lsp.open(by_config, path)
    assert codes(await lsp.publish(by_config, uri)) == {safe}

    # didChangeConfiguration: the server asks again and re-publishes every open document
    by_config.set_configuration({"ignore": [safe]}, section="gradlint")
    start = len(by_config.published)
    by_config.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    pub = await lsp.publish(by_config, uri, since=start)
    assert codes(pub) == findings.codes - {safe}


async def test_bad_settings_are_reported_once_and_ignored(lsp, findings) -> None:
    pitfalls = findings.text
    client = await lsp.start("neovim", settings={"debounce": "fast", "select": ["GL999"]})
    path = lsp.copy_fixture("pitfalls.py")
    uri = lsp.open(client, path)
    pub = await lsp.publish(client, uri)
    assert codes(pub) == findings.codes  # defaults apply
    uri2 = lsp.open(client, lsp.write("other.py", pitfalls))
    await lsp.publish(client, uri2)
    messages = [m.message for m in client.messages]
    assert sum("debounce" in m for m in messages) == 1
    assert sum("GL999" in m for m in messages) == 1


async def test_pyproject_change_is_watched_and_applied(lsp, findings) -> None:
    safe = findings.safe.code
    client = await lsp.start("vscode")  # pulls diagnostics, watches files
    await lsp.until(lambda: client.registrations, what="registrations")
    (watch,) = [r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert watch.register_options["watchers"][0]["globPattern"] == "**/pyproject.toml"
    path = lsp.copy_fixture("pitfalls.py")
    uri = lsp.open(client, path)
    assert safe in {d.code for d in (await lsp.pull(client, uri)).items}

    pyproject = lsp.write("pyproject.toml", f'[tool.gradlint]\nignore = ["{safe}"]\n')
    refreshes = client.diagnostic_refresh_count
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Created)])
    )
    await lsp.until(lambda: client.diagnostic_refresh_count > refreshes, what="workspace/diagnostic/refresh")
    items = (await lsp.pull(client, uri)).items
    assert {d.code for d in items} == findings.codes - {safe}


async def test_pyproject_edit_without_a_watcher_applies_on_next_change(lsp, findings) -> None:
    pitfalls, safe, unsafe = findings.text, findings.safe.code, findings.unsafe.code
    client = await lsp.start("neovim")  # Neovim 0.11 registers no watchers dynamically
    pyproject = lsp.write("pyproject.toml", f'[tool.gradlint]\nselect = ["{safe}"]\n')
    path = lsp.copy_fixture("pitfalls.py")
    uri = lsp.open(client, path)
    assert codes(await lsp.publish(client, uri)) == {safe}
    pyproject.write_text(f'[tool.gradlint]\nselect = ["{unsafe}"]\n')
    st = pyproject.stat()
    os.utime(pyproject, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # coarse clocks
    lsp.replace_all(client, uri, pitfalls, 2)
    assert codes(await lsp.publish(client, uri, lambda p: p.version == 2)) == {unsafe}


async def test_broken_pyproject_one_message_and_defaults(lsp, findings) -> None:
    pitfalls = findings.text
    lsp.write("pyproject.toml", "[tool.gradlint\nselect = [\n")
    client = await lsp.start("neovim")
    uris = [lsp.open(client, lsp.write(f"m{i}.py", pitfalls)) for i in range(3)]
    for uri in uris:
        assert codes(await lsp.publish(client, uri)) == findings.codes
    await asyncio.sleep(0.2)
    errors = [m for m in client.messages if m.type == types.MessageType.Error]
    assert len(errors) == 1 and "pyproject.toml" in errors[0].message and "invalid TOML" in errors[0].message

    # an unknown code in a valid file: reported, defaults still apply
    lsp.write("pyproject.toml", '[tool.gradlint]\nselect = ["GL9"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=(lsp.root / "pyproject.toml").as_uri(), type=types.FileChangeType.Changed)])
    )
    await lsp.until(lambda: any("GL9" in m.message for m in client.messages), what="the GL9 message")
