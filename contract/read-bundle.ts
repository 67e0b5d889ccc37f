/**
 * Reads `generated/sop-bundle.json`, the compiled agents the server serves: JSON, so no module loader, no
 * TypeScript and no compiler are involved at run time. Every way it can be missing or wrong becomes a message
 * that says what to do, never a stack trace. The compiler reads its last bundle with it, the runtime the one it serves,
 * the CLI and `sop-toolkit/testing` the one they are pointed at. Node-only (node:fs): not part of the browser-safe index.
 */
import { readFileSync } from 'node:fs';
import { BUNDLE_FORMAT, type SopBundle } from './compiled-sop.js';

export type BundleRead = { readonly ok: true; readonly bundle: SopBundle } | { readonly ok: false; readonly error: string };

const REBUILD = 'Run `npx sop build` (or `npm run build:sops`) to compile the SOPs.';

export function readBundle(path: string): BundleRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      error: code === 'ENOENT' ? `no compiled agents: ${path} does not exist. ${REBUILD}` : `cannot read ${path} (${code}).`,
    };
  }
  return parseBundle(text, path);
}

export function parseBundle(text: string, origin: string): BundleRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `${origin} is not JSON. ${REBUILD}` };
  }
  const bundle = value as Partial<SopBundle> | null;
  if (bundle === null || typeof bundle !== 'object' || typeof bundle.agents !== 'object' || bundle.agents === null) {
    return { ok: false, error: `${origin} is not an SOP bundle. ${REBUILD}` };
  }
  if (bundle.format !== BUNDLE_FORMAT) {
    return { ok: false, error: `${origin} has format ${String(bundle.format)}; this server reads ${BUNDLE_FORMAT}. ${REBUILD}` };
  }
  return { ok: true, bundle: bundle as SopBundle };
}
