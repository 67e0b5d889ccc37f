/**
 * Plans `generated/sop-bundle.json`, the one file the server loads: every agent's `CompiledSop` as JSON, keyed
 * and sorted by agent name. JSON rather than a JS module because it is data, not code: the server reads and
 * parses it with no module loader, TypeScript loader or `tsc`, can read it again when a rebuild changes it
 * (an ES module cannot be re-imported without leaking the old copy), and `sop bundle` inlines it as is.
 * Two-space indentation and a final newline keep its diffs reviewable.
 */
import { BUNDLE_FORMAT, type CompiledSop, type SopBundle } from '../../contract/compiled-sop.js';
import { nameTable } from '../../contract/name-table.js';
import { compareCodeUnits } from '../model/naming.js';
import type { GeneratedFile } from './printer.js';

export const BUNDLE_PATH = 'sop-bundle.json';

export function planBundle(agents: readonly CompiledSop[]): GeneratedFile {
  const sorted = [...agents].sort((a, b) => compareCodeUnits(a.meta.agent, b.meta.agent));
  const bundle: SopBundle = { format: BUNDLE_FORMAT, agents: nameTable(sorted.map((sop) => [sop.meta.agent, sop])) };
  return { path: BUNDLE_PATH, content: `${JSON.stringify(bundle, null, 2)}\n` };
}
