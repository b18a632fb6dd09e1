"""What the connected client can do, read once from its capabilities (every field of
ClientCapabilities is optional, so the lookups are centralised here)."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from .positions import normalize_encoding
from .protocol import client_can_pull


def _get(obj, *path, default=None):
    for name in path:
        if obj is None:
            return default
        obj = getattr(obj, name, None)
    return default if obj is None else obj


@dataclass(frozen=True)
class ClientFeatures:
    encoding: str = "utf-16"
    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    related_information: bool = False
    work_done_progress: bool = False
    document_changes: bool = False
    resolve_edit: bool = False
    disabled_actions: bool = False
    configuration: bool = False
    register_config_change: bool = False
    register_file_watch: bool = False

    @classmethod
    def from_caps(cls, caps: types.ClientCapabilities | None, encoding: object) -> ClientFeatures:
        if caps is None:
            return cls(encoding=normalize_encoding(encoding))
        resolve_props = _get(caps, "text_document", "code_action", "resolve_support", "properties", default=[])
        return cls(
            encoding=normalize_encoding(encoding),
            pull_diagnostics=client_can_pull(caps),
            diagnostic_refresh=bool(_get(caps, "workspace", "diagnostics", "refresh_support", default=False)),
            related_information=bool(_get(caps, "text_document", "publish_diagnostics", "related_information", default=False)),
            work_done_progress=bool(_get(caps, "window", "work_done_progress", default=False)),
            document_changes=bool(_get(caps, "workspace", "workspace_edit", "document_changes", default=False)),
            resolve_edit="edit" in resolve_props,
            disabled_actions=bool(_get(caps, "text_document", "code_action", "disabled_support", default=False)),
            configuration=bool(_get(caps, "workspace", "configuration", default=False)),
            register_config_change=bool(_get(caps, "workspace", "did_change_configuration", "dynamic_registration", default=False)),
            register_file_watch=bool(_get(caps, "workspace", "did_change_watched_files", "dynamic_registration", default=False)),
        )
