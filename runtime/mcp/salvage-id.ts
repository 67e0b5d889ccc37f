/**
 * The request id of a message too large to read whole, from its first and last bytes: the transport keeps only
 * those of an over-limit line, so that its error can carry the id the client waits on (an error with id null
 * matches no pending request, and the client would wait forever).
 *
 * Clients write the id either first (`{"jsonrpc":"2.0","id":7,...`) or last (`...,"jsonrpc":"2.0","id":7}`): the
 * head is scanned as JSON for a member `id` of the outer object; the tail is read backwards, where the member just
 * before the final `}` can only belong to the outer object. Anything unsure gives undefined: a wrong id would be
 * worse than none.
 */

export type RequestId = string | number;

export function salvageRequestId(head: string, tail: string): RequestId | undefined {
  return idInHead(head) ?? idInTail(tail);
}

const ID_VALUE = /^\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/;

function idInHead(head: string): RequestId | undefined {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      const end = endOfString(head, i);
      if (end === -1) return undefined;
      if (depth === 1 && expectKey) {
        const key = head.slice(i, end + 1);
        const colon = /^\s*:/.exec(head.slice(end + 1));
        if (colon === null) return undefined;
        if (key === '"id"') return idValue(head.slice(end + 1 + colon[0].length));
        expectKey = false;
        i = end + colon[0].length;
        continue;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth < 1) return undefined;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return undefined;
}

function idInTail(tail: string): RequestId | undefined {
  const match = /,\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*}\s*$/.exec(tail);
  return match === null ? undefined : parseId(match[1] as string);
}

function idValue(text: string): RequestId | undefined {
  const match = ID_VALUE.exec(text);
  if (match === null) return undefined;
  // The value must be complete: a number cut by the head's end could be the start of a longer one.
  const after = text.slice(match[0].length);
  if (!/^\s*[,}]/.test(after)) return undefined;
  return parseId(match[1] as string);
}

function parseId(token: string): RequestId | undefined {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Index of the quote closing the string opened at `start`, or -1 when the text ends first. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
