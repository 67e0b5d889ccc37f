/**
 * A small, valid SOP to mutate in tests. Line numbers are fixed (see the comment beside each line), so a
 * test that replaces one line knows where its diagnostic must point.
 */
export const BASE_SOP = [
  '---', // 1
  'agent: demo', // 2
  'version: "1.0"', // 3
  'tools: [lookup]', // 4
  '---', // 5
  '', // 6
  '## Role', // 7
  'Helps.', // 8
  '', // 9
  '## SOP Flowchart', // 10
  '```mermaid', // 11
  'flowchart TD', // 12
  '    START([Start]) --> ASK["Ask"]', // 13
  '    ASK --> DONE([Done])', // 14
  '```', // 15
  '', // 16
  '## Node Prompts', // 17
  '', // 18
  '### ASK', // 19
  '```yaml', // 20
  'tools: [lookup]', // 21
  '```', // 22
  'Ask the question.', // 23
  '',
].join('\n');

/** Replaces 1-based line `line` of the base SOP with `text` (which may hold several lines). */
export function withLine(line: number, text: string, base = BASE_SOP): string {
  const lines = base.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

/** Inserts `text` before 1-based line `line`. */
export function insertBefore(line: number, text: string, base = BASE_SOP): string {
  const lines = base.split('\n');
  lines.splice(line - 1, 0, text);
  return lines.join('\n');
}
