// The last step of `vscode:prepublish` (after bundle-server and compile), so before every
// `vsce package`: a .vsix without the bundled server would only work where gradlint is installed
// in the user's environment, and one without the launcher could not start the server at all.
import { existsSync, readFileSync } from "node:fs";

const manifest = "bundled/libs/gradlint_bundle.json";
for (const file of [manifest, "launcher/start_server.py", "dist/extension.js"]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: the extension cannot be packaged without it.`);
    process.exit(1);
  }
}
const m = JSON.parse(readFileSync(manifest, "utf8"));
console.log(`packaging with the bundled gradlint ${m.gradlint} (CPython ${m.pythons.join(", ")} on ${m.platform})`);
