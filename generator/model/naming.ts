/**
 * Names the emitter derives from SOP data: exported identifiers per agent (`retail_customer_support` →
 * `retailCustomerSupport` / `RetailCustomerSupport`) and object or interface keys for node ids. Pure functions
 * with no ts-morph import, so tests and checkers can share them.
 */

/** `retail_customer_support` → `retailCustomerSupport`. Agent names are `[a-z][a-z0-9_]*` (spec). */
export function camelCaseAgent(agent: string): string {
  const pascal = pascalCaseAgent(agent);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `retail_customer_support` → `RetailCustomerSupport`. */
export function pascalCaseAgent(agent: string): string {
  return agent
    .split('_')
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The members TypeScript gives every object type (the `Object` interface of its standard library). An optional
 * property of one of these names (`{ toString?: NodePrompt }`) accepts an object that lacks it only if the inherited
 * member's type would do (`() => string` would not): TypeScript reads the member every object has. So a generated
 * table with optional entries gives a node of such a name an entry of its own, `undefined`, when it has none.
 * A test checks this list against TypeScript's own `Object` interface.
 */
export const OBJECT_MEMBERS: ReadonlySet<string> = new Set([
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
]);

/** Whether `name` can be written unquoted as a property name (ASCII identifiers only, to stay predictable). */
export function isPlainPropertyName(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Sorts strings by UTF-16 code units: the same order on every machine and locale (unlike `localeCompare`). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
