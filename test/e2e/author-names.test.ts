/**
 * Names are data (issue 21): every name an author writes either works or is refused with a diagnostic where it is
 * written; never an internal error, never a name silently missing from the output.
 *
 * For each place a name can stand in a SOP (`NAME_PLACES`) and each name `Object.prototype` and `Function.prototype`
 * carry (listed from the engine, plus `__proto__` and `prototype`), one SOP puts the name there; all of them are built
 * as one project, as `sop build` builds them (token budgets measured too). Then each SOP either
 *   - built: the name is where the author wrote it in the bundle and in the generated modules, a node id is a state
 *     of the generated XState machine (which follows the server's transition table on every move), and a real SDK
 *     MCP Client walks the agent through the real server runtime (in-process: the transport is not the point here),
 *     across its hub, its visit limit and its escalation, with a todo completed at its terminal;
 *   - or was refused: an error diagnostic points at the name, and the agent is not in the bundle.
 * A key the format does not know (an extra frontmatter key, say) is reported where it is written, as a warning or
 * an error. At run time, each name that is not a node or an agent is refused with an answer, the run unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { planBuild, type BuildPlan } from '../../generator/project/plan-build.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { propertyName, stringLiteral } from '../../generator/emit/literal.js';
import { camelCaseAgent } from '../../generator/model/naming.js';
import { type EmittedProject, writeEmittedProject } from '../generator/emit/emitted-project.js';
import { type Answer, type Connected, connectInMemory, fixtureService } from '../runtime/helpers/mcp-client.js';
import { compareMachineWithTable } from '../support/machine-vs-table.js';
import {
  DEFAULT_NAMES,
  NAME_PLACES,
  type NamePlace,
  type ProbeNames,
  probeSop,
  prototypeNames,
  type Slot,
} from '../support/name-probes.js';

const NAMES = prototypeNames();
const NODE_SLOTS: readonly Slot[] = ['START', 'ROUTE', 'ASK', 'DO', 'DONE', 'HELP'];

interface Probe {
  readonly file: string;
  readonly place: NamePlace;
  readonly name: string;
  readonly names: ProbeNames;
  readonly raw: string;
}

const probes: Probe[] = NAME_PLACES.flatMap((place, p) =>
  NAMES.map((name, n): Probe => {
    const names = { ...DEFAULT_NAMES, agent: `probe_p${p}_n${n}`, [place.slot]: name };
    return { file: `sops/p${p}_n${n}.md`, place, name, names, raw: probeSop(names, { yamlMap: place.yamlMap ?? false }) };
  }),
);
/** A probe with no unusual name, for the names at run time. */
const BASE_NAMES: ProbeNames = { ...DEFAULT_NAMES, agent: 'probe_base' };

let build: BuildPlan;
let bundle: SopBundle;
let emitted: EmittedProject;
let session: Connected;

beforeAll(async () => {
  build = await planBuild([...probes.map(({ file, raw }) => ({ file, raw })), { file: 'sops/base.md', raw: probeSop(BASE_NAMES) }]);
  bundle = JSON.parse(build.outputs.find((f) => f.path === 'sop-bundle.json')!.content) as SopBundle;
  emitted = writeEmittedProject(build.outputs);
  session = await connectInMemory({ service: fixtureService({ bundle, inspectViews: ['where', 'nodes'] }) });
}, 120_000);

afterAll(async () => {
  await session?.close();
  await session?.service.close();
  emitted?.remove();
});

const own = <T>(table: { readonly [key: string]: T } | null | undefined, key: string): T | undefined =>
  table != null && Object.hasOwn(table, key) ? table[key] : undefined;
const compiledOf = (probe: Probe): CompiledSop | undefined => own(bundle.agents, probe.names.agent);
const fileOf = (path: string): string => build.outputs.find((f) => f.path === path)?.content ?? '';
const diagnosticsOf = (probe: Probe): Diagnostic[] => build.diagnostics.filter((d) => d.file === probe.file);

/** Whether the diagnostic's span covers a place where `name` is written, or its message names it (`model.name`). */
function pointsAt(d: Diagnostic, raw: string, name: string): boolean {
  if (new RegExp(`[\`.]${name}\``).test(d.message)) return true;
  const lines = raw.split('\n');
  const endLine = d.endLine ?? d.line;
  if (endLine > d.line) return lines.slice(d.line - 1, endLine).some((line) => line.includes(name));
  const line = lines[d.line - 1] ?? '';
  const from = d.column - 1;
  const to = Math.max((d.endColumn ?? d.column) - 1, from + 1);
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) if (at < to && at + name.length > from) return true;
  return false;
}

/** What is wrong with the outcome of one probe (empty: it built with the name in place, or was refused at it). */
function problemsOf(probe: Probe): string[] {
  const diagnostics = diagnosticsOf(probe);
  const internal = diagnostics.filter((d) => d.code === 'SOP090');
  if (internal.length > 0) return [`internal error: ${internal.map((d) => d.message).join('; ')}`];
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const sop = compiledOf(probe);
  if (errors.length > 0) {
    const problems: string[] = [];
    if (!errors.some((d) => pointsAt(d, probe.raw, probe.name))) {
      problems.push(
        `refused, but no error points at the name: ${errors.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('; ')}`,
      );
    }
    if (sop !== undefined) problems.push('refused, yet in the bundle');
    return problems;
  }
  if (sop === undefined) return ['built without errors, but not in the bundle'];
  if (probe.place.kind === 'unknown-key') {
    return diagnostics.some((d) => pointsAt(d, probe.raw, probe.name)) ? [] : ['an unknown key passed without a diagnostic'];
  }
  return missingFrom(probe, sop);
}

/** Where the name must be once built: the bundle, the generated modules, for each place. */
function missingFrom(probe: Probe, sop: CompiledSop): string[] {
  const { name, names } = probe;
  const agent = names.agent;
  const ids = fileOf(`${agent}/ids.ts`);
  const graph = fileOf(`${agent}/graph.ts`);
  const machine = fileOf(`${agent}/machine.ts`);
  const checks: [string, boolean][] = [];
  const check = (what: string, ok: boolean) => checks.push([what, ok]);
  if (NODE_SLOTS.includes(probe.place.slot)) {
    check('in nodeIds', sop.nodeIds.includes(name));
    check('a node of its own', own(sop.nodes, name)?.id === name);
    check('in the transition table', Array.isArray(own(sop.transitions.successors, name)));
    check('in the edge and tool tables', Array.isArray(own(sop.edges, name)) && Array.isArray(own(sop.toolsByNode, name)));
    check('in NODE_IDS of ids.ts', ids.includes(stringLiteral(name)));
    check('a GOTO event of machine.ts', machine.includes(stringLiteral(`GOTO.${name}`)));
  }
  const prompts = (id: string) => own(sop.prompts, id);
  switch (probe.place.slot) {
    case 'START':
      check('the entry node', sop.transitions.entry === name);
      break;
    case 'ROUTE':
      check('a hub', sop.transitions.hubs.includes(name) && sop.decisionNodes.includes(name));
      break;
    case 'ASK':
      check('its prompt', prompts(name)?.prompt === 'Ask.');
      check('its visit limit', own(sop.transitions.limits, name)?.max === 2);
      check('the node its policy passes', sop.policies?.[0]?.passes.includes(name) === true);
      break;
    case 'DO':
      check('its tools', own(sop.toolsByNode, name)?.join() === names.act);
      break;
    case 'DONE':
      check('a terminal node without a prompt', sop.terminalNodes.includes(name) && prompts(name) === undefined);
      break;
    case 'HELP':
      check('the escalation node', own(sop.transitions.limits, names.ASK)?.escalation === name);
      break;
    case 'lookup':
      check('a tool', sop.tools.includes(name) && own(sop.toolsByNode, names.ASK)?.join() === name);
      check('in TOOL_NAMES of ids.ts', ids.includes(stringLiteral(name)));
      break;
    case 'act':
      check('the tool its policy guards', sop.policies?.[0]?.tools.join() === name && sop.policies[0].guards.includes(names.DO));
      break;
    case 'policy':
      check('the policy id', sop.policies?.map((p) => p.id).join() === name);
      check('in POLICIES of graph.ts', graph.includes(`id: ${stringLiteral(name)}`));
      break;
    case 'agent':
      check('the agent', sop.meta.agent === name);
      check('exported by index.ts', fileOf('index.ts').includes(`${camelCaseAgent(name)}Machine`));
      check('in registry.ts', fileOf('registry.ts').includes(stringLiteral(name)));
      break;
    case 'modelKey':
      check('a model setting', own(sop.meta.model, name) === 1);
      check('in AGENT_META of graph.ts', graph.includes(`${propertyName(name)}: 1`));
      break;
    case 'server':
      check('the MCP server', sop.meta.mcpServers[0]?.name === name);
      break;
    default:
      // Subgraph ids, edge ids and class names live in the flowchart only, and never become nodes.
      check('in the flowchart', sop.flowchart.includes(name));
      check('no node', !sop.nodeIds.includes(name));
  }
  return checks.filter(([, ok]) => !ok).map(([what]) => `built, but not ${what}`);
}

const builtProbes = (): Probe[] => probes.filter((probe) => compiledOf(probe) !== undefined);

describe('a name in any place of a SOP is either compiled as written or refused where it stands', () => {
  it.each(NAME_PLACES.map((place) => [place.place, place] as const))('%s', (_, place) => {
    const found = probes
      .filter((probe) => probe.place === place)
      .flatMap((probe) => problemsOf(probe).map((problem) => `${probe.name}: ${problem}`));
    expect(found).toEqual([]);
  });

  it('builds the names the format allows: a sample', () => {
    const outcome = (slot: Slot, name: string) => {
      const probe = probes.find((p) => p.place.slot === slot && !p.place.yamlMap && p.name === name)!;
      return compiledOf(probe) === undefined ? diagnosticsOf(probe).map((d) => d.code) : 'built';
    };
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'prototype']) {
      for (const slot of NODE_SLOTS) expect(outcome(slot, name), `${slot} ${name}`).toBe('built');
      expect(outcome('lookup', name), name).toBe('built');
    }
    for (const name of ['constructor', 'prototype', 'call', 'bind']) {
      expect(outcome('agent', name), name).toBe('built');
      expect(outcome('policy', name), name).toBe('built');
    }
    expect(outcome('modelKey', '__proto__')).toBe('built');
    expect(outcome('server', '__proto__')).toBe('built');
  });

  it('refuses what the grammar forbids, saying why', () => {
    const errors = (slot: Slot, name: string) => {
      const probe = probes.find((p) => p.place.slot === slot && !p.place.yamlMap && p.name === name)!;
      return diagnosticsOf(probe)
        .filter((d) => d.severity === 'error')
        .map((d) => `${d.code} ${d.message}`);
    };
    expect(errors('ASK', '__proto__')).toContainEqual(expect.stringMatching(/^SOP034 Node id `__proto__`/));
    expect(errors('policy', '__proto__')).toEqual([
      'SOP003 Frontmatter key `policies.__proto__`: a policy id must match [a-z][a-z0-9_]* (lowercase, digits, underscores).',
    ]);
    expect(errors('agent', 'toString')).toEqual([
      'SOP003 Frontmatter key `agent`: must match [a-z][a-z0-9_]* (lowercase, digits, underscores).',
    ]);
  });
});

describe('each node id of a built SOP is a state of its machine, which follows the server', () => {
  it.each(NODE_SLOTS)('%s', async (slot) => {
    const problems: string[] = [];
    for (const probe of builtProbes().filter((p) => p.place.slot === slot)) {
      const agent = probe.names.agent;
      const module = await emitted.importGenerated<Record<string, AnyStateMachine>>(`${agent}/machine.ts`);
      const machine = module[`${camelCaseAgent(agent)}Machine`];
      if (machine === undefined) {
        problems.push(`${probe.name}: no machine`);
        continue;
      }
      if (!Object.hasOwn(machine.root.states, probe.name)) problems.push(`${probe.name}: no state of that name`);
      problems.push(...compareMachineWithTable(machine, compiledOf(probe)!).problems.map((p) => `${probe.name}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});

describe('over MCP, through the real server runtime', () => {
  const call = (name: string, args: Record<string, unknown>): Promise<{ answer: Answer; isError: boolean }> => session.call(name, args);

  /** Walks one built probe: its hub, its visit limit and escalation, a todo completed at its terminal. */
  async function walk(probe: Probe): Promise<string[]> {
    const n = probe.names;
    const problems: string[] = [];
    const expectThat = (what: string, ok: boolean, answer?: unknown) => {
      if (!ok) problems.push(`${what}${answer === undefined ? '' : `: ${JSON.stringify(answer)}`}`);
    };
    const loaded = await call('load_graph', { agent: n.agent });
    const runId = loaded.answer.run_id as string;
    expectThat('load_graph', !loaded.isError && loaded.answer.entry_node === n.START, loaded.answer);
    expectThat('nodes with prompts', loaded.answer.graph?.nodes_with_prompts?.join() === [n.ASK, n.DO].join(), loaded.answer.graph);
    expectThat('model setting', own(loaded.answer.model as Record<string, unknown>, n.modelKey) === 1, loaded.answer.model);
    expectThat('MCP server', loaded.answer.mcp_servers?.[0]?.name === n.server, loaded.answer.mcp_servers);
    const todo = await call('todo', { run_id: runId, todos: [{ content: 'probe', status: 'in_progress', completion_node: n.DONE }] });
    expectThat('todo with completion_node', !todo.isError, todo.answer);
    const moves: [string, 'ok' | 'refused'][] = [
      [n.START, 'ok'],
      [n.ROUTE, 'ok'],
      [n.ASK, 'ok'],
      [n.DO, 'ok'],
      [n.DONE, 'ok'],
      [n.ROUTE, 'ok'], // a hub on the path
      [n.ASK, 'ok'], // its second visit
      [n.ROUTE, 'ok'],
      [n.ASK, 'refused'], // over max_visits: 2
      [n.HELP, 'ok'], // the escalation node, now legal
    ];
    for (const [index, [target, expected]] of moves.entries()) {
      if (index === 1) {
        const before = await call('inspect', { run_id: runId, view: 'where' });
        expectThat('visits left before the first visit', own(before.answer.visits_left, n.ASK) === 2, before.answer);
      }
      const { answer, isError } = await call('goto_node', { run_id: runId, node_id: target });
      const ok = !isError && answer.valid === true && answer.node?.id === target;
      expectThat(`goto_node ${target} ${expected}`, expected === 'ok' ? ok : !isError && answer.valid === false, answer);
      if (expected === 'refused') expectThat('escalate_to', answer.escalate_to === n.HELP, answer);
      if (target === n.DO && ok) expectThat('tools of DO', answer.node.tools?.join() === n.act, answer.node);
      if (target === n.ASK && ok)
        expectThat('prompt of ASK', answer.node.prompt === 'Ask.' && answer.node.tools?.join() === n.lookup, answer.node);
      if (target === n.DONE && ok && problems.length === 0) expectThat('todo reminder', typeof answer.todo_reminder === 'string', answer);
    }
    const where = await call('inspect', { run_id: runId, view: 'where' });
    expectThat('inspect where', where.answer.current_node?.id === n.HELP && own(where.answer.visits_left, n.ASK) === 0, where.answer);
    const prompt = await session.client.getPrompt({ name: n.agent });
    expectThat('the MCP prompt named after the agent', prompt.messages[0]?.content.type === 'text', prompt);
    const flowchart = await session.client.readResource({ uri: `sop://${n.agent}/flowchart` });
    expectThat(
      'the flowchart resource',
      (flowchart.contents[0] as { text?: string }).text?.includes(`${n.ASK}["Ask"]`) === true,
      flowchart,
    );
    const nodes = await call('inspect', { run_id: runId, view: 'nodes', ids: [n.ASK, n.DONE] });
    expectThat(
      'inspect nodes',
      nodes.answer.nodes?.map((node: Answer) => node.id).join() === [n.ASK, n.DONE].join() &&
        !nodes.answer.nodes.some((node: Answer) => 'error' in node),
      nodes.answer,
    );
    return problems;
  }

  it.each(NAME_PLACES.map((place) => [place.place, place] as const))('walks every built SOP with the name as %s', async (_, place) => {
    const problems: string[] = [];
    const built = builtProbes().filter((p) => p.place === place);
    for (const probe of built) problems.push(...(await walk(probe)).map((problem) => `${probe.name}: ${problem}`));
    if (place.kind === 'name') expect(built.length, 'SOPs built with the name there').toBeGreaterThan(NAMES.length / 3);
    expect(problems).toEqual([]);
  });

  it('refuses each name that is not a node or an agent, and the run stays as it was', async () => {
    const loaded = await call('load_graph', { agent: BASE_NAMES.agent });
    const runId = loaded.answer.run_id as string;
    const todos = [{ content: 'probe', status: 'pending', completion_node: BASE_NAMES.DONE }];
    await call('todo', { run_id: runId, todos });
    await call('goto_node', { run_id: runId, node_id: BASE_NAMES.START });
    const agents = new Set(Object.keys(bundle.agents));
    for (const name of NAMES) {
      const moved = await call('goto_node', { run_id: runId, node_id: name });
      expect(moved, name).toMatchObject({
        isError: true,
        answer: { valid: false, error: expect.stringContaining(`Node not found: ${name}.`) },
      });
      const listed = await call('todo', { run_id: runId, todos: [{ content: 'x', status: 'pending', completion_node: name }] });
      expect(listed, name).toMatchObject({ isError: true, answer: { error: expect.stringContaining(`${name} is not a terminal node`) } });
      const inspected = await call('inspect', { run_id: runId, view: 'nodes', ids: [name] });
      expect(inspected.answer.nodes, name).toEqual([{ id: name, error: `Node not found in ${BASE_NAMES.agent}` }]);
      const where = await call('inspect', { run_id: runId, view: 'where' });
      expect(where.answer, name).toMatchObject({ path: [BASE_NAMES.START], open_todos: todos });
      const other = await call('load_graph', { agent: name });
      const prompt = session.client.getPrompt({ name });
      if (agents.has(name)) {
        expect(other, name).toMatchObject({ isError: false, answer: { agent: name } });
        await expect(prompt, name).resolves.toMatchObject({ messages: [{ role: 'user' }] });
      } else {
        expect(other, name).toMatchObject({ isError: true, answer: { error: expect.stringContaining(`Unknown agent: ${name}.`) } });
        await expect(prompt, name).rejects.toThrow(`Unknown prompt: ${name}.`);
      }
    }
  });
});
