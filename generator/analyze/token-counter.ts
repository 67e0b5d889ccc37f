/**
 * Counts tokens the way current OpenAI models read text (o200k_base, from `gpt-tokenizer`). Loaded on demand: the
 * encoder's tables take about 200 ms to load, which only `sop build --report` and a SOP with a `token_budget` pay;
 * a plain build never imports it.
 */
export type CountTokens = (text: string) => number;

export async function loadTokenCounter(): Promise<CountTokens> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => countTokens(text);
}
