/**
 * Node ids inside sub-flows: a called SOP's node is named by the sub-flow nodes of its frames, then its own id
 * (`AUTHENTICATE.VERIFY`). Pure and dependency-free: the server, the replay and the pages' browser scripts share it.
 */

/** Between a sub-flow node's id and the ids of the SOP it calls. */
export const QUALIFIER = '.';

/** The id of `node` of the SOP called at `call`. */
export function qualify(call: string, node: string): string {
  return `${call}${QUALIFIER}${node}`;
}

/**
 * The node a `node_id` typed at `current` names, as `goto_node` reads it: itself when it is a node; else, inside a
 * call, that id in the frame of `current`, or of a caller, outward (`VERIFY` at `AUTHENTICATE.IDENTIFY` is
 * `AUTHENTICATE.VERIFY`); else as typed (and refused as unknown).
 */
export function resolveInFrame(typed: string, current: string | null | undefined, isNode: (id: string) => boolean): string {
  if (isNode(typed)) return typed;
  const frames = (current ?? '').split(QUALIFIER);
  for (let depth = frames.length - 1; depth > 0; depth--) {
    const candidate = qualify(frames.slice(0, depth).join(QUALIFIER), typed);
    if (isNode(candidate)) return candidate;
  }
  return typed;
}
