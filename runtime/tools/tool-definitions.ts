/**
 * The tools as MCP lists them: name, title, description and schemas, and for the tools that act on a run the
 * pure function that answers them. `load_graph` starts runs, so the session service handles it itself (it needs
 * the catalog and the store); every other tool is `(agent, state, input) → outcome` on the run the call names.
 * A tool may also answer some calls without a run (`inspect`'s agent list and SOP validation): those need no
 * `load_graph` first and leave no audit entry, since there is no run to log them in.
 * Immutable definitions: the service renders the `tools/list` answer from them once.
 */
import type { z } from 'zod';
import type { ValidationResult } from '../../contract/diagnostic.js';
import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { RunState } from '../store/run-store.js';
import { GOTO_NODE, gotoNode, gotoNodeDescription, gotoNodeInput, gotoNodeOutput } from './goto-node.js';
import { LOAD_GRAPH, loadGraphDescription, loadGraphInput, loadGraphOutput } from './load-graph.js';
import { TODO, todoDescription, todoInput, todoOutput, writeTodos } from './todo.js';
import type { ToolOutcome } from './tool-outcome.js';

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodType;
  readonly outputSchema: z.ZodType;
}

/** Which run a call acts on and how far it is: for answers that report it (`inspect`'s where). */
export interface RunFacts {
  readonly runId: string;
  /** Calls committed on the run before this one. */
  readonly version: number;
}

/** What a call answered without a run may read. */
export interface RunlessContext {
  /** The agents new runs start on. */
  readonly catalog: AgentCatalog;
  /** The service's clock (ms since the epoch). */
  now(): number;
  /** The compiler's check of SOP markdown, when the server was given it (`inspect`'s validate view). */
  readonly validator?: LoadValidator | undefined;
}

/** Checks SOP markdown as the build checks the file `file`: seed 003's validation result, dated `now`. */
export type ValidateSop = (file: string, markdown: string, now: Date) => ValidationResult;

/** Loads the compiler's check on first use: the runtime never imports the compiler, its assembler hands this over. */
export type LoadValidator = () => Promise<ValidateSop>;

/** A tool that acts on one run: pure, given the run's agent (its pinned version) and state. */
export interface RunTool<Input extends { readonly run_id?: string | undefined }> extends ToolDefinition {
  readonly inputSchema: z.ZodType<Input>;
  run(agent: PreparedAgent, state: RunState, input: Input, run: RunFacts): ToolOutcome<object>;
  /** Answers a call that needs no run, or returns undefined when this call acts on one. */
  runless?(input: Input, context: RunlessContext): Promise<ToolOutcome<object>> | undefined;
}

export const LOAD_GRAPH_TOOL: ToolDefinition = {
  name: LOAD_GRAPH,
  title: 'Load an SOP agent',
  description: loadGraphDescription,
  inputSchema: loadGraphInput,
  outputSchema: loadGraphOutput,
};

const gotoNodeTool: RunTool<z.output<typeof gotoNodeInput>> = {
  name: GOTO_NODE,
  title: 'Go to an SOP node',
  description: gotoNodeDescription,
  inputSchema: gotoNodeInput,
  outputSchema: gotoNodeOutput,
  run: gotoNode,
};

const todoTool: RunTool<z.output<typeof todoInput>> = {
  name: TODO,
  title: 'Write the todo list',
  description: todoDescription,
  inputSchema: todoInput,
  outputSchema: todoOutput,
  run: writeTodos,
};

/** Each tool's own input type is checked where it is defined above; the list holds them loosely. */
export const RUN_TOOLS: readonly RunTool<any>[] = [gotoNodeTool, todoTool];
