/**
 * Builds a whole project in memory: compiles every SOP, runs the cross-file checks, and plans the output
 * files. Files with errors are not emitted (their previous output stays untouched); the project files (index,
 * registry, bundle) list every clean agent, plus the last good version of each failed one that the previous
 * bundle holds (see `emit-project.ts`), so good agents always build. Pure apart from the lazy import
 * of the emitter (ts-morph is only loaded once some SOP compiles without errors). Each SOP's own files are
 * printed as soon as it has compiled (`emit-while-compiling.ts`); when the SOPs compile on worker threads,
 * this thread loads the emitter (~300 ms) and prints while they work.
 */
import type { CompiledSop, SopBundle } from '../contract/compiled-sop.js';
import { checkProject } from './check/check-project.js';
import type { CompiledFile } from './compile-sop.js';
import { compileInParallel, workerThreadsFor } from './compile-in-parallel.js';
import { compareDiagnostics, hasErrors, type Diagnostic } from './diagnostics/diagnostic.js';
import { emitWhileCompiling } from './emit-while-compiling.js';
import type { GeneratedFile } from './emit/emit-project.js';

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
  const complete = clean.length === compiled.length;
  const failed = compiled.filter(fileHasErrors);
  const carried = carriedAgents(options.previous ?? null, new Set(failed.map((c) => c.file)));
  const failedAgents = [...new Set([...failed.flatMap((c) => (c.model ? [c.model.agent] : [])), ...carried.map((sop) => sop.meta.agent)])];
  const diagnostics = [...compiled.flatMap((c) => c.diagnostics), ...projectDiagnostics].sort(compareDiagnostics);

  const outputs = clean.length + carried.length > 0 ? await emitting.finish(clean, carried) : [];
  return { compiled, diagnostics, outputs, complete, failedAgents };
}

/** The previous bundle's entries for the SOP files that failed this build: their last good version. */
function carriedAgents(previous: SopBundle | null, failedFiles: ReadonlySet<string>): CompiledSop[] {
  if (previous === null) return [];
  return Object.values(previous.agents).filter((sop) => failedFiles.has(sop.sourceFile));
}
