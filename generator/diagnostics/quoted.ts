/**
 * Quotes a name from the SOP for a diagnostic message as `` `name` ``, shortened in the middle when it is long: a
 * message must stay one readable line even when the name is a megabyte of text.
 */

const MAX_SHOWN = 60;

export function quoted(name: string): string {
  if (name.length <= MAX_SHOWN) return `\`${name}\``;
  const half = MAX_SHOWN / 2;
  return `\`${name.slice(0, half)}…${name.slice(-half)}\` (${name.length.toLocaleString('en')} characters)`;
}
