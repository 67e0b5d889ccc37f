/**
 * The live page's routes on the HTTP server (`serveHttp`'s `routes` option, so after the Host/Origin guard and
 * authentication). Read-only, all GET:
 *
 *   /runs                          the page (a static shell; `page.js` does the rest)
 *   /runs/assets/{page.js,page.css,mermaid.min.js}
 *   /runs/api/runs?before=&limit=  the principal's runs, most recently active first: agent, step, status, activity
 *   /runs/api/runs/:id             one run: its state, the flowchart of its pinned SOP version, its audit log
 *   /runs/api/runs/:id/audit?after=N   the run and its audit entries after seq N (what changed)
 *   /runs/events                   server-sent events: `ready` once connected, then `run` with a run's row
 *                                  whenever one of the principal's runs changes (fed by the store's subscribe)
 *
 * Every answer is about the requesting principal's runs only; another principal's run answers 404 exactly like
 * an unknown one. Event streams are capped per process (503 beyond), and send a comment every 15 s so proxies
 * keep them open.
 */
import express, { type Express, type Request, type Response } from 'express';
import { principalOf } from '../http/auth.js';
import type { SessionService } from '../service/session-service.js';
import type { StoredRun } from '../store/run-store.js';
import { findPageAssets } from './page-assets.js';
import { API_PATH, ASSETS_PATH, EVENTS_PATH, PAGE_PATH } from './page-paths.js';
import { PAGE_HEADERS, pageShell } from './page-shell.js';
import { createRunFeed } from './run-feed.js';
import { createRunRows } from './run-rows.js';

export interface RunsPageOptions {
  readonly service: SessionService;
  /** The folder with page.js, page.css and mermaid.min.js (default: the built `dist/page/`). */
  readonly assetsDir?: string | undefined;
  /** Event streams open at once, at most (default 32). */
  readonly maxStreams?: number;
  readonly heartbeatMs?: number;
  /** The clock that decides which runs show as expired (default Date.now). */
  readonly now?: () => number;
}

const AUDIT_PAGE = 500;
const LIST_LIMIT = 50;

export function runsPageRoutes(options: RunsPageOptions): (app: Express) => void {
  const { service } = options;
  const { store, logger } = service;
  const now = options.now ?? Date.now;
  const assetsDir = options.assetsDir ?? findPageAssets();
  const maxStreams = options.maxStreams ?? 32;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const rows = createRunRows({ store, catalog: () => service.catalog(), idleBefore: () => now() - service.limits.runIdleMs });
  const feed = createRunFeed(store, rows, logger);

  /** The run if it exists and belongs to the caller; otherwise the 404 is sent. */
  async function ownRun(req: Request, res: Response): Promise<StoredRun | undefined> {
    const runId = String(req.params['runId']);
    const read = await store.read(runId, 0);
    if (read.status === 'found' && read.run.principal === principalOf(req)) return read.run;
    res
      .status(404)
      .set(PAGE_HEADERS)
      .json({ error: `Unknown run: ${runId}` });
    return undefined;
  }

  /** JSON answers; a failing store is a 503 with a one-line reason, logged. */
  const api =
    (answer: (req: Request, res: Response) => Promise<object | undefined>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        const body = await answer(req, res);
        if (body !== undefined) res.status(200).set(PAGE_HEADERS).json(body);
      } catch (error) {
        logger.error(`the runs page failed on ${req.path}`, error);
        res
          .status(503)
          .set(PAGE_HEADERS)
          .json({ error: `The run store is unavailable: ${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}` });
      }
    };

  return (app) => {
    app.get(PAGE_PATH, (_req, res) => {
      res
        .status(200)
        .set(PAGE_HEADERS)
        .type('html')
        .send(pageShell(assetsDir === undefined));
    });
    if (assetsDir !== undefined) {
      app.use(
        ASSETS_PATH,
        express.static(assetsDir, { index: false, redirect: false, setHeaders: (res) => res.set('x-content-type-options', 'nosniff') }),
      );
    }

    app.get(
      `${API_PATH}/runs`,
      api(async (req) => {
        const before = Number(req.query['before']);
        const limit = Number(req.query['limit']);
        const summaries = await store.list({
          principal: principalOf(req),
          limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 500) : LIST_LIMIT,
          ...(Number.isFinite(before) ? { before } : {}),
        });
        const runs = await Promise.all(summaries.map((summary) => rows.row(summary)));
        return { runs, next_before: runs.length === 0 ? null : (runs.at(-1)?.updated_at ?? null) };
      }),
    );

    app.get(
      `${API_PATH}/runs/:runId`,
      api(async (req, res) => {
        const run = await ownRun(req, res);
        if (run === undefined) return undefined;
        const [detail, sop, audit] = await Promise.all([rows.detail(run), rows.sop(run), rows.audit(run.runId, 0, AUDIT_PAGE)]);
        return { run: detail, sop, audit: audit.entries, more: audit.more };
      }),
    );

    app.get(
      `${API_PATH}/runs/:runId/audit`,
      api(async (req, res) => {
        const run = await ownRun(req, res);
        if (run === undefined) return undefined;
        const after = Number(req.query['after']);
        const [detail, audit] = await Promise.all([
          rows.detail(run),
          rows.audit(run.runId, Number.isInteger(after) && after > 0 ? after : 0, AUDIT_PAGE),
        ]);
        return { run: detail, audit: audit.entries, more: audit.more };
      }),
    );

    app.get(EVENTS_PATH, (req, res) => {
      if (feed.followers >= maxStreams) {
        res
          .status(503)
          .set(PAGE_HEADERS)
          .json({ error: `This server follows ${maxStreams} pages at most; close one or try again later.` });
        return;
      }
      res.writeHead(200, {
        ...PAGE_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\nevent: ready\ndata: {}\n\n');
      const stop = feed.follow(principalOf(req), (row) => res.write(`event: run\ndata: ${JSON.stringify(row)}\n\n`));
      const heartbeat = setInterval(() => res.write(': still here\n\n'), heartbeatMs);
      heartbeat.unref();
      res.on('close', () => {
        clearInterval(heartbeat);
        stop();
      });
    });
  };
}
