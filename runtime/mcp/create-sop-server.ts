/**
 * The MCP server of one conversation transport: the three SOP tools, plus each agent's system prompt and
 * flowchart. Built on the SDK's low-level `Server`, not `McpServer`, for one reason: McpServer turns an
 * unknown tool name into an `isError` result with no hook to change it, and the MCP spec calls that a
 * protocol error. Here an unknown tool is JSON-RPC -32602 ("Unknown tool: x. Available tools: …"), while
 * everything that is the caller's fault inside a known tool is an `isError` result (see each tool's module).
 *
 * Per call: find the tool, then, one call at a time per conversation, read the state from the store, run the
 * tool, store the new state if it changed, and answer with `structuredContent` plus the same JSON compact as
 * text. A bug in a tool is logged to stderr and answered as `isError`; state is stored only after success.
 *
 * Conversation key: the transport's session id (`Mcp-Session-Id` on HTTP); without one (stdio, in-memory),
 * an id of this server instance, forgotten when the server closes.
 *
 * Over HTTP there is one server per session, so what a server holds is paid per idle session. Everything that
 * does not depend on the server is made once and shared: the tool list, the prompt and resource handlers and
 * the instructions (per catalog), the call queue (per store), and the JSON Schema validator the SDK would
 * otherwise create per server (an Ajv instance, about 19 KiB, used only to check elicitation answers, which
 * these tools never request).
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import { logError } from '../log.js';
import { createKeyedQueue, type KeyedQueue } from '../session/keyed-queue.js';
import { createMemorySessionStore } from '../session/memory-session-store.js';
import { EMPTY_SESSION } from '../session/session-state.js';
import type { SessionStore } from '../session/session-store.js';
import type { ToolOutcome } from '../tools/tool-outcome.js';
import { registerAgentContent } from './agent-content.js';
import { toolJsonSchema } from './json-schema.js';
import { SOP_TOOLS, type SopTool } from './sop-tools.js';

export interface SopServerOptions {
  /** The compiled agents to serve (`createCatalog` of `generated/sop-bundle.json`, or of test fixtures). */
  readonly catalog: AgentCatalog;
  /** Absolute path of the project; `load_graph`'s `sop_file` is resolved against it. */
  readonly projectRoot: string;
  /** Conversation state; a private in-memory store when absent. */
  readonly store?: SessionStore;
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

const TOOLS_BY_NAME = new Map(SOP_TOOLS.map((tool) => [tool.name, tool]));
let toolList: Tool[] | undefined;

/** The `tools/list` answer, rendered once per process. */
function listTools(): Tool[] {
  toolList ??= SOP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.inputSchema, 'input'),
    outputSchema: toolJsonSchema(tool.outputSchema, 'output'),
  }));
  return toolList;
}

const listToolsHandler = () => ({ tools: listTools() });

const CAPABILITIES = Object.freeze({ tools: Object.freeze({}), prompts: Object.freeze({}), resources: Object.freeze({}) });

let ajv: AjvJsonSchemaValidator | undefined;
/** The process's one validator, made on first use; the SDK only calls it to check an elicitation answer. */
const sharedValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    ajv ??= new AjvJsonSchemaValidator();
    return ajv.getValidator<T>(schema);
  },
};

const instructionsByCatalog = new WeakMap<AgentCatalog, string>();
function instructionsFor(catalog: AgentCatalog): string {
  let instructions = instructionsByCatalog.get(catalog);
  if (instructions === undefined) {
    const agentNames = catalog.entries.map((entry) => entry.meta.agent).join(', ') || 'none: run `npm run build:sops`';
    instructions =
      `Serves compiled SOP agents (${agentNames}). Call load_graph once with the agent, write the plan with todo, ` +
      'then move through the flowchart with goto_node, starting at the entry node and following the returned edges.';
    instructionsByCatalog.set(catalog, instructions);
  }
  return instructions;
}

/** One queue per store: conversation keys are unique across the servers sharing a store. */
const queues = new WeakMap<SessionStore, KeyedQueue>();
function queueFor(store: SessionStore): KeyedQueue {
  let queue = queues.get(store);
  if (queue === undefined) {
    queue = createKeyedQueue();
    queues.set(store, queue);
  }
  return queue;
}

export function createSopServer(options: SopServerOptions): Server {
  const catalog = options.catalog;
  const context = { catalog, projectRoot: options.projectRoot };
  const store = options.store ?? createMemorySessionStore();
  const queue = queueFor(store);
  let ownKey: string | undefined;

  const server = new Server(options.serverInfo ?? { name: 'sop-toolkit', version: '0.1.0' }, {
    capabilities: CAPABILITIES,
    instructions: instructionsFor(catalog),
    jsonSchemaValidator: sharedValidator,
  });

  server.setRequestHandler(ListToolsRequestSchema, listToolsHandler);

  /** One call, in its conversation's turn: read the state, run the tool, store the state if it changed. */
  const callTool = async (tool: SopTool, args: unknown, key: string): Promise<CallToolResult> => {
    const session = (await store.get(key)) ?? EMPTY_SESSION;
    let outcome: ToolOutcome<object>;
    try {
      const called = tool.call(context, session, args);
      outcome = called instanceof Promise ? await called : called;
    } catch (error) {
      logError(`internal error in ${tool.name}`, error);
      const reason = error instanceof Error ? error.message : String(error);
      return render({ answer: { error: `Internal error in ${tool.name}: ${reason}. The session is unchanged.` }, session, isError: true });
    }
    if (outcome.session !== session) await store.set(key, outcome.session);
    return render(outcome);
  };

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = TOOLS_BY_NAME.get(name);
    if (tool === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${name}. Available tools: ${SOP_TOOLS.map((known) => known.name).join(', ')}`,
      );
    }
    const key = extra.sessionId ?? (ownKey ??= `server-${randomUUID()}`);
    return queue.run(key, () => callTool(tool, args, key));
  });

  registerAgentContent(server, catalog);

  server.onclose = () => {
    if (ownKey !== undefined) void store.delete(ownKey);
  };
  return server;
}

function render(outcome: ToolOutcome<object>): CallToolResult {
  const structuredContent = outcome.answer as Record<string, unknown>;
  const text = outcome.text ?? JSON.stringify(structuredContent);
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent };
  if (outcome.isError) result.isError = true;
  return result;
}
