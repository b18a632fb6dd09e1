// The gradient-check report (the JSON that `gradlint.gradcheck` returns) as a read-only
// Markdown document under the `gradlint-report:` scheme.
import * as vscode from "vscode";

export type Report = Record<string, unknown> & { verdict?: string; explanation?: string; target?: string };

export const REPORT_SCHEME = "gradlint-report";
export const REPORT_URI = vscode.Uri.parse(`${REPORT_SCHEME}:/gradient-report.md`);

const VERDICT_ICON: Record<string, string> = { pass: "✅", fail: "❌", inconclusive: "⚠️", error: "⛔" };

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isRecordList = (v: unknown): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);
const isScalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === "number"));

function cell(v: unknown): string {
  let s: string;
  if (typeof v === "number" && !Number.isInteger(v)) {
    const a = Math.abs(v);
    s = a !== 0 && (a < 1e-3 || a >= 1e6) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
  }
  else if (Array.isArray(v)) s = `(${v.join(", ")})`; // shapes, indices
  else s = String(v ?? "");
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A table of the scalar fields of `rows`; nested lists of records follow as tables of their own. */
function table(rows: Record<string, unknown>[], heading: string, out: string[]): void {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => isScalar(r[k]))))];
  const line = (xs: string[]) => `| ${xs.join(" | ")} |`;
  out.push(heading, "", line(keys), line(keys.map(() => "---")), ...rows.map((r) => line(keys.map((k) => cell(r[k])))), "");
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      if (isRecordList(v)) table(v, `${"#".repeat(Math.min(heading.indexOf(" ") + 1, 6))} ${k} of \`${cell(r.name ?? "")}\``, out);
    }
  }
}

export function targetName(r: Report): string {
  return String(r.target ?? r.name ?? r.qualname ?? "function");
}

export function renderReport(r: Report | undefined): string {
  if (!r) return "# Gradient report\n\nNo gradient check has run yet: use **gradlint: Check gradients at cursor**.\n";
  const verdict = String(r.verdict ?? "unknown");
  const out = [`# ${VERDICT_ICON[verdict] ?? "?"} Gradient check of \`${targetName(r)}\`: ${verdict}`, ""];
  if (r.explanation) out.push(String(r.explanation), "");
  // One level of scalars (and of small objects, flattened) as a summary.
  const summary: [string, unknown][] = [];
  for (const [k, v] of Object.entries(r)) {
    if (["verdict", "explanation", "target"].includes(k)) continue;
    const shown = (x: unknown) => isScalar(x) && x !== null && x !== "";
    if (shown(v)) summary.push([k, v]);
    else if (isRecord(v)) for (const [k2, v2] of Object.entries(v)) if (shown(v2)) summary.push([`${k}.${k2}`, v2]);
  }
  if (summary.length > 0) out.push("| | |", "| --- | --- |", ...summary.map(([k, v]) => `| ${k} | ${cell(v)} |`), "");
  for (const [k, v] of Object.entries(r)) {
    if (isRecordList(v)) table(v, `## ${k}`, out);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) out.push(`## ${k}`, "", ...v.map((x) => `- ${x}`), "");
  }
  out.push("## Full report", "", "```json", JSON.stringify(r, null, 2), "```", "");
  return out.join("\n");
}

/** Holds the latest report and serves it to the editor. */
export class ReportStore implements vscode.TextDocumentContentProvider {
  private report: Report | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  get last(): Report | undefined {
    return this.report;
  }

  set(report: Report): void {
    this.report = report;
    this.changed.fire(REPORT_URI);
  }

  provideTextDocumentContent(): string {
    return renderReport(this.report);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
