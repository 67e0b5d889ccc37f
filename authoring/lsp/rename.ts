/**
 * Rename a node id, or a tool name, everywhere the SOP names it, as one workspace edit: for a node, its occurrences
 * in the flowchart, its prompt heading (or `node_prompts:` key), `hubs`, `entry_node`, `escalation_node`, every
 * `escalate_to`, the `when` keys, the policies that name it (a `*` pattern such as `DO_*` names no node in
 * particular and is left as it is), and its mentions in the prose and the prompts (`` `AUTH` ``, `goto_node("AUTH")`,
 * "go to AUTH", "(node AUTH)"); for a tool, the frontmatter's `tools`, every node's `tools` and `evidence`, the
 * policies' `tools` and the tool a `when` condition reads (inside its text).
 *
 * Refused, with the reason, when the new name is taken (a node, a subgraph or edge id, a name the SOP already
 * writes), is not a name every place can hold (letters, digits and underscores for a node id), or when the renamed
 * SOP would not compile as well as before: the edit is applied in memory and compiled first, so a rename never
 * breaks a SOP.
 */
import type { Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { compileDocument } from '../../generator/project/compile-document.js';
import type { SourcePosition } from '../../generator/diagnostics/diagnostic.js';
import type { NameSite } from '../document/sop-index.js';
import type { SopDocument } from '../document/sop-document.js';
import { toRange } from './lsp-ranges.js';
import { sitesOf } from './navigation.js';

export type RenameOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const NODE_ID = /^[A-Za-z0-9_]+$/;
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** The name under the cursor and its range, or why nothing there can be renamed. */
export function prepareRenameAt(document: SopDocument, position: SourcePosition): RenameOutcome<{ range: Range; placeholder: string }> {
  const site = document.index().siteAt(position);
  if (site === undefined) return { ok: false, reason: 'Only a node id or a tool name can be renamed here.' };
  return { ok: true, value: { range: toRange(site.span), placeholder: site.name } };
}

export function renameAt(document: SopDocument, position: SourcePosition, newName: string, uri: string): RenameOutcome<WorkspaceEdit> {
  const site = document.index().siteAt(position);
  if (site === undefined) return { ok: false, reason: 'Only a node id or a tool name can be renamed here.' };
  const sites = sitesOf(document, site);
  if (newName === site.name) return { ok: true, value: { changes: { [uri]: [] } } };
  const problem = site.of === 'node' ? nodeIdProblem(document, newName) : toolNameProblem(document, newName);
  if (problem !== null) return { ok: false, reason: problem };
  const edits = sites.map((s) => ({ range: toRange(s.span), newText: newName }));
  const broken = breaks(document, sites, newName);
  if (broken !== null) return { ok: false, reason: `Renaming \`${site.name}\` to \`${newName}\` would break the SOP: ${broken}` };
  return { ok: true, value: { changes: { [uri]: edits satisfies TextEdit[] } } };
}

function nodeIdProblem(document: SopDocument, name: string): string | null {
  if (!NODE_ID.test(name))
    return `\`${name}\` cannot be a node id everywhere one is written (the flowchart, a heading, YAML): use letters, digits and underscores, e.g. \`COLLECT_REFUND\`.`;
  const index = document.index();
  const taken = index.nodes.get(name)?.[0];
  if (taken !== undefined) {
    const what = taken.kind === 'declaration' ? 'is already a node of the flowchart' : 'is already named by this SOP';
    return `\`${name}\` ${what} (line ${taken.span.start.line}): renaming would merge two nodes.`;
  }
  if (index.otherIds.has(name)) return `\`${name}\` is the id of a subgraph or an edge of the flowchart.`;
  return null;
}

function toolNameProblem(document: SopDocument, name: string): string | null {
  if (!TOOL_NAME.test(name)) return `\`${name}\` is not a tool name: use letters, digits, \`_\`, \`-\` and \`.\`.`;
  const taken = document.index().tools.get(name)?.[0];
  return taken === undefined ? null : `\`${name}\` is already a tool of this SOP (line ${taken.span.start.line}).`;
}

/** The first problem the renamed text has that the text before did not (by code and count), or null. */
function breaks(document: SopDocument, sites: readonly NameSite[], name: string): string | null {
  const { lines } = document;
  let text = lines.text;
  const ordered = [...sites].sort((a, b) => lines.offsetOf(b.span.start) - lines.offsetOf(a.span.start));
  for (const s of ordered) text = text.slice(0, lines.offsetOf(s.span.start)) + name + text.slice(lines.offsetOf(s.span.end));
  const errorsByCode = (diagnostics: readonly { code: string; severity: string }[]) => {
    const counts = new Map<string, number>();
    for (const d of diagnostics) if (d.severity === 'error') counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
    return counts;
  };
  const before = errorsByCode(document.build.compiled.diagnostics);
  const after = compileDocument(document.file, text).compiled.diagnostics;
  const counts = errorsByCode(after);
  const worse = after.find((d) => d.severity === 'error' && (counts.get(d.code) ?? 0) > (before.get(d.code) ?? 0));
  return worse === undefined ? null : `${worse.code} ${worse.message}`;
}
