/**
 * A SOP project opened for building, the compiler's one entry point: its folders, its sources, and what it compiled
 * before. Every front end builds through it — `sop build` (`build`, with `--check` and `--watch`), the language
 * server and the preview (`check`, `compileDocument`) — and the server's validate view compiles through
 * `compileDocument` too, so a file compiles the same everywhere: an editor's unsaved buffer exactly as the saved
 * file would, positions included. A file whose text did not change is not compiled again, and its
 * generated files are not printed again.
 *
 * The folders come from the caller (the CLI resolves them from `sop.config.json` and its flags). The cache belongs
 * to the project object, never to the process, and holds one version of each file the last build or check saw.
 */
import type { SopBundle } from '../../contract/compiled-sop.js';
import { hashSource } from '../../contract/source-hash.js';
import { type BuildPlan, planBuild } from './plan-build.js';
import { type BuildRequest, type BuildRun, buildOutputFolder } from './build-output-folder.js';
import { checkProject } from '../check/check-project.js';
import { compileInParallel } from '../compile-in-parallel.js';
import type { CompiledFile } from '../compile-sop.js';
import { compareDiagnostics, type Diagnostic, hasErrors, internalErrorDiagnostic } from '../diagnostics/diagnostic.js';
import type { PrintedFiles } from '../emit-while-compiling.js';
import { budgetDiagnosticsOf, type TokenCountCache, tokenCountCache, withinFileCap } from '../tokens/budget-diagnostics.js';
import { type CompiledAgent, compiledAgentOf } from './compiled-agent.js';
import { type AgentCache, compositionDiagnostics } from './composition-diagnostics.js';
import type { SopModel } from '../model/sop-model.js';
import type { DocumentBuild } from './compile-document.js';
import { isProjectSource, type ProjectLayout, type ProjectSource, projectFileOf, projectPathOf, readSources } from './read-sources.js';

/** Every source checked: each file's diagnostics as `sop build` reports them, without emitting anything. */
export interface ProjectCheck {
  readonly compiled: ReadonlyMap<string, CompiledFile>;
  /** Per project path: its own diagnostics, the cross-file checks' and its token budget's, in source order. */
  readonly diagnostics: ReadonlyMap<string, readonly Diagnostic[]>;
}

export interface SopProject {
  readonly layout: ProjectLayout;
  /** The project path of an absolute path (`sops/x.md`). */
  fileOf(path: string): string;
  /** The absolute path of a project path. */
  pathOf(file: string): string;
  /** Whether an absolute path is one of the project's SOPs. */
  isSource(path: string): boolean;
  /** The sources on disk, sorted; `open` (project path → text) stands in for files an editor has unsaved. */
  readSources(open?: ReadonlyMap<string, string>): ProjectSource[];
  /** One document from its text, as the build compiles that file (with its parse, for editors). Loads the compiler. */
  compileDocument(file: string, text: string): Promise<DocumentBuild>;
  /** Every source compiled (unchanged ones reused) and checked across files, as the build would report them. */
  check(sources: readonly ProjectSource[]): Promise<ProjectCheck>;
  /** The build's plan: every output file, with the path fixtures when the layout asks for them. */
  plan(sources: readonly ProjectSource[], options?: { readonly previous?: SopBundle | null }): Promise<BuildPlan>;
  /** The build: the output folder written, or compared with the plan (`check`); what `sop build` runs. */
  build(request: BuildRequest): Promise<BuildRun>;
}

interface Cached {
  readonly sourceHash: string;
  readonly compiled: CompiledFile;
  /** The parse, once an editor asked for it (files compiled on worker threads come back without it). */
  document?: DocumentBuild;
}

export function openProject(layout: ProjectLayout): SopProject {
  const cache = new Map<string, Cached>();
  const printed: PrintedFiles = new WeakMap();
  const facts = new WeakMap<CompiledFile, FileFacts>();
  const tokenCounts = tokenCountCache();
  const agents: AgentCache = new WeakMap();
  const across: AcrossCache = { last: null };
  const reuse = (file: string, sourceHash: string) => {
    const hit = cache.get(file);
    return hit?.sourceHash === sourceHash ? hit.compiled : undefined;
  };
  /** Keeps what these sources compiled to, and forgets files that are no longer sources. */
  const remember = (sources: readonly ProjectSource[], compiled: readonly CompiledFile[]) => {
    const files = new Set(sources.map((s) => s.file));
    for (const file of cache.keys()) if (!files.has(file)) cache.delete(file);
    for (const c of compiled) if (cache.get(c.file)?.compiled !== c) cache.set(c.file, { sourceHash: c.sourceHash, compiled: c });
  };

  const project: SopProject = {
    layout,
    fileOf: (path) => projectFileOf(layout, path),
    pathOf: (file) => projectPathOf(layout, file),
    isSource: (path) => isProjectSource(layout, path),
    readSources: (open) => readSources(layout, open),

    async compileDocument(file, text) {
      const sourceHash = hashSource(text);
      const hit = cache.get(file);
      if (hit?.sourceHash === sourceHash && hit.document !== undefined) return hit.document;
      const { compileDocument } = await import('./compile-document.js');
      const document = compileDocument(file, text, sourceHash, hit?.document?.yaml);
      cache.set(file, { sourceHash, compiled: document.compiled, document });
      return document;
    },

    async check(sources) {
      const reused = sources.map((s) => reuse(s.file, s.sourceHash));
      const fresh = await compileInParallel(sources.filter((_, i) => reused[i] === undefined));
      const compiled = reused.map((r) => r ?? fresh.shift()!);
      remember(sources, compiled);
      return {
        compiled: new Map(compiled.map((c) => [c.file, c])),
        diagnostics: await diagnosticsOf(compiled, facts, tokenCounts, agents, across),
      };
    },

    async plan(sources, options = {}) {
      const build = await planBuild(sources, { previous: options.previous ?? null, reuse, printed });
      remember(sources, build.compiled);
      if (!layout.paths) return build;
      const { pathFixtures } = await import('../paths/path-fixtures.js');
      const outputs = [...build.outputs, ...pathFixtures(build.outputs)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { ...build, outputs };
    },

    build: (request) => buildOutputFolder(project, request),
  };
  return project;
}

/** What a check derives from one compiled file alone: its agent and its token budget's diagnostics. */
interface FileFacts {
  /** The agent it compiles to; null when it has errors of its own. */
  readonly agent: CompiledAgent | null;
  /** Its budget's diagnostics, once asked for (only for a file emitted in the build). */
  budget?: readonly Diagnostic[];
}

/** The cross-file checks' last result, and the files it was of. */
interface AcrossCache {
  last: { readonly compiled: readonly CompiledFile[]; readonly diagnostics: readonly Diagnostic[] } | null;
}

/**
 * Each file's diagnostics as `planBuild` reports them, without emitting: its own, the cross-file checks', and the
 * token budget of a file without errors, measured on its agent compiled in memory (the data the bundle would hold).
 * What depends on one file alone is kept per compiled file (`facts`), so a check after one edit derives it for that
 * file only; the cross-file checks run again only when what they read may have changed (`acrossUnchanged`).
 */
async function diagnosticsOf(
  compiled: readonly CompiledFile[],
  facts: WeakMap<CompiledFile, FileFacts>,
  tokenCounts: TokenCountCache,
  agents: AgentCache,
  across: AcrossCache,
): Promise<Map<string, readonly Diagnostic[]>> {
  const last = across.last;
  const projectDiagnostics =
    last !== null && acrossUnchanged(last.compiled, compiled)
      ? last.diagnostics
      : [...checkProject(compiled.flatMap((c) => (c.model ? [c.model] : []))), ...compositionDiagnostics(compiled, agents)];
  across.last = { compiled, diagnostics: projectDiagnostics };
  const failing = new Set(projectDiagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  const factsOf = (c: CompiledFile): FileFacts => {
    let known = facts.get(c);
    if (known === undefined) {
      known = { agent: c.model === null || hasErrors(c.diagnostics) ? null : compiledAgentOf(c) };
      facts.set(c, known);
    }
    return known;
  };
  const emitted = compiled.filter((c) => !failing.has(c.file) && factsOf(c).agent?.ok === true);
  const unmeasured = emitted.filter((c) => factsOf(c).budget === undefined);
  const budgets = await budgetDiagnosticsOf(
    unmeasured.flatMap((c) => {
      const agent = factsOf(c).agent;
      return c.model !== null && agent?.ok === true ? [{ model: c.model, sop: agent.sop }] : [];
    }),
    tokenCounts,
  );
  for (const c of unmeasured) factsOf(c).budget = budgets.get(c.file) ?? [];
  return new Map(
    compiled.map((c) => {
      const { agent, budget } = factsOf(c);
      const own = withinFileCap(c.diagnostics, !failing.has(c.file) && agent?.ok === true ? (budget ?? []) : []);
      const across = projectDiagnostics.filter((d) => d.file === c.file);
      const failure = agent !== null && !agent.ok && agent.error !== null ? [internalErrorDiagnostic(c.file, agent.error)] : [];
      return [c.file, [...own, ...across, ...failure].sort(compareDiagnostics)];
    }),
  );
}

/**
 * Whether the cross-file checks would say the same of `now` as of `before`: the same files, all compiled the same but
 * one (the file being typed in), and that one the same to them. They read of a file its agent's name and where it is
 * written (SOP032, SOP033), whether it could be modelled and has errors, and the sub-flows it calls and is called
 * by (SOP054/055/069/072–076, at the calling file); a file that calls none and that none calls is only its name to
 * them. So an edit of a prompt skips them (the language server's check after each keystroke).
 */
function acrossUnchanged(before: readonly CompiledFile[], now: readonly CompiledFile[]): boolean {
  if (before.length !== now.length) return false;
  let changed = -1;
  for (let i = 0; i < now.length; i++) {
    if (before[i] === now[i]) continue;
    if (changed >= 0 || before[i]!.file !== now[i]!.file) return false;
    changed = i;
  }
  if (changed < 0) return true;
  const old = before[changed]!;
  const fresh = now[changed]!;
  if (old.model === null || fresh.model === null) return old.model === fresh.model;
  const at = (m: SopModel) => `${m.agent}\u0000${m.agentSpan.start.line}:${m.agentSpan.start.column}`;
  if (at(old.model) !== at(fresh.model) || hasErrors(old.diagnostics) !== hasErrors(fresh.diagnostics)) return false;
  if ([old.model, fresh.model].some((m) => m.prompts.some((p) => p.subflow !== null))) return false;
  const agent = fresh.model.agent;
  return !now.some((c) => c.model?.prompts.some((p) => p.subflow?.agent === agent));
}
