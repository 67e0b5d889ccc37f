/**
 * Go to definition, find references and document highlights, as queries over the document's index (every place the
 * compiler saw a node id or a tool name). The definition of a node id is its declaration in the flowchart, and from
 * the declaration itself, its prompt: what an author jumps to next. The definition of a tool is its entry in the
 * frontmatter's `tools`.
 */
import { DocumentHighlightKind, type DocumentHighlight, type Location } from 'vscode-languageserver';
import type { SourcePosition } from '../../generator/diagnostics/diagnostic.js';
import type { NameSite } from '../document/sop-index.js';
import type { SopDocument } from '../document/sop-document.js';
import { spanContains } from '../document/source-lines.js';
import { toRange } from './lsp-ranges.js';

export function definitionAt(document: SopDocument, position: SourcePosition, uri: string): Location[] {
  const site = document.index().siteAt(position);
  if (site === undefined) return [];
  const sites = sitesOf(document, site);
  const declaration = sites.find((s) => s.kind === 'declaration' || s.kind === 'tool_declaration');
  if (declaration === undefined) return [];
  if (spanContains(declaration.span, position) && site.of === 'node') {
    const prompt = sites.find((s) => s.kind === 'prompt');
    return prompt === undefined ? [] : [{ uri, range: toRange(prompt.span) }];
  }
  return [{ uri, range: toRange(declaration.span) }];
}

export function referencesAt(document: SopDocument, position: SourcePosition, uri: string, includeDeclaration: boolean): Location[] {
  const site = document.index().siteAt(position);
  if (site === undefined) return [];
  return sitesOf(document, site)
    .filter((s) => includeDeclaration || (s.kind !== 'declaration' && s.kind !== 'tool_declaration'))
    .map((s) => ({ uri, range: toRange(s.span) }));
}

export function highlightsAt(document: SopDocument, position: SourcePosition): DocumentHighlight[] {
  const site = document.index().siteAt(position);
  if (site === undefined) return [];
  return sitesOf(document, site).map((s) => ({
    range: toRange(s.span),
    kind: s.kind === 'declaration' || s.kind === 'tool_declaration' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}

/** Every site of the name `site` is one of. */
export function sitesOf(document: SopDocument, site: NameSite): readonly NameSite[] {
  const index = document.index();
  return (site.of === 'node' ? index.nodes : index.tools).get(site.name) ?? [site];
}
