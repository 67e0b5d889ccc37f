/**
 * Process trees, as the Inductive Miner makes them: a tree of operators over activities (tools), sound by
 * construction (every part can be entered and left, nothing deadlocks). Each node carries its weight: how many
 * traces of the log it was mined from went through it, which the draft shows where the logs branch.
 *
 * The constructors normalise as they build: nested sequences and choices flatten, silent steps (tau) vanish from
 * sequences, a choice keeps one tau, and an operator over one child is that child.
 */

export type ProcessTree =
  | { readonly op: 'tau'; readonly weight: number }
  | { readonly op: 'activity'; readonly activity: number; readonly weight: number }
  | { readonly op: 'sequence' | 'choice' | 'parallel'; readonly children: readonly ProcessTree[]; readonly weight: number }
  /** Do `body`, then any number of times `redo` and `body` again. */
  | { readonly op: 'loop'; readonly body: ProcessTree; readonly redo: ProcessTree; readonly weight: number }
  /** Any of the activities, in any order, any number of times (the miner's last resort). */
  | { readonly op: 'flower'; readonly activities: readonly number[]; readonly weight: number };

export const tau = (weight: number): ProcessTree => ({ op: 'tau', weight });

export const activity = (id: number, weight: number): ProcessTree => ({ op: 'activity', activity: id, weight });

export function sequence(children: readonly ProcessTree[], weight: number): ProcessTree {
  const flat = children.flatMap((child) => (child.op === 'sequence' ? child.children : child.op === 'tau' ? [] : [child]));
  if (flat.length === 0) return tau(weight);
  return flat.length === 1 ? flat[0]! : { op: 'sequence', children: flat, weight };
}

/** The branches most travelled first, then by their first activity (ties keep the order given). */
export function choice(children: readonly ProcessTree[], weight: number): ProcessTree {
  const flat: ProcessTree[] = [];
  let silent = 0;
  let skippable = false;
  for (const child of children.flatMap((c) => (c.op === 'choice' ? c.children : [c]))) {
    if (child.op !== 'tau') flat.push(child);
    else {
      silent += child.weight;
      skippable = true;
    }
  }
  const ordered = flat
    .map((child, index) => ({ child, index }))
    .sort((a, b) => b.child.weight - a.child.weight || firstActivity(a.child) - firstActivity(b.child) || a.index - b.index)
    .map(({ child }) => child);
  if (skippable) ordered.push(tau(silent));
  if (ordered.length === 0) return tau(weight);
  return ordered.length === 1 ? ordered[0]! : { op: 'choice', children: ordered, weight };
}

export function parallel(children: readonly ProcessTree[], weight: number): ProcessTree {
  const flat = children.flatMap((child) => (child.op === 'parallel' ? child.children : child.op === 'tau' ? [] : [child]));
  if (flat.length === 0) return tau(weight);
  return flat.length === 1 ? flat[0]! : { op: 'parallel', children: flat, weight };
}

export function loop(body: ProcessTree, redo: ProcessTree, weight: number): ProcessTree {
  return { op: 'loop', body, redo, weight };
}

/** The activities of a tree, in first-appearance order. */
export function activitiesOf(tree: ProcessTree): number[] {
  const seen: number[] = [];
  const visit = (t: ProcessTree): void => {
    switch (t.op) {
      case 'tau':
        return;
      case 'activity':
        if (!seen.includes(t.activity)) seen.push(t.activity);
        return;
      case 'flower':
        for (const a of t.activities) if (!seen.includes(a)) seen.push(a);
        return;
      case 'loop':
        visit(t.body);
        visit(t.redo);
        return;
      default:
        for (const child of t.children) visit(child);
    }
  };
  visit(tree);
  return seen;
}

/** Whether the tree accepts the empty trace (it may be passed without a call). */
export function nullable(tree: ProcessTree): boolean {
  switch (tree.op) {
    case 'tau':
    case 'flower':
      return true;
    case 'activity':
      return false;
    case 'loop':
      return nullable(tree.body);
    case 'choice':
      return tree.children.some(nullable);
    default:
      return tree.children.every(nullable);
  }
}

function firstActivity(tree: ProcessTree): number {
  return activitiesOf(tree)[0] ?? Number.MAX_SAFE_INTEGER;
}

/** A tree as process mining writes it: `->(a, X(b, tau), *(c, tau))`, with tool names. */
export function treeText(tree: ProcessTree, name: (activity: number) => string): string {
  switch (tree.op) {
    case 'tau':
      return 'tau';
    case 'activity':
      return name(tree.activity);
    case 'flower':
      return `*(tau, X(${tree.activities.map(name).join(', ')}))`;
    case 'loop':
      return `*(${treeText(tree.body, name)}, ${treeText(tree.redo, name)})`;
    default: {
      const symbol = tree.op === 'sequence' ? '->' : tree.op === 'choice' ? 'X' : '+';
      return `${symbol}(${tree.children.map((child) => treeText(child, name)).join(', ')})`;
    }
  }
}
