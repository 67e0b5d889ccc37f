/**
 * The compiled agents as the server sees them, from one `SopBundle`: find an agent by name or by source file,
 * and get its prepared lookup tables, built the first time a conversation selects it (so start-up costs
 * nothing per agent) and then kept by this catalog for every conversation of the process. A catalog is
 * immutable: a rebuilt bundle gets a new catalog (`agent-source.ts`).
 */
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { prepareAgent, type PreparedAgent } from './prepared-agent.js';

export interface AgentCatalog {
  /** Agents sorted by name. */
  readonly entries: readonly CompiledSop[];
  byName(agent: string): CompiledSop | undefined;
  /** By project-relative source path with `/` separators, exactly as compiled (`sops/x.md`). */
  bySourceFile(sourceFile: string): CompiledSop | undefined;
  /** The agent's lookup tables; built on first use. Throws when the bundle entry is inconsistent. */
  prepared(sop: CompiledSop): PreparedAgent;
}

export function createCatalog(bundle: SopBundle): AgentCatalog {
  const entries = Object.values(bundle.agents).sort((a, b) => (a.meta.agent < b.meta.agent ? -1 : a.meta.agent > b.meta.agent ? 1 : 0));
  const byName = new Map(entries.map((sop) => [sop.meta.agent, sop]));
  const bySource = new Map(entries.map((sop) => [sop.sourceFile, sop]));
  const prepared = new Map<CompiledSop, PreparedAgent>();
  return {
    entries,
    byName: (agent) => byName.get(agent),
    bySourceFile: (sourceFile) => bySource.get(sourceFile),
    prepared(sop) {
      let agent = prepared.get(sop);
      if (agent === undefined) {
        agent = prepareAgent(sop);
        prepared.set(sop, agent);
      }
      return agent;
    },
  };
}
