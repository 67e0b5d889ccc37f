/**
 * A throw-away copy of the toolkit's project layout under os.tmpdir(), holding N synthetic SOPs (plus, on
 * request, the project's own `sops/*.md`), compiled by the real `build` command and transpiled like
 * `scripts/build-dist.mjs` does, so that the real `serve` command can be started on 100 agents without
 * touching the repository's `sops/` or `generated/`.
 *
 *   <dir>/package.json     {"type":"module"}
 *   <dir>/node_modules/    one symlink per package of the repository (a real folder, so that caches the
 *                          toolkit keeps under node_modules/.cache land here and not in the repository)
 *   <dir>/runtime          → the repository's runtime/ (generated code imports its types)
 *   <dir>/sops/, <dir>/generated/
 *   <dir>/dist/{cli,runtime,generator}  copies of the repository's dist/ (copies, not links: Node resolves a
 *                          symlinked module to its real path, which would load the repository's generated/)
 *   <dir>/dist/generated   the transpiled fixture agents
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { runNode } from './processes.js';
import { ROOT } from './project.js';
import { writeSyntheticSops, type SyntheticSop } from './synthetic-sop.js';

export interface FixtureProject {
  readonly dir: string;
  readonly synthetic: readonly SyntheticSop[];
  /** The project's own SOP files copied in, by name without `.md` (the retail seed's file name is its agent). */
  readonly copied: readonly string[];
  /** `node <dir>/dist/cli/main.js` */
  readonly cli: string;
}

/** Lays out an empty project (no SOPs yet) at `dir`. */
export function layoutProject(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '.cache' || existsSync(join(modules, entry))) continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  if (!existsSync(join(dir, 'runtime'))) symlinkSync(join(ROOT, 'runtime'), join(dir, 'runtime'), 'dir');
}

function* tsFiles(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(p);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield p;
  }
}

/** Transpiles `<dir>/<from>/**.ts` to `<dir>/dist/<from>/**.js`, as scripts/build-dist.mjs does. */
export function transpile(dir: string, from: string): void {
  for (const file of tsFiles(join(dir, from))) {
    const target = join(dir, 'dist', relative(dir, file)).replace(/\.ts$/, '.js');
    const { code } = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
  }
}

/**
 * Creates the fixture: `agents` synthetic SOPs of `nodes` nodes (+ the project's SOPs when `projectSops`),
 * built with the real CLI and transpiled. Throws with the CLI's output when the build fails.
 */
export async function createFixture(
  dir: string,
  options: { agents: number; nodes: number; projectSops: boolean },
): Promise<FixtureProject> {
  layoutProject(dir);
  const sopsDir = join(dir, 'sops');
  const synthetic = writeSyntheticSops(sopsDir, options.agents, { nodes: options.nodes });
  const copied: string[] = [];
  if (options.projectSops && existsSync(join(ROOT, 'sops'))) {
    for (const name of readdirSync(join(ROOT, 'sops'))
      .filter((n) => n.endsWith('.md'))
      .sort()) {
      cpSync(join(ROOT, 'sops', name), join(sopsDir, name));
      copied.push(name.slice(0, -3));
    }
  }
  for (const part of ['cli', 'runtime', 'generator']) {
    const from = join(ROOT, 'dist', part);
    if (existsSync(from)) cpSync(from, join(dir, 'dist', part), { recursive: true });
  }
  const cli = join(dir, 'dist', 'cli', 'main.js');
  const build = await runNode([cli, 'build', '--sops', 'sops', '--out', 'generated'], { cwd: dir, timeoutMs: 120_000 });
  if (build.code !== 0) {
    throw new Error(`build of the fixture failed (exit ${build.code}): ${(build.stderr || build.stdout).slice(0, 600)}`);
  }
  transpile(dir, 'generated');
  return { dir, synthetic, copied, cli };
}
