// The packaged extension (dist/extension.js, vscode-languageclient inside) in the stand-in
// editor, against the real gradlint server from bundled/libs or the environment.
import assert from "node:assert/strict";
import * as path from "node:path";
import { after, afterEach, test } from "node:test";
import "./standin/install";
import { DiagnosticSeverity, Disposable, EventEmitter, Range, Uri } from "./standin/classes";
import { host } from "./standin/host";
import {
  activate,
  barePython,
  bundleBuilt,
  canImport,
  codeOf,
  gradlintDiagnostics,
  hostileWorkspace,
  logText,
  markers,
  noServerLeft,
  PYTHON,
  removeScratch,
  serverProcesses,
  type Session,
  workspaceWith,
} from "./helpers";

// pitfall.py line 10: `    tag = "🔥"; p = pred.numpy()`; 🔥 is two UTF-16 code units.
const PITFALL = { code: "GL101", range: new Range(9, 20, 9, 32) };
const TORCH = canImport(PYTHON, "torch");
const NO_BUNDLE = bundleBuilt() ? false : "bundled/libs is missing: run `npm run bundle-server` first";
const NO_TORCH = !TORCH && `torch is not importable by ${PYTHON}`;
// Each test starts its own server; 60 s is several times what one needs on an idle 2-core machine.
const LIMIT = { timeout: 60_000 };

let session: Session | undefined;
afterEach(async () => {
  await session?.stop(); // deactivate() as VS Code does on shutdown: the server must go away
  session = undefined;
  await noServerLeft();
  assert.deepEqual([...host.missing], [], "the extension or the client used vscode API the stand-in lacks");
});
after(removeScratch);

async function pitfallDiagnostics(uri: Uri) {
  return host.waitFor("gradlint diagnostics", () => {
    const d = gradlintDiagnostics(uri).filter((x) => codeOf(x) === PITFALL.code);
    return d.length > 0 && d;
  });
}

test("lints with the bundled server on a Python that has no gradlint", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("pitfall.py");
  session = await activate({ folder, user: { "gradlint.interpreter": [barePython()] } });
  assert.match(logText(), /Starting the gradlint server \(bundled/);
  const doc = host.open(path.join(folder, "pitfall.py"));

  const [d] = await pitfallDiagnostics(doc.uri);
  assert.deepEqual([d.range.start, d.range.end], [PITFALL.range.start, PITFALL.range.end], "UTF-16 columns");
  assert.equal(d.severity, DiagnosticSeverity.Error);
  assert.match(String(typeof d.code === "object" ? d.code.target : ""), /GL101/, "codeDescription links the rule page");

  // Fix the bug in the buffer (unsaved): the finding goes away on didChange.
  host.edit(doc, new Range(9, 0, 10, 200), "    return ((pred - target) ** 2).mean()");
  await host.waitFor("the finding to clear after the edit", () => gradlintDiagnostics(doc.uri).length === 0);
});

test("settings reach the server: gradlint.ignore silences a rule without a restart", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("pitfall.py");
  session = await activate({ folder, user: { "gradlint.importStrategy": "useBundled" } });
  const doc = host.open(path.join(folder, "pitfall.py"));
  await pitfallDiagnostics(doc.uri);
  const starts = logText().match(/Starting the gradlint server/g)?.length;

  host.setSetting("gradlint.ignore", ["GL101"], "workspace");
  await host.waitFor("GL101 to be ignored", () => gradlintDiagnostics(doc.uri).every((x) => codeOf(x) !== "GL101"));
  assert.equal(logText().match(/Starting the gradlint server/g)?.length, starts, "no restart for a lint setting");
});

test("checks gradients at the cursor, shows progress, the verdict and the report", { ...LIMIT, skip: NO_BUNDLE || NO_TORCH }, async () => {
  const folder = workspaceWith("grads.py");
  session = await activate({ folder, user: { "gradlint.interpreter": [PYTHON], "gradlint.importStrategy": "useBundled" } });
  const doc = host.open(path.join(folder, "grads.py"));
  host.showEditor(doc, 4, 10); // inside `smooth`

  const report = (await host.commands.get("gradlint.checkGradients")!()) as Record<string, unknown>;
  assert.equal(report?.verdict, "pass", JSON.stringify(report));
  const status = host.statusItems.find((s) => s.id === "gradlint.check")!;
  assert.ok(status.history.some((t) => t.includes("checking")), `status bar while running: ${status.history}`);
  assert.match(status.text, /gradients: pass/);
  assert.ok(host.progress.some((p) => /smooth/.test(p.title ?? "") && p.cancellable && p.done), "cancellable progress");
  assert.ok(host.messages.some((m) => m.level === "info" && /smooth.*pass/.test(m.message)), JSON.stringify(host.messages));
  // The server marks the def line with the verdict.
  await host.waitFor("the verdict on `def smooth`", () =>
    gradlintDiagnostics(doc.uri).some((x) => x.range.start.line === 3 && x.severity === DiagnosticSeverity.Information));

  // The code action "Check gradients of BadSquare", run as VS Code runs it: its command.
  const bad = (await runCodeAction(doc, 11, /Check gradients of BadSquare/)) as Record<string, unknown>;
  assert.equal(bad?.verdict, "fail", JSON.stringify(bad));
  assert.ok(host.messages.some((m) => m.level === "error" && /BadSquare.*fail/.test(m.message)));

  // "Show gradient report": the latest report, as a Markdown document beside the code.
  const shown = await host.commands.get("gradlint.showGradientReport")!();
  assert.equal(shown.languageId, "markdown");
  assert.match(shown.getText(), /BadSquare.*fail/);
  assert.equal(host.activeEditor.document, shown);

  // The server's "Show the gradient-check report of smooth" (on the verdict line) opens that one.
  await runCodeAction(doc, 3, /report of smooth/);
  assert.match(host.activeEditor.document.getText(), /smooth.*pass/);
});

test("traces the active script through the server: findings at their line; the code action does the same", { timeout: 180_000, skip: NO_BUNDLE || NO_TORCH }, async () => {
  const folder = workspaceWith("train.py");
  session = await activate({ folder, user: { "gradlint.interpreter": [PYTHON], "gradlint.importStrategy": "useBundled" } });
  const doc = host.open(path.join(folder, "train.py"));
  const blocks = doc.getText().split("\n").findIndex((l) => l.includes("self.blocks = ["));
  const traced = () => gradlintDiagnostics(doc.uri).filter((x) => codeOf(x) === "GL602");
  assert.deepEqual(traced(), [], "static linting is silent on this script");

  const report = (await host.commands.get("gradlint.traceScript")!()) as Record<string, any>;
  assert.equal(report?.status, "stopped", JSON.stringify(report));
  assert.deepEqual(report.findings.map((f: any) => [f.code, f.line]), [["GL602", blocks + 1]]);
  assert.ok(host.progress.some((p) => /tracing train\.py/.test(p.title ?? "") && p.done), "progress while tracing");
  assert.match(logText(), /trace of train\.py: stopped, 1 finding/);
  assert.match(logText(), /\[server\] gradlint trace of train\.py: 1 finding; traced 3 optimizer steps/);
  assert.ok(host.messages.some((m) => m.level === "warning" && /trace of train\.py: 1 finding \(see Problems\)/.test(m.message)), JSON.stringify(host.messages));
  const [d] = await host.waitFor("the trace's finding in the editor", () => traced().length > 0 && traced());
  assert.equal(d.range.start.line, blocks);
  assert.equal(d.severity, DiagnosticSeverity.Error);

  // The server's "Trace this script" code action, run as VS Code runs it: its command.
  const again = (await runCodeAction(doc, 0, /^Trace this script$/)) as Record<string, any>;
  assert.equal(again?.status, "stopped", JSON.stringify(again));
  assert.equal(again.findings.length, 1);
  assert.equal(traced().length, 1, "a new trace replaces the last one's findings");
});

/** Asks the client's code action provider for actions on `line` and runs the matching one's command. */
async function runCodeAction(doc: { uri: Uri }, line: number, title: RegExp): Promise<unknown> {
  const provider = host.providers.find((p) => p.kind === "codeActions")!.provider;
  const token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable(() => {}) };
  const context = { diagnostics: host.diagnostics(doc.uri).filter((d) => d.range.start.line === line), triggerKind: 1, only: undefined };
  const actions: { title: string; command?: { command: string; arguments?: unknown[] } }[] =
    (await provider.provideCodeActions(doc, new Range(line, 0, line, 0), context, token)) ?? [];
  const action = actions.find((a) => title.test(a.title));
  assert.ok(action?.command, `code actions on line ${line + 1}: ${actions.map((a) => a.title)}`);
  return host.commands.get(action.command.command)!(...(action.command.arguments ?? []));
}

test("cancelling from the progress notification stops the check", { ...LIMIT, skip: NO_BUNDLE || NO_TORCH }, async () => {
  const folder = workspaceWith("grads.py");
  session = await activate({ folder, user: { "gradlint.interpreter": [PYTHON], "gradlint.importStrategy": "useBundled" } });
  const doc = host.open(path.join(folder, "grads.py"));
  host.showEditor(doc, 23, 8); // inside `slow`, which sleeps for two minutes
  const started = Date.now();
  const running = host.commands.get("gradlint.checkGradients")!();
  const progress = await host.waitFor("the check's progress", () => host.progress.find((p) => /slow/.test(p.title ?? "")));
  progress.source.cancel(); // the Cancel button
  assert.equal(await running, undefined);
  assert.ok(Date.now() - started < 30000, "cancelled well before the function returns");
  const status = host.statusItems.find((s) => s.id === "gradlint.check")!;
  assert.match(status.text, /cancelled/);
});

test("untrusted workspace: lints, never runs code, and ignores workspace-chosen programs", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("pitfall.py", "grads.py");
  session = await activate({
    folder,
    trusted: false,
    user: { "gradlint.interpreter": [PYTHON] },
    workspace: { "gradlint.interpreter": ["/nonexistent/bin/python"], "gradlint.enableDynamicChecks": true },
  });
  const doc = host.open(path.join(folder, "pitfall.py"));
  await pitfallDiagnostics(doc.uri); // the user-level interpreter runs the server

  const grads = host.open(path.join(folder, "grads.py"));
  host.showEditor(grads, 4, 10);
  const result = await host.commands.get("gradlint.checkGradients")!();
  assert.equal(result, undefined);
  assert.ok(host.messages.some((m) => m.level === "warning" && /trust/.test(m.message)));
  assert.equal(host.progress.length, 0, "no check started");
  // "Trace this script" runs the workspace's code too: refused before anything reaches the server.
  assert.equal(await host.commands.get("gradlint.traceScript")!(), undefined);
  assert.ok(host.messages.some((m) => m.level === "warning" && /tracing runs this workspace's code; trust/.test(m.message)));
  assert.equal(host.progress.length, 0, "no trace started");
  assert.doesNotMatch(logText(), /trace of/);

  // Granting trust restarts the server with the workspace's settings: now its interpreter counts.
  host.grantTrust();
  await host.waitFor("the restart with the workspace interpreter", () => /nonexistent\/bin\/python: not found/.test(logText()));
  assert.ok(host.messages.some((m) => m.level === "error" && /nonexistent/.test(m.message)));
});

test("gradlint.enableDynamicChecks: off refuses checks; turning it on restarts the server", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("grads.py");
  session = await activate({ folder, user: { "gradlint.importStrategy": "useBundled", "gradlint.enableDynamicChecks": false } });
  const doc = host.open(path.join(folder, "grads.py"));
  host.showEditor(doc, 4, 10);
  assert.equal(await host.commands.get("gradlint.checkGradients")!(), undefined);
  assert.ok(host.messages.some((m) => m.level === "warning" && /turned off \(gradlint\.enableDynamicChecks\)/.test(m.message)));
  assert.equal(host.progress.length, 0);
  // "Trace this script" runs the workspace's code too: refused the same way, nothing sent.
  assert.equal(await host.commands.get("gradlint.traceScript")!(), undefined);
  assert.ok(host.messages.some((m) => m.level === "warning" && /tracing is turned off/.test(m.message)));

  // The server holds on to an initial dynamicChecks: false, so only a new one can say true.
  host.setSetting("gradlint.enableDynamicChecks", true);
  await host.waitFor("a restart", () => (logText().match(/gradlint server running/g)?.length ?? 0) === 2);
});

test("takes the interpreter from the Python extension and follows its changes", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("pitfall.py");
  const changed = new EventEmitter<unknown>();
  let selected = barePython();
  session = await activate({
    folder,
    user: { "gradlint.importStrategy": "useBundled" },
    before: () => {
      const environments = {
        getActiveEnvironmentPath: () => ({ id: selected, path: selected }),
        resolveEnvironment: async (e: { path: string }) => ({ executable: { uri: Uri.file(e.path) }, version: { major: 3, minor: 11 } }),
        onDidChangeActiveEnvironmentPath: changed.event,
      };
      host.extensions.set("ms-python.python", { id: "ms-python.python", isActive: false, exports: undefined, activate: async () => ({ environments }) });
    },
  });
  assert.match(logText(), new RegExp(`Python from python-extension\\): ${selected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  const doc = host.open(path.join(folder, "pitfall.py"));
  await pitfallDiagnostics(doc.uri);

  selected = PYTHON;
  changed.fire({ path: PYTHON });
  await host.waitFor("a restart on the new environment", () => (logText().match(/gradlint server running/g)?.length ?? 0) >= 2);
  assert.match(logText(), /Python from python-extension\): \S*python3?\S* \S*launcher\/start_server\.py lsp/);
});

test("restart command replaces the server process and diagnostics come back", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = workspaceWith("pitfall.py");
  session = await activate({ folder, user: { "gradlint.importStrategy": "useBundled" } });
  const doc = host.open(path.join(folder, "pitfall.py"));
  await pitfallDiagnostics(doc.uri);
  const before = serverProcesses();
  assert.equal(before.length, 1, before.join("\n"));

  const pid = (line: string) => line.trim().split(/\s+/)[0];
  await host.commands.get("gradlint.restart")!();
  // The old process exits on its own time after `exit`; then exactly one, new, server is left.
  await host.waitFor("one new server process", () => {
    const now = serverProcesses();
    return now.length === 1 && pid(now[0]) !== pid(before[0]);
  });
  await pitfallDiagnostics(doc.uri);
});

test("a Python older than 3.10 gets a clear error instead of a crash loop", LIMIT, async () => {
  const folder = workspaceWith("pitfall.py");
  const fake = path.join(folder, "old-python");
  // A stand-in for Python 3.8: answers the probe as an old interpreter would.
  require("node:fs").writeFileSync(fake, `#!/bin/sh\necho '{"implementation": "cpython", "version": [3, 8], "platform": "linux-x86_64", "executable": "${fake}", "gradlint": false}'\n`, { mode: 0o755 });
  session = await activate({ folder, user: { "gradlint.interpreter": [fake] } });
  assert.ok(host.messages.some((m) => m.level === "error" && /needs Python 3\.10 or newer.*3\.8/.test(m.message)), JSON.stringify(host.messages));
  assert.equal(serverProcesses().length, 0);
});

// Opening a folder never runs its code: not as the server's modules (`python -m` would import a
// workspace `gradlint/` or `json.py`), not at Python's start-up (sitecustomize, .pth), not as the
// interpreter, not by linting or offering code actions — trusted or not.
const HOSTILE_RUNS: [string, boolean, () => Record<string, unknown>][] = [
  ["untrusted, bundled server on a Python without gradlint", false, () => ({ "gradlint.interpreter": [barePython()] })],
  ["untrusted, gradlint from the environment", false, () => ({ "gradlint.interpreter": [PYTHON] })],
  ["trusted with dynamic checks on, bundled server", true, () => ({ "gradlint.interpreter": [PYTHON], "gradlint.importStrategy": "useBundled" })],
];
for (const [label, trusted, userSettings] of HOSTILE_RUNS) {
  test(`a hostile workspace runs nothing when opened: ${label}`, { ...LIMIT, skip: NO_BUNDLE }, async () => {
    const folder = hostileWorkspace();
    // a workspace that also tries to choose the program (ignored when untrusted; when trusted
    // it is the user's choice, so it is left out here)
    const workspace = trusted ? {} : { "gradlint.interpreter": [path.join(folder, ".venv", "bin", "python")], "gradlint.enableDynamicChecks": true };
    session = await activate({ folder, trusted, user: userSettings(), workspace });
    const doc = host.open(path.join(folder, "model.py"));
    await pitfallDiagnostics(doc.uri);
    const provider = host.providers.find((p) => p.kind === "codeActions")!.provider;
    const token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable(() => {}) };
    for (const line of [PITFALL.range.start.line + 5, 12]) {
      const context = { diagnostics: host.diagnostics(doc.uri).filter((d) => d.range.start.line === line), triggerKind: 1, only: undefined };
      await provider.provideCodeActions(doc, new Range(line, 0, line, 0), context, token);
    }
    host.edit(doc, new Range(0, 0, 0, 0), "# edited\n");
    await host.waitFor("diagnostics of the edited buffer", () => gradlintDiagnostics(doc.uri).some((d) => codeOf(d) === PITFALL.code && d.range.start.line === PITFALL.range.start.line + 6));
    assert.match(logText(), /launcher\/start_server\.py lsp/, "started through the launcher");
    assert.deepEqual(markers(folder), [], "workspace code ran");
  });
}

test("untrusted: a Python inside the workspace is never started, wherever it was chosen", { ...LIMIT, skip: NO_BUNDLE }, async () => {
  const folder = hostileWorkspace();
  const venvPython = path.join(folder, ".venv", "bin", "python");
  const changed = new EventEmitter<unknown>();
  // the Python extension's selection: the workspace's own environment
  session = await activate({
    folder,
    trusted: false,
    before: () => {
      const environments = {
        getActiveEnvironmentPath: () => ({ id: venvPython, path: venvPython }),
        resolveEnvironment: async (e: { path: string }) => ({ executable: { uri: Uri.file(e.path) }, version: { major: 3, minor: 11 } }),
        onDidChangeActiveEnvironmentPath: changed.event,
      };
      host.extensions.set("ms-python.python", { id: "ms-python.python", isActive: false, exports: undefined, activate: async () => ({ environments }) });
    },
  });
  assert.match(logText(), /Not using .*\.venv\/bin\/python from the Python extension/);
  await session.stop();
  await noServerLeft();
  // a user setting with a relative path: it would mean the workspace's
  session = await activate({ folder, trusted: false, user: { "gradlint.interpreter": [".venv/bin/python"] } });
  assert.ok(host.messages.some((m) => m.level === "error" && /inside this untrusted workspace/.test(m.message)), JSON.stringify(host.messages));
  assert.equal(serverProcesses().length, 0);
  await session.stop();
  // the default `python3`, when VS Code was started from a shell with the workspace's .venv active
  const savedPath = process.env.PATH;
  process.env.PATH = [path.join(folder, ".venv", "bin"), savedPath].join(path.delimiter);
  try {
    session = await activate({ folder, trusted: false });
  } finally {
    process.env.PATH = savedPath;
  }
  assert.ok(host.messages.some((m) => m.level === "error" && /\.venv\/bin\/python3: it lies inside this untrusted workspace/.test(m.message)), JSON.stringify(host.messages));
  assert.equal(serverProcesses().length, 0);
  assert.deepEqual(markers(folder), [], "workspace code ran");
});
