/**
 * `inspect`: the navigator, one read-only tool beside `load_graph`, `goto_node` and `todo`, whose `view` argument
 * chooses what it shows (seeds 001, 003 and 004: where am I, the agents, node details, node search, the run's
 * diagram, validation of SOP markdown). One tool rather than six keeps the tool list fixed and short: a server
 * enables the views it wants, and the tool's description and schema hold only those, so a view left out costs
 * nothing in `tools/list`. The default is `where` alone (the measurements are in the README).
 *
 * Views on a run (where, nodes, search, diagram) act on the run named by `run_id` or implied by the session,
 * through the same commit and audit entry as any call on a run, with the state unchanged. Views without a run
 * (agents, validate) are answered at once and logged nowhere: there is no run to log them in.
 */
import { z } from 'zod';
import { RUN_ID_FIELD } from '../run-id-field.js';
import type { RunTool } from '../tool-definitions.js';
import { errorAnswerSchema, fail } from '../tool-outcome.js';
import { agentsView } from './agents-view.js';
import { diagramView } from './diagram-view.js';
import { type InspectField, type InspectInput, type InspectView, type InspectViewName, INSPECT_VIEWS } from './inspect-view.js';
import { nodesView } from './nodes-view.js';
import { searchView } from './search-view.js';
import { validateView } from './validate-view.js';
import { whereView } from './where-view.js';

export const INSPECT = 'inspect';

/** What a server lists when it is not told otherwise: `where` costs little and nothing else can answer it. */
export const DEFAULT_INSPECT_VIEWS: readonly InspectViewName[] = ['where'];

const VIEWS: { readonly [V in InspectViewName]: InspectView } = {
  where: whereView,
  agents: agentsView,
  nodes: nodesView,
  search: searchView,
  diagram: diagramView,
  validate: validateView,
};

/** The tool with `names` enabled (in the canonical order), or none when `names` is empty. */
export function inspectTool(names: readonly InspectViewName[]): RunTool<InspectInput> | undefined {
  const views = INSPECT_VIEWS.filter((name) => names.includes(name)).map((name) => VIEWS[name]);
  const [first] = views;
  if (first === undefined) return undefined;
  const byName = new Map(views.map((view) => [view.name, view]));
  const enabled = views.map((view) => view.name) as [InspectViewName, ...InspectViewName[]];

  const fields: { [F in InspectField]?: z.ZodType } = {};
  // Optional in the schema: which of them a call needs depends on its view, checked below.
  for (const view of views) for (const [name, schema] of Object.entries(view.fields)) fields[name as InspectField] = schema.optional();
  const inputSchema = z
    .strictObject({
      view: z
        .enum(enabled, { error: `view must be one of ${enabled.join(', ')} (the views this server enables)` })
        .default(first.name)
        .describe('What to show'),
      run_id: RUN_ID_FIELD,
      ...fields,
    })
    .superRefine((input, context) => {
      const view = byName.get(input.view);
      if (view === undefined) return;
      for (const field of view.required) {
        if ((input as Record<string, unknown>)[field] === undefined) {
          context.addIssue({ code: 'custom', path: [field], message: `view ${view.name} needs ${field}` });
        }
      }
      for (const field of Object.keys(fields)) {
        if ((input as Record<string, unknown>)[field] !== undefined && !(field in view.fields)) {
          const owners = views.filter((other) => field in other.fields).map((other) => other.name);
          context.addIssue({ code: 'custom', path: [field], message: `${field} belongs to view ${owners.join(', ')}, not ${view.name}` });
        }
      }
    }) as unknown as z.ZodType<InspectInput>;

  const moreAnswers = views.slice(1).map((view) => view.answer);
  return {
    name: INSPECT,
    title: 'Inspect the run and its SOP',
    description: `Read-only: changes nothing (calls on a run are logged like any other). \`view\`: ${views.map((view) => view.summary).join('; ')}.`,
    inputSchema,
    outputSchema: z.union([first.answer, ...moreAnswers, errorAnswerSchema]),
    run(agent, state, input, run) {
      const view = byName.get(input.view);
      if (view === undefined || !('onRun' in view)) return fail(state, { error: `view ${input.view} does not act on a run` });
      return view.onRun(agent, state, input, run);
    },
    runless(input, context) {
      const view = byName.get(input.view);
      return view !== undefined && 'runless' in view ? view.runless(input, context) : undefined;
    },
  };
}

/** Parses `where,nodes,search` (or `all`, or `none`) into view names, or says what is wrong. */
export function parseInspectViews(text: string): readonly InspectViewName[] | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === 'all') return INSPECT_VIEWS;
  if (trimmed === 'none') return [];
  const names = trimmed.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(INSPECT_VIEWS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    return { error: `unknown view ${unknown.join(', ') || '(empty)'}; views: ${INSPECT_VIEWS.join(', ')}, or all, or none` };
  }
  return names as InspectViewName[];
}
