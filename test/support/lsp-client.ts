/**
 * A real LSP client for the tests and the bench: it spawns `sop lsp` (the transpiled CLI in dist/) in a folder and
 * speaks JSON-RPC to it over the child's stdin and stdout (`vscode-languageserver-protocol`, the client side of the
 * library VS Code's own client is built on). It opens documents, sends edits as incremental changes, and keeps every
 * `textDocument/publishDiagnostics` the server sends, so a test can wait for the diagnostics of a given version.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  type CompletionItem,
  type CompletionList,
  createProtocolConnection,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type Position,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  type Range,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { CLI } from './run-cli.js';

export interface LspClient {
  readonly connection: ProtocolConnection;
  readonly initialized: InitializeResult;
  /** Every diagnostics notification received, in order. */
  readonly published: PublishDiagnosticsParams[];
  uri(path: string): string;
  open(path: string, text: string): Promise<void>;
  /** Replaces `range` with `text` in the open document, as a new version; returns that version. */
  edit(path: string, range: Range, text: string): number;
  close(path: string): void;
  text(path: string): string;
  version(path: string): number;
  /** The diagnostics the server publishes for `path` at `version` (or for any version, when omitted). */
  diagnostics(path: string, version?: number, timeoutMs?: number): Promise<Diagnostic[]>;
  request<R>(method: string, params: unknown): Promise<R>;
  completion(path: string, position: Position): Promise<CompletionItem[]>;
  /** Stops the server the LSP way (shutdown, exit) and waits for it to end; returns its exit code. */
  stop(): Promise<number | null>;
  /** What the server wrote to stderr. */
  stderr(): string;
}

/** `cli`: the transpiled CLI to run (default: the repository's dist/cli/main.js). */
export async function startLspClient(cwd: string, cli: string = CLI): Promise<LspClient> {
  const child: ChildProcess = spawn(process.execPath, [cli, 'lsp', '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const died = exited.then((code) => {
    throw new Error(`sop lsp exited with ${code} before answering initialize:\n${stderr}`);
  });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    for (const wake of waiters) wake();
  });
  // The server's log and warnings, kept for failure messages.
  connection.onNotification('window/logMessage', (p: { message: string }) => void (stderr += `[log] ${p.message}\n`));
  connection.onNotification('window/showMessage', (p: { message: string }) => void (stderr += `[show] ${p.message}\n`));
  connection.listen();
  const initialized = await Promise.race([
    died,
    connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(cwd).href,
      capabilities: {
        textDocument: {
          publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true },
          rename: { prepareSupport: true },
          completion: { completionItem: { snippetSupport: true } },
          hover: { contentFormat: ['markdown'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
      },
      workspaceFolders: [{ uri: pathToFileURL(cwd).href, name: 'test' }],
    }),
  ]);
  died.catch(() => undefined);
  await connection.sendNotification(InitializedNotification.type, {});

  const docs = new Map<string, { text: string; version: number }>();
  const uri = (path: string) => pathToFileURL(path).href;
  const doc = (path: string) => {
    const d = docs.get(path);
    if (d === undefined) throw new Error(`${path} is not open`);
    return d;
  };
  /** The last diagnostics published for the file (at that version), newest first: one URL made, not one per message. */
  const matching = (path: string, version: number | undefined) => {
    const wanted = uri(path);
    for (let i = published.length - 1; i >= 0; i--) {
      const p = published[i]!;
      if (p.uri === wanted && (version === undefined || p.version === version)) return p;
    }
    return undefined;
  };

  return {
    connection,
    initialized,
    published,
    uri,
    async open(path, text) {
      docs.set(path, { text, version: 1 });
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: uri(path), languageId: 'markdown', version: 1, text },
      });
    },
    edit(path, range, text) {
      const d = doc(path);
      d.text = applyEdits(d.text, [{ range, newText: text }]);
      d.version += 1;
      void connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uri(path), version: d.version },
        contentChanges: [{ range, text }],
      });
      return d.version;
    },
    close(path) {
      docs.delete(path);
      void connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uri(path) } });
    },
    text: (path) => doc(path).text,
    version: (path) => doc(path).version,
    async diagnostics(path, version, timeoutMs = 15_000) {
      const found = matching(path, version);
      if (found !== undefined) return found.diagnostics;
      return new Promise<Diagnostic[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no diagnostics for ${path}${version === undefined ? '' : ` v${version}`} within ${timeoutMs} ms\n${stderr}`));
        }, timeoutMs);
        const wake = () => {
          const hit = matching(path, version);
          if (hit === undefined) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(hit.diagnostics);
        };
        waiters.add(wake);
      });
    },
    request: <R>(method: string, params: unknown) => connection.sendRequest<R>(method, params),
    async completion(path, position) {
      const result = await connection.sendRequest<CompletionItem[] | CompletionList | null>('textDocument/completion', {
        textDocument: { uri: uri(path) },
        position,
      });
      return result === null ? [] : Array.isArray(result) ? result : result.items;
    },
    async stop() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
    stderr: () => stderr,
  };
}

/** Applies text edits (non-overlapping, LSP positions in UTF-16 code units) to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offset = (p: Position) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** The edits of a workspace edit for one document (`changes` or `documentChanges`). */
export function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  if (edit.changes?.[uri]) return edit.changes[uri]!;
  return (edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c && c.textDocument.uri === uri ? c.edits : [])) as TextEdit[];
}
