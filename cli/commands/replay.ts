/**
 * `sop replay FILE`: checks a finished conversation against the compiled SOP (the output folder's bundle): a run's
 * audit log (`sop runs show RUN --format json`) or a chat transcript with tool calls (OpenAI / τ²-bench messages).
 * Prints the verdict, the procedural score and every finding (text, or `--format json` for `sop-replay/1`).
 *
 * Exit codes, for CI: 0 pass; 1 fail (a finding of severity error); 2 bad usage, an unreadable file, no bundle,
 * or no agent to check against.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { renderReplayText } from '../../generator/analyze/replay/replay-report.js';
import { replay } from '../../generator/analyze/replay/replay.js';
import { readProjectBundle } from '../project-bundle.js';

const USAGE = `Usage: sop replay FILE [--agent NAME] [--format text|json] [--out DIR]
  Checks a finished conversation against the compiled SOP: a run's audit log (sop runs show RUN --format json)
  or chat messages with tool calls (OpenAI, tau2-bench or Anthropic shape; a list, {"messages": [...]}, or JSON Lines).
  --agent NAME    the agent to check against (default: the run's, the transcript's load_graph, or the only one)
  --format        text (default) or json
  --out DIR       output folder holding sop-bundle.json (default: sop.config.json's, else generated)
  Exit codes: 0 pass, 1 fail, 2 the replay could not run.
`;

export async function runReplay(args: readonly string[]): Promise<number> {
  let values: { agent?: string; format?: string; out?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { agent: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help === true) {
    process.stderr.write(USAGE);
    return 0;
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') return usage(`--format is text or json, got ${format}`);
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) return usage('name one transcript file');
  let text: string;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch (error) {
    return fail(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const project = readProjectBundle(process.cwd(), values.out);
  if (!project.ok) return fail(project.error);
  const shown = relative(project.root, resolve(file)).split(sep).join('/');
  const outcome = replay({ bundle: project.bundle, text, file: shown, ...(values.agent === undefined ? {} : { agent: values.agent }) });
  if (!outcome.ok) return fail(outcome.error);
  process.stdout.write(format === 'json' ? `${JSON.stringify(outcome.report, null, 2)}\n` : renderReplayText(outcome.report));
  return outcome.report.verdict === 'pass' ? 0 : 1;
}

function usage(message: string): number {
  process.stderr.write(`sop replay: ${message}\n\n${USAGE}`);
  return 2;
}

function fail(message: string): number {
  process.stderr.write(`sop replay: ${message}\n`);
  return 2;
}
