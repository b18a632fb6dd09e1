// TextDocument of the stand-in editor: positions and offsets in UTF-16 code units, as VS Code's.
import { writeFileSync } from "node:fs";
import { EndOfLine, Position, Range, Uri } from "./classes";

export interface ContentChange {
  range: Range;
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

export class StandInDocument {
  version = 1;
  isClosed = false;
  isDirty = false;
  readonly eol = EndOfLine.LF;
  readonly encoding = "utf8";
  readonly notebook = undefined;

  constructor(
    readonly uri: Uri,
    public languageId: string,
    private text: string,
    private readonly onSave: (doc: StandInDocument) => void = () => {},
  ) {}

  get fileName(): string {
    return this.uri.fsPath;
  }
  get isUntitled(): boolean {
    return this.uri.scheme === "untitled";
  }
  private get lines(): string[] {
    return this.text.split("\n");
  }
  get lineCount(): number {
    return this.lines.length;
  }

  getText(range?: Range): string {
    return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text;
  }

  validatePosition(p: Position): Position {
    const lines = this.lines;
    const line = Math.min(Math.max(p.line, 0), lines.length - 1);
    return new Position(line, Math.min(Math.max(p.character, 0), lines[line].length));
  }

  validateRange(r: Range): Range {
    return new Range(this.validatePosition(r.start), this.validatePosition(r.end));
  }

  offsetAt(p: Position): number {
    const v = this.validatePosition(p);
    const lines = this.lines;
    let offset = 0;
    for (let i = 0; i < v.line; i++) offset += lines[i].length + 1;
    return offset + v.character;
  }

  positionAt(offset: number): Position {
    const lines = this.lines;
    let rest = Math.min(Math.max(offset, 0), this.text.length);
    for (let line = 0; line < lines.length; line++) {
      if (rest <= lines[line].length) return new Position(line, rest);
      rest -= lines[line].length + 1;
    }
    return new Position(lines.length - 1, lines[lines.length - 1].length);
  }

  lineAt(lineOrPosition: number | Position) {
    const line = typeof lineOrPosition === "number" ? lineOrPosition : lineOrPosition.line;
    const text = this.lines[line];
    if (text === undefined) throw new Error(`Illegal value for line: ${line}`);
    const firstNonWhitespaceCharacterIndex = text.search(/\S|$/);
    return {
      lineNumber: line,
      text,
      range: new Range(line, 0, line, text.length),
      rangeIncludingLineBreak: new Range(line, 0, line + 1, 0),
      firstNonWhitespaceCharacterIndex,
      isEmptyOrWhitespace: firstNonWhitespaceCharacterIndex === text.length,
    };
  }

  getWordRangeAtPosition(p: Position, regex = /\w+/g): Range | undefined {
    const text = this.lines[p.line] ?? "";
    const re = new RegExp(regex.source, regex.flags.includes("g") ? regex.flags : `${regex.flags}g`);
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      if (start <= p.character && p.character <= start + m[0].length) return new Range(p.line, start, p.line, start + m[0].length);
    }
    return undefined;
  }

  /** Applies one edit as the editor does, bumping the version; returns the change event entry. */
  replace(range: Range, newText: string, dirty = true): ContentChange {
    const r = this.validateRange(range);
    const rangeOffset = this.offsetAt(r.start);
    const rangeLength = this.offsetAt(r.end) - rangeOffset;
    this.text = this.text.slice(0, rangeOffset) + newText + this.text.slice(rangeOffset + rangeLength);
    this.version++;
    this.isDirty = dirty;
    return { range: r, rangeOffset, rangeLength, text: newText };
  }

  async save(): Promise<boolean> {
    if (this.uri.scheme === "file") writeFileSync(this.uri.fsPath, this.text);
    this.isDirty = false;
    this.onSave(this);
    return true;
  }
}
