// Builds the live runs page's static files into dist/page/: page.js (the browser script, bundled from
// runtime/page/client/ with esbuild), page.css, and mermaid.min.js copied from the mermaid package. The page is
// served by the toolkit itself, so Mermaid ships with it: no CDN, nothing fetched from the network at run time.
// Like build-dist.mjs, it writes only files whose content changed.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

export const PAGE_CLIENT = join('runtime', 'page', 'client');

export function buildPage(root, outDir) {
  mkdirSync(outDir, { recursive: true });
  const { outputFiles } = buildSync({
    entryPoints: [join(root, PAGE_CLIENT, 'page-app.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    charset: 'utf8',
    write: false,
    outfile: join(outDir, 'page.js'),
    logLevel: 'silent',
  });
  for (const file of outputFiles) writeIfChanged(file.path, file.text);
  writeIfChanged(join(outDir, 'page.css'), readFileSync(join(root, PAGE_CLIENT, 'page.css'), 'utf8'));

  const mermaid = createRequire(join(root, 'package.json')).resolve('mermaid/dist/mermaid.min.js');
  const target = join(outDir, 'mermaid.min.js');
  if (!existsSync(target) || statSync(target).size !== statSync(mermaid).size || !readFileSync(target).equals(readFileSync(mermaid))) {
    copyFileSync(mermaid, target);
  }
}

function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileSync(path, text);
}
