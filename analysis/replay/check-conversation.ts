/**
 * Checks a finished conversation against a compiled SOP, event by event, with the step function the server decides
 * with (`contract/run/`: the transition rule with its visit limits and forks, and, where the conversation shows its
 * domain calls, the gateway's rules on them). Every `goto_node` call and every domain tool call is a step; a step is
 * compliant when the step function would have allowed it, else it gets the finding of the rule that refused it:
 *   - `illegal_move`: a move the transition rule refuses (the state stays, as on the server);
 *   - `visit_limit`: a move into a node that has used up its `max_visits` (the agent should have escalated);
 *   - `skipped_required`: a move on from a node that requires evidence, with no call that found it (the gateway holds
 *     such a move; a server without it accepted it, and so the replay goes on from there);
 *   - `against_data`: a move along an edge decided by data (`when:`) that the answers read so far contradict;
 *   - `tool_not_allowed`: a domain tool called where the current node does not list it (`TOOLS_BY_NODE`), before
 *     the first move, or not a tool of the SOP at all;
 *   - `policy`: a move into a node a policy guards, or a call of a tool it names, with none of its `passes` nodes
 *     on the run's path;
 *   - `unproven_entity`: a change naming an entity (`order_id`) the run never read, or one the way here did not decide for;
 *   - `unsettled_change`: a change repeated after one of unknown outcome, with no read between;
 *   - `unconfirmed_call`: a call a confirmation policy guards without the user's confirmation at the step.
 * What each call answered (when the transcript keeps it) goes to the step function too, as the gateway gives it a
 * server's answer: evidence for the rest of the run, data for the branches. A call the step function would have
 * refused is still a call that happened: its answer counts. Outside the steps: the conversation must end on a terminal
 * node (`unfinished`), todos left open are reported, and so is an answer recorded in the transcript that differs from
 * the rule's (another SOP version, or a server that did not enforce it). `load_graph` starts a fresh run; `todo`
 * writes the list (unless the server would refuse it); `inspect` changes nothing.
 *
 * A conversation without goto_node calls is checked along the walk the conformance check inferred
 * (`../conformance/conformance.ts`): its moves are written in as `inferred` goto_node calls, which move the run
 * like accepted ones (past a visit limit too, when the walk went there: `visit_limit`) but are not steps; what the
 * gateway would have held them for is the alignment's to say (its deviations).
 */
import type { CompiledPolicy, CompiledSop } from '../../contract/compiled-sop.js';
import { passesOnPath } from '../../contract/frames.js';
import { entryOf } from '../../contract/name-table.js';
import { legalTargets } from '../../contract/transitions.js';
import { type CallRule, type ConfirmationInput, callRefusals, decideCall } from '../../contract/run/call.js';
import { applyMove, decideMove, forceMove, resolveTarget } from '../../contract/run/move.js';
import { type RunRules, runRules } from '../../contract/run/rules.js';
import { EMPTY_RUN_STATE, type RunState } from '../../contract/run/state.js';
import { recordAnswer } from '../../contract/run/answer.js';
import { writeTodos } from '../../contract/run/step.js';
import { todoInput } from '../../runtime/tools/todo.js';
import { outcomeOf } from '../conformance/trace-facts.js';
import { checkConfirmation } from './confirmation.js';
import type { Conversation, ConversationEvent, EventPlace, ToolCallEvent } from './conversation.js';

export const TOOLKIT_TOOLS = ['load_graph', 'goto_node', 'todo', 'inspect'] as const;

export type FindingRule =
  | 'illegal_move'
  | 'visit_limit'
  | 'skipped_required'
  | 'against_data'
  | 'tool_not_allowed'
  | 'policy'
  | 'unproven_entity'
  | 'unsettled_change'
  | 'unconfirmed_call'
  | 'unfinished'
  | 'open_todos'
  | 'other_agent'
  | 'recorded_answer_differs'
  | 'version_mismatch'
  | 'unknown_tools';

export interface Finding {
  readonly severity: 'error' | 'warning';
  readonly rule: FindingRule;
  /** The policy broken (`policy`, `unconfirmed_call`). */
  readonly policy?: string;
  /** The step it is about (1-based), or null for the conversation as a whole. */
  readonly step: number | null;
  /** The run's current node when it happened. */
  readonly node: string | null;
  readonly message: string;
  readonly at: EventPlace | null;
}

export interface Step {
  readonly step: number;
  readonly at: EventPlace;
  readonly kind: 'move' | 'call';
  /** The target node of a move, the tool of a call. */
  readonly name: string;
  /** Current node before and after (the same for a call and a refused move). */
  readonly from: string | null;
  readonly to: string | null;
  readonly ok: boolean;
  readonly rules: readonly FindingRule[];
}

export interface ConversationCheck {
  readonly steps: readonly Step[];
  readonly findings: readonly Finding[];
  readonly finalPath: readonly string[];
  /** The terminal node the conversation ends on, or null. */
  readonly terminal: string | null;
  /** Every terminal node entered, in order. */
  readonly terminalsReached: readonly string[];
  /** What the input let the checker see: declared moves, domain tool calls and what was said (for confirmations). */
  readonly checked: { readonly moves: boolean; readonly domainTools: boolean; readonly confirmations: boolean };
}

/** What the replay keeps beside the run's state: when each node on the path was entered, the user's yeses used. */
interface Replayed {
  state: RunState;
  /** Event index of the last accepted move into each node. */
  enteredAt: Map<string, number>;
  /** User messages that already confirmed a call. */
  used: Set<number>;
}

export interface CheckOptions {
  /** The conversation declares no moves: its walk was inferred (`inferred` goto_node calls). */
  readonly inferred?: boolean;
}

export function checkConversation(sop: CompiledSop, conversation: Conversation, options: CheckOptions = {}): ConversationCheck {
  const inferred = options.inferred === true;
  const rules = rulesOf(sop);
  const steps: Step[] = [];
  const findings: Finding[] = [];
  const terminalsReached: string[] = [];
  const patterns = new Map(
    (sop.policies ?? []).flatMap((p) => (p.confirmation === null ? [] : [[p.id, compile(p.confirmation)] as const])),
  );
  const seesDialogue = conversation.format === 'messages';
  // A gateway's audit log holds the domain calls and how each was confirmed (no dialogue, but the gateway asked).
  const seesDomainCalls = seesDialogue || conversation.domainCalls === true;
  // The gateway's rules on moves need what the calls answered: a transcript that shows its calls and keeps answers.
  const events = conversation.events;
  const domainCalls =
    seesDomainCalls && events.some((e) => e.kind === 'call' && rules.tools.has(e.tool) && (e.result !== undefined || e.failed === true));
  const fresh = (): Replayed => ({ state: EMPTY_RUN_STATE, enteredAt: new Map(), used: new Set() });
  let run = fresh();

  if (conversation.run !== undefined && conversation.run.sourceHash !== sop.sourceHash) {
    findings.push({
      severity: 'warning',
      rule: 'version_mismatch',
      step: null,
      node: null,
      message: `the run was pinned to ${conversation.run.sourceHash}; it is checked against the compiled ${sop.sourceHash}`,
      at: null,
    });
  }

  for (const [index, event] of events.entries()) {
    if (event.kind !== 'call') continue;
    const current = run.state.path.at(-1) ?? null;
    const stepFindings: Finding[] = [];
    const flag = (rule: FindingRule, message: string, extra: { policy?: string; severity?: 'error' | 'warning' } = {}): void => {
      stepFindings.push({
        severity: extra.severity ?? 'error',
        rule,
        ...(extra.policy === undefined ? {} : { policy: extra.policy }),
        step: steps.length + 1,
        node: current,
        message,
        at: event.place,
      });
    };
    const entered = (target: string): void => {
      run.enteredAt = rewound(run.enteredAt, run.state.path);
      run.enteredAt.set(target, index);
      if (rules.terminals.has(target)) terminalsReached.push(target);
    };
    const broken = (target: string, policies: readonly CompiledPolicy[]): void => {
      for (const policy of policies) {
        flag('policy', `${target} entered by ${run.state.path.join(' > ')}, which passes none of ${list(policy.passes)}${about(policy)}`, {
          policy: policy.id,
          severity: policy.severity,
        });
      }
    };

    if (event.tool === 'load_graph') {
      const other = otherAgent(sop, event);
      if (other !== null)
        findings.push({ severity: 'error', rule: 'other_agent', step: null, node: current, message: other, at: event.place });
      run = fresh();
      continue;
    }
    if (event.tool === 'todo') {
      // As the server: a list it would refuse (a bad shape, a completion node that is not terminal) changes nothing.
      const parsed = todoInput.safeParse(event.args);
      if (parsed.success) run.state = writeTodos(rules, run.state, parsed.data.todos).state;
      continue;
    }
    if (event.tool === 'inspect') continue;

    if (event.tool === 'goto_node' && event.inferred === true) {
      const target = String(event.args?.node_id);
      const { decision, state } = decideMove(rules, run.state, target, undefined, { domainCalls: false });
      if (decision.kind === 'moved') {
        run.state = state;
        entered(decision.node);
        broken(decision.node, decision.broken);
      } else {
        const limit = sop.transitions.limits?.[target];
        flag(
          'visit_limit',
          `${target} entered from ${current ?? 'the start'} past its ${limit?.max ?? '?'} visits (max_visits); the SOP escalates to ${limit?.escalation ?? '?'}`,
        );
        run.state = forceMove(rules, run.state, target);
        entered(target);
        broken(target, brokenOn(rules, run.state.path, target));
      }
      findings.push(...stepFindings);
      continue;
    }
    if (event.tool === 'goto_node') {
      const named = typeof event.args?.node_id === 'string' ? event.args.node_id : null;
      let to = current;
      let target = '(none)';
      if (named === null)
        flag('illegal_move', `goto_node without a node_id${event.argsProblem === undefined ? '' : ` (${event.argsProblem})`}`);
      else {
        const outcome = event.args?.outcome === 'failed' ? 'failed' : 'passed';
        const { decision, state } = decideMove(rules, run.state, named, outcome, { domainCalls });
        target = decision.kind === 'unknown-node' ? named : resolvedOf(rules, run.state, named);
        const recorded = event.recorded?.valid;
        let accepted = false;
        let plainAccepted = false;
        if (decision.kind === 'moved') {
          run.state = state;
          accepted = plainAccepted = true;
          to = decision.node;
          entered(decision.node);
          broken(decision.node, decision.broken);
        } else if (decision.kind === 'refused' && decision.plain !== undefined) {
          plainAccepted = true;
          flag(decision.rule === 'evidence' ? 'skipped_required' : 'against_data', `goto_node ${target}: ${decision.error}`);
          // The transcript says whether the move happened: a gateway held it, a server without one made it.
          if (recorded !== false) {
            run.state = applyMove(rules, run.state, decision.plain, [], { domainCalls });
            to = run.state.path.at(-1) ?? target;
            entered(to);
            broken(to, brokenOn(rules, run.state.path, to));
          }
        } else if (decision.kind === 'refused' && decision.rule === 'visit-limit') {
          const limit = entryOf(sop.transitions.limits, target);
          const max = limit?.max ?? 0;
          flag(
            'visit_limit',
            `goto_node ${target} from ${current ?? 'the start'}: ${target} has used up its ${max} visit${max === 1 ? '' : 's'} (max_visits); the SOP escalates to ${limit?.escalation ?? '?'}`,
          );
        } else {
          const known = decision.kind !== 'unknown-node';
          const valid = legalTargets(sop.transitions, run.state.path, run.state.visits, run.state.forks).join(', ');
          flag(
            'illegal_move',
            `goto_node ${target} from ${current ?? 'the start'}: ${known ? 'not a legal move' : 'not a node of the SOP'}; legal: ${valid}`,
          );
        }
        if (recorded !== undefined && recorded !== accepted && recorded !== plainAccepted) {
          flag(
            'recorded_answer_differs',
            `the transcript records goto_node ${target} as ${recorded ? 'accepted' : 'refused'}; this SOP ${accepted ? 'accepts' : 'refuses'} it`,
            { severity: 'warning' },
          );
        }
      }
      steps.push(stepOf(steps.length + 1, event, 'move', target, current, to, stepFindings));
      findings.push(...stepFindings);
      continue;
    }

    checkDomainCall(rules, run, events, index, event, patterns, seesDialogue, flag);
    if (domainCalls || seesDomainCalls) {
      const at = run.state.path;
      run.state = recordAnswer(rules, run.state, event.tool, event.args, at.length === 0 ? [''] : at, outcomeOf(event)).state;
    }
    steps.push(stepOf(steps.length + 1, event, 'call', event.tool, current, current, stepFindings));
    findings.push(...stepFindings);
  }

  const last = run.state.path.at(-1) ?? null;
  const terminal = last !== null && rules.terminals.has(last) ? last : null;
  if (terminal === null) {
    findings.push({
      severity: 'error',
      rule: 'unfinished',
      step: null,
      node: last,
      message:
        last === null
          ? inferred
            ? 'the conversation never entered the SOP (no goto_node, no call of its tools)'
            : 'the conversation never moved into the SOP (no accepted goto_node)'
          : `the conversation ends at ${last}${inferred ? ' (inferred)' : ''}, not at a terminal node`,
      at: null,
    });
  }
  const open = run.state.todos.filter((todo) => todo.status !== 'completed');
  if (open.length > 0) {
    findings.push({
      severity: 'warning',
      rule: 'open_todos',
      step: null,
      node: last,
      message: `${open.length} todo${open.length === 1 ? '' : 's'} not completed at the end: ${open.map((todo) => JSON.stringify(String(todo.content ?? ''))).join(', ')}`,
      at: null,
    });
  }
  return {
    steps,
    findings,
    finalPath: run.state.path,
    terminal,
    terminalsReached,
    checked: { moves: !inferred, domainTools: seesDomainCalls, confirmations: seesDomainCalls },
  };
}

/** The finding of the step function's rule that refused a call. */
const CALL_FINDINGS: Readonly<Record<CallRule, FindingRule>> = {
  'no-position': 'tool_not_allowed',
  'not-in-sop': 'tool_not_allowed',
  'node-tools': 'tool_not_allowed',
  policy: 'policy',
  evidence: 'unproven_entity',
  data: 'unproven_entity',
  'unknown-outcome': 'unsettled_change',
  confirmation: 'unconfirmed_call',
};

/**
 * A domain call, decided by the step function as the gateway decides it; the user's yes is what the conversation
 * shows: the answer at the confirmation step (chat), the audit's record of it (a gateway's log), or nothing to judge.
 */
function checkDomainCall(
  rules: RunRules,
  run: Replayed,
  events: readonly ConversationEvent[],
  index: number,
  event: ToolCallEvent,
  patterns: ReadonlyMap<string, RegExp | string>,
  seesDialogue: boolean,
  flag: (rule: FindingRule, message: string, extra?: { policy?: string; severity?: 'error' | 'warning' }) => void,
): void {
  const tool = event.tool;
  const current = run.state.path.at(-1);
  const confirmation = (): ConfirmationInput => {
    const guard = rules.confirmations.get(tool)?.[0];
    if (guard === undefined) return { kind: 'unseen' };
    if (!seesDialogue) {
      // A gateway's audit log: the gateway asked the user (or used the confirmation step) before sending it.
      if (event.confirmed === 'no') return { kind: 'observed', yes: false, why: ` at ${current}: the user said no when the gateway asked` };
      if (event.confirmed !== undefined) return { kind: 'observed', yes: true };
      return event.failed === true
        ? { kind: 'unseen' }
        : { kind: 'observed', yes: false, why: ` at ${current}: the audit log records no confirmation of it` };
    }
    const pattern = patterns.get(guard.policy);
    if (typeof pattern === 'string')
      return { kind: 'observed', yes: false, why: `: the policy's confirmation pattern does not compile (${pattern})` };
    const step = [...run.state.path].reverse().find((node) => guard.steps.includes(node));
    if (pattern === undefined || step === undefined) return { kind: 'unseen' };
    const verdict = checkConfirmation({ events, call: index, step, enteredAt: run.enteredAt.get(step) ?? -1, pattern, used: run.used });
    if (!verdict.ok) return { kind: 'observed', yes: false, why: ` at ${current}: ${verdict.message}` };
    run.used.add(verdict.answer);
    return { kind: 'observed', yes: true };
  };
  const args = event.args ?? {};
  const held = callRefusals(rules, run.state, tool, args);
  const policyOf = (id: string | undefined) => (id === undefined ? undefined : (rules.sop.policies ?? []).find((p) => p.id === id));
  for (const refusal of held) {
    const policy = policyOf(refusal.policy);
    const extra = policy === undefined ? {} : { policy: policy.id, severity: policy.severity };
    const rule = refusal.rule === 'policy' && policy?.confirmation != null ? 'unconfirmed_call' : CALL_FINDINGS[refusal.rule];
    flag(rule, messageOf(rules, refusal.rule, tool, run.state.path, refusal.error, policy), extra);
  }
  if (held.length > 0) return;
  const { decision, state } = decideCall(rules, run.state, tool, args, confirmation());
  run.state = state;
  if (decision.kind !== 'refuse') return;
  const policy = policyOf(decision.policy);
  flag('unconfirmed_call', messageOf(rules, decision.rule, tool, run.state.path, decision.refusal.error, policy), {
    ...(policy === undefined ? {} : { policy: policy.id, severity: policy.severity }),
  });
}

/** A refusal as the report says it: the checks' own wording for the node and policy rules, the step function's otherwise. */
function messageOf(
  rules: RunRules,
  rule: CallRule,
  tool: string,
  path: readonly string[],
  error: string,
  policy: CompiledPolicy | undefined,
): string {
  const sop = rules.sop;
  const current = path.at(-1);
  if (rule === 'not-in-sop') return `${tool} is not a tool of this SOP (its tools: ${list(sop.tools)})`;
  if (rule === 'no-position') return `${tool} called before the first move into the SOP`;
  if (rule === 'node-tools') {
    const allowed = current === undefined ? [] : [...(rules.toolsAt.get(current) ?? [])];
    return `${tool} called at ${current}, which allows ${allowed.length === 0 ? 'no tools' : list(allowed)}`;
  }
  if (rule === 'policy' && policy !== undefined) {
    const where = path.length === 0 ? 'before any move' : `on the path ${path.join(' > ')}`;
    return `${tool} called ${where}, which passes none of ${list(policy.passes)}${about(policy)}`;
  }
  if (rule === 'confirmation') return `${error}${policy === undefined ? '' : about(policy)}`;
  return policy === undefined ? error : `${tool}: ${error}${about(policy)}`;
}

/** The rules of a SOP, made once per SOP object (a batch replays many transcripts of one). */
const rulesBySop = new WeakMap<CompiledSop, RunRules>();
function rulesOf(sop: CompiledSop): RunRules {
  let rules = rulesBySop.get(sop);
  if (rules === undefined) {
    rules = runRules(sop);
    rulesBySop.set(sop, rules);
  }
  return rules;
}

function resolvedOf(rules: RunRules, state: RunState, named: string): string {
  return resolveTarget(rules, state.path, named);
}

/** Policies guarding `node` with none of their `passes` on `path`. */
function brokenOn(rules: RunRules, path: readonly string[], node: string): readonly CompiledPolicy[] {
  return (rules.policiesOfNode.get(node) ?? []).filter((policy) => !passesOnPath(rules.sop.transitions, policy.passes, path));
}

/** Keeps the entry times of the nodes still on the path (a rewind or restart forgets the others). */
function rewound(enteredAt: Map<string, number>, path: readonly string[]): Map<string, number> {
  const kept = new Map<string, number>();
  for (const node of path) if (enteredAt.has(node)) kept.set(node, enteredAt.get(node)!);
  return kept;
}

function stepOf(
  step: number,
  event: ToolCallEvent,
  kind: Step['kind'],
  name: string,
  from: string | null,
  to: string | null,
  findings: readonly Finding[],
): Step {
  const errors = findings.filter((f) => f.severity === 'error');
  return { step, at: event.place, kind, name, from, to, ok: errors.length === 0, rules: [...new Set(findings.map((f) => f.rule))] };
}

/** A load_graph for another agent than the one checked, as a message; null when it is this one. */
function otherAgent(sop: CompiledSop, event: ToolCallEvent): string | null {
  const agent = event.args?.agent;
  if (typeof agent === 'string' && agent !== sop.meta.agent) return `load_graph starts ${agent}; this replay checks ${sop.meta.agent}`;
  const file = event.args?.sop_file;
  if (typeof file === 'string' && !sameSource(file, sop.sourceFile))
    return `load_graph starts ${file}; this replay checks ${sop.sourceFile}`;
  return null;
}

function sameSource(given: string, sourceFile: string): boolean {
  const normal = given.replaceAll('\\', '/').replace(/^\.\//, '');
  return normal === sourceFile || sourceFile.endsWith(`/${normal}`) || normal.endsWith(`/${sourceFile}`);
}

function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    return (error as Error).message;
  }
}

function about(policy: CompiledPolicy): string {
  return ` (policy ${policy.id}${policy.description === null ? '' : `: ${policy.description}`})`;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.join(', ');
}
