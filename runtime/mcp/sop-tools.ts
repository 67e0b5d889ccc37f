/**
 * The three tools as MCP sees them: name, description, schemas, and a thin handler each. A handler validates
 * its arguments with zod, finds the session's agent, calls the pure tool function and returns its outcome;
 * storing and rendering are the server's job (`create-sop-server.ts`). Invalid arguments are an `isError`
 * answer naming each offending field, and leave the session unchanged.
 *
 * `goto_node` and `todo` run on every turn of a conversation, so their handlers stay synchronous once the
 * session's agent is loaded (it is, after `load_graph`): no promise per call, only I/O is awaited.
 */
import type { z } from 'zod';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import { selectAgent } from '../agents/select-agent.js';
import type { SessionState } from '../session/session-state.js';
import { GOTO_NODE, gotoNode, gotoNodeDescription, gotoNodeInput, gotoNodeOutput } from '../tools/goto-node.js';
import { LOAD_GRAPH, loadGraph, loadGraphDescription, loadGraphInput, loadGraphOutput } from '../tools/load-graph.js';
import { TODO, todoDescription, todoInput, todoOutput, writeTodos } from '../tools/todo.js';
import { fail, type ToolOutcome } from '../tools/tool-outcome.js';
import { describeIssues } from './json-schema.js';

export interface ToolContext {
  readonly catalog: AgentCatalog;
  readonly projectRoot: string;
}

export interface SopTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodType;
  readonly outputSchema: z.ZodType;
  /** A promise only when the call has I/O to wait for. */
  call(context: ToolContext, session: SessionState, args: unknown): ToolOutcome<object> | Promise<ToolOutcome<object>>;
}

interface ToolDefinition<Input> extends Omit<SopTool, 'call'> {
  readonly inputSchema: z.ZodType<Input>;
  run(context: ToolContext, session: SessionState, input: Input): Promise<ToolOutcome<object>> | ToolOutcome<object>;
}

function defineTool<Input>(definition: ToolDefinition<Input>): SopTool {
  const { run, ...meta } = definition;
  return {
    ...meta,
    call(context, session, args) {
      const parsed = definition.inputSchema.safeParse(args ?? {});
      if (!parsed.success) {
        return fail(session, { error: `Invalid arguments for ${definition.name}: ${describeIssues(parsed.error.issues)}` });
      }
      return run(context, session, parsed.data);
    },
  };
}

/** Runs `use` with the agent the session loaded (prepared on first use in this process). */
function withSessionAgent<T>(context: ToolContext, session: SessionState, use: (agent: PreparedAgent | undefined) => T): T {
  const entry = session.agent === null ? undefined : context.catalog.byName(session.agent);
  return use(entry === undefined ? undefined : context.catalog.prepared(entry));
}

export const SOP_TOOLS: readonly SopTool[] = [
  defineTool({
    name: LOAD_GRAPH,
    title: 'Load an SOP agent',
    description: loadGraphDescription,
    inputSchema: loadGraphInput,
    outputSchema: loadGraphOutput,
    async run(context, session, input) {
      const selected = await selectAgent(context.catalog, context.projectRoot, input);
      return selected.ok ? loadGraph(selected.agent, session, input) : fail(session, { error: selected.error });
    },
  }),
  defineTool({
    name: GOTO_NODE,
    title: 'Go to an SOP node',
    description: gotoNodeDescription,
    inputSchema: gotoNodeInput,
    outputSchema: gotoNodeOutput,
    run(context, session, input) {
      return withSessionAgent(context, session, (agent) => gotoNode(agent, session, input));
    },
  }),
  defineTool({
    name: TODO,
    title: 'Write the todo list',
    description: todoDescription,
    inputSchema: todoInput,
    outputSchema: todoOutput,
    run(context, session, input) {
      return withSessionAgent(context, session, (agent) => writeTodos(agent, session, input));
    },
  }),
];
