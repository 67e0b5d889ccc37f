/**
 * One bundle's agents, indexed: by name (what `load_graph` names) and by source file (its `sop_file`), and each
 * expanded with the SOPs it calls (`contract/composition.ts`), which is what a run serves: made on first use, once
 * per catalog. Plain data, immutable: a rebuilt bundle gets a new catalog (`agent-source.ts`).
 */
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { type Composition, composeSop } from '../../contract/composition.js';

export interface AgentCatalog {
  /** Agents sorted by name. */
  readonly entries: readonly CompiledSop[];
  byName(agent: string): CompiledSop | undefined;
  /** By project-relative source path with `/` separators, exactly as compiled (`sops/x.md`). */
  bySourceFile(sourceFile: string): CompiledSop | undefined;
  /** The agent expanded with the SOPs it calls (itself when it calls none), or why it cannot be; undefined when unknown. */
  composed(agent: string): Composition | undefined;
}

/**
 * The catalog of `bundle`; the SOPs its agents call are looked up in `callees` (default: the same bundle), so a
 * server that serves some agents of a bundle still expands them with SOPs it does not offer on their own.
 */
export function createCatalog(bundle: SopBundle, callees: SopBundle = bundle): AgentCatalog {
  const entries = Object.values(bundle.agents).sort((a, b) => (a.meta.agent < b.meta.agent ? -1 : a.meta.agent > b.meta.agent ? 1 : 0));
  const byName = new Map(entries.map((sop) => [sop.meta.agent, sop]));
  const bySource = new Map(entries.map((sop) => [sop.sourceFile, sop]));
  const lookup = (agent: string) => byName.get(agent) ?? (Object.hasOwn(callees.agents, agent) ? callees.agents[agent] : undefined);
  const composed = new Map<string, Composition>();
  return {
    entries,
    byName: (agent) => byName.get(agent),
    bySourceFile: (sourceFile) => bySource.get(sourceFile),
    composed(agent) {
      const sop = byName.get(agent);
      if (sop === undefined) return undefined;
      let expansion = composed.get(agent);
      if (expansion === undefined) {
        expansion = composeSop(sop, lookup);
        composed.set(agent, expansion);
      }
      return expansion;
    },
  };
}
