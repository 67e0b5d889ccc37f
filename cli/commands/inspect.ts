/**
 * `sop inspect FILE`: prints, as JSON, what the compiler understood of one SOP: the agent, nodes, edges,
 * entry/decision/terminal nodes, prompts, the system prompt and its sections, and every diagnostic. Authors
 * use it to see why a node is a terminal or which prompt went where. Exit code 1 when the file has errors.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { compileDocument } from '../../generator/project/compile-document.js';
import { hasErrors } from '../../generator/diagnostics/diagnostic.js';
import { hashSource } from '../../contract/source-hash.js';
import { readCommandArgs, usageError } from '../command-args.js';

const COMMAND = { name: 'inspect', usage: 'Usage: sop inspect FILE (one SOP markdown file)\n' };

export async function runInspect(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, { allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (typeof parsed === 'number') return parsed;
  const [target, ...extra] = parsed.positionals;
  if (!target || extra.length > 0) return usageError(COMMAND, 'name one SOP file');
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(target));
  } catch (error) {
    process.stderr.write(`sop inspect: cannot read ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  const file = relative(process.cwd(), resolve(target)).split(sep).join('/');
  const { compiled } = compileDocument(file, bytes.toString('utf8'), hashSource(bytes));
  const { model, facts } = compiled;
  const view = {
    file,
    source_hash: compiled.sourceHash,
    agent: model?.agent ?? null,
    version: model?.version ?? null,
    description: model?.description ?? null,
    model: model?.model ?? null,
    mcp_servers: model?.mcpServers ?? [],
    tools: model?.tools.map((t) => t.name) ?? [],
    entry_node: model?.entryNode ?? null,
    hubs: model?.hubs.map((h) => h.id) ?? [],
    nodes: model?.nodes.map((n) => ({ id: n.id, type: n.type, description: n.description, line: n.span.start.line })) ?? [],
    edges: model?.edges.map((e) => ({ from: e.from, to: e.to, condition: e.condition, style: e.style, line: e.span.start.line })) ?? [],
    decision_nodes: facts?.decisionNodes ?? [],
    terminal_nodes: facts?.terminalNodes ?? [],
    prompt_form: model?.promptForm ?? null,
    prompts: Object.fromEntries(
      (model?.prompts ?? []).map((p) => [p.nodeId, { prompt: p.prompt, tools: p.tools.map((t) => t.name), examples: p.examples }]),
    ),
    system_prompt_sections: model?.systemPromptSections.map((s) => s.heading) ?? [],
    system_prompt: model?.systemPrompt ?? null,
    diagnostics: compiled.diagnostics,
  };
  process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  return hasErrors(compiled.diagnostics) ? 1 : 0;
}
