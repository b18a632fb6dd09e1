import * as vscode from "vscode";
import { DidChangeConfigurationNotification } from "vscode-languageclient/node";
import { GradientChecks, SHOW_REPORT } from "./check";
import { onDidChangePythonEnvironment } from "./python";
import { REPORT_SCHEME, ReportStore } from "./report";
import { ServerManager } from "./server";
import { RESTART_SETTINGS, readSettings, SECTION } from "./settings";
import { TRACE_SCRIPT, traceActiveScript, traces } from "./trace";

let servers: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel("gradlint", { log: true });
  const reports = new ReportStore();
  const root = () => vscode.workspace.workspaceFolders?.[0]?.uri;
  const checks: GradientChecks = new GradientChecks(reports, log, () => manager.serverSettings(root()));
  const manager: ServerManager = new ServerManager(context, log, checks.middleware, () => checks.running > 0 || traces.running > 0);
  servers = manager;

  context.subscriptions.push(
    log,
    reports,
    checks,
    manager,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports),
    vscode.commands.registerCommand("gradlint.checkGradients", () => checks.checkAtCursor(manager.client)),
    vscode.commands.registerCommand(SHOW_REPORT, () => checks.showLatest(manager.client)),
    vscode.commands.registerCommand(TRACE_SCRIPT, () => traceActiveScript(manager.client, () => manager.serverSettings(root()), log)),
    vscode.commands.registerCommand("gradlint.restart", () => manager.restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) {
        void manager.restart();
      } else if (e.affectsConfiguration(SECTION)) {
        void manager.client?.sendNotification(DidChangeConfigurationNotification.type, {
          settings: { [SECTION]: manager.serverSettings(root()) },
        });
      }
    }),
    // Trust changes which settings apply (restrictedConfigurations) and whether checks may run.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void manager.restart()),
    await onDidChangePythonEnvironment(() => {
      if (readSettings(root()).interpreter.length === 0) void manager.restart();
    }),
  );
  await manager.restart();
}

export async function deactivate(): Promise<void> {
  await servers?.stop();
  servers = undefined;
}
