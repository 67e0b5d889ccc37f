/**
 * `sop replay FILE… | DIR`: checks finished conversations against the compiled SOP (the output folder's bundle):
 * runs' audit logs (`sop runs show RUN --format json`), chat transcripts (OpenAI, Anthropic, τ²-bench), Claude
 * Code session logs, OpenAI Responses items. One file of one conversation prints its report (text, or `--format
 * json` for `sop-replay/1`); several files, a folder, or a file of several conversations print the batch table
 * (text, `--format csv`, or `--format json` for `sop-replay-batch/1`), with progress on stderr every 100 files.
 *
 * Exit codes, for CI: 0 every conversation passes; 1 one fails (a finding of severity error); 2 bad usage, no
 * bundle, an unreadable file or outcomes file, or a conversation that could not be replayed (no agent to check it
 * against, not a conversation). A batch prints its table before exiting 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { parseOutcomes } from '../../analysis/replay/batch-outcomes.js';
import { renderBatchCsv, renderBatchText } from '../../analysis/replay/batch-render.js';
import type { BatchSummary } from '../../analysis/replay/batch-summary.js';
import { replayBatch } from '../../analysis/replay/replay-batch.js';
import { renderReplayText } from '../../analysis/replay/replay-report.js';
import { replayFile } from '../../analysis/replay/replay.js';
import { readProjectBundle } from '../project-bundle.js';
import { oneOf, readCommandArgs, usageError } from '../command-args.js';

const USAGE = `Usage: sop replay FILE... | DIR [--agent NAME] [--format text|json|csv] [--outcomes FILE] [--out DIR]
  Checks finished conversations against the compiled SOP, by their goto_node calls or, without them, by the walk
  that best explains their tool calls (alignment: fitness, deviations). Reads a run's audit log (sop runs show RUN
  --format json), chat messages (OpenAI, Anthropic, tau2-bench: a list, {"messages": [...]}, JSON Lines), Claude Code
  session logs (~/.claude/projects/<project>/<session>.jsonl), OpenAI Responses items, tau2-bench results.
  One conversation: its report. Several files, a folder, or a file of several: one row each, totals per deviation
  kind and per node.
  --agent NAME      the agent to check against (default: the run's, the transcript's load_graph, the only one,
                    or the only one whose tools the transcript calls)
  --format          text (default), json, or csv (the batch table)
  --outcomes FILE   JSON {"<transcript>": true | false | reward}: how fitness relates to success (means, AUC)
  --max-states N    states the alignment keeps between two calls (default 4096); past it the search is bounded
  --out DIR         output folder holding sop-bundle.json (default: sop.config.json's, else generated)
  Exit codes: 0 pass, 1 fail, 2 the replay could not run.
`;

const COMMAND = { name: 'replay', usage: USAGE };

export async function runReplay(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    allowPositionals: true,
    options: {
      agent: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      outcomes: { type: 'string' },
      'max-states': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const chosen = oneOf('--format', values.format, ['text', 'json', 'csv'], 'text');
  if ('problem' in chosen) return usage(chosen.problem);
  const format = chosen.value;
  if (positionals.length === 0) return usage('name a transcript file or a folder of them');
  let maxStates: number | undefined;
  if (values['max-states'] !== undefined) {
    maxStates = Number(values['max-states']);
    if (!Number.isInteger(maxStates) || maxStates < 1)
      return usage(`--max-states is a whole number of states, at least 1; got ${values['max-states']}`);
  }
  let outcomes: { table: ReadonlyMap<string, boolean>; name: string } | undefined;
  if (values.outcomes !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(values.outcomes), 'utf8');
    } catch (error) {
      return fail(`cannot read ${values.outcomes} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const parsed = parseOutcomes(text);
    if (!parsed.ok) return fail(`${values.outcomes}: ${parsed.error}`);
    outcomes = { table: parsed.table, name: values.outcomes };
  }
  const project = readProjectBundle(process.cwd(), values.out);
  if (!project.ok) return fail(project.error);
  const agent = values.agent === undefined ? {} : { agent: values.agent };
  const conformance = maxStates === undefined ? {} : { conformance: { maxStatesPerEvent: maxStates } };

  // One file of one conversation, without a batch option: its report, as before.
  const [only, ...more] = positionals;
  if (more.length === 0 && format !== 'csv' && outcomes === undefined && isFile(only!)) {
    let text: string;
    try {
      text = readFileSync(resolve(only!), 'utf8');
    } catch (error) {
      return fail(`cannot read ${only} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const shown = relative(project.root, resolve(only!)).split(sep).join('/');
    const read = replayFile({ bundle: project.bundle, text, file: shown, ...agent, ...conformance });
    if (!read.ok) return fail(read.error);
    if (read.transcripts.length === 1) {
      const outcome = read.transcripts[0]!.outcome;
      if (!outcome.ok) return fail(outcome.error);
      process.stdout.write(format === 'json' ? `${JSON.stringify(outcome.report, null, 2)}\n` : renderReplayText(outcome.report));
      return outcome.report.verdict === 'pass' ? 0 : 1;
    }
  }

  const batch = replayBatch({
    bundle: project.bundle,
    root: project.root,
    inputs: positionals,
    ...agent,
    ...conformance,
    ...(outcomes === undefined ? {} : { outcomes }),
    progress: (done, files, transcripts) => process.stderr.write(`sop replay: ${done}/${files} files, ${transcripts} transcripts\n`),
  });
  if (!batch.ok) return fail(batch.error);
  const summary = batch.summary;
  if (summary.transcripts.length === 0) process.stderr.write(`sop replay: no conversation in ${positionals.join(', ')}\n`);
  process.stdout.write(
    format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : format === 'csv' ? renderBatchCsv(summary) : renderBatchText(summary),
  );
  for (const row of summary.transcripts) if (row.verdict === 'error') process.stderr.write(`sop replay: ${row.error}\n`);
  return exitCode(summary);
}

function exitCode(summary: BatchSummary): number {
  if (summary.totals.errors > 0 || summary.transcripts.length === 0) return 2;
  return summary.totals.failed > 0 ? 1 : 0;
}

function isFile(path: string): boolean {
  try {
    return statSync(resolve(path)).isFile();
  } catch {
    return true; // reading it says why it cannot be read
  }
}

function usage(message: string): number {
  return usageError(COMMAND, message);
}

function fail(message: string): number {
  process.stderr.write(`sop replay: ${message}\n`);
  return 2;
}
