/**
 * `sop build --check-tools`: the SOPs' tool names checked against what their domain servers really offer, before
 * a gateway would refuse to start over them. Each SOP's `mcp_servers` are reached as the gateway reaches them
 * (`${VAR}`s from this process's environment, `cwd` from the app root; `runtime/upstream`), their tools listed, and
 * every finding is SOP067 at the author's text:
 *   - a server that cannot be reached, or two of a SOP's servers offering one tool name: at the server's `name`;
 *   - a frontmatter tool no server of the SOP offers: at the tool, with the closest name the servers offer;
 *   - an evidence `about` argument that neither the input nor the output schema of an evidence tool names (the
 *     gateway could never find the entity): at `about`;
 *   - a `when` or `shows` condition over a field that no answer fitting the tool's published `outputSchema` can have,
 *     or compared with a value its `enum` does not allow (`schema-fields.ts`): at the field, with the closest one.
 * The compiler stays free of MCP: this is the CLI's composition of the compiled models and the runtime's client.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { suggester } from '../generator/diagnostics/closest-match.js';
import { type Diagnostic, diagnosticAt } from '../generator/diagnostics/diagnostic.js';
import { quoted } from '../generator/diagnostics/quoted.js';
import type { ModelPrompt, SopModel } from '../generator/model/sop-model.js';
import type { ParsedFieldCondition } from '../generator/parse/node-prompts.js';
import { fieldVerdict } from './schema-fields.js';
import { silentLogger } from '../runtime/support/logger.js';
import { openUpstream, type UpstreamConnection } from '../runtime/upstream/upstream-connection.js';
import { resolveUpstream } from '../runtime/upstream/upstream-spec.js';

export interface CheckToolsOptions {
  readonly root: string;
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** How long one server may take to start and list its tools (default 15 s). */
  readonly connectTimeoutMs?: number;
}

export async function checkDomainTools(models: readonly SopModel[], options: CheckToolsOptions): Promise<Diagnostic[]> {
  const environment = options.environment ?? process.env;
  const diagnostics: Diagnostic[] = [];
  const connections = new Map<string, UpstreamConnection>();
  /** Per model, its servers as resolved (undefined where a server could not be resolved). */
  const serversOf = new Map<SopModel, (UpstreamConnection | undefined)[]>();
  for (const model of models) {
    const servers = model.mcpServers.map((ref, i) => {
      const resolved = resolveUpstream(ref, options.root, environment);
      if (!resolved.ok) {
        diagnostics.push(
          diagnosticAt(
            model.file,
            'SOP067',
            model.mcpServerSpans[i]!,
            `Cannot reach ${resolved.error}.`,
            'Set the variable in the environment `sop build --check-tools` runs in, or correct the entry.',
          ),
        );
        return undefined;
      }
      let connection = connections.get(resolved.spec.key);
      if (connection === undefined) {
        connection = openUpstream({
          spec: resolved.spec,
          logger: silentLogger,
          connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
          clientInfo: { name: 'sop-build-check-tools', version: '0.1.0' },
        });
        connections.set(resolved.spec.key, connection);
      }
      return connection;
    });
    serversOf.set(model, servers);
  }
  const failures = new Map<UpstreamConnection, string>();
  await Promise.all(
    [...connections.values()].map((connection) =>
      connection.started.catch((error: unknown) => failures.set(connection, error instanceof Error ? error.message : String(error))),
    ),
  );
  try {
    for (const model of models) diagnostics.push(...checkModel(model, serversOf.get(model) ?? [], failures));
  } finally {
    await Promise.all([...connections.values()].map((connection) => connection.close()));
  }
  return diagnostics;
}

function checkModel(
  model: SopModel,
  servers: readonly (UpstreamConnection | undefined)[],
  failures: ReadonlyMap<UpstreamConnection, string>,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const offered = new Map<string, { readonly tool: Tool; readonly server: string }>();
  let complete = true;
  servers.forEach((server, i) => {
    if (server === undefined) {
      complete = false;
      return;
    }
    const failure = failures.get(server);
    if (failure !== undefined) {
      complete = false;
      diagnostics.push(
        diagnosticAt(
          model.file,
          'SOP067',
          model.mcpServerSpans[i]!,
          `${failure}.`,
          'Start the server (or fix its entry), then check again.',
        ),
      );
      return;
    }
    const clashes = new Map<string, string[]>();
    for (const tool of server.tools()) {
      const other = offered.get(tool.name);
      if (other !== undefined && other.server !== server.spec.name) {
        clashes.set(other.server, [...(clashes.get(other.server) ?? []), tool.name]);
        continue;
      }
      offered.set(tool.name, { tool, server: server.spec.name });
    }
    for (const [other, tools] of clashes) {
      const named =
        tools.length <= 5 ? tools.map(quoted).join(', ') : `${tools.slice(0, 5).map(quoted).join(', ')} and ${tools.length - 5} more`;
      diagnostics.push(
        diagnosticAt(
          model.file,
          'SOP067',
          model.mcpServerSpans[i]!,
          `Servers ${quoted(other)} and ${quoted(server.spec.name)} both offer ${named}: a call could not say which one it means.`,
          'Serve each tool from one of them only, or give the agent one of the two servers.',
        ),
      );
    }
  });
  // Names the servers do not offer are only reported when every server was reached: otherwise they may be its.
  if (!complete) return diagnostics;
  const names = model.mcpServers.map((server) => server.name);
  const like = suggester([...offered.keys()]);
  for (const tool of model.tools) {
    if (offered.has(tool.name)) continue;
    const where = names.length === 0 ? 'the SOP names no mcp_servers' : `none of its servers (${names.join(', ')}) offers it`;
    diagnostics.push(
      diagnosticAt(
        model.file,
        'SOP067',
        tool.span,
        `The tool ${quoted(tool.name)} is not offered: ${where}.`,
        like.suggestion(tool.name, 'tool'),
      ),
    );
  }
  for (const prompt of model.prompts) {
    const about = prompt.evidence?.about;
    if (about === null || about === undefined) continue;
    const tools = prompt.evidence!.tools === null ? prompt.tools.map((t) => t.name) : prompt.evidence!.tools.map((t) => t.name);
    for (const name of tools) {
      const found = offered.get(name)?.tool;
      if (found === undefined || namesArgument(found, about.name)) continue;
      diagnostics.push(
        diagnosticAt(
          model.file,
          'SOP067',
          about.span,
          `${quoted(prompt.nodeId)}'s evidence is about ${quoted(about.name)}, but ${quoted(name)} neither takes nor answers ${quoted(about.name)}: the gateway could never tell what it was about.`,
          `Name an argument of ${quoted(name)} (its arguments: ${Object.keys(propertiesOf(found.inputSchema)).join(', ') || 'none'}).`,
        ),
      );
    }
  }
  diagnostics.push(...conditionFields(model, (name) => offered.get(name)?.tool));
  return diagnostics;
}

/** SOP067 for each condition over a field its tool's output schema cannot have, or a value it does not allow. */
function conditionFields(model: SopModel, toolOf: (name: string) => Tool | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (prompt: ModelPrompt, condition: ParsedFieldCondition, name: string) => {
    const schema = toolOf(name)?.outputSchema;
    if (schema === undefined) return;
    const compared = condition.op === '==' || condition.op === '!=' || condition.op === 'in' || condition.op === 'not in';
    const verdict = fieldVerdict(schema, condition.field, compared ? condition.values : []);
    const where = `${quoted(prompt.nodeId)}'s condition ${quoted(condition.text)}`;
    if (verdict.kind === 'missing') {
      const field = condition.field.slice(0, verdict.index + 1).join('.');
      const through = verdict.wrapped ? ' (its answer read through the `result` wrapper)' : '';
      const has = verdict.fields.length === 0 ? 'no fields there' : `the fields ${verdict.fields.map(quoted).join(', ')} there`;
      out.push(
        diagnosticAt(
          model.file,
          'SOP067',
          condition.fieldSpan,
          `${where} reads ${quoted(field)}, which no answer of ${quoted(name)} can have: its output schema${through} has ${has}.`,
          verdict.fields.length === 0
            ? `Read a field the answer of ${quoted(name)} has.`
            : suggester(verdict.fields).suggestion(condition.field[verdict.index]!, 'field'),
        ),
      );
      return;
    }
    if (verdict.impossibleValues.length === 0) return;
    const shown = (values: readonly unknown[]) => values.map((v) => quoted(JSON.stringify(v))).join(', ');
    const texts = verdict.allowed.filter((v): v is string => typeof v === 'string');
    const first = verdict.impossibleValues[0];
    out.push(
      diagnosticAt(
        model.file,
        'SOP067',
        condition.span,
        `${where} compares ${quoted(condition.field.join('.'))} with ${shown(verdict.impossibleValues)}, which the output schema of ${quoted(name)} does not allow there (its values: ${shown(verdict.allowed)}).`,
        typeof first === 'string' && texts.length > 0
          ? suggester(texts).suggestion(first, 'value')
          : `Compare with one of its values: ${shown(verdict.allowed)}.`,
      ),
    );
  };
  for (const prompt of model.prompts) {
    for (const entry of prompt.when) if (entry.condition !== null) check(prompt, entry.condition, entry.condition.tool.name);
    const evidence = prompt.evidence;
    if (evidence === null) continue;
    const tools = [...new Set((evidence.tools ?? prompt.tools).map((t) => t.name))];
    for (const shown of evidence.shows) for (const name of tools) check(prompt, shown, name);
  }
  return out;
}

function namesArgument(tool: Tool, name: string): boolean {
  return Object.hasOwn(propertiesOf(tool.inputSchema), name) || Object.hasOwn(propertiesOf(tool.outputSchema), name);
}

/** The properties a JSON Schema object names, its `anyOf` / `oneOf` / `allOf` branches included (an answer or an error). */
function propertiesOf(schema: unknown, depth = 0): Record<string, unknown> {
  if (schema === null || typeof schema !== 'object' || depth > 4) return {};
  const node = schema as { properties?: unknown; anyOf?: unknown; oneOf?: unknown; allOf?: unknown };
  const own = node.properties !== null && typeof node.properties === 'object' ? (node.properties as Record<string, unknown>) : {};
  const branches = [node.anyOf, node.oneOf, node.allOf].flatMap((list) => (Array.isArray(list) ? list : []));
  return Object.assign({}, ...branches.map((branch) => propertiesOf(branch, depth + 1)), own);
}
