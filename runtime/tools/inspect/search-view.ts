/**
 * `inspect` view `search`: the nodes of the run's agent that match a query, best first, scored as seed 001's
 * `search_nodes` scores (a weight per field a query word is found in, summed), over what an agent knows a node
 * by: its label, its id, its tools, its prompt and its examples. Per query word (lower-cased, split on anything
 * that is not a letter or digit):
 *
 *   label contains it 10 · an id word equals it 8, else the id contains it 5 · a tool name contains it 4 ·
 *   the prompt contains it 3 · an example contains it 1
 *
 * plus 10 when the whole query (two words or more) appears in the label and 30 when it is the node's id.
 * Ties keep flowchart order. Nodes scoring 0 are left out.
 */
import { z } from 'zod';
import type { PreparedAgent, PreparedNode } from '../../../contract/answers/prepared-agent.js';
import { succeed } from '../tool-outcome.js';
import type { RunView } from './inspect-view.js';

export const DEFAULT_MAX_RESULTS = 10;
export const MAX_RESULTS = 50;
const MAX_QUERY_WORDS = 20;

const WEIGHTS = { label: 10, idWord: 8, id: 5, tools: 4, prompt: 3, examples: 1, phraseInLabel: 10, exactId: 30 } as const;
const FIELDS = ['label', 'id', 'tools', 'prompt', 'examples'] as const;
type Field = (typeof FIELDS)[number];

const searchAnswer = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      description: z.string(),
      score: z.number(),
      matched: z.array(z.enum(FIELDS)),
    }),
  ),
});

export const searchView: RunView = {
  name: 'search',
  summary: `search: nodes matching \`query\` in ids, labels, tools and prompts, scored, best first (\`max_results\`, default ${DEFAULT_MAX_RESULTS})`,
  fields: {
    query: z.string().trim().min(1).max(200).describe('search: words to look for'),
    max_results: z.number().int().min(1).max(MAX_RESULTS).optional().describe('search: at most this many results'),
  },
  required: ['query'],
  answer: searchAnswer,
  onRun(agent, state, input) {
    const query = input.query ?? '';
    return succeed({ query, results: searchNodes(agent, query, input.max_results ?? DEFAULT_MAX_RESULTS) }, state);
  },
};

export interface SearchResult {
  readonly id: string;
  readonly type: string;
  readonly description: string;
  readonly score: number;
  readonly matched: readonly Field[];
}

export function searchNodes(agent: PreparedAgent, query: string, maxResults: number): SearchResult[] {
  const words = [...new Set(wordsOf(query))].slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) return [];
  const phrase = words.join(' ');
  const scored: SearchResult[] = [];
  for (const id of agent.nodeIds) {
    const node = agent.nodes.get(id);
    if (node === undefined) continue;
    const text = searchableText(node);
    const matched = new Set<Field>();
    let score = 0;
    const add = (field: Field, weight: number): void => {
      score += weight;
      matched.add(field);
    };
    for (const word of words) {
      if (text.label.includes(word)) add('label', WEIGHTS.label);
      if (text.idWords.includes(word)) add('id', WEIGHTS.idWord);
      else if (text.id.includes(word)) add('id', WEIGHTS.id);
      if (text.tools.includes(word)) add('tools', WEIGHTS.tools);
      if (text.prompt.includes(word)) add('prompt', WEIGHTS.prompt);
      if (text.examples.includes(word)) add('examples', WEIGHTS.examples);
    }
    if (words.length > 1 && wordsOf(text.label).join(' ').includes(phrase)) add('label', WEIGHTS.phraseInLabel);
    if (text.id === query.trim().toLowerCase()) add('id', WEIGHTS.exactId);
    if (score === 0) continue;
    const { type, description } = node.node;
    scored.push({ id, type, description, score, matched: FIELDS.filter((field) => matched.has(field)) });
  }
  // Array.prototype.sort is stable: equal scores keep flowchart order.
  return scored.sort((a, b) => b.score - a.score).slice(0, maxResults);
}

function searchableText(prepared: PreparedNode) {
  const { node } = prepared;
  return {
    label: node.description.toLowerCase(),
    id: node.id.toLowerCase(),
    idWords: wordsOf(node.id.replace(/([a-z])([A-Z])/g, '$1 $2')),
    tools: (node.tools ?? []).join(' ').toLowerCase(),
    prompt: (node.prompt ?? '').toLowerCase(),
    examples: (node.examples ?? [])
      .map((example) => `${example.user}\n${example.agent}`)
      .join('\n')
      .toLowerCase(),
  };
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}
