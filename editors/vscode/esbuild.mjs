// Bundles the extension (and vscode-languageclient) into dist/extension.js, the file the
// .vsix ships, so that the package needs no node_modules.
import { build, context } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const options = {
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  external: ["vscode"], // provided by the editor at run time
  format: "cjs",
  platform: "node",
  target: "node18",
  sourcemap: true,
  logLevel: "info",
};

// vscode-languageclient kills a server that ignores `exit` with a shell script it finds next to
// its own module (__dirname): once bundled, that is dist/.
const require = createRequire(import.meta.url);
const clientRoot = dirname(require.resolve("vscode-languageclient/node"));
mkdirSync("dist", { recursive: true });
copyFileSync(join(clientRoot, "lib", "node", "terminateProcess.sh"), join("dist", "terminateProcess.sh"));

if (process.argv.includes("--watch")) {
  await (await context(options)).watch();
} else {
  await build(options);
}
