/**
 * The session service: one per process, created once, shared by every transport (stdio and HTTP are thin
 * adapters over it). It owns the agents, the run store, the clock, the logger and the limits; nothing about a
 * conversation lives in a transport or in module state.
 *
 * A tool call, in order:
 *   1. find the tool (an unknown name is a JSON-RPC error, -32602), validate the arguments;
 *   2. `load_graph` starts a run: pick the agent, keep its version in the store, create the run with its first
 *      audit entry, make it the session's current run, answer with its `run_id`;
 *   3. any other tool acts on a run: the `run_id` it names, else the session's current run. One call at a time
 *      per run in this process (`support/keyed-queue.ts`); read the run (this process's copy when it has one), check
 *      its owner, find the SOP version it is pinned to, run the pure tool function, and commit the next state
 *      with the call's audit entry if the run is still at the version read (compare-and-set): one trip to the
 *      store when this process's copy is fresh. Another instance may have moved the run meanwhile: the failed
 *      commit returns the run as it is now, and the call is decided again on it, a few times at most. The answer
 *      is returned only after the commit succeeded, so a crash never loses a call that was answered.
 *      A call that needs no run (`inspect`'s agents and validate views) is answered at once, logged nowhere.
 * Each call is one OpenTelemetry span (`tracing.ts`), told what the call did to its run once it is committed.
 *
 * Gateway mode (`gateway`): the domain servers' tools are listed beside these, and a domain call is a run tool
 * like `goto_node`: decided on the run (`tools/domain-call.ts`), committed to the audit log, and only then sent to
 * its server, its outcome committed after (`domain-calls.ts`). `goto_node` then also enforces evidence
 * (`tools/gateway-goto.ts`). A decision that needs the user's yes is answered with a question instead of a
 * result (`CallAnswer`): the MCP layer turns it into an elicitation.
 *
 * A run someone else owns answers exactly like an unknown run. Runs idle longer than `runIdleMs` expire (a
 * sweep deletes them); a process keeps at most `runCacheSize` runs in memory, so idle runs live in the store.
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import type { Tracer } from '@opentelemetry/api';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { AgentSource } from '../agents/agent-source.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import { selectAgent } from '../agents/select-agent.js';
import { toolJsonSchema, describeIssues } from '../mcp/json-schema.js';
import { type AuditEntry, EMPTY_RUN_STATE, pinnedVersion, type RunStore, type StoredRun } from '../store/run-store.js';
import type { ConfirmationQuestion } from '../tools/confirmation.js';
import { DEFAULT_INSPECT_VIEWS, inspectTool } from '../tools/inspect/inspect-tool.js';
import type { InspectViewName } from '../tools/inspect/inspect-view.js';
import { loadGraph, loadGraphInput } from '../tools/load-graph.js';
import { GOTO_NODE, gatewayGotoNode, observedGotoNode } from '../tools/goto-node.js';
import {
  type LoadValidator,
  LOAD_GRAPH_TOOL,
  type RunFacts,
  RUN_TOOLS,
  type RunTool,
  type ToolDefinition,
} from '../tools/tool-definitions.js';
import { fail, type ToolOutcome } from '../tools/tool-outcome.js';
import { newRunId, newSessionId } from '../support/ids.js';
import { createKeyedQueue } from '../support/keyed-queue.js';
import { type Logger, stderrLogger } from './logger.js';
import { createLruMap } from '../support/lru-map.js';
import type { DomainTools } from '../upstream/domain-tools.js';
import { createDomainCalls } from './domain-calls.js';
import { type CallRequest, createToolTracing, type ToolCallSpan } from './tracing.js';

export interface Clock {
  now(): number;
}

/** Who makes a call, and in which session. */
export interface Caller {
  /** The authenticated principal; `local` over stdio and on unauthenticated loopback HTTP. */
  readonly principal: string;
  /** The session whose current run is implied when a call names no `run_id` (stdio, `Mcp-Session-Id`). */
  readonly sessionId?: string | undefined;
  /**
   * How calls reach the server: a long-lived `connection` (stdio, in process), over which it can ask the client
   * mid-call in either protocol era, or one HTTP `request`, where it can only in the 2026-07-28 era (default).
   */
  readonly channel?: 'connection' | 'request';
}

export interface ServiceLimits {
  /** A run idle this long expires (default 24 h). */
  readonly runIdleMs: number;
  /** Sessions this process keeps open at most (default 10,000); `initialize` beyond it is refused. */
  readonly maxLiveSessions: number;
  /** Compare-and-set attempts per call before the call is answered "try again" (default 5). */
  readonly commitAttempts: number;
  /** Runs this process keeps in memory (default 1,024); the rest are read from the store when used. */
  readonly runCacheSize: number;
}

/** How long a session's owner, once read, is trusted without reading it again (see `sessionOwners`). */
const SESSION_RECHECK_MS = 5_000;

export const DEFAULT_LIMITS: ServiceLimits = Object.freeze({
  runIdleMs: 24 * 60 * 60 * 1000,
  maxLiveSessions: 10_000,
  commitAttempts: 5,
  runCacheSize: 1024,
});

export interface SessionServiceOptions {
  readonly agents: AgentSource;
  readonly store: RunStore;
  /** The app root: `load_graph`'s `sop_file` resolves against it. */
  readonly projectRoot: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly limits?: Partial<ServiceLimits>;
  /** The views of the `inspect` tool (default: `where`); none leaves the tool out of the list. */
  readonly inspectViews?: readonly InspectViewName[];
  /** The compiler's check for `inspect`'s validate view, loaded on its first call (the runtime never imports the compiler). */
  readonly validator?: LoadValidator;
  /** Where tool-call spans go (default: the global OpenTelemetry API's tracer, a no-op until an SDK is registered). */
  readonly tracer?: Tracer;
  /**
   * Gateway mode: the domain servers' tools, offered beside these and decided on the run (`sop serve --gateway`);
   * with `observe`, every call of a SOP tool and every legal move goes through, and the audit says what enforcement
   * would have decided (`--observe`, to roll the gateway out).
   */
  readonly gateway?: { readonly domain: DomainTools; readonly observe?: boolean };
}

/** A question for the user that a call waits on (gateway mode). */
export interface CallQuestion {
  readonly question: ConfirmationQuestion;
}

/** A call's answer: a tool result, or (gateway mode) a question for the user that the call waits on. */
export type CallAnswer = CallToolResult | CallQuestion;

export function isQuestion(answer: CallAnswer): answer is CallQuestion {
  return typeof (answer as Partial<CallQuestion>).question === 'object' && (answer as Partial<CallQuestion>).question !== null;
}

/** The tool result of a call that cannot ask (no gateway): a question here is a bug, and says so. */
export function resultOf(answer: CallAnswer): CallToolResult {
  if (isQuestion(answer)) throw new Error(`expected a tool result, got a question: ${answer.question.message}`);
  return answer;
}

export type SessionOpening = { readonly ok: true; readonly sessionId: string } | { readonly ok: false; readonly error: string };

export interface SessionService {
  readonly store: RunStore;
  readonly logger: Logger;
  readonly limits: ServiceLimits;
  /** The `tools/list` answer: the toolkit's tools, then (gateway mode) the domain tools. */
  tools(): readonly Tool[];
  /** Called when `tools()` changed (a domain server's list changed); returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Whether domain calls are decided here (gateway mode). */
  readonly gateway: boolean;
  /** The agents new runs start on. */
  catalog(): AgentCatalog;
  /** What the server tells a client at `initialize`. */
  instructions(): string;
  /**
   * Answers one `tools/call`. Throws `ProtocolError` only for an unknown tool name; every other problem is an answer.
   * `request` carries the call's `_meta` (a W3C `traceparent` there parents its span) and JSON-RPC id.
   */
  callTool(name: string, args: unknown, caller: Caller, request?: CallRequest): Promise<CallAnswer>;
  openSession(principal: string): Promise<SessionOpening>;
  /** Whether the session exists and belongs to `principal`. */
  hasSession(sessionId: string, principal: string): Promise<boolean>;
  closeSession(sessionId: string, principal: string): Promise<boolean>;
  /** Deletes expired runs now (a timer does it periodically); returns how many. */
  sweep(): Promise<number>;
  /** Stops the sweep timer and the bundle watcher. The store belongs to whoever opened it. */
  close(): Promise<void>;
}

export function createSessionService(options: SessionServiceOptions): SessionService {
  const { agents, store, projectRoot } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const logger = options.logger ?? stderrLogger();
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const inspect = inspectTool(options.inspectViews ?? DEFAULT_INSPECT_VIEWS);
  const domain = options.gateway?.domain;
  // In gateway mode goto_node also enforces evidence: the same tool, with the gateway's rules around the move.
  const observe = options.gateway?.observe === true;
  const gatewayMove = observe ? observedGotoNode : gatewayGotoNode;
  const baseTools =
    domain === undefined ? RUN_TOOLS : RUN_TOOLS.map((tool) => (tool.name === GOTO_NODE ? { ...tool, run: gatewayMove } : tool));
  const allRunTools = inspect === undefined ? baseTools : [...baseTools, inspect];
  const runTools = new Map(allRunTools.map((tool) => [tool.name, tool]));
  const ownNames = [LOAD_GRAPH_TOOL.name, ...runTools.keys()];
  const ownTools = [LOAD_GRAPH_TOOL, ...allRunTools].map(listed);
  let tools: readonly Tool[] = domain === undefined ? ownTools : [...ownTools, ...domain.list()];
  const toolListeners = new Set<() => void>();
  const stopWatchingDomain = domain?.onChange(() => {
    tools = [...ownTools, ...domain.list()];
    for (const listener of toolListeners) listener();
  });
  const tracing = createToolTracing(options.tracer);
  const queue = createKeyedQueue();
  const runs = createLruMap<string, StoredRun>(limits.runCacheSize);
  /** Sessions this process opened or served, by last use: the live-session cap counts them. */
  const liveSessions = new Map<string, number>();
  /**
   * Who owns a session, as last read from the store: a 2025-era HTTP request names its session on every call, and
   * the owner never changes, so it is read again only after `SESSION_RECHECK_MS` (a session another instance ended
   * is still served here for at most that long; one ended here is gone at once).
   */
  const sessionOwners = createLruMap<string, { readonly principal: string; readonly readAt: number }>(limits.maxLiveSessions);
  /**
   * The current run of each session held on a long-lived connection (stdio), as `load_graph` set it here: no other
   * process can call in such a session, so a call in it that names no `run_id` is not a read of the store.
   */
  const connectionRuns = createLruMap<string, string>(limits.maxLiveSessions);

  const idleBefore = (): number => clock.now() - limits.runIdleMs;

  const sweep = async (): Promise<number> => {
    const cutoff = idleBefore();
    for (const [sessionId, lastUsed] of liveSessions) if (lastUsed < cutoff) liveSessions.delete(sessionId);
    // An owner read long enough ago is read again anyway: keeping it would only hold memory for idle sessions.
    const stale = clock.now() - SESSION_RECHECK_MS;
    sessionOwners.prune((_, owner) => owner.readAt < stale);
    return store.expire(cutoff);
  };
  const sweepTimer = setInterval(
    () => {
      sweep().then(
        (expired) => expired > 0 && logger.info(`expired ${expired} idle run(s)`),
        (error: unknown) => logger.error('expiring idle runs failed', error),
      );
    },
    Math.min(Math.max(limits.runIdleMs / 4, 1_000), 60_000),
  );
  sweepTimer.unref();

  async function startRun(args: unknown, caller: Caller, started: number, span: ToolCallSpan, implicit = false): Promise<CallToolResult> {
    const parsed = loadGraphInput.safeParse(args ?? {});
    if (!parsed.success) return answerOf(invalidArguments(LOAD_GRAPH_TOOL, parsed.error.issues));
    const selected = await selectAgent(agents.current(), projectRoot, parsed.data);
    if (!selected.ok) return answerOf(fail(EMPTY_RUN_STATE, { error: selected.error }));
    let agent: PreparedAgent;
    try {
      agent = agents.prepare(selected.sop);
    } catch (error) {
      return answerOf(fail(EMPTY_RUN_STATE, { error: `Could not load the compiled agent ${selected.sop.meta.agent}: ${reason(error)}` }));
    }
    const runId = newRunId();
    const outcome = loadGraph(agent, runId);
    try {
      await agents.keep(selected.sop);
      const now = clock.now();
      const run = await store.create(
        {
          runId,
          principal: caller.principal,
          agent: agent.name,
          sourceHash: selected.sop.sourceHash,
          state: outcome.state,
          createdAt: now,
          updatedAt: now,
        },
        {
          tool: LOAD_GRAPH_TOOL.name,
          input: args,
          outcome: 'ok',
          from: null,
          to: null,
          // A gateway's run sees its domain calls: a replay of its audit judges the steps left without one.
          ...(domain === undefined
            ? {}
            : { detail: { kind: 'start' as const, gateway: true as const, ...(implicit ? { implicit: true as const } : {}) } }),
          at: started,
          durationMs: now - started,
        },
      );
      runs.set(runId, run);
      span.committed({ runId, agent: agent.name, step: run.version, from: null, to: null, outcome: 'ok' });
      if (caller.sessionId !== undefined) {
        await store.setSessionRun(caller.sessionId, runId, now);
        if (caller.channel === 'connection') connectionRuns.set(caller.sessionId, runId);
      }
    } catch (error) {
      return storeFailure(LOAD_GRAPH_TOOL.name, error);
    }
    return answerOf(outcome);
  }

  async function callOnRun(
    tool: RunTool<{ run_id?: string | undefined }>,
    args: unknown,
    caller: Caller,
    started: number,
    span: ToolCallSpan,
  ) {
    const parsed = tool.inputSchema.safeParse(args ?? {});
    const runless = parsed.success
      ? tool.runless?.(parsed.data, { catalog: agents.current(), now: () => clock.now(), validator: options.validator })
      : undefined;
    if (runless !== undefined) return answerOf(await runless);
    const named = parsed.success ? parsed.data.run_id : runIdIn(args);
    let runId = named;
    runId ??= await sessionRun(caller);
    if (runId === undefined) {
      if (!parsed.success) return answerOf(invalidArguments(tool, parsed.error.issues));
      return answerOf(
        fail(EMPTY_RUN_STATE, {
          error: `No run: call load_graph first (with agent or sop_file); it starts a run and returns its run_id, which ${tool.name} takes as run_id.`,
        }),
      );
    }
    const id = runId;
    // Within a session the call already holds the session's turn; runs named without one are queued by run.
    return caller.sessionId === undefined
      ? queue.run(id, () => decideAndCommit(tool, parsed, args, id, caller, started, span))
      : decideAndCommit(tool, parsed, args, id, caller, started, span);
  }

  async function decideAndCommit(
    tool: RunTool<{ run_id?: string | undefined }>,
    parsed: ReturnType<RunTool<{ run_id?: string | undefined }>['inputSchema']['safeParse']>,
    args: unknown,
    runId: string,
    caller: Caller,
    started: number,
    span: ToolCallSpan,
  ): Promise<CallToolResult> {
    const committed = await commitOnRun(runId, caller, tool.name, span, (run, pinned, facts) => {
      let outcome: ToolOutcome<object>;
      if (!pinned.ok) outcome = fail(run.state, { error: pinned.error });
      else if (!parsed.success) outcome = invalidArguments(tool, parsed.error.issues, run.state);
      else {
        try {
          outcome = tool.run(pinned.agent, run.state, parsed.data, facts);
        } catch (error) {
          logger.error(`internal error in ${tool.name}`, error);
          outcome = fail(run.state, { error: `Internal error in ${tool.name}: ${reason(error)}. The run is unchanged.` });
        }
      }
      const audit: Omit<AuditEntry, 'seq' | 'durationMs'> = {
        tool: tool.name,
        input: args,
        outcome: outcome.outcome,
        from: run.state.path.at(-1) ?? null,
        to: outcome.state.path.at(-1) ?? null,
        ...(outcome.outcome === 'ok' ? {} : { error: errorOf(outcome.answer) }),
        ...(outcome.rule === undefined ? {} : { detail: { kind: 'move' as const, rule: outcome.rule, sop: pinnedVersion(run) } }),
        ...(outcome.would === undefined
          ? {}
          : { detail: { kind: 'move' as const, would: { decision: 'refuse' as const, ...outcome.would }, sop: pinnedVersion(run) } }),
        at: started,
      };
      return { state: outcome.state, audit, value: outcome };
    });
    return 'error' in committed ? committed.error : answerOf(committed.value);
  }

  /**
   * Reads the run (this process's copy when it has one), decides (`decide`, on its pinned agent) and commits the
   * next state with the call's audit entry if the run is still at the version read: one round trip to the store.
   * A conflict returns the run as committed now, in the same round trip: the call is decided again on it, a few
   * times at most, without reading it again.
   * Returns what `decide` returned with the committed run, or the answer to give instead (unknown run, store down,
   * kept changing).
   */
  async function commitOnRun<T>(
    runId: string,
    caller: Caller,
    toolName: string,
    span: ToolCallSpan,
    decide: (
      run: StoredRun,
      pinned: Awaited<ReturnType<AgentSource['pinned']>>,
      facts: RunFacts,
    ) => { readonly state: StoredRun['state']; readonly audit: Omit<AuditEntry, 'seq' | 'durationMs'>; readonly value: T },
  ): Promise<{ readonly value: T; readonly run: StoredRun } | { readonly error: CallToolResult }> {
    for (let attempt = 0; attempt < limits.commitAttempts; attempt += 1) {
      let run: StoredRun | { readonly error: string };
      try {
        run = await readRun(runId, caller);
      } catch (error) {
        return { error: storeFailure(toolName, error) };
      }
      if ('error' in run) return { error: answerOf(fail(EMPTY_RUN_STATE, { error: run.error })) };
      const pinned = await agents.pinned(run.agent, pinnedVersion(run));
      const decided = decide(run, pinned, { runId, version: run.version });
      const now = clock.now();
      const audit: Omit<AuditEntry, 'seq'> = { ...decided.audit, durationMs: now - decided.audit.at };
      let committed: Awaited<ReturnType<RunStore['commit']>>;
      try {
        committed = await store.commit(runId, run.version, decided.state, audit, now);
      } catch (error) {
        runs.delete(runId);
        return { error: storeFailure(toolName, error) };
      }
      if (committed.ok) {
        runs.set(runId, committed.run);
        span.committed({ runId, agent: run.agent, step: committed.run.version, from: audit.from, to: audit.to, outcome: audit.outcome });
        return { value: decided.value, run: committed.run };
      }
      if (committed.reason === 'missing') {
        runs.delete(runId);
        return { error: answerOf(fail(EMPTY_RUN_STATE, { error: unknownRun(runId) })) };
      }
      runs.set(runId, committed.current);
    }
    return {
      error: answerOf(
        fail(EMPTY_RUN_STATE, {
          error: `Run ${runId} kept changing while this call was decided (${limits.commitAttempts} attempts): another client is using it at the same time. Nothing was applied; call ${toolName} again.`,
        }),
      ),
    };
  }

  const callDomainTool = createDomainCalls({
    observe,
    commitOnRun,
    async peekRun(runId, caller, toolName) {
      let run: StoredRun | { readonly error: string };
      try {
        run = await readRun(runId, caller);
      } catch (error) {
        return { error: storeFailure(toolName, error) };
      }
      if ('error' in run) return { error: answerOf(fail(EMPTY_RUN_STATE, { error: run.error })) };
      return { run, pinned: await agents.pinned(run.agent, pinnedVersion(run)) };
    },
    now: () => clock.now(),
  });

  /** A domain call (gateway mode) on the run it names (`run_id`, which the gateway adds to every domain tool) or the session's. */
  async function callDomainOnRun(
    entry: NonNullable<ReturnType<DomainTools['get']>>,
    args: unknown,
    caller: Caller,
    request: CallRequest,
    span: ToolCallSpan,
  ): Promise<CallAnswer> {
    let runId = runIdIn(args);
    runId ??= await sessionRun(caller);
    if (runId === undefined && observe && caller.sessionId !== undefined) runId = await implicitRun(entry.tool.name, caller, span);
    if (runId === undefined) {
      return {
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              error: `No run is active, so ${entry.tool.name} cannot be allowed: call load_graph first (with agent or sop_file), then move with goto_node to the step that offers it. Without a session, pass the run_id load_graph returned to every tool, domain tools included.`,
              refused_by: 'no-run',
            }),
          },
        ],
        isError: true,
      };
    }
    const id = runId;
    return caller.sessionId === undefined
      ? queue.run(id, () => callDomainTool(entry, args, id, caller, request, span))
      : callDomainTool(entry, args, id, caller, request, span);
  }

  /**
   * Observe mode, a session whose agent never called load_graph (an agent that follows its SOP from its prompt, as
   * most do before the gateway): its first domain call starts a run of the one served agent that names the tool, as
   * a load_graph would, so that what follows is observed. None when no agent, or several, name it.
   */
  async function implicitRun(tool: string, caller: Caller, span: ToolCallSpan): Promise<string | undefined> {
    const naming = agents.current().entries.filter((sop) => sop.tools.includes(tool));
    if (naming.length !== 1) return undefined;
    const started = await startRun({ agent: naming[0]!.meta.agent }, caller, clock.now(), span, true);
    if (started.isError === true) return undefined;
    return sessionRun(caller);
  }

  /** The current run of the caller's session: a connection's as set here, another's from the store (any instance may set it). */
  async function sessionRun(caller: Caller): Promise<string | undefined> {
    if (caller.sessionId === undefined) return undefined;
    const known = caller.channel === 'connection' ? connectionRuns.get(caller.sessionId) : undefined;
    return known ?? (await store.getSession(caller.sessionId))?.runId ?? undefined;
  }

  /** The run, from this process's copy when it has one; any problem as the error message the caller gets. */
  async function readRun(runId: string, caller: Caller): Promise<StoredRun | { readonly error: string }> {
    const cutoff = idleBefore();
    const cached = runs.get(runId);
    let run: StoredRun;
    if (cached !== undefined && cached.updatedAt >= cutoff) run = cached;
    else {
      const read = await store.read(runId, cutoff);
      if (read.status === 'unknown') return { error: unknownRun(runId) };
      if (read.status === 'expired') {
        runs.delete(runId);
        if (read.principal !== caller.principal) return { error: unknownRun(runId) };
        return { error: `Run ${runId} expired: it was idle for more than ${duration(limits.runIdleMs)}. Start a new run with load_graph.` };
      }
      run = read.run;
      runs.set(runId, run);
    }
    if (run.principal !== caller.principal) return { error: unknownRun(runId) };
    return run;
  }

  function storeFailure(tool: string, error: unknown): CallToolResult {
    logger.error(`the run store failed during ${tool}`, error);
    return answerOf(
      fail(EMPTY_RUN_STATE, { error: `The run store is unavailable (${reason(error)}); ${tool} was not applied. Try again.` }),
    );
  }

  return {
    store,
    logger,
    limits,
    tools: () => tools,
    onToolsChanged(listener) {
      toolListeners.add(listener);
      return () => toolListeners.delete(listener);
    },
    gateway: domain !== undefined,
    catalog: () => agents.current(),
    instructions() {
      const names = agents
        .current()
        .entries.map((sop) => sop.meta.agent)
        .join(', ');
      return (
        `Serves compiled SOP agents (${names || 'none: run `npx sop build`'}). Call load_graph once with the agent: it starts a run ` +
        'and returns its run_id. Write the plan with todo, then move through the flowchart with goto_node, starting at the entry ' +
        'node and following the returned edges. Without a session, pass run_id to every call.' +
        (inspect === undefined ? '' : ' inspect shows where the run stands without moving it.')
      );
    },
    async callTool(name, args, caller, request = {}) {
      const span = tracing.start(name, args, caller.sessionId, request);
      const tool = name === LOAD_GRAPH_TOOL.name ? undefined : runTools.get(name);
      const domainTool = tool === undefined && name !== LOAD_GRAPH_TOOL.name ? domain?.get(name) : undefined;
      if (name !== LOAD_GRAPH_TOOL.name && tool === undefined && domainTool === undefined) {
        const available = [...ownNames, ...(domain?.list().map((listed) => listed.name) ?? [])];
        const error = new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. Available tools: ${available.join(', ')}`);
        span.fail(error);
        throw error;
      }
      const call = (): Promise<CallAnswer> => {
        const started = clock.now();
        if (domainTool !== undefined) return callDomainOnRun(domainTool, args, caller, request, span);
        return tool === undefined ? startRun(args, caller, started, span) : callOnRun(tool, args, caller, started, span);
      };
      // A session's calls apply in the order they came (a client may pipeline load_graph and the moves after it).
      if (caller.sessionId !== undefined) liveSessions.set(caller.sessionId, clock.now());
      try {
        const answer = await (caller.sessionId === undefined ? call() : queue.run(caller.sessionId, call));
        span.end(isQuestion(answer) ? { content: [] } : answer);
        return answer;
      } catch (error) {
        span.fail(error);
        throw error;
      }
    },
    async openSession(principal) {
      if (liveSessions.size >= limits.maxLiveSessions) await sweep();
      if (liveSessions.size >= limits.maxLiveSessions) {
        return {
          ok: false,
          error: `This server holds ${limits.maxLiveSessions} live sessions, its limit: end finished sessions (HTTP DELETE) or try again later.`,
        };
      }
      const sessionId = newSessionId();
      const now = clock.now();
      await store.openSession({ sessionId, principal, runId: null, createdAt: now, updatedAt: now });
      liveSessions.set(sessionId, now);
      sessionOwners.set(sessionId, { principal, readAt: now });
      return { ok: true, sessionId };
    },
    async hasSession(sessionId, principal) {
      const now = clock.now();
      const known = sessionOwners.get(sessionId);
      if (known !== undefined && now - known.readAt < SESSION_RECHECK_MS) return known.principal === principal;
      const session = await store.getSession(sessionId);
      if (session === undefined) {
        sessionOwners.delete(sessionId);
        return false;
      }
      sessionOwners.set(sessionId, { principal: session.principal, readAt: now });
      return session.principal === principal;
    },
    async closeSession(sessionId, principal) {
      const session = await store.getSession(sessionId);
      if (session === undefined || session.principal !== principal) return false;
      await store.closeSession(sessionId);
      liveSessions.delete(sessionId);
      sessionOwners.delete(sessionId);
      connectionRuns.delete(sessionId);
      return true;
    },
    sweep,
    async close() {
      clearInterval(sweepTimer);
      stopWatchingDomain?.();
      toolListeners.clear();
      agents.close();
    },
  };
}

function listed(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.inputSchema, 'input'),
    outputSchema: toolJsonSchema(tool.outputSchema, 'output'),
  };
}

function answerOf(outcome: ToolOutcome<object>): CallToolResult {
  const structuredContent = outcome.answer as Record<string, unknown>;
  const text = outcome.text ?? JSON.stringify(structuredContent);
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent };
  if (outcome.isError) result.isError = true;
  return result;
}

function invalidArguments(
  tool: ToolDefinition,
  issues: Parameters<typeof describeIssues>[0],
  state = EMPTY_RUN_STATE,
): ToolOutcome<object> {
  return fail(state, { error: `Invalid arguments for ${tool.name}: ${describeIssues(issues)}` });
}

function unknownRun(runId: string): string {
  return `Unknown run: ${runId}. Start one with load_graph; it returns the run_id to pass.`;
}

/** `run_id` of arguments that failed validation for another reason, so the call still lands in the run's audit. */
function runIdIn(args: unknown): string | undefined {
  const value = typeof args === 'object' && args !== null ? (args as { run_id?: unknown }).run_id : undefined;
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : undefined;
}

function errorOf(answer: object): string {
  const error = (answer as { error?: unknown }).error;
  return typeof error === 'string' ? error : 'refused';
}

/** An error's message on one line, for answers: details go to the log. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]?.slice(0, 300) ?? 'unknown error';
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
