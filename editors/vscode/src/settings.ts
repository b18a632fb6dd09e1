import * as vscode from "vscode";

export const SECTION = "gradlint";

export type ImportStrategy = "fromEnvironment" | "useBundled";
export type NotificationLevel = "off" | "onError" | "onWarning" | "always";

/** The extension's `gradlint.*` settings for one scope (a workspace folder, a file, or the window). */
export interface Settings {
  interpreter: string[];
  path: string[];
  args: string[];
  importStrategy: ImportStrategy;
  select: string[];
  ignore: string[];
  debounce: number;
  enableDynamicChecks: boolean;
  gradcheckTimeout: number;
  showNotifications: NotificationLevel;
}

/**
 * What the server reads, both as initializationOptions and as the answer to
 * `workspace/configuration` for section `gradlint` (docs/lsp.md). It differs from `Settings`:
 * the interpreter is one path, and dynamic checks fold in workspace trust.
 */
export interface ServerSettings {
  select?: string[];
  ignore?: string[];
  interpreter?: string;
  dynamicChecks: boolean;
  debounce: number;
  gradcheckTimeout: number;
}

/**
 * Settings whose change needs a new server (the rest go through didChangeConfiguration): those
 * that choose the program, and enableDynamicChecks, because the server keeps a `dynamicChecks:
 * false` from initializationOptions against later `true`s (an untrusted workspace's guard).
 */
export const RESTART_SETTINGS = ["interpreter", "path", "args", "importStrategy", "enableDynamicChecks"].map((k) => `${SECTION}.${k}`);

export function readSettings(scope?: vscode.ConfigurationScope | null): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  return {
    interpreter: c.get<string[]>("interpreter") ?? [],
    path: c.get<string[]>("path") ?? [],
    args: c.get<string[]>("args") ?? [],
    importStrategy: c.get<ImportStrategy>("importStrategy") ?? "fromEnvironment",
    select: c.get<string[]>("select") ?? [],
    ignore: c.get<string[]>("ignore") ?? [],
    debounce: c.get<number>("debounce") ?? 300,
    enableDynamicChecks: c.get<boolean>("enableDynamicChecks") ?? true,
    gradcheckTimeout: c.get<number>("gradcheckTimeout") ?? 120,
    showNotifications: c.get<NotificationLevel>("showNotifications") ?? "off",
  };
}

/**
 * `interpreter` is the Python that runs gradient checks (the one the server runs on).
 * Empty select/ignore are left out so that `[tool.gradlint]` in pyproject.toml decides.
 */
export function toServerSettings(s: Settings, interpreter: string | undefined, trusted: boolean): ServerSettings {
  const out: ServerSettings = {
    dynamicChecks: trusted && s.enableDynamicChecks,
    debounce: s.debounce,
    gradcheckTimeout: s.gradcheckTimeout,
  };
  if (s.select.length > 0) out.select = s.select;
  if (s.ignore.length > 0) out.ignore = s.ignore;
  if (interpreter) out.interpreter = interpreter;
  return out;
}

/** Whether a server message of LSP MessageType `type` (1 error .. 4 log) should pop up. */
export function shouldNotify(level: NotificationLevel, type: number): boolean {
  switch (level) {
    case "always":
      return true;
    case "onWarning":
      return type <= 2;
    case "onError":
      return type === 1;
    default:
      return false;
  }
}
