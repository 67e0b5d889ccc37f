/**
 * Walks golden paths through the real runtime, for an app's test suite: for each path, a fresh run on a real
 * session service over a memory run store (the same service `sop serve` runs), `load_graph` then one `goto_node`
 * per node of the path, exactly as an agent would call them. Every move the server refuses, and every path that
 * does not end on a terminal node, is a failure naming the path, the step and the server's answer.
 *
 * The paths are the build's fixture (`generated/<agent>/paths.json`, with `"paths": true` in sop.config.json), or
 * computed from the bundle when none is given. A fixture compiled from another version of the SOP is a failure
 * too: the walk would prove nothing about the SOP being served.
 *
 * An agent with sub-flows is walked expanded with the SOPs it calls, as the server serves it; a move into a sub-flow
 * node enters the called SOP's entry node at once, so the path's next node is already reached. A path through a fork
 * reports the moves `failed` names as such (`outcome: failed`).
 *
 * Problems are values: an unreadable bundle or an unknown agent comes back as a `setup` failure, never a throw,
 * so `expect(report.failures).toEqual([])` shows everything at once.
 */
import { readFileSync } from 'node:fs';
import type { SopBundle } from '../contract/compiled-sop.js';
import { DEFAULT_PATH_LIMITS, type GoldenPath, type GoldenPaths, goldenPaths, PATHS_FORMAT } from '../generator/paths/golden-paths.js';
import { expandedAgent } from '../generator/paths/path-fixtures.js';
import { createAgentSource } from '../runtime/agents/agent-source.js';
import { readBundle } from '../contract/read-bundle.js';
import { silentLogger } from '../runtime/support/logger.js';
import { createSessionService, resultOf, type SessionService } from '../runtime/service/session-service.js';
import { createMemoryRunStore } from '../runtime/store/memory-run-store.js';

export interface PathWalkOptions {
  /** The compiled agents: a bundle, or the path of `sop-bundle.json`. */
  readonly bundle: SopBundle | string;
  readonly agent: string;
  /** The paths: a `paths.json` fixture or its file path; default: computed from the bundle (default limits). */
  readonly paths?: GoldenPaths | string;
  /** The app root `load_graph` resolves `sop_file` against (default: the working directory). */
  readonly projectRoot?: string;
}

export interface PathWalkFailure {
  /** `setup`: nothing could be walked; `refused`: the server refused a move; `not-terminal`: the path ended elsewhere. */
  readonly kind: 'setup' | 'refused' | 'not-terminal';
  /** Index of the path in the listing (-1 for setup failures). */
  readonly path: number;
  /** 1-based move of the path (0 when not about one move). */
  readonly step: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly message: string;
}

export interface PathWalkReport {
  readonly agent: string;
  readonly paths: number;
  readonly moves: number;
  readonly failures: readonly PathWalkFailure[];
}

export async function walkGoldenPaths(options: PathWalkOptions): Promise<PathWalkReport> {
  const setup = (message: string): PathWalkReport => ({
    agent: options.agent,
    paths: 0,
    moves: 0,
    failures: [{ kind: 'setup', path: -1, step: 0, from: null, to: null, message }],
  });
  const bundle = typeof options.bundle === 'string' ? readBundle(options.bundle) : { ok: true as const, bundle: options.bundle };
  if (!bundle.ok) return setup(bundle.error);
  if (!Object.hasOwn(bundle.bundle.agents, options.agent)) {
    return setup(`no agent ${options.agent} in the bundle (agents: ${Object.keys(bundle.bundle.agents).join(', ')})`);
  }
  const expanded = expandedAgent(bundle.bundle, options.agent);
  if (!expanded.ok) return setup(expanded.error);
  const sop = expanded.sop;
  const fixture = options.paths === undefined ? goldenPaths(sop, DEFAULT_PATH_LIMITS) : readFixture(options.paths);
  if ('error' in fixture) return setup(fixture.error);
  if (fixture.agent !== sop.meta.agent || fixture.source_hash !== sop.sourceHash) {
    return setup(
      `the paths are of ${fixture.agent} ${fixture.source_hash}, the bundle serves ${sop.meta.agent} ${sop.sourceHash}: rebuild (npm run build:sops)`,
    );
  }

  const store = createMemoryRunStore();
  const agents = createAgentSource({ origin: { bundle: bundle.bundle }, store, logger: silentLogger });
  const service = createSessionService({ agents, store, projectRoot: options.projectRoot ?? process.cwd(), logger: silentLogger });
  const failures: PathWalkFailure[] = [];
  let moves = 0;
  try {
    for (const [index, path] of fixture.paths.entries()) {
      const walked = await walkOne(service, options.agent, index, path);
      moves += walked.moves;
      failures.push(...walked.failures);
    }
  } finally {
    await service.close();
    await store.close();
  }
  return { agent: options.agent, paths: fixture.paths.length, moves, failures };
}

async function walkOne(
  service: SessionService,
  agent: string,
  index: number,
  path: GoldenPath,
): Promise<{ moves: number; failures: PathWalkFailure[] }> {
  const caller = { principal: 'golden-paths' };
  const loaded = resultOf(await service.callTool('load_graph', { agent }, caller));
  const runId = (loaded.structuredContent as { run_id?: unknown } | undefined)?.run_id;
  if (typeof runId !== 'string') {
    return { moves: 0, failures: [{ kind: 'setup', path: index, step: 0, from: null, to: null, message: textOf(loaded) }] };
  }
  let from: string | null = null;
  let last: { edges?: unknown[] } | undefined;
  const failed = new Set(path.failed ?? []);
  for (const [step, node] of path.nodes.entries()) {
    // Entering a sub-flow node enters the called SOP's entry node in the same move: the path's next node is there.
    if (step > 0 && node === from && path.nodes[step - 1] !== from) continue;
    const input = { node_id: node, run_id: runId, ...(failed.has(step) ? { outcome: 'failed' } : {}) };
    const result = resultOf(await service.callTool('goto_node', input, caller));
    const answer = result.structuredContent as { valid?: boolean; edges?: unknown[]; node?: { id?: string } } | undefined;
    if (result.isError === true || answer?.valid !== true) {
      return { moves: step + 1, failures: [{ kind: 'refused', path: index, step: step + 1, from, to: node, message: textOf(result) }] };
    }
    from = answer.node?.id ?? node;
    last = answer;
  }
  if (last?.edges === undefined || last.edges.length > 0) {
    const message = `the path ends on ${from}, which is not a terminal node`;
    return {
      moves: path.nodes.length,
      failures: [{ kind: 'not-terminal', path: index, step: path.nodes.length, from, to: null, message }],
    };
  }
  return { moves: path.nodes.length, failures: [] };
}

function readFixture(paths: GoldenPaths | string): GoldenPaths | { readonly error: string } {
  if (typeof paths !== 'string') return paths;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(paths, 'utf8'));
  } catch (error) {
    return { error: `cannot read the paths fixture ${paths}: ${(error as Error).message}` };
  }
  const fixture = value as Partial<GoldenPaths> | null;
  if (fixture === null || typeof fixture !== 'object' || fixture.format !== PATHS_FORMAT || !Array.isArray(fixture.paths)) {
    return { error: `${paths} is not a paths fixture (${PATHS_FORMAT}); it is written by sop build with "paths": true in sop.config.json` };
  }
  return fixture as GoldenPaths;
}

function textOf(result: { content?: unknown }): string {
  const [first] = Array.isArray(result.content) ? (result.content as { text?: unknown }[]) : [];
  return typeof first?.text === 'string' ? first.text : JSON.stringify(result);
}
