/**
 * A build of the output folder, what `SopProject.build` does: read the sources, plan the output, then write the
 * output folder or compare it with the plan (`--check`). Every front end builds through it; the caller only prints
 * the result.
 *
 * - A build (not `--check`) first looks at the manifest of the last one (`write/build-cache.ts`): when neither the
 *   sources, nor the compiler, nor the output on disk changed, it replays that build's diagnostics without parsing
 *   markdown or loading ts-morph.
 * - Failed SOPs keep their last good version in the project files: the previous bundle on disk holds it.
 * - A build that could not check a token budget (SOP058) writes no manifest: installing the tokenizer must take
 *   effect on the next build.
 * - `report` adds what each agent costs in tokens (o200k), from the bundle the build planned, or the one on disk
 *   when nothing changed.
 */
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { readBundle } from '../../contract/read-bundle.js';
import type { AgentTokenReport } from '../tokens/token-report.js';
import { plannedBundle } from './plan-build.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { BUNDLE_PATH } from '../emit/bundle-plan.js';
import { generatorFingerprint, hashOutputs, manifestMatches, manifestPath, readManifest, writeManifest } from '../write/build-cache.js';
import { listFiles, type OutputComparison } from '../write/compare-outputs.js';
import type { ProjectLayout, ProjectSource } from './read-sources.js';
import type { BuildPlan } from './plan-build.js';

export interface BuildRequest {
  /** Compare the planned output with the output folder instead of writing it. */
  readonly check: boolean;
  /** Replay the last build when nothing changed since (never with `check`). */
  readonly useCache: boolean;
  /** Also count each agent's tokens. */
  readonly report: boolean;
}

interface Built {
  readonly sources: readonly ProjectSource[];
  readonly diagnostics: readonly Diagnostic[];
  /** Each agent's token counts, with `report`. */
  readonly tokens: readonly AgentTokenReport[] | null;
}

export type BuildRun =
  | { readonly kind: 'no-sources'; readonly sources: readonly ProjectSource[] }
  /** Nothing changed since the last build: its diagnostics, replayed. */
  | ({ readonly kind: 'up-to-date' } & Built)
  | ({ readonly kind: 'checked'; readonly comparison: OutputComparison } & Built)
  | ({
      readonly kind: 'written';
      readonly comparison: OutputComparison;
      /** False when files with errors were not emitted (their previous output was kept). */
      readonly complete: boolean;
    } & Built);

/** What a build of the output folder needs of its project: where things are, its sources, and a plan of them. */
export interface PlannedProject {
  readonly layout: ProjectLayout;
  readSources(): ProjectSource[];
  plan(sources: readonly ProjectSource[], options: { readonly previous: SopBundle | null }): Promise<BuildPlan>;
}

export async function buildOutputFolder(project: PlannedProject, request: BuildRequest): Promise<BuildRun> {
  const { layout } = project;
  const sources = project.readSources();
  if (sources.length === 0) return { kind: 'no-sources', sources };
  const sourceHashes = Object.fromEntries(sources.map((s) => [s.file, s.sourceHash]));
  const cacheFile = manifestPath(layout.root, layout.sopsDir, layout.outDir);
  // The path fixtures are output too: a build that adds them is not the build that did not.
  const fingerprint = `${generatorFingerprint()}${layout.paths ? '+paths' : ''}`;
  const bundleOnDisk = (): SopBundle | null => {
    const read = readBundle(join(layout.outDir, BUNDLE_PATH));
    return read.ok ? read.bundle : null;
  };
  const tokensOf = (bundle: SopBundle | null) => (request.report ? tokenReports(bundle) : Promise.resolve(null));

  if (request.useCache && !request.check) {
    const manifest = readManifest(cacheFile);
    if (manifest && manifestMatches(manifest, fingerprint, sourceHashes, layout.outDir)) {
      return { kind: 'up-to-date', sources, diagnostics: manifest.diagnostics, tokens: await tokensOf(bundleOnDisk()) };
    }
  }

  const { compareOutputs } = await import('../write/compare-outputs.js');
  const build = await project.plan(sources, { previous: bundleOnDisk() });
  const comparison = compareOutputs(layout.outDir, build.outputs, { complete: build.complete, keepAgents: build.failedAgents });
  const tokens = await tokensOf(plannedBundle(build.outputs));
  if (request.check) return { kind: 'checked', sources, diagnostics: build.diagnostics, comparison, tokens };

  const { writeOutputs } = await import('../write/write-outputs.js');
  writeOutputs(layout.outDir, build.outputs, comparison);
  if (!build.diagnostics.some((d) => d.code === 'SOP058'))
    writeManifest(cacheFile, {
      fingerprint,
      sources: sourceHashes,
      outputs: hashOutputs(layout.outDir, listFiles(layout.outDir), build.outputs),
      diagnostics: build.diagnostics,
    });
  return { kind: 'written', sources, diagnostics: build.diagnostics, comparison, complete: build.complete, tokens };
}

/** The token counts of every agent of `bundle` (null without a bundle, or without the tokenizer). */
async function tokenReports(bundle: SopBundle | null): Promise<readonly AgentTokenReport[] | null> {
  if (bundle === null) return null;
  const [{ loadTokenCounter }, { tokenReport }] = await Promise.all([
    import('../tokens/token-counter.js'),
    import('../tokens/token-report.js'),
  ]);
  const counter = await loadTokenCounter();
  if (!counter.ok) return null;
  return Object.values(bundle.agents).map((sop) => tokenReport(sop, counter.count));
}
