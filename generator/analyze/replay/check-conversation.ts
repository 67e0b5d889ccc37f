/**
 * Checks a finished conversation against a compiled SOP, event by event, with the same rule the server decides
 * moves with (`contract/transitions.ts`, visit limits included). Every `goto_node` call and every domain tool call
 * is a step; a step is compliant when it breaks no rule:
 *   - `illegal_move`: a move the transition rule refuses (the state stays, as on the server);
 *   - `visit_limit`: a move into a node that has used up its `max_visits` (the agent should have escalated);
 *   - `tool_not_allowed`: a domain tool called where the current node does not list it (`TOOLS_BY_NODE`), before
 *     the first move, or not a tool of the SOP at all;
 *   - `policy`: a move into a node a policy guards, or a call of a tool it names, with none of its `passes` nodes
 *     on the run's path;
 *   - `unconfirmed_call`: a call a confirmation policy guards without the user's confirmation at the step.
 * Outside the steps: the conversation must end on a terminal node (`unfinished`), todos left open are reported,
 * and so is an answer recorded in the transcript that differs from the rule's (another SOP version, or a server
 * that did not enforce it). `load_graph` starts a fresh run; `todo` writes the list (unless the server would refuse
 * it); `inspect` changes nothing.
 *
 * A conversation without goto_node calls is checked along the walk the conformance check inferred
 * (`../conformance/conformance.ts`): its moves are written in as `inferred` goto_node calls, which move the run
 * like accepted ones (past a visit limit too, when the walk went there: `visit_limit`) but are not steps.
 */
import type { CompiledPolicy, CompiledSop } from '../../../contract/compiled-sop.js';
import { passesOnPath } from '../../../contract/composition.js';
import { decideMoveIntoCalls, resolveInFrame } from '../../../contract/frames.js';
import { entryOf } from '../../../contract/name-table.js';
import {
  countVisit,
  decideMove,
  enterPath,
  type ForkProgress,
  legalTargets,
  limitedNodes,
  NO_FORKS,
  NO_VISITS,
  type Visits,
} from '../../../contract/transitions.js';
import { todoInput } from '../../../runtime/tools/todo.js';
import { checkConfirmation } from './confirmation.js';
import type { Conversation, ConversationEvent, EventPlace, ToolCallEvent } from './conversation.js';

export const TOOLKIT_TOOLS = ['load_graph', 'goto_node', 'todo', 'inspect'] as const;

export type FindingRule =
  | 'illegal_move'
  | 'visit_limit'
  | 'tool_not_allowed'
  | 'policy'
  | 'unconfirmed_call'
  | 'unfinished'
  | 'open_todos'
  | 'other_agent'
  | 'recorded_answer_differs'
  | 'version_mismatch'
  | 'skipped_required'
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

interface RunState {
  path: readonly string[];
  visits: Visits;
  /** The fork records, as the server keeps them (declared moves only: an inferred walk is a plain walk). */
  forks: readonly ForkProgress[];
  todos: readonly { readonly content?: unknown; readonly status?: unknown; readonly completion_node?: unknown }[];
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
  const steps: Step[] = [];
  const findings: Finding[] = [];
  const terminals = new Set(sop.terminalNodes);
  const terminalsReached: string[] = [];
  const policies = sop.policies ?? [];
  const patterns = new Map(policies.flatMap((p) => (p.confirmation === null ? [] : [[p.id, compile(p.confirmation)] as const])));
  const seesDialogue = conversation.format === 'messages';
  // A gateway's audit log holds the domain calls and how each was confirmed (no dialogue, but the gateway asked).
  const seesDomainCalls = seesDialogue || conversation.domainCalls === true;
  const fresh = (): RunState => ({ path: [], visits: NO_VISITS, forks: NO_FORKS, todos: [], enteredAt: new Map(), used: new Set() });
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

  const events = conversation.events;
  for (const [index, event] of events.entries()) {
    if (event.kind !== 'call') continue;
    const current = run.path.at(-1) ?? null;
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

    if (event.tool === 'load_graph') {
      const other = otherAgent(sop, event);
      if (other !== null)
        findings.push({ severity: 'error', rule: 'other_agent', step: null, node: current, message: other, at: event.place });
      run = fresh();
      continue;
    }
    if (event.tool === 'todo') {
      // As the server: a list it would refuse (a bad status, a completion node that is not terminal) changes nothing.
      const parsed = todoInput.safeParse(event.args);
      if (parsed.success && parsed.data.todos.every((t) => t.completion_node === undefined || terminals.has(t.completion_node)))
        run.todos = parsed.data.todos;
      continue;
    }
    if (event.tool === 'inspect') continue;

    if (event.tool === 'goto_node' && event.inferred === true) {
      const target = String(event.args?.node_id);
      const verdict = decideMove(sop.transitions, run.path, target, run.visits);
      if (verdict.ok) {
        run.path = verdict.path;
        run.visits = verdict.visits;
      } else {
        const limit = sop.transitions.limits?.[target];
        flag(
          'visit_limit',
          `${target} entered from ${current ?? 'the start'} past its ${limit?.max ?? '?'} visits (max_visits); the SOP escalates to ${limit?.escalation ?? '?'}`,
        );
        run.path = enterPath(run.path, target, sop.transitions.entry);
        run.visits = countVisit(run.visits, target, limitedNodes(sop.transitions));
      }
      run.enteredAt.set(target, index);
      if (terminals.has(target)) terminalsReached.push(target);
      for (const policy of policies) {
        if (policy.guards.includes(target) && !passes(sop, policy, run.path)) {
          flag('policy', `${target} entered by ${run.path.join(' > ')}, which passes none of ${list(policy.passes)}${about(policy)}`, {
            policy: policy.id,
            severity: policy.severity,
          });
        }
      }
      findings.push(...stepFindings);
      continue;
    }
    if (event.tool === 'goto_node') {
      const named = typeof event.args?.node_id === 'string' ? event.args.node_id : null;
      const target = named === null ? null : inFrame(sop, run.path, named);
      let to = current;
      if (target === null)
        flag('illegal_move', `goto_node without a node_id${event.argsProblem === undefined ? '' : ` (${event.argsProblem})`}`);
      else {
        const outcome = event.args?.outcome === 'failed' ? 'failed' : 'passed';
        const callEntry = (node: string) => entryOf(sop.calls, node)?.entry;
        const verdict = decideMoveIntoCalls(sop.transitions, run.path, target, callEntry, run.visits, run.forks, outcome);
        if (verdict.ok) {
          run.path = verdict.path;
          run.visits = verdict.visits;
          run.forks = verdict.forks ?? NO_FORKS;
          run.enteredAt.set(target, index);
          to = verdict.path.at(-1) ?? target;
          if (terminals.has(target)) terminalsReached.push(target);
          for (const policy of policies) {
            if (policy.guards.includes(target) && !passes(sop, policy, run.path)) {
              flag('policy', `${target} entered by ${run.path.join(' > ')}, which passes none of ${list(policy.passes)}${about(policy)}`, {
                policy: policy.id,
                severity: policy.severity,
              });
            }
          }
        } else if (verdict.reason === 'visit-limit') {
          flag(
            'visit_limit',
            `goto_node ${target} from ${current ?? 'the start'}: ${target} has used up its ${verdict.max} visit${verdict.max === 1 ? '' : 's'} (max_visits); the SOP escalates to ${verdict.escalation}`,
          );
        } else {
          const known = Object.hasOwn(sop.transitions.successors, target);
          const valid = legalTargets(sop.transitions, run.path, run.visits, run.forks).join(', ');
          flag(
            'illegal_move',
            `goto_node ${target} from ${current ?? 'the start'}: ${known ? 'not a legal move' : 'not a node of the SOP'}; legal: ${valid}`,
          );
        }
        const recorded = event.recorded?.valid;
        if (recorded !== undefined && recorded !== verdict.ok) {
          flag(
            'recorded_answer_differs',
            `the transcript records goto_node ${target} as ${recorded ? 'accepted' : 'refused'}; this SOP ${verdict.ok ? 'accepts' : 'refuses'} it`,
            { severity: 'warning' },
          );
        }
      }
      steps.push(stepOf(steps.length + 1, event, 'move', target ?? '(none)', current, to, stepFindings));
      findings.push(...stepFindings);
      continue;
    }

    checkDomainCall(sop, run, events, index, event, patterns, seesDialogue, flag);
    steps.push(stepOf(steps.length + 1, event, 'call', event.tool, current, current, stepFindings));
    findings.push(...stepFindings);
  }

  const last = run.path.at(-1) ?? null;
  const terminal = last !== null && terminals.has(last) ? last : null;
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
  const open = run.todos.filter((todo) => todo.status !== 'completed');
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
    finalPath: run.path,
    terminal,
    terminalsReached,
    checked: { moves: !inferred, domainTools: seesDomainCalls, confirmations: seesDomainCalls },
  };
}

function checkDomainCall(
  sop: CompiledSop,
  run: RunState,
  events: readonly ConversationEvent[],
  index: number,
  event: ToolCallEvent,
  patterns: ReadonlyMap<string, RegExp | string>,
  seesDialogue: boolean,
  flag: (rule: FindingRule, message: string, extra?: { policy?: string; severity?: 'error' | 'warning' }) => void,
): void {
  const current = run.path.at(-1);
  const tool = event.tool;
  if (!sop.tools.includes(tool)) flag('tool_not_allowed', `${tool} is not a tool of this SOP (its tools: ${list(sop.tools)})`);
  else if (current === undefined) flag('tool_not_allowed', `${tool} called before the first move into the SOP`);
  else {
    const allowed = sop.toolsByNode[current] ?? [];
    if (!allowed.includes(tool))
      flag('tool_not_allowed', `${tool} called at ${current}, which allows ${allowed.length === 0 ? 'no tools' : list(allowed)}`);
  }
  for (const policy of sop.policies ?? []) {
    if (!policy.tools.includes(tool)) continue;
    const extra = { policy: policy.id, severity: policy.severity };
    if (!passes(sop, policy, run.path)) {
      const path = run.path.length === 0 ? 'before any move' : `on the path ${run.path.join(' > ')}`;
      flag(
        policy.confirmation === null ? 'policy' : 'unconfirmed_call',
        `${tool} called ${path}, which passes none of ${list(policy.passes)}${about(policy)}`,
        extra,
      );
      continue;
    }
    const pattern = patterns.get(policy.id);
    if (pattern === undefined) continue;
    if (!seesDialogue) {
      // A gateway's audit log: the gateway asked the user (or used the confirmation step) before sending it.
      if (event.confirmed === undefined && event.failed !== true)
        flag('unconfirmed_call', `${tool} at ${current}: the audit log records no confirmation of it${about(policy)}`, extra);
      continue;
    }
    if (typeof pattern === 'string') {
      flag('unconfirmed_call', `${tool}: the policy's confirmation pattern does not compile (${pattern})`, extra);
      continue;
    }
    const step = [...run.path].reverse().find((node) => policy.passes.includes(node))!;
    const verdict = checkConfirmation({ events, call: index, step, enteredAt: run.enteredAt.get(step) ?? -1, pattern, used: run.used });
    if (verdict.ok) run.used.add(verdict.answer);
    else flag('unconfirmed_call', `${tool} at ${current}: ${verdict.message}${about(policy)}`, extra);
  }
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

/** Whether the path (the guarded node included) has one of the policy's `passes` nodes. */
function passes(sop: CompiledSop, policy: CompiledPolicy, path: readonly string[]): boolean {
  return passesOnPath(sop.transitions, policy.passes, path);
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

/** The node a `goto_node` names, as the server reads it: itself when a node, else the id in the frame the run is in. */
function inFrame(sop: CompiledSop, path: readonly string[], named: string): string {
  return resolveInFrame(named, path.at(-1), (id) => Object.hasOwn(sop.transitions.successors, id));
}
