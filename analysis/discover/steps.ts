/**
 * Event abstraction: from a mined process tree over calls to a tree over steps, the nodes of the draft. A SOP's node
 * takes its tools in any order, any number of times, so a step is a maximal run of calls of one kind:
 *
 *   - repeated calls of one tool are one event already (`event-log.ts`: a retry is no new step);
 *   - any part of the tree that only reads (a sequence, choice, loop or interleaving of reads) is one step offering
 *     those reads: the lookups before a change are one "read" step, however the agent ordered them;
 *   - consecutive read steps in a sequence merge into one, as long as it offers at most MAX_TOOLS_PER_STEP tools;
 *   - parallel parts that are single steps merge into one step (it accepts either order); other parallel parts are
 *     put in sequence, in the order mined;
 *   - the flower (any of its calls, any order) is one step when it offers few enough tools.
 * A change keeps a step of its own: what the agent does for the user is where the SOP asks for a confirmation.
 * Each step may be optional (the tree could skip it): the draft puts a decision in front of it.
 */
import { activitiesOf, type ProcessTree } from './process-tree.js';
import type { ToolKind } from './tool-kinds.js';

/** A node of the draft holds at most this many tools: a prompt that lists more is not read as one step. */
export const MAX_TOOLS_PER_STEP = 5;

export type StepTree =
  | { readonly kind: 'step'; readonly tools: readonly number[]; readonly change: boolean; readonly weight: number }
  | { readonly kind: 'sequence'; readonly children: readonly StepTree[]; readonly weight: number }
  /** Branches most travelled first; `skip` is the weight of the traces that took none (absent: every trace took one). */
  | { readonly kind: 'choice'; readonly children: readonly StepTree[]; readonly skip?: number; readonly weight: number }
  /** The body, then any number of times the redo (or nothing) and the body again. */
  | { readonly kind: 'loop'; readonly body: StepTree; readonly redo: StepTree | null; readonly weight: number };

export function stepsOf(tree: ProcessTree, kinds: readonly ToolKind[]): StepTree | null {
  const tools = activitiesOf(tree);
  if (tools.length === 0) return null;
  const change = tools.some((tool) => kinds[tool] === 'change');
  if ((!change || tree.op === 'flower') && tools.length <= MAX_TOOLS_PER_STEP) return optional(step(tools, change, tree.weight), tree);
  switch (tree.op) {
    case 'tau':
      return null;
    case 'activity':
      return step([tree.activity], change, tree.weight);
    case 'flower':
      return {
        kind: 'loop',
        body: { kind: 'choice', children: tree.activities.map((a) => step([a], kinds[a] === 'change', tree.weight)), weight: tree.weight },
        redo: null,
        weight: tree.weight,
      };
    case 'sequence':
      return sequenceOf(
        tree.children.flatMap((child) => {
          const s = stepsOf(child, kinds);
          return s === null ? [] : [s];
        }),
        tree.weight,
      );
    case 'choice': {
      const children: StepTree[] = [];
      let skip: number | undefined;
      for (const child of tree.children) {
        const s = child.op === 'tau' ? null : stepsOf(child, kinds);
        if (s === null) skip = (skip ?? 0) + child.weight;
        else children.push(s);
      }
      return choiceOf(children, skip, tree.weight);
    }
    case 'parallel': {
      const children = tree.children.flatMap((child) => {
        const s = stepsOf(child, kinds);
        return s === null ? [] : [s];
      });
      const single = children.map(asStep);
      const union = [...new Set(single.flatMap((s) => s?.step.tools ?? []))];
      if (single.every((s) => s !== null) && union.length <= MAX_TOOLS_PER_STEP) {
        const merged = step(
          union,
          single.some((s) => s!.step.change),
          tree.weight,
        );
        if (!single.every((s) => s!.optional)) return merged;
        // Skipped by the traces that skipped every part: at most the fewest that skipped one.
        const skip = Math.min(...children.map((c) => (c.kind === 'choice' ? (c.skip ?? 0) : 0)));
        return choiceOf([{ ...merged, weight: tree.weight - skip }], skip, tree.weight);
      }
      return sequenceOf(children, tree.weight);
    }
    case 'loop': {
      const body = stepsOf(tree.body, kinds);
      const redo = tree.redo.op === 'tau' ? null : stepsOf(tree.redo, kinds);
      if (body === null)
        return redo === null ? null : choiceOf([{ kind: 'loop', body: redo, redo: null, weight: tree.weight }], 0, tree.weight);
      // A step taken again and again is one step: it takes its tools any number of times.
      if (redo === null && body.kind === 'step') return body;
      return { kind: 'loop', body, redo, weight: tree.weight };
    }
  }
}

function step(tools: readonly number[], change: boolean, weight: number): StepTree {
  return { kind: 'step', tools: [...tools].sort((a, b) => a - b), change, weight };
}

/**
 * The step, behind a skip when the traces it was mined from skipped it: when the tree is a choice with a silent
 * branch (the miner's way of saying that often enough no call was made here). Parts inside it that could each be
 * skipped (one lookup or another, in either order) do not make the step optional: some call of it was made.
 */
function optional(s: StepTree, tree: ProcessTree): StepTree {
  if (tree.op !== 'choice' || !tree.children.some((c) => c.op === 'tau')) return s;
  const skip = tree.children.filter((c) => c.op === 'tau').reduce((sum, c) => sum + c.weight, 0);
  return choiceOf([{ ...s, weight: tree.weight - skip }], skip, tree.weight);
}

function choiceOf(children: readonly StepTree[], skip: number | undefined, weight: number): StepTree {
  return skip === undefined ? { kind: 'choice', children, weight } : { kind: 'choice', children, skip, weight };
}

/** A step, or a step that may be skipped; null for anything else. */
function asStep(tree: StepTree): { readonly step: Extract<StepTree, { kind: 'step' }>; readonly optional: boolean } | null {
  if (tree.kind === 'step') return { step: tree, optional: false };
  const only = tree.kind === 'choice' && tree.children.length === 1 && tree.skip !== undefined ? tree.children[0]! : undefined;
  return only?.kind === 'step' ? { step: only, optional: true } : null;
}

/** A sequence with consecutive read steps merged (up to MAX_TOOLS_PER_STEP tools), optional only when all were. */
function sequenceOf(children: readonly StepTree[], weight: number): StepTree | null {
  const merged: StepTree[] = [];
  for (const child of children) {
    const last = merged.at(-1);
    const a = last === undefined ? null : asStep(last);
    const b = asStep(child);
    if (a !== null && b !== null && !a.step.change && !b.step.change) {
      const tools = [...new Set([...a.step.tools, ...b.step.tools])];
      if (tools.length <= MAX_TOOLS_PER_STEP) {
        const s = step(tools, false, Math.max(a.step.weight, b.step.weight));
        merged[merged.length - 1] =
          a.optional && b.optional ? choiceOf([s], Math.min(last!.weight - a.step.weight, child.weight - b.step.weight), weight) : s;
        continue;
      }
    }
    merged.push(child);
  }
  if (merged.length === 0) return null;
  return merged.length === 1 ? merged[0]! : { kind: 'sequence', children: merged, weight };
}
