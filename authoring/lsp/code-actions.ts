/**
 * Quick fixes from the compiler's own remediations, for the diagnostics in the range the editor asks about:
 * - a remediation that opens with "Did you mean `X`?" (a misspelt node id, tool, key, agent, shape; a mention of a
 *   renamed node): replace the name written at the diagnostic with X. Every code whose remediation can name a
 *   replacement has this fix (`test/authoring/lsp/quick-fixes.test.ts` lists which do);
 * - a node's `tools` naming a tool the frontmatter does not declare (SOP040): add it to the frontmatter's `tools`,
 *   in the style the list is written in (`[a, b]` or one `- a` per line).
 * They are computed from the document as compiled now (with the checks across files of the same text, when the caller
 * has them), not from what the editor echoes back, so they always fit the text they edit.
 */
import { type CodeAction, CodeActionKind, type Range, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic, SourceSpan } from '../../generator/diagnostics/diagnostic.js';
import type { SopDocument } from '../document/sop-document.js';
import { toLspDiagnostic } from './lsp-diagnostics.js';
import { fromPosition, toRange } from './lsp-ranges.js';

/** "Did you mean `X`?" (or `'X'`, as the flowchart's shape data says it) at the start of a remediation. */
const DID_YOU_MEAN = /^Did you mean (`([^`]+)`|'([^']+)')\?/;

/** The name a remediation offers in place of the one written, or null when it names none. */
export function replacementOf(remediation: string | undefined): string | null {
  const meant = remediation === undefined ? null : DID_YOU_MEAN.exec(remediation);
  return meant === null ? null : (meant[2] ?? meant[3]!);
}

/**
 * @param diagnostics the document's diagnostics as last checked with its project (the checks across files included),
 *   when they are of its current text; else its own.
 */
export function codeActionsFor(
  document: SopDocument,
  range: Range,
  uri: string,
  docsUrl: string | null,
  diagnostics: readonly Diagnostic[] = document.build.compiled.diagnostics,
): CodeAction[] {
  const wanted = { start: fromPosition(range.start), end: fromPosition(range.end) };
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    const span = spanOf(d);
    if (!overlaps(span, wanted)) continue;
    for (const fix of quickFixes(document, d, span)) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLspDiagnostic(d, docsUrl)],
        isPreferred: actions.length === 0,
        edit: { changes: { [uri]: fix.edits } },
      });
    }
  }
  return actions;
}

function quickFixes(document: SopDocument, d: Diagnostic, span: SourceSpan): { title: string; edits: TextEdit[] }[] {
  const fixes: { title: string; edits: TextEdit[] }[] = [];
  const meant = replacementOf(d.remediation);
  const written = meant === null ? null : writtenName(document, span);
  if (meant !== null && written !== null) {
    fixes.push({
      title: `Change \`${document.lines.textOf(written)}\` to \`${meant}\``,
      edits: [{ range: toRange(written), newText: meant }],
    });
  }
  if (d.code === 'SOP040') {
    const tool = /tool `([^`]+)`/.exec(d.message)?.[1];
    const edit = tool === undefined ? null : addFrontmatterTool(document, tool);
    if (edit !== null) fixes.push({ title: `Add \`${tool}\` to the frontmatter \`tools\``, edits: [edit] });
  }
  return fixes;
}

/**
 * The name a diagnostic points at: its span without heading marks, spaces, quotes and backticks around the name
 * (`### ASKK` → `ASKK`, `"nope"` → `nope`). Null when the span holds no single name.
 */
function writtenName(document: SopDocument, span: SourceSpan): SourceSpan | null {
  if (span.start.line !== span.end.line) return null;
  const text = document.lines.textOf(span);
  const match = /^[#\s`'"]*([^\s`'"#][^\s`'"]*)[\s`'"]*$/.exec(text);
  if (match === null) return null;
  const column = span.start.column + /^[#\s`'"]*/.exec(text)![0].length;
  return { start: { line: span.start.line, column }, end: { line: span.start.line, column: column + match[1]!.length } };
}

/** The edit that adds `tool` at the end of the frontmatter's `tools`, in the list's own style. */
function addFrontmatterTool(document: SopDocument, tool: string): TextEdit | null {
  const model = document.build.compiled.model;
  const yaml = document.build.parsed?.frontmatterYaml;
  if (model === null || yaml === null || yaml === undefined) return null;
  const last = model.tools.at(-1);
  if (last === undefined) {
    const list = yaml.spanOf(['tools']);
    return document.lines.textOf(list).trim() === '[]' ? { range: toRange(list), newText: `[${tool}]` } : null;
  }
  const line = document.lines.line(last.span.start.line);
  const item = /^(\s*)-\s/.exec(line);
  if (item !== null && line.trimStart().startsWith('-') && line.indexOf('-') < last.span.start.column - 1) {
    const at = { line: last.span.end.line, column: document.lines.line(last.span.end.line).length + 1 };
    return { range: toRange({ start: at, end: at }), newText: `\n${item[1]}- ${tool}` };
  }
  return { range: toRange({ start: last.span.end, end: last.span.end }), newText: `, ${tool}` };
}

function spanOf(d: Diagnostic): SourceSpan {
  const start = { line: d.line, column: d.column };
  return { start, end: d.endLine !== undefined && d.endColumn !== undefined ? { line: d.endLine, column: d.endColumn } : start };
}

function overlaps(a: SourceSpan, b: SourceSpan): boolean {
  const before = (p: { line: number; column: number }, q: { line: number; column: number }) =>
    p.line < q.line || (p.line === q.line && p.column <= q.column);
  return before(a.start, b.end) && before(b.start, a.end);
}
