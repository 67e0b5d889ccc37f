/**
 * A throw-away copy of the toolkit's project layout under os.tmpdir(), holding N synthetic SOPs (plus, on
 * request, the project's own `sops/*.md`), compiled by the real `build` command of a copy of the toolkit's
 * `dist/`, so that the real `serve` command can be started on 100 agents without touching the repository's
 * `sops/` or `generated/`.
 *
 *   <dir>/package.json     {"type":"module"}
 *   <dir>/node_modules/    one symlink per package of the repository (a real folder, so that caches the
 *                          toolkit keeps under node_modules/.cache land here and not in the repository)
 *   <dir>/contract         → the repository's contract/ (generated code imports `sop-toolkit/contract`; the
 *                          tsc row maps that name here, as the repository's tsconfig does)
 *   <dir>/sops/, <dir>/generated/
 *   <dir>/dist/{contract,cli,generator,runtime}  copies of the repository's dist/ (copies, not links: Node
 *                          resolves a symlinked module to its real path, which would load the repository's generated/)
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from './processes.js';
import { ROOT, RUNTIME_PARTS } from './project.js';
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
  if (!existsSync(join(dir, 'contract'))) symlinkSync(join(ROOT, 'contract'), join(dir, 'contract'), 'dir');
}

/** Copies the toolkit's transpiled parts into `<dir>/dist/` and returns its CLI, `<dir>/dist/cli/main.js`. */
export function copyToolkit(dir: string): string {
  for (const part of RUNTIME_PARTS) {
    const from = join(ROOT, 'dist', part);
    if (!existsSync(from)) throw new Error(`dist/${part} is missing: run node scripts/build-dist.mjs`);
    cpSync(from, join(dir, 'dist', part), { recursive: true });
  }
  return join(dir, 'dist', 'cli', 'main.js');
}

/**
 * Creates the fixture: `agents` synthetic SOPs of `nodes` nodes (+ the project's SOPs when `projectSops`),
 * built with the real CLI. Throws with the CLI's output when the build fails.
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
  const cli = copyToolkit(dir);
  const build = await runNode([cli, 'build', '--sops', 'sops', '--out', 'generated'], { cwd: dir, timeoutMs: 120_000 });
  if (build.code !== 0) {
    throw new Error(`build of the fixture failed (exit ${build.code}): ${(build.stderr || build.stdout).slice(0, 600)}`);
  }
  return { dir, synthetic, copied, cli };
}
