/**
 * The content hash that ties compiled output to its source, and that a run pins as its SOP version:
 * `sha256:<hex>` of the text with a leading BOM removed and CRLF or CR line endings made LF. A checkout with
 * `core.autocrlf=true` (the Windows default) therefore hashes like the LF original, and `--check` and the
 * server's staleness check agree across platforms. Node-only (node:crypto): not part of the browser-safe index.
 */
import { createHash } from 'node:crypto';

export function hashSource(raw: string | Uint8Array): string {
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  return `sha256:${createHash('sha256').update(normaliseSource(text)).digest('hex')}`;
}

/** The text the compiler reads: no BOM, LF line endings. */
export function normaliseSource(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/**
 * The version of a SOP expanded with its sub-flows: `sha256:<hex>` over its own source hash and each sub-flow node
 * with the version it calls, so that a fix to a called SOP is a new version of every SOP that calls it.
 */
export function hashComposite(parts: readonly string[]): string {
  return `sha256:${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}
