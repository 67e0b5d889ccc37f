/**
 * Valid walks through an agent's flowchart, for load generation: recorded once by following the server's own
 * `goto_node` answers (take the next edge of each answer, rotating through branches; from a terminal, restart
 * at the entry node, which is always allowed), then replayed. A replay may wrap around at any point, because
 * the walk begins at the entry node.
 */

export interface GotoAnswer {
  readonly data: Record<string, unknown>;
  readonly isError: boolean;
}

/** The `to` of each edge in a `goto_node` answer. */
export function edgeTargets(answer: GotoAnswer): string[] {
  const edges = answer.data.edges;
  return Array.isArray(edges) ? edges.map((e) => String((e as { to: unknown }).to)) : [];
}

/** Throws unless `answer` is a legal move. */
export function assertMoved(answer: GotoAnswer, target: string): void {
  if (answer.isError || answer.data.valid !== true) {
    throw new Error(`goto_node(${target}) was refused: ${JSON.stringify(answer.data).slice(0, 300)}`);
  }
}

export async function recordWalk(goto: (nodeId: string) => Promise<GotoAnswer>, entry: string, steps: number): Promise<string[]> {
  const walk: string[] = [];
  let turn = 0;
  let next = entry;
  while (walk.length < steps) {
    const answer = await goto(next);
    assertMoved(answer, next);
    walk.push(next);
    const targets = edgeTargets(answer);
    next = targets.length === 0 ? entry : (targets[turn++ % targets.length] as string);
  }
  return walk;
}

/** Cycles through a recorded walk forever. */
export function cycle(walk: readonly string[]): () => string {
  let i = 0;
  return () => walk[i++ % walk.length] as string;
}
