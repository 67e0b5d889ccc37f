/**
 * Marks a SOP's diagnostics on its own Mermaid flowchart: the source as written, with `classDef`/`class` lines
 * appended that colour the nodes a diagnostic is about (errors red, warnings amber). As with the runs page's marks
 * (`runtime/diagram/annotate-flowchart.ts`), Mermaid applies class statements after reading the whole graph, so
 * nothing of the author's text is parsed or moved, and only ids of the flowchart's own nodes are ever written.
 * Pure and dependency-free: the preview's server uses it.
 */

export const PROBLEM_CLASSES = Object.freeze({ error: 'sop_error', warning: 'sop_warning' });

const STYLES = {
  error: 'fill:#fee2e2,stroke:#dc2626,stroke-width:3px',
  warning: 'fill:#fef3c7,stroke:#d97706,stroke-width:3px',
};

/** `source` with the nodes of `problems` (node id → worst severity) marked; ids not in `nodeIds` are left out. */
export function markProblems(source: string, nodeIds: Iterable<string>, problems: ReadonlyMap<string, 'error' | 'warning'>): string {
  const known = new Set(nodeIds);
  const lines = ['%% sop-toolkit preview: the nodes diagnostics are about (appended; the flowchart above is the author’s)'];
  for (const severity of ['error', 'warning'] as const) {
    const ids = [...problems].filter(([id, s]) => s === severity && known.has(id)).map(([id]) => id);
    if (ids.length > 0)
      lines.push(`classDef ${PROBLEM_CLASSES[severity]} ${STYLES[severity]}`, `class ${ids.join(',')} ${PROBLEM_CLASSES[severity]}`);
  }
  if (lines.length === 1) return source;
  return `${source}${source.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`;
}
