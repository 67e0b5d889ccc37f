/**
 * Quick fixes from the compiler's own remediations, for the diagnostics in the range the editor asks about:
 * - "Did you mean `X`?" (a misspelt node id, tool, key or shape): replace the name written at the diagnostic with X;
 * - a node's `tools` naming a tool the frontmatter does not declare (SOP040): add it to the frontmatter's `tools`,
 *   in the style the list is written in (`[a, b]` or one `- a` per line).
 * They are computed from the document as compiled now, not from what the editor echoes back, so they always fit the
 * text they edit.
 */
import { type CodeAction, CodeActionKind, type Range, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic, SourceSpan } from '../../generator/diagnostics/diagnostic.js';
import type { SopDocument } from '../document/sop-document.js';
import { toLspDiagnostic } from './lsp-diagnostics.js';
import { fromPosition, toRange } from './lsp-ranges.js';

const DID_YOU_MEAN = /^Did you mean `([^`]+)`\?$/;

export function codeActionsFor(document: SopDocument, range: Range, uri: string, docsUrl: string | null): CodeAction[] {
  const wanted = { start: fromPosition(range.start), end: fromPosition(range.end) };
  const actions: CodeAction[] = [];
  for (const d of document.build.compiled.diagnostics) {
    const span = spanOf(d);
    if (!overlaps(span, wanted)) continue;
    const fix = quickFix(document, d, span);
    if (fix === null) continue;
    actions.push({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [toLspDiagnostic(d, docsUrl)],
      isPreferred: true,
      edit: { changes: { [uri]: fix.edits } },
    });
  }
  return actions;
}

function quickFix(document: SopDocument, d: Diagnostic, span: SourceSpan): { title: string; edits: TextEdit[] } | null {
  const meant = d.remediation === undefined ? null : DID_YOU_MEAN.exec(d.remediation);
  if (meant !== null) {
    const written = writtenName(document, span);
    if (written === null) return null;
    return {
      title: `Change \`${document.lines.textOf(written)}\` to \`${meant[1]}\``,
      edits: [{ range: toRange(written), newText: meant[1]! }],
    };
  }
  if (d.code === 'SOP040') {
    const tool = /tool `([^`]+)`/.exec(d.message)?.[1];
    const edit = tool === undefined ? null : addFrontmatterTool(document, tool);
    return edit === null ? null : { title: `Add \`${tool}\` to the frontmatter \`tools\``, edits: [edit] };
  }
  return null;
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
