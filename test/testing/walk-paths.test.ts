/**
 * `walkGoldenPaths` (`sop-toolkit/testing`) on the repository's own agents: every golden path of each, walked
 * through a real session service, with no move refused. And it catches what it is for: a path the server refuses
 * (a skipped node), a path that stops short of a terminal, a fixture of another SOP version, an unknown agent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { type GoldenPaths, goldenPaths } from '../../generator/paths/golden-paths.js';
import { walkGoldenPaths } from '../../testing/walk-paths.js';
import { PROJECT_ROOT } from '../support/run-cli.js';

const BUNDLE_FILE = join(PROJECT_ROOT, 'generated/sop-bundle.json');
const bundle = JSON.parse(readFileSync(BUNDLE_FILE, 'utf8')) as SopBundle;

describe('the golden paths of the repository agents, through the real runtime', () => {
  // The repository's sop.config.json has "paths": true, so the build writes these fixtures (and --check keeps them fresh).
  it.each(Object.keys(bundle.agents))('%s: every path of generated/%s/paths.json walks to its terminal, no move refused', async (agent) => {
    const fixture = join(PROJECT_ROOT, 'generated', agent, 'paths.json');
    const report = await walkGoldenPaths({ bundle: BUNDLE_FILE, agent, paths: fixture });
    expect(report.failures).toEqual([]);
    const paths = JSON.parse(readFileSync(fixture, 'utf8')) as GoldenPaths;
    expect(paths).toEqual(goldenPaths(bundle.agents[agent]!));
    expect(report.paths).toBe(paths.count.listed);
    expect(report.moves).toBe(paths.paths.reduce((sum, path) => sum + path.nodes.length, 0));
  });

  it('computes the paths from the bundle when no fixture is given', async () => {
    const report = await walkGoldenPaths({ bundle: BUNDLE_FILE, agent: 'it_helpdesk' });
    expect(report).toMatchObject({ failures: [], paths: goldenPaths(bundle.agents.it_helpdesk!).count.listed });
  });
});

describe('what the walk reports', () => {
  const agent = 'retail_customer_support';
  const sop = bundle.agents[agent]!;
  const real = goldenPaths(sop);

  it('a move the server refuses, with the path, step and answer', async () => {
    const skipping = {
      ...real,
      paths: [{ terminal: 'END_CANCEL', nodes: ['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'DO_CANCEL', 'END_CANCEL'], loops: 0 }],
    };
    const report = await walkGoldenPaths({ bundle, agent, paths: skipping });
    expect(report.failures).toEqual([
      {
        kind: 'refused',
        path: 0,
        step: 5,
        from: 'CHK_CANCEL',
        to: 'DO_CANCEL',
        message: expect.stringContaining('Cannot reach DO_CANCEL from CHK_CANCEL'),
      },
    ]);
  });

  it('a path that stops before a terminal node', async () => {
    const short = { ...real, paths: [{ terminal: 'ROUTE', nodes: ['START', 'AUTH', 'ROUTE'], loops: 0 }] };
    const report = await walkGoldenPaths({ bundle, agent, paths: short });
    expect(report.failures).toMatchObject([{ kind: 'not-terminal', path: 0, from: 'ROUTE' }]);
  });

  it('a fixture of another version of the SOP, and an unknown agent', async () => {
    const stale = await walkGoldenPaths({ bundle, agent, paths: { ...real, source_hash: 'sha256:old' } });
    expect(stale.failures).toMatchObject([{ kind: 'setup', message: expect.stringContaining('rebuild') }]);
    const unknown = await walkGoldenPaths({ bundle, agent: 'nobody' });
    expect(unknown.failures).toMatchObject([{ kind: 'setup', message: expect.stringContaining('no agent nobody') }]);
  });
});
