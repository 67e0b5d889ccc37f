/**
 * Cold start as a client sees it: spawn the server, send `initialize`, `notifications/initialized` and
 * `tools/list` over newline-delimited JSON-RPC, and stop the clock at the `tools/list` answer. A bare client
 * (no SDK) so that the figure is the server's start-up, not the client's.
 */
import { spawn } from 'node:child_process';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { msSince } from '../stats.js';

export interface ColdStart {
  /** Spawn → `tools/list` answered, in ms. */
  readonly ms: number;
  /** Number of tools listed. */
  readonly tools: number;
}

export function coldStartToToolsList(
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; signal?: AbortSignal },
): Promise<ColdStart> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal, killSignal: 'SIGKILL' as const } : {}),
    });
    let buffer = '';
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null, result?: ColdStart): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(result as ColdStart);
    };
    const timer = setTimeout(
      () => finish(new Error(`no tools/list answer within ${options.timeoutMs} ms; stderr: ${stderr.slice(-400)}`)),
      options.timeoutMs,
    );
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    child.on('error', (e) => finish(e));
    child.on('exit', (code) => finish(new Error(`server exited with ${code} before answering; stderr: ${stderr.slice(-400)}`)));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] }; error?: unknown };
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (message.id === 2) {
          const ms = msSince(start);
          if (message.error) finish(new Error(`tools/list failed: ${JSON.stringify(message.error)}`));
          else finish(null, { ms, tools: message.result?.tools?.length ?? 0 });
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
    });
  });
}
