// Run before `vsce package`: a .vsix without the bundled server would only work where gradlint
// is installed in the user's environment, so packaging one by accident is an error.
import { existsSync, readFileSync } from "node:fs";

const manifest = "bundled/libs/gradlint_bundle.json";
if (!existsSync(manifest)) {
  console.error(`${manifest} is missing: run "npm run bundle-server" before packaging.`);
  process.exit(1);
}
const m = JSON.parse(readFileSync(manifest, "utf8"));
console.log(`packaging with the bundled gradlint ${m.gradlint} (CPython ${m.pythons.join(", ")} on ${m.platform})`);
