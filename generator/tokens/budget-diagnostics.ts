/**
 * The diagnostics a build adds to a file after compiling it: its `token_budget`, measured on the agent's compiled
 * answers (SOP057), or SOP058 at the budget when the optional tokenizer is not installed, so a budget is never
 * silently unchecked. The tokenizer is loaded only when some SOP declares a limit. `sop build` measures the bundle it
 * planned; the language server and the preview measure the same `CompiledSop` made in memory.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { BoundedDiagnostics } from '../diagnostics/bounded-diagnostics.js';
import { type Diagnostic, internalErrorDiagnostic } from '../diagnostics/diagnostic.js';
import type { SopModel } from '../model/sop-model.js';
import type { CountTokens } from './token-counter.js';

export interface BudgetedAgent {
  readonly model: SopModel;
  /** The agent as compiled (null when it is not: nothing to measure). */
  readonly sop: CompiledSop | null;
}

/** Whether a model declares at least one token limit. */
export function hasTokenBudget(model: SopModel): boolean {
  const b = model.tokenBudget;
  return b !== null && (b.nodePrompt ?? b.systemPrompt ?? b.gotoAnswer) !== null;
}

/**
 * Token counts of texts already counted, for a caller that measures the same SOPs again and again (the language
 * server after each edit): an edit changes a prompt or two, and byte-pair encoding the unchanged rest again is most of
 * the cost (11 ms of 12 for the retail SOP). Bounded by the characters it holds; emptied when over.
 */
export interface TokenCountCache {
  readonly counts: Map<string, number>;
  characters: number;
}

const CACHED_CHARACTERS = 8 * 1024 * 1024;

export function tokenCountCache(): TokenCountCache {
  return { counts: new Map(), characters: 0 };
}

function cachedCount(count: CountTokens, cache: TokenCountCache): CountTokens {
  return (text) => {
    const known = cache.counts.get(text);
    if (known !== undefined) return known;
    const counted = count(text);
    if (cache.characters + text.length > CACHED_CHARACTERS) {
      cache.counts.clear();
      cache.characters = 0;
    }
    cache.counts.set(text, counted);
    cache.characters += text.length;
    return counted;
  };
}

/** SOP057 / SOP058 per file, for the agents that declare a budget (the others are left out). */
export async function budgetDiagnosticsOf(
  agents: readonly BudgetedAgent[],
  cache?: TokenCountCache,
): Promise<Map<string, readonly Diagnostic[]>> {
  const budgeted = agents.filter((a) => hasTokenBudget(a.model));
  if (budgeted.length === 0) return new Map();
  const [{ loadTokenCounter }, { budgetDiagnostics, uncheckedBudgetDiagnostic }] = await Promise.all([
    import('./token-counter.js'),
    import('./token-budgets.js'),
  ]);
  const counter = await loadTokenCounter();
  if (!counter.ok) return new Map(budgeted.map(({ model }) => [model.file, [uncheckedBudgetDiagnostic(model, counter.error)]]));
  const count = cache === undefined ? counter.count : cachedCount(counter.count, cache);
  return new Map(
    budgeted.map(({ model, sop }) => {
      // Measuring makes the server's own answers (contract/answers/): a bug met there fails this file's check, not the whole build.
      try {
        return [model.file, sop === null ? [] : budgetDiagnostics(model, sop, count)];
      } catch (error) {
        return [model.file, [internalErrorDiagnostic(model.file, error)]];
      }
    }),
  );
}

/**
 * A file's diagnostics with the build's own (token budgets, found after compiling) under the same per-file cap: a
 * budget a 500-node SOP overruns everywhere is 1,000 warnings otherwise. A file already over the cap (its SOP091
 * counts what it dropped) shows none of them, as it would show no more of its own.
 */
export function withinFileCap(found: readonly Diagnostic[], added: readonly Diagnostic[]): readonly Diagnostic[] {
  if (added.length === 0 || found.some((d) => d.code === 'SOP091')) return found;
  const bounded = new BoundedDiagnostics();
  bounded.push(...found, ...added);
  return bounded.result();
}
