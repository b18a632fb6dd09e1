// The decisions that need no server: how to launch, what the server is told, what pops up.
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import "./standin/install";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { bundleMismatch, onPath, planLaunch, resolveCommand, safeEnv, untrustedProgram, type BundleManifest, type Probe } from "../src/launch";
import { renderReport } from "../src/report";
import { shouldNotify, toServerSettings, type Settings } from "../src/settings";

const settings = (over: Partial<Settings> = {}): Settings => ({
  interpreter: [],
  path: [],
  args: [],
  importStrategy: "fromEnvironment",
  select: [],
  ignore: [],
  debounce: 300,
  enableDynamicChecks: true,
  gradcheckTimeout: 120,
  showNotifications: "off",
  ...over,
});
const probe = (over: Partial<Probe> = {}): Probe => ({
  implementation: "cpython",
  version: [3, 11],
  platform: "linux-x86_64",
  executable: "/env/bin/python",
  gradlint: false,
  ...over,
});
const manifest: BundleManifest = { gradlint: "0.1.0", implementation: "cpython", platform: "linux-x86_64", pythons: ["3.10", "3.11", "3.12"] };
const LIBS = "/ext/bundled/libs";
const LAUNCHER = "/ext/launcher/start_server.py";

test("gradlint.path wins over the interpreter and needs no probe", () => {
  const plan = planLaunch(settings({ path: ["/opt/gradlint", "--verbose"], args: ["--log-level", "debug"] }), ["/py"], undefined, LIBS, manifest, {}, LAUNCHER);
  assert.deepEqual(plan, { command: "/opt/gradlint", args: ["--verbose", "lsp", "--log-level", "debug"], env: {}, cwd: "/ext/launcher", mode: "path" });
});

test("fromEnvironment uses an installed gradlint through the launcher, outside the workspace", () => {
  const plan = planLaunch(settings(), ["/env/bin/python"], probe({ gradlint: true }), LIBS, manifest, { PYTHONPATH: "/mine" }, LAUNCHER);
  assert.ok(typeof plan === "object");
  // never `-m` or `-c`: they put the working directory first on sys.path
  assert.deepEqual([plan.command, ...plan.args], ["/env/bin/python", LAUNCHER, "lsp"]);
  assert.equal(plan.cwd, "/ext/launcher");
  assert.equal(plan.env.PYTHONPATH, "/mine");
  assert.equal(plan.env.GRADLINT_BUNDLE, undefined);
  assert.equal(plan.mode, "environment");
});

test("the bundle goes first on PYTHONPATH: fallback when not installed, and always for useBundled", () => {
  for (const s of [settings(), settings({ importStrategy: "useBundled" })]) {
    const plan = planLaunch(s, ["/env/bin/python", "-X", "utf8"], probe({ gradlint: s.importStrategy === "useBundled" }), LIBS, manifest, { PYTHONPATH: "/mine" }, LAUNCHER);
    assert.ok(typeof plan === "object");
    assert.equal(plan.mode, "bundled");
    assert.deepEqual(plan.args, ["-X", "utf8", LAUNCHER, "lsp"]);
    assert.equal(plan.cwd, "/ext/launcher");
    assert.equal(plan.env.PYTHONPATH, [LIBS, "/mine"].join(path.delimiter));
    assert.equal(plan.env.GRADLINT_BUNDLE, LIBS);
  }
});

test("refuses with a reason: old Python, missing bundle, bundle for another Python", () => {
  assert.match(String(planLaunch(settings(), ["/py"], probe({ version: [3, 9] }), LIBS, manifest, {}, LAUNCHER)), /needs Python 3\.10 or newer; \/env\/bin\/python is 3\.9/);
  assert.match(String(planLaunch(settings(), ["/py"], probe(), LIBS, undefined, {}, LAUNCHER)), /no bundled server.*npm run bundle-server/);
  assert.match(String(planLaunch(settings(), ["/py"], probe({ version: [3, 13] }), LIBS, manifest, {}, LAUNCHER)), /built for cpython 3\.10, 3\.11, 3\.12 on linux-x86_64.*3\.13/);
  assert.match(String(bundleMismatch(probe({ implementation: "pypy" }), manifest)), /is pypy 3\.11/);
  assert.match(String(bundleMismatch(probe({ platform: "macosx-14.0-arm64" }), manifest)), /on macosx-14\.0-arm64/);
  assert.equal(bundleMismatch(probe(), manifest), undefined);
});

test("PYTHONPATH loses what would put the workspace on sys.path", () => {
  const d = path.delimiter;
  // empty and relative entries name the working directory; absolute ones stay
  assert.deepEqual(safeEnv({ PYTHONPATH: ["/a", "", "src", ".", "/b"].join(d), HOME: "/h" }, ["/ws"], true), {
    env: { PYTHONPATH: ["/a", "/b"].join(d), HOME: "/h" },
    dropped: ["", "src", "."],
  });
  // untrusted: the workspace's own folders go too; trusted: the user's PYTHONPATH is kept
  assert.deepEqual(safeEnv({ PYTHONPATH: ["/ws", "/ws/src", "/wsx"].join(d) }, ["/ws"], false).env, { PYTHONPATH: "/wsx" });
  assert.equal(safeEnv({ PYTHONPATH: ["/ws", "/ws/src"].join(d) }, ["/ws"], true).env.PYTHONPATH, ["/ws", "/ws/src"].join(d));
  assert.deepEqual(safeEnv({ PYTHONPATH: "" }, [], true).env, {});
  const none = { HOME: "/h" };
  assert.equal(safeEnv(none, [], true).env, none);
});

test("relative programs mean the workspace's, and an untrusted workspace's are not started", () => {
  assert.deepEqual(resolveCommand([".venv/bin/python", "-X", "utf8"], "/ws"), ["/ws/.venv/bin/python", "-X", "utf8"]);
  assert.deepEqual(resolveCommand(["python3"], "/ws"), ["python3"]);
  assert.deepEqual(resolveCommand(["/usr/bin/python3"], "/ws"), ["/usr/bin/python3"]);
  assert.deepEqual(resolveCommand([".venv/bin/python"], undefined), [".venv/bin/python"]);
  assert.match(String(untrustedProgram(["/ws/.venv/bin/python"], ["/ws"], false, {})), /inside this untrusted workspace/);
  assert.equal(untrustedProgram(["/ws/.venv/bin/python"], ["/ws"], true, {}), undefined);
  assert.equal(untrustedProgram(["/usr/bin/python3"], ["/ws"], false, {}), undefined);
  assert.equal(untrustedProgram(["python3"], ["/ws"], false, { PATH: "" }), undefined);
});

test("a bare name is judged where PATH finds it: a workspace environment activated in the shell", () => {
  const ws = mkdtempSync(path.join(tmpdir(), "gradlint-units-"));
  try {
    const bin = path.join(ws, ".venv", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "python3"), "#!/bin/sh\n", { mode: 0o755 });
    const env = { PATH: [bin, "/usr/bin"].join(path.delimiter) };
    assert.equal(onPath("python3", env), path.join(bin, "python3"));
    assert.match(String(untrustedProgram(["python3"], [ws], false, env)), /\.venv\/bin\/python3: it lies inside this untrusted workspace/);
    assert.equal(untrustedProgram(["python3"], [ws], true, env), undefined);
    assert.equal(untrustedProgram(["python3"], [ws], false, { PATH: "/usr/bin" }), undefined);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test("server settings: trust gates dynamic checks; empty lists defer to pyproject.toml", () => {
  assert.deepEqual(toServerSettings(settings(), "/py", true), { dynamicChecks: true, debounce: 300, gradcheckTimeout: 120, interpreter: "/py" });
  assert.equal(toServerSettings(settings(), "/py", false).dynamicChecks, false);
  assert.equal(toServerSettings(settings({ enableDynamicChecks: false }), "/py", true).dynamicChecks, false);
  assert.deepEqual(toServerSettings(settings({ select: ["GL1"], ignore: ["GL403"] }), undefined, true), { dynamicChecks: true, debounce: 300, gradcheckTimeout: 120, select: ["GL1"], ignore: ["GL403"] });
});

test("showNotifications levels", () => {
  const pops = (level: Settings["showNotifications"]) => [1, 2, 3, 4].filter((t) => shouldNotify(level, t));
  assert.deepEqual(pops("off"), []);
  assert.deepEqual(pops("onError"), [1]);
  assert.deepEqual(pops("onWarning"), [1, 2]);
  assert.deepEqual(pops("always"), [1, 2, 3, 4]);
});

test("report: verdict heading, explanation, summary, per-input tables, full JSON", () => {
  const md = renderReport({
    verdict: "fail", target: "/w/a.py::f", explanation: "backward is transposed", dtype: "float64", float32: { detection_floor: 0.004081035 },
    inputs: [{ name: "x", shape: [3, 4], rel_error: 0.5, tolerance: 9.2778e-9, worst: [{ index: [2, 1], numerical: 9.494246 }] }, { name: "w|1", rel_error: 1e-12 }],
    notes: ["Inputs found by probing"],
  });
  assert.match(md, /^# ❌ Gradient check of `\/w\/a\.py::f`: fail\n\nbackward is transposed\n/);
  assert.match(md, /\| dtype \| float64 \|\n\| float32\.detection_floor \| 0\.004081 \|/);
  assert.match(md, /## inputs\n\n\| name \| shape \| rel_error \| tolerance \|\n\| --- \| --- \| --- \| --- \|\n\| x \| \(3, 4\) \| 0\.5 \| 9\.278e-9 \|\n\| w\\\|1 \|  \| 1\.000e-12 \|  \|/);
  assert.match(md, /### worst of `x`\n\n\| index \| numerical \|\n\| --- \| --- \|\n\| \(2, 1\) \| 9\.494 \|/);
  assert.match(md, /## notes\n\n- Inputs found by probing/);
  assert.match(md, /```json\n\{\n {2}"verdict": "fail"/);
  assert.match(renderReport(undefined), /No gradient check has run yet/);
});
