/**
 * The emit stage: checked SOP models in, the text of every file under `generated/` out, sorted by path and
 * byte-deterministic (fixed formatting, LF, no dates, versions, hashes or absolute paths; the order of the
 * inputs does not matter). Per SOP an ids module (id tuples and types only, what app code types with), a graph
 * module (the data, no XState) and a machine module; for all SOPs an index and a registry for app code, and the
 * JSON bundle the server loads.
 *
 * An agent whose SOP has errors in this build but compiled before is "carried": its previous bundle entry
 * stays in the bundle and it stays listed in the index and registry (its own files are left on disk as they
 * were), so one broken SOP never takes the others, or its own last good version, out of the project files.
 *
 * Plans are ts-morph structures built in one batch per file and printed by ts-morph's structure printer
 * (`printer.ts`). This module loads ts-morph (~300 ms), so callers should import it only when something must
 * be emitted. Writing to disk is the write stage's job.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { compareCodeUnits } from '../model/naming.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { planBundle } from './bundle-plan.js';
import { compiledSopOf } from './compiled-data.js';
import { planGraphModule } from './graph-plan.js';
import { planIdsModule } from './ids-plan.js';
import { planIndexModule } from './index-plan.js';
import { planMachineModule } from './machine-plan.js';
import { type AgentNames, agentNames, outlineSop } from './outline.js';
import { printFile } from './printer.js';
import type { GeneratedFile } from './printer.js';
import { planRegistryModule } from './registry-plan.js';

export type { GeneratedFile } from './printer.js';

export interface EmitInput {
  readonly model: SopModel;
  readonly facts: GraphFacts;
}

/**
 * Every file: each SOP's own files and the project files, sorted by path. The same as `emitAgentFiles` for
 * each input plus `emitProjectFiles`, which is how a build that emits while it compiles puts it together.
 */
export function emitProject(inputs: readonly EmitInput[], carried: readonly CompiledSop[] = []): GeneratedFile[] {
  const projectFiles = emitProjectFiles(inputs, carried);
  return [...inputs.flatMap((input) => emitAgentFiles(input)), ...projectFiles].sort(byPath);
}

/**
 * One SOP's own files (`<agent>/ids.ts`, `graph.ts`, `machine.ts`), sorted by path. They depend on that SOP
 * alone, so they can be printed as soon as it has compiled, before the rest of the project has.
 */
export function emitAgentFiles(input: EmitInput): GeneratedFile[] {
  const outline = outlineSop(input.model, input.facts);
  const plans = [planIdsModule(outline), planGraphModule(outline, compiledSopOf(outline)), planMachineModule(outline)];
  return plans.map(printFile).sort(byPath);
}

/**
 * The files built from every SOP: `index.ts`, `registry.ts` and `sop-bundle.json`, listing the compiled
 * inputs and the carried agents. Throws when two agents export one name (the check stage reports it first).
 */
export function emitProjectFiles(inputs: readonly EmitInput[], carried: readonly CompiledSop[] = []): GeneratedFile[] {
  const outlines = inputs.map(({ model, facts }) => outlineSop(model, facts));
  const compiled = new Set(outlines.map((o) => o.agent));
  const kept = carried.filter((sop) => !compiled.has(sop.meta.agent));
  const names = [...outlines, ...kept.map((sop) => agentNames(sop.meta.agent, sop.sourceFile))].sort((a, b) =>
    compareCodeUnits(a.agent, b.agent),
  );
  assertDistinctNames(names);
  const bundle = planBundle([...outlines.map(compiledSopOf), ...kept]);
  return [...[planIndexModule(names), planRegistryModule(names)].map(printFile), bundle].sort(byPath);
}

function byPath(a: GeneratedFile, b: GeneratedFile): number {
  return compareCodeUnits(a.path, b.path);
}

// The check stage rejects duplicate agents (SOP032); two different agents can still map to one exported name
// (`foo_1` and `foo1` are both `foo1`), which would make the index ambiguous.
function assertDistinctNames(names: readonly AgentNames[]): void {
  const seen = new Map<string, AgentNames>();
  for (const o of names) {
    const other = seen.get(o.camelName);
    if (other) {
      throw new Error(
        other.agent === o.agent
          ? `emit: agent \`${o.agent}\` comes from two files (${other.sourceFile}, ${o.sourceFile}).`
          : `emit: agents \`${other.agent}\` (${other.sourceFile}) and \`${o.agent}\` (${o.sourceFile}) both export ` +
              `as \`${o.camelName}\`; rename one in its frontmatter.`,
      );
    }
    seen.set(o.camelName, o);
  }
}
