/**
 * `sop discover FILE… | DIR --agent NAME`: drafts an editable SOP from agent logs (every format `sop replay` reads),
 * compiles it in memory, scores the logs against it with replay's alignment, and with `--against SOP_FILE` compares
 * practice with the written SOP. The draft goes to `--out FILE` (the report to stdout), or to stdout (the report to
 * stderr) when there is no `--out`. `--format json` prints the report as `sop-discover/1` (with the draft in `draft`
 * when it was not written). Progress on stderr every 100 files.
 *
 * Exit codes: 0 drafted; 2 bad usage, an input or outcomes file that cannot be read, nothing to mine, an `--out`
 * file that exists (without `--force`), or a draft that would not compile (a bug: its diagnostics are printed).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { renderDiagnostics } from '../../generator/diagnostics/render-text.js';
import { compileWritten, DEFAULT_NOISE, discover, renderDiscoverText } from '../../analysis/discover/index.js';
import { parseOutcomes } from '../../analysis/replay/batch-outcomes.js';
import { oneOf, readCommandArgs, usageError } from '../command-args.js';
import { displayPath, findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop discover FILE... | DIR --agent NAME [--out FILE] [--outcomes FILE] [--only-successes]
                    [--against SOP_FILE] [--noise N] [--format text|json]
  Drafts an editable SOP from agent logs: the opening every conversation shares, a ROUTE hub, one flow per intent
  (what a request changed), mined with the Inductive Miner (IMf); a node per step, its tools, a prompt stub with an
  example from the logs. Compiles it, and scores the logs against it with sop replay's alignment. Reads what sop
  replay reads: Claude Code session logs, OpenAI Chat and Responses, Anthropic messages, tau2-bench, audit logs.
  --agent NAME        the draft's agent name ([a-z][a-z0-9_]*, at most 128 characters)
  --out FILE          write the draft there (else it goes to stdout and the report to stderr)
  --force             overwrite --out when it exists
  --outcomes FILE     JSON {"<transcript>": true | false | reward}: with --only-successes, mine only what worked;
                      without it, the report lists the variants that fail most
  --only-successes    mine the conversations that succeeded (--outcomes, or tau2-bench rewards)
  --against SOP_FILE  compare practice with a written SOP: deviations per node and kind, edges and tools never used
  --noise N           IMf's noise threshold in [0, 1] (default ${DEFAULT_NOISE}): behaviour rarer than that is left out
  --format            text (default) or json (sop-discover/1)
  --max-states N      states the alignment keeps between two calls (default 4096)
  Exit codes: 0 drafted, 2 nothing could be drafted.
`;

const COMMAND = { name: 'discover', usage: USAGE };

export async function runDiscover(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    allowPositionals: true,
    options: {
      agent: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      outcomes: { type: 'string' },
      'only-successes': { type: 'boolean' },
      against: { type: 'string' },
      noise: { type: 'string' },
      format: { type: 'string' },
      'max-states': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const chosen = oneOf('--format', values.format, ['text', 'json'], 'text');
  if ('problem' in chosen) return usage(chosen.problem);
  if (positionals.length === 0) return usage('name a log file or a folder of them');
  if (values.agent === undefined) return usage('--agent NAME names the draft’s agent');
  if (!/^[a-z][a-z0-9_]*$/.test(values.agent) || values.agent.length > 128)
    return usage(`--agent is a name of [a-z][a-z0-9_]*, at most 128 characters; got ${values.agent}`);
  const noise = values.noise === undefined ? DEFAULT_NOISE : Number(values.noise);
  if (!Number.isFinite(noise) || noise < 0 || noise > 1) return usage(`--noise is a number in [0, 1]; got ${values.noise}`);
  let maxStates: number | undefined;
  if (values['max-states'] !== undefined) {
    maxStates = Number(values['max-states']);
    if (!Number.isInteger(maxStates) || maxStates < 1)
      return usage(`--max-states is a whole number of states, at least 1; got ${values['max-states']}`);
  }
  if (values['only-successes'] === true && values.outcomes === undefined)
    process.stderr.write('sop discover: --only-successes without --outcomes: the logs’ own rewards (tau2-bench) decide\n');

  const root = findProjectRoot(process.cwd());
  const outcomes = values.outcomes === undefined ? undefined : readOutcomes(values.outcomes);
  if (typeof outcomes === 'string') return fail(outcomes);
  let against: { sop: CompiledSop; file: string } | undefined;
  if (values.against !== undefined) {
    const file = displayPath(root, resolve(values.against));
    let text: string;
    try {
      text = readFileSync(resolve(values.against), 'utf8');
    } catch (error) {
      return fail(`cannot read ${values.against} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const written = compileWritten(file, text);
    if (!written.ok) return fail(written.error);
    against = { sop: written.sop, file };
  }
  const out = values.out === undefined ? undefined : resolve(values.out);
  if (out !== undefined && existsSync(out) && values.force !== true)
    return fail(`${values.out} exists; pass --force to overwrite it, or choose another --out`);

  const result = discover({
    inputs: positionals,
    root,
    agent: values.agent,
    file: out === undefined ? `sops/${values.agent}.md` : displayPath(root, out),
    noise,
    ...(outcomes === undefined ? {} : { outcomes }),
    onlySuccesses: values['only-successes'] === true,
    ...(against === undefined ? {} : { against }),
    ...(maxStates === undefined ? {} : { conformance: { maxStatesPerEvent: maxStates } }),
    progress: (message) => process.stderr.write(`sop discover: ${message}\n`),
  });
  if (!result.ok) {
    if (result.diagnostics !== undefined && result.draft !== undefined) {
      const file = out === undefined ? `sops/${values.agent}.md` : displayPath(root, out);
      process.stderr.write(`${renderDiagnostics(result.diagnostics, { sources: new Map([[file, result.draft]]) })}\n`);
    }
    return fail(result.error);
  }
  const report = { ...result.report, out: out === undefined ? null : displayPath(root, out) };
  if (out !== undefined) {
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, result.draft);
    } catch (error) {
      return fail(`cannot write ${values.out} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  if (chosen.value === 'json') {
    process.stdout.write(`${JSON.stringify(out === undefined ? { ...report, draft: result.draft } : report, null, 2)}\n`);
    return 0;
  }
  if (out === undefined) {
    process.stdout.write(result.draft);
    process.stderr.write(renderDiscoverText(report));
  } else process.stdout.write(renderDiscoverText(report));
  return 0;
}

function readOutcomes(path: string): { table: ReadonlyMap<string, boolean>; name: string } | string {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    return `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  const parsed = parseOutcomes(text);
  return parsed.ok ? { table: parsed.table, name: path } : `${path}: ${parsed.error}`;
}

function usage(message: string): number {
  return usageError(COMMAND, message);
}

function fail(message: string): number {
  process.stderr.write(`sop discover: ${message}\n`);
  return 2;
}
