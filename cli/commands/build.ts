/**
 * `sop build`: compile `sops/*.md` into `generated/`. Reads the sources, asks the generator for the planned
 * output, then writes it (`build`), compares it (`--check`), or keeps doing so on every change (`--watch`).
 * All diagnostics of all files are printed before the exit code is decided: 0 clean or warnings only,
 * 1 errors, (with --check) stale output, or no SOP to build; 2 bad usage (a missing SOP folder included) or an
 * internal failure. The JSON result's `status` always agrees with the exit code.
 *
 * A folder without SOPs fails instead of building nothing: a build pointed at the wrong folder must not pass CI,
 * nor delete every generated file as an orphan. Nothing is written then.
 *
 * `--paths` (or `"paths": true` in sop.config.json) adds each agent's golden paths (`<agent>/paths.json`) to the
 * output; `--report` prints what each agent costs in tokens (o200k) after the build, from the bundle it planned
 * (or, when nothing changed, the one on disk). Only these load the path search or the tokenizer.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { hasErrors } from '../../generator/diagnostics/diagnostic.js';
import { renderDiagnostics, summarize } from '../../generator/diagnostics/render-text.js';
import { toValidationResult } from '../../generator/diagnostics/render-json.js';
import { hashSource } from '../../contract/source-hash.js';
import {
  generatorFingerprint,
  hashOutputs,
  manifestMatches,
  manifestPath,
  readManifest,
  writeManifest,
} from '../../generator/write/build-cache.js';
import { listFiles } from '../../generator/write/compare-outputs.js';
import { locateProject } from '../config.js';
import { displayPath as display } from '../project-root.js';
import { readBundle } from '../../runtime/agents/read-bundle.js';
import { BUNDLE_PATH } from '../../generator/emit/bundle-plan.js';
import type { GeneratedFile } from '../../generator/emit/emit-project.js';
import type { AgentTokenReport } from '../../generator/analyze/token-report.js';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { LIMITS } from '../../generator/limits.js';

interface BuildOptions {
  readonly sopsDir: string;
  readonly outDir: string;
  readonly paths: boolean;
  readonly report: boolean;
  readonly check: boolean;
  readonly watch: boolean;
  readonly format: 'text' | 'json';
  readonly root: string;
}

interface Source {
  readonly file: string;
  readonly raw: string;
  /** Hash of the file's EOL-normalised text, as the runtime computes it. */
  readonly sourceHash: string;
}

export async function runBuild(args: readonly string[]): Promise<number> {
  let options: BuildOptions;
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: {
        sops: { type: 'string' },
        out: { type: 'string' },
        check: { type: 'boolean', default: false },
        watch: { type: 'boolean', default: false },
        format: { type: 'string', default: 'text' },
        paths: { type: 'boolean', default: false },
        report: { type: 'boolean', default: false },
      },
      allowPositionals: false,
    });
    void positionals;
    if (values.format !== 'text' && values.format !== 'json') throw new Error(`--format must be text or json, not '${values.format}'`);
    if (values.check && values.watch) throw new Error('--check and --watch cannot be combined');
    const located = locateProject(process.cwd(), { sops: values.sops, out: values.out, paths: values.paths });
    if (!located.ok) {
      process.stderr.write(`sop build: ${located.error}\n`);
      return 2;
    }
    const { root, sopsDir, outDir, paths } = located.paths;
    options = { sopsDir, outDir, paths, report: values.report, check: values.check, watch: values.watch, format: values.format, root };
  } catch (error) {
    process.stderr.write(`sop build: ${(error as Error).message}\nRun 'sop --help' for usage.\n`);
    return 2;
  }
  if (!existsSync(options.sopsDir) || !statSync(options.sopsDir).isDirectory()) {
    process.stderr.write(
      `sop build: no SOP folder at ${display(options.root, options.sopsDir)}/ (create it and add a SOP, or pass --sops DIR).\n`,
    );
    return 2;
  }
  if (options.report) {
    // Asked for by name: say it cannot be done before building, rather than build and leave the report out.
    const { loadTokenCounter } = await import('../../generator/analyze/token-counter.js');
    const counter = await loadTokenCounter();
    if (!counter.ok) {
      process.stderr.write(`sop build --report: ${counter.error}\n`);
      return 2;
    }
  }
  if (options.watch) return watchLoop(options);
  return buildOnce(options, { useCache: !options.check });
}

function readSources(options: BuildOptions): Source[] {
  return readdirSync(options.sopsDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      // The hash of the decoded text is the hash of the bytes (`hashSource` decodes them the same way): decode once.
      const raw = readSource(join(options.sopsDir, name)).toString('utf8');
      return { file: display(options.root, join(options.sopsDir, name)), raw, sourceHash: hashSource(raw) };
    });
}

/**
 * A SOP's bytes; of a file far over the compiler's size limit only enough to exceed it (the compiler refuses it
 * with SOP092), so that a stray multi-gigabyte file cannot exhaust memory or Node's buffer limit.
 */
function readSource(path: string): Buffer {
  const enough = LIMITS.fileCharacters * 4 + 4; // UTF-8: at most 4 bytes per character
  if (statSync(path).size <= enough) return readFileSync(path);
  const buffer = Buffer.alloc(enough);
  const fd = openSync(path, 'r');
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, enough, 0));
  } finally {
    closeSync(fd);
  }
}

async function buildOnce(options: BuildOptions, { useCache }: { useCache: boolean }): Promise<number> {
  const started = performance.now();
  const sources = readSources(options);
  if (sources.length === 0) {
    report(options, sources, [], started, `no SOP files (*.md) in ${display(options.root, options.sopsDir)}/: nothing was built`, {
      failures: [`no SOP files (*.md) in ${display(options.root, options.sopsDir)}/`],
    });
    return 1;
  }
  const sourceHashes = Object.fromEntries(sources.map((s) => [s.file, s.sourceHash]));
  const cacheFile = manifestPath(options.root, options.sopsDir, options.outDir);
  // The path fixtures are output too: a build that adds them is not the build that did not.
  const fingerprint = `${generatorFingerprint()}${options.paths ? '+paths' : ''}`;

  if (useCache) {
    const manifest = readManifest(cacheFile);
    if (manifest && manifestMatches(manifest, fingerprint, sourceHashes, options.outDir)) {
      const onDisk = readBundle(join(options.outDir, BUNDLE_PATH));
      const tokens = await tokenSection(options, onDisk.ok ? onDisk.bundle : null);
      report(options, sources, manifest.diagnostics, started, 'up to date (no SOP changed)', { tokens });
      return hasErrors(manifest.diagnostics) ? 1 : 0;
    }
  }

  const { buildProject } = await import('../../generator/build-project.js');
  const { compareOutputs } = await import('../../generator/write/compare-outputs.js');
  // Failed SOPs keep their last good version in the project files: the previous bundle holds it.
  const previous = readBundle(join(options.outDir, BUNDLE_PATH));
  const build = await buildProject(sources, { previous: previous.ok ? previous.bundle : null });
  const outputs = options.paths ? await withPathFixtures(build.outputs) : build.outputs;
  const comparison = compareOutputs(options.outDir, outputs, { complete: build.complete, keepAgents: build.failedAgents });
  const tokens = await tokenSection(options, plannedBundle(outputs));
  const outDisplay = display(options.root, options.outDir);

  if (options.check) {
    const lines = [
      ...comparison.stale.map((p) => `stale: ${outDisplay}/${p}`),
      ...comparison.missing.map((p) => `missing: ${outDisplay}/${p}`),
      ...comparison.orphaned.map((p) => `orphaned: ${outDisplay}/${p}`),
    ];
    const fresh = lines.length === 0;
    const status = fresh
      ? `${outDisplay}/ is up to date with ${sources.length} SOP${sources.length === 1 ? '' : 's'}`
      : `${outDisplay}/ is out of date: run npm run build:sops\n${lines.join('\n')}`;
    const outOfDate = `${outDisplay}/ is out of date (${comparison.stale.length} stale, ${comparison.missing.length} missing, ${comparison.orphaned.length} orphaned files)`;
    report(options, sources, build.diagnostics, started, status, {
      failures: fresh ? [] : [outOfDate],
      extra: { stale: comparison.stale, missing: comparison.missing, orphaned: comparison.orphaned },
      tokens,
    });
    return hasErrors(build.diagnostics) || !fresh ? 1 : 0;
  }

  const { writeOutputs } = await import('../../generator/write/write-outputs.js');
  writeOutputs(options.outDir, outputs, comparison);
  const written = comparison.stale.length + comparison.missing.length;
  const failedNote = build.complete ? '' : '; files with errors were not emitted and their previous output was kept';
  report(
    options,
    sources,
    build.diagnostics,
    started,
    `${written} file${written === 1 ? '' : 's'} written, ${comparison.unchanged.length} unchanged, ${comparison.orphaned.length} deleted${failedNote}`,
    { tokens },
  );
  // A build that could not check a token budget is not replayed: installing the tokenizer must take effect.
  if (!build.diagnostics.some((d) => d.code === 'SOP058'))
    writeManifest(cacheFile, {
      fingerprint,
      sources: sourceHashes,
      outputs: hashOutputs(options.outDir, listFiles(options.outDir), outputs),
      diagnostics: build.diagnostics,
    });
  return hasErrors(build.diagnostics) ? 1 : 0;
}

function report(
  options: BuildOptions,
  sources: readonly Source[],
  diagnostics: readonly Diagnostic[],
  started: number,
  status: string,
  outcome: { readonly failures?: readonly string[]; readonly extra?: Record<string, unknown>; readonly tokens?: TokenSection | null },
): void {
  const seconds = (performance.now() - started) / 1000;
  const tokens = outcome.tokens ?? null;
  if (options.format === 'json') {
    const result = toValidationResult(diagnostics, {
      seconds,
      scope: `sops:${display(options.root, options.sopsDir)}`,
      version: '1.0.0',
      now: new Date(),
      failures: outcome.failures ?? [],
      extra: {
        files: sources.length,
        status_detail: status,
        ...outcome.extra,
        ...(tokens === null ? {} : { token_report: tokens.reports }),
      },
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (tokens !== null) process.stdout.write(`${tokens.text}\n`);
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const rendered = renderDiagnostics(diagnostics, { sources: new Map(sources.map((s) => [s.file, s.raw])), color });
  if (rendered) process.stdout.write(`${rendered}\n\n`);
  process.stdout.write(
    `sop build: ${sources.length} SOP${sources.length === 1 ? '' : 's'}, ${summarize(diagnostics)}; ${status} (${Math.round(seconds * 1000)} ms)\n`,
  );
}

interface TokenSection {
  readonly reports: readonly AgentTokenReport[];
  readonly text: string;
}

/** `--report`: the token counts of every agent of `bundle` (null without --report, or without a bundle). */
async function tokenSection(options: BuildOptions, bundle: SopBundle | null): Promise<TokenSection | null> {
  if (!options.report || bundle === null) return null;
  const [{ loadTokenCounter }, { tokenReport }, { renderTokenReport }] = await Promise.all([
    import('../../generator/analyze/token-counter.js'),
    import('../../generator/analyze/token-report.js'),
    import('../../generator/analyze/render-token-report.js'),
  ]);
  const counter = await loadTokenCounter();
  if (!counter.ok) return null; // runBuild refused --report already
  const reports = Object.values(bundle.agents).map((sop) => tokenReport(sop, counter.count));
  return { reports, text: renderTokenReport(reports) };
}

/** The bundle among the planned outputs, or null when the build plans none. */
function plannedBundle(outputs: readonly GeneratedFile[]): SopBundle | null {
  const file = outputs.find((f) => f.path === BUNDLE_PATH);
  return file === undefined ? null : (JSON.parse(file.content) as SopBundle);
}

async function withPathFixtures(outputs: readonly GeneratedFile[]): Promise<GeneratedFile[]> {
  const { pathFixtures } = await import('../../generator/analyze/path-fixtures.js');
  return [...outputs, ...pathFixtures(outputs)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function watchLoop(options: BuildOptions): Promise<number> {
  await buildOnce(options, { useCache: false });
  process.stdout.write(`sop build: watching ${display(options.root, options.sopsDir)}/ (Ctrl-C to stop)\n`);
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const watcher = watch(options.sopsDir, (_event, name) => {
    if (name && !String(name).endsWith('.md')) return;
    clearTimeout(timer);
    // Editors write a file in several steps: wait until they are done, and never run two builds at once.
    timer = setTimeout(() => {
      running = running
        .then(() => buildOnce(options, { useCache: false }))
        .then(
          () => undefined,
          (error: unknown) => {
            process.stderr.write(`sop build: internal error during rebuild (still watching): ${String(error)}\n`);
          },
        );
    }, 100);
  });
  return new Promise((done) => {
    const stop = () => {
      watcher.close();
      clearTimeout(timer);
      done(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
