/**
 * Validates the frontmatter against the spec's schema (zod) and maps every issue to the YAML line of the
 * offending key. Unknown keys are warnings with a "did you mean", because a typo in `tools` must not pass
 * silently. Returns the typed frontmatter, or null when it has errors.
 */
import { z } from 'zod';
import type { McpServerRef } from '../../contract/compiled-sop.js';
import { entryOf, type NameRecord } from '../../contract/name-table.js';
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { type Diagnostic, diagnosticAt } from '../diagnostics/diagnostic.js';
import { suggester } from '../diagnostics/closest-match.js';
import { quoted } from '../diagnostics/quoted.js';
import { LIMITS } from '../limits.js';
import { checkMcpServers } from './mcp-servers.js';
import type { FrontmatterBlock } from './split-frontmatter.js';
import { parseYamlBlock, type ReadYaml, type YamlBlock } from './yaml-block.js';

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const IDENTIFIER_RULE = 'must match [a-z][a-z0-9_]* (lowercase, digits, underscores)';
const identifier = z.string().regex(IDENTIFIER, IDENTIFIER_RULE);
const nodeId = z.string().min(1);
/** One node id or `*` pattern, or a list of them. */
const nodePatterns = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().min(1)).min(1));
/** A policy's node set: node ids or patterns (a string or a list), or a map of `nodes`, `tools`, `terminals`, `except`. */
const selectorMap = z.strictObject({
  nodes: nodePatterns.optional(),
  tools: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().min(1)).min(1)).optional(),
  terminals: z.literal(true).optional(),
  except: nodePatterns.optional(),
});
const selector = z.preprocess((v) => (typeof v === 'string' || Array.isArray(v) ? { nodes: v } : v), selectorMap);
const policy = z.strictObject({
  description: z.string().optional(),
  every_path_to: selector,
  passes: selector,
  confirmation: z.union([z.literal(true), z.string().min(1)]).optional(),
  evidence: z.literal(true).optional(),
  severity: z.enum(['error', 'warning']).optional(),
});
const stringMap = z.record(z.string().min(1), z.string());
/**
 * A domain server: stdio (`command` …) or over HTTP (`url` …: Streamable HTTP, or the legacy HTTP+SSE transport with
 * `transport: sse` or a `url` ending in `/sse`); which keys go together is `mcp-servers.ts`'s
 * business. Another key is a warning (SOP004) and is not kept: SOPs written for other tools describe their servers
 * with keys of their own.
 */
const mcpServer = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'must be letters, digits, `_`, `-` or `.`'),
  url: z.string().min(1).optional(),
  headers: stringMap.optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
  timeout_ms: z.number().int().min(1).max(3_600_000).optional(),
  description: z.string().optional(),
  transport: z.enum(['streamable-http', 'sse'], { error: 'must be streamable-http or sse' }).optional(),
});
const SERVER_KEYS = Object.keys(mcpServer.shape);
/**
 * A YAML map keyed by the author's names, as a `Map` in that order: every key is kept as written (zod's records drop
 * a `__proto__` key without a word). The ids' grammar is checked at the ids themselves (`policyIdProblems`).
 */
const nameMap = <V extends z.ZodType>(value: V) =>
  z.preprocess((v) => (isYamlMap(v) ? new Map(Object.entries(v)) : v), z.map(z.string(), value));
const tokens = z.number().int().positive();
const tokenBudget = z.strictObject({ node_prompt: tokens.optional(), system_prompt: tokens.optional(), goto_answer: tokens.optional() });

export const frontmatterSchema = z.object({
  agent: identifier.max(
    LIMITS.agentNameCharacters,
    `must be at most ${LIMITS.agentNameCharacters} characters: it names the build's output folder for the agent`,
  ),
  version: z.union([z.string().min(1), z.number()]).transform((v) => String(v)),
  description: z.string().optional(),
  entry_node: nodeId.optional(),
  hubs: z.array(nodeId).optional(),
  model: z
    .looseObject({
      provider: z.string().optional(),
      name: z.string().optional(),
      temperature: z.number().min(0).optional(),
      max_tokens: z.number().int().positive().optional(),
    })
    .optional(),
  mcp_servers: z.array(mcpServer).optional(),
  tools: z.array(z.string().min(1)),
  escalation_node: nodeId.optional(),
  policies: nameMap(policy).optional(),
  token_budget: tokenBudget.optional(),
  renames: nameMap(nodeId).optional(),
});

/** The frontmatter as checked; its servers keep the keys the format defines (`knownServerKeys`). */
export type Frontmatter = Omit<z.output<typeof frontmatterSchema>, 'mcp_servers'> & { readonly mcp_servers?: readonly McpServerRef[] };

const KNOWN_KEYS = Object.keys(frontmatterSchema.shape);

export interface FrontmatterResult {
  readonly frontmatter: Frontmatter | null;
  readonly yaml: YamlBlock | null;
}

export function parseFrontmatter(
  file: string,
  block: FrontmatterBlock | null,
  sink: DiagnosticSink,
  readYaml: ReadYaml = parseYamlBlock,
): FrontmatterResult {
  if (!block) {
    sink.push(diagnosticAt(file, 'SOP001', { line: 1, column: 1 }, 'The file has no YAML frontmatter.'));
    return { frontmatter: null, yaml: null };
  }
  if (block.closingLine === null) {
    sink.push(
      diagnosticAt(
        file,
        'SOP002',
        { line: 1, column: 1 },
        'The frontmatter is never closed.',
        block.bodyLine === null
          ? 'Add a line `---` after the last frontmatter key.'
          : `Add a line \`---\` after the last frontmatter key (before line ${block.bodyLine}, the first heading).`,
      ),
    );
    return { frontmatter: null, yaml: null };
  }
  const { block: yaml, problems } = readYaml(block.yaml, block.firstLine);
  for (const p of problems) {
    sink.push(
      p.kind === 'limit'
        ? diagnosticAt(file, 'SOP092', p.span, `Frontmatter: ${p.message}`)
        : diagnosticAt(file, 'SOP002', p.span, `Frontmatter is not valid YAML: ${p.message}`),
    );
  }
  if (problems.length > 0) return { frontmatter: null, yaml };

  const value = yaml.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    sink.push(
      diagnosticAt(
        file,
        'SOP003',
        yaml.spanOf([]),
        'The frontmatter must be a YAML map of keys.',
        'Write `agent: my_agent`, `version: "1.0"` and `tools: []` between the `---` lines.',
      ),
    );
    return { frontmatter: null, yaml };
  }
  const keys = suggester(KNOWN_KEYS);
  for (const key of Object.keys(value)) {
    if (!KNOWN_KEYS.includes(key)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP004',
          yaml.spanOf([key], { key: true }),
          `Unknown frontmatter key ${quoted(key)}.`,
          keys.suggestion(key, 'key'),
        ),
      );
    }
  }
  const badIds = policyIdProblems(file, yaml, value);
  for (const d of badIds) sink.push(d);
  const parsed = frontmatterSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) sink.push(unknownNestedKey(file, yaml, path, key));
        continue;
      }
      const missing = issue.code === 'invalid_type' && getIn(value, path) === undefined;
      const where = path.join('.') || '(root)';
      sink.push(
        diagnosticAt(
          file,
          'SOP003',
          missing ? yaml.spanOf(path.slice(0, -1)) : yaml.spanOf(path),
          missing ? `Frontmatter key \`${where}\` is required.` : `Frontmatter key \`${where}\`: ${issue.message}.`,
          remediationFor(path),
        ),
      );
    }
    return { frontmatter: null, yaml };
  }
  if (badIds.length > 0) return { frontmatter: null, yaml };
  const raw = value as { version?: unknown; model?: Frontmatter['model']; mcp_servers?: readonly McpServerRef[] };
  // A number keeps the author's text: `version: 1.10` is "1.10", not "1.1".
  const version = typeof raw.version === 'number' ? (yaml.plainSourceOf(['version']) ?? parsed.data.version) : parsed.data.version;
  const servers = raw.mcp_servers?.map((server, index) => knownServerKeys(file, yaml, server, index, sink));
  checkMcpServers(file, yaml, servers ?? [], sink);
  // The model settings and the servers' maps are open, valid as written: they keep every key the author wrote, as the
  // YAML layer made them (zod's loose objects drop a `__proto__` key).
  return { frontmatter: { ...parsed.data, version, model: raw.model, mcp_servers: servers }, yaml };
}

/** A server entry with the keys the format defines, in the order written; a warning (SOP004) at each other key. */
function knownServerKeys(file: string, yaml: YamlBlock, server: McpServerRef, index: number, sink: DiagnosticSink): McpServerRef {
  const entries = Object.entries(server);
  const unknown = entries.filter(([key]) => !SERVER_KEYS.includes(key));
  if (unknown.length === 0) return server;
  const keys = suggester(SERVER_KEYS);
  for (const [key] of unknown) {
    sink.push(
      diagnosticAt(
        file,
        'SOP004',
        yaml.spanOf(['mcp_servers', index, key], { key: true }),
        `Unknown key ${quoted(key)} in server ${quoted(server.name)} (\`mcp_servers.${index}\`): it is not used. A server's keys: ${SERVER_KEYS.join(', ')}.`,
        keys.closest(key) === undefined ? 'Remove the key, or move what it says into `description`.' : keys.suggestion(key, 'key'),
      ),
    );
  }
  return Object.fromEntries(entries.filter(([key]) => SERVER_KEYS.includes(key))) as unknown as McpServerRef;
}

/** Whether a YAML value is a map (the YAML layer makes maps records without a prototype). */
function isYamlMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map);
}

/** An error at each policy id that is not an identifier (`__proto__` included: it is a name like any other here). */
function policyIdProblems(file: string, yaml: YamlBlock, frontmatter: object): Diagnostic[] {
  const policies = entryOf(frontmatter as NameRecord<unknown>, 'policies');
  if (!isYamlMap(policies)) return [];
  return Object.keys(policies)
    .filter((id) => !IDENTIFIER.test(id))
    .map((id) =>
      diagnosticAt(
        file,
        'SOP003',
        yaml.spanOf(['policies', id], { key: true }),
        `Frontmatter key \`policies.${id}\`: a policy id ${IDENTIFIER_RULE}.`,
        'Name the policy in lowercase letters, digits and underscores, e.g. `confirm_before_changes`.',
      ),
    );
}

/** The keys of the strict maps inside the frontmatter, to name the one a misspelt key was meant to be. */
function knownKeysAt(path: readonly (string | number)[]): readonly string[] {
  if (path[0] === 'token_budget' && path.length === 1) return Object.keys(tokenBudget.shape);
  if (path[0] === 'policies' && path.length === 2) return Object.keys(policy.shape);
  if (path[0] === 'policies' && path.length === 3) return Object.keys(selectorMap.shape);
  if (path[0] === 'mcp_servers' && path.length === 2) return Object.keys(mcpServer.shape);
  return [];
}

/** A key a strict map does not have, at the key itself, with the closest key it has. */
function unknownNestedKey(file: string, yaml: YamlBlock, path: readonly (string | number)[], key: string): Diagnostic {
  const known = knownKeysAt(path);
  const where = path.join('.');
  return diagnosticAt(
    file,
    'SOP003',
    yaml.spanOf([...path, key], { key: true }),
    `Frontmatter key \`${where}\` has no key ${quoted(key)}.`,
    known.length === 0 ? remediationFor(path) : suggester(known).suggestion(key, 'key'),
  );
}

function getIn(value: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = value;
  for (const p of path) v = v && typeof v === 'object' ? entryOf(v as NameRecord<unknown>, String(p)) : undefined;
  return v;
}

function remediationFor(path: readonly (string | number)[]): string | undefined {
  switch (path[0]) {
    case 'agent':
      return `Use a lowercase identifier of at most ${LIMITS.agentNameCharacters} characters, such as \`retail_customer_support\`.`;
    case 'version':
      return 'Use a string such as `"1.0"` or a number.';
    case 'tools':
      return 'List every domain tool a node may name, e.g. `tools: [get_order_details]` (may be `[]`).';
    case 'hubs':
      return 'Use a list of node ids, e.g. `hubs: [ROUTE]`.';
    case 'mcp_servers':
      return 'Each server needs a `name`, and a `command` (with `args`, `env`, `cwd`) or a `url` (with `headers`, `transport`), and may have a `timeout_ms` and a `description`; see "Domain servers" in docs/sop-format.md.';
    case 'escalation_node':
      return 'Name the node a node that used up its `max_visits` escalates to, e.g. `escalation_node: ESCALATE_HUMAN`.';
    case 'policies':
      return 'Write `policies:` as a map from a lowercase id to `{every_path_to, passes}` (optional: description, confirmation, evidence, severity); see "Policies" in docs/sop-format.md.';
    case 'token_budget':
      return 'Use `token_budget: {node_prompt: N, system_prompt: N, goto_answer: N}` with whole numbers of tokens (any of the three).';
    case 'renames':
      return 'Write `renames:` as a map from a node id of an earlier version to the node it is now, e.g. `renames: {CHECK_ORDER: CHK_ORDER}`.';
    default:
      return undefined;
  }
}
