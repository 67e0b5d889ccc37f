/**
 * Builds a whole project in memory: compiles every SOP, runs the cross-file checks, and plans the output
 * files. Files with errors are not emitted (their previous output stays untouched); the project files (index,
 * registry, bundle) list every clean agent, plus the last good version of each failed one that the previous
 * bundle holds (see `emit-project.ts`), so good agents always build, also on a first build. A compiler bug met
 * while compiling or emitting one file fails that file alone (SOP090). Pure apart from the lazy import
 * of the emitter (ts-morph is only loaded once some SOP compiles without errors). Each SOP's own files are
 * printed as soon as it has compiled (`emit-while-compiling.ts`); when the SOPs compile on worker threads,
 * this thread loads the emitter (~300 ms) and prints while they work. SOPs that declare a `token_budget` are
 * measured against it last, on the compiled answers (the tokenizer is loaded only then).
 */
import type { CompiledSop, SopBundle } from '../contract/compiled-sop.js';
import { entryOf } from '../contract/name-table.js';
import { checkProject } from './check/check-project.js';
import type { CompiledFile } from './compile-sop.js';
import { compileInParallel, workerThreadsFor } from './compile-in-parallel.js';
import { BoundedDiagnostics } from './diagnostics/bounded-diagnostics.js';
import { compareDiagnostics, hasErrors, type Diagnostic, internalErrorDiagnostic } from './diagnostics/diagnostic.js';
import { type AgentFiles, emitWhileCompiling } from './emit-while-compiling.js';
import { compareCodeUnits } from './model/naming.js';
import type { SopModel } from './model/sop-model.js';
import type { GeneratedFile } from './emit/emit-project.js';
import { BUNDLE_PATH } from './emit/bundle-plan.js';

export interface SourceFile {
  /** Project-relative path with `/` separators. */
  readonly file: string;
  readonly raw: string;
  /** Hash of the file's bytes; computed from `raw` when absent. */
  readonly sourceHash?: string;
}

export interface ProjectBuild {
  readonly compiled: readonly CompiledFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The planned output: per clean SOP its own files, and the project files. */
  readonly outputs: readonly GeneratedFile[];
  /** Every SOP compiled without errors: the output is the whole of `generated/` (orphans may go). */
  readonly complete: boolean;
  /** Agents whose SOP has errors: their files in the out dir must be left alone. */
  readonly failedAgents: readonly string[];
}

export interface BuildOptions {
  /** The bundle of the previous build, if any: failed SOPs keep their last good entry from it. */
  readonly previous?: SopBundle | null;
}

export async function buildProject(sources: readonly SourceFile[], options: BuildOptions = {}): Promise<ProjectBuild> {
  const emitting = emitWhileCompiling({ preload: workerThreadsFor(sources.length) > 0 });
  const sorted = [...sources].sort((a, b) => (a.file < b.file ? -1 : 1));
  const compiled = await compileInParallel(sorted, emitting.add);
  const models = compiled.flatMap((c) => (c.model ? [c.model] : []));
  const projectDiagnostics = checkProject(models);
  const fileHasErrors = (c: CompiledFile) =>
    c.model === null || hasErrors(c.diagnostics) || projectDiagnostics.some((d) => d.file === c.file && d.severity === 'error');
  const clean = compiled.filter((c) => !fileHasErrors(c));
  const previous = options.previous ?? null;

  // A SOP the emitter fails on (a compiler bug) fails alone, like a SOP with errors: SOP090, last good version kept.
  const { printed, failed: emitFailures } =
    clean.length > 0 ? await emitting.agentFiles(clean) : { printed: [], failed: [] as AgentFiles['failed'] };
  const emitted = printed.map((p) => p.compiled);
  const failed = compiled.filter((c) => !emitted.includes(c));
  const carried = carriedAgents(previous, new Set(failed.map((c) => c.file)));
  const outputs =
    emitted.length + carried.length > 0
      ? [...printed.flatMap((p) => p.files), ...(await emitting.projectFiles(emitted, carried))].sort((a, b) =>
          compareCodeUnits(a.path, b.path),
        )
      : [];
  const failedAgents = [...new Set([...failed.flatMap((c) => (c.model ? [c.model.agent] : [])), ...carried.map((sop) => sop.meta.agent)])];
  const budgets = await budgetDiagnosticsOf(emitted, outputs);
  const diagnostics = [
    ...compiled.flatMap((c) => withinFileCap(c.diagnostics, budgets.get(c.file) ?? [])),
    ...projectDiagnostics,
    ...emitFailures.map((f) => internalErrorDiagnostic(f.compiled.file, f.error)),
  ].sort(compareDiagnostics);
  return { compiled, diagnostics, outputs, complete: failed.length === 0, failedAgents };
}

/** The previous bundle's entries for the SOP files that failed this build: their last good version. */
function carriedAgents(previous: SopBundle | null, failedFiles: ReadonlySet<string>): CompiledSop[] {
  if (previous === null) return [];
  return Object.values(previous.agents).filter((sop) => failedFiles.has(sop.sourceFile));
}

/**
 * SOP057 for the emitted SOPs that declare a `token_budget`, measured on the bundle the build planned; SOP058 at the
 * budget when the optional tokenizer is not installed, so a budget is never silently unchecked.
 */
async function budgetDiagnosticsOf(
  emitted: readonly CompiledFile[],
  outputs: readonly GeneratedFile[],
): Promise<Map<string, readonly Diagnostic[]>> {
  const hasLimit = (b: SopModel['tokenBudget']) => b !== null && (b.nodePrompt ?? b.systemPrompt ?? b.gotoAnswer) !== null;
  const budgeted = emitted.flatMap((c) => (c.model !== null && hasLimit(c.model.tokenBudget) ? [c.model] : []));
  const bundleFile = outputs.find((f) => f.path === BUNDLE_PATH);
  if (budgeted.length === 0 || bundleFile === undefined) return new Map();
  const bundle = JSON.parse(bundleFile.content) as SopBundle;
  const [{ loadTokenCounter }, { budgetDiagnostics, uncheckedBudgetDiagnostic }] = await Promise.all([
    import('./analyze/token-counter.js'),
    import('./analyze/token-budgets.js'),
  ]);
  const counter = await loadTokenCounter();
  return new Map(
    budgeted.map((model) => {
      if (!counter.ok) return [model.file, [uncheckedBudgetDiagnostic(model, counter.error)]];
      const sop = entryOf(bundle.agents, model.agent);
      // Measuring runs the runtime's own answers: a bug met there fails this file's check, not the whole build.
      try {
        return [model.file, sop === undefined ? [] : budgetDiagnostics(model, sop, counter.count)];
      } catch (error) {
        return [model.file, [internalErrorDiagnostic(model.file, error)]];
      }
    }),
  );
}

/**
 * A file's diagnostics with the build's own (token budgets, found after compiling) under the same per-file cap: a
 * budget a 500-node SOP overruns everywhere is 1,000 warnings otherwise. A file already over the cap (its SOP091
 * counts what it dropped) shows none of them, as it would show no more of its own.
 */
function withinFileCap(found: readonly Diagnostic[], added: readonly Diagnostic[]): readonly Diagnostic[] {
  if (added.length === 0 || found.some((d) => d.code === 'SOP091')) return found;
  const bounded = new BoundedDiagnostics();
  bounded.push(...found, ...added);
  return bounded.result();
}
