// Transpiles the toolkit's TypeScript (analysis/, authoring/, contract/, cli/, generator/, runtime/, testing/, bench/, demo/, fuzz/, examples/retail-tools/, and test/support/, whose
// engine harness the bench shares with the tests) to dist/ with esbuild.
// Why: Node 20 cannot run .ts, and a server or a no-op `build:sops` should start at Node's own speed,
// not pay for a TypeScript loader. Type-checking is tsc's job (`npm run typecheck`); this only strips types.
// Only files whose output would change are written, so an unchanged tree costs one directory walk.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { buildPage, PAGE_CLIENT, PREVIEW_CLIENT } from './build-page.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const roots = [
  'analysis',
  'authoring',
  'contract',
  'cli',
  'generator',
  'runtime',
  'testing',
  'bench',
  'demo',
  'fuzz',
  'test/support',
  'examples/retail-tools',
];

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    // The pages' browser scripts are bundled on their own (build-page.mjs), not transpiled for Node.
    if (entry.isDirectory()) {
      if (relative(root, p) !== PAGE_CLIENT && relative(root, p) !== PREVIEW_CLIENT) yield* walk(p);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield p;
  }
}

const wanted = new Set();
for (const r of roots) {
  for (const file of walk(join(root, r))) {
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    wanted.add(target);
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: relative(root, file),
    });
    if (existsSync(target) && readFileSync(target, 'utf8') === code) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
  }
}
buildPage(root, join(out, 'page'));
// Drop outputs whose source is gone (a deleted SOP must not stay servable).
for (const r of roots) {
  for (const file of walkJs(join(out, r))) if (!wanted.has(file)) rmSync(file);
}
function* walkJs(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkJs(p);
    else if (entry.name.endsWith('.js')) yield p;
  }
}
