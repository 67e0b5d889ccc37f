/**
 * The frontmatter's `token_budget` against the compiled agent's token counts (`token-report.ts`): every node prompt,
 * the system prompt and every typical `goto_node` answer over its budget is a warning (SOP057). A node's overrun is
 * reported at its prompt heading (or its flowchart declaration when it has no prompt), where the text to shorten is;
 * the system prompt's at the budget itself, since it is made of every section before the node prompts.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { diagnosticAt, type Diagnostic } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { ModelBudget, SopModel } from '../model/sop-model.js';
import type { CountTokens } from './token-counter.js';
import { tokenReport } from './token-report.js';

export function budgetDiagnostics(model: SopModel, sop: CompiledSop, count: CountTokens): Diagnostic[] {
  const budget = model.tokenBudget;
  if (budget === null) return [];
  const report = tokenReport(sop, count);
  const diagnostics: Diagnostic[] = [];
  const over = (what: string, tokens: number, limit: ModelBudget, key: string) =>
    `${what} is ${tokens.toLocaleString('en')} tokens (o200k), over \`token_budget.${key}\` (${limit.limit.toLocaleString('en')}, line ${limit.span.start.line}).`;
  const promptSpans = new Map(model.prompts.map((p) => [p.nodeId, p.span]));
  const nodeSpans = new Map(model.nodes.map((n) => [n.id, n.span]));
  const where = (node: string) => promptSpans.get(node) ?? nodeSpans.get(node) ?? model.flowchartSpan;

  if (budget.systemPrompt !== null && report.system_prompt > budget.systemPrompt.limit) {
    diagnostics.push(
      diagnosticAt(
        model.file,
        'SOP057',
        budget.systemPrompt.span,
        over('The system prompt', report.system_prompt, budget.systemPrompt, 'system_prompt'),
      ),
    );
  }
  for (const node of report.nodes) {
    if (budget.nodePrompt !== null && node.prompt !== null && node.prompt > budget.nodePrompt.limit) {
      diagnostics.push(
        diagnosticAt(
          model.file,
          'SOP057',
          where(node.node),
          over(`The prompt of ${quoted(node.node)}`, node.prompt, budget.nodePrompt, 'node_prompt'),
        ),
      );
    }
    if (budget.gotoAnswer !== null && node.goto_answer !== null && node.goto_answer > budget.gotoAnswer.limit) {
      diagnostics.push(
        diagnosticAt(
          model.file,
          'SOP057',
          where(node.node),
          over(
            `The goto_node answer for ${quoted(node.node)} (reached by ${node.path!.join(' → ')})`,
            node.goto_answer,
            budget.gotoAnswer,
            'goto_answer',
          ),
        ),
      );
    }
  }
  return diagnostics;
}

/** SOP058: the SOP has a budget, but the tokens could not be counted (`reason`); reported at its first limit. */
export function uncheckedBudgetDiagnostic(model: SopModel, reason: string): Diagnostic {
  const budget = model.tokenBudget;
  const span = budget?.nodePrompt?.span ?? budget?.systemPrompt?.span ?? budget?.gotoAnswer?.span ?? model.flowchartSpan;
  return diagnosticAt(model.file, 'SOP058', span, `\`token_budget\` was not checked: ${reason}.`);
}
