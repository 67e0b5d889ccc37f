/**
 * The outline of a SOP: its frontmatter (with the policies), its level-2 sections, the flowchart's nodes under
 * `## SOP Flowchart` (decisions and terminals told apart), and each node's prompt under `## Node Prompts`. From the
 * parse and the model, so the outline follows the file as the compiler reads it.
 */
import { type DocumentSymbol, SymbolKind } from 'vscode-languageserver';
import type { SourceSpan } from '../../generator/diagnostics/diagnostic.js';
import { splitFrontmatter } from '../../generator/parse/split-frontmatter.js';
import type { SopDocument } from '../document/sop-document.js';
import { toRange } from './lsp-ranges.js';

export function documentSymbols(document: SopDocument): DocumentSymbol[] {
  const { lines, build } = document;
  const { model, facts } = build.compiled;
  const parsed = build.parsed;
  const symbols: DocumentSymbol[] = [];
  const fm = splitFrontmatter({ file: document.file, text: lines.text }).frontmatter;
  if (fm !== null) {
    const lastLine = fm.closingLine ?? Math.max((fm.bodyLine ?? lines.lineCount + 1) - 1, 1);
    const whole = { start: { line: 1, column: 1 }, end: { line: lastLine, column: lines.line(lastLine).length + 1 } };
    const children = (model?.policies ?? []).map((p) =>
      symbol(p.id, SymbolKind.Object, p.span, p.span, p.description ?? `policy (${p.severity})`),
    );
    symbols.push(
      symbol(
        model?.agent ?? 'frontmatter',
        SymbolKind.Namespace,
        whole,
        { start: whole.start, end: { line: 1, column: 4 } },
        'frontmatter',
        children,
      ),
    );
  }
  const decisions = new Set(facts?.decisionNodes ?? []);
  const terminals = new Set(facts?.terminalNodes ?? []);
  for (const section of parsed?.sections ?? []) {
    const whole = { start: lines.positionOf(section.start), end: lines.positionOf(section.end) };
    const heading = section.heading.toLowerCase();
    const children: DocumentSymbol[] = [];
    if (heading === 'sop flowchart') {
      for (const node of model?.nodes ?? []) {
        const kind = decisions.has(node.id) ? SymbolKind.Enum : terminals.has(node.id) ? SymbolKind.Event : SymbolKind.Function;
        if (contains(whole, node.span)) children.push(symbol(node.id, kind, node.span, node.span, `${node.type} · ${node.description}`));
      }
    }
    if (heading.startsWith('node prompts')) {
      const prompts = model?.prompts ?? parsed?.prompts.prompts ?? [];
      const starts = prompts.map((p) => p.span.start);
      prompts.forEach((p, i) => {
        const next = starts[i + 1];
        const headings = (model?.promptForm ?? parsed?.prompts.form) === 'headings';
        // A `### ID` prompt runs to the next one (the last to the end of the section); a map entry is its key.
        const end = !headings ? p.span.end : next !== undefined ? lines.positionOf(lines.offsetOf(next) - 1) : whole.end;
        const range = { start: p.span.start, end: contains(whole, { start: p.span.start, end }) ? end : p.span.end };
        if (contains(whole, p.span))
          children.push(symbol(p.nodeId, SymbolKind.Method, range, p.span, p.tools.map((t) => t.name).join(', ')));
      });
    }
    symbols.push(symbol(section.heading || '(untitled)', SymbolKind.Module, whole, section.headingSpan, undefined, children));
  }
  return symbols;
}

function symbol(
  name: string,
  kind: SymbolKind,
  range: SourceSpan,
  selection: SourceSpan,
  detail?: string,
  children: DocumentSymbol[] = [],
): DocumentSymbol {
  return { name: name || ' ', kind, range: toRange(range), selectionRange: toRange(selection), ...(detail ? { detail } : {}), children };
}

function contains(outer: SourceSpan, inner: SourceSpan): boolean {
  const le = (a: SourceSpan['start'], b: SourceSpan['start']) => a.line < b.line || (a.line === b.line && a.column <= b.column);
  return le(outer.start, inner.start) && le(inner.end, outer.end);
}
