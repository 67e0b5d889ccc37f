/**
 * One bundle's agents, indexed: by name (what `load_graph` names) and by source file (its `sop_file`). Plain
 * data, immutable: a rebuilt bundle gets a new catalog (`agent-source.ts`).
 */
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';

export interface AgentCatalog {
  /** Agents sorted by name. */
  readonly entries: readonly CompiledSop[];
  byName(agent: string): CompiledSop | undefined;
  /** By project-relative source path with `/` separators, exactly as compiled (`sops/x.md`). */
  bySourceFile(sourceFile: string): CompiledSop | undefined;
}

export function createCatalog(bundle: SopBundle): AgentCatalog {
  const entries = Object.values(bundle.agents).sort((a, b) => (a.meta.agent < b.meta.agent ? -1 : a.meta.agent > b.meta.agent ? 1 : 0));
  const byName = new Map(entries.map((sop) => [sop.meta.agent, sop]));
  const bySource = new Map(entries.map((sop) => [sop.sourceFile, sop]));
  return {
    entries,
    byName: (agent) => byName.get(agent),
    bySourceFile: (sourceFile) => bySource.get(sourceFile),
  };
}
