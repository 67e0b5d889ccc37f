/**
 * Whether an answer that fits a tool's published `outputSchema` can have a field path, as a condition reads it
 * (`contract/run/call-results.ts`: `fieldAt` through the answer's `{"result": …}` wrappers; a number segment names a list
 * item). For `sop build --check-tools` (SOP067): a `when` or `shows` condition over a field no answer can have never
 * holds. Pure JSON Schema reading, bounded whatever the schema holds:
 *   - `properties`, and `additionalProperties` given as a schema (a map keyed by ids); an object with `properties`
 *     and no `additionalProperties` has those fields only, as servers that publish schemas mean them;
 *   - `anyOf` / `oneOf` / `allOf` (a field is possible when some branch has it), `$ref` within the schema;
 *   - `items` and `prefixItems` for number segments;
 *   - at the root, a branch whose only property is `result` is the wrapper the answer is read through.
 * Anything it cannot judge (no type, `true`, `patternProperties`, an external `$ref`, text that may hold JSON) counts
 * as possible: no schema, nothing to check. At the field itself, values no `enum` or `const` allows are named too.
 */
import type { ConditionValue } from '../contract/compiled-sop.js';

export type FieldVerdict =
  | { readonly kind: 'possible'; readonly impossibleValues: readonly ConditionValue[]; readonly allowed: readonly ConditionValue[] }
  /** No answer can have `path[index]`: the fields the schema has there (`wrapped`: the answer is read through `result`). */
  | { readonly kind: 'missing'; readonly index: number; readonly fields: readonly string[]; readonly wrapped: boolean };

type Schema = Record<string, unknown>;

/** Schema nodes looked at for one path, at most: a schema of unions within unions stops being read, not the build. */
const MAX_NODES = 10_000;
const MAX_REF_DEPTH = 32;
const NUMBER_SEGMENT = /^(0|[1-9]\d{0,8})$/;

export function fieldVerdict(schema: unknown, path: readonly string[], values: readonly ConditionValue[]): FieldVerdict {
  const budget = { left: MAX_NODES };
  const root = isSchema(schema) ? schema : undefined;
  if (root === undefined) return possible();
  let frontier = leaves(root, [root], budget);
  if (frontier === null) return possible();
  // The answer is read through a `{"result": …}` wrapper, as often as it is wrapped.
  let wrapped = false;
  for (let depth = 0; depth < MAX_REF_DEPTH; depth++) {
    const onlyResult = frontier.some((leaf) => isWrapper(leaf));
    if (!onlyResult) break;
    wrapped = true;
    const next: Schema[] = [];
    for (const leaf of frontier) {
      if (!isWrapper(leaf)) {
        next.push(leaf);
        continue;
      }
      const inner = (leaf.properties as Schema).result;
      // Text inside the wrapper may be JSON: nothing to judge.
      if (!isSchema(inner) || typesOf(inner).includes('string')) return possible();
      const expanded = leaves(root, [inner], budget);
      if (expanded === null) return possible();
      next.push(...expanded);
    }
    frontier = next;
  }
  for (const [index, segment] of path.entries()) {
    const next: Schema[] = [];
    const fields = new Set<string>();
    for (const leaf of frontier) {
      const step = stepInto(leaf, segment, fields);
      if (step === 'unknown') return possible();
      next.push(...step);
    }
    if (next.length === 0) return { kind: 'missing', index, fields: [...fields], wrapped };
    const expanded = leaves(root, next, budget);
    if (expanded === null) return possible();
    frontier = expanded;
  }
  return valuesAt(frontier, values);
}

function possible(): FieldVerdict {
  return { kind: 'possible', impossibleValues: [], allowed: [] };
}

/** The schemas one segment leads to from `leaf`, or 'unknown' when the schema does not say; the fields it names go to `fields`. */
function stepInto(leaf: Schema, segment: string, fields: Set<string>): Schema[] | 'unknown' {
  if (isUnconstrained(leaf)) return 'unknown';
  const out: Schema[] = [];
  const properties = isSchema(leaf.properties) ? leaf.properties : undefined;
  if (properties !== undefined) for (const name of Object.keys(properties)) fields.add(name);
  if (properties !== undefined && Object.hasOwn(properties, segment)) {
    const inner = properties[segment];
    if (!isSchema(inner)) return 'unknown';
    out.push(inner);
  }
  if (NUMBER_SEGMENT.test(segment)) {
    const n = Number(segment);
    const prefix = Array.isArray(leaf.prefixItems) ? leaf.prefixItems : Array.isArray(leaf.items) ? leaf.items : undefined;
    if (prefix !== undefined && n < prefix.length) {
      const inner = prefix[n];
      if (!isSchema(inner)) return 'unknown';
      out.push(inner);
    } else if (isSchema(leaf.items)) out.push(leaf.items);
    else if (leaf.items === true || (prefix !== undefined && leaf.items === undefined)) return 'unknown';
  }
  if (out.length > 0) return out;
  if (leaf.patternProperties !== undefined || leaf.additionalProperties === true) return 'unknown';
  if (isSchema(leaf.additionalProperties)) return [leaf.additionalProperties];
  const types = typesOf(leaf);
  // An object the schema lists no fields of, nor forbids others for: anything may be there.
  if (properties === undefined && leaf.additionalProperties === undefined && (types.length === 0 || types.includes('object'))) {
    return 'unknown';
  }
  if (types.includes('array') && leaf.items === undefined && leaf.prefixItems === undefined) return 'unknown';
  return [];
}

/** The values the field can have, where every branch says (`enum`, `const`); the condition's values it cannot. */
function valuesAt(frontier: readonly Schema[], values: readonly ConditionValue[]): FieldVerdict {
  const allowed: ConditionValue[] = [];
  for (const leaf of frontier) {
    if (Object.hasOwn(leaf, 'const') && isScalar(leaf.const)) allowed.push(leaf.const);
    else if (Array.isArray(leaf.enum) && leaf.enum.every(isScalar)) allowed.push(...(leaf.enum as ConditionValue[]));
    else return possible();
  }
  const impossibleValues = values.filter((value) => !allowed.some((a) => a === value));
  return { kind: 'possible', impossibleValues, allowed };
}

/**
 * The schemas `nodes` stand for once `$ref`s are followed and `anyOf` / `oneOf` / `allOf` flattened (a node with
 * fields of its own beside them counts too); null once the budget is spent or a reference cannot be followed.
 */
function leaves(root: Schema, nodes: readonly unknown[], budget: { left: number }): Schema[] | null {
  const out: Schema[] = [];
  const visit = (node: unknown, depth: number): boolean => {
    if (--budget.left < 0 || depth > MAX_REF_DEPTH) return false;
    if (node === true) {
      out.push({});
      return true;
    }
    if (!isSchema(node)) return true; // `false`: no answer fits it
    if (typeof node.$ref === 'string') {
      const target = pointer(root, node.$ref);
      if (target === undefined || !visit(target, depth + 1)) return false;
    }
    const branches = [node.anyOf, node.oneOf, node.allOf].flatMap((list) => (Array.isArray(list) ? list : []));
    for (const branch of branches) if (!visit(branch, depth + 1)) return false;
    const own = Object.keys(node).some(
      (key) => !['$ref', 'anyOf', 'oneOf', 'allOf', '$schema', '$defs', 'definitions', 'description', 'title'].includes(key),
    );
    if (own && !(branches.length > 0 && isOnlyType(node))) out.push(node);
    if (!own && branches.length === 0 && node.$ref === undefined) out.push(node);
    return true;
  };
  for (const node of nodes) if (!visit(node, 0)) return null;
  return out;
}

/** A node whose only own constraint is `type` beside its branches (`{"anyOf": […], "type": "object"}`): the branches say more. */
function isOnlyType(node: Schema): boolean {
  return Object.keys(node).every((key) =>
    ['type', '$ref', 'anyOf', 'oneOf', 'allOf', '$schema', '$defs', 'definitions', 'description', 'title'].includes(key),
  );
}

/** `#/$defs/Order` and the like, within the schema; undefined for anything else. */
function pointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(current) && !Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current as object, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function isWrapper(leaf: Schema): boolean {
  return isSchema(leaf.properties) && Object.keys(leaf.properties).length === 1 && Object.hasOwn(leaf.properties, 'result');
}

function isUnconstrained(leaf: Schema): boolean {
  return Object.keys(leaf).every((key) => ['$schema', '$defs', 'definitions', 'description', 'title', 'default', 'examples'].includes(key));
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isScalar(value: unknown): value is ConditionValue {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
