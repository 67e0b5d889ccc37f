/**
 * Checks the frontmatter policies over every path of the flowchart. A policy says: every path from the entry node to
 * a node of `every_path_to` passes a node of `passes` (the guarded node itself counts). Runs restart at the entry
 * node and hubs only return to nodes already on the path, so the paths a run can take are the walks along edges
 * from the entry node, plus the escalation moves visit limits add. The question is then plain reachability: with
 * the `passes` nodes taken out, can a guarded node still be reached from the entry node? Linear in the graph.
 *
 * A violation is one diagnostic per policy at its YAML key, with the shortest counterexample path (and the other
 * guarded nodes reached the same way). Selectors that match nothing, a policy that guards nothing, and a
 * confirmation that is not a regular expression or confirms no tool are reported at their own lines.
 */
import { QUALIFIER } from '../../contract/composition.js';
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { type Suggester, suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import { resolveSelector, type ResolvedSelector, type SelectorContext, selectorContextOf } from '../model/policy-selectors.js';
import type { GraphFacts, ModelPolicy, SopModel } from '../model/sop-model.js';
import { type EscalationMove, escalationMovesOf } from '../model/visit-limits.js';

export function checkPolicies(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  if (model.policies.length === 0) return;
  // A SOP with sub-flows is proved over its expansion, where the called SOPs' nodes are guarded and passed too
  // (`build/composition-diagnostics.ts`); here only what its own text says is checked.
  const expanded = model.prompts.some((prompt) => prompt.subflow !== null);
  const context = selectorContext(model, facts);
  const graph = policyGraph(model, facts);
  const names = namesToSuggest(model, context);
  for (const policy of model.policies) {
    const guards = resolveSelector(policy.everyPathTo, context);
    const passes = resolveSelector(policy.passes, context);
    const named = reportUnmatched(model, names, policy, [guards, passes], sink, expanded);
    checkConfirmation(model, policy, sink);
    if (expanded) continue;
    if (guards.nodes.length === 0) {
      if (named)
        sink.push(
          diagnosticAt(
            model.file,
            'SOP054',
            policy.everyPathTo.span,
            `Policy ${quoted(policy.id)} guards no node: \`every_path_to\` selects none.`,
          ),
        );
      continue;
    }
    const violation = findViolation(graph, model.entryNode, guards.nodes, new Set(passes.nodes));
    if (violation === null) continue;
    sink.push(
      diagnosticAt(
        model.file,
        'SOP055',
        policy.span,
        violationMessage(policy, violation, guards, passes.nodes, graph),
        undefined,
        policy.severity,
      ),
    );
  }
}

export function selectorContext(model: SopModel, facts: GraphFacts): SelectorContext {
  const toolsByNode = new Map<string, string[]>();
  for (const prompt of model.prompts)
    if (!toolsByNode.has(prompt.nodeId))
      toolsByNode.set(
        prompt.nodeId,
        prompt.tools.map((t) => t.name),
      );
  return selectorContextOf(
    model.nodes.map((n) => n.id),
    toolsByNode,
    new Set(facts.terminalNodes),
  );
}

export interface PolicyGraph {
  readonly successors: ReadonlyMap<string, readonly string[]>;
  /** Escalation moves by `from>to`. */
  readonly escalations: ReadonlyMap<string, EscalationMove>;
  /** The same graph by node index, for the searches: one per policy, so they allocate little. */
  readonly ids: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  readonly next: readonly (readonly number[])[];
  /** The edges reversed: the search that proves a policy goes back from its guarded nodes. */
  readonly previous: readonly (readonly number[])[];
}

export function policyGraph(model: SopModel, facts: GraphFacts): PolicyGraph {
  return buildPolicyGraph(facts.successors, escalationMovesOf(model, facts.successors));
}

/** The graph a policy is proved on: the edges, plus the escalation moves the visit limits add. */
export function buildPolicyGraph(edges: ReadonlyMap<string, readonly string[]>, moves: readonly EscalationMove[]): PolicyGraph {
  const successors = new Map<string, string[]>([...edges].map(([id, next]) => [id, [...next]]));
  const escalations = new Map<string, EscalationMove>();
  for (const move of moves) {
    const next = successors.get(move.from);
    if (next === undefined || next.includes(move.to)) continue;
    next.push(move.to);
    escalations.set(`${move.from}>${move.to}`, move);
  }
  const ids = [...successors.keys()];
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const next = ids.map((id) => successors.get(id)!.flatMap((to) => (indexOf.has(to) ? [indexOf.get(to)!] : [])));
  const previous: number[][] = ids.map(() => []);
  next.forEach((targets, from) => {
    for (const to of targets) previous[to]!.push(from);
  });
  return { successors, escalations, ids, indexOf, next, previous };
}

export interface Violation {
  /** The shortest path from the entry node to the first guarded node reached, passing no required node. */
  readonly path: readonly string[];
  /** The other guarded nodes reached that way, in flowchart order. */
  readonly others: readonly string[];
}

const UNSEEN = -2;
const ROOT = -1;

/**
 * Whether a guarded node is reachable from the entry node through nodes that are not `passes`, and if so the
 * counterexample; null when the policy holds. Proving it searches back from the guarded nodes, stopping at the
 * `passes` nodes: a policy that holds is usually decided near what it guards (cancel only after the confirmation
 * step just before), whatever the size of the graph. Only a violation searches forward from the entry node, for the
 * shortest counterexample and the other guarded nodes reached.
 */
export function findViolation(graph: PolicyGraph, entry: string, guards: readonly string[], passes: ReadonlySet<string>): Violation | null {
  const start = graph.indexOf.get(entry);
  if (passes.has(entry) || start === undefined) return null;
  const blocked = new Uint8Array(graph.ids.length);
  for (const id of passes) {
    const i = graph.indexOf.get(id);
    if (i !== undefined) blocked[i] = 1;
  }
  if (!reachesEntry(graph, start, guards, blocked)) return null;
  const guarded = new Uint8Array(graph.ids.length);
  let left = 0;
  for (const id of guards) {
    const i = graph.indexOf.get(id);
    if (i === undefined || guarded[i] === 1 || blocked[i] === 1) continue;
    guarded[i] = 1;
    left++;
  }
  const parent = new Int32Array(graph.ids.length).fill(UNSEEN);
  const queue = new Int32Array(graph.ids.length);
  parent[start] = ROOT;
  queue[0] = start;
  let length = 1;
  // Breadth-first, so the first guarded node found is the nearest one; it stops once every guarded node is found.
  let first = guarded[start] === 1 ? start : -1;
  if (first === start) left--;
  for (let head = 0; head < length && left > 0; head++) {
    const from = queue[head]!;
    for (const to of graph.next[from]!) {
      if (parent[to] !== UNSEEN || blocked[to] === 1) continue;
      parent[to] = from;
      queue[length++] = to;
      if (guarded[to] === 1) {
        if (first < 0) first = to;
        left--;
      }
    }
  }
  if (first < 0) return null;
  const path: string[] = [];
  for (let at = first; at !== ROOT; at = parent[at]!) path.push(graph.ids[at]!);
  path.reverse();
  const reached = (id: string) => {
    const i = graph.indexOf.get(id);
    return i !== undefined && parent[i] !== UNSEEN;
  };
  return { path, others: guards.filter((id) => id !== graph.ids[first] && reached(id)) };
}

/** Backwards from the guarded nodes (not `blocked` ones: a guarded node that is a `passes` node is passed), through nodes that are not blocked: whether the entry node is reached. */
function reachesEntry(graph: PolicyGraph, start: number, guards: readonly string[], blocked: Uint8Array): boolean {
  const seen = new Uint8Array(graph.ids.length);
  const stack: number[] = [];
  for (const id of guards) {
    const i = graph.indexOf.get(id);
    if (i === undefined || blocked[i] === 1 || seen[i] === 1) continue;
    seen[i] = 1;
    stack.push(i);
  }
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === start) return true;
    for (const from of graph.previous[at]!) {
      if (seen[from] === 1 || blocked[from] === 1) continue;
      seen[from] = 1;
      stack.push(from);
    }
  }
  return false;
}

export function violationMessage(
  policy: Pick<ModelPolicy, 'id'>,
  violation: Violation,
  guards: Pick<ResolvedSelector, 'because'>,
  passes: readonly string[],
  graph: PolicyGraph,
): string {
  const target = violation.path.at(-1)!;
  const tool = guards.because.get(target);
  const why = tool === null || tool === undefined ? '' : ` (it lists ${quoted(tool)})`;
  const others = violation.others.length === 0 ? '' : ` Also reached without them: ${shortList(violation.others)}.`;
  return (
    `Policy ${quoted(policy.id)} does not hold: ${target}${why} is reachable without passing ${shortList(passes)}: ` +
    `${renderPath(violation.path, graph)}.${others}`
  );
}

/** Steps of a counterexample shown at each end when it is longer than both together (messages are capped). */
const SHOWN_AT_EACH_END = 12;

/**
 * The counterexample, with the escalation moves marked as such. A long one keeps its start and its end (where the
 * guarded node is) and says how many steps it leaves out, and how many of them are escalation moves.
 */
export function renderPath(path: readonly string[], graph: PolicyGraph): string {
  const escalationAt = (i: number) => (graph.escalations.size === 0 ? undefined : graph.escalations.get(`${path[i - 1]}>${path[i]}`));
  const step = (i: number): string => {
    const escalation = escalationAt(i);
    return escalation === undefined ? ` → ${path[i]}` : ` ⇢ ${path[i]} (once ${escalation.usedUp} has used up its max_visits)`;
  };
  const steps = (from: number, to: number) => {
    let text = '';
    for (let i = from; i < to; i++) text += i === 0 ? path[0]! : step(i);
    return text;
  };
  if (path.length <= 2 * SHOWN_AT_EACH_END + 1) return steps(0, path.length);
  // Only the steps shown are written out: a counterexample through a long chain is hundreds of steps.
  const left = path.length - 2 * SHOWN_AT_EACH_END;
  let escalations = 0;
  if (graph.escalations.size > 0)
    for (let i = SHOWN_AT_EACH_END; i < path.length - SHOWN_AT_EACH_END; i++) if (escalationAt(i) !== undefined) escalations++;
  const note = escalations === 0 ? '' : `, ${escalations} of them escalation move${escalations === 1 ? '' : 's'}`;
  return `${steps(0, SHOWN_AT_EACH_END)} → … (${left} more steps${note}) …${steps(path.length - SHOWN_AT_EACH_END, path.length)}`;
}

function shortList(ids: readonly string[]): string {
  const shown = ids.slice(0, 8).join(', ');
  return ids.length > 8 ? `${shown} and ${ids.length - 8} more` : shown;
}

/** SOP054 for every pattern or tool that matches nothing; returns whether every name matched. */
interface NamesToSuggest {
  nodes(): Suggester;
  tools(): Suggester;
}

/** The did-you-mean lists, made on first need and once per SOP: most policies name nothing wrong. */
function namesToSuggest(model: SopModel, context: SelectorContext): NamesToSuggest {
  let nodes: Suggester | undefined;
  let tools: Suggester | undefined;
  return {
    nodes: () => (nodes ??= suggester(context.nodeIds)),
    tools: () => (tools ??= suggester(model.tools.map((t) => t.name))),
  };
}

function reportUnmatched(
  model: SopModel,
  names: NamesToSuggest,
  policy: ModelPolicy,
  selectors: readonly ResolvedSelector[],
  sink: DiagnosticSink,
  expanded: boolean,
): boolean {
  let clean = true;
  for (const selector of selectors) {
    for (const pattern of selector.unmatchedPatterns) {
      // With sub-flows, `CALL.*` patterns (and tools, below) are matched over the expansion instead.
      if (expanded && pattern.pattern.includes(QUALIFIER)) continue;
      clean = false;
      const hint = pattern.pattern.includes('*') ? undefined : names.nodes().suggestion(pattern.pattern, 'node id');
      sink.push(
        diagnosticAt(model.file, 'SOP054', pattern.span, `Policy ${quoted(policy.id)}: ${quoted(pattern.pattern)} matches no node.`, hint),
      );
    }
    for (const tool of expanded ? [] : selector.unmatchedTools) {
      clean = false;
      const declared = model.tools.some((t) => t.name === tool.name);
      const message = declared
        ? `Policy ${quoted(policy.id)}: no node lists the tool ${quoted(tool.name)}.`
        : `Policy ${quoted(policy.id)}: ${quoted(tool.name)} is not a tool of this SOP.`;
      sink.push(diagnosticAt(model.file, 'SOP054', tool.span, message, declared ? undefined : names.tools().suggestion(tool.name, 'tool')));
    }
  }
  return clean;
}

function checkConfirmation(model: SopModel, policy: ModelPolicy, sink: DiagnosticSink): void {
  const confirmation = policy.confirmation;
  if (confirmation === null) return;
  try {
    new RegExp(confirmation.pattern, 'i');
  } catch (error) {
    sink.push(
      diagnosticAt(
        model.file,
        'SOP056',
        confirmation.span,
        `Policy ${quoted(policy.id)}: the confirmation is not a regular expression (${(error as Error).message}).`,
      ),
    );
  }
  if (policy.everyPathTo.tools.length === 0) {
    sink.push(
      diagnosticAt(
        model.file,
        'SOP056',
        confirmation.span,
        `Policy ${quoted(policy.id)} asks for a confirmation but names no tools to confirm (\`every_path_to: {tools: [...]}\`).`,
      ),
    );
  }
}
