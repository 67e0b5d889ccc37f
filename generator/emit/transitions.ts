/**
 * How a node's outgoing edges become XState transitions: one `GOTO.<target>` event per distinct target, in
 * order of the first edge to it; several edges to one target merge into one transition whose description
 * lists their conditions. No ts-morph here: the machine checker in the tests uses the same rule.
 */
import type { EdgeStyle } from '../../contract/compiled-sop.js';

export interface EdgeLike {
  readonly to: string;
  readonly condition: string | null;
  readonly style: EdgeStyle;
}

export interface MachineTransition {
  readonly event: string;
  readonly target: string;
  /** The distinct non-null conditions of the merged edges, joined by ` | `; null when there are none. */
  readonly description: string | null;
  /** The edges' style when they all share one that is not `solid`; null otherwise. */
  readonly style: Exclude<EdgeStyle, 'solid'> | null;
}

/** Machine events are `GOTO.<target>`: the prefix the machine strips to find where a move goes. */
export const GOTO_PREFIX = 'GOTO.';

/** The event that moves a machine to `target`. */
export function gotoEvent(target: string): string {
  return `${GOTO_PREFIX}${target}`;
}

export const CONDITION_SEPARATOR = ' | ';

export function machineTransitions(edges: readonly EdgeLike[]): MachineTransition[] {
  const byTarget = new Map<string, EdgeLike[]>();
  for (const edge of edges) {
    const group = byTarget.get(edge.to);
    if (group) group.push(edge);
    else byTarget.set(edge.to, [edge]);
  }
  return [...byTarget].map(([target, group]) => {
    const conditions = [...new Set(group.flatMap((e) => (e.condition === null ? [] : [e.condition])))];
    const styles = new Set(group.map((e) => e.style));
    const [style] = styles;
    return {
      event: gotoEvent(target),
      target,
      description: conditions.length > 0 ? conditions.join(CONDITION_SEPARATOR) : null,
      style: styles.size === 1 && style !== undefined && style !== 'solid' ? style : null,
    };
  });
}
