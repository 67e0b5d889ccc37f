/**
 * The session service: one per process, created once, shared by every transport (stdio and HTTP are thin
 * adapters over it). It owns the agents, the run store, the clock, the logger and the limits; nothing about a
 * conversation lives in a transport or in module state. It is made of named parts, each with its own interface:
 *   - the tool list (`tool-list.ts`): what `tools/list` answers, and which tool a call names;
 *   - the sessions (`sessions.ts`): opened, checked, closed, and the run each one is on;
 *   - the run commits (`run-commits.ts`): read a run, decide on it, commit the next state with the call's audit entry
 *     if the run is still at the version read (compare-and-set), again on a conflict, a few times at most;
 *   - the gateway's domain calls (`gateway-calls.ts`): decided on the run and committed before they are sent, their
 *     outcome committed after.
 * This module composes them and answers a tool call, in order:
 *   1. find the tool (an unknown name is a JSON-RPC error, -32602), validate the arguments;
 *   2. `load_graph` starts a run: pick the agent, keep its version in the store, create the run with its first
 *      audit entry, make it the session's current run, answer with its `run_id`;
 *   3. any other tool acts on a run: the `run_id` it names, else the session's current run. One call at a time
 *      per run in this process (`support/keyed-queue.ts`); the pure tool function decides on the run's pinned agent,
 *      through the run commits. The answer is returned only after the commit succeeded, so a crash never loses a
 *      call that was answered. A call that needs no run (`inspect`'s agents and validate views) is answered at once,
 *      logged nowhere.
 * Each call is one OpenTelemetry span (`tracing.ts`), told what the call did to its run once it is committed.
 * A decision that needs the user's yes (gateway mode) is answered with a question instead of a result
 * (`CallAnswer`): the MCP layer turns it into an elicitation.
 *
 * Runs idle longer than `runIdleMs` expire (a sweep deletes them); a process keeps at most `runCacheSize` runs in
 * memory, so idle runs live in the store.
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import type { Tracer } from '@opentelemetry/api';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { AgentSource } from '../agents/agent-source.js';
import { selectAgent } from '../agents/select-agent.js';
import { describeIssues } from '../tools/tool-schemas.js';
import { type AuditEntry, EMPTY_RUN_STATE, pinnedVersion, type RunStore } from '../store/run-store.js';
import { newRunId } from '../support/ids.js';
import { createKeyedQueue } from '../support/keyed-queue.js';
import type { InspectViewName } from '../tools/inspect/inspect-view.js';
import { loadGraph, loadGraphInput } from '../tools/load-graph.js';
import { type LoadValidator, LOAD_GRAPH_TOOL, type RunTool, type ToolDefinition } from '../tools/tool-definitions.js';
import { fail, type ToolOutcome } from '../tools/tool-outcome.js';
import type { DomainTool, DomainTools } from '../upstream/domain-tools.js';
import { answerOf, type CallAnswer, type Caller, errorAnswer, isQuestion, reason, storeFailure } from './calls.js';
import { createGatewayCalls } from './gateway-calls.js';
import { type Clock, DEFAULT_LIMITS, type ServiceLimits } from './limits.js';
import { type Logger, stderrLogger } from '../support/logger.js';
import { createRunCommits } from './run-commits.js';
import { createSessions, type SessionOpening } from './sessions.js';
import { createToolList } from './tool-list.js';
import { type CallRequest, createToolTracing, type ToolCallSpan } from './tracing.js';

// The service's face: what its transports and apps use, wherever in the service it is defined.
export type { CallAnswer, CallQuestion, Caller } from './calls.js';
export { isQuestion, resultOf } from './calls.js';
export type { Clock, ServiceLimits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { SessionOpening } from './sessions.js';

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
  /**
   * Other instances serve the same runs behind a load balancer (HTTP on a shared store): keep this process's copies
   * of runs fresh from the store's changes, which on PostgreSQL makes every instance listen and every commit notify
   * the others. Off by default: over stdio a conversation never leaves its process.
   */
  readonly followOtherInstances?: boolean;
  /** Where tool-call spans go (default: the global OpenTelemetry API's tracer, a no-op until an SDK is registered). */
  readonly tracer?: Tracer;
  /**
   * Gateway mode: the domain servers' tools, offered beside these and decided on the run (`sop serve --gateway`);
   * with `observe`, every call of a SOP tool and every legal move goes through, and the audit says what enforcement
   * would have decided (`--observe`, to roll the gateway out).
   */
  readonly gateway?: { readonly domain: DomainTools; readonly observe?: boolean };
}

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
  const domain = options.gateway?.domain;
  const observe = options.gateway?.observe === true;
  const toolList = createToolList({ inspectViews: options.inspectViews, gateway: options.gateway });
  const sessions = createSessions(store, clock, limits);
  const commits = createRunCommits({ store, agents, clock, limits, logger, follow: options.followOtherInstances === true });
  const gatewayCalls = createGatewayCalls({ commits, clock, observe });
  const tracing = createToolTracing(options.tracer);
  const queue = createKeyedQueue();

  const sweep = async (): Promise<number> => {
    const cutoff = clock.now() - limits.runIdleMs;
    sessions.forgetIdle(cutoff);
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
    if (!selected.ok) return errorAnswer(selected.error);
    let agent: PreparedAgent;
    try {
      agent = agents.prepare(selected.sop);
    } catch (error) {
      return errorAnswer(`Could not load the compiled agent ${selected.sop.meta.agent}: ${reason(error)}`);
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
      commits.keep(run);
      span.committed({ runId, agent: agent.name, step: run.version, from: null, to: null, outcome: 'ok' });
      await sessions.follow(caller, runId, now);
    } catch (error) {
      return storeFailure(logger, LOAD_GRAPH_TOOL.name, error);
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
    const runId = (parsed.success ? parsed.data.run_id : runIdIn(args)) ?? (await sessions.currentRun(caller));
    if (runId === undefined) {
      if (!parsed.success) return answerOf(invalidArguments(tool, parsed.error.issues));
      return errorAnswer(
        `No run: call load_graph first (with agent or sop_file); it starts a run and returns its run_id, which ${tool.name} takes as run_id.`,
      );
    }
    // Within a session the call already holds the session's turn; runs named without one are queued by run.
    return caller.sessionId === undefined
      ? queue.run(runId, () => decideAndCommit(tool, parsed, args, runId, caller, started, span))
      : decideAndCommit(tool, parsed, args, runId, caller, started, span);
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
    const committed = await commits.commit(runId, caller, tool.name, span, (run, pinned, facts) => {
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

  /** A domain call (gateway mode) on the run it names (`run_id`, which the gateway adds to every domain tool) or the session's. */
  async function callDomainOnRun(
    entry: DomainTool,
    args: unknown,
    caller: Caller,
    request: CallRequest,
    span: ToolCallSpan,
  ): Promise<CallAnswer> {
    let runId = runIdIn(args);
    runId ??= await sessions.currentRun(caller);
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
      ? queue.run(id, () => gatewayCalls.call(entry, args, id, caller, request, span))
      : gatewayCalls.call(entry, args, id, caller, request, span);
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
    return sessions.currentRun(caller);
  }

  return {
    store,
    logger,
    limits,
    tools: () => toolList.list(),
    onToolsChanged: (listener) => toolList.onChanged(listener),
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
        (toolList.inspects ? ' inspect shows where the run stands without moving it.' : '')
      );
    },
    async callTool(name, args, caller, request = {}) {
      const span = tracing.start(name, args, caller.sessionId, request);
      const named = toolList.find(name);
      if (named.kind === 'unknown') {
        const error = new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool: ${name}. Available tools: ${named.available.join(', ')}`,
        );
        span.fail(error);
        throw error;
      }
      const call = (): Promise<CallAnswer> => {
        const started = clock.now();
        if (named.kind === 'domain') return callDomainOnRun(named.entry, args, caller, request, span);
        return named.kind === 'load-graph' ? startRun(args, caller, started, span) : callOnRun(named.tool, args, caller, started, span);
      };
      // A session's calls apply in the order they came (a client may pipeline load_graph and the moves after it).
      if (caller.sessionId !== undefined) sessions.touch(caller.sessionId);
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
      if (sessions.full()) await sweep();
      return sessions.open(principal);
    },
    hasSession: (sessionId, principal) => sessions.has(sessionId, principal),
    closeSession: (sessionId, principal) => sessions.close(sessionId, principal),
    sweep,
    async close() {
      clearInterval(sweepTimer);
      commits.close();
      toolList.close();
      agents.close();
    },
  };
}

function invalidArguments(
  tool: ToolDefinition,
  issues: Parameters<typeof describeIssues>[0],
  state = EMPTY_RUN_STATE,
): ToolOutcome<object> {
  return fail(state, { error: `Invalid arguments for ${tool.name}: ${describeIssues(issues)}` });
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
