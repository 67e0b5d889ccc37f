/**
 * Finds and loads the agent `load_graph` asks for, by name or by SOP path, and turns every way that can fail
 * into a message that says what to do. Preparing is the first use of an agent in this process; an inconsistent
 * bundle entry is reported, not thrown.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { AgentCatalog } from './agent-catalog.js';
import type { PreparedAgent } from './prepared-agent.js';
import { resolveSopFile } from './resolve-sop-file.js';

export type AgentSelection = { readonly ok: true; readonly agent: PreparedAgent } | { readonly ok: false; readonly error: string };

export interface AgentRequest {
  readonly agent?: string | undefined;
  readonly sop_file?: string | undefined;
}

export async function selectAgent(catalog: AgentCatalog, projectRoot: string, request: AgentRequest): Promise<AgentSelection> {
  let entry: CompiledSop;
  if (request.sop_file !== undefined) {
    const resolved = await resolveSopFile(catalog, projectRoot, request.sop_file);
    if (!resolved.ok) return resolved;
    entry = resolved.entry;
  } else {
    const named = catalog.byName(request.agent ?? '');
    if (named === undefined) {
      const names = catalog.entries.map((known) => known.meta.agent);
      return {
        ok: false,
        error:
          names.length === 0
            ? `Unknown agent: ${request.agent}. No agent is compiled: run \`npm run build:sops\`.`
            : `Unknown agent: ${request.agent}. Compiled agents: [${names.join(', ')}]. A new SOP needs \`npm run build:sops\`.`,
      };
    }
    entry = named;
  }
  try {
    return { ok: true, agent: catalog.prepared(entry) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `Could not load the compiled agent ${entry.meta.agent}: ${reason}` };
  }
}
