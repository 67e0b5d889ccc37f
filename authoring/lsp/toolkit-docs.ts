/**
 * Where the SOP format's documentation is: `docs/sop-format.md` of the installed toolkit (the package ships it), as
 * a `file:` URL, so that a diagnostic's code links to the section that states its rule, offline and for the version
 * the app has installed. Found from this module upward: `authoring/lsp/` in the sources, `dist/authoring/lsp/` built.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export function toolkitDocsUrl(): string | null {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'docs', 'sop-format.md');
    if (existsSync(file)) return pathToFileURL(file).href;
    if (dirname(dir) === dir) return null;
  }
}
