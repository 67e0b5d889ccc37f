/**
 * The runtime's only logger: one line per event on stderr. On stdio, stdout belongs to the protocol; nothing
 * in `runtime/` writes anywhere else.
 */

export function logError(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  process.stderr.write(`sop serve: ${message}${detail}\n`);
}
