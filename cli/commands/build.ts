/**
 * `sop build`: compile `sops/*.md` into `generated/`. Parses the flags, asks the build API (`generator/project/`) to
 * write the output (`build`), compare it (`--check`), or keep doing so on every change (`--watch`), and prints what
 * it answers. All diagnostics of all files are printed before the exit code is decided: 0 clean or warnings only,
 * 1 errors, more warnings than `--max-warnings N` allows (as eslint's: `--max-warnings 0` fails on any), (with --check)
 * stale output, or no SOP to build; 2 bad usage (a missing SOP folder included) or an internal failure. The JSON
 * result's `status` always agrees with the exit code.
 *
 * A folder without SOPs fails instead of building nothing: a build pointed at the wrong folder must not pass CI,
 * nor delete every generated file as an orphan. Nothing is written then.
 *
 * `--paths` (or `"paths": true` in sop.config.json) adds each agent's golden paths (`<agent>/paths.json`) to the
 * output; `--report` prints what each agent costs in tokens (o200k) after the build. Only these load the path
 * search or the tokenizer. `--check-tools` also reaches each SOP's domain servers and checks its tool names against
 * what they offer (SOP067): the one option that starts processes or opens connections.
 */
import { existsSync, statSync } from 'node:fs';
import { renderTokenReport } from '../../generator/tokens/render-token-report.js';
import { loadTokenCounter } from '../../generator/tokens/token-counter.js';
import type { AgentTokenReport } from '../../generator/tokens/token-report.js';
import type { BuildRun } from '../../generator/project/build-output-folder.js';
import { openProject, type SopProject } from '../../generator/project/open-project.js';
import { watchSources } from '../../generator/project/watch-sources.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { compareDiagnostics, hasErrors } from '../../generator/diagnostics/diagnostic.js';
import { toValidationResult } from '../../generator/diagnostics/render-json.js';
import { renderDiagnostics, summarize } from '../../generator/diagnostics/render-text.js';
import { oneOf, readCommandArgs, usageError, wholeNumber } from '../command-args.js';
import { locateProject } from '../config.js';
import { displayPath as display } from '../project-root.js';

interface BuildOptions {
  readonly report: boolean;
  /** Also check the SOPs' tools against their domain servers (`--check-tools`). */
  readonly checkTools: boolean;
  readonly check: boolean;
  readonly watch: boolean;
  readonly format: 'text' | 'json';
  /** `--max-warnings N`: more warnings than N fail the build; null when not given. */
  readonly maxWarnings: number | null;
}

const USAGE = `Usage: sop build [--sops DIR] [--out DIR] [--check | --watch] [--paths] [--report] [--check-tools]
                 [--max-warnings N] [--format text|json]
  Compiles the SOPs (sops/*.md) into the output folder (generated/): npm run build:sops.
  --sops DIR        SOP folder (default: sop.config.json's, else sops)
  --out DIR         output folder (default: sop.config.json's, else generated)
  --check           write nothing; exit 1 listing stale, missing and orphaned files
  --watch           rebuild on change, keep running through errors
  --paths           also write each agent's golden paths (<out>/<agent>/paths.json; or "paths": true)
  --report          print each agent's tokens (o200k): system prompt, node prompts, goto_node answers
  --check-tools     reach each SOP's mcp_servers and check its tool names against what they offer (SOP067)
  --max-warnings N  exit 1 when there are more than N warnings (as eslint's; sop init's check:sops uses 0)
  --format text|json   (default text)
`;

const COMMAND = { name: 'build', usage: USAGE };

export async function runBuild(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    options: {
      sops: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'boolean', default: false },
      watch: { type: 'boolean', default: false },
      format: { type: 'string' },
      paths: { type: 'boolean', default: false },
      report: { type: 'boolean', default: false },
      'check-tools': { type: 'boolean', default: false },
      'max-warnings': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const format = oneOf('--format', values.format, ['text', 'json'], 'text');
  if ('problem' in format) return usageError(COMMAND, format.problem);
  if (values.check && values.watch) return usageError(COMMAND, '--check and --watch cannot be combined');
  const maxWarnings = values['max-warnings'] === undefined ? null : wholeNumber(values['max-warnings'], 0);
  if (maxWarnings === undefined)
    return usageError(COMMAND, `--max-warnings must be a whole number of warnings (0 or more), not '${values['max-warnings']}'`);
  const located = locateProject(process.cwd(), { sops: values.sops, out: values.out, paths: values.paths });
  if (!located.ok) {
    process.stderr.write(`sop build: ${located.error}\n`);
    return 2;
  }
  const project = openProject(located.paths);
  const options: BuildOptions = {
    report: values.report,
    checkTools: values['check-tools'],
    check: values.check,
    watch: values.watch,
    format: format.value,
    maxWarnings,
  };
  const { root, sopsDir } = project.layout;
  if (!existsSync(sopsDir) || !statSync(sopsDir).isDirectory()) {
    process.stderr.write(`sop build: no SOP folder at ${display(root, sopsDir)}/ (create it and add a SOP, or pass --sops DIR).\n`);
    return 2;
  }
  if (options.report) {
    // Asked for by name: say it cannot be done before building, rather than build and leave the report out.
    const counter = await loadTokenCounter();
    if (!counter.ok) {
      process.stderr.write(`sop build --report: ${counter.error}\n`);
      return 2;
    }
  }
  if (options.watch) return watchLoop(project, options);
  return buildOnce(project, options, { useCache: !options.check });
}

async function buildOnce(project: SopProject, options: BuildOptions, { useCache }: { useCache: boolean }): Promise<number> {
  const started = performance.now();
  const built = await project.build({ check: options.check, useCache, report: options.report });
  const run = options.checkTools ? await withToolChecks(project, built) : built;
  printRun(project, options, run, started);
  return exitCode(run, options);
}

/** The run with SOP067 for tools the domain servers do not offer (loaded only with --check-tools: it starts MCP clients). */
async function withToolChecks(project: SopProject, run: BuildRun): Promise<BuildRun> {
  if (run.kind === 'no-sources') return run;
  const { checkDomainTools } = await import('../check-tools.js');
  const checked = await project.check(run.sources);
  const models = [...checked.compiled.values()].flatMap((compiled) => (compiled.model === null ? [] : [compiled.model]));
  const found = await checkDomainTools(models, { root: project.layout.root });
  return found.length === 0 ? run : { ...run, diagnostics: [...run.diagnostics, ...found].sort(compareDiagnostics) };
}

function exitCode(run: BuildRun, options: BuildOptions): number {
  if (run.kind !== 'no-sources' && tooManyWarnings(run.diagnostics, options) !== null) return 1;
  switch (run.kind) {
    case 'no-sources':
      return 1;
    case 'checked': {
      const { stale, missing, orphaned } = run.comparison;
      return hasErrors(run.diagnostics) || stale.length + missing.length + orphaned.length > 0 ? 1 : 0;
    }
    default:
      return hasErrors(run.diagnostics) ? 1 : 0;
  }
}

/** Why the warnings fail the build (`--max-warnings`), or null. */
function tooManyWarnings(diagnostics: readonly Diagnostic[], options: BuildOptions): string | null {
  if (options.maxWarnings === null) return null;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return warnings > options.maxWarnings
    ? `${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${options.maxWarnings} allows`
    : null;
}

function printRun(project: SopProject, options: BuildOptions, run: BuildRun, started: number): void {
  const { root, sopsDir, outDir } = project.layout;
  const outDisplay = display(root, outDir);
  switch (run.kind) {
    case 'no-sources': {
      const none = `no SOP files (*.md) in ${display(root, sopsDir)}/`;
      report(project, options, run.sources, [], started, `${none}: nothing was built`, { failures: [none] });
      return;
    }
    case 'up-to-date':
      report(project, options, run.sources, run.diagnostics, started, 'up to date (no SOP changed)', { tokens: run.tokens });
      return;
    case 'checked': {
      const { stale, missing, orphaned } = run.comparison;
      const lines = [
        ...stale.map((p) => `stale: ${outDisplay}/${p}`),
        ...missing.map((p) => `missing: ${outDisplay}/${p}`),
        ...orphaned.map((p) => `orphaned: ${outDisplay}/${p}`),
      ];
      const fresh = lines.length === 0;
      const count = run.sources.length;
      const status = fresh
        ? `${outDisplay}/ is up to date with ${count} SOP${count === 1 ? '' : 's'}`
        : `${outDisplay}/ is out of date: run npm run build:sops\n${lines.join('\n')}`;
      const outOfDate = `${outDisplay}/ is out of date (${stale.length} stale, ${missing.length} missing, ${orphaned.length} orphaned files)`;
      report(project, options, run.sources, run.diagnostics, started, status, {
        failures: fresh ? [] : [outOfDate],
        extra: { stale, missing, orphaned },
        tokens: run.tokens,
      });
      return;
    }
    case 'written': {
      const { stale, missing, unchanged, orphaned } = run.comparison;
      const written = stale.length + missing.length;
      const failedNote = run.complete ? '' : '; files with errors were not emitted and their previous output was kept';
      const status = `${written} file${written === 1 ? '' : 's'} written, ${unchanged.length} unchanged, ${orphaned.length} deleted${failedNote}`;
      report(project, options, run.sources, run.diagnostics, started, status, { tokens: run.tokens });
      return;
    }
  }
}

function report(
  project: SopProject,
  options: BuildOptions,
  sources: readonly { readonly file: string; readonly raw: string }[],
  diagnostics: readonly Diagnostic[],
  started: number,
  status: string,
  outcome: {
    readonly failures?: readonly string[];
    readonly extra?: Record<string, unknown>;
    readonly tokens?: readonly AgentTokenReport[] | null;
  },
): void {
  const seconds = (performance.now() - started) / 1000;
  const tokens = outcome.tokens ?? null;
  const warned = tooManyWarnings(diagnostics, options);
  const failures = [...(outcome.failures ?? []), ...(warned === null ? [] : [warned])];
  if (options.format === 'json') {
    const result = toValidationResult(diagnostics, {
      seconds,
      scope: `sops:${display(project.layout.root, project.layout.sopsDir)}`,
      version: '1.0.0',
      now: new Date(),
      failures,
      extra: {
        files: sources.length,
        status_detail: status,
        ...outcome.extra,
        ...(tokens === null ? {} : { token_report: tokens }),
      },
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (tokens !== null) process.stdout.write(`${renderTokenReport(tokens)}\n`);
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const rendered = renderDiagnostics(diagnostics, { sources: new Map(sources.map((s) => [s.file, s.raw])), color });
  if (rendered) process.stdout.write(`${rendered}\n\n`);
  process.stdout.write(
    `sop build: ${sources.length} SOP${sources.length === 1 ? '' : 's'}, ${summarize(diagnostics)}; ${status} (${Math.round(seconds * 1000)} ms)\n`,
  );
  if (warned !== null) process.stdout.write(`sop build: failed: ${warned}\n`);
}

async function watchLoop(project: SopProject, options: BuildOptions): Promise<number> {
  await buildOnce(project, options, { useCache: false });
  process.stdout.write(`sop build: watching ${display(project.layout.root, project.layout.sopsDir)}/ (Ctrl-C to stop)\n`);
  // The project keeps what it compiled: a rebuild compiles and prints only the SOPs that changed.
  const watch = watchSources(project.layout.sopsDir, () => buildOnce(project, options, { useCache: false }).then(() => undefined), {
    onError: (error) => process.stderr.write(`sop build: internal error during rebuild (still watching): ${String(error)}\n`),
  });
  return new Promise((done) => {
    const stop = () => {
      watch.close();
      done(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
