/**
 * The type-checking floor of row 5: the same graphs as the generated agents, written the way a developer writes
 * an XState v5 machine by hand, with the same behaviour as the generated machine: one
 * `setup({ types, guards, actions }).createMachine({...})` module per agent, a union of `GOTO.<target>` events
 * (the generator's event scheme, so both sides accept the same app code), the path in context (an `assign`
 * action with one shared helper, `hand/path.ts`), the entry node reachable from anywhere and each hub while it
 * is on the path (root transitions, the hub's behind a guard), flat states with their description, terminal
 * states tagged. No data tables and no inspector metadata (shapes, edge labels and styles): a hand-written app
 * would not have them, which is exactly the cost the generated modules must justify.
 */
import type { SyntheticGraph } from '../synthetic-sop.js';

function camel(agent: string): string {
  return agent.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The export name of an agent's hand-written machine. */
export function handMachineName(agent: string): string {
  return `${camel(agent)}Machine`;
}

/** Source of `hand/path.ts`: the one helper every hand-written machine shares (the path after a move). */
export function handPathModule(): string {
  return [
    'export function enterPath<N extends string>(path: readonly N[], target: N, entry: N): readonly N[] {',
    '  if (target === entry) return [entry];',
    '  const index = path.indexOf(target);',
    '  return index < 0 ? [...path, target] : path.slice(0, index + 1);',
    '}',
    '',
  ].join('\n');
}

/** Source of `hand/<agent>.ts`. */
export function handMachineModule(graph: SyntheticGraph): string {
  const targets = [...new Set([graph.entryNode, ...graph.edges.map((e) => e.to)])].sort();
  const out: string[] = [
    "import { assign, setup } from 'xstate';",
    "import { enterPath } from './path.js';",
    '',
    `export type NodeId = ${graph.nodes.map((n) => `'${n.id}'`).join(' | ')};`,
    '',
    `export type Event = ${targets.map((t) => `{ type: 'GOTO.${t}' }`).join(' | ')};`,
    '',
    `export const ${handMachineName(graph.agent)} = setup({`,
    "  types: {} as { context: { path: readonly NodeId[] }; events: Event; tags: 'terminal' },",
    '  guards: {',
    '    onPath: ({ context, event }) => context.path.includes(event.type.slice(5) as NodeId),',
    '  },',
    '  actions: {',
    `    enter: assign({ path: ({ context, event }) => enterPath(context.path, event.type.slice(5) as NodeId, '${graph.entryNode}') }),`,
    '  },',
    '}).createMachine({',
    `  id: '${graph.agent}',`,
    `  initial: '${graph.entryNode}',`,
    `  context: { path: ['${graph.entryNode}'] },`,
    '  on: {',
    `    'GOTO.${graph.entryNode}': { target: '.${graph.entryNode}', actions: 'enter' },`,
    ...graph.hubs.map((hub) => `    'GOTO.${hub}': { target: '.${hub}', guard: 'onPath', actions: 'enter' },`),
    '  },',
    '  states: {',
  ];
  for (const node of graph.nodes) {
    const seen = new Set<string>();
    const transitions = graph.edges.filter((e) => e.from === node.id && !seen.has(e.to) && seen.add(e.to));
    out.push(`    ${node.id}: {`, `      description: ${JSON.stringify(node.description)},`);
    if (transitions.length === 0) out.push("      tags: ['terminal'],");
    else {
      out.push('      on: {');
      for (const t of transitions) out.push(`        'GOTO.${t.to}': { target: '${t.to}', actions: 'enter' },`);
      out.push('      },');
    }
    out.push('    },');
  }
  out.push('  },', '});', '');
  return out.join('\n');
}
