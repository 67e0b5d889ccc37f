/**
 * What the live page shows of runs, read from the run store: a row per run (agent, step, status, last
 * activity) and, for one run, its state, the flowchart of the SOP version it is pinned to and its audit log.
 * A run's version comes from the store (every version a run starts on is kept there), so the page draws the
 * flowchart the run is actually following even after a rebuild changed the SOP. Versions are immutable by hash,
 * so the few the page has read are kept in a small LRU owned by this object (one per page). On a SOP with forks, a
 * run's detail has the forks on its path (`fork-view.ts`), and its version the transition table the page replays
 * past steps with (`fork-replay.ts`).
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import { createLruMap } from '../support/lru-map.js';
import { forkViews } from './fork-view.js';
import type { RunDetail, RunFrame, RunRow, RunSop, RunStatus } from './run-shapes.js';
import { type AuditEntry, pinnedVersion, type RunStore, type RunSummary, type StoredRun } from '../store/run-store.js';

export interface RunRows {
  row(run: RunSummary | StoredRun): Promise<RunRow>;
  detail(run: StoredRun): Promise<RunDetail>;
  sop(run: StoredRun): Promise<RunSop | null>;
  /** At most `limit` entries after `afterSeq`; `more` when the log goes on. */
  audit(runId: string, afterSeq: number, limit: number): Promise<{ readonly entries: readonly AuditEntry[]; readonly more: boolean }>;
}

export interface RunRowsOptions {
  readonly store: RunStore;
  readonly catalog: () => AgentCatalog;
  /** Runs idle since before this are shown as expired. */
  readonly idleBefore: () => number;
}

const KEPT_VERSIONS = 32;

export function createRunRows({ store, catalog, idleBefore }: RunRowsOptions): RunRows {
  const versions = createLruMap<string, CompiledSop>(KEPT_VERSIONS);

  async function versionOf(agent: string, sourceHash: string): Promise<CompiledSop | undefined> {
    const kept = versions.get(sourceHash);
    if (kept !== undefined) return kept;
    const expanded = catalog().composed(agent);
    const current = expanded?.ok === true ? expanded.sop : undefined;
    const found = current?.sourceHash === sourceHash ? current : await store.getAgentVersion(sourceHash);
    if (found !== undefined && found.meta.agent === agent) {
      versions.set(sourceHash, found);
      return found;
    }
    return undefined;
  }

  async function row(run: RunSummary | StoredRun): Promise<RunRow> {
    const current = 'currentNode' in run ? run.currentNode : (run.state.path.at(-1) ?? null);
    // A summary has the version the run started on; a run read whole, the one it is on (`sop runs migrate`).
    const version = 'state' in run ? pinnedVersion(run) : run.sourceHash;
    const sop = await versionOf(run.agent, version);
    const status: RunStatus =
      run.updatedAt < idleBefore()
        ? 'expired'
        : current === null
          ? 'new'
          : sop?.terminalNodes.includes(current) === true
            ? 'done'
            : 'active';
    return {
      run_id: run.runId,
      agent: run.agent,
      source_hash: version,
      step: run.version,
      current_node: current,
      status,
      created_at: run.createdAt,
      updated_at: run.updatedAt,
    };
  }

  return {
    row,
    async detail(run) {
      const sop = await versionOf(run.agent, pinnedVersion(run));
      const forks = sop?.transitions.forks === undefined ? [] : forkViews(sop.transitions.forks, run.state.forks ?? [], run.state.path);
      return { ...(await row(run)), path: run.state.path, todos: run.state.todos, forks };
    },
    async sop(run) {
      const sop = await versionOf(run.agent, pinnedVersion(run));
      if (sop === undefined) return null;
      return {
        agent: sop.meta.agent,
        version: sop.meta.version,
        source_file: sop.sourceFile,
        flowchart: sop.flowchart,
        node_ids: sop.nodeIds,
        entry_node: sop.transitions.entry,
        terminal_nodes: sop.terminalNodes,
        ...(sop.calls === undefined ? {} : { frames: framesOf(sop) }),
        ...(sop.transitions.forks === undefined ? {} : { transitions: sop.transitions }),
      };
    },
    async audit(runId, afterSeq, limit) {
      const entries = await store.audit(runId, { afterSeq, limit: limit + 1 });
      return { entries: entries.slice(0, limit), more: entries.length > limit };
    },
  };
}

/** The frames of an expanded SOP: each call's SOP, with the ids of its own nodes read off the expansion's. */
function framesOf(sop: CompiledSop): { [call: string]: RunFrame } {
  const frames: { [call: string]: RunFrame } = Object.create(null);
  for (const [call, info] of Object.entries(sop.calls ?? {})) {
    if (info === undefined) continue;
    const head = `${call}.`;
    frames[call] = {
      agent: info.agent,
      version: info.version,
      source_file: info.sourceFile,
      flowchart: info.flowchart,
      node_ids: sop.nodeIds.filter((id) => id.startsWith(head) && !id.slice(head.length).includes('.')).map((id) => id.slice(head.length)),
      entry_node: info.entry,
    };
  }
  return frames;
}
