/**
 * The runtime's public API (`import … from 'sop-toolkit'`): serve compiled SOP agents over MCP from your own
 * process. Build a session service from a bundle and a run store, then put transports over it:
 *
 *   const store = createMemoryRunStore();
 *   const agents = createAgentSource({ origin: { bundle }, store, logger: stderrLogger() });
 *   const service = createSessionService({ agents, store, projectRoot });
 *   const page = planRunsPage({ service });          // the live page at /runs (loopback, no authentication)
 *   await serveHttp({ service, port: 3000, ...(page.on ? { routes: page.routes } : {}) });
 *
 * Explicit, sorted exports: adding one is an API decision.
 */
export type { AgentCatalog } from './agents/agent-catalog.js';
export { createCatalog } from './agents/agent-catalog.js';
export type { AgentSource, AgentSourceOptions, BundleOrigin, PinnedAgent } from './agents/agent-source.js';
export { createAgentSource } from './agents/agent-source.js';
export type { MoveAnswer, RefusalAnswer } from '../contract/answers/goto-answer.js';
export { validNext } from '../contract/answers/goto-answer.js';
export type { LoadGraphAnswer } from '../contract/answers/load-graph-answer.js';
export type { EdgeAnswer, NodeAnswer, PreparedAgent, PreparedNode } from '../contract/answers/prepared-agent.js';
export { prepareAgent } from '../contract/answers/prepared-agent.js';
export type { BundleRead } from '../contract/read-bundle.js';
export { parseBundle, readBundle } from '../contract/read-bundle.js';
export type { FlowchartMarks } from './diagram/annotate-flowchart.js';
export { annotateFlowchart } from './diagram/annotate-flowchart.js';
export type { HttpAuth, IntrospectionOptions } from './http/auth.js';
export { introspectionAuth, LOCAL_PRINCIPAL, readTokenFile, staticTokenAuth } from './http/auth.js';
export type { HttpServeOptions, SopHttpServer } from './http/serve-http.js';
export { MCP_PATH, serveHttp } from './http/serve-http.js';
export { FLOWCHART_MIME_TYPE, flowchartUri } from './mcp/agent-content.js';
export type { ServerFactory, ServerInfo } from './mcp/server-factory.js';
export { createServerFactory } from './mcp/server-factory.js';
export { PAGE_PATH } from './page/page-paths.js';
export type { RunsPageOptions } from './page/page-routes.js';
export type { RunsPagePlan, RunsPagePlanOptions } from './page/runs-page.js';
export { planRunsPage } from './page/runs-page.js';
export type { Logger } from './support/logger.js';
export { silentLogger, stderrLogger } from './support/logger.js';
export type { Caller, Clock, ServiceLimits, SessionOpening, SessionService, SessionServiceOptions } from './service/session-service.js';
export { createSessionService, DEFAULT_LIMITS } from './service/session-service.js';
export type { CallRequest } from './service/tracing.js';
export type { SopStdioServer, StdioServeOptions } from './stdio/serve-stdio.js';
export { serveStdio } from './stdio/serve-stdio.js';
export { createMemoryRunStore } from './store/memory-run-store.js';
export type {
  AuditEntry,
  AuditOutcome,
  CommitResult,
  RunChange,
  RunListQuery,
  RunRead,
  RunState,
  RunStore,
  RunSummary,
  SessionRecord,
  StoredRun,
  TodoItem,
} from './store/run-store.js';
export { EMPTY_RUN_STATE } from './store/run-store.js';
export type { GotoNodeAnswer } from './tools/goto-node.js';
export { gotoNode } from './tools/goto-node.js';
export { DEFAULT_INSPECT_VIEWS } from './tools/inspect/inspect-tool.js';
export type { InspectViewName } from './tools/inspect/inspect-view.js';
export { INSPECT_VIEWS } from './tools/inspect/inspect-view.js';
export type { TodoAnswer } from './tools/todo.js';
export { MAX_CONTENT, MAX_NOTE, MAX_TODOS, TODO_STATUSES, writeTodos } from './tools/todo.js';
export type { ErrorAnswer, ToolOutcome } from './tools/tool-outcome.js';
