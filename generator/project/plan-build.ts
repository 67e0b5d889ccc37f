/**
 * The build's plan, made in memory: compiles every SOP, runs the cross-file checks, and plans the output
 * files (`SopProject.build` writes or compares them; `sop diff` and the fuzzer use the plan alone). Files with errors are not emitted (their previous output stays untouched); the project files (index,
 * registry, bundle) list every clean agent, plus the last good version of each failed one that the previous
 * bundle holds (see `emit-project.ts`), so good agents always build, also on a first build. A compiler bug met
 * while compiling or emitting one file fails that file alone (SOP090). Pure apart from the lazy import
 * of the emitter (ts-morph is only loaded once some SOP compiles without errors). Each SOP's own files are
 * printed as soon as it has compiled (`emit-while-compiling.ts`); when the SOPs compile on worker threads,
 * this thread loads the emitter (~300 ms) and prints while they work. SOPs that declare a `token_budget` are
 * measured against it last, on the compiled answers (the tokenizer is loaded only then).
 *
 * Incremental on request: a caller that keeps the files it compiled before (`reuse`) and the files it printed for
 * them (`printed`) gets an unchanged SOP neither compiled nor printed again (`open-project.ts` does, for
 * `sop build --watch`, the language server and the preview).
 */
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { hashSource } from '../../contract/source-hash.js';
import { checkProject } from '../check/check-project.js';
import type { CompiledFile } from '../compile-sop.js';
import { compileInParallel, workerThreadsFor } from '../compile-in-parallel.js';
import { budgetDiagnosticsOf, hasTokenBudget, withinFileCap } from '../tokens/budget-diagnostics.js';
import { compositionDiagnostics } from './composition-diagnostics.js';
import { compareDiagnostics, hasErrors, type Diagnostic, internalErrorDiagnostic } from '../diagnostics/diagnostic.js';
import { type AgentFiles, emitWhileCompiling, type PrintedFiles } from '../emit-while-compiling.js';
import { compareCodeUnits } from '../model/naming.js';
import type { GeneratedFile } from '../emit/emit-project.js';
import { BUNDLE_PATH } from '../emit/bundle-plan.js';

export interface SourceFile {
  /** Project-relative path with `/` separators. */
  readonly file: string;
  readonly raw: string;
  /** Hash of the file's bytes; computed from `raw` when absent. */
  readonly sourceHash?: string;
}

export interface BuildPlan {
  readonly compiled: readonly CompiledFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The planned output: per clean SOP its own files, and the project files. */
  readonly outputs: readonly GeneratedFile[];
  /** Every SOP compiled without errors: the output is the whole of `generated/` (orphans may go). */
  readonly complete: boolean;
  /** Agents whose SOP has errors: their files in the out dir must be left alone. */
  readonly failedAgents: readonly string[];
}

export interface PlanOptions {
  /** The bundle of the previous build, if any: failed SOPs keep their last good entry from it. */
  readonly previous?: SopBundle | null;
  /** A file compiled before from the same text (same `file` and `sourceHash`), to use instead of compiling it again. */
  readonly reuse?: (file: string, sourceHash: string) => CompiledFile | undefined;
  /** Each SOP's own printed files, kept by the caller across builds (keyed by the compiled file, so reuse finds them). */
  readonly printed?: PrintedFiles;
}

export async function planBuild(sources: readonly SourceFile[], options: PlanOptions = {}): Promise<BuildPlan> {
  const sorted = [...sources]
    .sort((a, b) => (a.file < b.file ? -1 : 1))
    .map((s) => ({ ...s, sourceHash: s.sourceHash ?? hashSource(s.raw) }));
  const reused = sorted.map((s) => options.reuse?.(s.file, s.sourceHash));
  const jobs = sorted.filter((_, i) => reused[i] === undefined);
  const emitting = emitWhileCompiling({ preload: workerThreadsFor(jobs.length) > 0, printed: options.printed });
  for (const r of reused) if (r !== undefined) emitting.add(r);
  const fresh = await compileInParallel(jobs, emitting.add);
  const compiled = reused.map((r) => r ?? fresh.shift()!);
  const models = compiled.flatMap((c) => (c.model ? [c.model] : []));
  const projectDiagnostics = [...checkProject(models), ...compositionDiagnostics(compiled)];
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
  // Budgets are measured on the planned bundle, read back only when some SOP declares one.
  const budgeted = emitted.flatMap((c) => (c.model !== null && hasTokenBudget(c.model) ? [c.model] : []));
  const bundle = budgeted.length > 0 ? plannedBundle(outputs) : null;
  const budgets = await budgetDiagnosticsOf(budgeted.map((model) => ({ model, sop: bundledAgent(bundle, model.agent) })));
  const diagnostics = [
    ...compiled.flatMap((c) => withinFileCap(c.diagnostics, budgets.get(c.file) ?? [])),
    ...projectDiagnostics,
    ...emitFailures.map((f) => internalErrorDiagnostic(f.compiled.file, f.error)),
  ].sort(compareDiagnostics);
  return { compiled, diagnostics, outputs, complete: failed.length === 0, failedAgents };
}

/** The bundle among the planned outputs, or null when the build plans none. */
export function plannedBundle(outputs: readonly GeneratedFile[]): SopBundle | null {
  const file = outputs.find((f) => f.path === BUNDLE_PATH);
  return file === undefined ? null : (JSON.parse(file.content) as SopBundle);
}

function bundledAgent(bundle: SopBundle | null, agent: string): CompiledSop | null {
  return bundle !== null && Object.hasOwn(bundle.agents, agent) ? (bundle.agents[agent] ?? null) : null;
}

/** The previous bundle's entries for the SOP files that failed this build: their last good version. */
function carriedAgents(previous: SopBundle | null, failedFiles: ReadonlySet<string>): CompiledSop[] {
  if (previous === null) return [];
  return Object.values(previous.agents).filter((sop) => failedFiles.has(sop.sourceFile));
}
