// The stand-in `vscode` module: what `require("vscode")` returns to the extension bundle (and
// the vscode-languageclient inside it) under test. Namespaces read and change `host`.
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { CancellationTokenSource, Disposable, EventEmitter, LogLevel, Range, TabInputText, Uri } from "./classes";
import { StandInDocument } from "./document";
import { DiagnosticCollection, host, type StatusItem } from "./host";

export * from "./classes";

export const version = "1.95.0"; // vscode-languageclient 9 requires ^1.82

/** Records (in host.missing) any member of a namespace that the stand-in does not provide. */
function namespace<T extends object>(name: string, members: T): T {
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === "string" && !(key in target) && key !== "then" && key !== "__esModule") host.missing.add(`${name}.${key}`);
      return (target as any)[key];
    },
  });
}

function message(level: "info" | "warning" | "error") {
  return (text: string, ...rest: any[]): Promise<any> => {
    const items = rest.filter((i) => typeof i === "string" || (i && typeof i === "object" && "title" in i));
    host.messages.push({ level, message: text, items });
    const pick = items.find((i) => (typeof i === "string" ? i : i.title) === host.autoPick);
    if (pick !== undefined) host.autoPick = undefined;
    return Promise.resolve(pick);
  };
}

function outputChannel(name: string) {
  const lines = host.output.get(name) ?? [];
  host.output.set(name, lines);
  const log = (level: string) => (msg: unknown, ...args: unknown[]) =>
    lines.push(`[${level}] ${[msg, ...args].map((a) => (a instanceof Error ? a.stack ?? a.message : String(a))).join(" ")}`);
  const logLevelChanged = new EventEmitter<LogLevel>();
  return {
    name,
    logLevel: LogLevel.Trace,
    onDidChangeLogLevel: logLevelChanged.event,
    append: (v: string) => lines.push(v),
    appendLine: (v: string) => lines.push(v),
    replace: (v: string) => lines.splice(0, Infinity, v),
    clear: () => (lines.length = 0),
    show: () => {},
    hide: () => {},
    dispose: () => logLevelChanged.dispose(),
    trace: log("trace"),
    debug: log("debug"),
    info: log("info"),
    warn: log("warning"),
    error: log("error"),
  };
}

function statusBarItem(id: string): any {
  const item: StatusItem = { id, text: "", tooltip: undefined, command: undefined, visible: false, history: [] };
  host.statusItems.push(item);
  const record = () => item.visible && item.history[item.history.length - 1] !== item.text && item.history.push(item.text);
  return {
    get id() { return id; },
    alignment: 1,
    priority: 0,
    get name() { return item.name; },
    set name(v: string | undefined) { item.name = v; },
    get text() { return item.text; },
    set text(v: string) { item.text = v; record(); },
    get tooltip() { return item.tooltip; },
    set tooltip(v: unknown) { item.tooltip = v; },
    get command() { return item.command; },
    set command(v: unknown) { item.command = v; },
    color: undefined,
    backgroundColor: undefined,
    accessibilityInformation: undefined,
    show() { item.visible = true; record(); },
    hide() { item.visible = false; },
    dispose() { item.visible = false; host.statusItems.splice(host.statusItems.indexOf(item), 1); },
  };
}

function matchFilter(filter: any, doc: StandInDocument): boolean {
  if (typeof filter === "string") return filter === "*" || filter === doc.languageId;
  if (filter.notebookType !== undefined) return false; // no notebooks here
  if (filter.language !== undefined && filter.language !== "*" && filter.language !== doc.languageId) return false;
  if (filter.scheme !== undefined && filter.scheme !== "*" && filter.scheme !== doc.uri.scheme) return false;
  if (filter.pattern !== undefined) return false; // gradlint's selector has none; do not guess at globs
  return true;
}

function register(kind: string) {
  return (selector: unknown, provider: unknown, metadata?: unknown) => {
    const entry = { kind, selector, provider, metadata };
    host.providers.push(entry);
    return new Disposable(() => host.providers.splice(host.providers.indexOf(entry), 1));
  };
}

async function openTextDocument(arg?: any): Promise<StandInDocument> {
  if (arg === undefined || (typeof arg === "object" && !(arg instanceof Uri))) {
    const uri = Uri.from({ scheme: "untitled", path: `Untitled-${host.documents.size + 1}` });
    return host.addDocument(uri, arg?.language ?? "plaintext", arg?.content ?? "");
  }
  const uri = typeof arg === "string" ? Uri.file(arg) : (arg as Uri);
  const open = host.documents.get(uri.toString());
  if (open) return open;
  const language = nodePath.extname(uri.path) === ".md" ? "markdown" : nodePath.extname(uri.path) === ".py" ? "python" : "plaintext";
  if (uri.scheme === "file") {
    return host.addDocument(uri, language, readFileSync(uri.fsPath, "utf8"));
  }
  const provider = host.contentProviders.get(uri.scheme);
  if (!provider) throw new Error(`stand-in: no content provider for ${uri.toString()}`);
  const text = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token);
  return host.addDocument(uri, language, text ?? "");
}

export const workspace = namespace("workspace", {
  get workspaceFolders() {
    return host.folders.length > 0 ? host.folders : undefined;
  },
  get name() {
    return host.folders[0]?.name;
  },
  get rootPath() {
    return host.folders[0]?.uri.fsPath;
  },
  get isTrusted() {
    return host.trusted;
  },
  get textDocuments() {
    return [...host.documents.values()];
  },
  notebookDocuments: [] as unknown[],
  getWorkspaceFolder(uri: Uri) {
    return host.folders.find((f) => uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path}/`));
  },
  getConfiguration(section?: string, _scope?: unknown) {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: (key: string, dflt?: unknown) => host.config.lookup(full(key), host.trusted) ?? dflt,
      has: (key: string) => host.config.lookup(full(key), host.trusted) !== undefined,
      inspect: (key: string) => ({
        key: full(key),
        defaultValue: host.config.defaults.get(full(key)),
        globalValue: host.config.user.get(full(key)),
        workspaceValue: host.config.workspace.get(full(key)),
      }),
      update: async (key: string, value: unknown, target?: number | boolean) =>
        host.setSetting(full(key), value, target === 1 || target === true ? "user" : "workspace"),
    };
  },
  openTextDocument,
  registerTextDocumentContentProvider(scheme: string, provider: any) {
    host.contentProviders.set(scheme, provider);
    // As VS Code: an open document of the scheme is re-read when the provider says it changed.
    const sub = provider.onDidChange?.(async (uri: Uri) => {
      const doc = host.documents.get(uri.toString());
      if (!doc) return;
      const text = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token);
      const change = doc.replace(doc.validateRange(new Range(0, 0, doc.lineCount, 0)), text ?? "", false);
      host.onDidChangeTextDocument.fire({ document: doc, contentChanges: [change], reason: undefined });
    });
    return new Disposable(() => {
      host.contentProviders.delete(scheme);
      sub?.dispose();
    });
  },
  createFileSystemWatcher(_pattern: unknown) {
    const [c, ch, d] = [new EventEmitter<Uri>(), new EventEmitter<Uri>(), new EventEmitter<Uri>()];
    return {
      ignoreCreateEvents: false,
      ignoreChangeEvents: false,
      ignoreDeleteEvents: false,
      onDidCreate: c.event,
      onDidChange: ch.event,
      onDidDelete: d.event,
      dispose: () => [c, ch, d].forEach((e) => e.dispose()),
    };
  },
  async applyEdit(edit: any) {
    for (const [uri, edits] of edit.entries()) {
      const doc = host.documents.get(uri.toString()) ?? (await openTextDocument(uri));
      // Apply bottom-up so that earlier ranges stay valid.
      const sorted = [...edits].sort((a: any, b: any) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
      const changes = sorted.map((e: any) => doc.replace(e.range, e.newText));
      host.onDidChangeTextDocument.fire({ document: doc, contentChanges: changes, reason: undefined });
    }
    return true;
  },
  async saveAll() {
    for (const d of host.documents.values()) if (d.isDirty) await d.save();
    return true;
  },
  onDidOpenTextDocument: host.onDidOpenTextDocument.event,
  onDidCloseTextDocument: host.onDidCloseTextDocument.event,
  onDidChangeTextDocument: host.onDidChangeTextDocument.event,
  onWillSaveTextDocument: host.onWillSaveTextDocument.event,
  onDidSaveTextDocument: host.onDidSaveTextDocument.event,
  onDidChangeConfiguration: host.onDidChangeConfiguration.event,
  onDidGrantWorkspaceTrust: host.onDidGrantWorkspaceTrust.event,
  onDidChangeWorkspaceFolders: host.onDidChangeWorkspaceFolders.event,
  onDidOpenNotebookDocument: new EventEmitter<any>().event,
  onDidCloseNotebookDocument: new EventEmitter<any>().event,
  onDidChangeNotebookDocument: new EventEmitter<any>().event,
  onDidSaveNotebookDocument: new EventEmitter<any>().event,
  onDidCreateFiles: new EventEmitter<any>().event,
  onDidRenameFiles: new EventEmitter<any>().event,
  onDidDeleteFiles: new EventEmitter<any>().event,
  onWillCreateFiles: new EventEmitter<any>().event,
  onWillRenameFiles: new EventEmitter<any>().event,
  onWillDeleteFiles: new EventEmitter<any>().event,
});

export const window = namespace("window", {
  get activeTextEditor() {
    return host.activeEditor;
  },
  get visibleTextEditors() {
    return host.activeEditor ? [host.activeEditor] : [];
  },
  showInformationMessage: message("info"),
  showWarningMessage: message("warning"),
  showErrorMessage: message("error"),
  async showTextDocument(target: any, _options?: unknown) {
    const doc = target instanceof StandInDocument ? target : await openTextDocument(target);
    host.openTab(doc.uri);
    return host.showEditor(doc);
  },
  createOutputChannel: (name: string, _options?: unknown) => host.track(outputChannel(name)),
  createStatusBarItem(idOrAlignment?: string | number, _alignment?: number, _priority?: number) {
    return statusBarItem(typeof idOrAlignment === "string" ? idOrAlignment : "status");
  },
  async withProgress(options: any, task: (progress: any, token: any) => Promise<any>) {
    const source = new CancellationTokenSource();
    const record = { title: options.title, cancellable: !!options.cancellable, reports: [] as any[], source, done: false };
    host.progress.push(record);
    try {
      return await task({ report: (v: any) => record.reports.push(v) }, source.token);
    } finally {
      record.done = true;
    }
  },
  tabGroups: {
    get all() {
      const tabs = host.tabs.map((uri) => ({ input: new TabInputText(uri), label: nodePath.basename(uri.path), isActive: false, isDirty: false, isPinned: false, isPreview: false }));
      return [{ isActive: true, viewColumn: 1, activeTab: tabs[tabs.length - 1], tabs }];
    },
    get activeTabGroup() {
      return this.all[0];
    },
    onDidChangeTabs: host.onDidChangeTabs.event,
    onDidChangeTabGroups: new EventEmitter<any>().event,
  },
  onDidChangeActiveTextEditor: host.onDidChangeActiveTextEditor.event,
  onDidChangeVisibleTextEditors: host.onDidChangeVisibleTextEditors.event,
  onDidChangeTextEditorSelection: new EventEmitter<any>().event,
  onDidChangeActiveNotebookEditor: new EventEmitter<any>().event,
});

export const languages = namespace("languages", {
  createDiagnosticCollection(name = "") {
    const c = new DiagnosticCollection(name, (uris) => host.fireDiagnosticsChanged(uris));
    host.collections.add(c);
    return c;
  },
  getDiagnostics(uri: Uri) {
    return host.diagnostics(uri);
  },
  onDidChangeDiagnostics: host.onDidChangeDiagnostics.event,
  match(selector: any, doc: StandInDocument): number {
    const filters = Array.isArray(selector) ? selector : [selector];
    return filters.some((f) => matchFilter(f, doc)) ? 10 : 0;
  },
  registerCodeActionsProvider: register("codeActions"),
  registerHoverProvider: register("hover"),
  registerCompletionItemProvider: register("completion"),
  registerDocumentFormattingEditProvider: register("formatting"),
  registerDocumentRangeFormattingEditProvider: register("rangeFormatting"),
  registerCodeLensProvider: register("codeLens"),
  registerDocumentSymbolProvider: register("documentSymbol"),
  registerDefinitionProvider: register("definition"),
  registerReferenceProvider: register("references"),
  registerDocumentHighlightProvider: register("documentHighlight"),
  registerRenameProvider: register("rename"),
  registerSignatureHelpProvider: register("signatureHelp"),
  registerWorkspaceSymbolProvider: register("workspaceSymbol"),
  registerFoldingRangeProvider: register("foldingRange"),
  registerSelectionRangeProvider: register("selectionRange"),
  registerInlayHintsProvider: register("inlayHints"),
  registerDocumentLinkProvider: register("documentLink"),
  registerDocumentSemanticTokensProvider: register("semanticTokens"),
  registerDocumentRangeSemanticTokensProvider: register("rangeSemanticTokens"),
});

export const commands = namespace("commands", {
  registerCommand(id: string, fn: (...args: any[]) => any, thisArg?: unknown) {
    if (host.commands.has(id)) throw new Error(`command '${id}' already exists`); // as VS Code
    host.commands.set(id, fn.bind(thisArg));
    return new Disposable(() => host.commands.delete(id));
  },
  async executeCommand(id: string, ...args: any[]) {
    const fn = host.commands.get(id);
    if (!fn) throw new Error(`command '${id}' not found`);
    return fn(...args);
  },
  async getCommands() {
    return [...host.commands.keys()];
  },
});

export const extensions = namespace("extensions", {
  getExtension(id: string) {
    return host.extensions.get(id);
  },
  get all() {
    return [...host.extensions.values()];
  },
  onDidChange: new EventEmitter<void>().event,
});

export const env = namespace("env", {
  appName: "Visual Studio Code (stand-in)",
  appRoot: "",
  language: "en",
  machineId: "stand-in",
  sessionId: "stand-in",
  uriScheme: "vscode",
  remoteName: undefined,
  async openExternal(uri: Uri) {
    host.openedExternal.push(uri);
    return true;
  },
});
