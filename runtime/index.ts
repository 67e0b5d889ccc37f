/**
 * The runtime's public API: serve compiled SOP agents over MCP (stdio or Streamable HTTP), or build the MCP
 * server yourself with an injected registry. Explicit, sorted exports: adding one is an API decision.
 */
export type { AgentCatalog } from './agents/agent-catalog.js';
export { createCatalog } from './agents/agent-catalog.js';
export type { EdgeAnswer, NodeAnswer, PreparedAgent, PreparedNode } from './agents/prepared-agent.js';
export { prepareAgent } from './agents/prepared-agent.js';
export type { BundleRead } from './agents/read-bundle.js';
export { parseBundle, readBundle } from './agents/read-bundle.js';
export type { HttpServeOptions, SopHttpServer } from './http/serve-http.js';
export { MCP_PATH, serveHttp } from './http/serve-http.js';
export { FLOWCHART_MIME_TYPE, flowchartUri } from './mcp/agent-content.js';
export type { SopServerOptions } from './mcp/create-sop-server.js';
export { createSopServer } from './mcp/create-sop-server.js';
export type { MemorySessionStore } from './session/memory-session-store.js';
export { createMemorySessionStore } from './session/memory-session-store.js';
export type { SessionState, TodoItem, TodoStatus } from './session/session-state.js';
export { EMPTY_SESSION, TODO_STATUSES } from './session/session-state.js';
export type { SessionStore } from './session/session-store.js';
export type { SopStdioServer, StdioServeOptions } from './stdio/serve-stdio.js';
export { serveStdio } from './stdio/serve-stdio.js';
export type { GotoNodeAnswer, MoveAnswer, RefusalAnswer } from './tools/goto-node.js';
export { gotoNode, validNext } from './tools/goto-node.js';
export type { LoadGraphAnswer } from './tools/load-graph.js';
export { loadGraph } from './tools/load-graph.js';
export type { TodoAnswer } from './tools/todo.js';
export { MAX_CONTENT, MAX_NOTE, MAX_TODOS, writeTodos } from './tools/todo.js';
export type { ErrorAnswer, ToolOutcome } from './tools/tool-outcome.js';
