/**
 * Marks a run on its author's Mermaid flowchart: the source exactly as written, followed by a few appended lines
 * that style what the run did. Mermaid applies `classDef`/`class` statements after it has read the whole graph,
 * so appending them needs no parsing of the author's text and moves nothing:
 *   - nodes: the visited ones and the current one (`class` on nodes works in every Mermaid version since 9, so
 *     the MCP `inspect` diagram uses only these);
 *   - edges, for a Mermaid 11 renderer (the live page ships its own copy): traversed edges by Mermaid's edge ids
 *     (`L_<from>_<to>_0` for the first edge between two nodes), and refused moves as extra dashed edges with ids
 *     of their own (`sop_refused_<n>`), styled red. Mermaid ignores a `class` statement naming an unknown id;
 *   - forks: each branch's first node by its state (`sop_branch_passed`, `sop_branch_failed`, `sop_branch_open`) and a
 *     join whose outcome is decided (`sop_join_passed`, `sop_join_failed`). These style only the border, and come
 *     after the visited and current marks, so a branch the run is on still shows as current.
 *
 * Class names carry a `sop_` prefix so they cannot collide with the author's. Only ids of the flowchart's own
 * nodes are ever written, so run data (an audit entry's input, say) can never inject Mermaid statements.
 * Pure and dependency-free: the server uses it, and the page's script bundles it.
 */

export interface FlowchartMarks {
  /** Nodes the run has been on (the current one may be among them; it is styled as current). */
  readonly visited: readonly string[];
  readonly current: string | null;
  /** Edges the run moved along, as [from, to]. */
  readonly traversed?: readonly (readonly [string, string])[];
  /** Moves the SOP refused, as [from, requested target]. */
  readonly refused?: readonly (readonly [string, string])[];
  /** Branches of the forks on the run's path (a branch's first node), with their state. */
  readonly branches?: readonly (readonly [string, BranchMark])[];
  /** Joins whose outcome is decided, with it. */
  readonly joins?: readonly (readonly [string, 'passed' | 'failed'])[];
}

export type BranchMark = 'passed' | 'failed' | 'open';

export const MARK_CLASSES = Object.freeze({
  visited: 'sop_visited',
  current: 'sop_current',
  traversed: 'sop_traversed',
  refused: 'sop_refused',
  branch: Object.freeze({ passed: 'sop_branch_passed', failed: 'sop_branch_failed', open: 'sop_branch_open' }),
  join: Object.freeze({ passed: 'sop_join_passed', failed: 'sop_join_failed' }),
});

const STYLES = {
  visited: 'fill:#dbeafe,stroke:#1d4ed8,stroke-width:2px',
  current: 'fill:#fde68a,stroke:#b45309,stroke-width:4px',
  traversed: 'stroke:#1d4ed8,stroke-width:3px',
  refused: 'stroke:#dc2626,stroke-width:2px,stroke-dasharray:6 4',
  branch: { passed: 'stroke:#15803d,stroke-width:4px', failed: 'stroke:#dc2626,stroke-width:4px', open: 'stroke-dasharray:5 4' },
  join: { passed: 'stroke:#15803d,stroke-width:4px', failed: 'stroke:#dc2626,stroke-width:4px' },
};

const BRANCH_MARKS: readonly BranchMark[] = ['passed', 'failed', 'open'];
const JOIN_MARKS = ['passed', 'failed'] as const;

/** `source` with the marks appended; `nodeIds` are the flowchart's nodes (anything else is left out). */
export function annotateFlowchart(source: string, nodeIds: Iterable<string>, marks: FlowchartMarks): string {
  const known = new Set(nodeIds);
  const current = marks.current !== null && known.has(marks.current) ? marks.current : null;
  const visited = unique(marks.visited.filter((id) => known.has(id) && id !== current));
  const pairs = (list: FlowchartMarks['traversed']) =>
    uniquePairs((list ?? []).filter(([from, to]) => known.has(from) && known.has(to) && from !== to));
  const traversed = pairs(marks.traversed);
  const refused = pairs(marks.refused);

  const lines = ['%% sop-toolkit: what the run did (appended; the flowchart above is the author’s)'];
  if (visited.length > 0)
    lines.push(`classDef ${MARK_CLASSES.visited} ${STYLES.visited}`, `class ${visited.join(',')} ${MARK_CLASSES.visited}`);
  if (current !== null) lines.push(`classDef ${MARK_CLASSES.current} ${STYLES.current}`, `class ${current} ${MARK_CLASSES.current}`);
  if (traversed.length > 0) {
    lines.push(
      `classDef ${MARK_CLASSES.traversed} ${STYLES.traversed}`,
      `class ${traversed.map(([from, to]) => mermaidEdgeId(from, to)).join(',')} ${MARK_CLASSES.traversed}`,
    );
  }
  if (refused.length > 0) {
    const ids = refused.map((_, index) => refusedEdgeId(index));
    lines.push(...refused.map(([from, to], index) => `${from} ${ids[index]}@-.->|refused| ${to}`));
    lines.push(`classDef ${MARK_CLASSES.refused} ${STYLES.refused}`, `class ${ids.join(',')} ${MARK_CLASSES.refused}`);
  }
  // A node in two records (a fork nested in a branch of another) keeps its last mark: the innermost fork's.
  const branches = lastMark(marks.branches ?? [], known);
  for (const state of BRANCH_MARKS) {
    const ids = [...branches].filter(([, mark]) => mark === state).map(([id]) => id);
    if (ids.length > 0)
      lines.push(`classDef ${MARK_CLASSES.branch[state]} ${STYLES.branch[state]}`, `class ${ids.join(',')} ${MARK_CLASSES.branch[state]}`);
  }
  const joins = lastMark(marks.joins ?? [], known);
  for (const outcome of JOIN_MARKS) {
    const ids = [...joins].filter(([, mark]) => mark === outcome).map(([id]) => id);
    if (ids.length > 0)
      lines.push(`classDef ${MARK_CLASSES.join[outcome]} ${STYLES.join[outcome]}`, `class ${ids.join(',')} ${MARK_CLASSES.join[outcome]}`);
  }
  if (lines.length === 1) return source;
  return `${source}${source.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`;
}

/** The id Mermaid 11 gives the first edge from `from` to `to` (what its SVG calls `data-id`). */
export function mermaidEdgeId(from: string, to: string): string {
  return `L_${from}_${to}_0`;
}

export function refusedEdgeId(index: number): string {
  return `sop_refused_${index}`;
}

/** Each known node's last mark, in the order the nodes were first marked. */
function lastMark<M extends string>(marks: readonly (readonly [string, M])[], known: ReadonlySet<string>): Map<string, M> {
  const kept = new Map<string, M>();
  for (const [id, mark] of marks) if (known.has(id)) kept.set(id, mark);
  return kept;
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function uniquePairs(pairs: readonly (readonly [string, string])[]): (readonly [string, string])[] {
  const seen = new Set<string>();
  return pairs.filter(([from, to]) => {
    const key = `${from}\n${to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
