// Value classes and enums of the stand-in `vscode` module: the ones the extension and
// vscode-languageclient construct or compare, with VS Code's semantics where the client relies
// on them (Uri round trips, Range containment, CodeActionKind hierarchy).
import * as nodePath from "node:path";

export class Disposable {
  static from(...items: { dispose(): any }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d?.dispose()));
  }
  private done = false;
  constructor(private readonly fn: () => any) {}
  dispose(): void {
    if (!this.done) {
      this.done = true;
      this.fn();
    }
  }
}

export type Listener<T> = (e: T) => any;
export type Event<T> = (listener: Listener<T>, thisArg?: any, disposables?: Disposable[]) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event: Event<T> = (listener, thisArg, disposables) => {
    const bound: Listener<T> = (e) => listener.call(thisArg, e);
    this.listeners.add(bound);
    const d = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };
  fire(data: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(data);
      } catch (e) {
        console.error("stand-in: listener threw", e); // VS Code logs and goes on
      }
    }
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class CancellationError extends Error {
  constructor() {
    super("Canceled");
    this.name = "Canceled";
  }
}

export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  readonly onCancellationRequested: Event<void>;
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  private cancelled = false;
  readonly token: CancellationToken;
  constructor() {
    const source = this; // the token outlives this call; its getter reads the source
    this.token = {
      get isCancellationRequested() {
        return source.cancelled;
      },
      // As in VS Code: a listener added after cancellation is still called (asynchronously).
      onCancellationRequested: (listener, thisArg, disposables) => {
        if (source.cancelled) {
          const t = setTimeout(() => listener.call(thisArg, undefined));
          return new Disposable(() => clearTimeout(t));
        }
        return source.emitter.event(listener, thisArg, disposables);
      },
    };
  }
  cancel(): void {
    if (!this.cancelled) {
      this.cancelled = true;
      this.emitter.fire();
    }
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
  isBefore(o: Position): boolean {
    return this.line < o.line || (this.line === o.line && this.character < o.character);
  }
  isAfter(o: Position): boolean {
    return o.isBefore(this);
  }
  isEqual(o: Position): boolean {
    return this.line === o.line && this.character === o.character;
  }
  isBeforeOrEqual(o: Position): boolean {
    return !this.isAfter(o);
  }
  isAfterOrEqual(o: Position): boolean {
    return !this.isBefore(o);
  }
  compareTo(o: Position): number {
    return this.isBefore(o) ? -1 : this.isEqual(o) ? 0 : 1;
  }
  translate(lineDelta = 0, characterDelta = 0): Position {
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line = this.line, character = this.character): Position {
    return new Position(line, character);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const [s, e] = typeof a === "number" ? [new Position(a, b as number), new Position(c!, d!)] : [a, b as Position];
    [this.start, this.end] = s.isAfter(e) ? [e, s] : [s, e];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(x: Position | Range): boolean {
    return x instanceof Range
      ? this.contains(x.start) && this.contains(x.end)
      : x.isAfterOrEqual(this.start) && x.isBeforeOrEqual(this.end);
  }
  isEqual(o: Range): boolean {
    return this.start.isEqual(o.start) && this.end.isEqual(o.end);
  }
  intersection(o: Range): Range | undefined {
    const s = this.start.isAfter(o.start) ? this.start : o.start;
    const e = this.end.isBefore(o.end) ? this.end : o.end;
    return s.isAfter(e) ? undefined : new Range(s, e);
  }
  union(o: Range): Range {
    return new Range(this.start.isBefore(o.start) ? this.start : o.start, this.end.isAfter(o.end) ? this.end : o.end);
  }
  with(start = this.start, end = this.end): Range {
    return new Range(start, end);
  }
}

export class Selection extends Range {
  constructor(readonly anchor: Position, readonly active: Position) {
    super(anchor, active);
  }
  get isReversed(): boolean {
    return this.anchor.isAfter(this.active);
  }
}

const URI_RE = /^(([^:/?#]+?):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/;
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export class Uri {
  static parse(value: string): Uri {
    const m = URI_RE.exec(value)!;
    const dec = (s: string | undefined) => decodeURIComponent(s ?? "");
    return new Uri(m[2] ?? "file", dec(m[4]), dec(m[5]), dec(m[7]), dec(m[9]));
  }
  static file(fsPath: string): Uri {
    return new Uri("file", "", nodePath.resolve(fsPath).split(nodePath.sep).join("/"), "", "");
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: nodePath.posix.join(base.path, ...segments) });
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? "", c.path ?? "", c.query ?? "", c.fragment ?? "");
  }
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  get fsPath(): string {
    return nodePath.normalize(this.path);
  }
  with(c: Partial<Pick<Uri, "scheme" | "authority" | "path" | "query" | "fragment">>): Uri {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString(): string {
    let s = `${this.scheme}:`;
    if (this.authority || this.scheme === "file") s += `//${enc(this.authority)}`;
    s += this.path.split("/").map(enc).join("/");
    if (this.query) s += `?${enc(this.query)}`;
    if (this.fragment) s += `#${enc(this.fragment)}`;
    return s;
  }
  toJSON(): unknown {
    return { $mid: 1, scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export class RelativePattern {
  constructor(readonly base: Uri | { uri: Uri } | string, readonly pattern: string) {}
  get baseUri(): Uri {
    return typeof this.base === "string" ? Uri.file(this.base) : "uri" in this.base ? this.base.uri : this.base;
  }
}

export enum DiagnosticSeverity { Error = 0, Warning = 1, Information = 2, Hint = 3 }
export enum DiagnosticTag { Unnecessary = 1, Deprecated = 2 }
export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }
export enum ViewColumn { Active = -1, Beside = -2, One = 1, Two = 2, Three = 3 }
export enum TextDocumentSaveReason { Manual = 1, AfterDelay = 2, FocusOut = 3 }
export enum EndOfLine { LF = 1, CRLF = 2 }
export enum NotebookCellKind { Markup = 1, Code = 2 }
export enum CodeActionTriggerKind { Invoke = 1, Automatic = 2 }
export enum ConfigurationTarget { Global = 1, Workspace = 2, WorkspaceFolder = 3 }
export enum ExtensionMode { Production = 1, Development = 2, Test = 3 }
export enum LogLevel { Off = 0, Trace = 1, Debug = 2, Info = 3, Warning = 4, Error = 5 }
export enum FileType { Unknown = 0, File = 1, Directory = 2, SymbolicLink = 64 }
export enum CompletionItemKind { Text = 0 }
export enum CompletionItemTag { Deprecated = 1 }
export enum SymbolKind { File = 0, TypeParameter = 25 }
export enum SymbolTag { Deprecated = 1 }
export enum DocumentHighlightKind { Text = 0, Read = 1, Write = 2 }
export enum SignatureHelpTriggerKind { Invoke = 1, TriggerCharacter = 2, ContentChange = 3 }
export enum CompletionTriggerKind { Invoke = 0, TriggerCharacter = 1, TriggerForIncompleteCompletions = 2 }

export class DiagnosticRelatedInformation {
  constructor(readonly location: Location, readonly message: string) {}
}

export class Location {
  readonly range: Range;
  constructor(readonly uri: Uri, rangeOrPosition: Range | Position) {
    this.range = rangeOrPosition instanceof Range ? rangeOrPosition : new Range(rangeOrPosition, rangeOrPosition);
  }
}

export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  relatedInformation?: DiagnosticRelatedInformation[];
  tags?: DiagnosticTag[];
  constructor(public range: Range, public message: string, public severity: DiagnosticSeverity = DiagnosticSeverity.Error) {}
}

export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = "", public supportThemeIcons = false) {}
  appendText(v: string): this {
    this.value += v.replace(/[\\`*_{}[\]()#+\-.!]/g, "\\$&");
    return this;
  }
  appendMarkdown(v: string): this {
    this.value += v;
    return this;
  }
  appendCodeblock(code: string, language = ""): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

export class TextEdit {
  static replace(range: Range, newText: string): TextEdit {
    return new TextEdit(range, newText);
  }
  static insert(position: Position, newText: string): TextEdit {
    return new TextEdit(new Range(position, position), newText);
  }
  static delete(range: Range): TextEdit {
    return new TextEdit(range, "");
  }
  constructor(public range: Range, public newText: string) {}
}

export class WorkspaceEdit {
  private edits = new Map<string, { uri: Uri; edits: TextEdit[] }>();
  get size(): number {
    return this.edits.size;
  }
  private slot(uri: Uri): TextEdit[] {
    const k = uri.toString();
    if (!this.edits.has(k)) this.edits.set(k, { uri, edits: [] });
    return this.edits.get(k)!.edits;
  }
  replace(uri: Uri, range: Range, newText: string): void {
    this.slot(uri).push(new TextEdit(range, newText));
  }
  insert(uri: Uri, position: Position, newText: string): void {
    this.slot(uri).push(TextEdit.insert(position, newText));
  }
  delete(uri: Uri, range: Range): void {
    this.slot(uri).push(TextEdit.delete(range));
  }
  set(uri: Uri, edits: TextEdit[]): void {
    this.slot(uri).splice(0, Infinity, ...edits);
  }
  get(uri: Uri): TextEdit[] {
    return this.edits.get(uri.toString())?.edits ?? [];
  }
  has(uri: Uri): boolean {
    return this.edits.has(uri.toString());
  }
  entries(): [Uri, TextEdit[]][] {
    return [...this.edits.values()].map((e) => [e.uri, e.edits]);
  }
  createFile(): void {
    throw new Error("stand-in: WorkspaceEdit.createFile is not supported");
  }
  deleteFile(): void {
    throw new Error("stand-in: WorkspaceEdit.deleteFile is not supported");
  }
  renameFile(): void {
    throw new Error("stand-in: WorkspaceEdit.renameFile is not supported");
  }
}

export class CodeActionKind {
  static readonly Empty = new CodeActionKind("");
  static readonly QuickFix = new CodeActionKind("quickfix");
  static readonly Refactor = new CodeActionKind("refactor");
  static readonly RefactorExtract = new CodeActionKind("refactor.extract");
  static readonly RefactorInline = new CodeActionKind("refactor.inline");
  static readonly RefactorRewrite = new CodeActionKind("refactor.rewrite");
  static readonly Source = new CodeActionKind("source");
  static readonly SourceOrganizeImports = new CodeActionKind("source.organizeImports");
  static readonly SourceFixAll = new CodeActionKind("source.fixAll");
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === "" || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
}

export class CodeAction {
  edit?: WorkspaceEdit;
  command?: { title: string; command: string; arguments?: unknown[] };
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  disabled?: { reason: string };
  constructor(public title: string, public kind?: CodeActionKind) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}

// Bases that vscode-languageclient extends when its modules load; gradlint's server provides
// none of these features, so construction is all they need.
export class CompletionItem {
  constructor(public label: unknown, public kind?: number) {}
}
export class CodeLens {
  constructor(public range: Range, public command?: unknown) {}
}
export class DocumentLink {
  constructor(public range: Range, public target?: Uri) {}
}
export class InlayHint {
  constructor(public position: Position, public label: unknown, public kind?: number) {}
}
export class SymbolInformation {
  constructor(public name: string, public kind: number, public containerName: string, public location: Location) {}
}
export class CallHierarchyItem {
  constructor(public kind: number, public name: string, public detail: string, public uri: Uri, public range: Range, public selectionRange: Range) {}
}
export class TypeHierarchyItem extends CallHierarchyItem {}
export class Hover {
  constructor(public contents: unknown, public range?: Range) {}
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputTextDiff {
  constructor(readonly original: Uri, readonly modified: Uri) {}
}
export class TabInputCustom {
  constructor(readonly uri: Uri, readonly viewType: string) {}
}
export class TabInputNotebook {
  constructor(readonly uri: Uri, readonly notebookType: string) {}
}
