/**
 * The emit stage: checked SOP models in, the text of every file under `generated/` out, sorted by path and
 * byte-deterministic (fixed formatting, LF, no dates, versions or absolute paths; the order of the inputs
 * does not matter). Per SOP an ids module (id tuples and types only, what app code types with), a graph module
 * (the data, no XState) and a machine module; for all SOPs an index for app code and a registry of lazy
 * loaders for the runtime.
 *
 * Plans are ts-morph structures built in one batch per file and printed by ts-morph's structure printer
 * (`printer.ts`). This module loads ts-morph (~300 ms), so callers should import it only when something must
 * be emitted. Writing to disk is the write stage's job.
 */
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { planGraphModule } from './graph-plan.js';
import { planIdsModule } from './ids-plan.js';
import { planIndexModule } from './index-plan.js';
import { planMachineModule } from './machine-plan.js';
import { compareCodeUnits } from './naming.js';
import { outlineSop } from './outline.js';
import type { SopOutline } from './outline.js';
import { printFile } from './printer.js';
import type { GeneratedFile } from './printer.js';
import { planRegistryModule } from './registry-plan.js';
import { DEFAULT_RUNTIME_TYPES, runtimeTypesImport } from './runtime-types-import.js';

export type { GeneratedFile } from './printer.js';

export interface EmitInput {
  readonly model: SopModel;
  readonly facts: GraphFacts;
}

export interface EmitOptions {
  /**
   * Where the generated files import the runtime's data types from, relative to the out dir
   * (default `../runtime/compiled-sop.js`: `generated/` beside `runtime/`).
   */
  readonly runtimeTypes?: string;
}

/**
 * Every file: each SOP's own files and the project's index and registry, sorted by path. The same as
 * `emitAgentFiles` for each input plus `emitProjectFiles`, which is how a build that emits while it compiles
 * puts it together.
 */
export function emitProject(inputs: readonly EmitInput[], options: EmitOptions = {}): GeneratedFile[] {
  const projectFiles = emitProjectFiles(inputs, options);
  return [...inputs.flatMap((input) => emitAgentFiles(input, options)), ...projectFiles].sort(byPath);
}

/**
 * One SOP's own files (`<agent>/ids.ts`, `graph.ts`, `machine.ts`), sorted by path. They depend on that SOP
 * alone, so they can be printed as soon as it has compiled, before the rest of the project has.
 */
export function emitAgentFiles(input: EmitInput, options: EmitOptions = {}): GeneratedFile[] {
  const runtimeTypes = runtimeTypesImport(options.runtimeTypes ?? DEFAULT_RUNTIME_TYPES);
  const outline = outlineSop(input.model, input.facts);
  const plans = [planIdsModule(outline), planGraphModule(outline, runtimeTypes), planMachineModule(outline)];
  return plans.map(printFile).sort(byPath);
}

/** The files built from every SOP: `index.ts` and `registry.ts`. Throws when two agents export one name. */
export function emitProjectFiles(inputs: readonly EmitInput[], options: EmitOptions = {}): GeneratedFile[] {
  const runtimeTypes = runtimeTypesImport(options.runtimeTypes ?? DEFAULT_RUNTIME_TYPES);
  const outlines = inputs.map(({ model, facts }) => outlineSop(model, facts)).sort((a, b) => compareCodeUnits(a.agent, b.agent));
  assertDistinctNames(outlines);
  return [planIndexModule(outlines), planRegistryModule(outlines, runtimeTypes)].map(printFile).sort(byPath);
}

function byPath(a: GeneratedFile, b: GeneratedFile): number {
  return compareCodeUnits(a.path, b.path);
}

// The check stage rejects duplicate agents (SOP032); two different agents can still map to one exported name
// (`foo_1` and `foo1` are both `foo1`), which would make the index ambiguous.
function assertDistinctNames(outlines: readonly SopOutline[]): void {
  const seen = new Map<string, SopOutline>();
  for (const o of outlines) {
    const other = seen.get(o.camelName);
    if (other) {
      throw new Error(
        other.agent === o.agent
          ? `emit: agent \`${o.agent}\` comes from two files (${other.model.file}, ${o.model.file}).`
          : `emit: agents \`${other.agent}\` (${other.model.file}) and \`${o.agent}\` (${o.model.file}) both export ` +
              `as \`${o.camelName}\`; rename one in its frontmatter.`,
      );
    }
    seen.set(o.camelName, o);
  }
}
