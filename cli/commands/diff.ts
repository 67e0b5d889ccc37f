/**
 * `sop diff [BASE] [HEAD]`: what a change to the SOPs does, compiled, for review (`analysis/diff/`): nodes,
 * edges, prompts, tools, limits, policies and golden paths, and the risks. BASE and HEAD are git revisions (default:
 * the merge base of HEAD with the main branch, and the working tree), read with the real git; or two SOP files (each
 * compiled with the working tree's other SOPs, so its sub-flows expand).
 *
 * Exit codes: 0 compared (whatever it found), 1 with `--fail-on risk` when there is a risk or `--fail-on change` when
 * an agent changed, 2 bad usage or git failed (not a repository, an unknown revision).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SourceFile } from '../../generator/project/plan-build.js';
import { readSources } from '../../generator/project/read-sources.js';
import { compileSop } from '../../generator/compile-sop.js';
import { type CompiledSide, compileSide } from '../../analysis/diff/compiled-side.js';
import { renderDiffJson, renderDiffMarkdown } from '../../analysis/diff/render-diff.js';
import { diffSides, type SopDiff } from '../../analysis/diff/semantic-diff.js';
import { oneOf, readCommandArgs, usageError } from '../command-args.js';
import { locateProject, type ProjectPaths } from '../config.js';
import { displayPath } from '../project-root.js';
import { type GitResult, gitTop, mergeBaseWithMain, shortRevision, sourcesAt } from '../git-sources.js';

const USAGE = `Usage: sop diff [BASE] [HEAD] [--format markdown|json] [--fail-on risk|change|never]
  Compares two versions of the SOPs compiled: nodes, edges, prompts, tools, limits, policies, golden paths, risks.
  BASE, HEAD   git revisions (default: the merge base of HEAD with the main branch, and the working tree),
               or two SOP files
  --base-branch NAME   the main branch (default: main, else master, origin/main, origin/master)
  --format markdown|json   (default markdown: for a pull request comment)
  --fail-on risk|change|never   exit 1 when a risk is found, or when any agent changed (default never)
  --sops DIR   SOP folder (default: sop.config.json's, else sops)
`;

const COMMAND = { name: 'diff', usage: USAGE };
const WORKTREE = 'working tree';

export async function runDiff(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      'fail-on': { type: 'string' },
      'base-branch': { type: 'string' },
      sops: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const format = oneOf('--format', values.format, ['markdown', 'json'], 'markdown');
  if ('problem' in format) return usageError(COMMAND, format.problem);
  const failOn = oneOf('--fail-on', values['fail-on'], ['risk', 'change', 'never'], 'never');
  if ('problem' in failOn) return usageError(COMMAND, failOn.problem);
  if (positionals.length > 2) return usageError(COMMAND, 'give at most two revisions or files');
  const located = locateProject(process.cwd(), { sops: values.sops });
  if (!located.ok) return fail(located.error);
  const { paths } = located;

  const sides = areFiles(positionals)
    ? fileSides(paths, positionals[0]!, positionals[1]!)
    : revisionSides(paths, positionals, values['base-branch']);
  if (!sides.ok) return fail(sides.error);
  const diff = diffSides(sides.value[0], sides.value[1]);
  process.stdout.write(format.value === 'json' ? renderDiffJson(diff) : renderDiffMarkdown(diff));
  return exitCode(diff, failOn.value);
}

function exitCode(diff: SopDiff, failOn: 'risk' | 'change' | 'never'): number {
  if (failOn === 'risk' && diff.risks.length > 0) return 1;
  if (failOn === 'change' && diff.agents.some((agent) => agent.status !== 'unchanged')) return 1;
  return 0;
}

function areFiles(positionals: readonly string[]): boolean {
  return positionals.length === 2 && positionals.every((p) => existsSync(p) && statSync(p).isFile());
}

/** Two revisions (a missing BASE is the merge base with the main branch, a missing HEAD the working tree). */
function revisionSides(
  paths: ProjectPaths,
  positionals: readonly string[],
  baseBranch: string | undefined,
): GitResult<[CompiledSide, CompiledSide]> {
  const cwd = paths.root;
  const top = gitTop(cwd);
  if (!top.ok) return top;
  let baseRevision = positionals[0];
  let baseLabel: string;
  if (baseRevision === undefined) {
    const found = mergeBaseWithMain(cwd, baseBranch);
    if (!found.ok) return found;
    baseRevision = found.value.commit;
    baseLabel = `${found.value.branch} (merge base ${found.value.commit.slice(0, 7)})`;
  } else {
    const sha = shortRevision(cwd, baseRevision);
    if (!sha.ok) return sha;
    baseLabel = `${baseRevision} (${sha.value})`;
  }
  const base = sourcesAt(cwd, baseRevision, paths.root, paths.sopsDir);
  if (!base.ok) return base;
  const headRevision = positionals[1];
  let head: SourceFile[];
  let headLabel = WORKTREE;
  if (headRevision === undefined) head = readSources({ ...paths, paths: false });
  else {
    const read = sourcesAt(cwd, headRevision, paths.root, paths.sopsDir);
    if (!read.ok) return read;
    const sha = shortRevision(cwd, headRevision);
    headLabel = sha.ok ? `${headRevision} (${sha.value})` : headRevision;
    head = read.value;
  }
  return { ok: true, value: [compileSide(baseLabel, base.value), compileSide(headLabel, head)] };
}

/** Two files: each stands in, among the working tree's SOPs, for the one that declares its agent. */
function fileSides(paths: ProjectPaths, before: string, after: string): GitResult<[CompiledSide, CompiledSide]> {
  const tree = readSources({ ...paths, paths: false });
  const side = (path: string): CompiledSide => {
    const file = displayPath(paths.root, resolve(path));
    const raw = readFileSync(path, 'utf8');
    const agent = compileSop(file, raw).model?.agent;
    const others = tree.filter(
      (source) => source.file !== file && (agent === undefined || compileSop(source.file, source.raw).model?.agent !== agent),
    );
    // The other SOPs are the same on both sides: context for the file's sub-flows, reported unchanged.
    return compileSide(file, [...others, { file, raw }]);
  };
  return { ok: true, value: [side(before), side(after)] };
}

function fail(message: string): number {
  process.stderr.write(`sop diff: ${message}\n`);
  return 2;
}
