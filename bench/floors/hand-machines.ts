/**
 * The type-checking floor of row 5: the same graphs as the generated agents, written the way a developer
 * writes an XState v5 machine by hand: one `setup({ types }).createMachine({...})` module per agent, a union
 * of `GOTO.<target>` events (the generator's event scheme, so both sides accept the same app code), flat
 * states with their description, terminal nodes as final states. No data tables: a hand-written app would
 * not have them, which is exactly the cost the generated graph modules must justify.
 */
import type { SyntheticGraph } from '../synthetic-sop.js';

function camel(agent: string): string {
  return agent.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The export name of an agent's hand-written machine. */
export function handMachineName(agent: string): string {
  return `${camel(agent)}Machine`;
}

/** Source of `hand/<agent>.ts`. */
export function handMachineModule(graph: SyntheticGraph): string {
  const targets = [...new Set(graph.edges.map((e) => e.to))].sort();
  const out: string[] = [
    "import { setup } from 'xstate';",
    '',
    `export type NodeId = ${graph.nodes.map((n) => `'${n.id}'`).join(' | ')};`,
    '',
    `export type Event = ${targets.map((t) => `{ type: 'GOTO.${t}' }`).join(' | ')};`,
    '',
    `export const ${handMachineName(graph.agent)} = setup({`,
    '  types: {} as { events: Event },',
    '}).createMachine({',
    `  id: '${graph.agent}',`,
    `  initial: '${graph.entryNode}',`,
    '  states: {',
  ];
  for (const node of graph.nodes) {
    const seen = new Set<string>();
    const transitions = graph.edges.filter((e) => e.from === node.id && !seen.has(e.to) && seen.add(e.to));
    out.push(`    ${node.id}: {`, `      description: ${JSON.stringify(node.description)},`);
    if (transitions.length === 0) out.push("      type: 'final',");
    else {
      out.push('      on: {');
      for (const t of transitions) out.push(`        'GOTO.${t.to}': { target: '${t.to}' },`);
      out.push('      },');
    }
    out.push('    },');
  }
  out.push('  },', '});', '');
  return out.join('\n');
}
