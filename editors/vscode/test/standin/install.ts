// Makes `require("vscode")` resolve to the stand-in, then loads the extension bundle that ships
// in the .vsix (dist/extension.js, with vscode-languageclient inside it).
import Module from "node:module";
import * as path from "node:path";
import { ExtensionMode, Uri } from "./classes";

const standIn = require.resolve("./vscode");
const resolve = (Module as any)._resolveFilename;
(Module as any)._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === "vscode" ? standIn : resolve.call(this, request, ...rest);
};

/** editors/vscode (this file runs from out/test/standin): the tests' own files live here. */
export const SOURCE_ROOT = path.resolve(__dirname, "..", "..", "..");
/** The extension under test: the working tree, or an unpacked .vsix (npm run test:vsix). */
export const EXTENSION_ROOT = path.resolve(process.env.GRADLINT_EXTENSION_DIR || SOURCE_ROOT);

export interface ExtensionModule {
  activate(context: any): Promise<unknown>;
  deactivate(): Promise<void>;
}

export function loadExtension(): ExtensionModule {
  return require(path.join(EXTENSION_ROOT, "dist", "extension.js")) as ExtensionModule;
}

export function manifest(): any {
  return require(path.join(EXTENSION_ROOT, "package.json"));
}

/** What VS Code passes to activate(); `subscriptions` are disposed by `disposeContext`. */
export function extensionContext(): any {
  const memento = () => {
    const m = new Map<string, unknown>();
    return { get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v), keys: () => [...m.keys()] };
  };
  return {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: Uri.file(EXTENSION_ROOT),
    extensionPath: EXTENSION_ROOT,
    extensionMode: ExtensionMode.Test,
    globalState: memento(),
    workspaceState: memento(),
    asAbsolutePath: (p: string) => path.join(EXTENSION_ROOT, p),
    logUri: Uri.file(path.join(EXTENSION_ROOT, "out", "log")),
  };
}

/** As VS Code on shutdown: deactivate(), then dispose the subscriptions. */
export async function deactivateExtension(ext: ExtensionModule, context: any): Promise<void> {
  await ext.deactivate();
  for (const d of context.subscriptions.splice(0)) await d.dispose();
}
