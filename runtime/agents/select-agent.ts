/**
 * Finds the agent `load_graph` asks for, by name or by SOP path, in the catalog new runs start on, expanded with the
 * SOPs it calls (what the run serves), and turns every way that can fail into a message that says what to do.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { AgentCatalog } from './agent-catalog.js';
import { resolveSopFile } from './resolve-sop-file.js';

export type AgentSelection = { readonly ok: true; readonly sop: CompiledSop } | { readonly ok: false; readonly error: string };

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
  // A run serves the agent expanded with the SOPs it calls (itself, when it calls none).
  const expanded = catalog.composed(entry.meta.agent);
  if (expanded === undefined || !expanded.ok) {
    return {
      ok: false,
      error: `The compiled agent ${entry.meta.agent} cannot be served: ${expanded?.error ?? 'it is not in the catalog'}. Run \`npm run build:sops\` and serve every SOP it calls.`,
    };
  }
  return { ok: true, sop: expanded.sop };
}
