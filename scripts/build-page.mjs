// Builds the pages' static files into dist/page/: page.js (the runs page's browser script, bundled from
// runtime/page/client/ with esbuild) and page.css, preview.js and preview.css (`sop preview`'s, from
// authoring/preview/client/; each stylesheet with its @import of the shared zoom styles inlined), and mermaid.min.js copied from the mermaid package, which both pages draw with. The
// pages are served by the toolkit itself, so Mermaid ships with it: no CDN, nothing fetched from the network at run time.
// Like build-dist.mjs, it writes only files whose content changed.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

export const PAGE_CLIENT = join('runtime', 'page', 'client');
export const PREVIEW_CLIENT = join('authoring', 'preview', 'client');

export function buildPage(root, outDir) {
  mkdirSync(outDir, { recursive: true });
  bundle(join(root, PAGE_CLIENT, 'page-app.ts'), join(outDir, 'page.js'));
  bundle(join(root, PREVIEW_CLIENT, 'preview-app.ts'), join(outDir, 'preview.js'));
  // Each stylesheet with what it imports inlined (the flowchart's zoom and pan styles both pages share): one request.
  bundle(join(root, PAGE_CLIENT, 'page.css'), join(outDir, 'page.css'));
  bundle(join(root, PREVIEW_CLIENT, 'preview.css'), join(outDir, 'preview.css'));

  const mermaid = createRequire(join(root, 'package.json')).resolve('mermaid/dist/mermaid.min.js');
  const target = join(outDir, 'mermaid.min.js');
  if (!existsSync(target) || statSync(target).size !== statSync(mermaid).size || !readFileSync(target).equals(readFileSync(mermaid))) {
    copyFileSync(mermaid, target);
  }
}

function bundle(entry, outfile) {
  const { outputFiles } = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    charset: 'utf8',
    write: false,
    outfile,
    logLevel: 'silent',
  });
  for (const file of outputFiles) writeIfChanged(file.path, file.text);
}

function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileSync(path, text);
}
