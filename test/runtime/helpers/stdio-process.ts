/**
 * Drives a stdio MCP server process at the byte level: writes JSON-RPC lines to its stdin, closes stdin, and
 * collects everything it wrote to stdout and stderr until it exits (bounded by a timeout that kills it).
 * Used to prove that stdout carries nothing but protocol messages and that end of input ends the server.
 */
import { spawn } from 'node:child_process';

export interface StdioRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
}

export function runStdio(
  command: string,
  args: readonly string[],
  messages: readonly object[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<StdioRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stdio server did not exit after its input ended\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      // Let the pipes drain before reporting.
      setImmediate(() => resolve({ stdout, stderr, exitCode }));
    });
    // Send requests one at a time as answers arrive would be closer to a real client; a burst is harsher.
    for (const message of messages) child.stdin.write(message instanceof RawLine ? message.text : `${JSON.stringify(message)}\n`);
    // Give the server time to answer before closing input: wait until every request id was answered.
    const ids = messages.flatMap((message) => (!(message instanceof RawLine) && 'id' in message ? [(message as { id: unknown }).id] : []));
    const poll = setInterval(() => {
      const answered = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .flatMap((line) => {
          try {
            return [(JSON.parse(line) as { id?: unknown }).id];
          } catch {
            return [];
          }
        });
      if (ids.every((id) => answered.includes(id))) {
        clearInterval(poll);
        child.stdin.end();
      }
    }, 10);
    child.on('exit', () => clearInterval(poll));
  });
}

/** Bytes written to stdin as they are (not a JSON message): malformed lines, huge lines, batches. */
export class RawLine {
  constructor(readonly text: string) {}
}

/** The messages of a short, complete conversation with the support_desk-like fixture or any agent. */
export function conversation(calls: readonly { name: string; arguments: object }[]): object[] {
  return [
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-test', version: '0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ...calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 2, method: 'tools/call', params: call })),
  ];
}

/** Every stdout line parsed; throws on a line that is not a JSON-RPC 2.0 message. */
export function jsonRpcLines(
  stdout: string,
): { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }[] {
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => {
    const message = JSON.parse(line) as { jsonrpc?: unknown };
    if (message.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC message on stdout: ${line}`);
    return message as { id?: unknown };
  });
}
