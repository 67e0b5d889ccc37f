/**
 * What the preview page shows of one SOP, as JSON: its flowchart with the nodes that have diagnostics marked, every
 * diagnostic with the node it is about, each node's details (prompt, tools, edges, visit limit, the policies that
 * guard it), and whether it can be walked (a SOP with errors is not emitted, so it cannot). A diagnostic is about a
 * node when it points at a place that names the node (its declaration, an edge's end, its prompt heading, a hub) or
 * at a place inside the node's prompt (its tools, its yaml block).
 */
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import type { SopDocument } from '../document/sop-document.js';
import { spanContains } from '../document/source-lines.js';
import { markProblems } from './diagram-marks.js';
import type { PreviewView } from './preview-api.js';

export function previewView(document: SopDocument, diagnostics: readonly Diagnostic[], files: readonly string[]): PreviewView {
  const { compiled, parsed } = document.build;
  const model = compiled.model;
  const queries = document.queries();
  const nodes = (model?.nodes ?? []).flatMap((n) => {
    const d = queries?.details(n.id);
    return d === undefined ? [] : [d];
  });
  const about = nodeOfDiagnostic(document);
  const shown = diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    remediation: d.remediation ?? null,
    line: d.line,
    column: d.column,
    node: about(d),
  }));
  const worst = new Map<string, 'error' | 'warning'>();
  for (const d of shown) {
    if (d.node === null || d.severity === 'info') continue;
    if (d.severity === 'error' || worst.get(d.node) === undefined) worst.set(d.node, d.severity);
  }
  const nodeIds = [...document.index().nodes.keys()];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    file: document.file,
    hash: compiled.sourceHash,
    agent: model?.agent ?? null,
    diagram: parsed?.flowchart ? markProblems(parsed.flowchart.source, nodeIds, worst) : null,
    entry: model?.entryNode ?? null,
    nodes,
    diagnostics: shown,
    walkProblem:
      errors === 0 && model !== null
        ? null
        : `The SOP has ${errors === 0 ? 'no model' : `${errors} error${errors === 1 ? '' : 's'}`}: fix ${errors === 1 ? 'it' : 'them'} to walk it.`,
    files,
  };
}

function nodeOfDiagnostic(document: SopDocument): (d: Diagnostic) => string | null {
  const index = document.index();
  const prompts = document.build.compiled.model?.prompts ?? document.build.parsed?.prompts.prompts ?? [];
  const starts = prompts.map((p) => p.span.start.line);
  return (d) => {
    const at = { line: d.line, column: d.column };
    // A diagnostic that starts on no name may end on one (SOP047: the link, then the new id it made).
    const site =
      index.siteAt(at) ?? (d.endLine === undefined ? undefined : index.siteAt({ line: d.endLine, column: d.endColumn ?? d.column }));
    if (site !== undefined) {
      if (site.of === 'node' && index.nodes.get(site.name)?.[0]?.kind === 'declaration') return site.name;
      if (site.owner !== undefined && site.kind !== 'policy') return site.owner;
    }
    // Inside a `### ID` prompt (its yaml block, its text): the prompt's node, if it is one.
    for (let i = prompts.length - 1; i >= 0; i--) {
      if (starts[i]! > d.line) continue;
      const id = prompts[i]!.nodeId;
      const inside = document.build.compiled.model?.promptForm === 'headings' || spanContains(prompts[i]!.span, at);
      return inside && index.nodes.get(id)?.[0]?.kind === 'declaration' ? id : null;
    }
    return null;
  };
}
