/**
 * Checks across files: two SOPs must not declare the same `agent`, since the agent name is the key of the
 * registry, of the generated folder and of `load_graph`.
 */
import { diagnosticAt, type Diagnostic } from '../diagnostics/diagnostic.js';
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
      const others = owners.filter((o) => o !== m).map((o) => o.file).join(', ');
      out.push(diagnosticAt(m.file, 'SOP032', m.agentSpan, `Agent \`${agent}\` is also declared by ${others}.`,
        'Give each SOP file its own `agent` name.'));
    }
  }
  return out;
}
