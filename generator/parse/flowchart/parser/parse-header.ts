/**
 * The first statement: `flowchart` or `graph`, then an optional direction (`TD`, `TB`, `BT`, `LR`, `RL`, or
 * Mermaid's arrows `>`, `<`, `^`, `v`), then a new line or `;`. Anything else first means the block is not a
 * flowchart, and nothing more is parsed.
 */
import type { FlowDirection } from '../ast.js';
import type { HeaderInput } from './ast-builder.js';
import { expected, fail, note, type ParseContext } from './parse-context.js';
import { syntaxProblem, type RawProblem } from '../problem.js';
import { recovering } from './recovery.js';
import { describeToken, type Token } from '../scanner/token.js';

/** What each written direction means; a Map, since what is looked up is the author's text. */
const DIRECTIONS: ReadonlyMap<string, FlowDirection> = new Map([
  ['TD', 'TD'],
  ['TB', 'TB'],
  ['BT', 'BT'],
  ['LR', 'LR'],
  ['RL', 'RL'],
  ['>', 'LR'],
  ['<', 'RL'],
  ['^', 'BT'],
  ['v', 'TB'],
]);
const USE_DIRECTION = 'Use TD, TB, BT, LR or RL.';
const START_WITH = "Start the block with 'flowchart TD' (or 'flowchart LR', 'graph TD' …).";

/** The header, or why the text is not a flowchart. */
export type HeaderResult = { readonly header: HeaderInput } | { readonly notAFlowchart: RawProblem };

/** Parses the header. Problems in a header that is there (a bad direction …) are recorded in `ctx`. */
export function parseHeader(ctx: ParseContext): HeaderResult {
  const header = parseHeaderLine(ctx);
  return 'keyword' in header ? { header } : { notAFlowchart: header };
}

function parseHeaderLine(ctx: ParseContext): HeaderInput | RawProblem {
  const { stream } = ctx;
  while (stream.peek().kind === 'SPACE' || stream.peek().kind === 'NEWLINE') stream.next();
  const first = stream.peek();
  if (first.kind !== 'GRAPH' || first.text === 'swimlane-beta') return notAFlowchart(first);
  stream.next();
  if (first.text === 'flowchart-elk') {
    const remediation = "Write 'flowchart' (choose the ELK layout in Mermaid's configuration instead).";
    note(ctx, 'SOP014', first, "'flowchart-elk' is not supported", remediation);
  }
  const keyword = first.text === 'graph' ? 'graph' : 'flowchart';
  const header = { keyword, start: first.start } as const;
  const dir = stream.peek();
  if (dir.kind === 'NODIR') {
    stream.next();
    return { ...header, direction: 'TD', end: first.end };
  }
  const parsed = recovering(ctx, first.start, () => {
    if (dir.kind !== 'DIR') expected(dir, 'a direction (TD, TB, BT, LR or RL) or a new line', `after '${first.text}'`, USE_DIRECTION);
    stream.next();
    const written = dir.text.trim();
    const direction = DIRECTIONS.get(written);
    if (direction === undefined) {
      note(ctx, 'SOP014', { start: dir.end - written.length, end: dir.end }, `The direction '${written}' is not supported`, USE_DIRECTION);
    }
    endOfHeader(ctx, `${first.text} ${written}`);
    return { ...header, direction: direction ?? 'TD', end: dir.end };
  });
  return parsed ?? { ...header, direction: 'TD', end: first.end };
}

/** Mermaid's `FirstStmtSeparator`: `;`, a new line, or blanks then a new line. */
function endOfHeader(ctx: ParseContext, header: string): void {
  const { stream } = ctx;
  stream.accept('SPACE');
  const t = stream.peek();
  if (t.kind === 'NEWLINE' || t.kind === 'EOF') return;
  if (t.kind === 'SEMI' && stream.previous?.kind !== 'SPACE') {
    stream.next();
    return;
  }
  fail(
    t,
    `Expected a new line or ';' after '${header}' but found ${describeToken(t)}`,
    "Start the first statement on the next line, or write ';' right after the direction.",
  );
}

function notAFlowchart(found: Token): RawProblem {
  if (found.kind === 'EOF') {
    return syntaxProblem(found.start, found.end, "The mermaid block is empty: expected 'flowchart' or 'graph'", START_WITH);
  }
  const word = /^[^\s;]*/.exec(found.text)?.[0] ?? found.text;
  const caseHint = ['flowchart', 'graph'].includes(word.toLowerCase()) ? ` (keywords are lower case: '${word.toLowerCase()}')` : '';
  return syntaxProblem(
    found.start,
    Math.max(found.end, found.start + 1),
    `Expected 'flowchart' or 'graph' at the start of the diagram but found ${describeToken(found)}${caseHint}`,
    START_WITH,
  );
}
