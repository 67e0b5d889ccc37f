/**
 * `sop preview` in a real browser: the real CLI serves the page for a SOP in a temp project, Debian's Chromium
 * (headless, driven by playwright-core) shows it. Saving a broken SOP marks the diagnostic on its node in the drawn
 * flowchart and lists it; saving the fix clears both, without a reload; a click shows a node's details; a walk plays
 * goto_node from the entry node through legal moves only, each answer with its token count, to a terminal node.
 * Screenshots are saved under .cache/browser/. Without /usr/bin/chromium the test fails and says how to install it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT } from '../support/run-cli.js';
import { BASE_SOP } from '../support/sop-text.js';
import { type HeadlessChromium, launchChromium } from '../support/chromium.js';

const SHOTS = join(PROJECT_ROOT, '.cache', 'browser');

/** A SOP with a decision, so a walk has a choice to make. */
const SOP = BASE_SOP.replace(
  '    ASK --> DONE([Done])',
  ['    ASK --> OK{Answered?}', '    OK -->|yes| DONE([Done])', '    OK -->|no| ASK'].join('\n'),
);
const BROKEN = SOP.replace('tools: [lookup]\n```\nAsk', 'tools: [lookup]\nmax_visits: 2\n```\nAsk'); // SOP051 at ASK

let dir: string;
let preview: ChildProcess;
let url: string;
let chrome: HeadlessChromium;
let page: Page;
const sopPath = () => join(dir, 'sops', 'demo.md');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sop-preview-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'package.json'), '{"name":"preview-test","private":true}\n');
  writeFileSync(sopPath(), SOP);
  writeFileSync(join(dir, 'sops', 'retail.md'), readFileSync(join(PROJECT_ROOT, 'sops', 'retail_customer_support.md')));
  preview = spawn(process.execPath, [CLI, 'preview', 'sops/demo.md', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  preview.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sop preview did not start:\n${out}`)), 20_000);
    preview.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
  });
  chrome = await launchChromium({ width: 1500, height: 1000 });
  page = chrome.page;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  preview?.kill('SIGTERM');
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Mermaid's ids of the drawn nodes that carry `className`. */
function marked(className: string): Promise<string[]> {
  return page.$$eval(`#diagram svg g.node.${className}`, (nodes) => nodes.map((n) => /-flowchart-(.+)-\d+$/.exec(n.id)?.[1] ?? n.id));
}

describe('sop preview in Chromium', () => {
  it('marks a saved error on its node, clears it on the fix, shows node details, and walks to a terminal node', async () => {
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.goto(url);
    await page.waitForSelector('#diagram svg g.node');
    await page.waitForSelector('#connection[data-state="live"]');
    expect(await page.isVisible('#no-problems')).toBe(true);
    expect(await marked('sop_error')).toEqual([]);
    expect(await page.$$eval('#file option', (options) => options.map((o) => o.textContent))).toEqual(['sops/demo.md', 'sops/retail.md']);

    // A broken save: the diagnostic is drawn on its node and listed, and the walk is off.
    writeFileSync(sopPath(), BROKEN);
    await page.waitForSelector('#diagram svg g.node.sop_error', { timeout: 10_000 });
    expect(await marked('sop_error')).toEqual(['ASK']);
    const listed = await page.$eval('#problems li', (li) => ({ code: li.dataset['code'], node: li.dataset['node'], text: li.textContent }));
    expect(listed).toMatchObject({ code: 'SOP051', node: 'ASK' });
    expect(listed.text).toContain('max_visits');
    expect(await page.isDisabled('#walk-start')).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'preview-error.png'), fullPage: true });

    // The fix clears it.
    writeFileSync(sopPath(), SOP);
    await page.waitForSelector('#no-problems:not([hidden])', { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelectorAll('#diagram svg g.node.sop_error').length === 0);
    expect(await page.isDisabled('#walk-start')).toBe(false);

    // A click on a node shows its details.
    await page.click('#diagram svg g.node[id*="-flowchart-OK-"]');
    await page.waitForSelector('#details[data-node="OK"]');
    const details = await page.textContent('#details');
    expect(details).toContain('rhombus');
    expect(details).toContain('→ DONE if “yes”');
    expect(details).toContain('← ASK');

    // The walk: from the entry node, legal moves only, each answer counted, to a terminal node.
    await page.click('#walk-start');
    await page.waitForSelector('#walk[data-current="START"]');
    expect(await page.$$eval('#next button', (b) => b.map((x) => x.dataset['node']))).toEqual(['ASK', 'START']);
    for (const [node, next] of [
      ['ASK', 'OK'],
      ['OK', 'DONE'],
    ] as const) {
      await page.click(`#next button[data-node="${node}"]`);
      await page.waitForSelector(`#walk[data-current="${node}"]`);
      expect(await page.$$eval('#next button', (b) => b.map((x) => x.dataset['node']))).toContain(next);
    }
    expect(await page.$$eval('#next button', (b) => b.map((x) => x.dataset['node']))).toEqual(['DONE', 'ASK', 'START']); // successors in edge order, then the entry node
    await page.click('#next button[data-node="DONE"]');
    await page.waitForSelector('#walk[data-current="DONE"][data-terminal="true"]');
    const steps = await page.$$eval('#walk li', (items) =>
      items.map((li) => ({ node: li.dataset['node'], tokens: Number(li.dataset['tokens']) })),
    );
    expect(steps.map((s) => s.node)).toEqual(['START', 'ASK', 'OK', 'DONE']);
    for (const step of steps) expect(step.tokens).toBeGreaterThan(10);
    await page.waitForFunction(() => document.querySelector('#diagram')?.getAttribute('data-current-node') === 'DONE');
    expect(await marked('sop_current')).toEqual(['DONE']);
    expect((await marked('sop_visited')).sort()).toEqual(['ASK', 'OK', 'START']);
    expect(await page.textContent('#walk li:last-child')).toContain('terminal');
    await page.screenshot({ path: join(SHOTS, 'preview-walk.png'), fullPage: true });

    expect(navigations).toBe(1);
    expect(chrome.problems).toEqual([]);
  });
});
