/** `sop build --report` as text: per agent, the system prompt's tokens, then a table of every node's prompt and answer. */
import type { AgentTokenReport } from './token-report.js';

export function renderTokenReport(reports: readonly AgentTokenReport[]): string {
  const number = (n: number | null) => (n === null ? '-' : n.toLocaleString('en'));
  return reports
    .map((report) => {
      const width = Math.max(4, ...report.nodes.map((n) => n.node.length));
      const rows = report.nodes.map(
        (n) => `  ${n.node.padEnd(width)}  ${number(n.prompt).padStart(6)}  ${number(n.goto_answer).padStart(16)}`,
      );
      const largest = report.largest_goto_answer;
      return [
        `tokens (${report.encoding}) of ${report.agent}: system prompt ${number(report.system_prompt)}`,
        `  ${'node'.padEnd(width)}  ${'prompt'.padStart(6)}  ${'goto_node answer'.padStart(16)}`,
        ...rows,
        largest === null ? '' : `  largest goto_node answer: ${largest.node} (${number(largest.tokens)})`,
      ]
        .filter((line) => line !== '')
        .join('\n');
    })
    .join('\n\n')
    .concat('\n');
}
