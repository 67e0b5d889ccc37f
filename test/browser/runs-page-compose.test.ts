/**
 * The live page in a real browser on sub-flows and fork/join: Debian's Chromium, headless, driven by playwright-core,
 * against the real HTTP server serving the golden case `compose`, while a real SDK client drives runs over MCP.
 *   - `retail_orders` into its authentication sub-flow: the page draws `authenticate_customer`'s flowchart with the
 *     current node marked and the stack above it, follows the run through the call, and draws the caller's flowchart
 *     again once the call returned (the sub-flow node visited, the moves into and out of it along its edges);
 *   - `incident_triage` through its fork, the branches in an order that is not the edges', one failing: the panel and
 *     the branch marks on the flowchart follow each move live (no reload), the join's outcome shows once decided, and
 *     the scrubber shows the forks as they stood at a past step.
 * Screenshots are saved under .cache/browser/. Without /usr/bin/chromium the test fails and says how to install it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { serveHttp, type SopHttpServer } from '../../runtime/http/serve-http.js';
import { planRunsPage } from '../../runtime/page/runs-page.js';
import type { SessionService } from '../../runtime/service/session-service.js';
import { PROJECT_ROOT } from '../runtime/helpers/fixture-process.js';
import { callTool, fixtureService } from '../runtime/helpers/mcp-client.js';
import { type HeadlessChromium, launchChromium } from '../support/chromium.js';

const SHOTS = join(PROJECT_ROOT, '.cache', 'browser');
const bundle = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/golden/compose/generated/sop-bundle.json'), 'utf8')) as SopBundle;

const GREEN = 'rgb(21, 128, 61)';
const RED = 'rgb(220, 38, 38)';
const BLUE = 'rgb(29, 78, 216)';

let service: SessionService;
let server: SopHttpServer;
let client: Client;
let chrome: HeadlessChromium;
let page: Page;
/** Documents loaded in the tab: one, if nothing ever reloads the page. */
let loads = 0;

beforeAll(async () => {
  service = fixtureService({ bundle });
  const runsPage = planRunsPage({ service });
  if (!runsPage.on) throw new Error(runsPage.reason);
  server = await serveHttp({ service, host: '127.0.0.1', port: 0, routes: runsPage.routes });
  client = new Client({ name: 'browser-compose-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  chrome = await launchChromium({ width: 1400, height: 1200 });
  page = chrome.page;
  page.on('load', () => {
    loads += 1;
  });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await client?.close();
  await server?.close();
  await service?.close();
});

const goto = (node_id: string, outcome?: 'passed' | 'failed') =>
  callTool(client, 'goto_node', outcome === undefined ? { node_id } : { node_id, outcome });

/** Waits until the diagram shows step `step`: `agent`'s flowchart with `node` current (set once Mermaid drew it). */
async function waitForDiagram(agent: string, node: string, step: number): Promise<void> {
  await page.waitForSelector(`#diagram[data-agent="${agent}"][data-current-node="${node}"][data-step="${step}"] svg`, {
    timeout: 10_000,
  });
}

/** The flowchart ids of the nodes Mermaid drew (with a class, those that have it), sorted. */
function drawn(className?: string): Promise<string[]> {
  return page.$$eval(`#diagram svg g.node${className === undefined ? '' : `.${className}`}`, (nodes) =>
    nodes.map((node) => /-flowchart-(\w+)-\d+$/.exec(node.id)?.[1] ?? `?${node.id}`).sort(),
  );
}

/** The border of the shape Mermaid drew for `node`, as the browser computed it. */
function border(node: string): Promise<{ stroke: string; width: string; dash: string }> {
  return page.$eval(`#diagram svg g.node[id*="-flowchart-${node}-"]`, (group) => {
    const shape = group.querySelector('rect, polygon, path, circle') ?? group;
    const style = getComputedStyle(shape);
    return { stroke: style.stroke, width: style.strokeWidth, dash: style.strokeDasharray };
  });
}

/** The audit log's rows, by seq: each entry once, however fast the events came. */
const auditSeqs = () => page.$$eval('#audit tbody tr', (rows) => rows.map((row) => Number(row.dataset['seq'])));
const upTo = (last: number) => Array.from({ length: last }, (_, index) => index + 1);

const branchStates = () =>
  page.$$eval('#forks li[data-branch]', (items) => items.map((item) => `${item.dataset['branch']} ${item.dataset['state']}`));

describe('the runs page in Chromium, on sub-flows and forks', () => {
  it('draws the called SOP inside a sub-flow, with the stack, and the caller again once the call returned', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'retail_orders' })).answer['run_id'] as string;
    await goto('START');
    await page.goto(`http://127.0.0.1:${server.port}/runs#run=${runId}`);
    await waitForDiagram('retail_orders', 'START', 2);
    // Set on this document: still there at the end means no reload happened in between.
    await page.evaluate(() => Object.assign(window, { sopSameDocument: true }));
    expect(await drawn()).toContain('AUTHENTICATE');
    expect(await page.textContent('#run-title')).not.toContain('›');
    expect(await page.isVisible('#forks-panel')).toBe(false);

    await goto('AUTHENTICATE');
    await waitForDiagram('authenticate_customer', 'START', 3);
    expect(await drawn()).toEqual([...bundle.agents['authenticate_customer']!.nodeIds].sort());
    expect(await drawn('sop_current')).toEqual(['START']);
    expect(await page.textContent('#run-title')).toContain('AUTHENTICATE.START · retail_orders › AUTHENTICATE → authenticate_customer');

    for (const node of ['IDENTIFY', 'FOUND', 'VERIFY']) await goto(node);
    await waitForDiagram('authenticate_customer', 'VERIFY', 6);
    expect(await drawn('sop_current')).toEqual(['VERIFY']);
    expect(await drawn('sop_visited')).toEqual(['FOUND', 'IDENTIFY', 'START']);
    expect((await border('VERIFY')).stroke).toBe('rgb(180, 83, 9)');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'runs-page-subflow.png'), fullPage: true });

    for (const node of ['CODE_OK', 'AUTHENTICATED', 'ROUTE']) await goto(node);
    await waitForDiagram('retail_orders', 'ROUTE', 9);
    expect(await drawn()).toContain('END_UNAUTH');
    expect(await drawn('sop_visited')).toEqual(['AUTHENTICATE', 'START']);
    const intoCall = await page.$eval('#diagram svg path[data-id="L_START_AUTHENTICATE_0"]', (path) => getComputedStyle(path).stroke);
    const outOfCall = await page.$eval('#diagram svg path[data-id="L_AUTHENTICATE_ROUTE_0"]', (path) => getComputedStyle(path).stroke);
    expect([intoCall, outOfCall]).toEqual([BLUE, BLUE]);
    expect(await page.textContent('#run-title')).not.toContain('›');
    expect(await auditSeqs()).toEqual(upTo(9));
    expect(loads).toBe(1);
    expect(await page.evaluate(() => (window as { sopSameDocument?: boolean }).sopSameDocument)).toBe(true);
    expect(chrome.problems).toEqual([]);
  });

  it("follows a fork live: each branch's state on the panel and the flowchart, the join's outcome, past steps", async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'incident_triage' })).answer['run_id'] as string;
    for (const node of ['START', 'TRIAGE', 'INVESTIGATE']) await goto(node);
    // Chosen from the list, on the same page: no reload from here on.
    await page.click(`#runs tbody tr[data-run-id="${runId}"]`);
    await waitForDiagram('incident_triage', 'INVESTIGATE', 4);
    expect(await page.isVisible('#forks-panel')).toBe(true);
    expect(await page.textContent('#forks')).toContain('INVESTIGATE → join FINDINGS (all: needs every branch): join waiting (3 open)');
    expect(await branchStates()).toEqual(['CHECK_LOGS open', 'REPRODUCE open', 'STATUS open']);
    expect(await drawn('sop_branch_open')).toEqual(['CHECK_LOGS', 'REPRODUCE', 'STATUS']);
    expect((await border('STATUS')).dash).toMatch(/^5(px)?,? 4(px)?$/);

    // The last branch first; it passes, and the run is back at the fork.
    await goto('STATUS');
    await goto('FINDINGS');
    await page.waitForSelector('#forks li[data-branch="STATUS"][data-state="passed"]', { timeout: 10_000 });
    await waitForDiagram('incident_triage', 'INVESTIGATE', 6);
    expect(await branchStates()).toEqual(['CHECK_LOGS open', 'REPRODUCE open', 'STATUS passed']);
    expect(await drawn('sop_branch_passed')).toEqual(['STATUS']);
    // Visited, and passed: the branch's border wins over the visited one.
    expect(await drawn('sop_visited')).toContain('STATUS');
    expect(await border('STATUS')).toMatchObject({ stroke: GREEN, width: '4px' });

    // The second branch fails.
    for (const node of ['REPRODUCE', 'REPRODUCED']) await goto(node);
    await goto('FINDINGS', 'failed');
    await page.waitForSelector('#forks li[data-branch="REPRODUCE"][data-state="failed"]', { timeout: 10_000 });
    await waitForDiagram('incident_triage', 'INVESTIGATE', 9);
    expect(await page.textContent('#forks li[data-branch="REPRODUCE"]')).toBe('REPRODUCE: done, failed');
    expect(await drawn('sop_branch_failed')).toEqual(['REPRODUCE']);
    expect(await border('REPRODUCE')).toMatchObject({ stroke: RED, width: '4px' });
    expect(await page.textContent('#forks')).toContain('join waiting (1 open)');

    // The first branch last: the join is complete, and failed (one branch did, and it needs every branch).
    await goto('CHECK_LOGS');
    await waitForDiagram('incident_triage', 'CHECK_LOGS', 10);
    expect(await drawn('sop_current')).toEqual(['CHECK_LOGS']);
    expect(await drawn('sop_branch_open')).toEqual(['CHECK_LOGS']);
    await goto('FINDINGS');
    await page.waitForSelector('#forks li[data-fork="INVESTIGATE"][data-outcome="failed"]', { timeout: 10_000 });
    await waitForDiagram('incident_triage', 'FINDINGS', 11);
    expect(await page.textContent('#forks li[data-fork="INVESTIGATE"] strong')).toBe('join failed');
    expect(await branchStates()).toEqual(['CHECK_LOGS passed', 'REPRODUCE failed', 'STATUS passed']);
    expect(await drawn('sop_join_failed')).toEqual(['FINDINGS']);
    expect(await drawn('sop_branch_passed')).toEqual(['CHECK_LOGS', 'STATUS']);

    // The join's outcome closes FIX; ESCALATE is open.
    expect((await goto('FIX')).answer['valid']).toBe(false);
    await goto('ESCALATE');
    await waitForDiagram('incident_triage', 'ESCALATE', 13);
    expect(await page.textContent('#forks li[data-fork="INVESTIGATE"] strong')).toBe('join failed');
    expect(await auditSeqs()).toEqual(upTo(13));
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'runs-page-forks.png'), fullPage: true });

    // Step 6 (the first branch done, back at the fork), from the audit log replayed in the page.
    await page.$eval('#step', (input) => {
      (input as HTMLInputElement).value = '6';
      input.dispatchEvent(new Event('input'));
    });
    await page.waitForSelector('#diagram[data-step="6"] svg', { timeout: 10_000 });
    expect(await page.getAttribute('#diagram', 'data-current-node')).toBe('INVESTIGATE');
    expect(await branchStates()).toEqual(['CHECK_LOGS open', 'REPRODUCE open', 'STATUS passed']);
    expect(await drawn('sop_join_failed')).toEqual([]);
    // Step 3, before the fork.
    await page.$eval('#step', (input) => {
      (input as HTMLInputElement).value = '3';
      input.dispatchEvent(new Event('input'));
    });
    await page.waitForSelector('#diagram[data-step="3"] svg', { timeout: 10_000 });
    expect(await page.textContent('#forks-note')).toBe("No fork on the run's path at this step.");
    expect(await drawn('sop_branch_open')).toEqual([]);
    await page.click('#step-live');
    await waitForDiagram('incident_triage', 'ESCALATE', 13);
    expect(await branchStates()).toEqual(['CHECK_LOGS passed', 'REPRODUCE failed', 'STATUS passed']);

    expect(loads).toBe(1);
    expect(await page.evaluate(() => (window as { sopSameDocument?: boolean }).sopSameDocument)).toBe(true);
    expect(chrome.problems).toEqual([]);
  });
});
