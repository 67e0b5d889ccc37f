/**
 * The rules a draft states because (nearly) every conversation kept them, so that `sop replay` and the gateway hold
 * the agent to what it already does: each in at least 1 − `noise` of the cases it applies to.
 *
 *   - AUTH requires evidence (`evidence: true`) when the opening's lookup found someone in nearly every conversation:
 *     the gateway then lets no run go on from AUTH before a lookup found the user;
 *   - a read step requires evidence about an entity (`evidence: {tools, about: order_id}`) when the changes after it
 *     nearly always named a value of that argument a read had named first (read order A, then change order A): a
 *     change of an order never read is then an `unproven_entity`;
 *   - the move from such a read step to its change needs the data the change was nearly always made on (`when:
 *     {CANCEL_PENDING_ORDER: get_order_details.status == "pending"}`): a text or boolean field of the read's last
 *     answer about the entity, one that takes other values elsewhere, with the same value before nearly every call of
 *     the change (three at least), a value seen on two entities at least (several orders pending, not one order
 *     cancelled again and again); never a field that identifies the entity (`order_id`, `id`, a value the read's
 *     call named: `answer-fields.ts`): a change against what the read showed is then `against_data`;
 *   - `confirm_before_changes`: the changes the user nearly always said "yes" to right before (the agent asked, the
 *     user's last message was an explicit yes) need that yes at their step;
 *   - `changes_at_their_steps`: the other changes are made only at their own steps. Both make the changes known as
 *     changes, which the alignment's rules for them read (a change repeated after one of unknown outcome).
 */
import type { DraftGraph } from './draft-graph.js';
import { ENTITIES_KEPT, type FieldsBefore } from './answer-fields.js';
import { FOUND, type ObservedConversation, UNSEEN } from './observed-log.js';

export interface DraftEvidence {
  readonly tools: readonly string[];
  /** The argument the evidence is about, or null (any call of the tools that found something). */
  readonly about: string | null;
  /** Why, for the report and the prompt: `found the user in 98% of 1,000 conversations`. */
  readonly because: string;
}

export interface DraftPolicy {
  readonly id: string;
  readonly description: string;
  readonly tools: readonly string[];
  readonly passes: readonly string[];
  readonly confirmation: boolean;
}

/** A move decided by data: from a read step to its change, `when` the read showed this. */
export interface DraftCondition {
  readonly target: string;
  /** As the SOP writes it: `get_order_details.status == "pending"`. */
  readonly text: string;
  readonly because: string;
}

export interface DraftRules {
  readonly evidence: ReadonlyMap<string, DraftEvidence>;
  /** Per read step, the condition of its move to its change. */
  readonly conditions: ReadonlyMap<string, DraftCondition>;
  readonly policies: readonly DraftPolicy[];
}

/** What the rules are mined from: the conversations mined, the tools' names, and which reads take which argument. */
export interface RuleSource {
  readonly conversations: readonly ObservedConversation[];
  readonly tools: readonly string[];
  readonly readArguments: ReadonlyMap<string, ReadonlySet<string>>;
  readonly fieldValues: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  readonly before: ReadonlyMap<string, ReadonlyMap<string, FieldsBefore>>;
  /** Count the fields before the changes of successes only (the conversations mined are the successes). */
  readonly successesOnly: boolean;
}

export function draftRules(graph: DraftGraph, log: RuleSource, openingEnds: Int32Array, noise: number): DraftRules {
  const evidence = new Map<string, DraftEvidence>();
  const auth = graph.nodes.find((node) => node.id === 'AUTH' && node.intent === 'opening');
  if (auth !== undefined) {
    const tools = new Set(auth.tools);
    let opened = 0;
    let found = 0;
    for (const [i, c] of log.conversations.entries()) {
      if (openingEnds[i] === 0) continue;
      opened += 1;
      for (let k = 0; k < openingEnds[i]!; k++) {
        if (tools.has(c.calls[k]!) && (c.outcome[k] === FOUND || c.outcome[k] === UNSEEN)) {
          found += 1;
          break;
        }
      }
    }
    if (opened > 0 && found >= (1 - noise) * opened)
      evidence.set('AUTH', {
        tools: auth.tools.map((t) => log.tools[t]!),
        about: null,
        because: `a lookup found someone in ${percent(found, opened)} of the ${opened} conversations that looked someone up`,
      });
  }

  // An entity of each change: the argument whose value a read named first in nearly all of its calls.
  const counts = new Map<string, Map<string, { calls: number; matched: number }>>();
  for (const c of log.conversations)
    for (const [k, { names, readFirst }] of c.named ?? []) {
      const byName = counts.get(log.tools[c.calls[k]!]!) ?? new Map<string, { calls: number; matched: number }>();
      for (const name of names) {
        const count = byName.get(name) ?? { calls: 0, matched: 0 };
        count.calls += 1;
        if (readFirst.includes(name)) count.matched += 1;
        byName.set(name, count);
      }
      counts.set(log.tools[c.calls[k]!]!, byName);
    }
  const entityOf = new Map<string, { name: string; share: string }>();
  for (const [change, byName] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let best: { name: string; matched: number; calls: number } | undefined;
    for (const [name, count] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      if (count.calls >= 2 && count.matched >= (1 - noise) * count.calls && (best === undefined || count.matched > best.matched))
        best = { name, ...count };
    if (best !== undefined) entityOf.set(change, { name: best.name, share: `${percent(best.matched, best.calls)} of ${best.calls}` });
  }
  const intentChanges = new Map<number | 'opening' | null, Set<string>>();
  for (const node of graph.nodes)
    if (node.change)
      for (const t of node.tools) intentChanges.set(node.intent, (intentChanges.get(node.intent) ?? new Set()).add(log.tools[t]!));
  for (const node of graph.nodes) {
    if (node.shape !== 'step' || node.change || node.intent === 'opening' || evidence.has(node.id)) continue;
    for (const change of [...(intentChanges.get(node.intent) ?? [])].sort()) {
      const entity = entityOf.get(change);
      if (entity === undefined) continue;
      const readers = log.readArguments.get(entity.name) ?? new Set<string>();
      const tools = node.tools.map((t) => log.tools[t]!).filter((tool) => readers.has(tool));
      if (tools.length === 0) continue;
      evidence.set(node.id, {
        tools,
        about: entity.name,
        because: `${change} named the ${entity.name} a read had named first in ${entity.share} calls`,
      });
      break;
    }
  }

  const conditions = new Map<string, DraftCondition>();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const [node, e] of evidence) {
    if (e.about === null) continue;
    for (const edge of graph.edges.filter((edge) => edge.from === node)) {
      const target = byId.get(edge.to);
      if (target?.change !== true) continue;
      const condition = dataCondition(
        log,
        target.tools.map((t) => log.tools[t]!),
        e.tools,
        noise,
      );
      if (condition !== undefined) conditions.set(node, { target: target.id, ...condition });
      break;
    }
  }

  const confirmed: string[] = [];
  const unconfirmed: string[] = [];
  const answers = new Map<number, { calls: number; yes: number }>();
  for (const c of log.conversations)
    for (let k = 0; k < c.calls.length; k++) {
      const count = answers.get(c.calls[k]!) ?? { calls: 0, yes: 0 };
      count.calls += 1;
      count.yes += c.confirmed[k]!;
      answers.set(c.calls[k]!, count);
    }
  const changeTools = [...new Set(graph.nodes.filter((n) => n.change).flatMap((n) => n.tools))].sort((a, b) => a - b);
  for (const tool of changeTools) {
    const count = answers.get(tool) ?? { calls: 0, yes: 0 };
    (count.calls > 0 && count.yes >= (1 - noise) * count.calls ? confirmed : unconfirmed).push(log.tools[tool]!);
  }
  const offering = (tools: readonly string[]): string[] =>
    graph.nodes.filter((n) => n.tools.some((t) => tools.includes(log.tools[t]!))).map((n) => n.id);
  const policies: DraftPolicy[] = [];
  if (confirmed.length > 0)
    policies.push({
      id: 'confirm_before_changes',
      description: 'Every change waits for the user’s explicit yes at its step, as the logs show it nearly always did.',
      tools: confirmed,
      passes: offering(confirmed),
      confirmation: true,
    });
  if (unconfirmed.length > 0)
    policies.push({
      id: 'changes_at_their_steps',
      description: 'Changes are made only at their own steps.',
      tools: unconfirmed,
      passes: offering(unconfirmed),
      confirmation: false,
    });
  return { evidence, conditions, policies };
}

/** Names a condition can hold as they are (no dots, spaces, operators or quotes). */
const PLAIN_NAME = /^[A-Za-z0-9_-]+$/;

/** The field of a read's answer the changes were nearly always made on, as a condition; undefined when none. */
function dataCondition(
  log: RuleSource,
  changes: readonly string[],
  reads: readonly string[],
  noise: number,
): Omit<DraftCondition, 'target'> | undefined {
  let best: { text: string; count: number; calls: number; change: string } | undefined;
  for (const change of changes)
    for (const read of reads) {
      const stats = log.before.get(change)?.get(read);
      if (stats === undefined || !PLAIN_NAME.test(read)) continue;
      const calls = log.successesOnly ? stats.calls[0] : stats.calls[0] + stats.calls[1];
      if (calls < 3) continue;
      for (const [field, values] of [...stats.fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (!PLAIN_NAME.test(field) || (log.fieldValues.get(read)?.get(field)?.size ?? 0) < 2) continue;
        for (const [value, seen] of values) {
          const [successes, others] = seen.calls;
          const count = log.successesOnly ? successes : successes + others;
          const entities = log.successesOnly ? seen.entities[0].size : new Set([...seen.entities[0], ...seen.entities[1]]).size;
          if (entities < ENTITIES_KEPT) continue;
          if (count >= (1 - noise) * calls && (best === undefined || count > best.count))
            best = { text: `${read}.${field} == ${value}`, count, calls, change };
        }
      }
    }
  return best === undefined
    ? undefined
    : { text: best.text, because: `${best.change} followed ${best.text} in ${percent(best.count, best.calls)} of ${best.calls} calls` };
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${Math.round((1000 * part) / whole) / 10}%`;
}
