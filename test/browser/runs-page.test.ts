/**
 * The live page in a real browser: Debian's Chromium, headless, driven by playwright-core, against the real
 * HTTP server while a real SDK client drives a run over MCP. The page must show the current node marked on the
 * rendered Mermaid flowchart, move the mark when one more goto_node is made (without a reload), draw a refused
 * move as a red dashed edge, and scrub back through the steps. A screenshot is saved under .cache/browser/.
 * Without /usr/bin/chromium the test fails and says how to install it (`.ci/run` does).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticTokenAuth } from '../../runtime/http/auth.js';
import { serveHttp, type SopHttpServer } from '../../runtime/http/serve-http.js';
import { planRunsPage } from '../../runtime/page/runs-page.js';
import type { SessionService } from '../../runtime/service/session-service.js';
import { PROJECT_ROOT } from '../runtime/helpers/fixture-process.js';
import { callTool, fixtureService } from '../runtime/helpers/mcp-client.js';
import { type HeadlessChromium, launchChromium } from '../support/chromium.js';

const SCREENSHOT = join(PROJECT_ROOT, '.cache', 'browser', 'runs-page.png');

let service: SessionService;
let server: SopHttpServer;
let client: Client;
let chrome: HeadlessChromium;
let page: Page;

beforeAll(async () => {
  service = fixtureService();
  const runsPage = planRunsPage({ service });
  if (!runsPage.on) throw new Error(runsPage.reason);
  server = await serveHttp({ service, host: '127.0.0.1', port: 0, routes: runsPage.routes });
  client = new Client({ name: 'browser-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  chrome = await launchChromium({ width: 1400, height: 1000 });
  page = chrome.page;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await client?.close();
  await server?.close();
  await service?.close();
});

/** The id of the SVG node Mermaid drew for `node` with the given mark class, or null. */
function markedNode(className: string): Promise<string | null> {
  return page.evaluate((name) => {
    const marked = [...document.querySelectorAll(`#diagram svg g.node.${name}`)];
    return marked.length === 1 ? (marked[0]?.id ?? null) : null;
  }, className);
}

async function waitForCurrent(node: string): Promise<void> {
  await page.waitForSelector(`#diagram[data-current-node="${node}"] svg`, { timeout: 10_000 });
}

describe('the runs page in Chromium', () => {
  it('shows the run live on its flowchart: current node, a move without reload, a refused move, the scrubber', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    await callTool(client, 'todo', { todos: [{ content: 'Refund the order', status: 'in_progress', completion_node: 'END_REFUND' }] });
    for (const node of ['START', 'AUTH', 'ROUTE']) await callTool(client, 'goto_node', { node_id: node });

    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.goto(`http://127.0.0.1:${server.port}/runs#run=${runId}`);
    await waitForCurrent('ROUTE');
    expect(await markedNode('sop_current')).toMatch(/-flowchart-ROUTE-\d+$/);
    const visited = await page.$$eval('#diagram svg g.node.sop_visited', (nodes) => nodes.map((node) => node.id));
    expect(visited.map((id) => /-flowchart-(\w+)-\d+$/.exec(id)?.[1]).sort()).toEqual(['AUTH', 'START']);
    const traversed = await page.$eval('#diagram svg path[data-id="L_START_AUTH_0"]', (path) => getComputedStyle(path).stroke);
    expect(traversed).toBe('rgb(29, 78, 216)');
    expect(await page.textContent('#runs tbody tr.selected')).toContain('support_desk');
    expect(await page.textContent('#todos')).toContain('Refund the order');
    expect(await page.isVisible('#token-form')).toBe(false);
    await page.evaluate(() => Object.assign(window, { sopSameDocument: true }));

    const sent = performance.now();
    await callTool(client, 'goto_node', { node_id: 'CHK_REFUND' });
    await waitForCurrent('CHK_REFUND');
    console.info(`the mark moved ${Math.round(performance.now() - sent)} ms after goto_node was sent`);
    expect(await markedNode('sop_current')).toMatch(/-flowchart-CHK_REFUND-\d+$/);
    expect(await page.evaluate(() => (window as { sopSameDocument?: boolean }).sopSameDocument)).toBe(true);

    const refusal = await callTool(client, 'goto_node', { node_id: 'END_ADDR' });
    expect(refusal.answer.valid).toBe(false);
    const refused = await page.waitForSelector('#diagram svg path[data-id="sop_refused_0"]', { timeout: 10_000 });
    const style = await refused.evaluate((path) => ({
      stroke: getComputedStyle(path).stroke,
      dash: getComputedStyle(path).strokeDasharray,
    }));
    expect(style.stroke).toBe('rgb(220, 38, 38)');
    expect(style.dash).toMatch(/^6(px)?,? 4(px)?$/);
    expect(await page.textContent('#audit tbody tr.refused')).toContain('END_ADDR (refused)');
    expect(await markedNode('sop_current')).toMatch(/-flowchart-CHK_REFUND-\d+$/);

    mkdirSync(join(PROJECT_ROOT, '.cache', 'browser'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.info(`screenshot: ${SCREENSHOT}`);

    // Scrub back to step 4 (the move to AUTH): the mark follows the log, then `live` returns to the latest.
    await page.$eval('#step', (input) => {
      (input as HTMLInputElement).value = '4';
      input.dispatchEvent(new Event('input'));
    });
    await waitForCurrent('AUTH');
    expect(await page.$('#diagram svg path[data-id="sop_refused_0"]')).toBeNull();
    await page.click('#step-live');
    await waitForCurrent('CHK_REFUND');

    expect(navigations).toBe(1);
    expect(chrome.problems).toEqual([]);
  });

  it("with authentication, asks for a page token and then shows that principal's runs only", async () => {
    const secured = fixtureService();
    const plan = planRunsPage({
      service: secured,
      auth: staticTokenAuth(new Map([['mcp-alice', 'alice']])),
      pageTokens: new Map([['page-alice', 'alice']]),
    });
    if (!plan.on) throw new Error(plan.reason);
    const securedServer = await serveHttp({
      service: secured,
      host: '127.0.0.1',
      port: 0,
      routes: plan.routes,
      ...(plan.auth ? { auth: plan.auth } : {}),
    });
    const alice = new Client({ name: 'browser-test-alice', version: '0.0.0' });
    try {
      await alice.connect(
        new StreamableHTTPClientTransport(new URL(securedServer.url), { requestInit: { headers: { authorization: 'Bearer mcp-alice' } } }),
      );
      const runId = (await callTool(alice, 'load_graph', { agent: 'tiny_flow' })).answer.run_id as string;
      await callTool(alice, 'goto_node', { node_id: 'BEGIN' });

      const tab = await chrome.browser.newPage();
      await tab.goto(`http://127.0.0.1:${securedServer.port}/runs#run=${runId}`);
      await tab.waitForSelector('#token-form:not([hidden])');
      await tab.fill('#token', 'page-alice');
      await tab.click('#token-form button');
      await tab.waitForSelector('#diagram[data-current-node="BEGIN"] svg');
      expect(await tab.textContent('#runs tbody')).toContain('tiny_flow');

      // A token in the fragment is kept for the session and taken out of the address bar.
      const second = await chrome.browser.newPage();
      await second.goto(`http://127.0.0.1:${securedServer.port}/runs#token=page-alice&run=${runId}`);
      await second.waitForSelector('#diagram[data-current-node="BEGIN"] svg');
      expect(new URL(second.url()).hash).toBe(`#run=${runId}`);
      await tab.close();
      await second.close();
    } finally {
      await alice.close();
      await securedServer.close();
      await secured.close();
    }
  });
});
