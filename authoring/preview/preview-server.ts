/**
 * `sop preview`: a local page that draws a SOP as it is saved. A small HTTP server on the loopback address:
 *   - `/` the page (`preview-page.ts`), `/assets/*` its script and stylesheet and the Mermaid build the runs page
 *     ships (`dist/page/`: nothing is loaded from anywhere else);
 *   - `/api/sop?file=` the view of one SOP (`preview-view.ts`), compiled through the build API as `sop build`
 *     compiles it, with the project's cross-file checks;
 *   - `/api/walk` (POST `{file, moves}`) the moves replayed through the runtime's `goto_node` (`walk.ts`);
 *   - `/events` server-sent events: `change` with the file's name whenever a SOP of the project changes on disk,
 *     so the page redraws without a reload.
 * Requests must name this server in `Host` (and `Origin`, when sent): a page elsewhere cannot read it through a
 * rebound DNS name. At most 32 pages follow the events at once.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { CountTokens } from '../../generator/tokens/token-counter.js';
import { compiledAgentOf } from '../../generator/project/compiled-agent.js';
import type { SopProject } from '../../generator/project/open-project.js';
import { watchSources, type SourceWatch } from '../../generator/project/watch-sources.js';
import { sopDocument } from '../document/sop-document.js';
import { PAGE_HEADERS, previewPage } from './preview-page.js';
import { previewView } from './preview-view.js';
import { playWalk } from './walk.js';

export interface PreviewOptions {
  readonly project: SopProject;
  /** The SOP shown first (a project path). */
  readonly file: string;
  readonly port: number;
  /** `dist/page/`: page.js's sibling preview.js and preview.css, and mermaid.min.js. */
  readonly assetsDir: string;
  readonly log?: (message: string) => void;
}

export interface PreviewServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const ASSETS: ReadonlyMap<string, string> = new Map([
  ['preview.js', 'text/javascript; charset=utf-8'],
  ['preview.css', 'text/css; charset=utf-8'],
  ['mermaid.min.js', 'text/javascript; charset=utf-8'],
]);
const MAX_FOLLOWERS = 32;
const MAX_BODY = 64 * 1024;

export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const { project } = options;
  const followers = new Set<ServerResponse>();
  let tokens: Promise<{ count: CountTokens | null; note: string | null }> | undefined;
  const tokenCounter = () => {
    tokens ??= import('../../generator/tokens/token-counter.js')
      .then(({ loadTokenCounter }) => loadTokenCounter())
      .then((loaded) => (loaded.ok ? { count: loaded.count, note: null } : { count: null, note: loaded.error }));
    return tokens;
  };

  const viewOf = async (file: string) => {
    const sources = project.readSources();
    const source = sources.find((s) => s.file === file);
    if (source === undefined) return null;
    const [document, check] = await Promise.all([project.compileDocument(file, source.raw), project.check(sources)]);
    return {
      document: sopDocument(file, source.raw, document),
      diagnostics: check.diagnostics.get(file) ?? [],
      files: sources.map((s) => s.file),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number): Promise<void> => {
    if (!fromThisServer(req, port))
      return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden: this server answers its own page only.\n');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method === 'GET' && url.pathname === '/')
      return send(res, 200, 'text/html; charset=utf-8', previewPage(options.file), PAGE_HEADERS);
    if (req.method === 'GET' && url.pathname.startsWith('/assets/')) {
      const name = url.pathname.slice('/assets/'.length);
      const type = ASSETS.get(name);
      if (type === undefined) return send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
      return send(res, 200, type, readFileSync(join(options.assetsDir, name)), { 'cache-control': 'no-store' });
    }
    if (req.method === 'GET' && url.pathname === '/api/sop') {
      const view = await viewOf(url.searchParams.get('file') ?? options.file);
      if (view === null) return json(res, 404, { error: `No SOP ${url.searchParams.get('file')} in this project.` });
      return json(res, 200, previewView(view.document, view.diagnostics, view.files));
    }
    if (req.method === 'POST' && url.pathname === '/api/walk') {
      const body = await readJson(req);
      const file = typeof body?.file === 'string' ? body.file : options.file;
      const moves = Array.isArray(body?.moves) ? body.moves.filter((m: unknown): m is string => typeof m === 'string') : [];
      const view = await viewOf(file);
      if (view === null) return json(res, 404, { error: `No SOP ${file} in this project.` });
      const agent = compiledAgentOf(view.document.build.compiled);
      if (!agent.ok || view.diagnostics.some((d) => d.severity === 'error'))
        return json(res, 409, { error: 'The SOP has errors: fix them to walk it.' });
      const counter = await tokenCounter();
      return json(res, 200, { ...playWalk(agent.sop, moves, counter.count), tokenizer: counter.note });
    }
    if (req.method === 'GET' && url.pathname === '/events') {
      if (followers.size >= MAX_FOLLOWERS) return send(res, 503, 'text/plain; charset=utf-8', 'Too many pages follow this preview.\n');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': following\n\n');
      followers.add(res);
      req.on('close', () => followers.delete(res));
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res, port).catch((error: unknown) => {
      options.log?.(`sop preview: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) json(res, 500, { error: 'internal error (see the terminal)' });
      else res.end();
    });
  });
  let port = options.port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address !== null && typeof address === 'object') port = address.port;

  const watch: SourceWatch = watchSources(
    project.layout.sopsDir,
    (names) => {
      for (const name of names) {
        const file = name === '' ? '' : project.fileOf(join(project.layout.sopsDir, name));
        for (const follower of followers) follower.write(`event: change\ndata: ${JSON.stringify({ file })}\n\n`);
      }
    },
    { settleMs: 50, onError: (error) => options.log?.(`sop preview: watching failed: ${String(error)}`) },
  );

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    async close() {
      watch.close();
      for (const follower of followers) follower.end();
      followers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether `Host` (and `Origin`, if sent) name this loopback server. */
function fromThisServer(req: IncomingMessage, port: number): boolean {
  const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (!allowed.has((req.headers.host ?? '').toLowerCase())) return false;
  const origin = req.headers.origin;
  return origin === undefined || allowed.has(origin.replace(/^http:\/\//i, '').toLowerCase());
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), { 'cache-control': 'no-store' });
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers });
  res.end(body);
}
