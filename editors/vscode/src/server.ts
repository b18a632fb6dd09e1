// The language client's lifecycle: find a Python, decide how to launch the server, start, stop.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  MessageType,
  RevealOutputChannelOn,
  ShowMessageNotification,
  State,
} from "vscode-languageclient/node";
import {
  launcherScript,
  planLaunch,
  probeInterpreter,
  readManifest,
  resolveCommand,
  safeEnv,
  untrustedProgram,
  type LaunchPlan,
  type Probe,
} from "./launch";
import { findInterpreter } from "./python";
import { readSettings, SECTION, shouldNotify, toServerSettings, type ServerSettings } from "./settings";

export class ServerManager implements vscode.Disposable {
  private current: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  private checkInterpreter: string | undefined;
  private readonly libs: string;
  private readonly launcher: string;

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly middleware: Middleware,
    private readonly quiet: () => boolean = () => false,
  ) {
    this.libs = vscode.Uri.joinPath(context.extensionUri, "bundled", "libs").fsPath;
    this.launcher = launcherScript(context.extensionUri.fsPath);
  }

  /** The running client, if any. */
  get client(): LanguageClient | undefined {
    return this.current?.state === State.Running ? this.current : undefined;
  }

  /** Restarts are queued so that two quick ones never leave two servers running. */
  restart(): Promise<void> {
    return this.enqueue(() => this.doRestart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    // A failed step is logged and must not block the ones queued after it.
    this.queue = this.queue.then(step).catch((e) => this.log.error(`gradlint server: ${e instanceof Error ? e.stack ?? e.message : e}`));
    return this.queue;
  }

  /** What the server gets for `workspace/configuration` and initializationOptions. */
  serverSettings(scope?: vscode.Uri): ServerSettings {
    return toServerSettings(readSettings(scope), this.checkInterpreter, vscode.workspace.isTrusted);
  }

  dispose(): void {
    void this.stop();
  }

  private async doStop(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    if (!client) return;
    try {
      await client.dispose(3000); // shutdown + exit; the client kills the process if it lingers
    } catch (e) {
      this.log.warn(`Stopping the gradlint server: ${e}`);
    }
  }

  private async doRestart(): Promise<void> {
    await this.doStop();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const settings = readSettings(folder?.uri);
    const trusted = vscode.workspace.isTrusted;
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const { env, dropped } = safeEnv(process.env, folders, trusted);
    if (dropped.length > 0) {
      this.log.info(`Not passing these PYTHONPATH entries to the server (relative, or inside an untrusted workspace): ${JSON.stringify(dropped)}`);
    }
    const interpreter = await findInterpreter(settings.interpreter, folder?.uri, trusted, (m) => this.log.info(m));
    const command = resolveCommand(interpreter.command, folder?.uri.fsPath);
    const launchSettings = { ...settings, path: resolveCommand(settings.path, folder?.uri.fsPath) };
    const refused = untrustedProgram(launchSettings.path.length > 0 ? launchSettings.path : command, folders, trusted, env);
    if (refused) return this.fail(refused);
    let probe: Probe | undefined;
    if (settings.path.length === 0) {
      try {
        probe = await probeInterpreter(command, this.launcher, env);
      } catch (e) {
        return this.fail(`${(e as Error).message}`);
      }
    }
    this.checkInterpreter = probe?.executable ?? command[0];
    const plan = planLaunch(launchSettings, command, probe, this.libs, readManifest(this.libs), env, this.launcher);
    if (typeof plan === "string") return this.fail(plan);
    this.log.info(`Starting the gradlint server (${plan.mode}, Python from ${interpreter.source}): ${[plan.command, ...plan.args].join(" ")}`);
    const client = this.createClient(plan, folder);
    this.current = client;
    try {
      await client.start();
    } catch (e) {
      this.log.error(`The gradlint server did not start: ${e}`);
      return;
    }
    this.log.info(`gradlint server running${trusted ? "" : " (untrusted workspace: gradient checks are off)"}.`);
  }

  private fail(message: string): void {
    this.log.error(message);
    void vscode.window.showErrorMessage(`gradlint: ${message}`, "Show logs").then((pick) => {
      if (pick) this.log.show();
    });
  }

  private createClient(plan: LaunchPlan, folder: vscode.WorkspaceFolder | undefined): LanguageClient {
    // Not the workspace folder: see launch.ts. The server learns the workspace from initialize.
    const run = { command: plan.command, args: plan.args, options: { cwd: plan.cwd, env: plan.env } };
    const options: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "python" },
        { scheme: "untitled", language: "python" },
        { scheme: "vscode-notebook-cell", language: "python" },
      ],
      outputChannel: this.log,
      traceOutputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: () => this.serverSettings(folder?.uri),
      middleware: {
        ...this.middleware,
        workspace: {
          // The server asks for section "gradlint"; answer in its own shape (ServerSettings),
          // not with the raw `gradlint.*` settings, which name and type things differently.
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) return answers;
            return params.items.map((item, i) =>
              item.section === SECTION ? this.serverSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : folder?.uri) : answers[i],
            );
          },
        },
      },
    };
    const client = new LanguageClient(SECTION, "gradlint", { run, debug: run }, options);
    // Registered before start, so it replaces the client's own handler: server messages are
    // always logged, and pop up only as far as gradlint.showNotifications allows.
    client.onNotification(ShowMessageNotification.type, ({ type, message }) => {
      const line = `[server] ${message}`;
      if (type === MessageType.Error) this.log.error(line);
      else if (type === MessageType.Warning) this.log.warn(line);
      else this.log.info(line);
      // A check's own outcome pops up from GradientChecks (with "Show report"): no duplicate.
      if (this.quiet() || !shouldNotify(readSettings(folder?.uri).showNotifications, type)) return;
      const show = type === MessageType.Error ? vscode.window.showErrorMessage : type === MessageType.Warning ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`gradlint: ${message}`);
    });
    return client;
  }
}
