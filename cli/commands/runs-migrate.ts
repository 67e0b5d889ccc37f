/**
 * `sop runs migrate --agent A [--to HASH] [--dry-run]`: moves the runs of A in a store to a new version of its SOP
 * (default: the one the app's bundle serves; `--to` names another the bundle or the store holds), run by run, each
 * one compare-and-set commit with its audit entry, and says for every run what it did and why
 * (`runtime/service/run-migration.ts`). `--dry-run` decides without committing.
 *
 * Exit codes: 0 done (runs that stay are reported, not failures); 1 the store or the version cannot be found; 2 bad
 * usage.
 */
import { existsSync } from 'node:fs';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { createCatalog } from '../../runtime/agents/agent-catalog.js';
import { migrateRuns, type RunMigration } from '../../runtime/service/run-migration.js';
import {
  DEFAULT_DURABLE_STORE,
  describeStoreLocation,
  openRunStore,
  parseStoreUrl,
  STORE_FORMS,
} from '../../runtime/store/open-run-store.js';
import type { RunStore } from '../../runtime/store/run-store.js';
import { readProjectBundle } from '../project-bundle.js';
import { findProjectRoot } from '../project-root.js';
import { oneOf, readCommandArgs, usageError } from '../command-args.js';

const USAGE = `Usage: sop runs migrate --agent A [--to HASH] [--dry-run] [--store URL] [--out DIR] [--format text|json]
  Moves the runs of agent A to a new version of its SOP, run by run: a run moves when its path (renames applied)
  is a walk the new version allows and the new version's policies hold on it; otherwise it stays, and says why.
  --to HASH    the version (default: the one the bundle in the output folder serves)
  --dry-run    decide, commit nothing
  --store URL  ${STORE_FORMS}
               (default ${DEFAULT_DURABLE_STORE} under the app root, as sop serve --http)
  --out DIR    the output folder holding sop-bundle.json (default: sop.config.json's, else generated)
`;

const COMMAND = { name: 'runs migrate', usage: USAGE };

export async function runMigrate(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    options: {
      agent: { type: 'string' },
      to: { type: 'string' },
      'dry-run': { type: 'boolean' },
      store: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const chosen = oneOf('--format', values.format, ['text', 'json'], 'text');
  if ('problem' in chosen) return usage(chosen.problem);
  const format = chosen.value;
  if (values.agent === undefined) return usage('name the agent whose runs move: --agent A');
  const agent = values.agent;
  const root = findProjectRoot(process.cwd());
  const storeUrl = values.store ?? DEFAULT_DURABLE_STORE;
  const location = parseStoreUrl(storeUrl, root);
  if (!location.ok) return fail(location.error);
  if (location.location.kind === 'sqlite' && !existsSync(location.location.path)) return fail(`no run store at ${location.location.path}`);
  const opened = await openRunStore(storeUrl, { root });
  if (!opened.ok) return fail(opened.error);
  try {
    const target = await targetVersion(opened.store, agent, values.to, values.out);
    if (!target.ok) return fail(target.error);
    const dryRun = values['dry-run'] === true;
    const results = await migrateRuns({ store: opened.store, agent, target: target.sop, dryRun });
    const where = describeStoreLocation(location.location);
    process.stdout.write(
      format === 'json' ? json(agent, target.sop, dryRun, where, results) : text(agent, target.sop, dryRun, where, results),
    );
    return 0;
  } finally {
    await opened.store.close();
  }
}

/** The version to move to: the bundle's (expanded with the SOPs it calls), or the one `--to` names (bundle or store). */
async function targetVersion(
  store: RunStore,
  agent: string,
  hash: string | undefined,
  out: string | undefined,
): Promise<{ ok: true; sop: CompiledSop } | { ok: false; error: string }> {
  const project = readProjectBundle(process.cwd(), out);
  const served = project.ok ? createCatalog(project.bundle).composed(agent) : undefined;
  if (served?.ok === true && (hash === undefined || served.sop.sourceHash === hash)) return { ok: true, sop: served.sop };
  if (hash === undefined) {
    if (!project.ok) return { ok: false, error: `${project.error}; or name the version with --to HASH` };
    return {
      ok: false,
      error: served === undefined ? `the bundle has no agent ${agent}` : `${agent} cannot be served: ${served.ok ? '' : served.error}`,
    };
  }
  const stored = await store.getAgentVersion(hash);
  if (stored === undefined || stored.meta.agent !== agent)
    return { ok: false, error: `no version ${hash} of ${agent} in the bundle or the store` };
  return { ok: true, sop: stored };
}

function text(agent: string, target: CompiledSop, dryRun: boolean, where: string, results: readonly RunMigration[]): string {
  const lines = [`${dryRun ? 'dry run: ' : ''}${agent} → version ${target.meta.version} (${target.sourceHash}) in ${where}`];
  for (const run of results) {
    const renamed = run.renamed === undefined ? '' : ` (renamed ${run.renamed.map(([from, to]) => `${from} → ${to}`).join(', ')})`;
    const what =
      run.status === 'stays'
        ? `stays at ${run.node ?? '-'}: ${run.reason}`
        : run.status === 'current'
          ? 'already on it'
          : `${run.status === 'moved' ? 'moved' : 'would move'} at ${run.node ?? '-'} → ${run.movedTo ?? '-'}${renamed}`;
    lines.push(`${run.runId}  ${printable(what)}`);
  }
  const count = (status: RunMigration['status']) => results.filter((run) => run.status === status).length;
  lines.push(
    `${results.length} run${results.length === 1 ? '' : 's'}: ${count(dryRun ? 'would-move' : 'moved')} ${dryRun ? 'would move' : 'moved'}, ${count('stays')} stay${count('stays') === 1 ? 's' : ''}, ${count('current')} already on it`,
  );
  return `${lines.join('\n')}\n`;
}

function json(agent: string, target: CompiledSop, dryRun: boolean, where: string, results: readonly RunMigration[]): string {
  return `${JSON.stringify({ agent, to: target.sourceHash, version: target.meta.version, dry_run: dryRun, store: where, runs: results }, null, 2)}\n`;
}

/** Control characters (reasons quote what a model wrote) shown as escapes. */
function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function usage(message: string): number {
  return usageError(COMMAND, message);
}

function fail(message: string): number {
  process.stderr.write(`sop runs migrate: ${message}\n`);
  return 1;
}
