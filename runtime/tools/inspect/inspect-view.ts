/**
 * One view of the `inspect` tool: what it adds to the tool's description and input schema, the shape of its
 * answer, and the pure function that answers it, either on a run (it then goes through the run's commit and
 * audit like every call on a run, leaving the state as it was) or without one. The tool is assembled from the
 * views a server enables (`inspect-tool.ts`), so a disabled view costs nothing in `tools/list`.
 */
import type { z } from 'zod';
import type { PreparedAgent } from '../../../contract/answers/prepared-agent.js';
import type { RunState } from '../../store/run-store.js';
import type { RunFacts, RunlessContext } from '../tool-definitions.js';
import type { ToolOutcome } from '../tool-outcome.js';

export const INSPECT_VIEWS = ['where', 'agents', 'nodes', 'search', 'diagram', 'validate'] as const;
export type InspectViewName = (typeof INSPECT_VIEWS)[number];

/** Every field any view reads; the schema of a server's tool holds only those of its enabled views. */
export interface InspectInput {
  readonly view: InspectViewName;
  readonly run_id?: string | undefined;
  readonly ids?: readonly string[] | undefined;
  readonly query?: string | undefined;
  readonly max_results?: number | undefined;
  readonly markdown?: string | undefined;
  readonly file?: string | undefined;
}

export type InspectField = Exclude<keyof InspectInput, 'view' | 'run_id'>;

interface ViewBase {
  readonly name: InspectViewName;
  /** Its clause in the tool description: what it answers, and which fields it takes. */
  readonly summary: string;
  /** Input fields only this view reads, all optional in the schema; `required` ones are checked per call. */
  readonly fields: { readonly [F in InspectField]?: z.ZodType };
  readonly required: readonly InspectField[];
  readonly answer: z.ZodType;
}

export interface RunView extends ViewBase {
  onRun(agent: PreparedAgent, state: RunState, input: InspectInput, run: RunFacts): ToolOutcome<object>;
}

export interface RunlessView extends ViewBase {
  runless(input: InspectInput, context: RunlessContext): Promise<ToolOutcome<object>>;
}

export type InspectView = RunView | RunlessView;
