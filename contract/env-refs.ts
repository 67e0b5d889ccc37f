/**
 * `${VAR}` references in a SOP's `mcp_servers` values: how a SOP names what it must not contain (tokens, hosts
 * that differ between staging and production). The compiler checks their syntax; the gateway expands them from
 * its environment when it starts. The syntax is the one MCP clients already use in `.mcp.json`:
 *   - `${NAME}`: the variable's value; a variable that is not set is an error when the gateway starts;
 *   - `${NAME:-default}`: the value, or `default` when the variable is unset or empty.
 * NAME is `[A-Za-z_][A-Za-z0-9_]*`. A `$` not followed by `{` is kept as it is.
 *
 * Pure and browser-safe.
 */

export type EnvRefPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'ref'; readonly name: string; readonly fallback: string | null };

export type EnvRefParse =
  | { readonly ok: true; readonly parts: readonly EnvRefPart[] }
  | { readonly ok: false; readonly error: string; readonly index: number };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseEnvRefs(text: string): EnvRefParse {
  const parts: EnvRefPart[] = [];
  let last = 0;
  for (let start = text.indexOf('${'); start !== -1; start = text.indexOf('${', last)) {
    const end = text.indexOf('}', start + 2);
    if (end === -1) return { ok: false, error: 'a `${` is never closed with `}`', index: start };
    const body = text.slice(start + 2, end);
    const split = body.indexOf(':-');
    const name = split === -1 ? body : body.slice(0, split);
    if (!NAME.test(name)) {
      return { ok: false, error: `\`\${${body}}\` does not name a variable: write \`\${NAME}\` or \`\${NAME:-default}\``, index: start };
    }
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'ref', name, fallback: split === -1 ? null : body.slice(split + 2) });
    last = end + 1;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return { ok: true, parts };
}

/** Whether `text` holds at least one well-formed reference. */
export function hasEnvRef(text: string): boolean {
  const parsed = parseEnvRefs(text);
  return parsed.ok && parsed.parts.some((part) => part.kind === 'ref');
}

export type EnvExpansion = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string };

/** `text` with its references replaced from `env`; an unset variable without a default is an error naming it. */
export function expandEnvRefs(text: string, env: { readonly [name: string]: string | undefined }): EnvExpansion {
  const parsed = parseEnvRefs(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  let value = '';
  for (const part of parsed.parts) {
    if (part.kind === 'text') {
      value += part.text;
      continue;
    }
    const set = Object.hasOwn(env, part.name) ? env[part.name] : undefined;
    if (part.fallback !== null) value += set === undefined || set === '' ? part.fallback : set;
    else if (set === undefined) return { ok: false, error: `the environment variable ${part.name} is not set` };
    else value += set;
  }
  return { ok: true, value };
}
