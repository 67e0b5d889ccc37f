/**
 * Finds and loads the agent `load_graph` asks for, by name or by SOP path, and turns every way that can fail
 * into a message that says what to do. Loading is the first use of an agent's generated module in this
 * process; a module that fails to import or is inconsistent is reported, not thrown.
 */
import type { AgentIndexEntry } from '../compiled-sop.js';
import type { AgentCatalog } from './agent-catalog.js';
import type { PreparedAgent } from './prepared-agent.js';
import { resolveSopFile } from './resolve-sop-file.js';

export type AgentSelection = { readonly ok: true; readonly agent: PreparedAgent } | { readonly ok: false; readonly error: string };

export interface AgentRequest {
  readonly agent?: string | undefined;
  readonly sop_file?: string | undefined;
}

export async function selectAgent(catalog: AgentCatalog, projectRoot: string, request: AgentRequest): Promise<AgentSelection> {
  let entry: AgentIndexEntry | undefined;
  if (request.sop_file !== undefined) {
    const resolved = await resolveSopFile(catalog, projectRoot, request.sop_file);
    if (!resolved.ok) return resolved;
    entry = resolved.entry;
  } else {
    entry = catalog.byName(request.agent ?? '');
    if (entry === undefined) {
      const names = catalog.entries.map((known) => known.agent);
      return {
        ok: false,
        error:
          names.length === 0
            ? `Unknown agent: ${request.agent}. No agent is compiled: run \`npm run build:sops\`.`
            : `Unknown agent: ${request.agent}. Compiled agents: [${names.join(', ')}]. A new SOP needs \`npm run build:sops\`.`,
      };
    }
  }
  try {
    return { ok: true, agent: await catalog.load(entry) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `Could not load the compiled agent ${entry.agent}: ${reason}` };
  }
}
