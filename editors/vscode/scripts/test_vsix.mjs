// Runs the stand-in tests against the packaged extension: unpacks the newest .vsix into
// out/vsix and points the tests there, so that a file left out of the package fails a test.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const vsix = readdirSync(".").filter((f) => f.endsWith(".vsix")).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!vsix) {
  console.error("no .vsix here: run `npx @vscode/vsce package` first");
  process.exit(1);
}
const dir = resolve("out", "vsix");
rmSync(dir, { recursive: true, force: true });
execFileSync("unzip", ["-q", vsix, "-d", dir]); // unzip keeps the exec bit of terminateProcess.sh
console.log(`testing ${vsix}`);
const r = spawnSync(process.execPath, ["--test", "--test-timeout=300000", ...readdirSync("out/test").filter((f) => f.endsWith(".test.js")).map((f) => join("out/test", f))], {
  stdio: "inherit",
  env: { ...process.env, GRADLINT_EXTENSION_DIR: join(dir, "extension") },
});
process.exit(r.status ?? 1);
