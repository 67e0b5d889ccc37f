/**
 * The walks conversations follow, taken from the SOP's golden paths (`generator/paths/golden-paths.ts`): for each
 * way an intent can go (a cancel done, a cancel denied…), the shortest loop-free path from the entry node that ends
 * on its terminal node and passes the nodes it names. A conversation is the first intent's path, then each further
 * intent's part after the hub (`ROUTE`), entered again by a hub jump.
 */
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { goldenPaths } from '../../../generator/paths/golden-paths.js';

/** The hub a conversation goes back to between intents, and the node that authenticates. */
export const HUB = 'ROUTE';

export interface WalkKey {
  readonly terminal: string;
  readonly through?: readonly string[];
  readonly avoid?: readonly string[];
}

export interface Walks {
  /** The path up to and including the hub (START AUTH ROUTE). */
  readonly opening: readonly string[];
  /** The nodes after the hub up to the terminal, for an intent's walk. */
  after(key: WalkKey): readonly string[];
}

export function walksOf(sop: CompiledSop): Walks {
  const paths = goldenPaths(sop)
    .paths.filter((path) => path.loops === 0)
    .sort((a, b) => a.nodes.length - b.nodes.length);
  const cache = new Map<string, readonly string[]>();
  const first = paths[0]?.nodes ?? [];
  const hubAt = first.indexOf(HUB);
  if (hubAt < 0) throw new Error(`the SOP's golden paths do not pass ${HUB}: the corpus is written for the retail SOP`);
  return {
    opening: first.slice(0, hubAt + 1),
    after(key) {
      const id = JSON.stringify(key);
      const known = cache.get(id);
      if (known !== undefined) return known;
      const path = paths.find(
        ({ nodes }) =>
          nodes.at(-1) === key.terminal &&
          (key.through ?? []).every((node) => nodes.includes(node)) &&
          !(key.avoid ?? []).some((node) => nodes.includes(node)),
      );
      if (path === undefined)
        throw new Error(`no golden path of the SOP ends on ${key.terminal} through ${(key.through ?? []).join(', ')}`);
      const after = path.nodes.slice(path.nodes.indexOf(HUB) + 1);
      cache.set(id, after);
      return after;
    },
  };
}
