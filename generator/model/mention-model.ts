/**
 * Which of the text's candidate mentions (`parse/mentions.ts`) the model keeps: a word that is a node id (not all
 * lower case, except in `goto_node("…")`, where it can only be one), and an UPPER_SNAKE word with a letter that names
 * no node (a node removed or misspelt, for the checks and `sop diff`). A backticked word that is a tool of the SOP,
 * an environment variable its `mcp_servers` name, or a subgraph or edge id of its flowchart names something else.
 */
import type { McpServerRef } from '../../contract/compiled-sop.js';
import type { MentionCandidate } from '../parse/mentions.js';
import type { ModelMention } from './sop-model.js';

const ID_SHAPED = /^[A-Z0-9_]*[A-Z][A-Z0-9_]*$/;
const LOWER = /^[^A-Z]*$/;

export interface MentionContext {
  readonly nodes: ReadonlySet<string>;
  readonly tools: readonly string[];
  readonly servers: readonly McpServerRef[];
  /** Subgraph and edge ids of the flowchart. */
  readonly otherIds: readonly string[];
}

export function mentionsOf(candidates: readonly MentionCandidate[], context: MentionContext): ModelMention[] {
  const elsewhere = new Set([...context.tools, ...context.otherIds, ...context.servers.flatMap(variablesOf)]);
  const out: ModelMention[] = [];
  for (const c of candidates) {
    if (c.form === 'code' && elsewhere.has(c.id)) continue;
    const node = context.nodes.has(c.id) && (c.form === 'call' || !LOWER.test(c.id));
    if (node || ID_SHAPED.test(c.id)) out.push({ id: c.id, form: c.form, node, span: c.span });
  }
  return out;
}

/** The environment variables a server entry names: its `env` keys and every `${VAR}` in its values. */
function variablesOf(server: McpServerRef): string[] {
  const values = [
    server.url,
    server.command,
    ...(server.args ?? []),
    ...Object.values(server.env ?? {}),
    ...Object.values(server.headers ?? {}),
  ];
  const named = values.flatMap((v) => (typeof v === 'string' ? [...v.matchAll(/\$\{([A-Za-z0-9_]+)/g)].map((m) => m[1]!) : []));
  return [...Object.keys(server.env ?? {}), ...named];
}
