// "gradlint: Trace this script": runs `gradlint trace` on the active file through the server's
// `gradlint.trace` command (the server's "Trace this script" code action takes the same path).
// Tracing runs the workspace's code, so it is refused in an untrusted workspace and when dynamic
// checks are off, before anything is sent.
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type { ServerSettings } from "./settings";

export const TRACE = "gradlint.trace";
export const TRACE_SCRIPT = "gradlint.traceScript";

/** Traces under way: the server's own summary message is not popped up beside ours meanwhile. */
export const traces = { running: 0 };

export interface TraceReport {
  status?: string;
  steps?: number | null;
  findings?: unknown[];
  error?: { kind?: string; message?: string; explained?: boolean } | null;
  message?: string;
}

export async function traceActiveScript(
  client: LanguageClient | undefined,
  settings: () => ServerSettings,
  log: vscode.LogOutputChannel,
): Promise<TraceReport | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void vscode.window.showInformationMessage("gradlint: open a Python training script to trace it.");
    return undefined;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage("gradlint: tracing runs this workspace's code; trust the workspace to allow it.");
    return undefined;
  }
  if (!settings().dynamicChecks) {
    void vscode.window.showWarningMessage("gradlint: tracing is turned off (gradlint.enableDynamicChecks).");
    return undefined;
  }
  if (!client) {
    void vscode.window.showErrorMessage("gradlint: the server is not running (see the gradlint output).");
    return undefined;
  }
  // The trace runs the saved file.
  if (editor.document.isDirty && !(await editor.document.save())) return undefined;
  const name = path.basename(editor.document.uri.fsPath);
  traces.running++;
  try {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `gradlint: tracing ${name}` },
      () => vscode.commands.executeCommand<TraceReport | undefined>(TRACE, { uri: editor.document.uri.toString() }),
    );
    const n = report?.findings?.length ?? 0;
    log.info(`trace of ${name}: ${report?.status ?? "no report"}, ${n} finding(s)`);
    announce(name, report);
    return report;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    log.error(`Trace of ${name} failed: ${message}`);
    void vscode.window.showErrorMessage(`gradlint: the trace of ${name} failed: ${message}`);
    return undefined;
  } finally {
    traces.running--;
  }
}

/** The outcome pops up (the findings themselves are diagnostics): the user asked for this run. */
function announce(name: string, report: TraceReport | undefined): void {
  if (!report) return;
  if (report.status === "refused") {
    void vscode.window.showWarningMessage(report.message ?? `gradlint: ${name} was not traced.`);
    return;
  }
  const n = report.findings?.length ?? 0;
  if (report.error && !report.error.explained && n === 0) {
    void vscode.window.showErrorMessage(`gradlint: the trace of ${name} could not finish: ${report.error.message ?? "unknown error"}`);
  } else if (n > 0) {
    void vscode.window.showWarningMessage(`gradlint: trace of ${name}: ${n} finding${n === 1 ? "" : "s"} (see Problems).`);
  } else {
    const steps = report.steps ?? 0;
    void vscode.window.showInformationMessage(`gradlint: trace of ${name}: nothing found in ${steps} optimizer step${steps === 1 ? "" : "s"}.`);
  }
}
