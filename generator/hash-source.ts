/** The content hash that ties generated output to its source: `sha256:<hex>` of the file's bytes. */
import { createHash } from 'node:crypto';

export function hashSource(raw: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}
