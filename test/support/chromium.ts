/**
 * Debian's Chromium, headless, driven by playwright-core, as the browser tests run it: a fresh profile in a temp
 * folder, one tab, and every console error or uncaught page error collected (a test expects none). Without
 * /usr/bin/chromium it fails at once and names the command that installs it (`.ci/run` runs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface HeadlessChromium {
  readonly browser: BrowserContext;
  readonly page: Page;
  /** Console errors and page errors, in the order they came. */
  readonly problems: string[];
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchChromium(viewport: { readonly width: number; readonly height: number }): Promise<HeadlessChromium> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium); .ci/run does`);
  const profile = mkdtempSync(join(tmpdir(), 'sop-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { ...viewport },
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return {
    browser,
    page,
    problems,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
