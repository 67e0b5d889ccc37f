/**
 * The agents a server serves, across rebuilds. New runs start on the current bundle; a run is pinned to the SOP
 * version (source hash) it started with and keeps it for its whole life, on any instance and after any restart:
 *
 *   - `current()` is the bundle as last read. With `watch`, a rebuild that replaces `sop-bundle.json` (the build
 *     writes through a temporary file and a rename) is read again within moments, so `sop build --watch` beside a
 *     running `sop serve --http` keeps new runs fresh; a bundle that fails to read is reported and the previous
 *     one stays in service.
 *   - `keep(sop)` stores each version a run starts on in the run store (once per process per version), so
 *   - `pinned(agent, hash)` finds a run's version in the current bundle, in this process's cache of prepared
 *     versions, or in the store, and otherwise answers an error naming both hashes and the way forward: a run
 *     never silently continues on another version of its SOP.
 * A version is an agent expanded with the SOPs it calls (`catalog.composed`): a run serves, pins and keeps that,
 * and its hash covers the called SOPs' versions.
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import type { Logger } from '../support/logger.js';
import { createLruMap } from '../support/lru-map.js';
import type { RunStore } from '../store/run-store.js';
import { type AgentCatalog, createCatalog } from './agent-catalog.js';
import { type PreparedAgent, prepareAgent } from '../../contract/answers/prepared-agent.js';
import { readBundle } from '../../contract/read-bundle.js';

export type PinnedAgent = { readonly ok: true; readonly agent: PreparedAgent } | { readonly ok: false; readonly error: string };

export interface AgentSource {
  /** The agents new runs start on. */
  current(): AgentCatalog;
  /** The lookup tables of one compiled version, built once per version. Throws on an inconsistent entry. */
  prepare(sop: CompiledSop): PreparedAgent;
  /** Keeps `sop` in the run store for the runs pinned to it. */
  keep(sop: CompiledSop): Promise<void>;
  /** The version a run is pinned to. */
  pinned(agent: string, sourceHash: string): Promise<PinnedAgent>;
  /** Stops watching the bundle. */
  close(): void;
}

export type BundleOrigin =
  | { readonly bundle: SopBundle }
  | {
      readonly bundlePath: string;
      readonly initial: SopBundle;
      readonly watch?: boolean;
      readonly onReload?: (catalog: AgentCatalog) => void;
    };

export interface AgentSourceOptions {
  readonly origin: BundleOrigin;
  readonly store: RunStore;
  readonly logger: Logger;
  /** Serve only these agents of the bundle (default: all), in the bundle as read and in every rebuild. */
  readonly only?: readonly string[];
}

/** The bundle with only the agents named (all when `only` is undefined). */
export function selectAgents(bundle: SopBundle, only: readonly string[] | undefined): SopBundle {
  if (only === undefined) return bundle;
  return { ...bundle, agents: Object.fromEntries(Object.entries(bundle.agents).filter(([name]) => only.includes(name))) };
}

/** Prepared versions kept in memory; older ones are prepared again from the store when a run needs them. */
const PREPARED_VERSIONS = 64;
/** Reads of a changed bundle wait this long, so an editor or build writing in steps is read once, complete. */
const RELOAD_DELAY_MS = 50;

export function createAgentSource(options: AgentSourceOptions): AgentSource {
  const { origin, store, logger, only } = options;
  const initial = 'bundle' in origin ? origin.bundle : origin.initial;
  let catalog = createCatalog(selectAgents(initial, only), initial);
  const prepared = createLruMap<string, PreparedAgent>(PREPARED_VERSIONS);
  const kept = createLruMap<string, true>(PREPARED_VERSIONS * 4);

  const prepare = (sop: CompiledSop): PreparedAgent => {
    const cached = prepared.get(sop.sourceHash);
    if (cached !== undefined && cached.name === sop.meta.agent) return cached;
    const agent = prepareAgent(sop);
    prepared.set(sop.sourceHash, agent);
    return agent;
  };

  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if ('bundlePath' in origin && origin.watch === true) {
    const file = basename(origin.bundlePath);
    const reload = (): void => {
      const read = readBundle(origin.bundlePath);
      if (!read.ok) {
        logger.warn(`kept the agents already loaded: ${read.error}`);
        return;
      }
      catalog = createCatalog(selectAgents(read.bundle, only), read.bundle);
      logger.info(
        `reloaded ${origin.bundlePath}: ${catalog.entries.length} agent(s); new runs start on it, running runs keep their version`,
      );
      origin.onReload?.(catalog);
    };
    watcher = watch(dirname(origin.bundlePath), (_event, name) => {
      if (name !== null && name !== file) return;
      clearTimeout(timer);
      timer = setTimeout(reload, RELOAD_DELAY_MS);
    });
    watcher.on('error', (error) => logger.error('watching the bundle failed; rebuilt agents will not be picked up until restart', error));
  }

  return {
    current: () => catalog,
    prepare,
    async keep(sop) {
      if (kept.get(sop.sourceHash) !== undefined) return;
      await store.putAgentVersion(sop);
      kept.set(sop.sourceHash, true);
    },
    async pinned(agent, sourceHash) {
      const expanded = catalog.composed(agent);
      const inBundle = expanded?.ok === true ? expanded.sop : undefined;
      if (inBundle?.sourceHash === sourceHash) return { ok: true, agent: prepare(inBundle) };
      const cached = prepared.get(sourceHash);
      if (cached?.name === agent) return { ok: true, agent: cached };
      const stored = await store.getAgentVersion(sourceHash);
      if (stored?.meta.agent === agent) return { ok: true, agent: prepare(stored) };
      const now = inBundle === undefined ? 'no longer serves that agent' : `now serves ${inBundle.sourceHash}`;
      // A run may move to a newer version (`sop runs migrate`); until then it keeps its own.
      return {
        ok: false,
        error:
          `This run is pinned to ${agent} ${sourceHash}, which this server does not have (it ${now}). ` +
          'A run never switches SOP versions: start a new run with load_graph.',
      };
    },
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
