import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSopFile } from '../../../runtime/agents/resolve-sop-file.js';
import { FIXTURE_BUNDLE } from '../../fixtures/runtime/agents.js';
import { createCatalog } from '../../../runtime/agents/agent-catalog.js';
import { FIXTURE_ROOT } from '../helpers/mcp-client.js';

const catalog = createCatalog(FIXTURE_BUNDLE);
const COMPILED = 'Compiled SOPs: [sops/support_desk.md, sops/tiny_flow.md].';
const REBUILD = 'Run `npm run build:sops` to compile it, then call load_graph again.';

describe('resolveSopFile', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sop-runtime-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(['sops/support_desk.md', './sops/support_desk.md', 'sops/../sops/support_desk.md', join(FIXTURE_ROOT, 'sops/support_desk.md')])(
    'finds the compiled SOP from %s when its bytes match the build',
    async (sopFile) => {
      const resolved = await resolveSopFile(catalog, FIXTURE_ROOT, sopFile);
      expect(resolved).toEqual({ ok: true, entry: catalog.byName('support_desk') });
    },
  );

  it('refuses a SOP that changed since it was compiled', async () => {
    const project = join(scratch, 'stale');
    cpSync(FIXTURE_ROOT, project, { recursive: true });
    writeFileSync(join(project, 'sops/support_desk.md'), '---\nagent: support_desk\n---\nedited\n');
    expect(await resolveSopFile(catalog, project, 'sops/support_desk.md')).toEqual({
      ok: false,
      error: `sops/support_desk.md changed since it was compiled (its sha256 differs from the build's). ${REBUILD}`,
    });
  });

  it('refuses a compiled SOP whose source is gone', async () => {
    expect(await resolveSopFile(catalog, FIXTURE_ROOT, 'sops/tiny_flow.md')).toEqual({
      ok: false,
      error: `sops/tiny_flow.md was compiled but no longer exists, so the build cannot be checked. ${REBUILD}`,
    });
  });

  it('refuses a project file that is not a compiled SOP', async () => {
    expect(await resolveSopFile(catalog, FIXTURE_ROOT, 'sops/new_agent.md')).toEqual({
      ok: false,
      error: `sops/new_agent.md is not a compiled SOP of this project. ${REBUILD} ${COMPILED}`,
    });
  });

  it.each([
    'https://example.com/sops/support_desk.md',
    'http://127.0.0.1/sops/support_desk.md',
    'file:///etc/passwd',
    'data:text/plain,hi',
    '//example.com/x.md',
  ])('refuses the URL %s', async (url) => {
    const resolved = await resolveSopFile(catalog, FIXTURE_ROOT, url);
    expect(resolved).toEqual({
      ok: false,
      error: expect.stringContaining(`sop_file must be a path inside this project, not a URL: ${url}.`),
    });
  });

  it.each(['../agents.ts', '../../../../package.json', '/etc/passwd', '.', ''])('refuses %s outside the project', async (path) => {
    const resolved = await resolveSopFile(catalog, FIXTURE_ROOT, path);
    expect(resolved).toEqual({
      ok: false,
      error: `sop_file ${path} is outside the project: only the project's compiled SOPs are served. ${COMPILED}`,
    });
  });

  it.runIf(existsSync('/dev/zero'))('never reads a path that is not registered (reading /dev/zero would never end)', async () => {
    expect(await resolveSopFile(catalog, FIXTURE_ROOT, '/dev/zero')).toMatchObject({ ok: false });
    expect(await resolveSopFile(catalog, '/dev', 'zero')).toMatchObject({
      ok: false,
      error: expect.stringContaining('zero is not a compiled SOP'),
    });
  });
});
