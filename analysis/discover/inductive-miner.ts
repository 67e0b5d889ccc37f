/**
 * The Inductive Miner, infrequent variant (IMf: Leemans, Fahland, van der Aalst, "Discovering Block-Structured
 * Process Models from Event Logs Containing Infrequent Behaviour", 2013): a process tree from an event log, sound by
 * construction, recursively:
 *
 *   1. base cases: no trace or only empty ones → tau; one activity → that activity (its repeats collapsed already);
 *      some empty traces → a choice with tau when they are at least `noise` of the log, else they are dropped;
 *   2. a cut of the directly-follows graph (`cuts.ts`: choice, sequence, parallel, loop, in that order), the log
 *      split along it (`split-log.ts`) and each part mined;
 *   3. no cut: the graph's infrequent edges, starts and ends filtered (`filterDfg`: below `noise` times the strongest
 *      of their activity) and the cuts tried again: the behaviour filtered is left out of the model;
 *   4. still none: a tau loop when the traces run through end → start activities (split there), else the flower
 *      (any of the activities, in any order).
 *
 * `noise` is IMf's threshold in [0, 1]: 0 keeps every behaviour seen (IM), 0.2 (the default) drops what is seen
 * in fewer than a fifth of the cases where it could have been. Deterministic: the log's variants are in a canonical
 * order and every tie is broken by activity id.
 */
import { choiceCut, loopCut, type Partition, parallelCut, sequenceCut } from './cuts.js';
import { type Dfg, dfgOf, eventLog, type EventLog, filterDfg, weightOf } from './event-log.js';
import { activity, choice, loop, parallel, type ProcessTree, sequence, tau } from './process-tree.js';
import { splitChoice, splitLoop, splitParallel, splitSequence } from './split-log.js';

export const DEFAULT_NOISE = 0.2;

/** Recursion deeper than this (it cannot happen on a log of fewer activities) ends in a flower. */
const MAX_DEPTH = 200;

export function mineTree(log: EventLog, noise: number = DEFAULT_NOISE): ProcessTree {
  return mine(log, noise, 0);
}

function mine(log: EventLog, noise: number, depth: number): ProcessTree {
  const total = weightOf(log);
  const empty = log.reduce((sum, v) => sum + (v.trace.length === 0 ? v.count : 0), 0);
  if (total === 0 || empty === total) return tau(total);
  if (empty > 0) {
    const rest = log.filter((v) => v.trace.length > 0);
    if (empty >= noise * total) return choice([mine(rest, noise, depth + 1), tau(empty)], total);
    log = rest;
  }
  const weight = weightOf(log);
  const dfg = dfgOf(log);
  if (dfg.activities.length === 1) return activity(dfg.activities[0]!, weight);
  if (depth >= MAX_DEPTH) return flower(dfg, weight);
  const cut = findCut(dfg) ?? findCut(filterDfg(dfg, noise));
  if (cut !== null) {
    const [kind, parts] = cut;
    const children = (logs: EventLog[]) => logs.map((part) => mine(part, noise, depth + 1));
    switch (kind) {
      case 'choice':
        return choice(children(splitChoice(log, parts)), weight);
      case 'sequence':
        return sequence(children(splitSequence(log, parts)), weight);
      case 'parallel':
        return parallel(children(splitParallel(log, parts)), weight);
      case 'loop': {
        const [body, ...redos] = children(splitLoop(log, parts));
        return loop(
          body!,
          choice(
            redos,
            redos.reduce((sum, r) => sum + r.weight, 0),
          ),
          weight,
        );
      }
    }
  }
  const split = tauLoopSplit(log, dfg);
  if (split !== null) return loop(mine(split, noise, depth + 1), tau(0), weight);
  return flower(dfg, weight);
}

type Cut = readonly ['choice' | 'sequence' | 'parallel' | 'loop', Partition];

function findCut(dfg: Dfg): Cut | null {
  const choiceParts = choiceCut(dfg);
  if (choiceParts !== null) return ['choice', choiceParts];
  const sequenceParts = sequenceCut(dfg);
  if (sequenceParts !== null) return ['sequence', sequenceParts];
  const parallelParts = parallelCut(dfg);
  if (parallelParts !== null) return ['parallel', parallelParts];
  const loopParts = loopCut(dfg);
  return loopParts === null ? null : ['loop', loopParts];
}

/** The traces cut wherever an end activity is followed by a start activity; null when no trace is. */
function tauLoopSplit(log: EventLog, dfg: Dfg): EventLog | null {
  const index = new Map(dfg.activities.map((a, i) => [a, i]));
  const isStart = (a: number) => dfg.starts[index.get(a)!]! > 0;
  const isEnd = (a: number) => dfg.ends[index.get(a)!]! > 0;
  let cutAny = false;
  const pieces: { trace: number[]; count: number }[] = [];
  for (const { trace, count } of log) {
    let current: number[] = [];
    for (const a of trace) {
      if (current.length > 0 && isEnd(current.at(-1)!) && isStart(a)) {
        pieces.push({ trace: current, count });
        current = [];
        cutAny = true;
      }
      current.push(a);
    }
    pieces.push({ trace: current, count });
  }
  return cutAny ? eventLog(pieces) : null;
}

function flower(dfg: Dfg, weight: number): ProcessTree {
  return { op: 'flower', activities: dfg.activities, weight };
}
