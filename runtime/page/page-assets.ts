/**
 * Where the page's static files are: `dist/page/` (`page.js`, `page.css`, and `mermaid.min.js` copied from the
 * mermaid package at build time, so the page renders flowcharts with no CDN and no network). The build
 * (`scripts/build-page.mjs`, run by `scripts/build-dist.mjs`) writes them; this module only finds them, relative
 * to itself: `../../page/` from `dist/runtime/page/`, `../../dist/page/` from the sources (tests).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PAGE_ASSETS = ['page.js', 'page.css', 'mermaid.min.js'] as const;

/** The folder holding every page asset, or undefined when the toolkit was not built. */
export function findPageAssets(): string | undefined {
  const candidates = [new URL('../../page/', import.meta.url), new URL('../../dist/page/', import.meta.url)].map((url) =>
    fileURLToPath(url),
  );
  return candidates.find((dir) => PAGE_ASSETS.every((file) => existsSync(`${dir}${file}`)));
}
