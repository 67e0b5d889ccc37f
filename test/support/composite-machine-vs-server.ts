/**
 * Checks a generated machine that has sub-flows or forks against the server's rule on the SOP's expansion
 * (`contract/composition.ts`, `decideMove`), for tests. The machine is live (its sub-flow nodes run child actors),
 * so it is driven as an app would drive it: every configuration the server can reach (path, visits, fork records)
 * is reached by replaying its moves on a fresh actor, and from there every node of the expansion is tried (a
 * join with each outcome): the machine must allow exactly the moves the server allows (`snapshot.can`), and after
 * each one stand where the server stands: the same path (the caller's path, then the child's, qualified), the same
 * visit counts (the child's, and those kept of earlier calls) and the same fork records.
 *
 * A server move into a sub-flow node enters the called SOP's entry node too, as `goto_node` does; the machine does it
 * by spawning the child at its entry node. Returns the problems as readable lines (empty when the two agree).
 */
import { createActor, type AnyActorRef, type AnyStateMachine } from 'xstate';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { QUALIFIER, qualify } from '../../contract/composition.js';
import type { CallMemory } from '../../contract/machine-calls.js';
import { entryOf } from '../../contract/name-table.js';
import { decideMove, type ForkProgress, type Outcome, type Visits } from '../../contract/transitions.js';

export interface CompositeComparison {
  readonly problems: readonly string[];
  readonly configurations: number;
  readonly moves: number;
}

interface Move {
  readonly target: string;
  readonly outcome?: Outcome;
}

interface Configuration {
  readonly path: readonly string[];
  readonly visits: Visits;
  readonly forks: readonly ForkProgress[];
}

export function compareCompositeMachine(machine: AnyStateMachine, expanded: CompiledSop, maxConfigurations = 2000): CompositeComparison {
  const problems: string[] = [];
  const table = expanded.transitions;
  const isCall = (node: string) => entryOf(expanded.calls, node) !== undefined;
  const serverMove = (config: Configuration, move: Move): Configuration | null => {
    const verdict = decideMove(table, config.path, move.target, config.visits, config.forks, move.outcome);
    if (!verdict.ok) return null;
    const next: Configuration = { path: verdict.path, visits: verdict.visits, forks: verdict.forks ?? [] };
    if (!isCall(move.target)) return next;
    const entry = entryOf(expanded.calls, move.target)!.entry;
    return serverMove(next, { target: qualify(move.target, entry) });
  };
  const first = serverMove({ path: [], visits: {}, forks: [] }, { target: table.entry });
  if (first === null) return { problems: [`the entry node ${table.entry} is refused as the first move`], configurations: 0, moves: 0 };
  const seen = new Set([keyOf(first)]);
  const queue: { config: Configuration; moves: readonly Move[] }[] = [{ config: first, moves: [] }];
  let moves = 0;
  for (let item = queue.shift(); item !== undefined && seen.size <= maxConfigurations; item = queue.shift()) {
    const actor = replay(machine, item.moves);
    const here = project(actor);
    if (keyOf(here) !== keyOf(item.config)) {
      problems.push(`after ${describe(item.moves)}: the machine stands at ${show(here)}, the server at ${show(item.config)}`);
      actor.stop();
      continue;
    }
    const snapshot = actor.getSnapshot();
    for (const target of expanded.nodeIds) {
      const outcomes: (Outcome | undefined)[] = isJoin(expanded, target) ? ['passed', 'failed'] : [undefined];
      for (const outcome of outcomes) {
        moves += 1;
        const move: Move = outcome === undefined ? { target } : { target, outcome };
        const expected = serverMove(item.config, move);
        const allowed = snapshot.can(eventOf(move));
        const where = `from ${show(item.config)} to ${target}${outcome === undefined ? '' : ` (${outcome})`}`;
        if (allowed !== (expected !== null)) {
          problems.push(
            `${where}: the machine ${allowed ? 'allows' : 'refuses'} it, the server ${expected === null ? 'refuses' : 'allows'} it`,
          );
          continue;
        }
        if (expected === null) continue;
        const key = keyOf(expected);
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push({ config: expected, moves: [...item.moves, move] });
      }
    }
    actor.stop();
  }
  return { problems, configurations: seen.size, moves };
}

function isJoin(sop: CompiledSop, node: string): boolean {
  return Object.values(sop.transitions.forks ?? {}).some((rule) => rule?.join === node);
}

function eventOf(move: Move): { type: string; outcome?: Outcome } {
  return move.outcome === undefined ? { type: `GOTO.${move.target}` } : { type: `GOTO.${move.target}`, outcome: move.outcome };
}

function replay(machine: AnyStateMachine, moves: readonly Move[]): AnyActorRef {
  const actor = createActor(machine).start();
  for (const move of moves) actor.send(eventOf(move));
  return actor;
}

interface Context {
  readonly path: readonly string[];
  readonly visits?: Visits;
  readonly forks?: readonly ForkProgress[];
  readonly calls?: { readonly [node: string]: CallMemory };
  readonly callee?: AnyActorRef | null;
}

/** Where a live machine stands, as the server would keep it: the frames' paths, visits and fork records, qualified. */
function project(actor: AnyActorRef, prefix = '', depth = 0): Configuration {
  const context = actor.getSnapshot().context as Context;
  const path = context.path.map((id) => prefix + id);
  const visits: Record<string, number> = {};
  const keep = (memory: CallMemory, at: string) => {
    for (const [node, count] of Object.entries(memory.visits ?? {})) visits[at + node] = count;
    for (const [call, inner] of Object.entries(memory.calls ?? {})) keep(inner, `${at}${call}${QUALIFIER}`);
  };
  for (const [node, count] of Object.entries(context.visits ?? {})) visits[prefix + node] = count;
  for (const [call, memory] of Object.entries(context.calls ?? {})) keep(memory, `${prefix}${call}${QUALIFIER}`);
  const forks = (context.forks ?? []).map((record) => qualified(record, prefix, depth));
  const callee = context.callee ?? null;
  if (callee === null) return { path, visits, forks };
  const call = String(actor.getSnapshot().value);
  const inner = project(callee, `${prefix}${call}${QUALIFIER}`, depth + path.length);
  return { path: [...path, ...inner.path], visits: { ...visits, ...inner.visits }, forks: [...forks, ...inner.forks] };
}

function qualified(record: ForkProgress, prefix: string, depth: number): ForkProgress {
  return {
    fork: prefix + record.fork,
    depth: record.depth + depth,
    done: record.done.map((d) => ({ branch: prefix + d.branch, outcome: d.outcome })),
    ...(record.outcome === undefined ? {} : { outcome: record.outcome }),
  };
}

function keyOf(config: Configuration): string {
  const visits = Object.entries(config.visits)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const forks = config.forks.map((r) => [r.fork, r.depth, r.done.map((d) => `${d.branch}:${d.outcome}`).join(','), r.outcome ?? '']);
  return JSON.stringify([config.path, visits, forks]);
}

function show(config: Configuration): string {
  const visits = Object.entries(config.visits)
    .filter(([, count]) => count > 0)
    .map(([node, count]) => `${node}=${count}`)
    .join(',');
  const forks = config.forks.map(
    (r) => `${r.fork}@${r.depth}[${r.done.map((d) => `${d.branch}:${d.outcome}`).join(',')}]${r.outcome ?? ''}`,
  );
  return `${config.path.join(' > ')}${visits === '' ? '' : ` {${visits}}`}${forks.length === 0 ? '' : ` ${forks.join(' ')}`}`;
}

function describe(moves: readonly Move[]): string {
  return moves.length === 0 ? 'the start' : moves.map((m) => m.target + (m.outcome === undefined ? '' : `(${m.outcome})`)).join(' → ');
}
