// Session helpers for the stand-in tests: a scratch workspace, Pythons to run the server with,
// activating the real extension bundle, and checks that no server process is left behind.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { deactivateExtension, EXTENSION_ROOT, extensionContext, loadExtension, manifest, SOURCE_ROOT } from "./standin/install";
import { host } from "./standin/host";
import type { Diagnostic, Uri } from "./standin/classes";

/**
 * The Python with torch (in CI, the project's venv): GRADLINT_TEST_PYTHON, else python3 on PATH;
 * as an absolute path, the form in which editors and the Python extension hand it over.
 */
export const PYTHON = execFileSync(process.env.GRADLINT_TEST_PYTHON || "python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();
export const FIXTURES = path.join(SOURCE_ROOT, "test", "fixtures");

const scratch: string[] = [];

export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `gradlint-vscode-${prefix}-`));
  scratch.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A workspace folder holding copies of the fixtures (the server may write next to them). */
export function workspaceWith(...files: string[]): string {
  const dir = scratchDir("ws");
  for (const f of files) cpSync(path.join(FIXTURES, f), path.join(dir, f));
  return dir;
}

let bare: string | undefined;
/** A fresh venv without pip or site-packages: a Python >= 3.10 that has no gradlint. */
export function barePython(): string {
  if (!bare) {
    const dir = scratchDir("venv");
    execFileSync(PYTHON, ["-m", "venv", "--without-pip", dir]);
    bare = path.join(dir, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  }
  return bare;
}

export function canImport(python: string, module: string): boolean {
  try {
    execFileSync(python, ["-c", `import ${module}`], { stdio: "ignore", timeout: 60000 });
    return true;
  } catch {
    return false;
  }
}

export function bundleBuilt(): boolean {
  return existsSync(path.join(EXTENSION_ROOT, "bundled", "libs", "gradlint_bundle.json"));
}

/** This process's children that run the gradlint server. */
export function serverProcesses(): string[] {
  try {
    const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
    return out.split("\n").filter((l) => / gradlint lsp|start_server\.py lsp/.test(l));
  } catch {
    return []; // ps exits 1 when there are no children
  }
}

export interface Session {
  folder: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  folder: string;
  trusted?: boolean;
  user?: Record<string, unknown>;
  workspace?: Record<string, unknown>;
  before?: () => void; // runs after the editor reset, before activation (register extensions...)
}

/** Resets the stand-in editor, applies settings, activates the extension bundle. */
export async function activate(o: StartOptions): Promise<Session> {
  host.reset({ folder: o.folder, trusted: o.trusted ?? true, manifest: manifest() });
  for (const [k, v] of Object.entries(o.user ?? {})) host.config.user.set(k, v);
  for (const [k, v] of Object.entries(o.workspace ?? {})) host.config.workspace.set(k, v);
  o.before?.();
  const ext = loadExtension();
  const context = extensionContext();
  await ext.activate(context);
  return { folder: o.folder, stop: () => deactivateExtension(ext, context) };
}

export function logText(): string {
  return (host.output.get("gradlint") ?? []).join("\n");
}

export function gradlintDiagnostics(uri: Uri): Diagnostic[] {
  return host.diagnostics(uri).filter((d) => d.source === "gradlint");
}

export function codeOf(d: Diagnostic): string | number | undefined {
  return typeof d.code === "object" ? d.code.value : d.code;
}

export async function noServerLeft(timeoutMs = 10000): Promise<void> {
  await host.waitFor("the server process to exit", () => serverProcesses().length === 0, timeoutMs);
}

// Everything Python could pick up from the folder it was started in, as a module the server, the
// linter or Python's start-up would import (tests/editors/hostile_workspace.py builds the same
// folder for the Python tests). Each writes `<workspace>/_markers/<name>-<pid>` when it runs.
const SHADOWS = [
  "gradlint/__init__.py", "gradlint/__main__.py", "gradlint_server/__init__.py", "gradlint_server/__main__.py",
  "json.py", "dataclasses.py", "typing.py", "__future__.py", "sitecustomize.py", "usercustomize.py", "conftest.py",
  "importlib/__init__.py", "types.py", "runpy.py",
  "lsprotocol/__init__.py", "pygls/__init__.py", "libcst/__init__.py", "torch/__init__.py",
];

function payload(tag: string): string {
  return [
    "import os as _os",
    "_d = _os.path.dirname(_os.path.abspath(__file__))",
    "while not _os.path.isdir(_os.path.join(_d, '_markers')) and _os.path.dirname(_d) != _d:",
    "    _d = _os.path.dirname(_d)",
    `open(_os.path.join(_d, '_markers', '${tag}-' + str(_os.getpid())), 'w').close()`,
    "",
  ].join("\n");
}

/**
 * A workspace whose every Python-importable file writes a marker when it runs, with
 * `model.py` (the pitfall fixture, marked too) to lint, and `.venv/bin/python`, a "Python"
 * that only writes a marker: starting it would be running the workspace's code.
 */
export function hostileWorkspace(): string {
  const dir = scratchDir("hostile");
  mkdirSync(path.join(dir, "_markers"));
  for (const rel of SHADOWS) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), payload(rel.replace(/\//g, "_")));
  }
  writeFileSync(path.join(dir, "evil.pth"), `import os; open(os.path.join(${JSON.stringify(path.join(dir, "_markers"))}, 'pth-' + str(os.getpid())), 'w').close()\n`);
  writeFileSync(path.join(dir, "model.py"), payload("model") + readFileSync(path.join(FIXTURES, "pitfall.py"), "utf8"));
  mkdirSync(path.join(dir, ".venv", "bin"), { recursive: true });
  for (const exe of ["python", "python3"]) {
    writeFileSync(path.join(dir, ".venv", "bin", exe), `#!/bin/sh\ntouch "${path.join(dir, "_markers", `venv-${exe}`)}"\nexit 1\n`, { mode: 0o755 });
  }
  return dir;
}

/** The markers written so far in a hostileWorkspace(). */
export function markers(dir: string): string[] {
  return readdirSync(path.join(dir, "_markers")).sort();
}
