/**
 * Checks across files: two SOPs must not declare the same `agent`, since the agent name is the key of the
 * registry, of the generated folder and of `load_graph`; nor two agents whose exported names in
 * `generated/index.ts` would collide (`foo_1` and `foo1` both export `foo1…`).
 */
import { diagnosticAt, type Diagnostic } from '../diagnostics/diagnostic.js';
import { camelCaseAgent } from '../model/naming.js';
import type { SopModel } from '../model/sop-model.js';

export function checkProject(models: readonly SopModel[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byAgent = new Map<string, SopModel[]>();
  for (const m of [...models].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    byAgent.set(m.agent, [...(byAgent.get(m.agent) ?? []), m]);
  }
  for (const [agent, owners] of byAgent) {
    if (owners.length < 2) continue;
    for (const m of owners) {
      const others = owners
        .filter((o) => o !== m)
        .map((o) => o.file)
        .join(', ');
      out.push(diagnosticAt(m.file, 'SOP032', m.agentSpan, `Agent \`${agent}\` is also declared by ${others}.`));
    }
  }
  const byExport = new Map<string, SopModel[]>();
  for (const [agent, owners] of byAgent) {
    const name = camelCaseAgent(agent);
    byExport.set(name, [...(byExport.get(name) ?? []), owners[0]!]);
  }
  for (const [name, owners] of byExport) {
    if (owners.length < 2) continue;
    for (const m of owners) {
      const others = owners
        .filter((o) => o !== m)
        .map((o) => `\`${o.agent}\` (${o.file})`)
        .join(', ');
      out.push(diagnosticAt(m.file, 'SOP033', m.agentSpan, `Agent \`${m.agent}\` exports as \`${name}\`, like ${others}.`));
    }
  }
  return out;
}
