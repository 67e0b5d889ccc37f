/**
 * The registry of compiled agents as the server sees it: find an entry by agent name or by source file
 * without loading anything, and load an agent's module (and build its lookup tables) only the first time a
 * session selects it. Start-up therefore costs nothing per agent.
 *
 * Prepared agents are cached per `AgentIndexEntry` object for the whole process, so the per-session servers
 * of the HTTP transport share one copy of each agent's tables. A failed load is not cached: the next
 * `load_graph` tries again (after `npm run build:sops`, say).
 */
import type { AgentIndexEntry } from '../compiled-sop.js';
import { prepareAgent, type PreparedAgent } from './prepared-agent.js';

export interface AgentCatalog {
  /** Entries sorted by agent name. */
  readonly entries: readonly AgentIndexEntry[];
  byName(agent: string): AgentIndexEntry | undefined;
  /** By project-relative source path with `/` separators, exactly as compiled (`sops/x.md`). */
  bySourceFile(sourceFile: string): AgentIndexEntry | undefined;
  load(entry: AgentIndexEntry): Promise<PreparedAgent>;
  /** The agent if `load` already finished for it, without waiting: what every call after `load_graph` needs. */
  loaded(entry: AgentIndexEntry): PreparedAgent | undefined;
}

const prepared = new WeakMap<AgentIndexEntry, Promise<PreparedAgent>>();
const ready = new WeakMap<AgentIndexEntry, PreparedAgent>();
const catalogs = new WeakMap<readonly AgentIndexEntry[], AgentCatalog>();

/** The catalog of a registry; built once per registry array. Throws on duplicate agent names or sources. */
export function catalogFor(agents: readonly AgentIndexEntry[]): AgentCatalog {
  let catalog = catalogs.get(agents);
  if (catalog === undefined) {
    catalog = buildCatalog(agents);
    catalogs.set(agents, catalog);
  }
  return catalog;
}

function buildCatalog(agents: readonly AgentIndexEntry[]): AgentCatalog {
  const byName = new Map<string, AgentIndexEntry>();
  const bySource = new Map<string, AgentIndexEntry>();
  for (const entry of agents) {
    if (byName.has(entry.agent)) throw new Error(`Agent registry lists ${entry.agent} twice.`);
    if (bySource.has(entry.sourceFile)) throw new Error(`Agent registry lists source ${entry.sourceFile} twice.`);
    byName.set(entry.agent, entry);
    bySource.set(entry.sourceFile, entry);
  }
  return {
    entries: [...agents].sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0)),
    byName: (agent) => byName.get(agent),
    bySourceFile: (sourceFile) => bySource.get(sourceFile),
    load: loadPrepared,
    loaded: (entry) => ready.get(entry),
  };
}

function loadPrepared(entry: AgentIndexEntry): Promise<PreparedAgent> {
  let pending = prepared.get(entry);
  if (pending === undefined) {
    pending = entry.load().then((sop) => {
      if (sop.meta.agent !== entry.agent) {
        throw new Error(`The module registered as ${entry.agent} holds agent ${sop.meta.agent}. Run \`npm run build:sops\`.`);
      }
      const agent = prepareAgent(sop);
      ready.set(entry, agent);
      return agent;
    });
    prepared.set(entry, pending);
    pending.catch(() => {
      if (prepared.get(entry) === pending) prepared.delete(entry);
    });
  }
  return pending;
}
