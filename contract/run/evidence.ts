/**
 * Evidence: what a run in gateway mode has proved by calls that succeeded, as opposed to what the agent declared
 * by moving. A node may require evidence (`evidence` in its yaml: one of its tools succeeded during the visit)
 * before the run goes on from it; with `about: order_id`, the evidence is about the entity that argument named,
 * and later calls of a guarded tool (one a policy's `every_path_to: {tools}` names: the changes) naming another
 * value of it are refused ("reading order A does not let the run cancel order B"). Reads stay free: looking up
 * the order whose address the user wants is not a change.
 *
 * Evidence belongs to the path, like a hub: a record is kept with the position in the path of the node where its
 * call was made, and holds while the path still has that node there. Going back to ROUTE for the next task
 * drops what the previous task proved; a restart drops everything. Only moves that go on from the current node
 * (to a successor not already on the path) need the current node's evidence: restarting, going back along the
 * path and escalating never do.
 *
 * Pure and browser-safe: the gateway decides with it at run time, `sop replay` and the aligner afterwards.
 */
import type { CompiledSop, EvidenceRequirement } from './compiled-sop.js';
import type { TransitionTable } from './transitions.js';

/** A successful domain call kept as evidence. */
export interface EvidenceRecord {
  readonly node: string;
  /** The node's index in the run's path when the call was made. */
  readonly depth: number;
  readonly tool: string;
  /** The entity the call was about, when the node's requirement names one (`order_id` and its value). */
  readonly about?: { readonly name: string; readonly value: string };
}

/** The records that still hold on `path`. */
export function evidenceOnPath(records: readonly EvidenceRecord[], path: readonly string[]): EvidenceRecord[] {
  return records.filter((record) => record.depth < path.length && path[record.depth] === record.node);
}

/** The node's requirement, own entries only (a node id such as `constructor` must not read `Object.prototype`). */
export function requirementOf(sop: Pick<CompiledSop, 'evidence'>, node: string): EvidenceRequirement | undefined {
  const table = sop.evidence;
  return table !== undefined && Object.hasOwn(table, node) ? table[node] : undefined;
}

/** Whether moving to `target` goes on from the current node: a successor of it that is not already on the path. */
export function goesOn(table: TransitionTable, path: readonly string[], target: string): boolean {
  const current = path.at(-1);
  if (current === undefined || target === table.entry || path.includes(target)) return false;
  return Object.hasOwn(table.successors, current) && (table.successors[current] ?? []).includes(target);
}

/** The current node's requirement that a move to `target` would leave unmet, or undefined when none is. */
export function unmetEvidence(
  sop: Pick<CompiledSop, 'evidence' | 'transitions'>,
  path: readonly string[],
  target: string,
  records: readonly EvidenceRecord[],
): { readonly node: string; readonly requirement: EvidenceRequirement } | undefined {
  const node = path.at(-1);
  if (node === undefined || !goesOn(sop.transitions, path, target)) return undefined;
  const requirement = requirementOf(sop, node);
  if (requirement === undefined) return undefined;
  const depth = path.length - 1;
  const met = records.some((record) => record.depth === depth && record.node === node && requirement.tools.includes(record.tool));
  return met ? undefined : { node, requirement };
}

/**
 * The record a successful call at the current node adds, or undefined when the node requires no evidence from
 * that tool. The entity's value is the call's argument of that name, else the answer's structured field of that
 * name (a lookup by email answers with the `user_id` it found).
 */
export function evidenceRecordOf(
  sop: Pick<CompiledSop, 'evidence'>,
  path: readonly string[],
  tool: string,
  args: unknown,
  structuredAnswer: unknown,
): EvidenceRecord | undefined {
  const node = path.at(-1);
  if (node === undefined) return undefined;
  const requirement = requirementOf(sop, node);
  if (requirement === undefined || !requirement.tools.includes(tool)) return undefined;
  const record = { node, depth: path.length - 1, tool };
  if (requirement.about === null) return record;
  const value = entityValue(args, requirement.about) ?? entityValue(structuredAnswer, requirement.about);
  return value === undefined ? record : { ...record, about: { name: requirement.about, value } };
}

/** The value a call gave an entity argument, as text (strings and finite numbers only), or undefined. */
export function entityValue(args: unknown, name: string): string | undefined {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, name)) return undefined;
  const value = (args as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** The entity names any node's requirement is about (`order_id`, …), in node order. */
export function entityNames(sop: Pick<CompiledSop, 'evidence'>): string[] {
  const names: string[] = [];
  for (const requirement of Object.values(sop.evidence ?? {})) {
    if (requirement?.about != null && !names.includes(requirement.about)) names.push(requirement.about);
  }
  return names;
}

/**
 * An entity argument of a call of a guarded tool that names a value no evidence on the path is about, or
 * undefined. A call at a node whose own requirement is about that entity gathers evidence and is never refused
 * for it; an entity no record on the path is about yet binds nothing; a tool no policy guards is a read.
 */
export function unprovenEntity(
  sop: Pick<CompiledSop, 'evidence' | 'policies'>,
  node: string,
  tool: string,
  args: unknown,
  records: readonly EvidenceRecord[],
): { readonly name: string; readonly value: string; readonly proven: readonly string[] } | undefined {
  if (!(sop.policies ?? []).some((policy) => policy.tools.includes(tool))) return undefined;
  const gathering = requirementOf(sop, node)?.about ?? null;
  for (const name of entityNames(sop)) {
    if (name === gathering) continue;
    const value = entityValue(args, name);
    if (value === undefined) continue;
    const proven = [
      ...new Set(records.filter((record) => record.about?.name === name).map((record) => (record.about as { value: string }).value)),
    ];
    if (proven.length > 0 && !proven.includes(value)) return { name, value, proven };
  }
  return undefined;
}
