/**
 * `sop paths AGENT`: the golden paths of a compiled agent as JSON (`sop-paths/1`): every way from the entry node to
 * a terminal node, each loop at most once, with the count (exact, or a lower bound said as such), the paths per
 * terminal, and what the listed paths leave uncovered. Bounded by `--max-paths` and `--max-steps`. An agent with
 * sub-flows is walked through them (expanded, as the runtime serves it).
 *
 * Exit codes: 0 listed; 1 a terminal node no path reaches (unreachable, or not met within --max-steps); 2 bad
 * usage, no compiled bundle, or no such agent.
 */
import { DEFAULT_PATH_LIMITS, goldenPaths } from '../../generator/paths/golden-paths.js';
import { expandedAgent } from '../../generator/paths/path-fixtures.js';
import { readProjectBundle } from '../project-bundle.js';
import { readCommandArgs, usageError } from '../command-args.js';

const USAGE = `Usage: sop paths AGENT [--max-paths N] [--max-steps N] [--out DIR]
  Prints the golden paths of AGENT (from the output folder's sop-bundle.json) as JSON.
  --max-paths N   paths listed at most (default ${DEFAULT_PATH_LIMITS.maxPaths})
  --max-steps N   edge extensions the search makes at most (default ${DEFAULT_PATH_LIMITS.maxSteps}); past it the count is a lower bound
  --out DIR       output folder holding sop-bundle.json (default: sop.config.json's, else generated)
`;

const COMMAND = { name: 'paths', usage: USAGE };

export async function runPaths(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    allowPositionals: true,
    options: {
      'max-paths': { type: 'string' },
      'max-steps': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [agent, ...extra] = positionals;
  if (agent === undefined || extra.length > 0) return usage('name one agent');
  const maxPaths = count(values['max-paths'], DEFAULT_PATH_LIMITS.maxPaths);
  const maxSteps = count(values['max-steps'], DEFAULT_PATH_LIMITS.maxSteps);
  if (maxPaths === null) return usage(`--max-paths needs a whole number of at least 1, got ${values['max-paths']}`);
  if (maxSteps === null) return usage(`--max-steps needs a whole number of at least 1, got ${values['max-steps']}`);
  const project = readProjectBundle(process.cwd(), values.out);
  if (!project.ok) return fail(project.error);
  const expanded = expandedAgent(project.bundle, agent);
  if (!expanded.ok) return fail(expanded.error);
  const result = goldenPaths(expanded.sop, { maxPaths, maxSteps });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (result.unreached_terminals.length === 0) return 0;
  process.stderr.write(
    `sop paths: no path reaches ${result.unreached_terminals.join(', ')}${result.count.exact ? '' : ` within --max-steps ${maxSteps}`}\n`,
  );
  return 1;
}

function count(text: string | undefined, fallback: number): number | null {
  if (text === undefined) return fallback;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 1 ? value : null;
}

function usage(message: string): number {
  return usageError(COMMAND, message);
}

function fail(message: string): number {
  process.stderr.write(`sop paths: ${message}\n`);
  return 2;
}
