/**
 * `sop bundle`: the one-file server it writes runs from a folder with no node_modules (agents inlined, `--out`
 * refused), and it refuses to pack a bundle that does not match the SOPs, a missing
 * build, or a target file it did not write itself.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversation, jsonRpcLines, runStdio } from '../runtime/helpers/stdio-process.js';
import { BASE_SOP } from '../support/sop-text.js';
import { runCli } from '../support/run-cli.js';

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), 'sop-bundle-'));
  writeFileSync(join(app, 'package.json'), '{"name":"bundled","private":true}\n');
  mkdirSync(join(app, 'sops'));
  writeFileSync(join(app, 'sops', 'demo.md'), BASE_SOP);
});
afterEach(() => rmSync(app, { recursive: true, force: true }));

describe('sop bundle', () => {
  it('writes a server with the agents inlined, which needs no node_modules and refuses --out', async () => {
    expect(runCli(['build'], app).code).toBe(0);
    const written = runCli(['bundle', '--out', 'dist/server.mjs'], app);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(
      /^sop bundle: dist\/server\.mjs \(\d+ KiB, 1 agent; \d+ ms\)\. Run: node dist\/server\.mjs \[--http\]\n$/,
    );

    // Stdio and HTTP from a folder without node_modules: test/e2e/app-workflow.test.ts. Here, one conversation.
    const deployed = mkdtempSync(join(tmpdir(), 'sop-deployed-'));
    try {
      copyFileSync(join(app, 'dist', 'server.mjs'), join(deployed, 'server.mjs'));
      const served = await runStdio(
        process.execPath,
        ['server.mjs'],
        conversation([{ name: 'load_graph', arguments: { agent: 'demo' } }]),
        {
          cwd: deployed,
        },
      );
      expect(served.exitCode, served.stderr).toBe(0);
      expect(jsonRpcLines(served.stdout).find((message) => message.id === 2)?.result?.structuredContent).toMatchObject({ agent: 'demo' });

      const withOut = await runStdio(process.execPath, ['server.mjs', '--out', 'generated'], conversation([]), { cwd: deployed });
      expect(withOut.exitCode).toBe(2);
      expect(withOut.stderr).toContain('this server has its agents built in: --out does not apply');
      expect(jsonRpcLines(withOut.stdout)).toEqual([]);
    } finally {
      rmSync(deployed, { recursive: true, force: true });
    }
  });

  it('refuses a bundle that does not match the SOPs: changed, added or removed since the build', () => {
    expect(runCli(['build'], app).code).toBe(0);
    writeFileSync(join(app, 'sops', 'demo.md'), BASE_SOP.replace('version:', 'description: changed\nversion:'));
    writeFileSync(join(app, 'sops', 'extra.md'), BASE_SOP.replace('agent: demo', 'agent: extra'));
    const stale = runCli(['bundle'], app);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      'sop bundle: generated/sop-bundle.json does not match the SOPs:\n' +
        '  sops/demo.md: changed since it was compiled\n' +
        '  sops/extra.md: not compiled\n' +
        'Run `npm run build:sops` (and fix any errors it reports), then bundle again.\n',
    );
    expect(runCli(['build'], app).code).toBe(0);
    unlinkSync(join(app, 'sops', 'extra.md'));
    const removed = runCli(['bundle'], app);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain('  sops/extra.md: compiled, but no longer in sops/\n');
    expect(runCli(['build'], app).code).toBe(0);
    expect(runCli(['bundle'], app).code).toBe(0);
  });

  it('needs a build, and never overwrites a file it did not write', () => {
    const unbuilt = runCli(['bundle'], app);
    expect(unbuilt.code).toBe(1);
    expect(unbuilt.stderr).toContain('generated/sop-bundle.json does not exist. Run `npx sop build`');
    expect(runCli(['build'], app).code).toBe(0);
    writeFileSync(join(app, 'server.mjs'), 'console.log("the app’s own server");\n');
    const refused = runCli(['bundle', '--out', 'server.mjs'], app);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('server.mjs exists and was not written by sop bundle');
    expect(readFileSync(join(app, 'server.mjs'), 'utf8')).toBe('console.log("the app’s own server");\n');
    expect(runCli(['bundle', '--out', 'sop-server.mjs'], app).code).toBe(0);
    expect(runCli(['bundle'], app).code).toBe(0);
  });
});
