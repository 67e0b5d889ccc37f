/**
 * Counts tokens the way current OpenAI models read text (o200k_base, from `gpt-tokenizer`). Loaded on demand: the
 * encoder's tables take about 200 ms to load, which only `sop build --report` and a SOP with a `token_budget` pay;
 * a plain build never imports it.
 *
 * `gpt-tokenizer` is an optional peer dependency (30 MB installed, a third of an app's install for a feature most
 * builds never use), so its absence is a value the callers turn into a warning or a usage error, never a crash.
 */
export type CountTokens = (text: string) => number;

export type TokenCounterLoad = { readonly ok: true; readonly count: CountTokens } | { readonly ok: false; readonly error: string };

export const TOKENIZER_INSTALL = 'npm install --save-dev gpt-tokenizer@4';

export async function loadTokenCounter(): Promise<TokenCounterLoad> {
  try {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    return { ok: true, count: (text) => countTokens(text) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    return { ok: false, error: `token counts need the optional package gpt-tokenizer, which is not installed: ${TOKENIZER_INSTALL}` };
  }
}
