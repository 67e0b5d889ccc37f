/**
 * `sop paths AGENT` end to end: the real CLI on a temp project compiled by the real `sop build`. A SOP with a loop
 * and a hub lists exactly the paths the rule gives (each loop at most once, no hub jumps), per terminal; the bounds
 * (`--max-paths` lists fewer and says how many there are; `--max-steps` makes the count a lower bound); a terminal
 * no path reaches is exit 1 (the build only warns about it); no such agent, no bundle and bad flags are exit 2 with
 * a message and nothing on stdout. The build's `"paths": true` writes the same JSON as `sop paths` prints.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { decideMove, type Visits } from '../../contract/transitions.js';
import type { GoldenPaths } from '../../generator/paths/golden-paths.js';
import { CLI, type CliResult, runCli } from '../support/run-cli.js';
import { withLine } from '../support/sop-text.js';

/** A loop (CHECK → ASK, "retry") and a hub (ROUTE), two terminals. */
const LOOP_SOP = `---
agent: loopdesk
version: "1.0"
hubs: [ROUTE]
tools: [lookup]
---

## Role
Helps.

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Start]) --> ASK["Ask"]
    ASK --> ROUTE{Route?}
    ROUTE -->|work| WORK["Work"]
    ROUTE -->|done| DONE([Done])
    ROUTE -->|human| HUMAN([Human])
    WORK --> CHECK{OK?}
    CHECK -->|retry| ASK
    CHECK -->|ok| DONE
\`\`\`

## Node Prompts

### WORK
\`\`\`yaml
tools: [lookup]
\`\`\`
Do the work.
`;

/**
 * Every path of LOOP_SOP by the rule, in its order (fewest loops, shortest, flowchart order). The retry loop
 * (ASK ROUTE WORK CHECK) is gone around at most once; ROUTE being a hub adds nothing (a hub jump is not an edge).
 */
const LOOP_PATHS = [
  { terminal: 'DONE', nodes: 'START ASK ROUTE DONE', loops: 0 },
  { terminal: 'HUMAN', nodes: 'START ASK ROUTE HUMAN', loops: 0 },
  { terminal: 'DONE', nodes: 'START ASK ROUTE WORK CHECK DONE', loops: 0 },
  { terminal: 'DONE', nodes: 'START ASK ROUTE WORK CHECK ASK ROUTE DONE', loops: 1 },
  { terminal: 'HUMAN', nodes: 'START ASK ROUTE WORK CHECK ASK ROUTE HUMAN', loops: 1 },
  { terminal: 'DONE', nodes: 'START ASK ROUTE WORK CHECK ASK ROUTE WORK CHECK DONE', loops: 1 },
].map((p) => ({ ...p, nodes: p.nodes.split(' ') }));

/** The base SOP plus a terminal node no edge leads to. */
const ORPHAN_SOP = withLine(14, '    ASK --> DONE([Done])\n    LOST([Lost])').replace('agent: demo', 'agent: orphan');

let dir: string;
let build: CliResult;
const paths = (...args: string[]) => runCli(['paths', ...args], dir);
const parsed = (result: CliResult) => JSON.parse(result.stdout) as GoldenPaths;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sop-paths-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'sops', 'loopdesk.md'), LOOP_SOP);
  writeFileSync(join(dir, 'sops', 'orphan.md'), ORPHAN_SOP);
  writeFileSync(join(dir, 'sop.config.json'), JSON.stringify({ paths: true }));
  build = runCli(['build'], dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sop paths', () => {
  it('lists every path of a SOP with a loop and a hub, each loop at most once, with the counts per terminal', () => {
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const result = paths('loopdesk');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const listed = parsed(result);
    expect(listed).toMatchObject({
      format: 'sop-paths/1',
      agent: 'loopdesk',
      entry_node: 'START',
      limits: { max_paths: 200, max_steps: 1_000_000 },
      count: { total: 6, exact: true, listed: 6 },
      per_terminal: { DONE: 4, HUMAN: 2 },
      unreached_terminals: [],
      uncovered_edges: [],
    });
    expect(listed.paths).toEqual(LOOP_PATHS);
    const bundle = JSON.parse(readFileSync(join(dir, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
    expect(listed.source_hash).toBe(bundle.agents.loopdesk!.sourceHash);
  });

  it('ends quietly with its exit code when the reader closes the pipe first (sop paths AGENT | head)', () => {
    const piped = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" paths loopdesk | true; echo "\${PIPESTATUS[0]}"`], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe('0\n');
  });

  it('leaves out a second time around the loop, which the runtime would allow', () => {
    const table = (JSON.parse(readFileSync(join(dir, 'generated/sop-bundle.json'), 'utf8')) as SopBundle).agents.loopdesk!.transitions;
    let path: readonly string[] = [];
    let visits: Visits = {};
    for (const node of 'START ASK ROUTE WORK CHECK ASK ROUTE WORK CHECK ASK ROUTE DONE'.split(' ')) {
      const verdict = decideMove(table, path, node, visits);
      expect(verdict.ok, node).toBe(true);
      if (verdict.ok) ({ path, visits } = verdict);
    }
    expect(parsed(paths('loopdesk')).paths.every((p) => p.nodes.filter((n) => n === 'CHECK').length <= 2)).toBe(true);
  });

  it('--max-paths lists the best path to each terminal first, then new edges, and says how many there are', () => {
    const two = paths('loopdesk', '--max-paths', '2');
    expect(two.code).toBe(0);
    expect(parsed(two)).toMatchObject({
      limits: { max_paths: 2 },
      count: { total: 6, exact: true, listed: 2 },
      per_terminal: { DONE: 4, HUMAN: 2 },
      paths: LOOP_PATHS.slice(0, 2),
      uncovered_edges: ['ROUTE -> WORK', 'WORK -> CHECK', 'CHECK -> ASK', 'CHECK -> DONE'],
    });
    const three = parsed(paths('loopdesk', '--max-paths=3'));
    expect(three.count).toEqual({ total: 6, exact: true, listed: 3 });
    expect(three.paths).toEqual(LOOP_PATHS.slice(0, 3));
    expect(three.uncovered_edges).toEqual(['CHECK -> ASK']);
  });

  it('--max-steps stops the search: the count is then a lower bound, and said to be', () => {
    const cut = paths('loopdesk', '--max-steps', '12');
    const listed = parsed(cut);
    expect(listed.limits).toEqual({ max_paths: 200, max_steps: 12 });
    expect(listed.count.exact).toBe(false);
    expect(listed.count.total).toBeGreaterThan(0);
    expect(listed.count.total).toBeLessThan(LOOP_PATHS.length);
    expect(listed.count.listed).toBe(listed.count.total);
    expect(listed.per_terminal.DONE! + listed.per_terminal.HUMAN!).toBe(listed.count.total);
    for (const path of listed.paths) expect(LOOP_PATHS).toContainEqual(path);
    // Exit 1 only when a terminal was not met within the steps.
    expect(cut.code).toBe(listed.unreached_terminals.length === 0 ? 0 : 1);

    const none = paths('loopdesk', '--max-steps', '1');
    expect(none.code).toBe(1);
    expect(parsed(none)).toMatchObject({ count: { total: 0, exact: false, listed: 0 }, unreached_terminals: ['DONE', 'HUMAN'], paths: [] });
    expect(none.stderr).toBe('sop paths: no path reaches DONE, HUMAN within --max-steps 1\n');
  });

  it('exits 1 when a terminal node is unreachable, which the build only warns about, and still prints the paths', () => {
    expect(build.stdout).toMatch(/sops\/orphan\.md:15:5 warning SOP041 Node `LOST` is not reachable/);
    const result = paths('orphan');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('sop paths: no path reaches LOST\n');
    expect(parsed(result)).toMatchObject({
      count: { total: 1, exact: true, listed: 1 },
      per_terminal: { DONE: 1, LOST: 0 },
      unreached_terminals: ['LOST'],
      paths: [{ terminal: 'DONE', nodes: ['START', 'ASK', 'DONE'], loops: 0 }],
    });
  });

  it('exits 2 on an unknown agent, naming the compiled ones, and on a missing bundle; --out reads another folder', () => {
    const unknown = paths('nobody');
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: 'sop paths: no agent nobody (compiled agents: loopdesk, orphan)\n' });

    const empty = mkdtempSync(join(tmpdir(), 'sop-paths-empty-'));
    try {
      const missing = runCli(['paths', 'loopdesk'], empty);
      expect(missing.code).toBe(2);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/^sop paths: no compiled agents: generated\/sop-bundle\.json does not exist\. Run `npx sop build`/);
      mkdirSync(join(empty, 'elsewhere'));
      cpSync(join(dir, 'generated/sop-bundle.json'), join(empty, 'elsewhere/sop-bundle.json'));
      const other = runCli(['paths', 'loopdesk', '--out', 'elsewhere'], empty);
      expect(other.code).toBe(0);
      expect(parsed(other).paths).toEqual(LOOP_PATHS);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it.each([
    [['--max-paths', '0', 'loopdesk'], '--max-paths needs a whole number of at least 1, got 0'],
    [['loopdesk', '--max-paths', 'many'], '--max-paths needs a whole number of at least 1, got many'],
    [['loopdesk', '--max-steps', '1.5'], '--max-steps needs a whole number of at least 1, got 1.5'],
    [['loopdesk', '--max-steps=-3'], '--max-steps needs a whole number of at least 1, got -3'],
    [['loopdesk', '--verbose'], "Unknown option '--verbose'"],
    [[], 'name one agent'],
    [['loopdesk', 'orphan'], 'name one agent'],
  ])('exits 2 with the usage on bad arguments: %j', (args, message) => {
    const result = paths(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`sop paths: ${message}`);
    expect(result.stderr).toContain('Usage: sop paths AGENT [--max-paths N] [--max-steps N] [--out DIR]');
  });

  it('--help prints the usage and exits 0', () => {
    const help = paths('--help');
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/^Usage: sop paths AGENT/);
  });
});

describe('"paths": true in sop.config.json', () => {
  it("makes the build write each agent's paths.json, the same JSON sop paths prints, and --check keeps it fresh", () => {
    for (const agent of ['loopdesk', 'orphan']) {
      // An unreached terminal fails `sop paths` but not the build: the fixture records it.
      expect(readFileSync(join(dir, 'generated', agent, 'paths.json'), 'utf8')).toBe(paths(agent).stdout);
    }
    writeFileSync(join(dir, 'generated/loopdesk/paths.json'), '{}\n');
    const check = runCli(['build', '--check'], dir);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('stale: generated/loopdesk/paths.json');
  });
});
