// The state behind the stand-in `vscode` module, and the controls a test uses to act as the
// user: open and edit files, move the cursor, change settings, grant trust, read what the
// editor would show (diagnostics, messages, status bar, progress).
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import {
  CancellationTokenSource,
  Diagnostic,
  Disposable,
  EventEmitter,
  Position,
  Range,
  Selection,
  Uri,
} from "./classes";
import { StandInDocument, type ContentChange } from "./document";

export interface Message {
  level: "info" | "warning" | "error";
  message: string;
  items: unknown[];
}

export interface StatusItem {
  id: string;
  text: string;
  tooltip: unknown;
  command: unknown;
  name?: string;
  visible: boolean;
  history: string[]; // every text it showed while visible
}

export interface ProgressRecord {
  title?: string;
  cancellable: boolean;
  reports: { message?: string; increment?: number }[];
  source: CancellationTokenSource;
  done: boolean;
}

export interface Provider {
  kind: string;
  selector: unknown;
  provider: any;
  metadata?: unknown;
}

export class DiagnosticCollection {
  private readonly entries = new Map<string, { uri: Uri; diagnostics: Diagnostic[] }>();
  constructor(readonly name: string, private readonly changed: (uris: Uri[]) => void) {}
  set(uriOrEntries: Uri | [Uri, Diagnostic[] | undefined][], diagnostics?: readonly Diagnostic[]): void {
    const list: [Uri, readonly Diagnostic[] | undefined][] = uriOrEntries instanceof Uri ? [[uriOrEntries, diagnostics]] : uriOrEntries;
    for (const [uri, diags] of list) {
      if (diags && diags.length > 0) this.entries.set(uri.toString(), { uri, diagnostics: [...diags] });
      else this.entries.delete(uri.toString());
    }
    this.changed(list.map(([u]) => u));
  }
  get(uri: Uri): readonly Diagnostic[] {
    return this.entries.get(uri.toString())?.diagnostics ?? [];
  }
  has(uri: Uri): boolean {
    return this.entries.has(uri.toString());
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
    this.changed([uri]);
  }
  clear(): void {
    const uris = [...this.entries.values()].map((e) => e.uri);
    this.entries.clear();
    this.changed(uris);
  }
  forEach(cb: (uri: Uri, diagnostics: readonly Diagnostic[], c: DiagnosticCollection) => any): void {
    for (const e of [...this.entries.values()]) cb(e.uri, e.diagnostics, this);
  }
  [Symbol.iterator](): Iterator<[Uri, readonly Diagnostic[]]> {
    return [...this.entries.values()].map((e) => [e.uri, e.diagnostics] as [Uri, readonly Diagnostic[]])[Symbol.iterator]();
  }
  dispose(): void {
    this.clear();
    host.collections.delete(this);
  }
}

/** Settings at the user and workspace levels over the defaults from the extension's package.json. */
export class ConfigStore {
  readonly defaults = new Map<string, unknown>();
  readonly restricted = new Set<string>();
  readonly user = new Map<string, unknown>();
  readonly workspace = new Map<string, unknown>();

  loadManifest(manifest: any): void {
    for (const [key, spec] of Object.entries<any>(manifest.contributes?.configuration?.properties ?? {})) {
      this.defaults.set(key, spec.default);
    }
    for (const key of manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []) this.restricted.add(key);
  }

  /** As VS Code: in an untrusted workspace, restricted settings ignore the workspace's values. */
  lookup(full: string, trusted: boolean): unknown {
    const exact = this.level(full, trusted);
    if (exact !== undefined) return exact;
    const keys = new Set([...this.defaults.keys(), ...this.user.keys(), ...this.workspace.keys()].filter((k) => k.startsWith(`${full}.`)));
    if (keys.size === 0) return undefined;
    const out: Record<string, any> = {};
    for (const k of keys) {
      const parts = k.slice(full.length + 1).split(".");
      let node = out;
      for (const p of parts.slice(0, -1)) node = node[p] ??= {};
      node[parts[parts.length - 1]] = this.level(k, trusted);
    }
    return out;
  }

  private level(key: string, trusted: boolean): unknown {
    if (this.workspace.has(key) && (trusted || !this.restricted.has(key))) return this.workspace.get(key);
    if (this.user.has(key)) return this.user.get(key);
    return this.defaults.get(key);
  }
}

export class Host {
  folders: { uri: Uri; name: string; index: number }[] = [];
  trusted = true;
  readonly config = new ConfigStore();
  readonly documents = new Map<string, StandInDocument>();
  activeEditor: any;
  readonly commands = new Map<string, (...args: any[]) => any>();
  readonly collections = new Set<DiagnosticCollection>();
  readonly providers: Provider[] = [];
  readonly contentProviders = new Map<string, any>();
  readonly extensions = new Map<string, any>();
  readonly messages: Message[] = [];
  readonly statusItems: StatusItem[] = [];
  readonly progress: ProgressRecord[] = [];
  readonly output = new Map<string, string[]>();
  readonly openedExternal: Uri[] = [];
  /** Names of API members the code under test asked for and the stand-in lacks. */
  readonly missing = new Set<string>();
  /** Answer the next message that offers this item, as if the user clicked it. */
  autoPick: string | undefined;

  readonly onDidOpenTextDocument = new EventEmitter<StandInDocument>();
  readonly onDidCloseTextDocument = new EventEmitter<StandInDocument>();
  readonly onDidChangeTextDocument = new EventEmitter<any>();
  readonly onWillSaveTextDocument = new EventEmitter<any>();
  readonly onDidSaveTextDocument = new EventEmitter<StandInDocument>();
  readonly onDidChangeConfiguration = new EventEmitter<any>();
  readonly onDidGrantWorkspaceTrust = new EventEmitter<void>();
  readonly onDidChangeWorkspaceFolders = new EventEmitter<any>();
  readonly onDidChangeActiveTextEditor = new EventEmitter<any>();
  readonly onDidChangeVisibleTextEditors = new EventEmitter<any>();
  readonly onDidChangeDiagnostics = new EventEmitter<{ uris: Uri[] }>();
  readonly onDidChangeTabs = new EventEmitter<any>();
  /** Editor tabs (one group), in the order opened. */
  readonly tabs: Uri[] = [];
  private disposables: Disposable[] = [];

  /** A fresh editor window on `folder`, with the extension's package.json for setting defaults. */
  reset(opts: { folder?: string; trusted?: boolean; manifest?: any } = {}): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.folders = opts.folder ? [{ uri: Uri.file(opts.folder), name: nodePath.basename(opts.folder), index: 0 }] : [];
    this.trusted = opts.trusted ?? true;
    for (const m of [this.documents, this.commands, this.contentProviders, this.extensions, this.output]) m.clear();
    for (const c of [...this.collections]) c.dispose();
    for (const a of [this.providers, this.messages, this.statusItems, this.progress, this.openedExternal, this.tabs]) a.length = 0;
    for (const m of [this.config.defaults, this.config.user, this.config.workspace]) m.clear();
    this.config.restricted.clear();
    if (opts.manifest) this.config.loadManifest(opts.manifest);
    this.activeEditor = undefined;
    this.autoPick = undefined;
    this.missing.clear();
  }

  track<T extends { dispose(): any }>(d: T): T {
    this.disposables.push(new Disposable(() => d.dispose()));
    return d;
  }

  // ------------------------------------------------------------------ documents and editors

  addDocument(uri: Uri, languageId: string, text: string): StandInDocument {
    const existing = this.documents.get(uri.toString());
    if (existing) return existing;
    const doc = new StandInDocument(uri, languageId, text, (d) => this.onDidSaveTextDocument.fire(d));
    this.documents.set(uri.toString(), doc);
    this.onDidOpenTextDocument.fire(doc);
    return doc;
  }

  /** Opens a file as the user would (File > Open); events in VS Code's order: tab, document, editor. */
  open(fsPath: string, languageId = "python"): StandInDocument {
    const uri = Uri.file(fsPath);
    this.openTab(uri);
    const doc = this.addDocument(uri, languageId, readFileSync(fsPath, "utf8"));
    this.showEditor(doc);
    return doc;
  }

  openTab(uri: Uri): void {
    if (this.tabs.some((t) => t.toString() === uri.toString())) return;
    this.tabs.push(uri);
    this.onDidChangeTabs.fire({ opened: [uri], closed: [], changed: [] });
  }

  showEditor(doc: StandInDocument, line = 0, character = 0): any {
    const pos = new Position(line, character);
    this.activeEditor = {
      document: doc,
      selection: new Selection(pos, pos),
      selections: [new Selection(pos, pos)],
      visibleRanges: [new Range(0, 0, doc.lineCount, 0)],
      options: { tabSize: 4, insertSpaces: true },
      viewColumn: 1,
      edit: async (cb: (b: any) => void) => {
        const changes: ContentChange[] = [];
        cb({ replace: (r: Range, t: string) => changes.push(doc.replace(r, t)), insert: (p: Position, t: string) => changes.push(doc.replace(new Range(p, p), t)), delete: (r: Range) => changes.push(doc.replace(r, "")) });
        this.onDidChangeTextDocument.fire({ document: doc, contentChanges: changes, reason: undefined });
        return true;
      },
    };
    this.onDidChangeActiveTextEditor.fire(this.activeEditor);
    this.onDidChangeVisibleTextEditors.fire([this.activeEditor]);
    return this.activeEditor;
  }

  /** Types over `range` (one change event, as a paste would make). */
  edit(doc: StandInDocument, range: Range, text: string): void {
    const change = doc.replace(range, text);
    this.onDidChangeTextDocument.fire({ document: doc, contentChanges: [change], reason: undefined });
  }

  close(doc: StandInDocument): void {
    const i = this.tabs.findIndex((t) => t.toString() === doc.uri.toString());
    if (i >= 0) {
      this.tabs.splice(i, 1);
      this.onDidChangeTabs.fire({ opened: [], closed: [doc.uri], changed: [] });
    }
    if (this.activeEditor?.document === doc) this.activeEditor = undefined;
    this.documents.delete(doc.uri.toString());
    doc.isClosed = true;
    this.onDidCloseTextDocument.fire(doc);
  }

  // ------------------------------------------------------------------ settings and trust

  setSetting(key: string, value: unknown, level: "user" | "workspace" = "user"): void {
    const store = level === "user" ? this.config.user : this.config.workspace;
    if (value === undefined) store.delete(key);
    else store.set(key, value);
    this.onDidChangeConfiguration.fire({
      affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) || section.startsWith(`${key}.`),
    });
  }

  grantTrust(): void {
    this.trusted = true;
    this.onDidGrantWorkspaceTrust.fire();
  }

  // ------------------------------------------------------------------ what the user sees

  diagnostics(uri: Uri): Diagnostic[] {
    return [...this.collections].flatMap((c) => [...c.get(uri)]);
  }

  fireDiagnosticsChanged(uris: Uri[]): void {
    this.onDidChangeDiagnostics.fire({ uris });
  }

  /** Waits until `probe` returns a value other than undefined/false, re-checking on every editor event. */
  async waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

export const host = new Host();
