import * as vscode from "vscode";
import { isInside } from "./launch";

// The part of the Python extension's API (`ms-python.python`, `environments`) that gradlint uses;
// declared here so that the extension is an optional dependency, not a build-time one.
interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}
interface ResolvedEnvironment {
  readonly executable: { readonly uri: vscode.Uri | undefined };
  readonly version?: { readonly major?: number; readonly minor?: number };
}
interface PythonApi {
  environments: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

export const PYTHON_EXTENSION_ID = "ms-python.python";

export type InterpreterSource = "setting" | "python-extension" | "default";

export interface Interpreter {
  command: string[];
  source: InterpreterSource;
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION_ID);
  if (!ext) return undefined;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    return api?.environments ? api : undefined;
  } catch {
    return undefined; // a broken Python extension must not stop linting
  }
}

/** Fires when the Python extension's selected environment changes; a no-op without it. */
export async function onDidChangePythonEnvironment(listener: () => void): Promise<vscode.Disposable> {
  const api = await pythonApi();
  return api ? api.environments.onDidChangeActiveEnvironmentPath(() => listener()) : new vscode.Disposable(() => {});
}


/**
 * The Python that runs the server and the gradient checks: `gradlint.interpreter`, else the
 * environment selected in the Python extension, else `python3` on PATH. In an untrusted
 * workspace an environment that lives inside the workspace is not used: its `python` is a
 * file from the workspace, and starting it would run the workspace's code.
 */
export async function findInterpreter(
  configured: string[],
  resource: vscode.Uri | undefined,
  trusted: boolean,
  log: (msg: string) => void,
): Promise<Interpreter> {
  if (configured.length > 0) return { command: configured, source: "setting" };
  const api = await pythonApi();
  if (api) {
    const env = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(resource));
    const exe = env?.executable.uri?.fsPath;
    if (exe && !trusted && (vscode.workspace.workspaceFolders ?? []).some((f) => isInside(exe, f.uri.fsPath))) {
      log(`Not using ${exe} from the Python extension: it lies inside an untrusted workspace.`);
    } else if (exe) {
      return { command: [exe], source: "python-extension" };
    }
  } else {
    log(`The Python extension (${PYTHON_EXTENSION_ID}) is not available; set gradlint.interpreter to choose a Python.`);
  }
  return { command: [process.platform === "win32" ? "python" : "python3"], source: "default" };
}
