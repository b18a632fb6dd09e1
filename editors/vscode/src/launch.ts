// How to start the server: which program, which arguments, which environment, which working
// directory. Kept free of the editor API so that the decisions can be tested directly.
//
// Opening a folder must never run its code, trusted or not. So Python is never started with
// `-m` or `-c` (both put the working directory, the workspace, first on sys.path, where a
// workspace `gradlint/` or `json.py` would be imported in place of ours): it runs
// launcher/start_server.py by absolute path, in the launcher's own directory, and that script
// cleans sys.path before it imports anything. PYTHONPATH loses the entries that would put the
// workspace back (empty or relative ones; in an untrusted workspace, those inside it).
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import type { Settings } from "./settings";

export const MIN_PYTHON: [number, number] = [3, 10];

/** What `interpreter -c PROBE` reports about a Python. */
export interface Probe {
  implementation: string;
  version: [number, number];
  platform: string;
  executable: string;
  gradlint: boolean; // gradlint (with its server) importable without the bundle
}

/** bundled/libs/gradlint_bundle.json, written by scripts/bundle_server.py. */
export interface BundleManifest {
  gradlint: string;
  implementation: string;
  platform: string;
  pythons: string[]; // "3.11": versions whose native wheels (libcst) are in the bundle
}

export interface LaunchPlan {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  mode: "path" | "environment" | "bundled";
}

/** launcher/start_server.py of the extension rooted at `extensionRoot`. */
export function launcherScript(extensionRoot: string): string {
  return path.join(extensionRoot, "launcher", "start_server.py");
}

/** Asks the interpreter what it is, through the launcher (`--probe`), never through `-c`. */
export function probeInterpreter(interpreter: string[], launcher: string, env: NodeJS.ProcessEnv, timeoutMs = 20000): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const options = { env, cwd: path.dirname(launcher), timeout: timeoutMs };
    execFile(interpreter[0], [...interpreter.slice(1), launcher, "--probe"], options, (err, stdout, stderr) => {
      if (err) {
        const why = (err as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : (stderr.trim() || err.message);
        reject(new Error(`cannot run the Python interpreter ${interpreter.join(" ")}: ${why}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as Probe);
      } catch {
        reject(new Error(`unexpected output from ${interpreter.join(" ")}: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

export function readManifest(libs: string): BundleManifest | undefined {
  const file = path.join(libs, "gradlint_bundle.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BundleManifest) : undefined;
}

/** Why the bundle cannot run on the probed Python, or undefined when it can. */
export function bundleMismatch(probe: Probe, m: BundleManifest): string | undefined {
  const version = probe.version.join(".");
  if (probe.implementation === m.implementation && probe.platform === m.platform && m.pythons.includes(version)) {
    return undefined;
  }
  return (
    `the bundled gradlint server is built for ${m.implementation} ${m.pythons.join(", ")} on ${m.platform}, ` +
    `but ${probe.executable} is ${probe.implementation} ${version} on ${probe.platform}. ` +
    `Install gradlint-autograd in that environment (gradlint.importStrategy "fromEnvironment") ` +
    `or set gradlint.interpreter to a supported Python.`
  );
}

/** Whether `file` is `folder` or lies below it. */
export function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Where a bare command name (`python3`) is found on PATH, as spawning it would find it. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE").split(";") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // relative entries resolve against the launcher's folder
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * Why the program that would start the server must not run in an untrusted workspace (it is a
 * file of the workspace, e.g. its `.venv/bin/python`, named directly or found first on PATH, as
 * when VS Code was started from a shell with the workspace's environment activated), or
 * undefined.
 */
export function untrustedProgram(command: string[], folders: string[], trusted: boolean, env: NodeJS.ProcessEnv): string | undefined {
  const named = command[0];
  if (trusted || !named) return undefined;
  const exe = path.isAbsolute(named) ? named : /[\\/]/.test(named) ? undefined : onPath(named, env);
  if (!exe || !folders.some((f) => isInside(exe, f))) return undefined;
  return `not starting ${exe}: it lies inside this untrusted workspace, and running it would run the workspace's code. ` +
    `Trust the workspace, or choose a program outside it in your user settings.`;
}

/**
 * The environment for every Python the extension starts. An empty or relative PYTHONPATH entry
 * names the working directory (or a folder below it) and would put it on sys.path before the
 * standard library, where Python looks for `sitecustomize` while it starts — before any script
 * can clean the path. In an untrusted workspace, entries inside the workspace go too. `dropped`
 * lists what was taken out, for the log.
 */
export function safeEnv(
  baseEnv: NodeJS.ProcessEnv,
  folders: string[],
  trusted: boolean,
): { env: NodeJS.ProcessEnv; dropped: string[] } {
  const raw = baseEnv.PYTHONPATH;
  if (raw === undefined) return { env: baseEnv, dropped: [] };
  const keep: string[] = [];
  const dropped: string[] = [];
  for (const entry of raw.split(path.delimiter)) {
    const unsafe = !path.isAbsolute(entry) || (!trusted && folders.some((f) => isInside(entry, f)));
    (unsafe ? dropped : keep).push(entry);
  }
  const env = { ...baseEnv };
  if (keep.length > 0) env.PYTHONPATH = keep.join(path.delimiter);
  else delete env.PYTHONPATH;
  return { env, dropped };
}

/**
 * A command given as a relative path (`.venv/bin/python`) means one in the workspace folder, as
 * it did when the server ran there; bare names (`python3`) are looked up on PATH.
 */
export function resolveCommand(command: string[], folder: string | undefined): string[] {
  const [exe, ...rest] = command;
  if (!exe || !folder || path.isAbsolute(exe) || !/[\\/]/.test(exe)) return command;
  return [path.resolve(folder, exe), ...rest];
}

function tooOld(v: [number, number]): boolean {
  return v[0] < MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] < MIN_PYTHON[1]);
}

/**
 * `gradlint.path` wins; otherwise `interpreter launcher lsp`, with gradlint from the environment
 * when the strategy allows and it is installed there, else from bundled/libs on PYTHONPATH (which
 * Python searches before site-packages, so the bundle wins over an installed copy). Every mode
 * runs in the launcher's directory, outside the workspace. `baseEnv` is already `safeEnv`'s.
 * Returns a string: the reason the server cannot start.
 */
export function planLaunch(
  s: Settings,
  interpreter: string[],
  probe: Probe | undefined,
  libs: string,
  manifest: BundleManifest | undefined,
  baseEnv: NodeJS.ProcessEnv,
  launcher: string,
): LaunchPlan | string {
  const cwd = path.dirname(launcher);
  if (s.path.length > 0) {
    return { command: s.path[0], args: [...s.path.slice(1), "lsp", ...s.args], env: baseEnv, cwd, mode: "path" };
  }
  if (!probe) return `cannot inspect the Python interpreter ${interpreter.join(" ")}`;
  if (tooOld(probe.version)) {
    return `gradlint needs Python ${MIN_PYTHON.join(".")} or newer; ${probe.executable} is ${probe.version.join(".")}.`;
  }
  const args = [...interpreter.slice(1), launcher, "lsp", ...s.args];
  if (s.importStrategy === "fromEnvironment" && probe.gradlint) {
    return { command: interpreter[0], args, env: baseEnv, cwd, mode: "environment" };
  }
  if (!manifest) {
    return (
      `gradlint is not installed for ${probe.executable} and this build of the extension has no bundled server ` +
      `(build it with "npm run bundle-server").`
    );
  }
  const mismatch = bundleMismatch(probe, manifest);
  if (mismatch) return mismatch;
  const pythonPath = [libs, baseEnv.PYTHONPATH].filter((p) => p).join(path.delimiter);
  // The server's own child processes (the lint worker) need the bundle through PYTHONPATH;
  // GRADLINT_BUNDLE names it so that the gradient-check child, which runs user code, can drop it.
  return { command: interpreter[0], args, env: { ...baseEnv, PYTHONPATH: pythonPath, GRADLINT_BUNDLE: libs }, cwd, mode: "bundled" };
}
