// Session helpers for the stand-in tests: a scratch workspace, Pythons to run the server with,
// activating the real extension bundle, and checks that no server process is left behind.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
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
    return out.split("\n").filter((l) => / gradlint lsp|-m gradlint lsp/.test(l));
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
