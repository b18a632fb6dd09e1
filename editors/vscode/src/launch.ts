// How to start the server: which program, which arguments, which PYTHONPATH. Kept free of the
// editor API so that the decisions can be tested directly.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
  mode: "path" | "environment" | "bundled";
}

const PROBE = [
  "import importlib.util as u, json, sys, sysconfig",
  "print(json.dumps({'implementation': sys.implementation.name, 'version': list(sys.version_info[:2]),",
  " 'platform': sysconfig.get_platform(), 'executable': sys.executable,",
  " 'gradlint': u.find_spec('gradlint') is not None and u.find_spec('gradlint_server') is not None}))",
].join("\n");

export function probeInterpreter(interpreter: string[], env: NodeJS.ProcessEnv, timeoutMs = 20000): Promise<Probe> {
  return new Promise((resolve, reject) => {
    execFile(interpreter[0], [...interpreter.slice(1), "-c", PROBE], { env, timeout: timeoutMs }, (err, stdout, stderr) => {
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

function tooOld(v: [number, number]): boolean {
  return v[0] < MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] < MIN_PYTHON[1]);
}

/**
 * `gradlint.path` wins; otherwise `interpreter -m gradlint lsp`, from the environment when the
 * strategy allows and gradlint is installed there, else from bundled/libs on PYTHONPATH (which
 * Python searches before site-packages, so the bundle wins over an installed copy).
 * Returns a string: the reason the server cannot start.
 */
export function planLaunch(
  s: Settings,
  interpreter: string[],
  probe: Probe | undefined,
  libs: string,
  manifest: BundleManifest | undefined,
  baseEnv: NodeJS.ProcessEnv,
): LaunchPlan | string {
  if (s.path.length > 0) {
    return { command: s.path[0], args: [...s.path.slice(1), "lsp", ...s.args], env: baseEnv, mode: "path" };
  }
  if (!probe) return `cannot inspect the Python interpreter ${interpreter.join(" ")}`;
  if (tooOld(probe.version)) {
    return `gradlint needs Python ${MIN_PYTHON.join(".")} or newer; ${probe.executable} is ${probe.version.join(".")}.`;
  }
  const args = [...interpreter.slice(1), "-m", "gradlint", "lsp", ...s.args];
  if (s.importStrategy === "fromEnvironment" && probe.gradlint) {
    return { command: interpreter[0], args, env: baseEnv, mode: "environment" };
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
  return { command: interpreter[0], args, env: { ...baseEnv, PYTHONPATH: pythonPath, GRADLINT_BUNDLE: libs }, mode: "bundled" };
}
