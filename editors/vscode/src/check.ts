// Gradient checks: "Check gradients at cursor", and every `gradlint.gradcheck` the client runs
// (also the server's "Check gradients of NAME" code action), pass through `run` here, which
// guards trust, shows the status bar item and keeps the report.
import * as path from "node:path";
import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient, type Middleware } from "vscode-languageclient/node";
import { REPORT_URI, targetName, type Report, type ReportStore } from "./report";
import type { ServerSettings } from "./settings";

// The server's commands (docs/lsp.md); the client registers them under these names, so the
// extension's own commands need others.
export const GRADCHECK = "gradlint.gradcheck";
export const SERVER_SHOW_REPORT = "gradlint.showReport";
export const SHOW_REPORT = "gradlint.showGradientReport";

/** The argument of `gradlint.gradcheck`: the file, and a 0-based line inside the target (or its name). */
export interface CheckArgs {
  uri: string;
  line?: number;
  target?: string;
}

const VERDICT_ICON: Record<string, string> = { pass: "$(pass)", fail: "$(error)", inconclusive: "$(warning)", error: "$(error)" };

function describe(a: CheckArgs | undefined): string {
  if (!a) return "function";
  if (a.target) return a.target.split("::").pop() ?? a.target;
  const file = path.basename(vscode.Uri.parse(a.uri).fsPath);
  return a.line === undefined ? file : `${file}:${a.line + 1}`;
}

function firstSentence(text: unknown): string {
  const s = String(text ?? "").split("\n")[0];
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

export class GradientChecks implements vscode.Disposable {
  readonly status: vscode.StatusBarItem;
  /** Checks in flight; while any runs, the server's messages about it are logged, not popped up. */
  running = 0;
  private hideTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reports: ReportStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: () => ServerSettings,
  ) {
    this.status = vscode.window.createStatusBarItem("gradlint.check", vscode.StatusBarAlignment.Left, 10);
    this.status.name = "gradlint gradient check";
  }

  readonly middleware: Middleware = {
    executeCommand: (command, args, next) => {
      if (command === GRADCHECK) return this.run(args[0] as CheckArgs | undefined, () => next(command, args));
      // The server's "Show the gradient-check report of NAME" action only returns the report.
      if (command === SERVER_SHOW_REPORT) return this.showReport(() => next(command, args));
      return next(command, args);
    },
  };

  /** Asks the server for a report (the latest, or the one `fetch` names) and opens it. */
  async showReport(fetch?: () => Promise<unknown> | unknown): Promise<vscode.TextDocument> {
    if (fetch) {
      try {
        const report = (await fetch()) as Report | null;
        if (report && typeof report === "object") this.reports.set(report);
      } catch (e) {
        this.log.warn(`${SERVER_SHOW_REPORT}: ${e}`); // show the report this window kept
      }
    }
    const doc = await vscode.workspace.openTextDocument(REPORT_URI);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return doc;
  }

  /** "gradlint: Check gradients at cursor": the function, method or class around the cursor. */
  async checkAtCursor(client: LanguageClient | undefined): Promise<Report | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== "python") {
      void vscode.window.showInformationMessage("gradlint: put the cursor inside a Python function to check its gradients.");
      return undefined;
    }
    if (!client) {
      void vscode.window.showErrorMessage("gradlint: the server is not running (see the gradlint output).");
      return undefined;
    }
    // The check imports the saved file (as "Run Python File" does, save first).
    if (editor.document.isDirty && !(await editor.document.save())) return undefined;
    const args: CheckArgs = { uri: editor.document.uri.toString(), line: editor.selection.active.line };
    // Through the client's command, so that this takes the same path as the code action.
    return vscode.commands.executeCommand<Report | undefined>(GRADCHECK, args);
  }

  private async run(args: CheckArgs | undefined, send: () => Promise<unknown> | unknown): Promise<Report | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage("gradlint: checking gradients runs this workspace's code; trust the workspace to allow it.");
      return undefined;
    }
    if (!this.settings().dynamicChecks) {
      void vscode.window.showWarningMessage("gradlint: gradient checks are turned off (gradlint.enableDynamicChecks).");
      return undefined;
    }
    const name = describe(args);
    this.busy(name);
    try {
      const result = (await send()) as Report | null | undefined;
      if (!result || typeof result !== "object" || result.cancelled) {
        this.finish("$(circle-slash) gradients: cancelled", `The check of ${name} was cancelled.`);
        return undefined;
      }
      if (result.verdict === "refused") {
        this.finish("$(circle-slash) gradients: not checked", String(result.explanation ?? ""));
        void vscode.window.showWarningMessage(String(result.explanation ?? `gradlint: ${name} was not checked.`));
        return undefined;
      }
      this.reports.set(result);
      this.announce(result);
      return result;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`Gradient check of ${name} failed: ${message}`);
      this.finish("$(error) gradients: error", message);
      void vscode.window.showErrorMessage(`gradlint: the gradient check of ${name} failed: ${message}`);
      return undefined;
    }
  }

  private busy(name: string): void {
    this.running++;
    clearTimeout(this.hideTimer);
    this.status.text = `$(sync~spin) gradlint: checking ${name}`;
    this.status.tooltip = "A gradient check is running (cancel it from its progress notification).";
    this.status.command = undefined;
    this.status.show();
  }

  /** Leaves the verdict in the status bar for a while, a click away from the report. */
  private finish(text: string, tooltip: string): void {
    this.running = Math.max(0, this.running - 1);
    if (this.running > 0) return;
    this.status.text = text;
    this.status.tooltip = tooltip;
    this.status.command = SHOW_REPORT;
    this.hideTimer = setTimeout(() => this.status.hide(), 30_000);
  }

  private announce(r: Report): void {
    const verdict = String(r.verdict ?? "unknown");
    const name = targetName(r);
    this.log.info(`Gradient check of ${name}: ${verdict}`);
    this.finish(`${VERDICT_ICON[verdict] ?? "$(question)"} gradients: ${verdict}`, firstSentence(r.explanation) || verdict);
    const text = `gradlint: gradients of ${name}: ${verdict}. ${firstSentence(r.explanation)}`.trim();
    const show =
      verdict === "pass" ? vscode.window.showInformationMessage : verdict === "inconclusive" ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    void Promise.resolve(show(text, "Show report")).then((pick) => {
      if (pick) void vscode.commands.executeCommand(SHOW_REPORT);
    });
  }

  /** "gradlint: Show gradient report": the server's latest (checks may come from code actions). */
  showLatest(client: LanguageClient | undefined): Promise<vscode.TextDocument> {
    return this.showReport(client && (() => client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_SHOW_REPORT, arguments: [] })));
  }

  dispose(): void {
    clearTimeout(this.hideTimer);
    this.status.dispose();
  }
}
