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
    return { ok: true, count: inBoundedRuns(countTokens) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    return { ok: false, error: `token counts need the optional package gpt-tokenizer, which is not installed: ${TOKENIZER_INSTALL}` };
  }
}

/** Longest run of whitespace or of non-whitespace counted in one piece. No word of prose comes near it. */
const LONGEST_RUN = 256;

/**
 * Byte-pair encoding is quadratic in the length of a pre-tokenised piece, and a piece is a run of letters, of
 * punctuation or of spaces: 40,000 `(` in a prompt took the encoder 3.5 s. So a run longer than `LONGEST_RUN` is
 * counted in slices of that length, which keeps counting linear. Text without such runs (any prose) is counted
 * exactly; a slice boundary can change the count of a pathological run by a token.
 */
export function inBoundedRuns(count: CountTokens): CountTokens {
  return (text) => {
    let total = 0;
    let start = 0;
    let run = 0;
    let previousSpace = false;
    for (let i = 0; i < text.length; i++) {
      const space = isSpace(text.charCodeAt(i));
      run = space === previousSpace ? run + 1 : 1;
      previousSpace = space;
      if (run > LONGEST_RUN) {
        total += count(text.slice(start, i));
        start = i;
        run = 1;
      }
    }
    return total + count(text.slice(start));
  };
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}
